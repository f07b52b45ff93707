"""The settings page's account part: a display name, and the e-mail address changed once
the password is typed."""

import pytest
from django.urls import reverse

from accounts.models import User
from tests.campaign.helpers import PASSWORD

pytestmark = pytest.mark.django_db
SETTINGS = "/accounts/settings/"
NAME = "/accounts/settings/name/"
EMAIL = "/accounts/settings/email/"


def email_of(user: User) -> str:
    user.refresh_from_db()
    return user.email


def test_a_player_without_a_display_name_is_shown_by_username(client, cast):
    client.force_login(cast["alice"])
    page = client.get(SETTINGS).text
    assert "Signed in as <strong>alice</strong>." in page
    assert "none, your username is shown" in page


def test_a_player_sets_a_display_name_shown_on_the_settings_page(client, cast):
    client.force_login(cast["alice"])
    response = client.post(NAME, {"display_name": "Alice of the Marches"}, follow=True)
    assert response.redirect_chain == [(SETTINGS, 302)]
    assert "Saved your display name." in response.text
    assert "Signed in as <strong>Alice of the Marches</strong> (username alice)." in response.text


def test_a_display_name_is_optional(client, cast):
    User.objects.filter(pk=cast["alice"].pk).update(display_name="Alice")
    client.force_login(cast["alice"])
    client.post(NAME, {"display_name": ""})
    cast["alice"].refresh_from_db()
    assert cast["alice"].display_name == ""


def test_a_display_name_too_long_is_refused(client, cast):
    client.force_login(cast["alice"])
    response = client.post(NAME, {"display_name": "A" * 61})
    assert response.status_code == 400
    assert "Ensure this value has at most 60 characters" in response.text


@pytest.mark.parametrize(
    "name",
    ["Alice\r\nBcc: everyone@example.org", "Alice\u202eecilA", "Alice\u2028Bob", "Alice\x07"],
    ids=["line break", "right-to-left override", "line separator", "bell"],
)
def test_a_display_name_of_more_than_one_printable_line_is_refused(client, cast, name):
    """Issue 26, point 6: "Alice\r\nBcc: ..." was saved, and the e-mails naming her then
    failed their header check."""
    client.force_login(cast["alice"])
    response = client.post(NAME, {"display_name": name})
    assert response.status_code == 400
    assert "A display name is one line of letters, digits, spaces and punctuation." in (
        response.text
    )
    cast["alice"].refresh_from_db()
    assert cast["alice"].display_name == ""


def test_a_display_name_is_kept_normalised_and_trimmed(client, cast):
    client.force_login(cast["alice"])
    client.post(NAME, {"display_name": "  \uff21lice   of  the Marches "})  # a full-width A
    cast["alice"].refresh_from_db()
    assert cast["alice"].display_name == "Alice of the Marches"


def test_the_settings_page_shows_the_e_mail_address_and_links_to_change_it(client, cast):
    client.force_login(cast["alice"])
    page = client.get(SETTINGS).text
    assert "alice@example.org" in page
    assert f'href="{EMAIL}"' in page
    assert f'href="{NAME}"' in page


def test_a_player_changes_their_e_mail_address_with_their_password(client, cast):
    client.force_login(cast["alice"])
    response = client.post(
        EMAIL, {"email": "alice@marches.example", "password": PASSWORD}, follow=True
    )
    assert response.redirect_chain == [(SETTINGS, 302)]
    assert "Saved: your e-mail address is now alice@marches.example." in response.text
    assert email_of(cast["alice"]) == "alice@marches.example"


def test_a_wrong_password_changes_nothing(client, cast):
    client.force_login(cast["alice"])
    response = client.post(EMAIL, {"email": "alice@marches.example", "password": "wrong"})
    assert response.status_code == 400
    assert "That is not your password: nothing was changed." in response.text
    assert email_of(cast["alice"]) == "alice@example.org"


def test_no_password_changes_nothing(client, cast):
    client.force_login(cast["alice"])
    response = client.post(EMAIL, {"email": "alice@marches.example"})
    assert response.status_code == 400
    assert "Type your password to confirm." in response.text
    assert email_of(cast["alice"]) == "alice@example.org"


def test_an_address_another_account_has_is_refused_whatever_its_case(client, cast):
    client.force_login(cast["bob"])
    response = client.post(EMAIL, {"email": "Alice@EXAMPLE.org", "password": PASSWORD})
    assert response.status_code == 400
    assert "An account with this e-mail address already exists." in response.text
    assert email_of(cast["bob"]) == ""


def test_a_player_may_type_their_own_address_in_another_case(client, cast):
    client.force_login(cast["alice"])
    client.post(EMAIL, {"email": "ALICE@example.org", "password": PASSWORD})
    assert email_of(cast["alice"]) == "ALICE@example.org"


def test_an_address_that_is_not_one_is_refused(client, cast):
    client.force_login(cast["alice"])
    response = client.post(EMAIL, {"email": "alice at home", "password": PASSWORD})
    assert response.status_code == 400
    assert "Enter a valid email address." in response.text


@pytest.mark.parametrize("url", [NAME, EMAIL])
def test_a_signed_out_visitor_is_sent_to_sign_in(client, url):
    response = client.post(url, {"display_name": "x", "email": "x@example.org"})
    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:sign_in')}?next={url}"


def test_the_old_address_is_told_of_the_change_and_the_new_one_is_not(client, cast, mailoutbox):
    client.force_login(cast["alice"])
    old = email_of(cast["alice"])
    client.post(EMAIL, {"email": "alice@marches.example", "password": PASSWORD})
    (notice,) = mailoutbox
    assert notice.to == [old]
    assert "alice@marches.example" in notice.body
    assert "If you did not change it" in notice.body


def test_a_refused_change_tells_nobody(client, cast, mailoutbox):
    client.force_login(cast["alice"])
    client.post(EMAIL, {"email": "alice@marches.example", "password": "not it"})
    assert mailoutbox == []


def test_a_mail_server_that_fails_does_not_undo_the_change(client, cast, settings):
    settings.EMAIL_BACKEND = "tests.accounts.test_profile.FailingBackend"
    client.force_login(cast["alice"])
    response = client.post(EMAIL, {"email": "alice@marches.example", "password": PASSWORD})
    assert response.status_code == 302
    assert email_of(cast["alice"]) == "alice@marches.example"


class FailingBackend:
    def __init__(self, *args, **kwargs):
        pass

    def send_messages(self, messages):
        raise ConnectionRefusedError("no mail server")
