"""On phones, the optional rules of part A (issue 27): the gm creates a campaign with the
four on from the new-campaign page; alice sends a hero on a quest to a Wizard's tower beside
her lands, learns what he found, and places the artefact by tapping her army on the map,
which only she sees; at a battle's card alice reports the artefact she took from bob's
army, bob confirms, and it is hers.

Each game is made through the services; the gm and the players click in Chromium."""

import copy
import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from pytest_django import Settings

from accounts.models import User
from campaign.models import Campaign
from campaign.rules.hexmap import neighbours
from campaign.rules.options import OPTION_ROWS
from campaign.services import admin, common
from campaign.words import names_of
from tests.campaign.helpers import (
    at_step,
    hand_off_a_battle,
    kingdom_of,
    make_cast,
    new_campaign,
    play_until,
)
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)

PART_A = ("army_limits", "wizards", "common_deck", "sieges")
Json = dict[str, Any]


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    """gm, alice (Red Elves) and bob (Blue Dwarfs); each with the password `demo`."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_cast(password="demo")


def test_the_gm_creates_a_campaign_with_the_four_options_of_part_a(
    browser, live_server, cast, screenshot
):
    gm = sign_in(browser, live_server, "gm")
    gm.get_by_role("link", name="Start a new campaign").click()
    gm.locator("#id_name").fill("Towers League")
    for name in PART_A:
        gm.get_by_label(OPTION_ROWS[name].label).check()
    gm.get_by_role("button", name="Create the campaign").click()
    # the page first shows the map these choices make, the options still ticked
    expect(gm.locator("ul.messages")).to_contain_text("Here is the map these choices make")
    for name in PART_A:
        expect(gm.get_by_label(OPTION_ROWS[name].label)).to_be_checked()
    screenshot(gm, "options-new-campaign")
    gm.get_by_role("button", name="Create the campaign").click()
    expect(gm.get_by_label("Invitation link")).to_have_value(re.compile(r"/join/"))
    campaign = Campaign.objects.get(name="Towers League")
    assert all(campaign.options[name] is True for name in PART_A)
    # the pool of artefacts is told on the dashboard, editable once started (OA8)
    expect(gm.locator("#artefacts")).to_contain_text("Once you start the campaign you may")
    gm.goto(f"{live_server.url}/c/{campaign.slug}/")
    rules = gm.locator(".optional-rules")
    for name in PART_A:
        expect(rules).to_contain_text(OPTION_ROWS[name].label)
    rules.get_by_role("link", name=OPTION_ROWS["wizards"].label).click()
    expect(gm.locator("#ruling-oa4")).to_contain_text("OA4 Tower roll.")


def a_tower_beside(campaign: Campaign, gm: User, kingdom: str) -> list[int]:
    """The gm corrects the newest snapshot: a Wizard's tower on a free tile next to one of
    the kingdom's. Returns its hex."""
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    own = {tuple(t["hex"]) for t in data["tiles"] if t["owner"] == kingdom}
    taken = {tuple(t["hex"]) for t in data["tiles"]} | {tuple(a["hex"]) for a in data["armies"]}
    tower: list[int] = next(
        t["hex"]
        for t in data["map"]["tiles"]
        if tuple(t["hex"]) not in taken
        and t["terrain"] not in ("ocean", "lake", "marsh")
        and any(n in own for n in neighbours(tuple(t["hex"])))
    )
    data["towers"] = [tower]
    admin.campaign_correct(campaign=campaign, actor=gm, reason="a tower", data=data, what="t")
    return tower


def advance_until(campaign: Campaign, gm: User, step: str) -> Json:
    """The gm's "Advance now", each kingdom not ready taking its deadline's defaults, until
    the winter's `step` waits."""
    for _ in range(6):
        data: Json = common.latest_snapshot(campaign).data
        if data["clock"]["step"] == step:
            return data
        admin.campaign_advance_now(campaign=campaign, actor=gm)
    raise AssertionError(f"the winter did not reach {step}")


def test_a_hero_quests_and_the_artefact_found_is_placed_by_tapping_the_map(
    browser, live_server, cast, screenshot
):
    campaign = new_campaign(cast, options={"wizards": True})
    play_until(campaign, cast, at_step("build"))
    red = kingdom_of(campaign, cast["alice"])
    tower = a_tower_beside(campaign, cast["gm"], red)
    said = names_of(common.latest_snapshot(campaign).data, campaign.gazetteer)
    spot = said.at(tower)

    # alice sends Ser Brand, 1000 points: a die + 10 finds an artefact of 35 to 50 points
    alice = sign_in(browser, live_server, "alice")
    alice.goto(f"{live_server.url}/c/{campaign.slug}/winter/")
    alice.get_by_label(f"Hero sent to the tower {spot}").fill("Ser Brand")
    alice.get_by_label("His points").fill("1000")
    alice.get_by_role("button", name="Send on a quest").click()
    winter = alice.locator("#winter")
    expect(winter.locator("ol.listed")).to_contain_text("Ser Brand")
    expect(winter.locator(".forecast")).to_contain_text(
        f"Ser Brand goes on a quest to the Wizard's tower {spot}: a die decides what he finds."
    )
    screenshot(alice, "wizards-quest-listed")
    alice.get_by_role("button", name="Ready", exact=True).click()
    expect(alice.get_by_role("heading", name="Ready")).to_be_visible()

    # the gm moves the winter on to the deployment; alice's ledger tells what was found
    data = advance_until(campaign, cast["gm"], "deploy")
    (found,) = [a for a in data["artefacts"] if a["holder"] and a["holder"]["kingdom"] == red]
    armies = [a["id"] for a in data["armies"] if a["kingdom"] == red]
    # She opens the winter page again in a new tab: the page she left reloads itself as
    # the winter moves on, and a reload under way would abort her going to it there.
    left = alice
    alice = left.context.new_page()
    left.close()
    alice.goto(f"{live_server.url}/c/{campaign.slug}/winter/")
    winter = alice.locator("#winter")
    expect(winter).to_contain_text(f"finds {found['name']}")
    # she deploys each army by tapping a lit settlement, then taps her first army's tile
    for army in armies:
        alice.locator(f'a.pick[aria-label^="Deploy {said.unit(army)} at"]').first.click()
        expect(winter.locator("ol.listed")).to_contain_text(f"{said.unit(army)} to")
    expect(winter).to_contain_text(f"Tap a lit army or your capital to place {found['name']}.")
    first = said.unit(armies[0])
    alice.locator(f'a.pick[aria-label*="on {first}"]').first.click()
    alice.get_by_role("button", name=f"On {first}").click()
    expect(winter.locator("ol.listed")).to_contain_text(f"{found['name']} on {first}")
    expect(winter).not_to_contain_text("Tap a lit army")  # nothing left to place
    expect(winter.locator(".forecast")).to_contain_text(f"{found['name']} on {first}.")
    screenshot(alice, "wizards-artefact-placed")

    # bob sees which kingdom holds it, never where it is
    bob = sign_in(browser, live_server, "bob")
    bob.goto(f"{live_server.url}/c/{campaign.slug}/")
    bob.get_by_text("Magical artefacts held").click()
    expect(bob.locator(".artefacts-held")).to_contain_text(f"{found['name']}: Red Elves")
    for url in ("", "kingdom/", "winter/", "story/chronicle/"):
        bob.goto(f"{live_server.url}/c/{campaign.slug}/{url}")
        expect(bob.locator("body")).not_to_contain_text(f"on {first}")


def report_captured(page: Page, kingdom_name: str, artefact: str) -> None:
    form = page.get_by_role("region", name="Report the result")
    form.get_by_label(f"{kingdom_name} won").check()
    form.get_by_label(artefact).check()
    form.get_by_role("button", name="Report", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("Your report is in")


def test_the_winner_reports_the_artefact_taken_and_the_loser_confirms_it(
    browser, live_server, cast, eager, screenshot
):
    campaign = new_campaign(cast, options={"wizards": True})
    boots = {"name": "Blue Boots", "points": 30}
    hand_off_a_battle(campaign, cast, artefacts=[
        {**boots, "holder": {"kingdom": "blue-dwarfs", "army": "blue-dwarfs-1"}},
        {"name": "Home Ring", "points": 20, "holder": {"kingdom": "blue-dwarfs", "army": None}},
    ])  # fmt: skip
    card = f"{live_server.url}/c/{campaign.slug}/battles/1/"

    alice = sign_in(browser, live_server, "alice")
    alice.goto(card)
    on_its_armies = "Magical artefacts on its armies: Blue Boots"
    expect(alice.locator("p.note", has_text=on_its_armies)).to_have_count(1)
    expect(alice.locator("body")).not_to_contain_text("Home Ring")  # at bob's capital
    report_captured(alice, "Red Elves", "Blue Boots")
    screenshot(alice, "wizards-captured-reported")

    bob = sign_in(browser, live_server, "bob")
    bob.goto(card)
    expect(bob.locator("body")).to_contain_text("Magical artefacts taken: Blue Boots")
    bob.get_by_role("button", name="Confirm this result").click()
    expect(bob.locator("ul.messages")).to_contain_text("Confirmed: the result goes to the campaign")

    alice.goto(f"{live_server.url}/c/{campaign.slug}/kingdom/")
    expect(alice.locator("body")).to_contain_text("Blue Boots (30 points): on Red Elves' 1st army")
    screenshot(alice, "wizards-captured-held")
