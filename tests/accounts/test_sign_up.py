"""Signing up: a username, an e-mail address unique whatever its case, the password twice;
the new player is signed in and sent on where they were going (an invitation link)."""

import pytest
from django.test import Client
from django.urls import reverse

from accounts.forms import SignUpForm
from accounts.models import User
from tests.accounts.conftest import SIGN_IN, signed_in_as

pytestmark = pytest.mark.django_db
SIGN_UP = "/accounts/sign-up/"
GOOD = {
    "username": "mira",
    "email": "Mira@Example.org",
    "password1": "heavy-cavalry-at-dawn",
    "password2": "heavy-cavalry-at-dawn",
}


def test_the_sign_up_page_is_at_accounts_sign_up():
    assert reverse("accounts:sign_up") == SIGN_UP


def test_the_page_asks_for_a_username_an_e_mail_and_the_password_twice(client):
    page = client.get(SIGN_UP).text
    for field in ("username", "email", "password1", "password2"):
        assert f'name="{field}"' in page
    assert 'autocomplete="new-password"' in page


def test_a_visitor_signs_up_and_is_signed_in_and_sent_home(client):
    response = client.post(SIGN_UP, GOOD, follow=True)
    assert response.redirect_chain == [(reverse("campaign:home"), 302)]
    mira = User.objects.get(username="mira")
    assert mira.email == "Mira@example.org"  # the domain's case is normalised
    assert mira.check_password("heavy-cavalry-at-dawn")
    assert signed_in_as(client) == mira.pk
    assert "Welcome, mira: your account is ready." in response.text


def test_an_invitation_link_is_where_the_new_player_is_sent(client):
    invitation = "/c/autumn-league/join/?code=ABCD"
    response = client.post(f"{SIGN_UP}?next=/ignored/", {**GOOD, "next": invitation})
    assert response.status_code == 302
    assert response.url == invitation


def test_next_in_the_address_is_kept_by_the_form(client):
    page = client.get(f"{SIGN_UP}?next=/c/autumn-league/").text
    assert '<input type="hidden" name="next" value="/c/autumn-league/">' in page


@pytest.mark.parametrize(
    "unsafe",
    [
        "https://evil.example.org/",
        "//evil.example.org/",
        "http:///evil.example.org",
        "javascript:alert(1)",
    ],
)
def test_a_next_to_another_site_is_ignored(client, unsafe):
    response = client.post(SIGN_UP, {**GOOD, "next": unsafe})
    assert response.status_code == 302
    assert response.url == reverse("campaign:home")


def test_a_signed_in_player_is_not_asked_to_sign_up(client, cast):
    client.force_login(cast["bob"])
    response = client.get(SIGN_UP)
    assert response.status_code == 302
    assert response.url == reverse("campaign:home")


def refused(client: Client, data: dict[str, str], message: str) -> None:
    before = User.objects.count()
    response = client.post(SIGN_UP, {**GOOD, **data})
    assert response.status_code == 400
    assert message in response.text
    assert User.objects.count() == before
    assert signed_in_as(client) is None


def test_a_username_taken_is_refused_whatever_its_case(client, cast):
    refused(client, {"username": "ALICE"}, "A user with that username already exists.")


@pytest.mark.parametrize(
    ("username", "message"),
    [
        ("\u0430lice", "This username mixes alphabets whose letters look alike"),  # Cyrillic a
        ("\u0430\u0441\u0435", "This username looks like one that is taken"),  # Cyrillic "ace"
    ],
    ids=["mixed alphabets", "all Cyrillic"],
)
def test_a_username_that_looks_like_another_is_refused(client, cast, username, message):
    """Issue 26, point 6: alice spelt with a Cyrillic a (U+0430) was a second alice."""
    User.objects.create_user("ace", password="a-long-test-password")
    refused(client, {"username": username}, message)


def test_a_username_in_another_alphabet_that_looks_like_none_is_welcome(client):
    client.post(SIGN_UP, {**GOOD, "username": "\u0411\u043e\u0440\u0438\u0441"})  # Борис
    assert User.objects.filter(username="\u0411\u043e\u0440\u0438\u0441").exists()


def test_an_e_mail_address_taken_is_refused_whatever_its_case(client, cast):
    refused(
        client,
        {"email": "ALICE@example.ORG"},
        "An account with this e-mail address already exists.",
    )


def test_the_e_mail_address_is_required(client):
    refused(client, {"email": ""}, "This field is required.")


def test_passwords_that_differ_are_refused(client):
    refused(
        client, {"password2": "heavy-cavalry-at-dusk"}, "The two password fields didn\u2019t match."
    )


def test_djangos_password_validators_refuse_a_weak_password(client):
    refused(
        client, {"password1": "password", "password2": "password"}, "This password is too common."
    )


def test_a_username_with_an_at_sign_is_refused(client):
    refused(client, {"username": "mira@example.org"}, "A username cannot contain @")


def test_the_names_of_closed_accounts_are_kept(client):
    refused(client, {"username": "Departed-7"}, "kept for closed accounts")


def test_sign_in_and_sign_up_link_to_each_other_keeping_next(client):
    sign_in = client.get(f"{SIGN_IN}?next=/c/autumn-league/").text
    assert f'href="{SIGN_UP}?next=/c/autumn-league/"' in sign_in
    sign_up = client.get(f"{SIGN_UP}?next=/c/autumn-league/").text
    assert f'href="{SIGN_IN}?next=/c/autumn-league/"' in sign_up


def test_a_signed_out_visitor_is_offered_sign_up_in_the_header_and_on_the_home_page(client):
    page = client.get(reverse("campaign:home")).text
    assert f'<a href="{SIGN_UP}?next=/">Sign up</a>' in page
    assert f'<a class="button" href="{SIGN_UP}">Sign up</a>' in page


def test_a_signed_in_player_is_not_offered_sign_up(client, cast):
    client.force_login(cast["bob"])
    assert SIGN_UP not in client.get(reverse("campaign:home")).text


def test_an_e_mail_taken_between_the_check_and_the_save_is_a_form_error(client, monkeypatch):
    """Two people sign up with one e-mail at the same moment: the second is told, not
    shown a server error."""
    save = SignUpForm.save

    def taken_meanwhile(form: SignUpForm, commit: bool = True) -> User:
        User.objects.create_user("quick", email="mira@example.org", password="x-long-password")
        return save(form, commit)

    monkeypatch.setattr(SignUpForm, "save", taken_meanwhile)
    response = client.post(SIGN_UP, GOOD)
    assert response.status_code == 400
    assert "That username or e-mail was just taken: choose another." in response.text
    assert not User.objects.filter(username="mira").exists()


def test_the_time_zone_is_asked_at_sign_up_and_kept(client):
    """The page offers the zones (the browser's is picked by time-zone-guess.js); the one
    sent is the new player's, and none sent keeps UTC."""
    page = client.get(SIGN_UP).text
    assert 'name="time_zone"' in page
    assert "js/time-zone-guess.js" in page
    client.post(SIGN_UP, {**GOOD, "time_zone": "Europe/Lisbon"})
    assert User.objects.get(username="mira").time_zone == "Europe/Lisbon"
    other = {**GOOD, "username": "ned", "email": "ned@example.org"}
    Client().post(SIGN_UP, other)
    assert User.objects.get(username="ned").time_zone == "UTC"


def test_an_unknown_time_zone_is_refused(client):
    response = client.post(SIGN_UP, {**GOOD, "time_zone": "Mars/Olympus"})
    assert response.status_code == 400
    assert "Mars/Olympus is not a time zone we know" in response.text
    assert not User.objects.filter(username="mira").exists()
