"""Option yearly_event (OW15) in the app: a group chooses it when creating a campaign, the
rules page tells it, and each kingdom's winter page tells the year's die first."""

import html

import pytest
from django.test import Client
from django.urls import reverse

from campaign.services import common
from tests.campaign.helpers import at_step, new_campaign, play_until, signed_in

pytestmark = pytest.mark.django_db


def test_each_kingdoms_winter_page_tells_the_years_die_before_its_ledger(client, cast):
    campaign = new_campaign(cast, options={"yearly_event": True})
    play_until(campaign, cast, at_step("tithe"))
    data = common.latest_snapshot(campaign).data
    (rolled,) = [e for e in data["events"] if e["type"] == "yearly_event"]
    told = f"The year's die rolled {rolled['dice'][0]}:"
    for player, kingdom in (("alice", "Red Elves"), ("bob", "Blue Dwarfs")):
        page = html.unescape(
            signed_in(Client(), cast[player])
            .get(reverse("campaign:winter", args=[campaign.slug]))
            .text
        )
        assert told in page
        assert page.index(told) < page.index(f"{kingdom}'s ledger")


def test_the_rules_page_and_the_new_campaign_form_tell_the_yearly_event(client, cast):
    rules = html.unescape(client.get(reverse("campaign:rules")).text)
    assert 'id="ruling-ow15"' in rules
    assert "The year's die." in rules
    form = html.unescape(signed_in(client, cast["gm"]).get(reverse("campaign:new")).text)
    assert "The yearly event" in form
    assert 'name="yearly_event"' in form
