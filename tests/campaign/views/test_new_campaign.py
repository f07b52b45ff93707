"""The new campaign page: a signed-in user makes a campaign on a built-in map or on a
generated one (previewed before it is chosen), with its options, deadlines, the days
deadlines may fall on, and whether it is public. Every refusal is told on the form and
creates nothing. And the days of the week deadlines fall on, at every deadline set."""

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign.models import AuditEntry, Campaign
from campaign.rules.hexmap import map_to_json
from campaign.rules.mapgen import generate_map
from campaign.services import admin, common, setup
from tests.campaign.helpers import new_campaign, queries_of, signed_in

pytestmark = pytest.mark.django_db

NEW = reverse("campaign:new")
PREVIEW = reverse("campaign:new_preview")
HTMX = {"HX-Request": "true"}


def choices(**changes: Any) -> dict[str, Any]:
    """A complete new campaign form: the Borderlands for three kingdoms."""
    form: dict[str, Any] = {
        "name": "Autumn League",
        "map_name": "borderlands",
        "kingdoms": "3",
        "size": "",
        "seed": "7",
        "years": "4",
        "months": "5",
        "orders": "cycle",
        "battles": "simple",
        "setup_hours": "24",
        "orders_hours": "48",
        "battles_hours": "100",
        "winter_hours": "36",
        "turn_hours": "6",
        "deadline_days": ["1", "3", "5"],
        "public": "on",
    }
    form.update(changes)
    return {k: v for k, v in form.items() if v is not None}


# --- the page ---------------------------------------------------------------------------------


def test_a_signed_out_visitor_is_sent_to_sign_in(client):
    response = client.get(NEW)
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:sign_in"))
    assert "next=/new/" in response.url


def test_it_offers_each_built_in_map_with_a_thumbnail_its_size_and_kingdoms(client, cast):
    page = signed_in(client, cast["gm"]).get(NEW).text
    for name, title, hexes, kingdoms in [
        ("borderlands", "The Borderlands", 84, "2 to 3"),
        ("river-kingdoms", "The River Kingdoms", 210, "4 to 5"),
        ("great-continent", "The Great Continent", 365, "6 to 8"),
    ]:
        assert f'src="{reverse("campaign:map_thumbnail", args=[name])}"' in page
        assert title in page
        assert f"{hexes} hexes, for {kingdoms} kingdoms." in page
    assert 'value="generated" checked' in page
    assert "Public: anyone may read the map, might and chronicle" in page
    for day in ("Monday", "Sunday"):
        assert day in page


def test_a_thumbnail_is_the_bare_map_drawn_once(client):
    response = client.get(reverse("campaign:map_thumbnail", args=["borderlands"]))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/svg+xml"
    assert response.text.startswith("<svg")
    assert "max-age=86400" in response["Cache-Control"]
    assert client.get(reverse("campaign:map_thumbnail", args=["atlantis"])).status_code == 404


# --- creating ------------------------------------------------------------------------------------


def test_it_creates_a_campaign_on_a_built_in_map(client, cast):
    response = signed_in(client, cast["gm"]).post(NEW, choices())
    campaign = Campaign.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:dashboard", args=[campaign.slug])
    assert (campaign.name, campaign.slug, campaign.map_name) == (
        "Autumn League",
        "autumn-league",
        "borderlands",
    )
    assert campaign.kingdoms == 3
    assert campaign.status == Campaign.Status.OPEN
    assert campaign.options == {
        "years": 4,
        "months": 5,
        "orders": "cycle",
        "battles": "simple",
        "seed": 7,
    }
    assert campaign.deadlines == {
        "setup": 24,
        "orders": 48,
        "battles": 100,
        "winter": 36,
        "turn": 6,
    }
    assert campaign.deadline_days == [1, 3, 5]
    assert campaign.public
    assert len(campaign.map["tiles"]) == 84
    [membership] = campaign.memberships.all()
    assert (membership.user, membership.is_admin, membership.kingdom) == (cast["gm"], True, "")
    assert AuditEntry.objects.filter(campaign=campaign, action="created").exists()
    page = client.get(response["Location"]).text
    assert "is open for players" in page


def test_the_campaign_counts_deadline_days_in_its_creators_time_zone(client, cast):
    cast["gm"].time_zone = "Pacific/Auckland"
    cast["gm"].save()
    page = signed_in(client, cast["gm"]).get(NEW).text
    assert "in your time zone (Pacific/Auckland)" in page
    client.post(NEW, choices())
    assert Campaign.objects.get().time_zone == "Pacific/Auckland"


def test_a_generated_map_is_shown_before_it_is_chosen(client, cast):
    """Create without having seen the map: the page shows the map these choices make and
    creates nothing; create again, and it is that map."""
    signed_in(client, cast["gm"])
    form = choices(map_name="generated", kingdoms="3", size="120", seed="7")
    response = client.post(NEW, form)
    assert response.status_code == 200
    assert not Campaign.objects.exists()
    assert "Here is the map these choices make" in response.text
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="campaign-map"' in response.text
    assert 'name="previewed" value="3:120:7"' in response.text
    response = client.post(NEW, {**form, "previewed": "3:120:7"})
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert campaign.map_name == "generated"
    assert campaign.map == map_to_json(generate_map(3, 7, 120))


def test_changing_the_seed_after_the_preview_shows_the_new_map_first(client, cast):
    signed_in(client, cast["gm"])
    form = choices(map_name="generated", size="120", seed="8", previewed="3:120:7")
    response = client.post(NEW, form)
    assert response.status_code == 200
    assert 'name="previewed" value="3:120:8"' in response.text
    assert not Campaign.objects.exists()


def test_the_preview_button_without_javascript_draws_the_map_and_creates_nothing(client, cast):
    signed_in(client, cast["gm"])
    form = choices(map_name="generated", size="", seed="11", previewed="3::11", preview="1")
    response = client.post(NEW, form)
    assert response.status_code == 200
    assert 'class="campaign-map"' in response.text
    assert "A generated map of <strong>" in response.text
    assert not Campaign.objects.exists()
    # The form keeps what was typed.
    assert 'value="Autumn League"' in response.text


def test_the_preview_with_htmx_is_the_map_alone(client, cast):
    signed_in(client, cast["gm"])
    response = client.get(PREVIEW, {"kingdoms": "4", "size": "200", "seed": "3"}, headers=HTMX)
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="map-preview"')
    assert "<html" not in response.text
    hexes = len(generate_map(4, 3, 200).tiles)
    assert f"A generated map of <strong>{hexes} hexes</strong>" in response.text
    assert 'name="previewed" value="4:200:3"' in response.text
    assert not Campaign.objects.exists()


def test_the_new_page_s_preview_button_asks_htmx_for_the_map(client, cast):
    page = signed_in(client, cast["gm"]).get(NEW).text
    assert f'hx-get="{PREVIEW}"' in page
    assert 'hx-include="#id_kingdoms, #id_size, #id_seed"' in page
    assert 'type="submit" name="preview" value="1"' in page


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ({"kingdoms": "9", "seed": "1"}, "less than or equal to 8"),
        ({"kingdoms": "3", "seed": "x"}, "Give the seed as a whole number."),
        ({"kingdoms": "3", "seed": "1", "size": "5000"}, "less than or equal to 1200"),
    ],
)
def test_a_preview_of_impossible_choices_says_why(client, cast, query, problem):
    response = signed_in(client, cast["gm"]).get(PREVIEW, query, headers=HTMX)
    assert response.status_code == 200
    assert "No preview:" in response.text
    assert problem in response.text


def test_a_preview_without_htmx_is_the_whole_page(client, cast):
    response = signed_in(client, cast["gm"]).get(PREVIEW, {"kingdoms": "2", "seed": "5"})
    assert "<html" in response.text
    assert 'class="campaign-map"' in response.text


@pytest.mark.parametrize(
    ("changes", "error"),
    [
        ({"kingdoms": "5"}, "The Borderlands is for 2 to 3 kingdoms."),
        ({"map_name": "great-continent", "kingdoms": "4"}, "is for 6 to 8 kingdoms."),
        ({"kingdoms": "9", "map_name": "generated"}, "less than or equal to 8"),
        ({"kingdoms": "1"}, "greater than or equal to 2"),
        ({"map_name": "atlantis"}, "Choose one of the maps offered."),
        ({"years": "0"}, "greater than or equal to 1"),
        ({"years": "21"}, "less than or equal to 20"),
        ({"months": "13"}, "less than or equal to 12"),
        ({"orders": "secret"}, "Select a valid choice."),
        ({"battles": "dice"}, "Select a valid choice."),
        ({"orders_hours": "0"}, "greater than or equal to 1"),
        ({"winter_hours": "soon"}, "Give the hours as a whole number."),
        ({"turn_hours": "30"}, "One kingdom&#x27;s turn is part of a step"),
        ({"deadline_days": None}, "Choose at least one day."),
        ({"deadline_days": ["7"]}, "Select a valid choice."),
        ({"name": "  "}, "This field is required."),
        ({"map_name": "generated", "size": "10"}, "greater than or equal to 60"),
        ({"seed": "-1"}, "greater than or equal to 0"),
    ],
)
def test_a_bad_choice_is_told_on_the_form_and_creates_nothing(client, cast, changes, error):
    response = signed_in(client, cast["gm"]).post(NEW, choices(**changes))
    assert response.status_code == 400
    assert error in response.text
    assert 'class="errorlist' in response.text
    assert not Campaign.objects.exists()
    assert not AuditEntry.objects.exists()


def test_the_service_refuses_a_bad_option_whatever_calls_it(cast):
    cases: list[tuple[dict[str, Any], str]] = [
        ({"years": 0}, "years"),
        ({"months": "six"}, "months"),
        ({"orders": "secret"}, "orders"),
        ({"fog": True}, "fog"),
    ]
    for options, field in cases:
        with pytest.raises(common.ServiceError) as refused:
            setup.campaign_create(
                name="X", admin=cast["gm"], kingdoms=2, map_name="borderlands", options=options
            )
        assert (refused.value.code, refused.value.field) == ("bad-option", field)
    with pytest.raises(common.ServiceError) as refused:
        setup.campaign_create(
            name="X", admin=cast["gm"], kingdoms=2, map_name="borderlands", deadline_days=[]
        )
    assert refused.value.code == "no-days"
    assert not Campaign.objects.exists()


def test_the_new_page_s_queries_do_not_grow_with_the_campaigns(client, cast):
    signed_in(client, cast["gm"])
    few, _ = queries_of(client, NEW)
    for n in range(4):
        new_campaign(cast, f"Campaign {n}", start=False)
    many, _ = queries_of(client, NEW)
    assert few == many


# --- the links to it -------------------------------------------------------------------------------


def test_the_header_and_the_home_page_lead_to_a_new_campaign_and_to_joining(client, cast):
    page = signed_in(client, cast["eve"]).get(reverse("campaign:home")).text
    assert f'<a href="{NEW}"' in page
    assert "Start a new campaign" in page
    assert f'action="{reverse("campaign:join_with_code")}"' in page
    assert "Join with a code" in page


def test_a_signed_out_visitor_has_no_new_campaign_link(client):
    assert f'href="{NEW}"' not in client.get(reverse("campaign:home")).text


# --- the days deadlines fall on ---------------------------------------------------------------------

# Wednesday 4 March 2026, noon UTC.
WEDNESDAY_NOON = datetime(2026, 3, 4, 12, 0, tzinfo=UTC)


@pytest.fixture
def at_wednesday_noon(monkeypatch):
    monkeypatch.setattr(timezone, "now", lambda: WEDNESDAY_NOON)
    return WEDNESDAY_NOON


def on_days(cast: dict[str, User], days: list[int], zone: str = "UTC") -> Campaign:
    campaign = new_campaign(cast, start=False)
    Campaign.objects.filter(pk=campaign.pk).update(deadline_days=days, time_zone=zone)
    campaign.refresh_from_db()
    return campaign


def test_a_deadline_on_an_allowed_day_stays(cast, at_wednesday_noon):
    campaign = on_days(cast, [4])  # Friday
    setup.campaign_start(campaign=campaign, actor=cast["gm"])  # setup: 48 hours
    campaign.refresh_from_db()
    assert campaign.deadline == datetime(2026, 3, 6, 12, 0, tzinfo=UTC)


def test_a_deadline_moves_to_the_same_time_on_the_next_allowed_day(cast, at_wednesday_noon):
    campaign = on_days(cast, [0, 5])  # Monday and Saturday
    setup.campaign_start(campaign=campaign, actor=cast["gm"])  # Friday noon: no
    campaign.refresh_from_db()
    assert campaign.deadline == datetime(2026, 3, 7, 12, 0, tzinfo=UTC)  # Saturday noon


def test_the_days_are_the_campaign_s_time_zone_s(cast, at_wednesday_noon):
    """Friday noon UTC is Saturday 1 a.m. in Auckland: allowed there on Saturdays, it
    stays; allowed only on Fridays, it moves to Friday 1 a.m. Auckland time a week on."""
    saturday = on_days(cast, [5], "Pacific/Auckland")
    setup.campaign_start(campaign=saturday, actor=cast["gm"])
    saturday.refresh_from_db()
    assert saturday.deadline == datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    friday = new_campaign(cast, "Friday", start=False)
    Campaign.objects.filter(pk=friday.pk).update(deadline_days=[4], time_zone="Pacific/Auckland")
    setup.campaign_start(campaign=friday, actor=cast["gm"])
    friday.refresh_from_db()
    assert friday.deadline == datetime(2026, 3, 12, 12, 0, tzinfo=UTC)  # Fri 13th, 1 a.m. NZDT


def test_every_deadline_the_campaign_sets_keeps_to_its_days(cast, at_wednesday_noon, monkeypatch):
    campaign = on_days(cast, [4])  # Fridays only
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
    campaign.refresh_from_db()
    friday = datetime(2026, 3, 6, 12, 0, tzinfo=UTC)
    assert campaign.deadline == friday
    # Extended by a day: Saturday, so the Friday after.
    admin.campaign_extend(campaign=campaign, actor=cast["gm"], hours=24)
    campaign.refresh_from_db()
    assert campaign.deadline == friday + timedelta(days=7)
    # Paused with a day left, resumed on Tuesday: Wednesday, so Friday.
    monkeypatch.setattr(timezone, "now", lambda: campaign.deadline - timedelta(days=1))
    admin.campaign_pause(campaign=campaign, actor=cast["gm"])
    tuesday = datetime(2026, 3, 17, 9, 30, tzinfo=UTC)
    monkeypatch.setattr(timezone, "now", lambda: tuesday)
    admin.campaign_resume(campaign=campaign, actor=cast["gm"])
    campaign.refresh_from_db()
    assert campaign.deadline == datetime(2026, 3, 20, 9, 30, tzinfo=UTC)
    # An advance opens the next step's deadline (the first capital's turn: 12 hours from
    # Tuesday 09:30, Tuesday evening): Friday at that time.
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    campaign.refresh_from_db()
    assert campaign.deadline == datetime(2026, 3, 20, 21, 30, tzinfo=UTC)


def test_a_deadline_moves_across_a_change_of_clocks_at_the_same_wall_time(cast, monkeypatch):
    """London: Saturday 28 March 2026 09:00 GMT; the clocks go forward that night. Allowed
    on Mondays only, the deadline is Monday at 09:00 BST, 08:00 UTC."""
    monkeypatch.setattr(timezone, "now", lambda: datetime(2026, 3, 26, 9, 0, tzinfo=UTC))
    campaign = on_days(cast, [0], "Europe/London")
    setup.campaign_start(campaign=campaign, actor=cast["gm"])  # Saturday 09:00 GMT
    campaign.refresh_from_db()
    assert campaign.deadline == datetime(2026, 3, 30, 8, 0, tzinfo=UTC)


# --- the same form twice, archiving and deleting -----------------------------------------------


def test_going_back_and_pressing_create_again_makes_one_campaign(client, cast):
    """The form carries its own key: the second post of the same form (Back, then Create)
    lands on the campaign the first one made."""
    page = signed_in(client, cast["gm"]).get(NEW).text
    key = re.search(r'name="key" value="([^"]+)"', page)
    assert key is not None
    first = client.post(NEW, choices(key=key.group(1)))
    again = client.post(NEW, choices(key=key.group(1)), follow=True)
    assert Campaign.objects.count() == 1
    assert again.redirect_chain[-1][0] == first.url
    assert "This form made Autumn League already: here it is." in again.text
    fresh = re.search(r'name="key" value="([^"]+)"', client.get(NEW).text)
    assert fresh is not None
    assert fresh.group(1) != key.group(1)
    client.post(NEW, choices(key=fresh.group(1)))
    assert Campaign.objects.count() == 2  # a new form is a new campaign


def test_an_archived_campaign_leaves_the_home_page_and_stays_readable(client, cast):
    campaign = new_campaign(cast)
    signed_in(client, cast["gm"])
    client.post(reverse("campaign:dashboard_action", args=[campaign.slug, "archive"]))
    for name in ("gm", "alice"):
        signed_in(client, cast[name])
        assert campaign.name not in client.get(reverse("campaign:home")).text
        archived = client.get(reverse("campaign:home"), {"archived": "1"}).text
        assert campaign.name in archived
        assert client.get(reverse("campaign:campaign", args=[campaign.slug])).status_code == 200
    signed_in(client, cast["alice"])  # a player may not archive, nor put it back
    response = client.post(reverse("campaign:dashboard_action", args=[campaign.slug, "unarchive"]))
    assert response.status_code == 404
    campaign.refresh_from_db()
    assert campaign.archived_at is not None
    signed_in(client, cast["gm"])
    client.post(reverse("campaign:dashboard_action", args=[campaign.slug, "unarchive"]))
    assert campaign.name in client.get(reverse("campaign:home")).text


def test_only_a_campaign_not_started_may_be_deleted(client, cast):
    started = new_campaign(cast, "Started")
    waiting = new_campaign(cast, "Waiting", start=False)
    signed_in(client, cast["gm"])
    refused = client.post(
        reverse("campaign:dashboard_action", args=[started.slug, "delete"]), follow=True
    )
    assert "Only a campaign that has not started can be deleted: archive it instead." in (
        refused.text
    )
    assert Campaign.objects.filter(pk=started.pk).exists()
    assert "Delete…" not in client.get(reverse("campaign:dashboard", args=[started.slug])).text
    assert "Delete…" in client.get(reverse("campaign:dashboard", args=[waiting.slug])).text
    signed_in(client, cast["alice"])
    assert (
        client.post(reverse("campaign:dashboard_action", args=[waiting.slug, "delete"])).status_code
        == 404
    )
    signed_in(client, cast["gm"])
    gone = client.post(reverse("campaign:dashboard_action", args=[waiting.slug, "delete"]))
    assert gone.url == reverse("campaign:home")
    assert not Campaign.objects.filter(pk=waiting.pk).exists()


@pytest.mark.parametrize(
    ("chosen", "kept"),
    [(None, "on"), ("on", "on"), ("herald", "herald"), ("none", "none")],
)
def test_the_creator_chooses_who_may_write_letters(client, cast, chosen, kept):
    """Issue 28: letters between kingdoms (the default), the herald only, or none."""
    signed_in(client, cast["gm"])
    assert 'name="letters" value="herald"' in client.get(NEW).text
    form = choices() if chosen is None else choices(letters=chosen)
    assert client.post(NEW, form).status_code == 302
    assert Campaign.objects.get().letters == kept


def test_a_forged_choice_of_letters_is_refused_and_makes_nothing(client, cast):
    signed_in(client, cast["gm"])
    response = client.post(NEW, choices(letters="gossip"))
    assert response.status_code == 400
    assert not Campaign.objects.exists()
