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
from campaign.services import letters
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
    bob.go_back()  # Back after the post: the letters as they are, nothing left to send twice
    expect(bob.locator("#letters")).to_contain_text("A pact, until the winter.")
    expect(bob.get_by_label("Your letter")).to_have_value("")

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


# What a browser tab in the background, or a phone's locked screen, tells its page.
HIDE = """() => {
  Object.defineProperty(document, "visibilityState", {value: "hidden", configurable: true});
  Object.defineProperty(document, "hidden", {value: true, configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
SHOW = """() => {
  delete document.visibilityState;
  delete document.hidden;
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_letters_open_in_a_hidden_tab_are_not_polled_and_come_at_once_when_shown(
    browser, live_server, cast, settings
):
    """bob keeps their letters open in a tab he does not look at: it asks the server
    nothing. Shown again, it asks at once and shows what alice wrote meanwhile."""
    league = make_league(cast)
    write = letters.letter_write
    first = write(campaign=league, user=cast["alice"], to=["brightwater"], text="Are you there?")
    bob = sign_in(browser, live_server, "bob")
    bob.goto(f"{live_server.url}/c/{league.slug}/letters/{first.correspondence_id}/")
    expect(bob.locator("#letters")).to_contain_text("Are you there?")
    polls: list[str] = []
    bob.on("request", lambda r: polls.append(r.url) if r.headers.get("hx-request") else None)

    bob.evaluate(HIDE)
    polls.clear()
    bob.wait_for_timeout(2_500)  # two polls' time and more
    write(campaign=league, user=cast["alice"], to=["brightwater"], text="Hello?")
    bob.wait_for_timeout(1_500)
    assert polls == []
    expect(bob.locator("#letters")).not_to_contain_text("Hello?")
    bob.evaluate(SHOW)
    expect(bob.locator("#letters")).to_contain_text("Hello?")

    # With polls a minute apart, only being shown again can bring a letter this soon.
    settings.POLL_SECONDS = 60
    bob.reload()
    expect(bob.locator("#letters")).to_have_attribute(
        "hx-trigger", "every 60s, shown from:document"
    )
    bob.evaluate(HIDE)
    write(campaign=league, user=cast["alice"], to=["brightwater"], text="Answer me!")
    bob.evaluate(SHOW)
    expect(bob.locator("#letters")).to_contain_text("Answer me!", timeout=3_000)
