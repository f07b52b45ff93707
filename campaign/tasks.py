"""Celery tasks: each takes ids, calls one service, and is safe to run twice. Transient
database errors are retried; anything else raises, so it is seen in the worker's log."""

from datetime import timedelta

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
def advance_due_campaigns() -> int:
    """Run by the beat each minute: every campaign whose deadline passed advances with the
    rulings' defaults for whoever is not ready."""
    due = services.campaigns_due()
    for campaign_id, number in due:
        advance_campaign.delay(campaign_id, number, defaults=True)
    return len(due)


@shared_task
def queue_reminders() -> int:
    """Run by the beat each minute: record a reminder for every kingdom that still owes a
    decision a day before its deadline (sending them arrives with notifications)."""
    soon = timezone.now() + REMIND_BEFORE
    created = 0
    for campaign in Campaign.objects.filter(status=Campaign.Status.RUNNING, deadline__lte=soon):
        snapshot = services.latest_snapshot(campaign)
        ready = services.ready_kingdoms(campaign)
        for kingdom in services.owing(snapshot.data) - ready:
            _, made = Reminder.objects.get_or_create(
                campaign=campaign, kingdom=kingdom, snapshot=snapshot.number,
                defaults={"deadline": campaign.deadline or soon},
            )  # fmt: skip
            created += made
    return created
