"""On phones, the book of army lists (issue 28): before their battle is played, alice and
bob each write a list in their book and attach it to the battle's card; alice sees bob's
only once both are in, so nobody writes a counter-list; carol, who plays in the campaign
but not in the battle, sees neither until the result is in."""

import pytest
from playwright.sync_api import Page, expect
from pytest_django import Settings

from accounts.models import User
from tests.battles.conftest import hand_off, make_league
from tests.campaign.helpers import LEAGUE_CAST, make_cast
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)

ALICE_LIST = "Elf Spearmen (Horde) 185\nPalace Guard (Regiment) 150\nArchers (Troop) 80"
BOB_LIST = "Ironclad (Horde) 170\nShieldbreakers (Regiment) 145\nIronwatch (Troop) 85"


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_cast(LEAGUE_CAST, password="demo")


def write_and_attach(page: Page, base: str, card: str, name: str, text: str) -> None:
    """In the book, a 500-point list; then, on the card, attached to the battle."""
    page.goto(f"{base}/")
    page.get_by_role("navigation", name="This campaign").get_by_role(
        "link", name="My lists"
    ).click()
    page.get_by_label("Name").fill(name)
    page.get_by_label("Points").fill("500")
    page.get_by_label("The list").fill(text)
    page.get_by_role("button", name="Put it in my book").click()
    expect(page.locator("main")).to_contain_text(name)
    page.go_back()  # Back after the post: the book with the list, its form empty again
    expect(page.locator("main")).to_contain_text(name)
    expect(page.get_by_label("The list")).to_have_value("")
    page.goto(card)
    page.get_by_role("button", name="Attach this list").click()
    expect(page.locator("ul.messages")).to_be_visible()


def test_two_players_attach_lists_revealed_to_each_other_only_when_both_are_in(
    browser, live_server, cast, screenshot
):
    league = make_league(cast)
    battle = hand_off(league, cast)
    assert battle is not None
    base = f"{live_server.url}/c/{league.slug}"
    card = f"{base}/battles/{battle.number}/"

    alice = sign_in(browser, live_server, "alice")
    write_and_attach(alice, base, card, "Spears of Aldermark", ALICE_LIST)
    lists = alice.locator("section.army-lists")
    expect(lists).to_contain_text("Only you see it until your opponent has attached theirs.")
    expect(lists).to_contain_text("Elf Spearmen (Horde) 185")

    # bob sees that alice has attached a list, not what it is
    bob = sign_in(browser, live_server, "bob")
    bob.goto(card)
    expect(bob.locator("section.army-lists")).to_contain_text("A list is attached")
    expect(bob.locator("body")).not_to_contain_text("Elf Spearmen")
    screenshot(bob, "lists-one-attached")
    write_and_attach(bob, base, card, "Ironclad wall", BOB_LIST)

    # both are in: each sees the other's
    expect(bob.locator("section.army-lists")).to_contain_text("Elf Spearmen (Horde) 185")
    alice.goto(card)
    expect(alice.locator("section.army-lists")).to_contain_text("Ironclad (Horde) 170")
    screenshot(alice, "lists-both-attached")

    # carol, not in the battle, sees neither before the result is in
    carol = sign_in(browser, live_server, "carol")
    carol.goto(card)
    expect(carol.locator("body")).not_to_contain_text("Elf Spearmen")
    expect(carol.locator("body")).not_to_contain_text("Ironclad (Horde)")
