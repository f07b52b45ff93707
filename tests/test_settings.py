"""Settings come from the environment; production settings are safe by default."""

import gzip
import os
import re
import subprocess
import sys
from urllib.parse import urlsplit

import brotli  # type: ignore[import-untyped]
import pytest
from backports import zstd
from django.conf import settings

from tests.conftest import BASE_DIR

PRODUCTION_KEY = "k" * 20 + "-a-long-random-production-secret-" + "x" * 20


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR, env={**clean, **env}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def django_setting(name: str, **env: str) -> str:
    (value,) = django_settings(name, **env)
    return value


def django_settings(*names: str, **env: str) -> list[str]:
    """Each setting, as a process started with this environment reads it: one process for
    them all (each starts Django from nothing, a second or so)."""
    printed = "; ".join(f"print(settings.{name})" for name in names)
    result = run_manage(
        "shell", "--no-imports", "-c", f"from django.conf import settings; {printed}", **env
    )
    assert result.returncode == 0, result.stderr
    values = [value.strip() for value in result.stdout.removesuffix("\n").split("\n")]
    assert len(values) == len(names), result.stdout
    return values


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = run_manage("check", DEBUG="0")
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_it_runs_with_a_development_key_when_debug_is_on():
    result = run_manage("check", DEBUG="1")
    assert result.returncode == 0, result.stderr


def test_production_settings_pass_djangos_deployment_check():
    result = run_manage(
        "check", "--deploy", "--fail-level", "WARNING",
        DEBUG="0", SECRET_KEY=PRODUCTION_KEY, ALLOWED_HOSTS="kingdoms.example.org",
        SECURE_SSL_REDIRECT="1", SECURE_HSTS_PRELOAD="1", EMAIL_HOST="smtp.example.org",
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_cookies_are_secure_and_hsts_is_on():
    env = {"DEBUG": "0", "SECRET_KEY": PRODUCTION_KEY, "SECURE_SSL_REDIRECT": ""}
    session, csrf, hsts, redirect = django_settings(
        "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SECURE_HSTS_SECONDS",
        "SECURE_SSL_REDIRECT", **env,
    )  # fmt: skip
    assert session == "True"
    assert csrf == "True"
    assert int(hsts) >= 31536000
    assert redirect == "True"


def test_the_default_database_is_a_sqlite_file(tmp_path):
    engine = django_setting(
        "DATABASES['default']['ENGINE']", DEBUG="1", DATABASE_URL="", VAR_DIR=str(tmp_path)
    )
    assert engine == "django.db.backends.sqlite3"


def test_without_redis_celery_uses_a_broker_that_needs_no_server(tmp_path):
    env = {"DEBUG": "1", "REDIS_URL": "", "VAR_DIR": str(tmp_path)}
    assert django_setting("CELERY_BROKER_URL", **env).startswith("filesystem://")


def test_database_url_selects_postgresql():
    engine = django_setting(
        "DATABASES['default']['ENGINE']", DEBUG="1", DATABASE_URL="postgres://u:p@db:5432/mk"
    )
    assert engine == "config.postgresql"  # Django's, its health check without a round trip


def test_a_bad_yes_no_value_is_refused_with_its_name():
    result = run_manage("check", DEBUG="perhaps")
    assert result.returncode != 0
    assert "DEBUG must be a yes/no value" in result.stderr


def test_the_migrations_match_the_models():
    result = run_manage("makemigrations", "--check", "--dry-run", DEBUG="1")
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_without_a_mail_server_fails_the_deployment_check():
    result = run_manage(
        "check", "--deploy", DEBUG="0", SECRET_KEY=PRODUCTION_KEY, ALLOWED_HOSTS="example.org"
    )
    assert result.returncode != 0
    assert "mail.E001" in result.stdout + result.stderr


def test_email_settings_configure_the_smtp_mailer():
    env = {"DEBUG": "1", "EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "2525"}
    assert django_setting("MAILERS['default']['OPTIONS']['port']", **env) == "2525"


def test_the_wsgi_app_refuses_to_start_without_a_secret_key():
    clean = {k: v for k, v in os.environ.items() if k not in {"SECRET_KEY", "DEBUG"}}
    result = subprocess.run(
        [sys.executable, "-c", "import config.wsgi"],
        cwd=BASE_DIR, env={**clean, "DEBUG": "0"}, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_make_run_gives_the_web_and_the_worker_the_address_it_serves():
    """The e-mails the worker writes link to where `make run` serves the app (its HOST and
    PORT, or SITE_URL), as the web's do: both processes start in the shell that sets it."""
    made = subprocess.run(
        ["make", "-n", "run", "HOST=127.0.0.1", "PORT=8123"],
        cwd=BASE_DIR, capture_output=True, text=True, check=True,
    )  # fmt: skip
    shell = made.stdout
    start = shell.index("SITE_URL=${SITE_URL:-http://127.0.0.1:8123}")
    assert start < shell.index("celery -A config worker") < shell.index("manage.py runserver")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accepted", "coding", "unpack"),
    [
        ("gzip, deflate, br, zstd", "zstd", zstd.decompress),  # Chromium, Firefox
        ("gzip, deflate, br", "br", brotli.decompress),
        ("gzip", "gzip", gzip.decompress),
    ],
)
def test_pages_are_sent_compressed_as_the_browser_takes_them(client, accepted, coding, unpack):
    """The campaign pages are over 100 KB of HTML (the map): sent compressed they are a
    fraction of it, Zstandard first (the quickest to make)."""
    plain = client.get("/rules/")
    packed = client.get("/rules/", headers={"Accept-Encoding": accepted})
    assert packed["Content-Encoding"] == coding
    assert "accept-encoding" in packed["Vary"].lower()
    assert len(packed.content) < len(plain.content) / 2
    assert unpack(packed.content).decode().startswith("<!doctype html>")


@pytest.mark.django_db
def test_every_page_names_the_favicon(client):
    page = client.get("/").text
    icon = re.search(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">', page)
    assert icon is not None
    assert client.get(icon.group(1)).status_code == 200


def test_poll_seconds_sets_how_often_a_waiting_page_polls():
    assert django_setting("POLL_SECONDS", DEBUG="1", POLL_SECONDS="") == "10"
    assert django_setting("POLL_SECONDS", DEBUG="1", POLL_SECONDS="3") == "3"


def test_a_test_worker_keeps_its_files_and_redis_data_apart():
    """pytest-xdist's worker gwN: var/tests/gwN/ and Redis database N + 1."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    assert worker == settings.TEST_WORKER
    if worker:
        assert settings.VAR_DIR.name == worker
        assert settings.CELERY_BROKER_DIR.parent.name == worker
        if settings.REDIS_URL:
            assert urlsplit(settings.REDIS_URL).path == f"/{int(worker[2:]) + 1}"
            assert settings.CELERY_BROKER_URL == settings.REDIS_URL


def test_a_process_a_test_worker_starts_keeps_the_environments_settings(tmp_path):
    """Not a test worker itself, it reads VAR_DIR and REDIS_URL as they are given."""
    env = {"DEBUG": "1", "PYTEST_XDIST_WORKER": "gw3", "VAR_DIR": str(tmp_path)}
    worker, var_dir = django_settings("TEST_WORKER", "VAR_DIR", **env)
    assert worker == ""
    assert var_dir == str(tmp_path)
    redis = {**env, "REDIS_URL": "redis://127.0.0.1:1/0"}
    assert django_setting("REDIS_URL", **redis) == "redis://127.0.0.1:1/0"


def test_photographs_are_kept_under_var_unless_a_bucket_is_set(tmp_path):
    backend = "STORAGES['default']['BACKEND']"
    assert django_setting(backend, DEBUG="1") == "django.core.files.storage.FileSystemStorage"
    var = str(tmp_path / "var")
    assert django_setting("MEDIA_ROOT", DEBUG="1", VAR_DIR=var) == f"{var}/media"
    assert django_setting(backend, DEBUG="1", S3_BUCKET="pictures") == (
        "storages.backends.s3.S3Storage"
    )


def test_a_bucket_without_django_storages_fails_the_check():
    result = run_manage("check", DEBUG="1", S3_BUCKET="pictures")
    assert result.returncode != 0
    assert "config.E002" in result.stderr
    assert "install django-storages[s3]" in result.stderr


def test_deployed_static_files_are_the_collected_ones_under_hashed_names():
    """With WHITENOISE_USE_FINDERS=0 (deploy/'s environment file) the files are served as
    collectstatic gathered them (tests/test_static_files.py); elsewhere, from their folders."""
    deployed = django_setting(
        "STORAGES['staticfiles']['BACKEND']",
        DEBUG="0", SECRET_KEY=PRODUCTION_KEY, WHITENOISE_USE_FINDERS="0",
    )  # fmt: skip
    assert deployed == "whitenoise.storage.CompressedManifestStaticFilesStorage"
    assert settings.STORAGES["staticfiles"]["BACKEND"] == (
        "whitenoise.storage.CompressedStaticFilesStorage"
    )
