"""Celery tasks: each takes ids, calls one service, and is safe to run twice. Transient
database errors are retried; anything else raises, so it is seen in the worker's log."""

from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from django.db import OperationalError
from django.utils import timezone

from campaign import services
from campaign.models import Campaign, Reminder, WorkerHeartbeat

REMIND_BEFORE = timedelta(hours=24)


@shared_task(bind=True)
def record_heartbeat(self: Task[[], str]) -> str:
    """Record that this worker is alive (run by the beat every minute)."""
    worker = self.request.hostname or "unknown"
    WorkerHeartbeat.objects.update_or_create(worker=worker, defaults={"seen_at": timezone.now()})
    return worker


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def advance_campaign(campaign_id: int, snapshot_number: int, defaults: bool = False) -> int | None:
    """Advance a campaign from the given snapshot; nothing if it has moved on."""
    snapshot = services.campaign_advance(
        campaign_id=campaign_id, snapshot_number=snapshot_number, defaults=defaults
    )
    return None if snapshot is None else snapshot.number


@shared_task
def advance_due_campaigns(queue: str | None = None) -> int:
    """Run by the beat each minute: every campaign whose deadline passed advances with the
    rulings' defaults for whoever is not ready. The advances go to `queue` if given (a
    worker that serves one queue only), else where the task routes send them."""
    due = services.campaigns_due()
    routing: dict[str, Any] = {"queue": queue} if queue else {}
    for campaign_id, number in due:
        advance_campaign.apply_async((campaign_id, number), {"defaults": True}, **routing)
    return len(due)


@shared_task
def queue_reminders() -> int:
    """Run by the beat each minute: record a reminder for every kingdom that still owes a
    decision a day before its deadline (sending them arrives with notifications). Once the
    deadline has passed the defaults apply instead: no reminder then."""
    now = timezone.now()
    soon = now + REMIND_BEFORE
    created = 0
    running = Campaign.objects.filter(status=Campaign.Status.RUNNING)
    for campaign in running.filter(deadline__gt=now, deadline__lte=soon):
        snapshot = services.latest_snapshot(campaign)
        ready = services.ready_kingdoms(campaign)
        for kingdom in services.owing(snapshot.data) - ready:
            _, made = Reminder.objects.get_or_create(
                campaign=campaign, kingdom=kingdom, snapshot=snapshot.number,
                defaults={"deadline": campaign.deadline or soon},
            )  # fmt: skip
            created += made
    return created
