"""The players' reports of a battle's result: a player reports the tabletop result, the
opponent confirms or disputes it, the reporter may withdraw it. What reaches the engine
goes through the campaign's services (`battle_entry_save`), which check it with the
engine and queue the advance. A report and a dispute write their notifications
(`notifications.events`) in their transaction."""

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from battles.models import (
    Battle,
    ResultReport,
)
from battles.services.common import (
    card_url,
    check_result,
    entry_of,
    locked_open,
    side_of,
)
from campaign.services import battle_entries
from campaign.services.common import ServiceError
from notifications import events

# --- the players' reports -------------------------------------------------------------


@transaction.atomic
def battle_report(
    *,
    battle: Battle,
    user: User,
    result: str,
    winner: str = "",
    seen: int | None = None,
    captured: Sequence[str] = (),
    **details: Any,
) -> ResultReport:
    """One side's report of the game: win (and who won) or draw, with the optional Kings of
    War details (scores, turns, note, lists) and, with option wizards, the artefacts the
    winner took (OA10). The opponent confirms or disputes it. A side that attached a list
    to the battle played it: the report takes that list, not one written in it."""
    battle = locked_open(battle, seen)
    kingdom = side_of(battle, user)
    winner = winner if result == "win" else ""
    captured = list(captured) if winner else []
    check_result(battle, result, winner)
    if battle.reports.filter(kingdom=kingdom, status__in=ResultReport.OPEN).exists():
        raise ServiceError(
            "You have a report of this battle open already: withdraw it to report again.",
            code="already-reported",
        )
    if battle.reports.filter(status=ResultReport.Status.REPORTED).exists():
        raise ServiceError(
            "Your opponent's report waits for your answer: confirm it, or dispute it and then "
            "report the result as you saw it.",
            code="answer-first",
        )
    battle_entries.check_battle_entry(battle.campaign, entry_of(battle, result, winner, captured))
    attached = dict(battle.attached_lists.values_list("kingdom", "text"))
    for role, side in zip(("attacker", "defender"), battle.kingdoms, strict=True):
        if side in attached:
            details[f"{role}_list"] = attached[side]
    report = ResultReport.objects.create(
        battle=battle,
        kingdom=kingdom,
        reported_by=user,
        result=result,
        winner=winner,
        captured=captured,
        **details,
    )
    events.result_reported(
        campaign=battle.campaign, report_id=report.pk, reporter=user, kingdom=kingdom,
        opponent=battle.opponent_of(kingdom), hex=battle.hex, result=result, winner=winner,
        link=card_url(battle),
    )  # fmt: skip
    return report


def _answerable(report: ResultReport, user: User, seen: int | None) -> ResultReport:
    """The report, for its opponent to answer; refused to anyone else."""
    battle = locked_open(report.battle, seen)
    kingdom = side_of(battle, user)
    report = ResultReport.objects.select_related("battle__campaign").get(pk=report.pk)
    if kingdom == report.kingdom:
        raise ServiceError(
            "You can't confirm or dispute your own report: your opponent does.",
            code="own-report",
        )
    if not report.is_open:
        raise ServiceError(
            f"This report is {report.get_status_display().lower()} already.", code="answered"
        )
    return report


@transaction.atomic
def battle_confirm(*, report: ResultReport, user: User, seen: int | None = None) -> ResultReport:
    """The opponent agrees: the result goes to the engine and the campaign moves on."""
    report = _answerable(report, user, seen)
    battle = report.battle
    battle_entries.battle_entry_save(
        campaign=battle.campaign,
        actor=user,
        entry=entry_of(battle, report.result, report.winner, report.captured),
        seen=seen,
    )
    report.status, report.answered_by, report.answered_at = (
        ResultReport.Status.CONFIRMED,
        user,
        timezone.now(),
    )
    report.save()
    battle.reports.filter(status__in=ResultReport.OPEN).update(
        status=ResultReport.Status.SET_ASIDE, set_aside_why="another report was confirmed"
    )
    return report


@transaction.atomic
def battle_dispute(
    *, report: ResultReport, user: User, reason: str, seen: int | None = None
) -> ResultReport:
    """The opponent does not agree, and says why: the admin decides."""
    if not reason.strip():
        raise ServiceError("Say why you dispute the report.", code="no-reason", field="reason")
    report = _answerable(report, user, seen)
    if report.status == ResultReport.Status.DISPUTED:
        raise ServiceError("This report is disputed already.", code="answered")
    report.status, report.dispute_reason = ResultReport.Status.DISPUTED, reason.strip()
    report.answered_by, report.answered_at = user, timezone.now()
    report.save()
    battle = report.battle
    events.result_disputed(
        campaign=battle.campaign, report_id=report.pk, disputer=user, reporter=report.reported_by,
        kingdom=report.kingdom, hex=battle.hex, result=report.result, winner=report.winner,
        reason=report.dispute_reason, link=card_url(battle),
        desk=reverse("battles:admin", args=[battle.campaign.slug]),
    )  # fmt: skip
    return report


@transaction.atomic
def battle_withdraw(*, report: ResultReport, user: User) -> ResultReport:
    """The reporter takes back a report the opponent has not confirmed."""
    battle = locked_open(report.battle, None)
    kingdom = side_of(battle, user)
    report = ResultReport.objects.get(pk=report.pk)
    if kingdom != report.kingdom:
        raise ServiceError("Only the side that made a report may withdraw it.", code="not-yours")
    if not report.is_open:
        raise ServiceError(
            f"This report is {report.get_status_display().lower()}: it can't be withdrawn.",
            code="answered",
        )
    report.status = ResultReport.Status.WITHDRAWN
    report.save()
    return report
