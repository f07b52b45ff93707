"""Export and import (campaign/transfer.py, manage.py export_campaign and import_campaign):
a campaign goes out as one JSON document and comes back exactly, with what its players
said and showed (letters, army lists, battle reports and their photographs); a bad
document is refused with one line and exit status 2, and changes nothing."""

import base64
import copy
import html
import io
import json
import random
from typing import Any

import pytest
from django.core.management import call_command, load_command_class
from django.db import connections
from django.test import Client
from django.urls import reverse
from PIL import Image

from accounts.models import User
from battles.models import ArmyList, AttachedList, Battle, BattlePhoto, BattleReport
from battles.services import battle_reports, lists, results
from campaign.management.commands.seed_demo import play_bot_step
from campaign.maps import load_builtin_map
from campaign.models import (
    AuditEntry,
    Campaign,
    Correspondence,
    Letter,
    LettersRead,
    Membership,
    Snapshot,
    Submission,
)
from campaign.rules.simulation import play_campaign
from campaign.services import common, members, setup, submissions
from campaign.services import names as names_services
from campaign.services.common import ServiceError
from campaign.services.letters import conversations_of, correspondence_read, letter_write
from campaign.transfer.exporting import campaign_export
from campaign.transfer.importing import campaign_import
from campaign.words import names_of
from tests.battles.conftest import hand_off, make_league
from tests.battles.pictures import png, stored, upload
from tests.campaign.helpers import LEAGUE_CAST, make_cast, signed_in
from tests.conftest import made_for_the_module

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    return make_people()


def make_people() -> dict[str, User]:
    make = User.objects.create_user
    return {name: make(name, password="a-long-test-password") for name in ("gm", "alice", "bob")}


def start_campaign(cast: dict[str, User], seed: int = 5) -> Campaign:
    campaign = setup.campaign_create(
        name="Autumn League",
        admin=cast["gm"],
        kingdoms=2,
        map_name="borderlands",
        options={"seed": seed},
    )
    members.campaign_join(
        campaign=campaign, user=cast["alice"], kingdom_name="Red", colour="#aa0000"
    )
    members.campaign_join(campaign=campaign, user=cast["bob"], kingdom_name="Blue")
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
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
    data = common.latest_snapshot(campaign).data
    kingdom = common.kingdom_of(campaign, user)
    (pending,) = [p for p in data["pending"] if p["kingdom"] == kingdom]
    assert pending["kind"] == "orders"
    ships = {s["id"] for s in data.get("ships", [])}
    orders = [
        {"unit": unit, "order": "stay" if unit in ships else "defend"} for unit in pending["units"]
    ]
    return submissions.submission_save(campaign=campaign, user=user, kind="orders", payload=orders)


def moved(document: dict[str, Any]) -> Campaign:
    """The document imported on a server where the campaign is not (it is deleted here),
    after a trip through JSON text."""
    Campaign.objects.filter(slug=document["campaign"]["slug"]).delete()
    return campaign_import(json.loads(json.dumps(document)))


TALK = (Correspondence, Letter, LettersRead, ArmyList, AttachedList, BattleReport, BattlePhoto)


def database() -> dict[str, int]:
    return {
        model.__name__: model.objects.count()
        for model in (Campaign, Membership, Snapshot, Submission, AuditEntry, User, *TALK)
    }


# --- the round trip -------------------------------------------------------------------


def test_a_campaign_some_months_in_comes_back_exactly(cast):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    assert common.latest_snapshot(campaign).data["clock"]["season"] == "summer"
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
    before = common.latest_snapshot(campaign).number

    imported = moved(campaign_export(campaign))
    play(imported, cast, steps=1, seed=6)

    assert common.latest_snapshot(imported).number == before + 1


def test_a_whole_six_year_campaign_comes_back_exactly(cast):
    """Two kingdoms on the Borderlands, played by bots through the services from setup to
    the end of the sixth winter (about 70 snapshots)."""
    campaign = start_campaign(cast)
    play(campaign, cast)
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

    snapshot = common.latest_snapshot(imported)
    assert (snapshot.number, snapshot.reason) == (1, Snapshot.Reason.IMPORT)
    assert snapshot.data == final
    assert snapshot.created_at.isoformat() == "2025-06-01T12:00:00+00:00"
    assert imported.map == final["map"]
    assert imported.status == Campaign.Status.ENDED
    assert common.is_admin(imported, cast["gm"])


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
        case "a place's name on two lines":  # issue 35: it would reach e-mails
            bad["campaign"]["names"]["regions"][0]["name"] = "the Grey\nwood"
        case "a settlement kept at no hex":
            bad["campaign"]["names"]["settlements"]["north"] = "Harrowby"
        case "a kingdom whose id is a word the app keeps":  # issue 34: "herald"
            return json.loads(json.dumps(bad).replace('"red"', '"herald"'))
    return bad


@pytest.fixture(scope="module")
def eight_steps_in(django_db_setup: None, django_db_blocker: Any) -> dict[str, Any]:
    """A campaign eight steps in, exported, made once for the module: the campaign and its
    people are rolled back at once, and each test imports the document (which names its
    members by their usernames, never by ids) beside the cast it makes."""
    with made_for_the_module(django_db_blocker):
        people = make_people()
        campaign = start_campaign(people)
        play(campaign, people, steps=8)
        return campaign_export(campaign)


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
        ("a kingdom whose id is a word the app keeps", "snapshots"),
        ("a place's name on two lines", "campaign.names.regions[0].name"),
        ("a settlement kept at no hex", "campaign.names.settlements"),
    ],
)
def test_a_bad_document_is_refused_and_changes_nothing(cast, how, field, eight_steps_in):
    document = copy.deepcopy(eight_steps_in)
    document["members"][1]["username"] = "zed"  # an import would have to make this user
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


# --- what the players said and showed (issue 28) --------------------------------------

HERALD_WORDS = "Hear ye: the fair at Carrowmoor opens at midsummer."
PRIVATE_WORDS = "Shall we share the river, neighbour?"
ALICE_REPORT = "Our spears held the ford until dusk."
BOB_REPORT = "The mud, not Aldermark, beat us."
KINGDOMS = ("aldermark", "brightwater", "carrowmoor")  # alice's, bob's and carol's
HTML = b"<!DOCTYPE html><html><body><script>alert(document.cookie)</script></body></html>"
SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


@pytest.fixture
def league_cast():
    return make_cast(LEAGUE_CAST)


@pytest.fixture
def media(settings, tmp_path):
    """The default storage in a folder of the test's own, to see what is stored."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def talk(league_cast, media, eager_celery, django_capture_on_commit_callbacks):
    """The Autumn League after a battle, with what was said and shown: carol's word through
    the herald, which bob has read; alice's letter to bob, which he has not; a list in
    alice's book and one in bob's, each attached to their battle, which alice won; alice's
    report with a photograph, and bob's, which gm hid."""
    cast = league_cast
    league = make_league(cast)
    herald = letter_write(campaign=league, user=cast["carol"], herald=True, text=HERALD_WORDS)
    correspondence_read(herald.correspondence, "brightwater")
    letter_write(campaign=league, user=cast["alice"], to=["brightwater"], text=PRIVATE_WORDS)
    battle = hand_off(league, cast)
    assert battle is not None
    for name, list_name in (("alice", "Spear Wall"), ("bob", "Shield Wall")):
        book = lists.army_list_add(
            campaign=league, user=cast[name], name=list_name, points=500, race="Elves",
            text=f"{list_name}: 20 Spearmen [500]",
        )  # fmt: skip
        lists.battle_list_attach(battle=battle, user=cast[name], army_list_id=book.pk)
    result = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    with django_capture_on_commit_callbacks(execute=True):
        results.battle_confirm(report=result, user=cast["bob"])
    battle.refresh_from_db()
    assert not battle.awaiting
    battle_reports.battle_report_write(battle=battle, user=cast["alice"], text=ALICE_REPORT)
    picture = png((800, 600))  # its left half red, its right half blue
    battle_reports.battle_photo_add(
        battle=battle, user=cast["alice"], upload=upload(picture), size=len(picture)
    )
    bobs = battle_reports.battle_report_write(battle=battle, user=cast["bob"], text=BOB_REPORT)
    battle_reports.battle_report_hide(report=bobs, actor=cast["gm"], hidden=True)
    return league


def letters_seen(campaign: Campaign) -> dict[str, list[tuple[list[str], int, int]]]:
    """Each kingdom's correspondences as its letters page lists them, the newest first:
    between whom (nobody: the herald), how many letters, how many unread."""
    return {
        kingdom: [(c.correspondence.kingdoms, c.letters, c.unread) for c in conversations_of(campaign, kingdom)]
        for kingdom in KINGDOMS
    }  # fmt: skip


def words(response: Any) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


def card_url(battle: Battle) -> str:
    return reverse("battles:card", args=[battle.campaign.slug, battle.number])


def photo_url(photo: BattlePhoto, size: str = "large") -> str:
    battle = photo.report.battle
    return reverse(
        "battles:battle_photo", args=[battle.campaign.slug, battle.number, photo.pk, size]
    )


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    colour = image.convert("RGB").getpixel(xy)
    assert isinstance(colour, tuple)
    return colour


def without_photo_bytes(document: dict[str, Any]) -> dict[str, Any]:
    """The document, but its photographs' bytes: an import develops them again."""
    found = copy.deepcopy(document)
    for report in found["battle_reports"]:
        for photo in report["photos"]:
            assert base64.b64decode(photo.pop("data"), validate=True)
    return found


def test_letters_lists_and_reports_with_photographs_come_back(talk, league_cast):
    before = letters_seen(talk)
    assert before == {
        "aldermark": [(["aldermark", "brightwater"], 1, 0), ([], 1, 1)],
        "brightwater": [(["aldermark", "brightwater"], 1, 1), ([], 1, 0)],
        "carrowmoor": [([], 1, 0)],
    }
    exported = campaign_export(talk)

    imported = moved(exported)

    assert without_photo_bytes(campaign_export(imported)) == without_photo_bytes(exported)
    assert letters_seen(imported) == before
    letters = Letter.objects.filter(correspondence__campaign=imported).order_by("pk")
    assert [(x.kingdom, x.writer, x.text) for x in letters] == [
        ("carrowmoor", league_cast["carol"], HERALD_WORDS),
        ("aldermark", league_cast["alice"], PRIVATE_WORDS),
    ]
    bob, carol = (signed_in(Client(), league_cast[name]) for name in ("bob", "carol"))
    private = letters[1].correspondence
    letter_page = reverse("campaign:correspondence", args=[imported.slug, private.pk])
    assert PRIVATE_WORDS in words(bob.get(letter_page))
    assert carol.get(letter_page).status_code == 404

    battle = Battle.objects.get(campaign=imported)
    card = words(carol.get(card_url(battle)))
    assert ALICE_REPORT in card
    assert BOB_REPORT not in card  # gm hid it: only gm and bob see it
    assert BOB_REPORT in words(bob.get(card_url(battle)))
    assert "Spear Wall" in card
    assert "Shield Wall" in card
    (photo,) = BattlePhoto.objects.filter(report__battle=battle)
    assert photo_url(photo, "thumbnail") in card
    served = carol.get(photo_url(photo))
    assert served["Content-Type"] == "image/jpeg"
    with photo.large.open("rb") as kept:
        assert served.content == kept.read()
    shown = Image.open(io.BytesIO(served.content))
    assert (shown.format, shown.size) == ("JPEG", (800, 600))
    red, blue = pixel(shown, (100, 300)), pixel(shown, (700, 300))
    assert red[0] > 200 > red[2]
    assert blue[2] > 200 > blue[0]
    assert carol.get(photo_url(photo, "thumbnail"))["Content-Type"] == "image/jpeg"


def test_the_document_names_kingdoms_and_usernames_never_ids(talk):
    exported = campaign_export(talk)

    herald, private = exported["correspondences"]
    assert (herald["herald"], herald["kingdoms"]) == (True, [])
    assert herald["letters"][0] | {"written_at": None} == {
        "kingdom": "carrowmoor", "writer": "carol", "text": HERALD_WORDS,
        "written_at": None, "edited_at": None,
    }  # fmt: skip
    assert herald["read"] == [
        {"kingdom": "brightwater", "letters": 1},
        {"kingdom": "carrowmoor", "letters": 1},
    ]
    assert (private["herald"], private["kingdoms"]) == (False, ["aldermark", "brightwater"])
    assert private["read"] == [{"kingdom": "aldermark", "letters": 1}]
    assert [(a["kingdom"], a["name"]) for a in exported["army_lists"]] == [
        ("aldermark", "Spear Wall"),
        ("brightwater", "Shield Wall"),
    ]
    assert [(a["battle"], a["kingdom"], a["attached_by"]) for a in exported["attached_lists"]] == [
        (1, "aldermark", "alice"),
        (1, "brightwater", "bob"),
    ]
    alices, bobs = exported["battle_reports"]
    assert (alices["kingdom"], alices["written_by"], alices["hidden_at"]) == (
        "aldermark",
        "alice",
        None,
    )
    assert (bobs["kingdom"], bobs["hidden_at"] is not None, bobs["photos"]) == (
        "brightwater",
        True,
        [],
    )
    (photo,) = alices["photos"]
    assert (photo["content_type"], photo["added_by"]) == ("image/jpeg", "alice")
    assert Image.open(io.BytesIO(base64.b64decode(photo["data"]))).size == (800, 600)


def test_a_photograph_whose_file_is_gone_is_left_out_and_the_export_still_imports(
    talk, media, caplog
):
    """A database restored without its photographs' files: the nightly export of the
    campaign goes on, without the photograph it could not read (nor could anyone see)."""
    (photo,) = BattlePhoto.objects.filter(report__battle__campaign=talk)
    for name in photo.files():
        (media / name).unlink()

    exported = campaign_export(talk)
    imported = moved(exported)

    alices = exported["battle_reports"][0]
    assert (alices["text"], alices["photos"]) == (ALICE_REPORT, [])
    assert f"its file '{photo.large.name}' is gone" in caplog.text
    assert BattleReport.objects.get(battle__campaign=imported, kingdom="aldermark").text == (
        ALICE_REPORT
    )


def test_an_export_from_before_letters_and_reports_still_imports(cast):
    exported = campaign_export(start_campaign(cast))
    for part in ("correspondences", "army_lists", "attached_lists", "battle_reports"):
        del exported[part]
    del exported["campaign"]["letters"]

    imported = moved(exported)

    assert imported.letters == Campaign.Letters.ON
    assert not imported.correspondences.exists()
    assert imported.snapshots.count() == len(exported["snapshots"])


def test_the_names_of_places_and_armies_travel_with_the_campaign(cast):
    """Issue 35: the names are the app's, not the campaign file's: the export carries them
    beside it, a place the admin renamed and an army its player named among them."""
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    data = common.latest_snapshot(campaign).data
    place = names_of(data, campaign.gazetteer).places()[0]
    names_services.place_rename(
        campaign=campaign, actor=cast["gm"], place=place, name="Elderholt", reason="a better name"
    )
    army = next(a["id"] for a in data["armies"] if a["kingdom"] == "red")
    names_services.unit_rename(
        campaign=campaign, user=cast["alice"], unit=army, name="The Iron Host"
    )
    exported = campaign_export(campaign)

    imported = moved(exported)

    assert imported.gazetteer == exported["campaign"]["names"]
    names = names_of(common.latest_snapshot(imported).data, imported.gazetteer)
    assert "Elderholt" in names.places()
    assert names.unit(army) == "The Iron Host"


def test_an_export_from_before_names_has_its_places_named_anew(cast):
    """Issue 35: an export made before places had names imports with the names its map and
    seed give, the settlements standing named."""
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    exported = campaign_export(campaign)
    del exported["campaign"]["names"]

    imported = moved(exported)

    assert imported.gazetteer["regions"] == campaign.gazetteer["regions"]
    assert imported.gazetteer["settlements"] == campaign.gazetteer["settlements"]
    assert imported.gazetteer["settled"] == campaign.gazetteer["settled"] != []


def test_the_letters_of_a_player_removed_before_the_start_are_left_out(league_cast):
    """carol wrote through the herald, then gm removed her: her kingdom is no longer the
    campaign's, and the export, which would be refused with her letter, leaves it out."""
    cast = league_cast
    league = setup.campaign_create(
        name="Autumn League", admin=cast["gm"], kingdoms=3, map_name="borderlands"
    )
    for name in ("alice", "carol"):
        members.campaign_join(campaign=league, user=cast[name], kingdom_name=name.title())
    letter_write(campaign=league, user=cast["alice"], herald=True, text="Welcome, all.")
    letter_write(campaign=league, user=cast["carol"], herald=True, text="I must go.")
    members.campaign_remove_player(campaign=league, actor=cast["gm"], username="carol")
    exported = campaign_export(league)

    imported = moved(exported)

    (herald,) = exported["correspondences"]
    assert [x["text"] for x in herald["letters"]] == ["Welcome, all."]
    assert herald["read"] == [{"kingdom": "alice", "letters": 1}]
    assert [(c.letters, c.unread) for c in conversations_of(imported, "alice")] == [(1, 0)]


def forged(document: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(document)
    herald, private = bad["correspondences"]
    photo = bad["battle_reports"][0]["photos"][0]
    match how:
        case "HTML called a JPEG":
            photo["data"] = base64.b64encode(HTML).decode()
        case "an SVG":
            photo["content_type"], photo["data"] = "image/svg+xml", base64.b64encode(SVG).decode()
        case "an SVG called a JPEG":
            photo["data"] = base64.b64encode(SVG).decode()
        case "a photograph not in base64":
            photo["data"] = "<svg>"
        case "a letter from a kingdom not in the campaign":
            herald["letters"][0]["kingdom"] = "nowhere"
        case "a letter to a kingdom not in the campaign":
            private["kingdoms"] = ["aldermark", "nowhere"]
        case "a letter from outside its correspondence":
            private["letters"][0]["kingdom"] = "carrowmoor"
        case "more letters read than written":
            private["read"][0]["letters"] = 2
        case "a report of a battle not in the file":
            bad["battle_reports"][1]["battle"] = 9
        case "a list attached by a kingdom not in the battle":
            bad["attached_lists"][1]["kingdom"] = "carrowmoor"
        case "a list of no points":
            bad["army_lists"][0]["points"] = 0
    return bad


@pytest.mark.parametrize(
    ("how", "field", "says"),
    [
        ("HTML called a JPEG", "battle_reports[0].photos[0].data", "is not a picture this site reads"),
        ("an SVG", "battle_reports[0].photos[0].content_type", "must be image/jpeg or image/webp"),
        ("an SVG called a JPEG", "battle_reports[0].photos[0].data", "is not a picture this site reads"),
        ("a photograph not in base64", "battle_reports[0].photos[0].data", "must be a photograph's bytes in base64"),
        ("a letter from a kingdom not in the campaign", "correspondences[0].letters[0].kingdom", "there is no kingdom 'nowhere' in the campaign"),
        ("a letter to a kingdom not in the campaign", "correspondences[1].kingdoms[1]", "there is no kingdom 'nowhere' in the campaign"),
        ("a letter from outside its correspondence", "correspondences[1].letters[0].kingdom", "there is no kingdom 'carrowmoor' in the correspondence"),
        ("more letters read than written", "correspondences[1].read[0].letters", "2 read, of 1 written"),
        ("a report of a battle not in the file", "battle_reports[1].battle", "there is no battle 9 in the newest campaign file"),
        ("a list attached by a kingdom not in the battle", "attached_lists[1].kingdom", "there is no kingdom 'carrowmoor' in battle 1"),
        ("a list of no points", "army_lists[0].points", "must be 1 to 10,000"),
    ],
)  # fmt: skip
def test_a_forged_part_is_refused_in_words_and_nothing_is_written(talk, media, how, field, says):
    document = forged(campaign_export(talk), how)
    talk.delete()
    before, files = database(), stored(media)

    with pytest.raises(ServiceError) as refusal:
        campaign_import(json.loads(json.dumps(document)))

    assert refusal.value.field == field
    assert says in refusal.value.message
    assert refusal.value.message.startswith(field)
    assert database() == before
    assert stored(media) == files


def test_the_command_refuses_a_photograph_that_is_html_with_exit_status_2(
    talk, media, tmp_path, capsys, run_command
):
    path = tmp_path / "autumn.json"
    path.write_text(json.dumps(forged(campaign_export(talk), "HTML called a JPEG")))
    talk.delete()
    before, files = database(), stored(media)

    status = run_command("import_campaign", str(path))

    assert status == 2
    assert capsys.readouterr().err == (
        "CommandError: refused: battle_reports[0].photos[0].data is not a picture this site "
        "reads (a JPEG, PNG or WebP, whole).\n"
    )
    assert database() == before
    assert stored(media) == files
