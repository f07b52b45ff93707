"""Advancing a campaign: queued when everyone is ready or a deadline passes, the engine run
on the gathered decisions, the new snapshot stored and the next deadline opened."""

import logging
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from celery import signature
from django.db import transaction
from django.db.models import Count, Max, Q
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from accounts.models import User
from campaign.gazetteer import record_settled
from campaign.models import (
    AuditEntry,
    Campaign,
    Snapshot,
    Submission,
    default_deadlines,
    every_day,
)
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.state import STEPS, PendingKind, Season, Step
from campaign.services.common import (
    Json,
    ServiceError,
    checked_zone,
    latest_snapshot,
    named,
    record_audit,
)
from campaign.services.inputs import (
    Refused,
    everyone_ready,
    gather_inputs,
    refused_details,
    set_aside,
)
from campaign.signals import decisions_refused, snapshot_stored

logger = logging.getLogger(__name__)
ADVANCE_TASK = "campaign.tasks.advance_campaign"  # registered by CampaignConfig.ready


def advance_when_ready(campaign: Campaign, snapshot: Snapshot) -> bool:
    """Queue the campaign's advance from `snapshot` if every kingdom it waits for is ready:
    whether it was queued."""
    if campaign.status == Campaign.Status.RUNNING and everyone_ready(campaign, snapshot):
        queue_advance(campaign, snapshot.number)
        return True
    return False


def queue_advance(campaign: Campaign, snapshot_number: int, *, defaults: bool = False) -> None:
    """Advance in the background once this transaction has committed. The decisions are
    saved whether or not the broker answers: if it is away, the error is logged and the
    beat's sweep (`campaigns_ready_not_advanced`) queues the advance once it is back."""
    campaign_id = campaign.pk
    transaction.on_commit(lambda: _send_advance(campaign_id, snapshot_number, defaults))


def _send_advance(campaign_id: int, snapshot_number: int, defaults: bool) -> None:
    # Named, not imported: the tasks call the services, never the other way round.
    advance = signature(ADVANCE_TASK, (campaign_id, snapshot_number), {"defaults": defaults})
    try:
        advance.apply_async()
    except BrokerError as error:
        logger.warning(
            "The advance of campaign %s from snapshot %s could not be queued (%s): "
            "the beat's sweep will queue it once the broker answers.",
            campaign_id,
            snapshot_number,
            error,
        )


def campaigns_ready_not_advanced(
    older_than: timedelta = timedelta(minutes=1), now: datetime | None = None
) -> list[tuple[int, int]]:
    """(campaign id, snapshot number) of every running campaign in which every kingdom has
    been ready, with nothing changed for `older_than`, and that has not advanced: its
    advance was lost (the broker was away when it was queued, or its worker died)."""
    cutoff = (now or timezone.now()) - older_than
    open_ready = Q(submissions__consumed_by=None, submissions__ready=True)
    waiting = (
        Campaign.objects.filter(status=Campaign.Status.RUNNING)
        .annotate(
            ready_count=Count("submissions", filter=open_ready),
            last_change=Max("submissions__updated_at", filter=Q(submissions__consumed_by=None)),
        )
        .filter(ready_count__gt=0, last_change__lte=cutoff)
    )
    lost = []
    for campaign in waiting:
        snapshot = latest_snapshot(campaign)
        if snapshot.created_at <= cutoff and everyone_ready(campaign, snapshot):
            lost.append((campaign.pk, snapshot.number))
    return lost


def campaign_advance(
    *, campaign_id: int, snapshot_number: int, defaults: bool = False, actor: User | None = None
) -> Snapshot | None:
    """Gather the decisions into `inputs`, run the engine, store the new snapshot and open
    the next deadline. Does nothing if the campaign has moved on from `snapshot_number`
    (so a task may run twice). With `defaults`, missing decisions take the rulings'
    deadline defaults and drafts not yet marked ready count. If the engine refuses, nothing
    changes but the campaign is paused and the refusal recorded, for its admins to see."""
    try:
        return _advance_locked(campaign_id, snapshot_number, defaults=defaults, actor=actor)
    except RuleError as error:
        with transaction.atomic():
            campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
            if campaign.status == Campaign.Status.RUNNING:
                campaign.paused_with = (
                    (campaign.deadline - timezone.now()) if campaign.deadline else None
                )
                campaign.status, campaign.deadline = Campaign.Status.PAUSED, None
                campaign.save()
            details = {
                "snapshot": snapshot_number,
                "code": error.code,
                "field": error.field,
                "message": error.message,
            }
            record_audit(
                campaign,
                actor,
                AuditEntry.Action.ADVANCE_REFUSED,
                "The rules engine refused to advance; the campaign is paused.",
                details,
            )
        said = named(error.message, latest_snapshot(campaign).data, campaign.gazetteer)
        raise ServiceError(
            f"The rules engine refused to advance: {said} The campaign is paused: "
            "correct the state, or resume it once the decisions are changed.",
            code=error.code, field=error.field, changed=True,
        ) from None  # fmt: skip


@transaction.atomic
def _advance_locked(
    campaign_id: int, snapshot_number: int, *, defaults: bool, actor: User | None
) -> Snapshot | None:
    campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if campaign is None or campaign.status == Campaign.Status.ENDED:
        return None  # deleted, or over, since the task was queued
    if campaign.status == Campaign.Status.PAUSED and actor is None:
        return None  # paused since it was queued: the resume queues it again
    latest = latest_snapshot(campaign)
    if latest.number != snapshot_number:
        return None
    open_submissions = Submission.objects.filter(campaign=campaign, consumed_by=None)
    used = list(open_submissions if defaults else open_submissions.filter(ready=True))
    inputs, advanced, aside = _advanced(
        latest.data, used, deadline=defaults, gazetteer=campaign.gazetteer
    )
    snapshot = store_snapshot(
        campaign=campaign, number=latest.number + 1, data=advanced, decisions=inputs,
        reason=Snapshot.Reason.ADVANCE, defaults=defaults, created_by=actor,
    )  # fmt: skip
    Submission.objects.filter(pk__in=[s.pk for s in used]).update(consumed_by=snapshot)
    if aside:
        _tell_set_aside(campaign, snapshot, aside, cause="deadline" if defaults else "advance")
    if advanced["clock"]["season"] == Season.ENDED:
        campaign.status = Campaign.Status.ENDED
        campaign.deadline = None
    else:
        open_deadline(campaign, advanced)
    campaign.save()
    if actor is not None:
        record_audit(
            campaign,
            actor,
            AuditEntry.Action.ADVANCED,
            details={"snapshot": snapshot.number, "defaults": defaults},
        )
    return snapshot


def _advanced(
    data: Json, used: list[Submission], *, deadline: bool, gazetteer: Json | None
) -> tuple[Json, Json, list[Refused]]:
    """The inputs gathered and the engine's answer. An entry of the decisions that the
    engine refuses (an admin's correction made it illegal, say, or a battle's result that
    others' results made wrong) is set aside and the engine asked again, rather than the
    whole campaign stopping: at a deadline its unit or kingdom takes the deadline default
    (O3, W4-W7); otherwise it is asked again (a battle's result, of its players). Each try
    leaves one entry out, so it ends; only the file's own state can stop it."""
    taken, aside = list(used), list[Refused]()
    while True:
        inputs = gather_inputs(data, taken)
        try:
            return inputs, advance_from(data, inputs, deadline=deadline), aside
        except RuleError as error:
            smaller = set_aside(data, taken, error, gazetteer=gazetteer)
            if smaller is None:
                raise
            taken, left_out = smaller
            aside.append(left_out)


def _tell_set_aside(
    campaign: Campaign, snapshot: Snapshot, aside: list[Refused], *, cause: str
) -> None:
    """Recorded for the admins, and announced so that each kingdom's player is told (and
    the battles app sets aside a result it held as given)."""
    details = {"snapshot": snapshot.number, "set_aside": [refused_details(a) for a in aside]}
    record_audit(campaign, None, AuditEntry.Action.SET_ASIDE, details=details)
    decisions_refused.send(
        sender=Snapshot, campaign=campaign, snapshot=snapshot, refused=aside, cause=cause
    )


def advance_from(data: Json, inputs: Json, *, deadline: bool) -> Json:
    """The engine's answer to a snapshot with these decisions. At its `deadline`, what the
    snapshot waited for and is still missing takes the deadline defaults (the engine's
    --defaults-now), and nothing after it: the next step opens with its own deadline."""
    due = [(p["kind"], p["kingdom"]) for p in data.get("pending", [])]
    return advance({**data, "inputs": inputs}, defaults_now=deadline, due=due)


def store_snapshot(**fields: Any) -> Snapshot:
    """Store a new snapshot and announce it (`signals.snapshot_stored`) inside the same
    transaction, so the rows other apps keep of it (battles, the outbox) commit with it.
    A settlement it has that the campaign had not is named from now on (its gazetteer's
    `settled`)."""
    snapshot = Snapshot.objects.create(**fields)
    campaign = snapshot.campaign
    if campaign.gazetteer and record_settled(campaign.gazetteer, snapshot.data):
        campaign.save(update_fields=["gazetteer"])
    snapshot_stored.send(
        sender=Snapshot, campaign=snapshot.campaign, snapshot=snapshot, imported=False
    )
    return snapshot


def step_hours(campaign: Campaign, data: Json) -> int:
    """The hours the decisions `data` waits for are given: one kingdom's turn in a step
    taken one kingdom at a time (a capital, the order cycle) has the campaign's turn
    deadline; every other step the deadline of its kind (setup, orders, battles, winter)."""
    kind = "turn" if one_at_a_time(data) else deadline_of(Step(data["clock"]["step"]))
    return hours_of(campaign, kind)


def deadline_of(step: Step) -> str:
    """The kind of deadline a step of the clock has: its season's (setup, winter), and in
    summer "battles" for the battles step and "orders" for the rest of the month."""
    if step in STEPS[Season.SETUP]:
        return "setup"
    if step in STEPS[Season.WINTER]:
        return "winter"
    return "battles" if step is Step.BATTLES else "orders"


def hours_of(campaign: Campaign, kind: str) -> int:
    """The hours the campaign gives a kind of deadline (its default if it has none set)."""
    hours: int = campaign.deadlines.get(kind, default_deadlines()[kind])
    return hours


def one_at_a_time(data: Json) -> bool:
    """The campaign waits for one kingdom's turn: its capital (S3), or its order in the
    order cycle (O1)."""
    return any(p["kind"] == PendingKind.CAPITAL or p.get("cycle") for p in data.get("pending", []))


def open_deadline(campaign: Campaign, data: Json) -> None:
    hours = step_hours(campaign, data)
    now = timezone.now()
    due = on_a_deadline_day(campaign, now + timedelta(hours=hours))
    if campaign.status == Campaign.Status.PAUSED:
        campaign.paused_with = due - now
    else:
        campaign.deadline = due


def on_a_deadline_day(campaign: Campaign, due: datetime) -> datetime:
    """`due`, or, if it falls on a day of the week the campaign keeps free of deadlines
    (`Campaign.deadline_days`, in its time zone), the same time of day on the next day that
    it allows. Every deadline the campaign sets goes through here."""
    days = set(campaign.deadline_days) & set(every_day())
    if not days or days == set(every_day()):
        return due
    zone = ZoneInfo(checked_zone(campaign.time_zone))
    wall = due.astimezone(zone).replace(tzinfo=None)
    shift = 0
    while (wall + timedelta(days=shift)).weekday() not in days:
        shift += 1
    if not shift:
        return due
    return (wall + timedelta(days=shift)).replace(tzinfo=zone).astimezone(UTC)


def campaigns_due(now: Any = None) -> list[tuple[int, int]]:
    """(campaign id, snapshot number) of every running campaign whose deadline has passed."""
    now = now or timezone.now()
    due = Campaign.objects.filter(status=Campaign.Status.RUNNING, deadline__lte=now)
    return [(campaign.pk, latest_snapshot(campaign).number) for campaign in due]
