"""The real parts answer: PostgreSQL, Redis, and a Celery worker on both."""

import socket
import uuid

import pytest
from django.core.cache import cache
from django.db import connection

from campaign.models import WorkerHeartbeat
from campaign.tasks import record_heartbeat
from tests.conftest import celery_worker

pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_the_database_is_postgresql(postgres):
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        (version,) = cursor.fetchone()
    assert int(version.split(".")[0]) >= 15


def test_the_cache_is_redis(redis_url, settings):
    assert settings.CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache"
    key = f"probe-{uuid.uuid4().hex}"
    cache.set(key, {"might": 42}, timeout=30)
    assert cache.get(key) == {"might": 42}
    cache.delete(key)


@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_on_redis_writes_to_postgresql(postgres, redis_url, tmp_path):
    """A worker process on the real Redis broker runs a task that writes a row to
    the real PostgreSQL test database, and this test reads the row back."""
    with celery_worker(redis_url, tmp_path / "worker.log") as worker:
        result = record_heartbeat.apply_async(queue=worker.queue)
        worker_name = result.get(timeout=60)

    assert worker_name == f"{worker.queue}@{socket.gethostname()}", worker.log.read_text()
    heartbeat = WorkerHeartbeat.objects.get(worker=worker_name)
    assert heartbeat.seen_at is not None
