"""Logs for an operator: plain lines by default; with LOG_FORMAT=json every line is one JSON
object (time, level, logger, message, and the request's method, path and status where
Django gives them). An error tracker only when SENTRY_DSN is set."""

import json
import logging
import os
import subprocess
import sys
import time
from datetime import datetime

from django.test import RequestFactory

from config.logs import JsonLogFormatter
from tests.conftest import BASE_DIR
from tests.test_settings import run_manage

LOG_A_LINE = (
    "import logging; logging.getLogger('campaign.services').warning('Advanced %s', 'autumn')"
)


def test_a_record_becomes_one_json_line():
    record = logging.LogRecord(
        "campaign.services", logging.WARNING, __file__, 1, "Advanced %s to %s", ("a", "b"), None
    )
    line = JsonLogFormatter().format(record)
    assert "\n" not in line
    entry = json.loads(line)
    assert entry["level"] == "WARNING"
    assert entry["logger"] == "campaign.services"
    assert entry["message"] == "Advanced a to b"
    assert abs(datetime.fromisoformat(entry["time"]).timestamp() - record.created) < 0.001


def test_a_request_record_has_the_method_path_and_status():
    request = RequestFactory().post("/c/autumn-league/orders/")
    record = logging.LogRecord(
        "django.request", logging.WARNING, __file__, 1, "Forbidden: %s", (request.path,), None
    )
    record.request = request
    record.status_code = 403
    entry = json.loads(JsonLogFormatter().format(record))
    assert entry["method"] == "POST"
    assert entry["path"] == "/c/autumn-league/orders/"
    assert entry["status"] == 403
    assert entry["message"] == "Forbidden: /c/autumn-league/orders/"


def test_an_error_keeps_its_traceback_inside_the_one_line():
    try:
        _ = 1 / 0
    except ZeroDivisionError:
        record = logging.LogRecord(
            "campaign.tasks", logging.ERROR, __file__, 1, "Advance failed", (), sys.exc_info()
        )
    line = JsonLogFormatter().format(record)
    assert "\n" not in line
    assert "ZeroDivisionError" in json.loads(line)["exc_info"]


def test_with_log_format_json_the_apps_logs_are_json_lines():
    result = run_manage("shell", "--no-imports", "-c", LOG_A_LINE, DEBUG="1", LOG_FORMAT="json")
    assert result.returncode == 0, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert [json.loads(line)["message"] for line in lines] == ["Advanced autumn"]


def test_by_default_the_logs_are_plain_text():
    result = run_manage("shell", "--no-imports", "-c", LOG_A_LINE, DEBUG="1", LOG_FORMAT="")
    assert result.returncode == 0, result.stderr
    assert result.stderr.strip() == "Advanced autumn"


def test_an_unknown_log_format_is_refused_with_its_name():
    result = run_manage("check", DEBUG="1", LOG_FORMAT="xml")
    assert result.returncode != 0
    assert "LOG_FORMAT must be text or json" in result.stderr


TRACKER = (
    "import sys, sentry_sdk; print(sentry_sdk.get_client().is_active(), "
    "sorted(sentry_sdk.get_client().integrations))"
)
NO_TRACKER = "import sys; print('sentry_sdk' in sys.modules)"


def test_with_sentry_dsn_set_the_error_tracker_watches_django_and_celery():
    result = run_manage(
        "shell", "--no-imports", "-c", TRACKER,
        DEBUG="1", SENTRY_DSN="https://public@errors.example.invalid/1",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    active, integrations = result.stdout.strip().split(" ", 1)
    assert active == "True"
    assert "'celery'" in integrations
    assert "'django'" in integrations


def test_without_sentry_dsn_nothing_of_it_is_even_imported():
    result = run_manage("shell", "--no-imports", "-c", NO_TRACKER, DEBUG="1", SENTRY_DSN="")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_a_bad_sentry_dsn_is_refused_with_its_name():
    result = run_manage("check", DEBUG="1", SENTRY_DSN="not-a-dsn")
    assert result.returncode != 0
    assert "SENTRY_DSN is not a Sentry DSN" in result.stderr


def test_with_log_format_json_the_celery_workers_logs_are_json_lines(tmp_path):
    log = tmp_path / "worker.log"
    env = {
        **os.environ,
        "DEBUG": "1",
        "LOG_FORMAT": "json",
        "REDIS_URL": "",
        "VAR_DIR": str(tmp_path),
    }
    with log.open("w") as out:
        worker = subprocess.Popen(
            [sys.executable, "-m", "celery", "--app", "config", "--quiet", "worker",
             "--pool", "solo", "--loglevel", "INFO", "--queues", f"logs-{os.getpid()}"],
            cwd=BASE_DIR, env=env, stdout=out, stderr=subprocess.STDOUT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while "ready." not in log.read_text() and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            worker.terminate()
            worker.wait(timeout=60)
    # Before it stops, the worker says so with a print of its own, not a log record.
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    lines = [line for line in lines if not line.startswith("worker: Warm shutdown")]
    entries = [json.loads(line) for line in lines]
    assert any(entry["message"].endswith(" ready.") for entry in entries), lines
    assert {entry["level"] for entry in entries} <= {"INFO", "WARNING"}
