"""Signing in by username or e-mail address (accounts.backends), and django-axes's pause
after five wrong passwords for one username from one address."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.db.models import F
from django.http import HttpRequest
from django.test import Client
from django.urls import reverse

from accounts.backends import UsernameOrEmailBackend
from accounts.models import User
from tests.accounts.conftest import SIGN_IN, sign_in, signed_in_as
from tests.campaign.helpers import PASSWORD

pytestmark = pytest.mark.django_db


def test_a_player_signs_in_with_their_username(client, cast):
    response = sign_in(client, "alice")
    assert response.status_code == 302
    assert signed_in_as(client) == cast["alice"].pk


@pytest.mark.parametrize("typed", ["alice@example.org", "Alice@Example.ORG", " alice@example.org "])
def test_a_player_signs_in_with_their_e_mail_address_whatever_its_case(client, cast, typed):
    response = sign_in(client, typed)
    assert response.status_code == 302
    assert signed_in_as(client) == cast["alice"].pk


def test_signing_in_goes_on_to_next(client, cast):
    response = client.post(
        f"{SIGN_IN}?next=/c/autumn-league/",
        {"username": "alice@example.org", "password": PASSWORD, "next": "/c/autumn-league/"},
    )
    assert response.url == "/c/autumn-league/"


@pytest.mark.parametrize(
    ("typed", "password"),
    [
        ("alice", "wrong"),
        ("alice@example.org", "wrong"),
        ("nobody@example.org", PASSWORD),
        ("ALICE", PASSWORD),
    ],
)
def test_a_wrong_username_e_mail_or_password_is_told_and_nobody_signs_in(
    client, cast, typed, password
):
    response = sign_in(client, typed, password)
    assert response.status_code == 200
    assert "Your username or e-mail and password didn't match." in response.text
    assert signed_in_as(client) is None


def test_the_sign_in_page_asks_for_a_username_or_e_mail_and_links_to_a_password_reset(client):
    page = client.get(SIGN_IN).text
    assert '<label for="id_username">Username or e-mail</label>' in page
    assert f'href="{reverse("accounts:password_reset")}"' in page


def test_a_closed_account_cannot_sign_in_by_its_e_mail_address(cast):
    User.objects.filter(pk=cast["alice"].pk).update(is_active=False)
    backend = UsernameOrEmailBackend()
    assert (
        backend.authenticate(HttpRequest(), username="alice@example.org", password=PASSWORD) is None
    )


def test_an_e_mail_address_nobody_has_matches_nobody(cast):
    backend = UsernameOrEmailBackend()
    assert backend.authenticate(HttpRequest(), username="@", password=PASSWORD) is None
    assert backend.authenticate(HttpRequest(), username="", password=PASSWORD) is None


def test_a_username_wins_over_an_e_mail_address(cast):
    """An account made before sign-up refused "@" in usernames keeps signing in by it."""
    User.objects.filter(pk=cast["bob"].pk).update(username="alice@example.org")
    backend = UsernameOrEmailBackend()
    user = backend.authenticate(HttpRequest(), username="alice@example.org", password=PASSWORD)
    assert user is not None
    assert user.pk == cast["bob"].pk


# django-axes: five failures for one username from one address pause it for 15 minutes.


def fail(client: Client, times: int, username: str = "alice", **extra: str) -> None:
    for _ in range(times):
        response = sign_in(client, username, "wrong", **extra)
        assert response.status_code == 200, "paused too early"


def test_four_wrong_passwords_do_not_pause_signing_in(client, cast):
    fail(client, 4)
    assert sign_in(client, "alice").status_code == 302
    assert signed_in_as(client) == cast["alice"].pk


def test_the_fifth_wrong_password_pauses_signing_in_with_a_page_that_says_why(client, cast):
    fail(client, 4)
    response = sign_in(client, "alice", "wrong")
    assert response.status_code == 429
    assert "Too many tries" in response.text
    assert "paused for 15 minutes" in response.text
    assert "reset your password by e-mail" in response.text


def test_while_paused_even_the_right_password_is_refused(client, cast):
    fail(client, 4)
    sign_in(client, "alice", "wrong")
    response = sign_in(client, "alice")
    assert response.status_code == 429
    assert signed_in_as(client) is None


def test_the_username_and_the_e_mail_address_in_any_case_share_one_count(client, cast):
    fail(client, 2, "alice")
    fail(client, 1, "alice@example.org")
    fail(client, 1, "ALICE@Example.org ")
    assert sign_in(client, "Alice@example.ORG", "wrong").status_code == 429
    assert sign_in(client, "alice").status_code == 429


def test_an_unknown_name_in_any_case_shares_one_count(client, cast):
    fail(client, 2, "ghost@example.org")
    fail(client, 2, "GHOST@example.org")
    assert sign_in(client, "Ghost@Example.org", "wrong").status_code == 429


def test_the_pause_page_does_not_tell_the_username_of_an_e_mail_address(client, cast):
    fail(client, 4, "alice@example.org")
    response = sign_in(client, "alice@example.org", "wrong")
    assert response.status_code == 429
    assert "alice<" not in response.text.replace("alice@example.org", "")


def test_the_pause_is_for_that_username_from_that_address_only(client, cast):
    fail(client, 4)
    sign_in(client, "alice", "wrong")
    assert sign_in(client, "bob").status_code == 302
    client.logout()
    assert sign_in(client, "alice", REMOTE_ADDR="203.0.113.9").status_code == 302


def test_the_pause_ends_after_15_minutes(client, cast):
    fail(client, 4)
    sign_in(client, "alice", "wrong")
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - timedelta(minutes=15, seconds=1))
    assert sign_in(client, "alice").status_code == 302


def test_a_success_starts_the_count_again(client, cast):
    fail(client, 4)
    assert sign_in(client, "alice").status_code == 302
    client.logout()
    fail(client, 4)
    assert sign_in(client, "alice").status_code == 302


def test_the_django_admin_sign_in_is_paused_too(client, cast):
    for _ in range(5):
        response = client.post(reverse("admin:login"), {"username": "gm", "password": "wrong"})
    assert response.status_code == 429


@pytest.mark.parametrize("page", ["accounts:sign_in", "accounts:sign_up"])
def test_the_headers_links_on_the_sign_in_pages_lead_on_to_where_the_visitor_was_going(
    client, page
):
    text = client.get(reverse(page) + "?next=/join/abc/").text
    assert 'href="/accounts/sign-in/?next=/join/abc/"' in text
    assert 'href="/accounts/sign-up/?next=/join/abc/"' in text
    elsewhere = client.get(reverse("campaign:rules")).text
    assert 'href="/accounts/sign-up/?next=/rules/"' in elsewhere
