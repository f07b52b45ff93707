"""Export and import (campaign/transfer.py, manage.py export_campaign and import_campaign):
a campaign goes out as one JSON document and comes back exactly; a bad document is
refused with one line and exit status 2, and changes nothing."""

import copy
import json
import random
import time
from typing import Any

import pytest
from django.core.management import call_command, load_command_class
from django.db import connections

from accounts.models import User
from campaign import services
from campaign.management.commands.seed_demo import play_bot_step
from campaign.maps import load_builtin_map
from campaign.models import AuditEntry, Campaign, Membership, Snapshot, Submission
from campaign.rules.simulation import play_campaign
from campaign.services import ServiceError
from campaign.transfer import campaign_export, campaign_import

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    make = User.objects.create_user
    return {name: make(name, password="a-long-test-password") for name in ("gm", "alice", "bob")}


def start_campaign(cast: dict[str, User], seed: int = 5) -> Campaign:
    campaign = services.campaign_create(
        name="Autumn League",
        admin=cast["gm"],
        kingdoms=2,
        map_name="borderlands",
        options={"seed": seed},
    )
    services.campaign_join(
        campaign=campaign, user=cast["alice"], kingdom_name="Red", colour="#aa0000"
    )
    services.campaign_join(campaign=campaign, user=cast["bob"], kingdom_name="Blue")
    services.campaign_start(campaign=campaign, actor=cast["gm"])
    campaign.refresh_from_db()
    return campaign


def play(
    campaign: Campaign, cast: dict[str, User], *, steps: int | None = None, seed: int = 5
) -> None:
    """Bots answer through the services, for some steps or to the end of the campaign."""
    players = {"red": cast["alice"], "blue": cast["bob"]}
    rng = random.Random(seed)
    for _ in range(steps if steps is not None else 1000):
        play_bot_step(campaign, players=players, admin=cast["gm"], rng=rng)
        campaign.refresh_from_db()
        if campaign.status == Campaign.Status.ENDED:
            return


def draft_orders(campaign: Campaign, user: User) -> Submission:
    """Orders for every unit the newest snapshot waits for from the user's kingdom:
    each army defends, each ship stays."""
    data = services.latest_snapshot(campaign).data
    kingdom = services.kingdom_of(campaign, user)
    (pending,) = [p for p in data["pending"] if p["kingdom"] == kingdom]
    assert pending["kind"] == "orders"
    ships = {s["id"] for s in data.get("ships", [])}
    orders = [
        {"unit": unit, "order": "stay" if unit in ships else "defend"} for unit in pending["units"]
    ]
    return services.submission_save(campaign=campaign, user=user, kind="orders", payload=orders)


def moved(document: dict[str, Any]) -> Campaign:
    """The document imported on a server where the campaign is not (it is deleted here),
    after a trip through JSON text."""
    Campaign.objects.filter(slug=document["campaign"]["slug"]).delete()
    return campaign_import(json.loads(json.dumps(document)))


def database() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Campaign, Membership, Snapshot, Submission, AuditEntry, User)
    }


# --- the round trip -------------------------------------------------------------------


def test_a_campaign_some_months_in_comes_back_exactly(cast):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    assert services.latest_snapshot(campaign).data["clock"]["season"] == "summer"
    draft_orders(campaign, cast["alice"])
    exported = campaign_export(campaign)

    imported = moved(exported)

    assert campaign_export(imported) == exported
    assert imported.status == Campaign.Status.RUNNING
    assert list(imported.snapshots.values_list("number", flat=True)) == list(range(1, 10))
    assert exported["file"] == exported["snapshots"][-1]["data"]
    assert [m["username"] for m in exported["members"]] == ["gm", "alice", "bob"]
    (draft,) = exported["submissions"]
    assert (draft["kingdom"], draft["kind"], draft["ready"]) == ("red", "orders", False)


def test_a_public_campaign_keeps_its_deadline_days_and_time_zone(cast):
    campaign = start_campaign(cast)
    campaign.public, campaign.deadline_days, campaign.time_zone = True, [1, 3], "Europe/Paris"
    campaign.save()
    exported = campaign_export(campaign)

    imported = moved(exported)

    assert (imported.public, imported.deadline_days, imported.time_zone) == (
        True, [1, 3], "Europe/Paris",
    )  # fmt: skip
    assert campaign_export(imported) == exported


def test_the_imported_campaign_plays_on_from_where_it_was(cast):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    before = services.latest_snapshot(campaign).number

    imported = moved(campaign_export(campaign))
    play(imported, cast, steps=1, seed=6)

    assert services.latest_snapshot(imported).number == before + 1


def test_a_whole_six_year_campaign_comes_back_exactly(cast):
    """Two kingdoms on the Borderlands, played by bots through the services from setup to
    the end of the sixth winter (about 70 snapshots, under two seconds here)."""
    campaign = start_campaign(cast)
    started = time.perf_counter()
    play(campaign, cast)
    assert time.perf_counter() - started < 60
    assert campaign.status == Campaign.Status.ENDED
    exported = campaign_export(campaign)
    assert exported["file"]["clock"] == {"year": 6, "season": "ended", "month": 0, "step": "final"}

    imported = moved(exported)

    assert campaign_export(imported) == exported
    assert imported.status == Campaign.Status.ENDED
    assert imported.snapshots.count() == len(exported["snapshots"]) > 50


def test_under_another_slug_it_is_a_copy_beside_the_original(cast):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=3)
    exported = campaign_export(campaign)

    copied = campaign_import(exported, slug="autumn-copy")

    again = campaign_export(copied)
    assert again["campaign"].pop("slug") == "autumn-copy"
    assert again["campaign"].pop("join_code") != exported["campaign"].pop("join_code")
    del exported["campaign"]["slug"]
    assert again == exported
    assert Campaign.objects.count() == 2


def test_members_missing_here_are_made_with_no_usable_password(cast):
    campaign = start_campaign(cast)
    exported = campaign_export(campaign)
    campaign.delete()
    User.objects.filter(username__in=["alice", "bob"]).delete()

    imported = campaign_import(exported)

    alice = User.objects.get(username="alice")
    assert not alice.has_usable_password()
    assert imported.memberships.get(user=alice).kingdom == "red"
    entry = AuditEntry.objects.get(campaign=imported, action="imported")
    assert entry.details["created_users"] == ["alice", "bob"]


def test_a_simulated_campaign_file_comes_in_as_a_history_of_one(cast):
    """The final file of a whole campaign played by the simulator, imported as the one
    snapshot of an ended campaign."""
    final = play_campaign(2, 3, load_builtin_map("borderlands"))
    document = {
        "export": 1,
        "campaign": {
            "name": final["name"],
            "slug": "simulated",
            "status": "ended",
            "kingdoms": 2,
            "options": final["options"],
            "deadlines": {"setup": 48, "orders": 72, "battles": 168, "winter": 48},
            "map_name": "borderlands",
            "deadline": None,
            "paused_with": None,
        },
        "members": [
            {"username": "gm", "kingdom": "", "kingdom_name": "", "colour": "",
             "heraldry": "", "is_admin": True},
            {"username": "alice", "kingdom": "red", "kingdom_name": "The Red Kingdom",
             "colour": "", "heraldry": "R", "is_admin": False},
            {"username": "bob", "kingdom": "blue", "kingdom_name": "The Blue Kingdom",
             "colour": "", "heraldry": "B", "is_admin": False},
        ],
        "snapshots": [
            {"number": 1, "reason": "import", "defaults": False, "data": final,
             "decisions": {}, "created_at": "2025-06-01T12:00:00+00:00"},
        ],
        "file": final,
    }  # fmt: skip

    imported = campaign_import(document)

    snapshot = services.latest_snapshot(imported)
    assert (snapshot.number, snapshot.reason) == (1, Snapshot.Reason.IMPORT)
    assert snapshot.data == final
    assert snapshot.created_at.isoformat() == "2025-06-01T12:00:00+00:00"
    assert imported.map == final["map"]
    assert imported.status == Campaign.Status.ENDED
    assert services.is_admin(imported, cast["gm"])


# --- the commands ---------------------------------------------------------------------


def test_the_commands_carry_a_campaign_through_a_file(cast, tmp_path, capsys):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=4)
    exported = campaign_export(campaign)
    path = tmp_path / "autumn.json"

    call_command("export_campaign", "autumn-league", "--out", str(path))
    call_command("import_campaign", str(path), "--slug", "autumn-2")

    assert json.loads(path.read_text(encoding="utf-8")) == exported
    out = capsys.readouterr().out
    assert "Imported 'Autumn League' as autumn-2 (running, 5 snapshots, 3 members)." in out
    copied = Campaign.objects.get(slug="autumn-2")
    assert [s.data for s in copied.snapshots.all()] == [s["data"] for s in exported["snapshots"]]


def test_export_writes_to_standard_output_without_out(cast, capsys):
    start_campaign(cast)
    call_command("export_campaign", "autumn-league")
    document = json.loads(capsys.readouterr().out)
    assert document["export"] == 1
    assert document["file"]["clock"]["step"] == "races"


def test_import_says_which_users_it_made(cast, tmp_path, capsys):
    path = tmp_path / "autumn.json"
    path.write_text(json.dumps(campaign_export(start_campaign(cast))), encoding="utf-8")
    Campaign.objects.all().delete()
    User.objects.filter(username="bob").delete()

    call_command("import_campaign", str(path))

    assert "Created users with no usable password: bob" in capsys.readouterr().out


@pytest.fixture
def run_command(monkeypatch):
    """A command run as manage.py runs it (a refusal printed, not raised), giving its exit
    status. It keeps the test's database connection open, which manage.py would close."""
    monkeypatch.setattr(connections, "close_all", lambda: None)

    def run(name: str, *args: str) -> int:
        command = load_command_class("campaign", name)
        with pytest.raises(SystemExit) as exit_:
            command.run_from_argv(["manage.py", name, *args])
        return int(exit_.value.code or 0)

    return run


def test_an_unknown_slug_is_refused_with_exit_status_2(run_command, capsys):
    status = run_command("export_campaign", "nowhere")
    err = capsys.readouterr().err
    assert status == 2
    assert err == "CommandError: There is no campaign with the slug 'nowhere'.\n"


# --- refusals -------------------------------------------------------------------------


def spoil(document: dict[str, Any], how: str) -> object:
    bad = copy.deepcopy(document)
    match how:
        case "a list":
            return [bad]
        case "no snapshots":
            del bad["snapshots"]
        case "an unknown field":
            bad["campaign"]["colour"] = "red"
        case "another format":
            bad["export"] = 2
        case "a status not known":
            bad["campaign"]["status"] = "sleeping"
        case "a gap in the numbers":
            bad["snapshots"][1]["number"] = 7
        case "a snapshot the engine refuses":
            bad["snapshots"][-1]["data"]["armies"][0]["hex"] = [99, 99]
        case "a file that is not the newest snapshot":
            bad["file"] = bad["snapshots"][0]["data"]
        case "a member of no kingdom in the file":
            bad["members"][1]["kingdom"] = "green"
        case "a snapshot with no data":
            bad["snapshots"][0]["data"] = "the map"
        case "a time with no offset":
            bad["snapshots"][0]["created_at"] = "2025-06-01T12:00:00"
        case "a running campaign with no snapshots":
            bad["snapshots"], bad["file"] = [], None
        case "two members with one username":
            bad["members"][2]["username"] = "gm"
        case "two kingdoms with one name":
            bad["members"][2]["kingdom_name"] = bad["members"][1]["kingdom_name"].upper()
        case "two kingdoms with one colour":
            bad["members"][1]["colour"], bad["members"][2]["colour"] = "#aa0000", "#AA0000"
        case "a day not in the week":
            bad["campaign"]["deadline_days"] = [0, 7]
        case "a time zone not known":
            bad["campaign"]["time_zone"] = "Mars/Olympus"
        case "a text holding a NUL character":
            bad["file"]["kingdoms"][1]["name"] = "\x00"
        case "a decision that is null":
            bad["submissions"] = [
                {"kingdom": "red", "kind": "orders", "payload": None, "snapshot": 9, "ready": False}
            ]
        case "NaN in a snapshot":  # found by tests/test_fuzz_files.py: it was a crash
            bad["snapshots"][0]["data"]["pending"] = float("nan")
    return bad


@pytest.mark.parametrize(
    ("how", "field"),
    [
        ("a list", "the document"),
        ("no snapshots", "the document"),
        ("an unknown field", "campaign"),
        ("another format", "export"),
        ("a status not known", "campaign.status"),
        ("a gap in the numbers", "snapshots[1].number"),
        ("a snapshot the engine refuses", "snapshots[8].data.armies[0].hex"),
        ("a file that is not the newest snapshot", "file"),
        ("a member of no kingdom in the file", "members[1].kingdom"),
        ("a snapshot with no data", "snapshots[0].data"),
        ("a time with no offset", "snapshots[0].created_at"),
        ("a running campaign with no snapshots", "snapshots"),
        ("two members with one username", "members"),
        ("two kingdoms with one name", "members"),
        ("two kingdoms with one colour", "members"),
        ("a day not in the week", "campaign.deadline_days"),
        ("a time zone not known", "campaign.time_zone"),
        ("a decision that is null", "submissions[0].payload"),
        ("a text holding a NUL character", "the document"),
        ("NaN in a snapshot", "the document"),
    ],
)
def test_a_bad_document_is_refused_and_changes_nothing(cast, how, field):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    document = campaign_export(campaign)
    document["members"][1]["username"] = "zed"  # an import would have to make this user
    campaign.delete()
    before = database()

    with pytest.raises(ServiceError) as refusal:
        campaign_import(spoil(document, how))

    assert refusal.value.field == field
    assert "\n" not in refusal.value.message
    assert database() == before
    assert not User.objects.filter(username="zed").exists()


def test_a_snapshot_the_engine_refuses_is_named_with_the_engines_reason(cast):
    document = campaign_export(start_campaign(cast))
    document["snapshots"][0]["data"]["format"] = 9
    Campaign.objects.all().delete()

    with pytest.raises(ServiceError) as refusal:
        campaign_import(document)

    assert refusal.value.code == "refused-file"
    assert refusal.value.message.startswith("snapshots[0].data.format: the rules engine refuses")


def test_a_slug_that_exists_is_refused_without_another_slug(cast):
    campaign = start_campaign(cast)
    document = campaign_export(campaign)
    before = database()

    with pytest.raises(ServiceError) as refusal:
        campaign_import(document)
    with pytest.raises(ServiceError) as taken:
        campaign_import(document, slug="autumn-league")

    assert refusal.value.code == taken.value.code == "slug-taken"
    assert "--slug" in refusal.value.message
    assert database() == before


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "autumn.json is not valid JSON: Expecting property name"),
        ('{"export": 1}', "refused: the document has no campaign, members, snapshots."),
        # Found by tests/test_fuzz_files.py: a number longer than Python reads (4,300
        # digits) was a traceback.
        ('{"export": ' + "1" * 5000 + "}", "autumn.json has a number too long to read."),
    ],
)
def test_the_command_refuses_with_one_line_and_exit_status_2(
    cast, tmp_path, capsys, run_command, text, message
):
    start_campaign(cast)
    path = tmp_path / "autumn.json"
    path.write_text(text, encoding="utf-8")
    before = database()

    status = run_command("import_campaign", str(path))

    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert err.count("\n") == 1
    assert "Traceback" not in err
    assert database() == before


def test_the_command_refuses_a_slug_that_exists(cast, tmp_path, capsys, run_command):
    path = tmp_path / "autumn.json"
    path.write_text(json.dumps(campaign_export(start_campaign(cast))), encoding="utf-8")

    status = run_command("import_campaign", str(path))

    assert status == 2
    assert capsys.readouterr().err == (
        "CommandError: refused: A campaign with the slug 'autumn-league' exists already: "
        "import it under another slug (--slug).\n"
    )
