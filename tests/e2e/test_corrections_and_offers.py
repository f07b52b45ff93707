"""On phones, two admin acts that reach a player (issue 26): a correction that makes a
player's drafted order illegal is said on the player's orders page, which lets them order
again and be ready; and a kingdom under way is offered, not handed: the person offered it
finds the offer on their home page and rules the kingdom once they accept.

Each game is made through the services; the admin and the player click in Chromium."""

import re

import pytest
from playwright.sync_api import expect
from pytest_django import Settings

from accounts.models import User
from campaign.models import Membership
from campaign.services import common
from campaign.words import names_of
from tests.campaign.helpers import a_move_drafted, at_step, make_cast, play_until
from tests.e2e.conftest import sign_in
from tests.e2e.test_no_traps import KINGDOMS, four_kingdoms
from tests.notifications.notifying import with_addresses

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    """gm, the four players and erin, who plays nowhere; each with the password `demo`."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return with_addresses(make_cast(("gm", *KINGDOMS, "erin"), password="demo"))


def test_a_correction_that_breaks_an_order_is_said_on_the_orders_page(
    browser, live_server, cast, screenshot
):
    campaign = four_kingdoms(cast)
    play_until(campaign, cast, at_step("orders"))
    army, far = a_move_drafted(campaign, cast["alice"])

    # the gm moves alice's army far away on the dashboard, and is told what that did
    gm = sign_in(browser, live_server, "gm")
    gm.goto(f"{live_server.url}/c/{campaign.slug}/dashboard/#corrections")
    gm.locator("#army-army").select_option(army)
    gm.locator("#army-hex").fill(f"{far[0]}, {far[1]}")
    gm.locator("#army-reason").fill("It stood on the wrong tile")
    gm.get_by_role("button", name="Correct the army").click()
    named = names_of(common.latest_snapshot(campaign).data, campaign.gazetteer).unit(army)
    expect(gm.locator("ul.messages")).to_contain_text(
        f"Aldermark's order for {named} no longer stands"
    )
    screenshot(gm, "correction-told-to-the-admin")

    # alice's orders page says which order no longer stands; she orders the army again
    alice = sign_in(browser, live_server, "alice")
    alice.goto(f"{live_server.url}/c/{campaign.slug}/orders/")
    stale = alice.locator(".no-longer-stands")
    expect(stale).to_contain_text(f"Your order for {named} no longer stands")
    expect(alice.locator(".no-longer")).to_have_text("no longer stands")
    screenshot(alice, "correction-order-no-longer-stands")
    alice.locator(".unit-name", has_text=named).first.click()
    alice.get_by_role("button", name=re.compile("^Defend")).click()
    expect(stale).to_have_count(0)
    alice.get_by_role("button", name="Ready", exact=True).click()
    expect(alice.locator("#orders-status")).to_contain_text("Your orders are ready")
    screenshot(alice, "correction-ordered-again")


def test_a_kingdom_is_offered_and_changes_hands_when_accepted(
    browser, live_server, cast, screenshot
):
    campaign = four_kingdoms(cast)

    gm = sign_in(browser, live_server, "gm")
    gm.goto(f"{live_server.url}/c/{campaign.slug}/dashboard/")
    gm.get_by_text("Hand a kingdom over…").click()
    gm.locator("#hand-over-kingdom").select_option(label="Carrowmoor")
    gm.locator("#hand-over-username").fill("erin")
    gm.locator("#hand-over-reason").fill("carol has moved away")
    gm.get_by_role("button", name="Offer the kingdom").click()
    expect(gm.locator("ul.messages")).to_contain_text("Carrowmoor is offered to erin")
    expect(gm.locator("ul.offers")).to_contain_text("Carrowmoor to erin")
    screenshot(gm, "offer-made")
    assert Membership.objects.get(campaign=campaign, kingdom="carrowmoor").user == cast["carol"]

    erin = sign_in(browser, live_server, "erin")
    offers = erin.get_by_role("region", name="Offered to you")
    expect(offers).to_contain_text("offers you the kingdom of Carrowmoor in Four Winds")
    screenshot(erin, "offer-on-the-home-page")
    offers.get_by_role("button", name="Accept Carrowmoor").click()
    expect(erin.locator("ul.messages")).to_contain_text("You rule Carrowmoor from now on.")
    expect(erin.get_by_text("My kingdom: Carrowmoor")).to_be_visible()
    screenshot(erin, "offer-accepted")
    assert Membership.objects.get(campaign=campaign, kingdom="carrowmoor").user == cast["erin"]
