from celery import Task, shared_task
from django.utils import timezone

from campaign.models import WorkerHeartbeat


@shared_task(bind=True)
def record_heartbeat(self: Task[[], str]) -> str:
    """Record that this worker is alive (run by the beat every minute)."""
    worker = self.request.hostname or "unknown"
    WorkerHeartbeat.objects.update_or_create(worker=worker, defaults={"seen_at": timezone.now()})
    return worker
