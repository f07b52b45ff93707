"""`/healthz`: whether the database and the broker answer, and when a worker last checked in.
The details (each part, the broker's kind, the worker's last check-in) are for the machine
itself (a monitor on loopback) and the site's staff; anyone else reads the status alone."""

import ipaddress
import logging

from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.urls import URLPattern, path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from campaign.models import WorkerHeartbeat
from config.celery import app as celery_app
from config.ratelimit import client_address

logger = logging.getLogger(__name__)


def _database_answers() -> str | None:
    """None if the database answers, else a word for the JSON (details go to the log)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("healthz: the database does not answer")
        return "unavailable"
    return None


def _broker_answers() -> str | None:
    """None if the Celery broker (Redis, or the broker folder) answers, else a word for the JSON."""
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
    except Exception:  # kombu raises the transport's own errors
        logger.exception("healthz: the broker does not answer")
        return "unavailable"
    return None


def _last_heartbeat() -> str | None:
    try:
        latest = WorkerHeartbeat.objects.order_by("-seen_at").first()
    except DatabaseError:
        return None
    return latest.seen_at.isoformat() if latest else None


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker answer, 503 otherwise."""
    problems = {"database": _database_answers(), "broker": _broker_answers()}
    healthy = not any(problems.values())
    body: dict[str, str | None] = {"status": "ok" if healthy else "unavailable"}
    if _may_read_details(request):
        body |= {
            **{part: problem or "ok" for part, problem in problems.items()},
            "broker_transport": celery_app.conf.broker_url.split("://", 1)[0],
            "worker_last_seen": _last_heartbeat() if problems["database"] is None else None,
        }
    return JsonResponse(body, status=200 if healthy else 503)


def _may_read_details(request: HttpRequest) -> bool:
    """The machine itself (the visitor's address is loopback, behind the trusted proxies)
    or the site's staff."""
    if getattr(request.user, "is_staff", False):
        return True
    try:
        return ipaddress.ip_address(client_address(request)).is_loopback
    except ValueError:
        return False


urlpatterns: list[URLPattern] = [path("healthz", healthz, name="healthz")]
