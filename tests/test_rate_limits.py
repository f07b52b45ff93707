"""Posts have a rate limit: per signed-in player (never per address, so a club on one wifi
or the load test's 1,600 players are each counted alone), per address for anyone else
(sign-up, password reset, sign-in). Over it a post gets a 429 page in words and changes
nothing; the visitor's address is read through the trusted proxy, for django-axes too."""

import socket
import time
import types
import uuid

import pytest
from axes.models import AccessAttempt
from django.core import mail
from django.test import Client

from accounts.models import User
from campaign.models import Campaign
from tests.accounts.conftest import sign_in
from tests.campaign.helpers import make_cast
from tests.test_settings import django_setting, django_settings, run_manage

pytestmark = pytest.mark.django_db
NAME = "/accounts/settings/name/"
SIGN_UP = "/accounts/sign-up/"
RESET = "/accounts/password-reset/"


@pytest.fixture(autouse=True)
def limits(settings, monkeypatch):
    """Three posts a minute each, counted apart from any other test's (a fresh key prefix
    on the configured cache: Redis in CI), every post in one minute even when the clock's
    minute turns during the test."""
    now = time.time()
    monkeypatch.setattr("config.ratelimit.time", types.SimpleNamespace(time=lambda: now))
    caches = {name: dict(config) for name, config in settings.CACHES.items()}
    caches["default"]["KEY_PREFIX"] = uuid.uuid4().hex
    settings.CACHES = caches
    settings.POST_RATE_LIMIT = (3, 60)
    settings.ANONYMOUS_POST_RATE_LIMIT = (3, 60)
    settings.TRUSTED_PROXY_COUNT = 0


def display_name_of(user: User) -> str:
    user.refresh_from_db()
    return user.display_name


def signed_in(user: User, address: str = "198.51.100.7") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def test_a_player_under_the_limit_has_every_post_saved():
    alice = make_cast()["alice"]
    client = signed_in(alice)
    for name in ("Alice", "Alice of the Marches", "Queen Alice"):
        assert client.post(NAME, {"display_name": name}).status_code == 302
        assert display_name_of(alice) == name


def test_a_post_over_the_limit_gets_a_429_in_words_and_changes_nothing():
    alice = make_cast()["alice"]
    client = signed_in(alice)
    for name in ("One", "Two", "Three"):
        client.post(NAME, {"display_name": name})
    response = client.post(NAME, {"display_name": "Four"})
    assert response.status_code == 429
    assert "Too many at once" in response.text
    assert "more than 3 a minute sent from here, so it was not saved" in response.text
    assert response["Retry-After"] == "60"
    assert display_name_of(alice) == "Three"


def test_pages_still_open_over_the_limit():
    alice = make_cast()["alice"]
    client = signed_in(alice)
    for _ in range(4):
        client.post(NAME, {"display_name": "Alice"})
    assert client.get("/accounts/settings/").status_code == 200


def test_players_on_one_address_are_each_counted_alone():
    cast = make_cast()
    clients = {name: signed_in(cast[name], address="203.0.113.1") for name in ("alice", "bob")}
    for name, client in clients.items():
        for turn in range(3):
            assert client.post(NAME, {"display_name": f"{name} {turn}"}).status_code == 302
    assert display_name_of(cast["alice"]) == "alice 2"
    assert display_name_of(cast["bob"]) == "bob 2"


def test_sign_ups_from_one_address_past_the_limit_are_refused(client):
    for n in range(3):
        good = {
            "username": f"newcomer{n}",
            "email": f"newcomer{n}@example.org",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        }
        assert Client().post(SIGN_UP, good).status_code == 302
    response = Client().post(
        SIGN_UP,
        {
            "username": "newcomer9",
            "email": "newcomer9@example.org",
            "password1": "a-long-test-password",
            "password2": "a-long-test-password",
        },
    )
    assert response.status_code == 429
    assert "Too many at once" in response.text
    assert not User.objects.filter(username="newcomer9").exists()


def test_password_resets_from_one_address_past_the_limit_send_no_mail(eager):
    User.objects.create_user("alice", email="alice@example.org", password="x-long-password")
    for _ in range(3):
        Client().post(RESET, {"email": "alice@example.org"})
    assert len(mail.outbox) == 3
    response = Client().post(RESET, {"email": "alice@example.org"})
    assert response.status_code == 429
    assert len(mail.outbox) == 3


def test_a_limit_set_to_off_lets_every_post_through(settings):
    settings.POST_RATE_LIMIT = None
    alice = make_cast()["alice"]
    client = signed_in(alice)
    for n in range(10):
        assert client.post(NAME, {"display_name": f"Alice {n}"}).status_code == 302


def test_while_the_cache_does_not_answer_posts_are_saved(settings):
    """The counts' Redis is away (nothing listens at its address): posts go through."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        nobody = probe.getsockname()[1]
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{nobody}/0",
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
    alice = make_cast()["alice"]
    client = signed_in(alice)
    for n in range(5):
        assert client.post(NAME, {"display_name": f"Alice {n}"}).status_code == 302
    assert display_name_of(alice) == "Alice 4"


def test_behind_nginx_visitors_are_told_apart_by_the_address_it_forwards(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    nginx = "127.0.0.1"
    for _ in range(3):
        Client(REMOTE_ADDR=nginx, HTTP_X_FORWARDED_FOR="203.0.113.1").post(
            RESET, {"email": "x@example.org"}
        )
    over = Client(REMOTE_ADDR=nginx, HTTP_X_FORWARDED_FOR="203.0.113.1")
    assert over.post(RESET, {"email": "x@example.org"}).status_code == 429
    # A visitor cannot escape by writing an address of their own in front of theirs.
    spoofed = Client(REMOTE_ADDR=nginx, HTTP_X_FORWARDED_FOR="10.9.9.9, 203.0.113.1")
    assert spoofed.post(RESET, {"email": "x@example.org"}).status_code == 429
    other = Client(REMOTE_ADDR=nginx, HTTP_X_FORWARDED_FOR="203.0.113.2")
    assert other.post(RESET, {"email": "x@example.org"}).status_code == 302


def test_without_a_trusted_proxy_a_forwarded_address_is_not_believed():
    for n in range(3):
        Client(HTTP_X_FORWARDED_FOR=f"203.0.113.{n}").post(RESET, {"email": "x@example.org"})
    response = Client(HTTP_X_FORWARDED_FOR="203.0.113.99").post(RESET, {"email": "x@example.org"})
    assert response.status_code == 429


def test_django_axes_counts_sign_in_failures_by_the_forwarded_address(settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.ANONYMOUS_POST_RATE_LIMIT = None
    make_cast()
    client = Client(REMOTE_ADDR="127.0.0.1", HTTP_X_FORWARDED_FOR="203.0.113.5")
    sign_in(client, "alice", "wrong password")
    assert list(AccessAttempt.objects.values_list("ip_address", flat=True)) == ["203.0.113.5"]


def test_the_limits_are_read_from_the_environment():
    posts, anonymous, proxies = django_settings(
        "POST_RATE_LIMIT",
        "ANONYMOUS_POST_RATE_LIMIT",
        "TRUSTED_PROXY_COUNT",
        DEBUG="1",
        POST_RATE_LIMIT="120/m",
        ANONYMOUS_POST_RATE_LIMIT="off",
        TRUSTED_PROXY_COUNT="1",
    )  # one process: each setting reads its own variable alone
    assert posts == "(120, 60)"
    assert anonymous == "None"
    assert proxies == "1"


def test_the_default_limit_lets_a_quick_player_post_once_a_second():
    assert django_setting("POST_RATE_LIMIT", DEBUG="1", POST_RATE_LIMIT="") == "(60, 60)"


def test_a_bad_limit_is_refused_with_its_name():
    result = run_manage("check", DEBUG="1", POST_RATE_LIMIT="lots")
    assert result.returncode != 0
    assert "POST_RATE_LIMIT must be a number of posts per s, m, h or d" in result.stderr


def test_map_previews_past_their_limit_get_a_429_in_words(settings):
    """Issue 26, point 9: each preview generates and draws a map."""
    settings.PREVIEW_RATE_LIMIT = (2, 60)
    client = signed_in(make_cast()["alice"])
    preview = "/new/preview/?kingdoms=2&size=&seed=7"
    assert [client.get(preview).status_code for _ in range(2)] == [200, 200]
    refused = client.get(preview)
    assert refused.status_code == 429
    assert "more than 2 a minute map previews asked from here, so it was not drawn" in (
        refused.text
    )
    bob = signed_in(User.objects.get(username="bob"))
    assert bob.get(preview).status_code == 200  # counted by account


def test_an_account_makes_at_most_so_many_campaigns_a_day(settings):
    settings.POST_RATE_LIMIT = None
    settings.NEW_CAMPAIGN_RATE_LIMIT = (2, 86400)
    gm = make_cast()["gm"]
    client = signed_in(gm)
    form = {
        "name": "Spam", "kingdoms": "2", "map_name": "borderlands", "orders": "sealed",
        "battles": "tabletop", "years": "6", "months": "6", "seed": "1",
        "setup_hours": "48", "orders_hours": "48", "battles_hours": "72", "winter_hours": "48",
        "turn_hours": "12", "deadline_days": [str(d) for d in range(7)],
    }  # fmt: skip
    made = [client.post("/new/", {**form, "key": f"k{i}"}).status_code for i in range(3)]
    assert made == [302, 302, 429]
    assert Campaign.objects.filter(memberships__user=gm).count() == 2
