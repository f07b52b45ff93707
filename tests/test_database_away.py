"""While the database does not answer (PostgreSQL restarting), a request gets a 503 that
says so and when to try again, never a traceback; a fault in the code is still a 500."""

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import OperationalError
from django.test import Client

from accounts.models import User

pytestmark = pytest.mark.django_db


@pytest.fixture
def player() -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.create_user("alice", password="a-long-test-password"))
    return client


def test_a_request_while_the_database_is_away_gets_a_503_in_words(player, monkeypatch):
    def away(self: SessionStore) -> dict[str, object]:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(SessionStore, "load", away)
    response = player.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    assert "Back in a minute" in response.text
    assert "Nothing you saved before is lost." in response.text
    assert "Traceback" not in response.text


def test_a_fault_in_the_code_is_still_a_500(player, monkeypatch):
    def broken(self: SessionStore) -> dict[str, object]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(SessionStore, "load", broken)
    response = player.get("/")
    assert response.status_code == 500
    assert "Back in a minute" not in response.text
