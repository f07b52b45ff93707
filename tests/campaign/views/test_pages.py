import re

import pytest
from django.db import DatabaseError
from django.urls import reverse

from accounts.models import User
from config.celery import app as celery_app


def test_the_home_page_names_the_game(client):
    response = client.get(reverse("campaign:home"))
    assert response.status_code == 200
    assert "Mighty Kingdoms" in response.text


def test_htmx_is_served_from_the_package_not_a_cdn(client):
    page = client.get(reverse("campaign:home")).text
    assert '<script src="/static/django_htmx/htmx-2.min.js"' in page
    assert "unpkg" not in page
    assert "cdn" not in page.lower()
    script = client.get("/static/django_htmx/htmx-2.min.js")
    assert script.status_code == 200


def test_htmx_requests_carry_the_csrf_token(client):
    page = client.get(reverse("campaign:home")).text
    header = re.search(r"<body hx-headers='\{\"X-CSRFToken\": \"([A-Za-z0-9]+)\"\}'>", page)
    assert header is not None
    assert len(header.group(1)) == 64  # a masked CSRF token


def test_the_stylesheet_is_served(client):
    response = client.get("/static/css/site.css")
    assert response.status_code == 200


@pytest.mark.django_db
def test_healthz_is_ok_when_the_database_and_broker_answer(client):
    response = client.get(reverse("campaign:healthz"))
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"] == "ok"
    assert body["broker"] == "ok"
    assert body["broker_transport"] in {"redis", "filesystem"}


@pytest.mark.django_db
def test_healthz_tells_a_visitor_from_elsewhere_the_status_alone(client, settings):
    """Issue 26, point 10: the broker's kind and the worker's last check-in are for the
    machine itself (and the site's staff), also behind nginx (one trusted proxy)."""
    far = client.get(reverse("campaign:healthz"), REMOTE_ADDR="203.0.113.7")
    assert (far.status_code, far.json()) == (200, {"status": "ok"})
    settings.TRUSTED_PROXY_COUNT = 1
    proxied = client.get(
        reverse("campaign:healthz"), REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.7"
    )
    assert proxied.json() == {"status": "ok"}
    local = client.get(
        reverse("campaign:healthz"), REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="127.0.0.1"
    )
    assert local.json()["broker"] == "ok"
    staff = User.objects.create_user("keeper", password="a-long-test-password", is_staff=True)
    client.force_login(staff)
    assert (
        "worker_last_seen"
        in client.get(reverse("campaign:healthz"), REMOTE_ADDR="203.0.113.7").json()
    )


@pytest.mark.django_db
def test_healthz_is_503_when_the_database_does_not_answer(client, monkeypatch):
    def broken_cursor(*args, **kwargs):
        raise DatabaseError("connection refused")

    monkeypatch.setattr("campaign.views.health.connection.cursor", broken_cursor)
    response = client.get(reverse("campaign:healthz"))
    assert response.status_code == 503
    assert response.json()["database"] == "unavailable"
    assert "connection refused" not in response.text  # details go to the log only


@pytest.mark.django_db
def test_healthz_is_503_when_the_broker_does_not_answer(client, monkeypatch):
    # Nothing listens on port 1: a Redis broker there never answers.
    connect = celery_app.connection_for_write
    monkeypatch.setattr(
        celery_app, "connection_for_write", lambda: connect("redis://127.0.0.1:1/0")
    )
    response = client.get(reverse("campaign:healthz"))
    assert response.status_code == 503
    assert response.json()["broker"] == "unavailable"
    assert response.json()["database"] == "ok"


@pytest.mark.django_db
def test_healthz_answers_plain_http_even_with_ssl_redirect(client, settings):
    settings.SECURE_SSL_REDIRECT = True
    assert client.get(reverse("campaign:healthz")).status_code == 200
    assert client.get(reverse("campaign:home")).status_code == 301
