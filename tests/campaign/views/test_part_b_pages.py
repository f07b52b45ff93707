"""Options yearly_event (OW15) and milestones (OW12 to OW14) in the app: a group chooses
them when creating a campaign, the rules page tells them, each kingdom's winter page tells
the year's die first, and a kingdom page its might by source and its milestones."""

import html

import pytest
from django.test import Client
from django.urls import reverse

from campaign.rules.fileformat import dump_campaign, parse_campaign
from campaign.rules.scoring import scores
from campaign.services import admin, common
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


def test_a_kingdom_page_tells_its_might_by_source_and_the_milestones_it_holds(client, cast):
    """Option milestones (OW14): alice's kingdom page breaks her might down by source and
    names the milestones she holds (the admin's correction gives her 3 tabletop wins and
    the Warlord); the new-campaign form offers the option."""
    campaign = new_campaign(cast, options={"milestones": True})
    play_until(campaign, cast, at_step("orders"))
    alice = common.kingdom_of(campaign, cast["alice"])
    data = common.latest_snapshot(campaign).data
    red = next(k for k in data["kingdoms"] if k["id"] == alice)
    red["milestones"], red["pitched_wins"] = ["warlord"], 3
    state = parse_campaign(data)
    admin.campaign_correct(
        campaign=campaign,
        actor=cast["gm"],
        reason="the tabletop wins of the first league",
        data=dump_campaign(state, scores(state)),
        what="resources",
    )

    page = html.unescape(
        signed_in(client, cast["alice"]).get(reverse("campaign:kingdom", args=[campaign.slug])).text
    )

    assert "By source: settlements" in page
    assert "tabletop wins 3, milestones 2." in page
    assert "Held: Warlord (+2)." in page
    form = html.unescape(signed_in(Client(), cast["gm"]).get(reverse("campaign:new")).text)
    assert 'name="milestones"' in form
