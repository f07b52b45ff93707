"""The real parts answer: PostgreSQL, Redis, and a Celery worker on both."""

import os
import socket
import subprocess
import sys
import uuid
from urllib.parse import quote

import pytest
from django.core.cache import cache
from django.db import connection

from campaign.models import WorkerHeartbeat
from campaign.tasks import record_heartbeat
from tests.conftest import BASE_DIR

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


def _database_url_of_test_database() -> str:
    db = connection.settings_dict
    user = quote(db["USER"] or "", safe="")
    password = quote(db["PASSWORD"] or "", safe="")
    credentials = f"{user}:{password}@" if password else f"{user}@"
    return f"postgres://{credentials}{db['HOST'] or 'localhost'}:{db['PORT'] or 5432}/{db['NAME']}"


@pytest.mark.django_db(transaction=True)
def test_a_celery_worker_on_redis_writes_to_postgresql(postgres, redis_url, tmp_path):
    """A worker process on the real Redis broker runs a task that writes a row to
    the real PostgreSQL test database, and this test reads the row back."""
    queue = f"test-{uuid.uuid4().hex[:12]}"
    log = tmp_path / "worker.log"
    env = {**os.environ, "DATABASE_URL": _database_url_of_test_database(), "REDIS_URL": redis_url}
    with log.open("w") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo",
             f"--queues={queue}", f"--hostname={queue}@%h", "--loglevel=INFO"],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            result = record_heartbeat.apply_async(queue=queue)
            worker_name = result.get(timeout=60)
        finally:
            worker.terminate()
            worker.wait(timeout=30)

    assert worker_name == f"{queue}@{socket.gethostname()}", log.read_text()
    heartbeat = WorkerHeartbeat.objects.get(worker=worker_name)
    assert heartbeat.seen_at is not None
