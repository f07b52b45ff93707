"""The admin's controls: pause, resume, extend, advance now, undo, and corrections of the
state, each audited. Each takes `seen`, the snapshot the admin's page showed: a change
from a page the campaign has moved on from since (another tab's advance, say) is refused,
and nothing changes (`check_admin_saw`)."""

import copy
from collections.abc import Callable, Sequence
from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from campaign.models import (
    AuditEntry,
    Campaign,
    Snapshot,
    Submission,
)
from campaign.rules.decisions import STANDING
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import parse_campaign
from campaign.rules.optional.wizards.artefacts import HIGHEST, LOWEST
from campaign.rules.state import Season
from campaign.services.advancing import (
    advance_when_ready,
    campaign_advance,
    on_a_deadline_day,
    open_deadline,
    store_snapshot,
)
from campaign.services.battle_entries import SETTLING
from campaign.services.common import (
    DRAWN_BEFORE,
    Json,
    ServiceError,
    check_admin_saw,
    check_seen,
    latest_snapshot,
    locked_for_admin,
    record_audit,
)
from campaign.services.inputs import Refused, drafts_no_longer_standing, refused_details
from campaign.signals import decisions_refused


@transaction.atomic
def campaign_pause(
    *, campaign: Campaign, actor: User, reason: str = "", seen: int | None = None
) -> Campaign:
    """Deadlines stop; the time left is kept for the resume."""
    campaign = locked_for_admin(campaign, actor)
    check_admin_saw(campaign, seen)
    if campaign.status != Campaign.Status.RUNNING:
        raise ServiceError("Only a running campaign can be paused.", code="not-running")
    campaign.paused_with = (campaign.deadline - timezone.now()) if campaign.deadline else None
    campaign.status, campaign.deadline = Campaign.Status.PAUSED, None
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.PAUSED, reason)
    return campaign


@transaction.atomic
def campaign_resume(
    *, campaign: Campaign, actor: User, reason: str = "", seen: int | None = None
) -> Campaign:
    campaign = locked_for_admin(campaign, actor)
    check_admin_saw(campaign, seen)
    if campaign.status != Campaign.Status.PAUSED:
        raise ServiceError("The campaign is not paused.", code="not-paused")
    left = max(campaign.paused_with or timedelta(0), timedelta(0))
    campaign.status = Campaign.Status.RUNNING
    campaign.deadline = on_a_deadline_day(campaign, timezone.now() + left)
    campaign.paused_with = None
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.RESUMED, reason)
    advance_when_ready(campaign, latest_snapshot(campaign))  # all may have got ready meanwhile
    return campaign


@transaction.atomic
def campaign_extend(
    *, campaign: Campaign, actor: User, hours: int, reason: str = "", seen: int | None = None
) -> Campaign:
    """The deadline moves `hours` later, or nearer with negative hours (issue 35: a group
    all ready early may bring it in), never into the past: to end the step now, advance
    now. While paused, the time left on resuming moves alike."""
    campaign = locked_for_admin(campaign, actor)
    check_admin_saw(campaign, seen)
    if hours == 0:
        raise ServiceError("Move it by at least one hour.", code="bad-hours", field="hours")
    moved = timedelta(hours=hours)
    if campaign.status == Campaign.Status.PAUSED:
        left = (campaign.paused_with or timedelta(0)) + moved
        if left <= timedelta(0):
            raise ServiceError(
                "That leaves no time on resuming: move it by fewer hours, or resume and "
                "advance now.", code="deadline-past", field="hours",
            )  # fmt: skip
        campaign.paused_with = left
    elif campaign.deadline is not None:
        due = on_a_deadline_day(campaign, campaign.deadline + moved)
        if due <= timezone.now():
            raise ServiceError(
                "That would put the deadline in the past: move it by fewer hours, or "
                "advance now.", code="deadline-past", field="hours",
            )  # fmt: skip
        campaign.deadline = due
    else:
        raise ServiceError("The campaign has no deadline to move.", code="no-deadline")
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.EXTENDED, reason, {"hours": hours})
    return campaign


def campaign_advance_now(
    *, campaign: Campaign, actor: User, reason: str = "", seen: int | None = None
) -> Snapshot | None:
    """The admin advances at once, with the deadline defaults for whoever is not ready.
    With `seen`, the step advanced is the one the admin's page showed: a second tab's
    "Advance now" (or one sent as a deadline's advance lands) is refused, never a second
    advance that takes the next step's decisions away as it opens. Without it, whatever
    step stands now; None if the campaign had moved on meanwhile."""
    with transaction.atomic():
        locked = locked_for_admin(campaign, actor)
        check_admin_saw(locked, seen)
        number = latest_snapshot(locked).number
    snapshot = campaign_advance(
        campaign_id=campaign.pk, snapshot_number=number, defaults=True, actor=actor
    )
    if snapshot is None and seen is not None:
        raise ServiceError(DRAWN_BEFORE, code="moved-on")
    if reason and snapshot is not None:
        record_audit(
            campaign, actor, AuditEntry.Action.ADVANCED_NOW, reason, {"snapshot": snapshot.number}
        )
    return snapshot


@transaction.atomic
def campaign_undo(
    *, campaign: Campaign, actor: User, reason: str, seen: int | None = None
) -> Snapshot:
    """Back to the state before the last advance, as a new snapshot. The decisions that
    advance used are open again (not ready); those given since are kept for review. With
    `seen`, refused if an advance has landed since the admin looked: they undo what they saw."""
    campaign = locked_for_admin(campaign, actor)
    latest = latest_snapshot(campaign)
    check_seen(latest, seen, words=DRAWN_BEFORE)
    if latest.number < 2:
        raise ServiceError("There is no advance to undo.", code="nothing-to-undo")
    previous = campaign.snapshots.get(number=latest.number - 1)
    snapshot = store_snapshot(
        campaign=campaign, number=latest.number + 1, data=previous.data, decisions={},
        reason=Snapshot.Reason.UNDO, created_by=actor,
    )  # fmt: skip
    taken_back = _results_given(campaign)
    Submission.objects.filter(campaign=campaign, consumed_by=None).update(consumed_by=snapshot)
    for submission in Submission.objects.filter(campaign=campaign, consumed_by=latest):
        submission.consumed_by, submission.ready = None, submission.kind in STANDING
        submission.save()
    if campaign.status == Campaign.Status.ENDED:
        campaign.status = Campaign.Status.RUNNING
    open_deadline(campaign, previous.data)
    campaign.save()
    refused = _drafts_that_no_longer_stand(campaign, snapshot, "undo")
    if taken_back:
        decisions_refused.send(
            sender=Snapshot, campaign=campaign, snapshot=snapshot, refused=taken_back, cause="undo"
        )
    details = {"undid": latest.number, "back_to": previous.number, "snapshot": snapshot.number}
    record_audit(campaign, actor, AuditEntry.Action.UNDONE, reason, details | refused)
    return snapshot


def _results_given(campaign: Campaign) -> list[Refused]:
    """The battles' results given and not yet used (agreed, decided, conceded): an undo
    takes them back, and the battles wait for their results again."""
    return [
        Refused(
            submission.kingdom, "battles", "the campaign's admin undid a step", hex=entry["hex"]
        )
        for submission in Submission.objects.filter(
            campaign=campaign, kind="battles", consumed_by=None
        )
        for entry in submission.payload
        if any(key in entry for key in SETTLING)
    ]


@transaction.atomic
def campaign_correct(
    *, campaign: Campaign, actor: User, reason: str, data: Json, what: str
) -> Snapshot:
    """The admin corrects the state (a tile, an army, resources): the corrected file is
    checked by the engine, stored as a new snapshot, and recorded with its reason."""
    campaign = locked_for_admin(campaign, actor)
    if not reason.strip():
        raise ServiceError("Say why the state is corrected.", code="no-reason", field="reason")
    latest = latest_snapshot(campaign)
    try:
        parse_campaign(data)
    except RuleError as error:
        raise ServiceError(error.message, code=error.code, field=error.field) from None
    snapshot = store_snapshot(
        campaign=campaign,
        number=latest.number + 1,
        data=data,
        reason=Snapshot.Reason.CORRECTION,
        created_by=actor,
    )
    refused = _drafts_that_no_longer_stand(campaign, snapshot, "correction")
    details = {"what": what, "snapshot": snapshot.number}
    record_audit(campaign, actor, AuditEntry.Action.CORRECTED, reason, details | refused)
    advance_when_ready(campaign, snapshot)  # the decisions already ready still stand
    return snapshot


@transaction.atomic
def campaign_set_artefacts(
    *,
    campaign: Campaign,
    actor: User,
    reason: str,
    pool: Sequence[tuple[str, int]],
    seen: int | None = None,
) -> Snapshot:
    """Option wizards (OA8): before year 1 the admin edits the campaign's magical artefacts
    (each name once, 5 to 50 points), all of them free; a correction, audited."""
    campaign = locked_for_admin(campaign, actor)
    check_admin_saw(campaign, seen)
    data = copy.deepcopy(latest_snapshot(campaign).data)
    if not data["options"].get("wizards"):
        raise ServiceError("This campaign plays without magical artefacts.", code="no-wizards")
    if data["clock"]["season"] != Season.SETUP:
        raise ServiceError(
            "The magical artefacts are edited before year 1 only (option OA8).",
            code="artefacts-fixed",
        )
    names = [name for name, _ in pool]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise ServiceError(f"Each artefact once: {', '.join(twice)} twice.", code="bad-artefacts")
    wrong = [name for name, points in pool if not LOWEST <= points <= HIGHEST]
    if wrong:
        raise ServiceError(
            f"An artefact is worth {LOWEST} to {HIGHEST} points: not {', '.join(wrong)}.",
            code="bad-artefacts",
        )
    data["artefacts"] = [{"name": n, "points": p, "holder": None} for n, p in pool]
    what = f"magical artefacts ({len(pool)})"
    return campaign_correct(campaign=campaign, actor=actor, reason=reason, data=data, what=what)


def _drafts_that_no_longer_stand(campaign: Campaign, snapshot: Snapshot, cause: str) -> Json:
    """After a correction or undo (`cause`, which stored `snapshot`), the kingdoms' open decisions the engine now
    refuses: each such kingdom's decisions are no longer ready (its player decides again,
    rather than the next advance stopping on them), and its player is told. For the audit
    log, what no longer stands."""
    refused: list[Refused] = drafts_no_longer_standing(campaign, snapshot.data)
    if not refused:
        return {}
    kingdoms = [r.kingdom for r in refused]
    Submission.objects.filter(campaign=campaign, kingdom__in=kingdoms, consumed_by=None).update(
        ready=False
    )
    decisions_refused.send(
        sender=Snapshot, campaign=campaign, snapshot=snapshot, refused=refused, cause=cause
    )
    return {"no_longer_stand": [refused_details(r) for r in refused]}


@transaction.atomic
def _correct_newest(
    campaign: Campaign,
    actor: User,
    reason: str,
    what: str,
    change: Callable[[Json], None],
    seen: int | None,
) -> Snapshot:
    """A correction made on the newest state, read under the campaign's lock: an advance,
    an undo or another correction that lands first is never overwritten by a state read
    before it; with `seen`, one that landed after the admin's page was drawn refuses it."""
    campaign = locked_for_admin(campaign, actor)
    check_admin_saw(campaign, seen)
    data = copy.deepcopy(latest_snapshot(campaign).data)
    change(data)
    return campaign_correct(campaign=campaign, actor=actor, reason=reason, data=data, what=what)


def correct_tile(
    *,
    campaign: Campaign,
    actor: User,
    reason: str,
    hex: list[int],
    owner: str | None,
    settlement: str | None,
    seen: int | None = None,
) -> Snapshot:
    """Set (or clear, with owner None) the explored tile at a hex."""

    def change(data: Json) -> None:
        tiles = [t for t in data["tiles"] if t["hex"] != hex]
        if owner is not None:
            tiles.append({"hex": hex, "owner": owner, "settlement": settlement})
        data["tiles"] = sorted(tiles, key=lambda t: tuple(t["hex"]))

    return _correct_newest(campaign, actor, reason, f"tile {hex}", change, seen)


def correct_army(
    *,
    campaign: Campaign,
    actor: User,
    reason: str,
    army: str,
    hex: list[int] | None,
    upright: bool = True,
    seen: int | None = None,
) -> Snapshot:
    """Move an army (or remove it, with hex None)."""

    def change(data: Json) -> None:
        found = next((a for a in data["armies"] if a["id"] == army), None)
        if found is None:
            raise ServiceError(f"There is no army {army}.", code="unknown-unit", field="army")
        if hex is None:
            data["armies"] = [a for a in data["armies"] if a["id"] != army]
        else:
            found.update(hex=hex, upright=upright)

    return _correct_newest(campaign, actor, reason, f"army {army}", change, seen)


def correct_resources(
    *,
    campaign: Campaign,
    actor: User,
    reason: str,
    kingdom: str,
    gold: int,
    food: int,
    seen: int | None = None,
) -> Snapshot:
    """Set a kingdom's gold and food."""

    def change(data: Json) -> None:
        found = next((k for k in data["kingdoms"] if k["id"] == kingdom), None)
        if found is None:
            raise ServiceError(
                f"There is no kingdom {kingdom}.", code="unknown-kingdom", field="kingdom"
            )
        found.update(gold=gold, food=food)

    return _correct_newest(campaign, actor, reason, f"resources of {kingdom}", change, seen)
