from django.db import models


class WorkerHeartbeat(models.Model):
    """When each Celery worker last ran the beat's heartbeat task: proof the
    background half of the app is alive, shown on /healthz."""

    worker = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker} at {self.seen_at:%Y-%m-%d %H:%M:%S}"
