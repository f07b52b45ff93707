"""The battle services: the two players report and confirm a tabletop result, dispute
and withdraw; a side concedes; the admin decides, settles by dice and extends; every
refusal changes nothing. The rows stay equal to the snapshot's battles."""

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from battles.models import Battle, PlayTime, ResultReport
from battles.services import decisions, desk, results
from campaign.models import AuditEntry, Campaign, Submission
from campaign.services import admin, advancing, battle_entries, common
from campaign.services.common import ServiceError
from campaign.transfer.exporting import campaign_export
from campaign.transfer.importing import campaign_import
from tests.battles.conftest import hand_off

pytestmark = pytest.mark.django_db


def newest(campaign: Campaign) -> dict[str, Any]:
    data: dict[str, Any] = common.latest_snapshot(campaign).data
    return data


def seen(campaign: Campaign) -> int:
    return common.latest_snapshot(campaign).number


def refused(act: Callable[[], object], code: str) -> None:
    with pytest.raises(ServiceError) as error:
        act()
    assert error.value.code == code, error.value.message


def state(campaign: Campaign) -> tuple[object, ...]:
    return (
        seen(campaign),
        list(ResultReport.objects.values_list("pk", "status", "result", "winner")),
        list(Submission.objects.filter(consumed_by=None).values_list("pk", "payload")),
        list(PlayTime.objects.values_list("pk", "accepted_at")),
    )


def test_a_handed_off_battle_has_a_row_equal_to_its_entry_with_a_deadline(campaign, battle):
    entry = newest(campaign)["battles"][0]
    assert battle.number == 1
    assert (battle.hex, battle.kind, battle.status) == (entry["hex"], "pitched", "awaiting_result")
    assert (battle.attacker, battle.defender) == (entry["attacker"], entry["defender"])
    assert (battle.board, battle.scenario, battle.condition) == (
        entry["board"], entry["scenario"], entry["condition"]
    )  # fmt: skip
    assert battle.sides == entry["sides"]
    assert battle.dice == entry["dice"]
    assert battle.details["how_to_win"] == entry["extra"]["how_to_win"]
    hours = campaign.deadlines["battles"]
    assert battle.deadline is not None
    assert abs(battle.deadline - timezone.now() - timedelta(hours=hours)) < timedelta(minutes=1)


def test_alice_reports_bob_confirms_and_the_campaign_moves_on(
    campaign, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark", turns=6,
        note="A close one", seen=seen(campaign),
    )  # fmt: skip
    assert newest(campaign)["battles"][0]["status"] == "awaiting_result"  # not yet confirmed
    with django_capture_on_commit_callbacks(execute=True):
        results.battle_confirm(report=report, user=cast["bob"], seen=seen(campaign))
    entry = newest(campaign)["battles"][0]
    assert (entry["status"], entry["result"], entry["winner"]) == ("resolved", "win", "aldermark")
    battle.refresh_from_db()
    assert (battle.status, battle.winner) == ("resolved", "aldermark")
    assert battle.resolved_in is not None
    assert battle.deadline is None
    report.refresh_from_db()
    assert (report.status, report.answered_by) == ("confirmed", cast["bob"])
    aldermark = next(k for k in newest(campaign)["kingdoms"] if k["id"] == "aldermark")
    assert aldermark["pitched_wins"] == 1


def test_a18_nobody_confirms_their_own_report_and_outsiders_may_not_report(campaign, cast, battle):
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="draw", seen=seen(campaign)
    )
    before = state(campaign)
    refused(lambda: results.battle_confirm(report=report, user=cast["alice"]), "own-report")
    for outsider in (cast["carol"], cast["gm"], cast["eve"]):
        with pytest.raises(ServiceError, match=r"two players may do that\."):
            results.battle_report(battle=battle, user=outsider, result="draw")
        with pytest.raises(ServiceError, match=r"two players may do that\."):
            results.battle_confirm(report=report, user=outsider)
    assert state(campaign) == before


def test_a_report_names_a_winner_who_fought_and_only_one_open_report_per_side(
    campaign, cast, battle
):
    refused(
        lambda: results.battle_report(
            battle=battle, user=cast["alice"], result="win", winner="carrowmoor"
        ),
        "bad-winner",
    )
    refused(
        lambda: results.battle_report(battle=battle, user=cast["alice"], result="rout"),
        "bad-result",
    )
    results.battle_report(battle=battle, user=cast["alice"], result="draw")
    refused(
        lambda: results.battle_report(battle=battle, user=cast["alice"], result="draw"),
        "already-reported",
    )
    refused(
        lambda: results.battle_report(battle=battle, user=cast["bob"], result="draw"),
        "answer-first",
    )
    assert ResultReport.objects.count() == 1


def test_bob_disputes_alice_withdraws_and_reports_again_and_bob_confirms(
    campaign, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    first = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    refused(lambda: results.battle_dispute(report=first, user=cast["bob"], reason=" "), "no-reason")
    results.battle_dispute(report=first, user=cast["bob"], reason="Bob won on objectives")
    first.refresh_from_db()
    assert (first.status, first.dispute_reason) == ("disputed", "Bob won on objectives")
    refused(lambda: results.battle_withdraw(report=first, user=cast["bob"]), "not-yours")
    results.battle_withdraw(report=first, user=cast["alice"])
    second = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    with django_capture_on_commit_callbacks(execute=True):
        results.battle_confirm(report=second, user=cast["bob"])
    assert newest(campaign)["battles"][0]["result"] == "draw"
    assert list(ResultReport.objects.values_list("status", flat=True)) == ["withdrawn", "confirmed"]
    refused(lambda: results.battle_withdraw(report=second, user=cast["alice"]), "settled")


def test_a_report_for_a_settled_battle_or_a_step_moved_on_is_refused(
    campaign, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    refused(
        lambda: results.battle_report(battle=battle, user=cast["alice"], result="draw", seen=1),
        "moved-on",
    )
    with django_capture_on_commit_callbacks(execute=True):
        decisions.battle_concede(battle=battle, user=cast["bob"], seen=seen(campaign))
    entry = newest(campaign)["battles"][0]
    assert (entry["kind"], entry["winner"]) == ("concession", "aldermark")
    aldermark = next(k for k in newest(campaign)["kingdoms"] if k["id"] == "aldermark")
    assert aldermark["pitched_wins"] == 0  # ruling B4: no might for a concession
    refused(
        lambda: results.battle_report(battle=battle, user=cast["alice"], result="draw"), "settled"
    )


def test_the_admin_decides_a_disputed_battle_and_it_is_audited(
    campaign, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    results.battle_dispute(report=report, user=cast["bob"], reason="not so")
    refused(
        lambda: desk.battle_decide(battle=battle, actor=cast["alice"], result="draw"),
        "not-an-admin",
    )
    with django_capture_on_commit_callbacks(execute=True):
        desk.battle_decide(
            battle=battle, actor=cast["gm"], result="win", winner="brightwater", reason="photos"
        )
    assert newest(campaign)["battles"][0]["winner"] == "brightwater"
    report.refresh_from_db()
    assert report.status == "set_aside"
    audit = AuditEntry.objects.get(action="battle-decided")
    assert (audit.actor, audit.reason) == (cast["gm"], "photos")


def test_the_admin_records_a_confirmed_result_again_before_the_month_moves_on(
    campaign, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    """Issue 35: a result agreed in error (alice's win, confirmed by bob) waits for the
    month to move on; the admin records it again, with a reason: the agreed one is set
    aside, both players are told, the log keeps why, and the new result is what stands."""
    from notifications.models import Notification
    from tests.notifications.notifying import with_addresses

    with_addresses(cast)
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    results.battle_confirm(report=report, user=cast["bob"])  # the advance is not run yet
    assert battle_entries.battle_settled_meanwhile(campaign, battle.hex)
    refused(
        lambda: desk.battle_decide(
            battle=battle, actor=cast["gm"], result="win", winner="brightwater"
        ),
        "no-reason",
    )
    refused(
        lambda: desk.battle_decide(battle=battle, actor=cast["bob"], result="draw", reason="mine"),
        "not-an-admin",
    )
    again = desk.battle_decide(
        battle=battle, actor=cast["gm"], result="win", winner="brightwater", reason="misclick"
    )
    assert again is True
    (given,) = Submission.objects.filter(campaign=campaign, kind="battles", consumed_by=None)
    assert given.payload == [{"hex": battle.hex, "result": "win", "winner": "brightwater"}]
    report.refresh_from_db()
    assert (report.status, report.set_aside_why) == (
        "set_aside", "the campaign's admin recorded the result again"
    )  # fmt: skip
    audit = AuditEntry.objects.get(action="battle-rerecorded")
    assert (audit.actor, audit.reason) == (cast["gm"], "misclick")
    told = Notification.objects.filter(subject__contains="was recorded again")
    assert {n.user for n in told} == {cast["alice"], cast["bob"]}
    assert all("Brightwater won" in n.body and "misclick" in n.body for n in told)
    with django_capture_on_commit_callbacks(execute=True):
        advancing.queue_advance(campaign, seen(campaign))
    assert newest(campaign)["battles"][0]["winner"] == "brightwater"


def test_a_result_the_engine_refuses_at_the_advance_is_set_aside_and_never_pauses(
    campaign, cast, battle
):
    """Issue 35: no decision a player or the admin gave pauses a campaign. A result agreed
    when it stood, and refused by the engine when the campaign moves on (here: its winner
    no longer a side of the battle), is set aside: the campaign runs on, the battle waits
    for its result again, the agreed report is set aside, both players are told why, and
    the log keeps it."""
    from notifications.models import Notification
    from tests.notifications.notifying import with_addresses

    with_addresses(cast)
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    results.battle_confirm(report=report, user=cast["bob"])
    given = Submission.objects.get(campaign=campaign, kind="battles", consumed_by=None)
    given.payload = [{"hex": battle.hex, "result": "win", "winner": "carrowmoor"}]
    given.save()
    before = seen(campaign)

    snapshot = advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=before)

    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING
    assert snapshot is not None
    assert snapshot.number == before + 1
    battle.refresh_from_db()
    assert battle.awaiting
    assert [p["kind"] for p in newest(campaign)["pending"]] == ["battle_result"] * 2
    report.refresh_from_db()
    assert report.status == "set_aside"
    assert "no longer stood when the campaign moved on" in report.set_aside_why
    (aside,) = AuditEntry.objects.filter(action="set-aside")
    assert aside.details["set_aside"][0]["kind"] == "battles"
    told = Notification.objects.filter(subject__contains="result was set aside")
    assert {n.user for n in told} == {cast["alice"], cast["bob"]}
    assert not AuditEntry.objects.filter(action="advance-refused").exists()


def test_an_undo_takes_back_a_confirmed_result_and_the_battle_is_reported_again(
    campaign, cast, battle
):
    """Issue 35: Undo reaches every state a confirmed result leaves. Confirmed and not yet
    used by an advance, the result is taken back by an undo: its report is set aside, both
    players are told, and the battle's result is reported again."""
    from notifications.models import Notification
    from tests.notifications.notifying import with_addresses

    with_addresses(cast)
    data = newest(campaign)
    data["kingdoms"][0]["gold"] += 1  # a correction after the hand-off: the step undone
    admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="a tithe", data=data, what="gold"
    )
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    results.battle_confirm(report=report, user=cast["bob"])
    admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="a mistake")

    battle = Battle.objects.get(campaign=campaign, hex=battle.hex)
    assert battle.awaiting
    assert not battle_entries.battle_settled_meanwhile(campaign, battle.hex)
    report.refresh_from_db()
    assert (report.status, report.set_aside_why) == (
        "set_aside", "the campaign's admin undid a step"
    )  # fmt: skip
    told = Notification.objects.filter(subject__contains="result was set aside")
    assert {n.user for n in told} == {cast["alice"], cast["bob"]}
    again = results.battle_report(
        battle=battle, user=cast["bob"], result="win", winner="brightwater"
    )
    assert again.status == "reported"


def test_the_admin_settles_it_as_a_simple_battle_with_every_die_recorded(
    campaign, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        desk.battle_resolve_simply(battle=battle, actor=cast["gm"], reason="no time")
    battle.refresh_from_db()
    assert (battle.kind, battle.status) == ("simple", "resolved")
    details = battle.details
    # ruling B7: one die per upright army, the picker's then the opponent's, after the
    # condition and scenario dice of the hand-off (ruling D1)
    assert battle.dice[2:] == details["attacker_dice"] + details["defender_dice"]
    assert AuditEntry.objects.filter(action="battle-simple", actor=cast["gm"]).exists()


def test_the_admin_extends_a_battles_deadline(campaign, cast, battle):
    due = battle.deadline
    refused(lambda: desk.battle_extend(battle=battle, actor=cast["bob"], hours=5), "not-an-admin")
    refused(lambda: desk.battle_extend(battle=battle, actor=cast["gm"], hours=0), "bad-hours")
    desk.battle_extend(battle=battle, actor=cast["gm"], hours=24, reason="holidays")
    battle.refresh_from_db()
    assert battle.deadline is not None
    assert due is not None
    assert battle.deadline - due == timedelta(hours=24)
    assert AuditEntry.objects.get(action="battle-extended").details["hours"] == 24


def test_the_two_sides_agree_a_time_to_play(campaign, cast, battle):
    at = timezone.now() + timedelta(days=2)
    refused(
        lambda: decisions.battle_propose_time(
            battle=battle, user=cast["alice"], at=timezone.now() - timedelta(hours=1)
        ),
        "in-the-past",
    )
    refused(
        lambda: decisions.battle_propose_time(battle=battle, user=cast["carol"], at=at),
        "not-in-battle",
    )
    proposed = decisions.battle_propose_time(battle=battle, user=cast["alice"], at=at)
    refused(
        lambda: decisions.battle_accept_time(play_time=proposed, user=cast["alice"]), "own-time"
    )
    decisions.battle_accept_time(play_time=proposed, user=cast["bob"])
    proposed.refresh_from_db()
    assert proposed.accepted_at is not None


def test_the_loser_chooses_where_to_retreat(
    campaign, cast, battle, won, django_capture_on_commit_callbacks
):
    won(battle, "aldermark")
    asked = next(p for p in newest(campaign)["pending"] if p["kind"] == "retreat")
    assert (asked["kingdom"], asked["unit"]) == ("brightwater", "brightwater-1")
    to = asked["choices"][1]
    refused(
        lambda: decisions.battle_retreat(
            campaign=campaign, user=cast["bob"], retreats={"brightwater-1": battle.hex}
        ),
        "bad-retreat",
    )
    refused(
        lambda: decisions.battle_retreat(
            campaign=campaign, user=cast["alice"], retreats={"brightwater-1": to}
        ),
        "not-asked",
    )
    refused(  # ruling B12: a retreat only for a unit that retreats
        lambda: decisions.battle_retreat(
            campaign=campaign, user=cast["bob"], retreats={"brightwater-1": to, "brightwater-2": to}
        ),
        "not-asked",
    )
    with django_capture_on_commit_callbacks(execute=True):
        decisions.battle_retreat(
            campaign=campaign, user=cast["bob"], retreats={"brightwater-1": to}
        )
    army = next(a for a in newest(campaign)["armies"] if a["id"] == "brightwater-1")
    assert (army["hex"], army["upright"]) == (to, False)


def test_b4_an_outnumbered_side_with_friendly_land_next_to_it_must_concede(campaign, cast):
    conceded = hand_off(campaign, cast, armies=2)
    assert conceded is not None
    assert (conceded.kind, conceded.winner) == ("concession", "brightwater")
    assert conceded.details == {"conceded_by": "aldermark", "forced": True}


def test_b4_an_outnumbered_side_with_nowhere_to_go_makes_a_last_stand(
    campaign, cast, eager_celery, django_capture_on_commit_callbacks
):
    assert hand_off(campaign, cast, armies=2, isolated=True) is None
    asked = next(p for p in newest(campaign)["pending"] if p["kind"] == "last_stand")
    assert asked["kingdom"] == "aldermark"
    refused(
        lambda: decisions.battle_last_stand(
            campaign=campaign, user=cast["bob"], hex=asked["hex"], stand=True
        ),
        "not-asked",
    )
    elsewhere = [asked["hex"][0] + 1, asked["hex"][1]]
    refused(  # ruling B12: a Last Stand only where one is asked
        lambda: decisions.battle_last_stand(
            campaign=campaign, user=cast["alice"], hex=elsewhere, stand=True
        ),
        "not-asked",
    )
    with django_capture_on_commit_callbacks(execute=True):
        decisions.battle_last_stand(
            campaign=campaign, user=cast["alice"], hex=asked["hex"], stand=True, seen=seen(campaign)
        )
    stand = Battle.objects.get(campaign=campaign)
    assert (stand.kind, stand.status, stand.last_stand) == (
        "pitched",
        "awaiting_result",
        "aldermark",
    )
    assert stand.board == "4x4"  # the larger side: two armies


def test_undo_puts_the_battle_back_to_waiting(
    campaign, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        desk.battle_resolve_simply(battle=battle, actor=cast["gm"])
    admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="oops")
    battle.refresh_from_db()
    assert battle.status == "awaiting_result"
    assert battle.kind == "pitched"
    assert list(Battle.objects.values_list("number", flat=True)) == [1]


def test_an_imported_campaign_has_the_rows_of_its_battles(campaign, cast, battle):
    document = campaign_export(campaign)
    imported = campaign_import(document, slug="moved-league")
    (row,) = Battle.objects.filter(campaign=imported)
    assert (row.number, row.hex, row.status, row.sides) == (
        1,
        battle.hex,
        "awaiting_result",
        battle.sides,
    )


def test_once_a_result_is_in_nothing_more_is_said_of_the_battle_before_the_advance(
    campaign, cast, battle
):
    """The advance runs after the confirmation (a worker, later): until then neither side
    concedes or reports it again, and the admin records it only again, saying why (issue
    35: the way out of a result agreed in error)."""
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    results.battle_confirm(report=report, user=cast["bob"])  # its advance is not run here
    before = state(campaign)
    refused(
        lambda: desk.battle_decide(battle=battle, actor=cast["gm"], result="draw"),
        "no-reason",
    )
    refused(lambda: desk.battle_resolve_simply(battle=battle, actor=cast["gm"]), "settled")
    refused(lambda: decisions.battle_concede(battle=battle, user=cast["alice"]), "settled")
    refused(
        lambda: results.battle_report(battle=battle, user=cast["bob"], result="draw"), "settled"
    )
    assert state(campaign) == before
