"""The admin's desk of battles: a result decided (after a dispute, or for a battle
never reported), a simple battle (B6, B7), a deadline extended. Audited."""

from collections.abc import Sequence
from datetime import timedelta

from django.db import transaction
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
    locked_awaiting,
    locked_open,
)
from campaign.models import AuditEntry
from campaign.services import advancing, battle_entries, common
from campaign.services.common import ServiceError
from notifications import events

# --- the admin ---------------------------------------------------------------------------


@transaction.atomic
def battle_decide(
    *,
    battle: Battle,
    actor: User,
    result: str,
    winner: str = "",
    reason: str = "",
    captured: Sequence[str] = (),
    seen: int | None = None,
) -> bool:
    """The admin records the result for both sides (a dispute, an overdue report, a game
    played without the app), with option wizards the artefacts the winner took (OA10);
    audited. A battle whose result is in (agreed, decided, conceded) but whose month has
    not advanced has its result recorded again, with a reason, in place of the one given:
    the way out of a result agreed in error; both players are told. True if it was.
    `seen`: the snapshot the admin's desk showed (`common.check_admin_saw`)."""
    battle = locked_awaiting(battle)
    campaign = battle.campaign
    common.require_admin(campaign, actor)
    common.check_admin_saw(campaign, seen)
    winner = winner if result == "win" else ""
    check_result(battle, result, winner)
    entry = entry_of(battle, result, winner, captured)
    if not battle_entries.battle_settled_meanwhile(campaign, battle.hex):
        battle_entries.battle_entry_save(
            campaign=campaign, actor=actor, entry=entry,
            audit=AuditEntry.Action.BATTLE_DECIDED, reason=reason,
        )  # fmt: skip
        battle.reports.filter(status__in=ResultReport.OPEN).update(
            status=ResultReport.Status.SET_ASIDE, set_aside_why="the campaign's admin decided"
        )
        return False
    battle_entries.battle_entry_rerecord(campaign=campaign, actor=actor, entry=entry, reason=reason)
    battle.reports.filter(status=ResultReport.Status.CONFIRMED).update(
        status=ResultReport.Status.SET_ASIDE,
        set_aside_why="the campaign's admin recorded the result again",
    )
    audit = campaign.audit.filter(action=AuditEntry.Action.BATTLE_RERECORDED).latest("pk")
    events.result_rerecorded(
        campaign=campaign, admin=actor, audit_id=audit.pk, kingdoms=battle.kingdoms,
        hex=battle.hex, result=result, winner=winner, reason=reason, link=card_url(battle),
    )  # fmt: skip
    return True


@transaction.atomic
def battle_resolve_simply(
    *, battle: Battle, actor: User, reason: str = "", seen: int | None = None
) -> None:
    """The admin settles the battle as a simple land battle (rulings B6, B7): the dice
    are rolled by the engine, recorded, and shown on the card; audited. `seen` as for
    `battle_decide`."""
    battle = locked_open(battle, None)
    common.require_admin(battle.campaign, actor)
    common.check_admin_saw(battle.campaign, seen)
    battle_entries.battle_entry_save(
        campaign=battle.campaign,
        actor=actor,
        entry={"hex": battle.hex, "resolve": "simple"},
        audit=AuditEntry.Action.BATTLE_SIMPLE,
        reason=reason,
    )
    battle.reports.filter(status__in=ResultReport.OPEN).update(
        status=ResultReport.Status.SET_ASIDE, set_aside_why="settled as a simple battle"
    )


@transaction.atomic
def battle_extend(
    *, battle: Battle, actor: User, hours: int, reason: str = "", seen: int | None = None
) -> Battle:
    """More time for the two players to play and report; audited. `seen` as for
    `battle_decide`."""
    battle = locked_open(battle, None)
    common.require_admin(battle.campaign, actor)
    common.check_admin_saw(battle.campaign, seen)
    if hours < 1:
        raise ServiceError("Extend by at least one hour.", code="bad-hours", field="hours")
    due = max(battle.deadline or timezone.now(), timezone.now()) + timedelta(hours=hours)
    battle.deadline = advancing.on_a_deadline_day(battle.campaign, due)
    battle.save()
    common.record_audit(
        battle.campaign,
        actor,
        AuditEntry.Action.BATTLE_EXTENDED,
        reason,
        {"battle": battle.number, "hex": battle.hex, "hours": hours},
    )
    return battle
