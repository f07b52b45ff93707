"""On phones, letters between kingdoms (issue 28): alice writes to bob from the campaign
page; bob, whose page of their letters is open, sees it come without a reload, and answers;
carol, the third player, finds neither their letters nor their page; the herald's
proclamation is every member's."""

import re

import pytest
from playwright.sync_api import expect
from pytest_django import Settings

from accounts.models import User
from campaign.models import Correspondence
from tests.battles.conftest import make_league
from tests.campaign.helpers import LEAGUE_CAST, make_cast
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_cast(LEAGUE_CAST, password="demo")


def test_two_players_exchange_letters_that_a_third_never_sees(
    browser, live_server, cast, screenshot
):
    league = make_league(cast)
    base = f"{live_server.url}/c/{league.slug}"

    # alice writes to bob from the campaign page
    alice = sign_in(browser, live_server, "alice")
    alice.goto(f"{base}/")
    alice.get_by_role("navigation", name="This campaign").get_by_role(
        "link", name="Letters"
    ).click()
    alice.get_by_label("Brightwater").check()
    alice.get_by_label("Your letter").fill("Neighbour, keep to your side of the river?")
    screenshot(alice, "letters-alice-writes")
    alice.get_by_role("button", name="Send the letter").click()
    expect(alice.locator("ul.messages")).to_contain_text("Your letter is sent.")
    expect(alice.get_by_role("heading", level=1)).to_have_text("Aldermark, Brightwater")
    page_url = alice.url

    # bob is told on his home page, and keeps their letters open
    bob = sign_in(browser, live_server, "bob")
    expect(bob.locator("p.unread")).to_contain_text("1 unread letter")
    bob.locator("p.unread").get_by_role("link").click()
    bob.get_by_role("link", name="Aldermark, Brightwater").click()
    expect(bob.locator("#letters")).to_contain_text("keep to your side of the river")

    # alice writes again: bob's open page shows it without a reload
    alice.get_by_label("Your letter").fill("Answer soon: the summer is short.")
    alice.get_by_role("button", name="Send the letter").click()
    expect(alice.locator("ul.messages")).to_contain_text("Your letter is sent.")
    expect(bob.locator("#letters")).to_contain_text("Answer soon: the summer is short.")
    screenshot(bob, "letters-bob-sees-it-come")
    bob.get_by_label("Your letter").fill("A pact, until the winter.")
    bob.get_by_role("button", name="Send the letter").click()
    expect(alice.locator("#letters")).to_contain_text("A pact, until the winter.")

    # carol sees neither their letters nor their page
    carol = sign_in(browser, live_server, "carol")
    carol.goto(f"{base}/letters/")
    expect(carol.locator("main")).to_contain_text("No letters yet.")
    expect(carol.locator("main")).not_to_contain_text("Brightwater, Aldermark")
    response = carol.goto(page_url)
    assert response is not None
    assert response.status == 404
    expect(carol.locator("body")).not_to_contain_text("keep to your side")

    # the herald's proclamation is every member's, carol's too
    carol.goto(f"{base}/letters/")
    carol.get_by_label(re.compile("Everyone, through the herald")).check()
    carol.get_by_label("Your letter").fill("Hear ye: a tourney at Carrowmoor!")
    carol.get_by_role("button", name="Send the letter").click()
    expect(carol.locator("ul.messages")).to_contain_text("Your letter is sent.")
    herald = Correspondence.objects.get(campaign=league, key="herald")
    alice.goto(f"{base}/letters/{herald.pk}/")
    expect(alice.locator("#letters")).to_contain_text("a tourney at Carrowmoor")
    screenshot(alice, "letters-herald")
