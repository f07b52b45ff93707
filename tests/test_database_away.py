"""While the database does not answer (PostgreSQL restarting), a request gets a 503 that
says so and when to try again, never a traceback; a fault in the code is still a 500. A kept
connection the server ended is found dead before a request uses it, without asking the
server of a live one, and it plans the queries it runs often once, not on every request."""

import time
from importlib import import_module

import psycopg
import pytest
from django.conf import settings
from django.contrib.sessions.backends.base import SessionBase
from django.db import OperationalError, connection
from django.test import Client

from accounts.models import User
from tests.conftest import database_url_for_tests

pytestmark = pytest.mark.django_db


def session_store() -> type[SessionBase]:
    """The session store the settings name (in the database, or read from Redis)."""
    store: type[SessionBase] = import_module(settings.SESSION_ENGINE).SessionStore
    return store


@pytest.fixture
def player() -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(User.objects.create_user("alice", password="a-long-test-password"))
    return client


def test_a_request_while_the_database_is_away_gets_a_503_in_words(player, monkeypatch):
    def away(self: SessionBase) -> dict[str, object]:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(session_store(), "load", away)
    response = player.get("/")
    assert response.status_code == 503
    assert response["Retry-After"] == "60"
    assert "Back in a minute" in response.text
    assert "Nothing you saved before is lost." in response.text
    assert "Traceback" not in response.text


def test_a_fault_in_the_code_is_still_a_500(player, monkeypatch):
    def broken(self: SessionBase) -> dict[str, object]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(session_store(), "load", broken)
    response = player.get("/")
    assert response.status_code == 500
    assert "Back in a minute" not in response.text


# --- kept connections (config/postgresql) ---------------------------------------------------


def _backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


@pytest.mark.django_db(transaction=True)
def test_a_kept_connection_the_server_ended_is_found_dead_and_replaced(postgres):
    pid = _backend_pid()
    with psycopg.connect(database_url_for_tests(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    deadline = time.monotonic() + 5
    while connection.is_usable() and time.monotonic() < deadline:
        time.sleep(0.05)  # the server's goodbye is on its way
    assert not connection.is_usable()

    connection.close()  # what Django's health check does with a dead one as a request starts
    assert _backend_pid() != pid
    assert User.objects.count() == 0  # the new connection works


@pytest.mark.django_db(transaction=True)
def test_a_live_kept_connection_is_checked_without_asking_the_server(postgres, monkeypatch):
    pid = _backend_pid()

    def no_round_trip(*args: object, **kwargs: object) -> None:
        raise AssertionError("the health check asked the server")

    monkeypatch.setattr(psycopg.Connection, "cursor", no_round_trip)
    monkeypatch.setattr(psycopg.Connection, "execute", no_round_trip)
    assert connection.is_usable()
    monkeypatch.undo()
    assert _backend_pid() == pid  # the same connection, kept


@pytest.mark.django_db(transaction=True)
def test_a_kept_connection_plans_a_query_it_runs_often_once(postgres):
    for _ in range(6):  # a player's polls, each asking who they are
        User.objects.filter(username="alice").first()
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any('FROM "accounts_user"' in statement for statement in prepared), prepared
