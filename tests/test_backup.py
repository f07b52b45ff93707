"""Backups that come back: deploy/backup writes a dated folder (the database as a pg_dump,
every campaign as an export_campaign file, the photographs' files); deploy/restore brings
the dump back into an empty database and the photographs into VAR_DIR/media, and
import_campaign brings any one campaign back, with nothing lost."""

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import psycopg
import pytest

from accounts.models import User
from battles.models import Battle, BattlePhoto
from campaign.models import Campaign, CampaignMap, Membership, Snapshot, Submission
from tests.battles.conftest import hand_off, make_league
from tests.battles.pictures import photo_on
from tests.campaign.helpers import LEAGUE_CAST, make_cast, new_campaign, play_until
from tests.conftest import BASE_DIR, database_url_for_tests

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
BACKUP = BASE_DIR / "deploy" / "backup"
RESTORE = BASE_DIR / "deploy" / "restore"
KEPT = (User, Campaign, Membership, CampaignMap, Snapshot, Submission, Battle)


def run(
    *command: str | Path, database_url: str, **env: str | Path | None
) -> subprocess.CompletedProcess[str]:
    """The command, with the app's environment and these variables (None: unset)."""
    environment = {**os.environ, "DATABASE_URL": database_url}
    for name, value in env.items():
        if value is None:
            environment.pop(name, None)
        else:
            environment[name] = str(value)
    return subprocess.run(
        [str(part) for part in command], cwd=BASE_DIR, env=environment,
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def manage(*args: str | Path, database_url: str) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "manage.py", *args, database_url=database_url)


@contextmanager
def empty_database() -> Iterator[str]:
    """A new, empty database beside the test database, dropped on the way out."""
    name = f"mk_restore_{uuid.uuid4().hex[:10]}"
    server = database_url_for_tests().rsplit("/", 1)[0]
    with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"{server}/{name}"
    finally:
        with psycopg.connect(f"{server}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def rows(database_url: str, table: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(database_url) as db:
        return db.execute(f'SELECT * FROM "{table}" ORDER BY 1').fetchall()


def a_campaign_with_history() -> Campaign:
    cast = make_cast()
    campaign = new_campaign(cast)
    play_until(campaign, cast, lambda data: campaign.snapshots.count() >= 6)
    return campaign


def backed_up(tmp_path: Path) -> Path:
    """A backup of the test database, the app's VAR_DIR being tmp_path/var."""
    result = run(
        BACKUP, tmp_path / "backups",
        database_url=database_url_for_tests(), VAR_DIR=tmp_path / "var",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    (folder,) = (tmp_path / "backups").iterdir()
    return folder


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under the folder, by its name there."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in folder.rglob("*")
        if path.is_file()
    }


def test_a_restored_backup_holds_every_campaign_snapshot_submission_and_user(postgres, tmp_path):
    a_campaign_with_history()
    assert Submission.objects.count() > 0
    folder = backed_up(tmp_path)
    assert sorted(path.name for path in folder.iterdir()) == ["campaigns", "database.dump"]
    source = database_url_for_tests()
    with empty_database() as target:
        result = run(RESTORE, folder, database_url=target)
        assert result.returncode == 0, result.stderr
        for model in KEPT:
            table = model._meta.db_table
            assert rows(target, table) == rows(source, table), f"{table} differs"
        assert manage("migrate", "--check", database_url=target).returncode == 0


def test_a_restore_into_a_database_that_has_tables_changes_nothing(postgres, tmp_path):
    a_campaign_with_history()
    folder = backed_up(tmp_path)
    source = database_url_for_tests()
    snapshots_before = rows(source, Snapshot._meta.db_table)
    result = run(RESTORE, folder, database_url=source)
    assert result.returncode != 0
    assert "already exists" in result.stderr
    assert rows(source, Snapshot._meta.db_table) == snapshots_before


def test_each_campaign_of_a_backup_imports_again_as_it_was(postgres, tmp_path):
    campaign = a_campaign_with_history()
    folder = backed_up(tmp_path)
    (exported,) = (folder / "campaigns").iterdir()
    assert exported.name == f"{campaign.slug}.json"
    with empty_database() as target:
        assert manage("migrate", "--noinput", database_url=target).returncode == 0
        result = manage("import_campaign", exported, database_url=target)
        assert result.returncode == 0, result.stderr
        again = manage("export_campaign", campaign.slug, database_url=target)
        assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout) == json.loads(exported.read_text())


def test_backups_older_than_the_newest_few_are_deleted(postgres, tmp_path):
    root = tmp_path / "backups"
    for old in ("2020-01-01T000000Z", "2020-01-02T000000Z", "2020-01-03T000000Z"):
        (root / old).mkdir(parents=True)
    result = subprocess.run(
        [BACKUP, root], cwd=BASE_DIR, capture_output=True, text=True, timeout=300,
        env={**os.environ, "DATABASE_URL": database_url_for_tests(), "BACKUP_KEEP": "2"},
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    kept = sorted(path.name for path in root.iterdir())
    assert kept[0] == "2020-01-03T000000Z"
    assert len(kept) == 2


def test_export_all_writes_every_campaign_into_a_folder(postgres, tmp_path):
    cast = make_cast()
    new_campaign(cast, "Autumn League")
    new_campaign(cast, "Winter League", start=False)
    result = manage("export_campaign", "--all", tmp_path, database_url=database_url_for_tests())
    assert result.returncode == 0, result.stderr
    assert sorted(path.name for path in tmp_path.iterdir()) == [
        "autumn-league.json",
        "winter-league.json",
    ]
    assert "Wrote 2 campaigns" in result.stderr


def test_export_needs_a_slug_or_all(postgres):
    result = manage("export_campaign", database_url=database_url_for_tests())
    assert result.returncode == 2
    assert "Give a campaign's slug, or --all DIR." in result.stderr


def test_a_backup_keeps_the_photographs_and_a_restore_puts_them_back(postgres, tmp_path, settings):
    """The app keeps its photographs as files in VAR_DIR/media: the backup copies them, the
    restore puts them back where the restored database's photographs name them."""
    settings.MEDIA_ROOT = tmp_path / "var" / "media"
    cast = make_cast(LEAGUE_CAST)
    battle = hand_off(make_league(cast), cast)
    assert battle is not None
    photo = photo_on(battle, "aldermark", cast["alice"])
    kept = files_in(settings.MEDIA_ROOT)
    assert sorted(kept) == sorted(photo.files())

    folder = backed_up(tmp_path)

    assert sorted(path.name for path in folder.iterdir()) == ["campaigns", "database.dump", "media"]
    assert files_in(folder / "media") == kept
    exported = folder / "campaigns" / f"{battle.campaign.slug}.json"
    (report,) = json.loads(exported.read_text())["battle_reports"]
    assert [p["content_type"] for p in report["photos"]] == ["image/jpeg"]
    restored_var = tmp_path / "restored"
    with empty_database() as target:
        result = run(RESTORE, folder, database_url=target, VAR_DIR=restored_var)
        assert result.returncode == 0, result.stderr
        named = rows(target, BattlePhoto._meta.db_table)
    assert "photographs copied into" in result.stdout
    restored = files_in(restored_var / "media")
    assert restored == kept
    (row,) = named
    assert {photo.large.name, photo.thumbnail.name} <= set(row)


def test_a_restore_of_photographs_asks_where_the_app_keeps_them(postgres, tmp_path, settings):
    """Without VAR_DIR the photographs would go under the app's own folder, where the
    app does not look: refused before anything is restored."""
    settings.MEDIA_ROOT = tmp_path / "var" / "media"
    cast = make_cast(LEAGUE_CAST)
    battle = hand_off(make_league(cast), cast)
    assert battle is not None
    photo_on(battle, "aldermark", cast["alice"])
    folder = backed_up(tmp_path)

    with empty_database() as target:
        result = run(RESTORE, folder, database_url=target, VAR_DIR=None)
        tables = rows(target, "pg_tables")

    assert result.returncode == 2
    assert "VAR_DIR must name the app's VAR_DIR" in result.stderr
    assert not any(table[0] == "public" for table in tables)  # nothing restored
