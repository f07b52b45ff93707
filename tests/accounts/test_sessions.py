"""Sessions read from Redis, kept in the database (accounts.sessions): a signed-in request
reads no session row; Redis emptied signs nobody out; a sign-out is never undone by the
cache; and with the cache away, pages still open and sign-in still works, while a sign-out
or a change to a session is refused with a 503 and leaves the session as it was."""

import socket
import time

import pytest
from django.contrib.sessions.models import Session
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.sessions import SIGNED_OUT, SessionStore

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-test-password"
# A Redis at an address where nothing listens: every call is refused at once.
AWAY = {
    "BACKEND": "config.cache.RedisCache",
    "LOCATION": "redis://127.0.0.1:9/0",
    "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
}


@pytest.fixture
def sessions_in_redis(settings, redis_url):
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": redis_url,
        },
        "away": AWAY,
    }
    settings.SESSION_ENGINE = "accounts.sessions"
    return settings


@pytest.fixture
def alice() -> User:
    return User.objects.create_user("alice", email="alice@example.org", password=PASSWORD)


def signed_in(user: User) -> Client:
    client = Client()
    response = client.post("/accounts/sign-in/", {"username": user.username, "password": PASSWORD})
    assert response.status_code == 302, response.content
    return client


def session_queries(client: Client, path: str = "/") -> tuple[int, int]:
    """The page's status and how many of its queries read the session table."""
    with CaptureQueriesContext(connection) as queries:
        status = client.get(path).status_code
    return status, sum("django_session" in q["sql"] for q in queries.captured_queries)


def key_of(client: Client) -> str:
    return client.cookies["sessionid"].value


def test_a_signed_in_page_reads_its_session_from_redis_not_the_database(sessions_in_redis, alice):
    player = signed_in(alice)
    assert session_queries(player) == (200, 0)
    assert Session.objects.filter(session_key=key_of(player)).exists()  # the record


def test_redis_emptied_signs_nobody_out_and_takes_the_session_back(sessions_in_redis, alice):
    player = signed_in(alice)
    caches["default"].clear()
    assert session_queries(player) == (200, 1)  # from the database, put back in Redis
    assert session_queries(player) == (200, 0)
    assert "alice" in player.get("/").text


def test_a_signed_out_session_stays_out_even_if_a_late_read_puts_it_back(sessions_in_redis, alice):
    """A request that read the session from the database just before the sign-out puts
    what it read back in the cache afterwards: the sign-out's mark keeps it out."""
    player = signed_in(alice)
    key = key_of(player)
    stale = SessionStore(key).load()  # read before the sign-out...
    caches["default"].clear()
    assert player.post("/accounts/sign-out/").status_code == 302
    assert caches["default"].get(SessionStore.cache_key_prefix + key) == SIGNED_OUT
    assert caches["default"].add(SessionStore.cache_key_prefix + key, stale) is False  # ...late
    thief = Client()
    thief.cookies["sessionid"] = key
    assert thief.get("/c/new/").status_code == 302  # to the sign-in page
    assert not Session.objects.filter(session_key=key).exists()


def test_with_redis_away_pages_open_and_sign_in_works(sessions_in_redis, alice):
    player = signed_in(alice)
    sessions_in_redis.SESSION_CACHE_ALIAS = "away"
    assert session_queries(player) == (200, 1)
    assert "alice" in player.get("/").text
    newcomer = signed_in(alice)
    assert "alice" in newcomer.get("/").text


def test_with_redis_hanging_only_one_request_waits_for_it(sessions_in_redis, alice):
    """A cache that accepts connections and never answers: the first read waits for its
    timeout (a second), then the process leaves it alone for a while."""
    player = signed_in(alice)
    with socket.socket() as hanging:
        hanging.bind(("127.0.0.1", 0))
        hanging.listen(8)
        location = f"redis://127.0.0.1:{hanging.getsockname()[1]}/0"
        sessions_in_redis.CACHES = {
            **sessions_in_redis.CACHES,
            "hanging": {**AWAY, "LOCATION": location},
        }
        sessions_in_redis.SESSION_CACHE_ALIAS = "hanging"
        took = []
        for _ in range(3):
            began = time.monotonic()
            assert "alice" in player.get("/").text
            took.append(time.monotonic() - began)
    assert took[0] >= 1
    assert max(took[1:]) < 0.5, took


def test_with_redis_away_a_visitor_who_has_a_session_signs_in(sessions_in_redis, alice):
    """Signing in gives the session a new key and drops the old one, the cache away or not:
    what the cache held under the old key was signed out."""
    visitor = Client()
    visitor.session.save()  # a visitor's session from before they sign in
    old = key_of(visitor)
    sessions_in_redis.SESSION_CACHE_ALIAS = "away"
    response = visitor.post("/accounts/sign-in/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert key_of(visitor) != old
    assert not Session.objects.filter(session_key=old).exists()
    assert "alice" in visitor.get("/").text


def test_with_redis_away_a_sign_out_is_refused_with_a_503_and_undone_by_nothing(
    sessions_in_redis, alice
):
    player = signed_in(alice)
    player.raise_request_exception = False
    sessions_in_redis.SESSION_CACHE_ALIAS = "away"
    refused = player.post("/accounts/sign-out/")
    assert refused.status_code == 503
    assert "The store of who is signed in is not answering" in refused.text
    assert refused["Retry-After"] == "60"
    # Nothing was deleted: still signed in, in the database and in Redis once it is back.
    assert Session.objects.filter(session_key=key_of(player)).exists()
    sessions_in_redis.SESSION_CACHE_ALIAS = "default"
    assert session_queries(player) == (200, 0)
    assert player.post("/accounts/sign-out/").status_code == 302
    assert player.get("/c/new/").status_code == 302


def test_with_redis_away_a_change_to_a_session_is_refused_and_the_old_one_kept(
    sessions_in_redis, alice
):
    player = signed_in(alice)
    key = key_of(player)
    sessions_in_redis.SESSION_CACHE_ALIAS = "away"
    store = SessionStore(key)
    store["draft"] = "a plan"
    with pytest.raises(Exception, match="The session store did not answer"):
        store.save()
    assert "draft" not in SessionStore(key).load()  # the database holds the session as it was
    sessions_in_redis.SESSION_CACHE_ALIAS = "default"
    assert "draft" not in SessionStore(key).load()  # and so does Redis
