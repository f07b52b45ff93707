"""On phones, option marauders (issue 38): the gm creates a campaign with the four options
of part B from the new-campaign page, the horde's race chosen there; once alice and bob have
joined, the gm names bob the marauders' general on the dashboard and starts it. When alice's
army meets the horde, bob finds the battle among his own, reports that the marauders won
(no concession is offered to the horde), and alice confirms it on the card.

The players join and the battle is set up through the services; the gm and the players
click in Chromium."""

import re

import pytest
from playwright.sync_api import expect
from pytest_django import Settings

from accounts.models import User
from battles.models import Battle
from campaign.services import common
from tests.campaign.helpers import make_cast
from tests.campaign.views.test_marauder_pages import horde_battle
from tests.e2e.conftest import created_with_options, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

PART_B = ("marauders", "roads", "milestones", "yearly_event")


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    """gm, alice and bob; each with the password `demo`."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_cast(password="demo")


def test_a_campaign_with_marauders_whose_general_bob_reports_for_the_horde(
    browser, live_server, cast, screenshot, eager_tasks
):
    gm = sign_in(browser, live_server, "gm")
    campaign = created_with_options(gm, "Horde League", PART_B, race="Orcs")

    gm.reload()
    section = gm.locator("#general")
    expect(section).to_contain_text("now the admin")
    section.get_by_label("The marauders' general").select_option(label="Blue Dwarfs (bob)")
    section.get_by_role("button", name="Choose the general").click()
    expect(gm.locator("#general")).to_contain_text("now Blue Dwarfs (bob)")
    screenshot(gm, "marauders-general")
    gm.get_by_role("button", name="Start the campaign").click()
    expect(gm.locator("ul.messages")).to_contain_text("The campaign has started")
    campaign.refresh_from_db()
    assert campaign.options["marauder_general"] == common.kingdom_of(campaign, cast["bob"])

    horde_battle(campaign, cast)
    battle = Battle.objects.get(campaign=campaign)

    bob = sign_in(browser, live_server, "bob")
    bob.goto(f"{live_server.url}/c/{campaign.slug}/battles/?show=mine")
    row = bob.locator("main").get_by_text("against the marauding Orcs")
    expect(row).to_be_visible()
    bob.get_by_role("link", name=re.compile("^Battle ")).first.click()
    expect(bob.locator("main")).to_contain_text("Defence 4")
    expect(bob.locator("main")).to_contain_text("The marauders never concede")
    expect(bob.get_by_text("Concede the field instead")).to_have_count(0)
    bob.locator("input[name=outcome][value=marauders]").check()
    bob.get_by_role("button", name="Report", exact=True).click()
    expect(bob.locator("main")).to_contain_text("the marauding Orcs won")
    screenshot(bob, "marauders-general-reports")

    alice = sign_in(browser, live_server, "alice")
    alice.goto(f"{live_server.url}/c/{campaign.slug}/battles/{battle.number}/")
    expect(alice.locator("main")).to_contain_text("Reported by the marauding Orcs")
    alice.get_by_role("button", name="Confirm this result").click()
    expect(alice.locator("main")).not_to_contain_text("Waiting for you: confirm")
    screenshot(alice, "marauders-confirmed")
    data = common.latest_snapshot(campaign).data
    fought = next(b for b in data["battles"] if b["hex"] == battle.hex)
    assert fought["winner"] == "marauders"
