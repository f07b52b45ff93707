"""`manage.py bench_storage [--quick]`: how much database the snapshots of a finished
campaign take, stored as the app stores them, against the same files stored whole (as
snapshots were before the map and the events were kept apart).

The campaign is the simulator's (8 kingdoms, 6 years, bots) on a generated 1,000-hex map;
`--quick` plays a small one instead. It is stored as a campaign of the configured database
through the app's own `Snapshot` storing, read back and checked against the files, and the
same files go whole into a throwaway table with the old snapshot table's columns. Both are
measured by difference, on PostgreSQL with `pg_total_relation_size` after `VACUUM FULL` (so
that the rows an advance leaves behind count only once autovacuum would reclaim them: run
it on a bench database, as `make bench` does), on SQLite with its `dbstat` table (no
compression there). Everything it creates is deleted at the end. One figure a line,
`bench: NAME VALUE UNIT`, then `bench: target_storage_5x met` (or `not met`)."""

import json
import random
from argparse import ArgumentParser
from collections.abc import Iterator
from typing import Any

from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, transaction

from campaign.models import Campaign, CampaignMap, Snapshot
from campaign.rules.mapgen import generate_map
from campaign.rules.simulation import campaign_files, new_campaign

SEED = 1
FULL = (8, 1000)  # the campaign: 8 kingdoms on 1,000 hexes
QUICK = (2, 60)
TARGET_RATIO = 5.0
SLUG = "bench-storage"
WHOLE_TABLE = "bench_storage_whole_files"
APP_TABLES = (Snapshot._meta.db_table, CampaignMap._meta.db_table)
MB = 1_000_000

# The snapshot table's columns when each row held its whole file (migration 0004).
WHOLE_TABLE_SQL = {
    "postgresql": [
        f"CREATE TABLE {WHOLE_TABLE} (id bigserial PRIMARY KEY, number integer NOT NULL, "
        "data jsonb NOT NULL, decisions jsonb NOT NULL, reason varchar(12) NOT NULL, "
        "defaults boolean NOT NULL, created_at timestamptz NOT NULL, "
        "campaign_id bigint NOT NULL, created_by_id bigint NULL, UNIQUE (campaign_id, number))",
        f"CREATE INDEX {WHOLE_TABLE}_campaign ON {WHOLE_TABLE} (campaign_id)",
        f"CREATE INDEX {WHOLE_TABLE}_created_by ON {WHOLE_TABLE} (created_by_id)",
    ],
    "sqlite": [
        f"CREATE TABLE {WHOLE_TABLE} (id integer PRIMARY KEY AUTOINCREMENT, "
        "number integer NOT NULL, data text NOT NULL, decisions text NOT NULL, "
        "reason varchar(12) NOT NULL, defaults bool NOT NULL, created_at datetime NOT NULL, "
        "campaign_id bigint NOT NULL, created_by_id bigint NULL, UNIQUE (campaign_id, number))",
        f"CREATE INDEX {WHOLE_TABLE}_campaign ON {WHOLE_TABLE} (campaign_id)",
        f"CREATE INDEX {WHOLE_TABLE}_created_by ON {WHOLE_TABLE} (created_by_id)",
    ],
}


class Command(BaseCommand):
    help = "Measure the database size of a finished campaign's snapshots, whole and as stored."
    requires_system_checks = []  # noqa: RUF012  (run by `make bench`, with no key set)

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--quick", action="store_true", help="a small campaign (2 kingdoms)")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor not in WHOLE_TABLE_SQL:
            raise CommandError(
                f"bench_storage measures PostgreSQL or SQLite, not {connection.vendor}."
            )
        call_command("migrate", verbosity=0)
        for line in bench(*(QUICK if options["quick"] else FULL)):
            self.stdout.write(line)


def bench(kingdoms: int, size: int) -> Iterator[str]:
    """Every figure, then the target, one line each."""
    label = f"{kingdoms}k_{size}hex"
    hexmap = generate_map(kingdoms, SEED, size)
    start = new_campaign(kingdoms, SEED, hexmap)
    files = json.loads(json.dumps(list(campaign_files(start, random.Random(SEED), hexmap))))
    if connection.vendor == "sqlite":
        yield "bench: storage measured on SQLite (no compression): PostgreSQL gives the figures"
    if Campaign.objects.filter(slug=SLUG).exists():
        raise CommandError(f"A campaign {SLUG!r} is left from an earlier run: delete it first.")
    maps_before = set(CampaignMap.objects.values_list("digest", flat=True))
    try:
        empty = size_of(APP_TABLES)
        campaign = store_campaign(files, start["map"])
        after = size_of(APP_TABLES) - empty
        check_read_back(campaign, files)
        with connection.cursor() as cursor:
            for statement in WHOLE_TABLE_SQL[connection.vendor]:
                cursor.execute(statement)
        empty = size_of([WHOLE_TABLE])
        store_whole(files, campaign.pk)
        before = size_of([WHOLE_TABLE]) - empty
    finally:
        Campaign.objects.filter(slug=SLUG).delete()
        CampaignMap.objects.exclude(digest__in=maps_before).filter(snapshots=None).delete()
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE IF EXISTS {WHOLE_TABLE}")
    ratio = before / after
    yield f"bench: storage_snapshots_{label} {len(files)} snapshots"
    yield f"bench: storage_before_{label} {before / MB:.2f} MB"
    yield f"bench: storage_after_{label} {after / MB:.2f} MB"
    yield f"bench: storage_ratio_{label} {ratio:.1f} x"
    yield f"bench: target_storage_{TARGET_RATIO:g}x {'met' if ratio >= TARGET_RATIO else 'not met'}"


def store_campaign(files: list[dict[str, Any]], hexmap: dict[str, Any]) -> Campaign:
    """The files as the snapshots of a new campaign, one advance after another."""
    with transaction.atomic():
        campaign = Campaign.objects.create(
            name="Storage bench",
            slug=SLUG,
            status=Campaign.Status.ENDED,
            kingdoms=len(files[0]["kingdoms"]),
            options=files[0].get("options", {}),
            map_name="generated",
            map=hexmap,
        )
    for number, file in enumerate(files, start=1):
        snapshot = Snapshot(
            campaign=campaign,
            number=number,
            decisions=file.get("inputs", {}),
            reason=Snapshot.Reason.START if number == 1 else Snapshot.Reason.ADVANCE,
        )
        snapshot.data = file  # stored as the app stores it (campaign.storage)
        with transaction.atomic():
            snapshot.save()
    return campaign


def store_whole(files: list[dict[str, Any]], campaign_id: int) -> None:
    cast = "::jsonb" if connection.vendor == "postgresql" else ""
    with transaction.atomic(), connection.cursor() as cursor:
        for number, file in enumerate(files, start=1):
            cursor.execute(
                f"INSERT INTO {WHOLE_TABLE} (number, data, decisions, reason, defaults, "
                f"created_at, campaign_id) VALUES (%s, %s{cast}, %s{cast}, %s, %s, "
                "CURRENT_TIMESTAMP, %s)",
                [
                    number,
                    json.dumps(file),
                    json.dumps(file.get("inputs", {})),
                    "advance",
                    False,
                    campaign_id,
                ],
            )


def check_read_back(campaign: Campaign, files: list[dict[str, Any]]) -> None:
    """Every snapshot, read alone as a page reads it, is its file."""
    numbers = Snapshot.objects.filter(campaign=campaign).values_list("number", flat=True)
    for number in numbers:
        stored = Snapshot.objects.get(campaign=campaign, number=number).data
        if stored != files[number - 1]:
            raise CommandError(f"Snapshot {number} does not read back as the file stored.")


def size_of(tables: list[str] | tuple[str, ...]) -> int:
    """Bytes the tables take with their indexes (and, on PostgreSQL, TOAST), live rows only."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(f"VACUUM FULL {', '.join(tables)}")
            cursor.execute(
                "SELECT sum(pg_total_relation_size(name::regclass)) FROM unnest(%s::text[]) AS name",
                [list(tables)],
            )
        else:
            cursor.execute("VACUUM")
            marks = ", ".join(["%s"] * len(tables))
            cursor.execute(
                "SELECT sum(pgsize) FROM dbstat WHERE name IN "
                f"(SELECT name FROM sqlite_master WHERE tbl_name IN ({marks}))",
                list(tables),
            )
        row = cursor.fetchone()
    return int(row[0] or 0) if row else 0
