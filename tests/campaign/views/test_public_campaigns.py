"""A public campaign: anyone, signed in or not, reads its map (with its history), its
might over time, its chronicle and its end, and nothing else: never orders, setup,
winter, battles, reports, a kingdom's page or the dashboard, and never anything only a
member is asked or shown. A private campaign stays invisible to whoever is not in it."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from campaign.models import Campaign
from campaign.services import common
from tests.campaign.helpers import (
    at_month,
    new_campaign,
    play_until,
    queries_of,
    short_and_long,
    signed_in,
)
from tests.conftest import campaign_made_once

pytestmark = pytest.mark.django_db

READABLE = ["campaign:campaign", "campaign:might", "campaign:chronicle", "campaign:end"]
MEMBERS_ONLY = [
    "campaign:kingdom",
    "campaign:setup",
    "campaign:orders",
    "campaign:winter",
    "campaign:dashboard",
    "battles:list",
]


def make_public(campaign: Campaign) -> Campaign:
    Campaign.objects.filter(pk=campaign.pk).update(public=True)
    campaign.refresh_from_db()
    return campaign


def a_short_war_played_to_its_end(cast: dict[str, User]) -> Campaign:
    """A one-year public campaign played to its end by the bots."""
    campaign = make_public(new_campaign(cast, "Short War", options={"years": 1}))
    play_until(campaign, cast, lambda data: data["clock"]["season"] == "ended")
    return campaign


made, cast, ended = campaign_made_once(a_short_war_played_to_its_end, name="ended")


def visitors(cast: dict[str, User]) -> list[tuple[str, Client]]:
    """A signed-out visitor, and eve, signed in but not in the campaign."""
    return [("signed out", Client()), ("eve", signed_in(Client(), cast["eve"]))]


@pytest.mark.parametrize("page", READABLE)
def test_anyone_reads_a_public_campaign_s_map_and_story(cast, ended, page):
    for _, client in visitors(cast):
        response = client.get(reverse(page, args=[ended.slug]))
        assert response.status_code == 200, page


@pytest.mark.parametrize("page", MEMBERS_ONLY)
def test_a_public_campaign_keeps_its_players_pages_to_its_members(cast, ended, page):
    url = reverse(page, args=[ended.slug])
    signed_out = Client().get(url)
    assert signed_out.status_code == 302
    assert signed_out["Location"].startswith(reverse("accounts:sign_in"))
    assert signed_in(Client(), cast["eve"]).get(url).status_code == 404


def test_reports_and_battle_cards_stay_with_the_members(cast, ended):
    report = reverse("campaign:report", args=[ended.slug, 2])
    card = reverse("battles:card", args=[ended.slug, 1])
    for url in (report, card):
        assert Client().get(url).status_code == 302
        assert signed_in(Client(), cast["eve"]).get(url).status_code == 404


def test_a_visitor_sees_the_map_and_nothing_asked_of_a_member(cast, ended):
    for who, client in visitors(cast):
        page = client.get(reverse("campaign:campaign", args=[ended.slug])).text
        assert 'class="campaign-map"' in page, who
        assert "Leaderboard" in page
        assert "Might over time" in page
        for private in (
            "My kingdom",
            "Waiting for",
            "Nothing is waiting for",
            "Admin dashboard",
            "Setup: whose turn",
            reverse("battles:list", args=[ended.slug]),
            "/report/",
            ended.join_code,
        ):
            assert private not in page, (who, private)


def test_a_visitor_moves_through_the_map_s_history(cast, ended):
    client = Client()
    url = reverse("campaign:campaign", args=[ended.slug])
    response = client.get(url, {"at": "1"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section class="map-section"')
    assert "You are looking at the setup (step 1 of" in response.text


def test_a_visitor_reads_the_chronicle_without_links_to_what_members_keep(cast, ended):
    for who, client in visitors(cast):
        for page in ("campaign:chronicle", "campaign:end"):
            text = client.get(reverse(page, args=[ended.slug])).text
            assert "The map</a>" in text, who
            assert "/report/" not in text
            assert "Battle card" not in text


def test_members_still_get_the_links_in_a_public_campaign(client, cast, ended):
    text = signed_in(client, cast["alice"]).get(reverse("campaign:chronicle", args=[ended.slug]))
    assert "The full report</a>" in text.text
    page = client.get(reverse("campaign:campaign", args=[ended.slug])).text
    assert "My kingdom: Red Elves" in page


def test_a_public_campaign_asks_its_members_and_tells_visitors_nothing(cast):
    campaign = make_public(new_campaign(cast))
    url = reverse("campaign:campaign", args=[campaign.slug])
    alice = signed_in(Client(), cast["alice"]).get(url).text
    assert "Waiting for Red Elves: choose your race" in alice
    visitor = Client().get(url).text
    assert "choose your race" not in visitor
    assert "Waiting for" not in visitor


def test_a_public_campaign_before_its_start_shows_who_has_joined(cast):
    campaign = make_public(new_campaign(cast, start=False))
    page = Client().get(reverse("campaign:campaign", args=[campaign.slug])).text
    assert "Every kingdom has joined. The campaign starts when its admin starts it." in page
    assert campaign.join_code not in page
    assert Client().get(reverse("campaign:might", args=[campaign.slug])).status_code == 404


@pytest.mark.parametrize("page", READABLE)
def test_a_private_campaign_is_not_readable_by_anyone_outside_it(cast, ended, page):
    Campaign.objects.filter(pk=ended.pk).update(public=False)
    url = reverse(page, args=[ended.slug])
    signed_out = Client().get(url)
    assert signed_out.status_code == 302
    assert signed_out["Location"].startswith(reverse("accounts:sign_in"))
    assert signed_in(Client(), cast["eve"]).get(url).status_code == 404
    assert signed_in(Client(), cast["bob"]).get(url).status_code == 200


def test_an_unknown_campaign_sends_a_visitor_to_sign_in(client):
    response = client.get(reverse("campaign:campaign", args=["nowhere"]))
    assert response.status_code == 302


def test_a_visitor_s_queries_do_not_grow_with_the_campaign(cast):
    short, long = short_and_long(cast)
    for campaign in (short, long):
        make_public(campaign)
    for page in ("campaign:campaign", "campaign:chronicle", "campaign:might"):
        counts = [queries_of(Client(), reverse(page, args=[c.slug]))[0] for c in (short, long)]
        assert counts[0] == counts[1], page


def test_a_public_campaign_s_story_is_the_same_for_a_visitor_as_for_a_player(cast):
    """What a visitor reads of the story is what a player reads: nothing more."""
    campaign = make_public(new_campaign(cast))
    play_until(campaign, cast, at_month(1, 2))
    url = reverse("campaign:might", args=[campaign.slug])

    def table(client: Client) -> list[str]:
        return re.findall(r"<table.*?</table>", client.get(url).text, re.S)

    assert table(Client()) == table(signed_in(Client(), cast["bob"]))
    assert common.latest_snapshot(campaign).number > 1
