"""Shared fixtures. Tests that need a real server ask for it through a fixture
here: without the server they skip on a developer's machine, and fail when CI is
set, because CI provides PostgreSQL, Redis and Chromium and a skip there would hide
a broken setup."""

import os
from pathlib import Path

import pytest
import redis
from django.conf import settings

BASE_DIR = Path(__file__).resolve().parent.parent
IN_CI = os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def service_missing(service: str, why: str) -> None:
    if IN_CI:
        pytest.fail(f"{service} is needed, and CI must provide it, but {why}.")
    pytest.skip(f"{service} is not available here: {why}.")


@pytest.fixture
def postgres() -> None:
    """The test database is PostgreSQL (DATABASE_URL=postgres://...)."""
    engine = settings.DATABASES["default"]["ENGINE"]
    if engine != "django.db.backends.postgresql":
        service_missing("PostgreSQL", f"DATABASE_URL points to {engine}")


@pytest.fixture
def redis_url() -> str:
    """REDIS_URL is set and Redis answers a PING."""
    url: str = settings.REDIS_URL
    if not url:
        service_missing("Redis", "REDIS_URL is not set")
    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        service_missing("Redis", f"it does not answer at REDIS_URL ({error})")
    return url


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    """Tests create many users; the production hasher is slow on purpose."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
