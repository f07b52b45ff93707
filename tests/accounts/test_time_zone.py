"""Each user's own time zone: chosen on the settings page, and deadlines shown in it."""

from datetime import UTC, datetime

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from accounts.forms import SignUpForm, TimeZoneForm, time_zone_choices
from accounts.models import User
from campaign.models import Campaign
from tests.campaign.helpers import make_cast, new_campaign, signed_in

pytestmark = pytest.mark.django_db
SETTINGS = "/accounts/settings/"


@pytest.fixture
def cast():
    return make_cast()


def zone_of(user: User) -> str:
    user.refresh_from_db()
    return user.time_zone


def test_the_settings_page_is_at_accounts_settings():
    assert reverse("accounts:settings") == SETTINGS


def test_a_new_user_sees_deadlines_in_utc(cast):
    assert cast["alice"].time_zone == "UTC"


@pytest.mark.parametrize("method", ["get", "post"])
def test_a_signed_out_visitor_is_sent_to_sign_in(client, method):
    response = getattr(client, method)(SETTINGS)
    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:sign_in')}?next={SETTINGS}"


def test_a_player_saves_a_time_zone_and_is_told(client, cast):
    signed_in(client, cast["alice"])
    response = client.post(SETTINGS, {"time_zone": "Pacific/Auckland"}, follow=True)
    assert response.redirect_chain == [(SETTINGS, 302)]
    assert "Saved: deadlines are now shown in Pacific/Auckland time." in response.text
    assert zone_of(cast["alice"]) == "Pacific/Auckland"


def test_the_settings_page_shows_the_zone_chosen(client, cast):
    User.objects.filter(pk=cast["alice"].pk).update(time_zone="Asia/Tokyo")
    page = signed_in(client, cast["alice"]).get(SETTINGS).text
    assert '<option value="Asia/Tokyo" selected>Tokyo</option>' in page
    assert '<label for="id_time_zone">Time zone' in page


def test_common_zones_come_first(client, cast):
    page = signed_in(client, cast["alice"]).get(SETTINGS).text
    assert page.index('value="Pacific/Auckland"') < page.index('value="Africa/Abidjan"')


@pytest.mark.parametrize("forged", ["Mars/Olympus_Mons", "localtime", "US/Pacific", ""])
def test_a_zone_we_do_not_know_is_refused_and_nothing_changes(client, cast, forged):
    User.objects.filter(pk=cast["alice"].pk).update(time_zone="Europe/London")
    response = signed_in(client, cast["alice"]).post(SETTINGS, {"time_zone": forged})
    assert response.status_code == 400
    assert "not a time zone we know" in response.text or "Choose your time zone." in response.text
    assert zone_of(cast["alice"]) == "Europe/London"


def test_a_refused_zone_is_shown_back_as_text(client, cast):
    response = signed_in(client, cast["alice"]).post(SETTINGS, {"time_zone": "<b>Mars</b>"})
    assert "&lt;b&gt;Mars&lt;/b&gt; is not a time zone we know" in response.text


def test_the_model_refuses_an_unknown_zone(cast):
    cast["alice"].time_zone = "Atlantis/Capital"
    with pytest.raises(ValidationError, match="not a time zone we know"):
        cast["alice"].full_clean()


def test_a_user_only_ever_sees_and_changes_their_own_settings(client, cast):
    User.objects.filter(pk=cast["alice"].pk).update(time_zone="Pacific/Auckland")
    signed_in(client, cast["bob"])
    page = client.get(SETTINGS).text
    assert "Signed in as <strong>bob</strong>" in page
    assert "alice" not in page
    assert '<option value="Pacific/Auckland" selected>' not in page
    client.post(SETTINGS, {"time_zone": "Europe/Berlin", "username": "alice", "id": "2"})
    assert zone_of(cast["bob"]) == "Europe/Berlin"
    assert zone_of(cast["alice"]) == "Pacific/Auckland"


def test_the_browser_zone_is_guessed_only_while_the_user_keeps_the_default(client, cast):
    signed_in(client, cast["alice"])
    assert "js/time-zone-guess.js" in client.get(SETTINGS).text
    client.post(SETTINGS, {"time_zone": "Europe/Paris"})
    assert "js/time-zone-guess.js" not in client.get(SETTINGS).text


def test_the_header_links_a_signed_in_user_to_their_settings(client, cast):
    assert f'href="{SETTINGS}"' not in client.get(reverse("campaign:home")).text
    page = signed_in(client, cast["alice"]).get(reverse("campaign:home")).text
    assert f'<a href="{SETTINGS}" aria-label="alice (settings)">alice</a>' in page


# 10:00 UTC on 1 June is 22:00 in New Zealand's winter (NZST, UTC+12).
DEADLINE = datetime(2027, 6, 1, 10, 0, tzinfo=UTC)


def campaign_due(cast: dict[str, User]) -> Campaign:
    """A started campaign waiting for both players' races by DEADLINE."""
    campaign = new_campaign(cast)
    Campaign.objects.filter(pk=campaign.pk).update(deadline=DEADLINE)
    return campaign


@pytest.mark.parametrize("page", ["campaign:home", "campaign:campaign", "campaign:kingdom"])
def test_a_player_sees_the_deadline_in_their_own_zone(client, cast, page):
    campaign = campaign_due(cast)
    User.objects.filter(pk=cast["alice"].pk).update(time_zone="Pacific/Auckland")
    url = reverse(page, args=[] if page == "campaign:home" else [campaign.slug])
    assert "Tue 1 Jun, 22:00 NZST" in signed_in(client, cast["alice"]).get(url).text
    assert "Tue 1 Jun, 10:00 UTC" in signed_in(client, cast["bob"]).get(url).text


def test_the_next_request_is_not_left_in_the_last_users_zone(client, cast):
    User.objects.filter(pk=cast["alice"].pk).update(time_zone="Pacific/Auckland")
    signed_in(client, cast["alice"]).get(reverse("campaign:home"))
    assert timezone.get_current_timezone_name() == "UTC"


def test_a_zone_since_dropped_from_the_tz_database_falls_back_to_utc(client, cast):
    campaign_due(cast)
    User.objects.filter(pk=cast["alice"].pk).update(time_zone="Old/Gone")
    response = signed_in(client, cast["alice"]).get(reverse("campaign:home"))
    assert response.status_code == 200
    assert "Tue 1 Jun, 10:00 UTC" in response.text


@pytest.mark.parametrize("page", ["campaign:home", "campaign:campaign", "campaign:kingdom"])
def test_until_a_zone_is_set_each_deadline_says_so_and_links_to_where_it_is_set(client, cast, page):
    campaign = campaign_due(cast)
    User.objects.filter(pk=cast["alice"].pk).update(time_zone="Europe/London")
    url = reverse(page, args=[] if page == "campaign:home" else [campaign.slug])
    hint = f'<a class="zone-hint" href="{SETTINGS}#time-zone">(set your time zone)</a>'
    assert hint in signed_in(client, cast["bob"]).get(url).text  # still UTC
    assert "set your time zone" not in signed_in(client, cast["alice"]).get(url).text
    assert 'id="time-zone"' in signed_in(client, cast["bob"]).get(SETTINGS).text


@pytest.mark.parametrize("posted", [None, "Asia/Tokyo", "Mars/Base"])
@pytest.mark.parametrize("form_class", [TimeZoneForm, SignUpForm])
def test_the_zone_select_is_django_s_select_drawn_once(
    form_class: type[forms.Form], posted: str | None
) -> None:
    """The time zones' select (`ZoneSelect`) keeps what Django's draws, the zone chosen and
    a refusal's attributes included, for a form as shown and as posted."""
    form = form_class(None if posted is None else {"time_zone": posted})
    form.is_valid()
    kept = str(form["time_zone"])
    form.fields["time_zone"].widget = forms.Select(choices=time_zone_choices())
    assert kept == str(form["time_zone"])
    if posted == "Asia/Tokyo":
        assert '<option value="Asia/Tokyo" selected>Tokyo</option>' in kept
