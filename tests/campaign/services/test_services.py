"""The campaign services: who may do what, what is refused (and that nothing changes
then), and how decisions become snapshots."""

import copy
from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from campaign.models import AuditEntry, Campaign, Snapshot, Submission
from campaign.services import admin, advancing, common, inputs, members, setup, submissions
from campaign.services.common import ServiceError
from campaign.words import names_of
from notifications.models import Notification
from tests.campaign.helpers import (
    a_move_drafted,
    at_step,
    hand_off_a_battle,
    kingdom_of,
    new_campaign,
    play_until,
    set_up_by_the_deadlines,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast():
    make = User.objects.create_user
    return {
        name: make(name, password="a-long-test-password") for name in ("gm", "alice", "bob", "eve")
    }


@pytest.fixture
def open_campaign(cast):
    return setup.campaign_create(
        name="Autumn League", admin=cast["gm"], kingdoms=2, map_name="borderlands"
    )


@pytest.fixture
def campaign(open_campaign, cast):
    members.campaign_join(campaign=open_campaign, user=cast["alice"], kingdom_name="Red Elves")
    members.campaign_join(campaign=open_campaign, user=cast["bob"], kingdom_name="Blue Dwarfs")
    setup.campaign_start(campaign=open_campaign, actor=cast["gm"])
    open_campaign.refresh_from_db()
    return open_campaign


def newest(campaign: Campaign) -> Snapshot:
    return common.latest_snapshot(campaign)


def advanced(snapshot: Snapshot | None) -> Snapshot:
    """The snapshot an advance made (it made one)."""
    assert snapshot is not None
    return snapshot


def refused(call: Callable[[], object], code: str) -> ServiceError:
    with pytest.raises(ServiceError) as error:
        call()
    assert error.value.code == code
    assert error.value.message
    return error.value


# --- creating, joining, starting ---------------------------------------------------------


def test_it_creates_a_campaign_open_for_players_with_its_admin(open_campaign, cast):
    assert open_campaign.status == Campaign.Status.OPEN
    assert open_campaign.slug == "autumn-league"
    assert common.is_admin(open_campaign, cast["gm"])
    assert len(open_campaign.map["tiles"]) == 84
    assert AuditEntry.objects.filter(campaign=open_campaign, action="created").exists()


def test_it_creates_a_campaign_on_a_generated_map(cast):
    made = setup.campaign_create(
        name="Wild", admin=cast["gm"], kingdoms=3, size=120, options={"seed": 7}
    )
    assert made.map_name == "generated"
    assert sum(t["start"] for t in made.map["tiles"]) >= 3


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"kingdoms": 9}, "kingdom-count"),
        ({"kingdoms": 2, "map_name": "atlantis"}, "unknown-map"),
        ({"kingdoms": 8, "map_name": "borderlands"}, "map-size"),
    ],
)
def test_a_campaign_that_cant_be_made_is_refused(cast, kwargs, code):
    refused(lambda: setup.campaign_create(name="X", admin=cast["gm"], **kwargs), code)
    assert not Campaign.objects.exists()


def test_the_same_name_gets_its_own_slug(open_campaign, cast):
    again = setup.campaign_create(
        name="Autumn League", admin=cast["gm"], kingdoms=2, map_name="borderlands"
    )
    assert again.slug == "autumn-league-2"


def test_a_join_code_finds_its_campaign(open_campaign):
    assert members.campaign_for_code(f" {open_campaign.join_code} ") == open_campaign
    refused(lambda: members.campaign_for_code("nope"), "unknown-code")


def test_players_join_and_get_a_kingdom_id_from_its_name(open_campaign, cast):
    red = members.campaign_join(campaign=open_campaign, user=cast["alice"], kingdom_name="Red")
    red_again = members.campaign_join(campaign=open_campaign, user=cast["bob"], kingdom_name="Red!")
    assert (red.kingdom, red_again.kingdom) == ("red", "red2")
    assert (red.heraldry, red_again.heraldry) == ("R", "E")  # the first letter not taken


def test_joining_is_refused_twice_when_full_and_without_a_name(open_campaign, cast):
    members.campaign_join(campaign=open_campaign, user=cast["alice"], kingdom_name="Red")
    refused(
        lambda: members.campaign_join(
            campaign=open_campaign, user=cast["alice"], kingdom_name="Again"
        ),
        "already-joined",
    )
    refused(
        lambda: members.campaign_join(campaign=open_campaign, user=cast["bob"], kingdom_name="  "),
        "no-name",
    )
    members.campaign_join(campaign=open_campaign, user=cast["bob"], kingdom_name="Blue")
    refused(
        lambda: members.campaign_join(
            campaign=open_campaign, user=cast["eve"], kingdom_name="Green"
        ),
        "full",
    )


@pytest.mark.parametrize("name", ["Red\r\nBcc: all", "Red\u202eder", "Red\x07"])
def test_a_kingdom_or_campaign_name_of_more_than_one_printable_line_is_refused(
    open_campaign, cast, name
):
    """Issue 26, point 6: names reach e-mail headers and Discord."""
    refused(
        lambda: members.campaign_join(campaign=open_campaign, user=cast["bob"], kingdom_name=name),
        "bad-name",
    )
    refused(lambda: setup.campaign_create(name=name, admin=cast["gm"], kingdoms=2), "bad-name")
    assert not open_campaign.memberships.filter(user=cast["bob"]).exclude(kingdom="").exists()


def test_a_kingdom_name_is_kept_normalised_and_trimmed(open_campaign, cast):
    membership = members.campaign_join(
        campaign=open_campaign, user=cast["bob"], kingdom_name="  \uff22lue   Dwarfs "
    )
    assert membership.kingdom_name == "Blue Dwarfs"


def test_the_admin_may_also_rule_a_kingdom(open_campaign, cast):
    membership = members.campaign_join(campaign=open_campaign, user=cast["gm"], kingdom_name="Grey")
    assert membership.is_admin
    assert membership.kingdom == "grey"


def test_only_the_admin_starts_and_only_when_full(open_campaign, cast):
    members.campaign_join(campaign=open_campaign, user=cast["alice"], kingdom_name="Red")
    refused(lambda: setup.campaign_start(campaign=open_campaign, actor=cast["gm"]), "not-full")
    members.campaign_join(campaign=open_campaign, user=cast["bob"], kingdom_name="Blue")
    refused(
        lambda: setup.campaign_start(campaign=open_campaign, actor=cast["alice"]), "not-an-admin"
    )
    assert not Snapshot.objects.exists()


def test_starting_makes_the_first_snapshot_waiting_for_races(campaign):
    snapshot = newest(campaign)
    assert snapshot.number == 1
    assert snapshot.reason == Snapshot.Reason.START
    assert snapshot.data["clock"]["step"] == "races"
    assert {p["kingdom"] for p in snapshot.data["pending"]} == {"red-elves", "blue-dwarfs"}
    assert campaign.status == Campaign.Status.RUNNING
    assert campaign.deadline > timezone.now() + timedelta(hours=47)


def test_nobody_joins_a_started_campaign(campaign, cast):
    refused(
        lambda: members.campaign_join(campaign=campaign, user=cast["eve"], kingdom_name="Late"),
        "not-open",
    )


# --- submissions ----------------------------------------------------------------------


def test_an_outsider_can_not_submit(campaign, cast):
    refused(
        lambda: submissions.submission_save(
            campaign=campaign, user=cast["eve"], kind="races", payload="Orcs"
        ),
        "not-a-player",
    )
    assert not Submission.objects.exists()


def test_only_what_is_asked_may_be_submitted(campaign, cast):
    refused(
        lambda: submissions.submission_save(
            campaign=campaign, user=cast["alice"], kind="orders", payload=[]
        ),
        "not-asked",
    )
    refused(
        lambda: submissions.submission_save(
            campaign=campaign, user=cast["alice"], kind="everything", payload=1
        ),
        "not-asked",
    )


def test_an_illegal_decision_is_refused_at_once_in_the_games_words(campaign, cast):
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Elves"
    )
    error = refused(
        lambda: submissions.submission_save(
            campaign=campaign, user=cast["alice"], kind="races", payload=""
        ),
        "wrong-type",
    )
    assert error.field == "inputs.races.red-elves"
    assert Submission.objects.get().payload == "Elves"


def test_a_decision_may_be_changed_until_ready_then_only_after_withdrawing(campaign, cast):
    alice = cast["alice"]
    submissions.submission_save(campaign=campaign, user=alice, kind="races", payload="Elves")
    submissions.submission_save(campaign=campaign, user=alice, kind="races", payload="Undead")
    assert submissions.submission_set_ready(campaign=campaign, user=alice).count == 1
    refused(
        lambda: submissions.submission_save(
            campaign=campaign, user=alice, kind="races", payload="Orcs"
        ),
        "already-ready",
    )
    submissions.submission_set_ready(campaign=campaign, user=alice, ready=False)
    submissions.submission_save(campaign=campaign, user=alice, kind="races", payload="Orcs")
    assert Submission.objects.get().payload == "Orcs"
    assert Submission.objects.count() == 1


def test_s1_a_secret_race_stays_out_of_the_snapshot_until_the_advance(campaign, cast):
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Nightstalkers"
    )
    assert "Nightstalkers" not in str(newest(campaign).data)


def test_when_everyone_is_ready_the_campaign_advances(
    campaign, cast, eager_celery, django_capture_on_commit_callbacks
):
    for user, race in (("alice", "Elves"), ("bob", "Dwarfs")):
        submissions.submission_save(campaign=campaign, user=cast[user], kind="races", payload=race)
    with django_capture_on_commit_callbacks(execute=True):
        submissions.submission_set_ready(campaign=campaign, user=cast["alice"])
    assert newest(campaign).number == 1  # bob is not ready yet
    with django_capture_on_commit_callbacks(execute=True):
        submissions.submission_set_ready(campaign=campaign, user=cast["bob"])
    snapshot = newest(campaign)
    assert snapshot.number == 2
    assert snapshot.data["clock"]["step"] == "capitals"
    assert [k["race"] for k in snapshot.data["kingdoms"]] == ["Elves", "Dwarfs"]
    assert snapshot.decisions["races"] == {"red-elves": "Elves", "blue-dwarfs": "Dwarfs"}
    assert not Submission.objects.filter(consumed_by=None).exists()


# --- advancing --------------------------------------------------------------------------


def test_an_advance_from_an_old_snapshot_does_nothing(campaign):
    first = advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1, defaults=True)
    assert advanced(first).number == 2
    assert (
        advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1, defaults=True)
        is None
    )
    assert Snapshot.objects.count() == 2


def test_at_the_deadline_drafts_count_and_the_rest_take_defaults(campaign, cast):
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Elves"
    )
    snapshot = advanced(
        advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1, defaults=True)
    )
    assert snapshot.defaults
    races = {k["id"]: k["race"] for k in snapshot.data["kingdoms"]}
    assert races == {"red-elves": "Elves", "blue-dwarfs": "Undeclared"}
    # Only the races' step took its defaults: the first capital is asked, with its own turn.
    assert snapshot.data["clock"] == {"year": 1, "season": "setup", "month": 0, "step": "capitals"}
    assert [p["kind"] for p in snapshot.data["pending"]] == ["capital"]
    campaign.refresh_from_db()
    assert campaign.deadline is not None
    turn = campaign.deadline - timezone.now()
    assert timedelta(hours=11) < turn <= timedelta(hours=campaign.deadlines["turn"])


def test_without_defaults_only_ready_decisions_are_used(campaign, cast):
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Elves"
    )
    snapshot = advanced(advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1))
    assert snapshot.data["clock"]["step"] == "races"
    assert Submission.objects.filter(consumed_by=None).count() == 1


def test_the_campaigns_due_are_the_running_ones_past_their_deadline(campaign, cast):
    assert advancing.campaigns_due() == []
    Campaign.objects.filter(pk=campaign.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert advancing.campaigns_due() == [(campaign.pk, 1)]
    admin.campaign_pause(campaign=campaign, actor=cast["gm"])
    assert advancing.campaigns_due() == []


# --- admin controls --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "control",
    [
        lambda c, u: admin.campaign_pause(campaign=c, actor=u),
        lambda c, u: admin.campaign_extend(campaign=c, actor=u, hours=5),
        lambda c, u: admin.campaign_advance_now(campaign=c, actor=u),
        lambda c, u: admin.campaign_undo(campaign=c, actor=u, reason="x"),
        lambda c, u: admin.correct_resources(
            campaign=c, actor=u, reason="x", kingdom="red-elves", gold=9, food=9
        ),
    ],
)
def test_only_an_admin_uses_the_admin_controls(campaign, cast, control):
    before = (Snapshot.objects.count(), Campaign.objects.get().deadline)
    refused(lambda: control(campaign, cast["alice"]), "not-an-admin")
    assert (Snapshot.objects.count(), Campaign.objects.get().deadline) == before


def test_pause_stops_the_deadline_and_resume_gives_the_time_back(campaign, cast):
    assert campaign.deadline is not None
    left = campaign.deadline - timezone.now()
    paused = admin.campaign_pause(campaign=campaign, actor=cast["gm"], reason="holiday")
    assert (paused.status, paused.deadline) == (Campaign.Status.PAUSED, None)
    resumed = admin.campaign_resume(campaign=campaign, actor=cast["gm"])
    assert resumed.status == Campaign.Status.RUNNING
    assert resumed.deadline is not None
    assert abs((resumed.deadline - timezone.now()) - left) < timedelta(minutes=1)
    assert list(
        AuditEntry.objects.filter(campaign=campaign).values_list("action", flat=True)[:2]
    ) == ["resumed", "paused"]


def test_extend_moves_the_deadline(campaign, cast):
    before = campaign.deadline
    extended = admin.campaign_extend(
        campaign=campaign, actor=cast["gm"], hours=24, reason="a busy week"
    )
    assert extended.deadline - before == timedelta(hours=24)
    refused(
        lambda: admin.campaign_extend(campaign=campaign, actor=cast["gm"], hours=0), "bad-hours"
    )


def test_advance_now_uses_the_defaults_and_is_audited(campaign, cast):
    snapshot = advanced(
        admin.campaign_advance_now(campaign=campaign, actor=cast["gm"], reason="everyone agreed")
    )
    assert snapshot.defaults
    assert snapshot.created_by == cast["gm"]
    assert AuditEntry.objects.filter(action="advanced-now", reason="everyone agreed").exists()


def test_undo_goes_back_and_reopens_the_decisions_it_used(campaign, cast):
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Elves"
    )
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    undo = admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="Bob was away")
    assert undo.number == 3
    assert undo.data == Snapshot.objects.get(number=1).data
    reopened = Submission.objects.get()
    assert (reopened.consumed_by, reopened.ready, reopened.payload) == (None, False, "Elves")
    assert AuditEntry.objects.filter(action="undone", reason="Bob was away").exists()


def test_nothing_to_undo_at_the_start(campaign, cast):
    refused(
        lambda: admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="x"),
        "nothing-to-undo",
    )


def test_a_correction_is_checked_by_the_engine_recorded_and_kept(campaign, cast):
    snapshot = admin.correct_resources(
        campaign=campaign,
        actor=cast["gm"],
        reason="forgot a tithe",
        kingdom="red-elves",
        gold=2,
        food=1,
    )
    assert snapshot.reason == Snapshot.Reason.CORRECTION
    red = next(k for k in snapshot.data["kingdoms"] if k["id"] == "red-elves")
    assert (red["gold"], red["food"]) == (2, 1)
    entry = AuditEntry.objects.get(action="corrected")
    assert (entry.reason, entry.actor, entry.details["what"]) == (
        "forgot a tithe",
        cast["gm"],
        "resources of red-elves",
    )


def test_a_correction_the_engine_refuses_changes_nothing(campaign, cast):
    data = copy.deepcopy(newest(campaign).data)
    ocean = next(t["hex"] for t in data["map"]["tiles"] if t["terrain"] == "ocean")
    data["armies"] = [
        {"id": "red-elves-1", "kingdom": "red-elves", "hex": ocean, "upright": True, "ally": None}
    ]
    error = refused(
        lambda: admin.campaign_correct(
            campaign=campaign, actor=cast["gm"], reason="x", data=data, what="army"
        ),
        "cannot-stand-here",
    )
    assert error.field == "armies[0].hex"
    refused(
        lambda: admin.correct_tile(
            campaign=campaign,
            actor=cast["gm"],
            reason=" ",
            hex=[0, 0],
            owner="red-elves",
            settlement=None,
        ),
        "no-reason",
    )
    assert Snapshot.objects.count() == 1
    assert not AuditEntry.objects.filter(action="corrected").exists()


def test_o1_in_cycle_mode_each_order_is_final_and_the_turn_passes_on(
    cast, eager_celery, django_capture_on_commit_callbacks
):
    cyclic = setup.campaign_create(
        name="Cycle",
        admin=cast["gm"],
        kingdoms=2,
        map_name="borderlands",
        options={"orders": "cycle"},
    )
    members.campaign_join(campaign=cyclic, user=cast["alice"], kingdom_name="Red")
    members.campaign_join(campaign=cyclic, user=cast["bob"], kingdom_name="Blue")
    setup.campaign_start(campaign=cyclic, actor=cast["gm"])
    set_up_by_the_deadlines(cyclic, cast["gm"])
    data = newest(cyclic).data
    (first,) = data["pending"]
    player = cast["alice"] if first["kingdom"] == "red" else cast["bob"]
    other = "blue" if first["kingdom"] == "red" else "red"
    order = {"unit": first["units"][0], "order": "defend"}
    with django_capture_on_commit_callbacks(execute=True):
        submissions.submission_save(campaign=cyclic, user=player, kind="orders", payload=[order])
    after = newest(cyclic).data
    assert after["inputs"]["orders"][first["kingdom"]] == [order]  # public once given
    assert [p["kingdom"] for p in after["pending"]] == [other]
    refused(
        lambda: submissions.submission_save(
            campaign=cyclic, user=player, kind="orders", payload=[order]
        ),
        "not-asked",
    )


def test_b12_with_its_orders_a_kingdom_gives_no_battle_entries(campaign, cast):
    """Before the orders are resolved there is no battle to judge a battle entry by, and
    one for a battle that never comes would be refused at the advance (ruling B12),
    pausing the campaign: with its orders a kingdom is asked for no battle choice or
    entry (it chooses a naval battle with the tile of its next battle, B2, B3)."""
    set_up_by_the_deadlines(campaign, cast["gm"])
    naval = {"hex": [0, 0], "naval": "red-elves"}
    for kind, payload in (("battles", [naval]), ("battle_choices", [[0, 0]]), ("tithes", [])):
        with pytest.raises(ServiceError) as error:
            submissions.submission_save(
                campaign=campaign, user=cast["alice"], kind=kind, payload=payload
            )
        assert error.value.code == "not-asked"
    assert not Submission.objects.filter(kind__in=("battles", "battle_choices")).exists()


def test_an_advance_queued_for_a_deleted_campaign_does_nothing(campaign):
    pk = campaign.pk
    campaign.delete()
    assert advancing.campaign_advance(campaign_id=pk, snapshot_number=1) is None


def test_a_decision_for_a_step_that_has_moved_on_is_refused(campaign, cast):
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    refused(
        lambda: submissions.submission_save(
            campaign=campaign, user=cast["alice"], kind="orders", payload=[], seen=1
        ),
        "moved-on",
    )
    assert not Submission.objects.exists()


def test_ready_given_on_a_page_the_campaign_has_moved_on_from_is_refused(campaign, cast):
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Elves"
    )
    admin.campaign_correct(
        campaign=campaign,
        actor=cast["gm"],
        data=newest(campaign).data,
        reason="a new snapshot",
        what="nothing",
    )
    refused(
        lambda: submissions.submission_set_ready(campaign=campaign, user=cast["alice"], seen=1),
        "moved-on",
    )
    assert not Submission.objects.filter(ready=True).exists()


def test_a_campaign_that_got_ready_while_paused_advances_on_resume(
    campaign, cast, eager_celery, django_capture_on_commit_callbacks
):
    admin.campaign_pause(campaign=campaign, actor=cast["gm"])
    for user, race in (("alice", "Elves"), ("bob", "Dwarfs")):
        submissions.submission_save(campaign=campaign, user=cast[user], kind="races", payload=race)
        with django_capture_on_commit_callbacks(execute=True):
            submissions.submission_set_ready(campaign=campaign, user=cast[user])
    assert newest(campaign).number == 1  # paused: nothing moves
    with django_capture_on_commit_callbacks(execute=True):
        admin.campaign_resume(campaign=campaign, actor=cast["gm"])
    assert newest(campaign).number == 2


@pytest.fixture
def battle_waiting(campaign, cast):
    return hand_off_a_battle(campaign, cast)


def test_a_player_can_not_report_a_battle_result_or_speak_for_another_kingdom(
    campaign, cast, battle_waiting
):
    entries: list[dict[str, object]] = [
        {"hex": battle_waiting, "result": "win", "winner": "red-elves"},
        {"hex": battle_waiting, "concede": "blue-dwarfs"},
        {"hex": battle_waiting, "last_stand": "blue-dwarfs", "naval": "red-elves"},
    ]
    for entry in entries:
        with pytest.raises(ServiceError) as error:
            submissions.submission_save(
                campaign=campaign, user=cast["alice"], kind="battles", payload=[entry]
            )
        assert error.value.code == "not-yours"
    assert not Submission.objects.exists()


def test_a_player_can_not_retreat_another_kingdoms_units(campaign, cast):
    data = newest(campaign).data
    assert common.asked_of(data, "red-elves") == {"races"}
    with pytest.raises(ServiceError) as error:
        submissions._check_own(
            {**data, "armies": [{"id": "blue-dwarfs-1", "kingdom": "blue-dwarfs"}], "ships": []},
            "retreats",
            "red-elves",
            {"blue-dwarfs-1": [0, 0]},
        )
    assert error.value.code == "not-yours"


def test_an_engine_message_names_kingdoms_units_and_places():
    data = {
        "kingdoms": [{"id": "red-elves", "name": "Red Elves"}, {"id": "red", "name": "Rot"}],
        "tiles": [{"hex": [0, 0], "owner": "red", "settlement": "village"}],
    }
    gazetteer = {
        "regions": [{"name": "the Greywood", "hexes": [[0, 0], [1, 0]]}],
        "settlements": {"0,0": "Harrowby", "1,0": "Ashford"},
        "units": {"red-2": "the Iron Host"},
    }
    said = common.named(
        "red-elves-1 of red-elves may not go to [0, 0]; red tithes to red-elves; "
        "Army red-2 can't cross the water at [1, 0]; red-elves-s3 docks.",
        data,
        gazetteer,
    )
    assert said == (
        "Red Elves' 1st army of Red Elves may not go to Harrowby; Rot tithes to Red Elves; "
        "the Iron Host can't cross the water in the Greywood; Red Elves' 3rd ship docks."
    )


def a_draft_made_illegal(
    campaign: Campaign, cast: dict[str, Any], *, ready: bool = False
) -> tuple[str, str, Snapshot]:
    """At the summer's orders, alice drafts a move of her army (and marks it ready, with
    `ready`); then the admin moves the army far away, so the drafted move no longer stands.
    Her kingdom, the army's id, and the correction's snapshot."""
    play_until(campaign, cast, at_step("orders"))
    army, far = a_move_drafted(campaign, cast["alice"])
    if ready:
        submissions.submission_set_ready(campaign=campaign, user=cast["alice"])
    corrected = admin.correct_army(
        campaign=campaign, actor=cast["gm"], reason="misplaced", army=army, hex=far
    )
    return kingdom_of(campaign, cast["alice"]), army, corrected


def test_ready_is_refused_when_a_correction_has_made_the_draft_illegal(cast):
    """Issue 26, point 2: the admin moved alice's army; her draft still moved it from the
    old tile, and Ready was accepted (the deadline's advance then paused the campaign)."""
    campaign = new_campaign(cast)
    a_draft_made_illegal(campaign, cast)
    error = refused(
        lambda: submissions.submission_set_ready(campaign=campaign, user=cast["alice"]),
        "draft-illegal",
    )
    assert error.message.startswith("Your decisions no longer stand as they are: ")
    assert error.message.endswith("Change them, then press Ready again.")
    assert not Submission.objects.filter(campaign=campaign, consumed_by=None, ready=True).exists()


def test_a_correction_that_makes_a_ready_draft_illegal_tells_its_player_and_unreadies_it(people):
    """Issue 26, point 2: a correction tells the players whose drafts it made illegal, and
    says which order no longer stands; the draft is no longer ready, so the next advance
    does not stop on it, and the admins' log keeps what no longer stands."""
    cast = people
    campaign = new_campaign(cast)
    red, army, corrected = a_draft_made_illegal(campaign, cast, ready=True)

    draft = Submission.objects.get(campaign=campaign, kingdom=red, consumed_by=None)
    assert not draft.ready
    (told,) = Notification.objects.filter(user=cast["alice"], subject__contains="no longer stands")
    named = names_of(corrected.data, campaign.gazetteer).unit(army)
    assert f"the order for {named} no longer stands" in told.body
    assert "Change it before the deadline" in told.body
    assert not Notification.objects.filter(user=cast["bob"], subject__contains="no longer")
    entry = AuditEntry.objects.get(campaign=campaign, action="corrected")
    (gone,) = entry.details["no_longer_stand"]
    assert (gone["kingdom"], gone["kind"], gone["unit"]) == (red, "orders", army)
    stale = inputs.stale_draft(
        corrected.data, corrected.number, [draft], gazetteer=campaign.gazetteer
    )
    assert stale is not None
    assert (stale.unit, stale.unit_name, stale.why) == (army, named, gone["why"])


def test_a_correction_that_breaks_no_draft_tells_nobody(people):
    cast = people
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_step("orders"))
    red = kingdom_of(campaign, cast["alice"])
    admin.correct_resources(
        campaign=campaign, actor=cast["gm"], reason="miscounted", kingdom=red, gold=9, food=9
    )
    assert not Notification.objects.filter(subject__contains="no longer stands").exists()
    assert "no_longer_stand" not in AuditEntry.objects.get(action="corrected").details


def test_at_the_deadline_a_draft_a_correction_made_illegal_takes_its_default(people):
    """Issue 26, point 2: the deadline's advance paused the whole campaign on one stale
    draft. Now the order the engine refuses is set aside (its unit takes the default,
    ruling O3), the campaign moves on, the admins' log says so and the player is told."""
    cast = people  # each with an e-mail address
    campaign = new_campaign(cast)
    red, army, corrected = a_draft_made_illegal(campaign, cast)

    after = advancing.campaign_advance(
        campaign_id=campaign.pk, snapshot_number=corrected.number, defaults=True
    )

    assert after is not None
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING
    assert after.decisions.get("orders", {}).get(red) in (None, [])  # the move set aside
    (entry,) = AuditEntry.objects.filter(campaign=campaign, action="set-aside")
    (aside,) = entry.details["set_aside"]
    assert (aside["kingdom"], aside["kind"], aside["unit"]) == (red, "orders", army)
    assert aside["why"]
    told = Notification.objects.get(user=cast["alice"], subject__contains="set aside")
    named = names_of(after.data, campaign.gazetteer).unit(army)
    assert f"the order for {named} no longer stood" in told.body
    assert army not in told.body
    assert "took the deadline's default instead" in told.body
    assert not Submission.objects.filter(campaign=campaign, consumed_by=None).exists()

    # Undone, the advance's decisions are open again, the set-aside move among them: on the
    # corrected state it still does not stand, and alice is told again.
    admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="too hasty")
    undo = AuditEntry.objects.get(campaign=campaign, action="undone")
    assert [g["unit"] for g in undo.details["no_longer_stand"]] == [army]
    assert (
        Notification.objects.filter(
            user=cast["alice"], subject__contains="no longer stands"
        ).count()
        == 2
    )  # the correction's letter, and the undo's
