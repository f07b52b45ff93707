"""Celery tasks of the campaign (the notifications' are `notifications.tasks`): each takes
ids, calls one service, and is safe to run twice. Transient database errors are retried;
anything else raises, so it is seen in the worker's log."""

from datetime import timedelta
from typing import Any

from celery import Task, shared_task
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from campaign.models import WorkerHeartbeat
from campaign.services import advancing


@shared_task(bind=True)
def record_heartbeat(self: Task[[], str]) -> str:
    """Record that this worker is alive (run by the beat every minute)."""
    worker = self.request.hostname or "unknown"
    WorkerHeartbeat.objects.update_or_create(worker=worker, defaults={"seen_at": timezone.now()})
    return worker


# Nobody reads an advance's result: ignoring it keeps the web process that queues it off
# the result backend (which, with Redis away, retries for many seconds).
@shared_task(
    autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5, ignore_result=True
)
def advance_campaign(campaign_id: int, snapshot_number: int, defaults: bool = False) -> int | None:
    """Advance a campaign from the given snapshot; nothing if it has moved on."""
    snapshot = advancing.campaign_advance(
        campaign_id=campaign_id, snapshot_number=snapshot_number, defaults=defaults
    )
    return None if snapshot is None else snapshot.number


@shared_task
def advance_due_campaigns(queue: str | None = None) -> int:
    """Run by the beat each minute: every campaign whose deadline passed advances with the
    rulings' defaults for whoever is not ready. The advances go to `queue` if given (a
    worker that serves one queue only), else where the task routes send them."""
    due = advancing.campaigns_due()
    routing: dict[str, Any] = {"queue": queue} if queue else {}
    for campaign_id, number in due:
        advance_campaign.apply_async((campaign_id, number), {"defaults": True}, **routing)
    return len(due)


@shared_task
def advance_ready_campaigns(
    older_than_seconds: float | None = None, queue: str | None = None
) -> int:
    """Run by the beat each minute: every running campaign in which every kingdom has been
    ready for `older_than_seconds` (settings.SWEEP_AFTER_SECONDS, a minute) without an advance (the broker was away when the last one marked
    ready, or the worker running the advance died) is queued again, to `queue` as for
    `advance_due_campaigns`. An advance queued twice lands once: the second finds the
    campaign moved on."""
    older_than = settings.SWEEP_AFTER_SECONDS if older_than_seconds is None else older_than_seconds
    lost = advancing.campaigns_ready_not_advanced(timedelta(seconds=older_than))
    routing: dict[str, Any] = {"queue": queue} if queue else {}
    for campaign_id, number in lost:
        advance_campaign.apply_async((campaign_id, number), **routing)
    return len(lost)
