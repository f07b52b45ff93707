"""The real parts answer: PostgreSQL, Redis, and a Celery worker on both."""

import socket
import threading
import uuid

import pytest
import redis
from django.core.cache import cache, caches
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
    assert settings.CACHES["default"]["BACKEND"] == "config.cache.RedisCache"
    key = f"probe-{uuid.uuid4().hex}"
    cache.set(key, {"might": 42}, timeout=30)
    assert cache.get(key) == {"might": 42}
    cache.delete(key)


def test_the_cache_builds_its_redis_client_once(redis_url, monkeypatch):
    """Django's Redis cache builds a client on every call; the app's keeps the one."""
    built: list[int] = []
    build = redis.Redis.__init__

    def counted(self: redis.Redis, *args: object, **kwargs: object) -> None:
        built.append(1)
        build(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(redis.Redis, "__init__", counted)
    kept = caches.create_connection("default")
    key = f"probe-{uuid.uuid4().hex}"
    kept.set(key, 1, timeout=30)

    read: list[object] = []  # what each thread read: an assert in a thread fails no test

    def reader() -> None:
        read.extend(kept.get(key) for _ in range(5))

    readers = [threading.Thread(target=reader) for _ in range(4)]
    for thread in readers:
        thread.start()
    for thread in readers:
        thread.join()
    kept.delete(key)
    assert read == [1] * 20
    assert built == [1]


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
