"""On phones: four people who have never used the app start a campaign. mira signs up from
the home page, creates a campaign on a generated map she previews first, and copies its
invitation link (and sends it to cy by e-mail, through the outbox); ann, ben and cy open
the link, sign up from the sign-in page it sends
them to, and each takes a kingdom; mira starts the campaign, and each of them is told by
e-mail to choose a race. Each follows the e-mail's link, chooses a race and marks it ready;
once all have, the first in player order is told by e-mail to choose a capital. So on
through the setup, each following the newest e-mail's link to what is asked of them, until
each is told to give the first month's orders."""

import re
from collections.abc import Callable

import pytest
from django.core import mail
from playwright.sync_api import Browser, BrowserContext, Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from campaign.models import Campaign
from campaign.services import common
from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "shield-wall-at-noon"
KINGDOMS = {"ann": ("Ashmoor", "#2e6fd1", "A"), "ben": ("Bramble", "#2e9e4f", "B")}
KINGDOMS["cy"] = ("Cinderfell", "#d4a017", "C")


def phone(browser: Browser) -> BrowserContext:
    context = browser.new_context(**PHONE)
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    return context


def sign_up(page: Page, username: str) -> None:
    """On the sign-up page: a username, an e-mail and the password twice."""
    page.get_by_label("Username").fill(username)
    page.get_by_label("E-mail").fill(f"{username}@example.org")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()


MOST_SETUP_STEPS = 12


def player_of(campaign: Campaign, kingdom: str) -> str:
    return str(campaign.memberships.get(kingdom=kingdom).user.get_username())


def mails_to(username: str) -> list[mail.EmailMessage]:
    return [m for m in mail.outbox if m.to == [f"{username}@example.org"]]


def newest_subject(username: str) -> str:
    return str(mails_to(username)[-1].subject)


def newest_link(username: str) -> str:
    """The link of the newest e-mail to the user: the page of what is asked now."""
    return told(username, "")


def choose_at_setup(page: Page, kind: str) -> None:
    """The first tile the setup page offers for a capital or the first army, or the first
    free one for each settlement in turn; then Ready."""
    board = page.locator("#setup-board")
    if kind == "settlements":
        for placed, slot in enumerate(("City", "Fortress", "First village", "Second village")):
            page.get_by_role("radio", name=re.compile(slot)).check()
            page.locator(".setup-choices button:not(.holds)").first.click()  # a free tile
            expect(board.locator(".setup-plan")).not_to_contain_text(f"{slot}: not placed")
            # htmx settles a swapped button's class a moment after its text: wait for it
            expect(board.locator(".setup-choices button.holds")).to_have_count(placed + 1)
    else:
        page.locator(".setup-choices button").first.click()
        expect(board).to_contain_text("Your capital:" if kind == "capital" else "Your first army:")
    page.get_by_role("button", name="Ready", exact=True).click()
    expect(page.get_by_role("button", name="Ready", exact=True)).to_have_count(0)


def told(username: str, about: str) -> str:
    """The link of the newest e-mail to the user whose subject speaks of `about`."""
    mails = [m for m in mail.outbox if m.to == [f"{username}@example.org"]]
    found = [m for m in mails if about in m.subject.lower()]
    assert found, f"{username} was not told of {about}: {[m.subject for m in mails]}"
    link = re.search(r"^(http\S+)$", str(found[-1].body), re.M)
    assert link is not None, found[-1].body
    return link.group(1)


def test_four_newcomers_start_a_campaign_from_a_shared_link(
    browser: Browser,
    live_server: LiveServer,
    eager: None,
    settings: Settings,
    screenshot: Callable[[Page, str], object],
) -> None:
    settings.SITE_URL = live_server.url  # the links of the e-mails
    # mira signs up from the home page and starts a campaign on a generated map
    mira = phone(browser).new_page()
    mira.goto(f"{live_server.url}/")
    mira.locator("section.hero").get_by_role("link", name="Sign up").click()
    sign_up(mira, "mira")
    expect(mira.locator("ul.messages")).to_contain_text("Welcome, mira")
    mira.get_by_role("link", name="Start a new campaign").click()
    mira.locator("#id_name").fill("Spring League")
    mira.get_by_label("A generated map").check()
    mira.locator("#id_kingdoms").fill("3")
    mira.get_by_role("button", name="Preview").click()
    expect(mira.locator("#map-preview")).to_contain_text("A generated map of")
    expect(mira.locator("#map-preview svg")).to_be_visible()
    screenshot(mira, "start-new-campaign-preview")
    mira.get_by_role("button", name="Create the campaign").click()

    # On her dashboard she copies the invitation link
    link = mira.get_by_label("Invitation link")
    expect(link).to_have_value(re.compile(r"/join/"))
    mira.get_by_role("button", name="Copy").click()
    invitation = mira.evaluate("navigator.clipboard.readText()")
    assert invitation == link.input_value()
    assert invitation.startswith(live_server.url)
    screenshot(mira, "start-dashboard-invitation")
    # and sends it to cy by e-mail too: queued in the outbox, sent by the worker, and the
    # dashboard's Notifications section (loaded by htmx) counts it
    mira.get_by_label("E-mail addresses, one a line").fill("cy@example.org")
    mira.get_by_role("button", name="Send the invitations").click()
    expect(mira.locator("#board ul.messages")).to_contain_text(
        "The invitation to cy@example.org is queued"
    )
    expect(mira.locator("#notification-desk")).to_contain_text("Messages: 1 sent, 0 waiting.")
    (invited,) = mails_to("cy")
    assert invitation in invited.body

    # Three others open the link, sign up on the way, and each takes a kingdom
    players: dict[str, Page] = {}
    for username, (name, colour, letter) in KINGDOMS.items():
        page = players[username] = phone(browser).new_page()
        page.goto(invitation)
        page.locator("#main").get_by_role("link", name="Sign up").click()
        sign_up(page, username)
        expect(page.get_by_role("heading", name=re.compile("Spring League"))).to_be_visible()
        page.get_by_label("Your kingdom's name").fill(name)
        page.get_by_label("Its colour").fill(colour)
        page.get_by_label("Its heraldry letter").fill(letter)
        if username == "ann":
            screenshot(page, "start-join")
        page.get_by_role("button", name="Take this kingdom").click()
        expect(page.locator("ul.messages")).to_contain_text(name)

    # mira starts the campaign; each player is asked for a race, by e-mail too
    mira.reload()
    mira.get_by_role("button", name="Start the campaign").click()
    expect(mira.locator("ul.messages")).to_contain_text("started")
    campaign = Campaign.objects.get(name="Spring League")
    assert campaign.status == Campaign.Status.RUNNING

    # Each follows the e-mail to the setup page, chooses a race and marks it ready
    for race, (username, page) in zip(("Elves", "Dwarfs", "Ogres"), players.items(), strict=True):
        page.goto(told(username, "race"))
        page.get_by_label("Race", exact=True).select_option(race)
        page.get_by_role("button", name="Choose this race").click()
        # its words, not the list of races (which holds every race from the start)
        expect(page.locator("#setup-board")).to_contain_text(f"Your race: {race}")
        page.get_by_role("button", name="Ready").click()
        expect(page.locator("#setup-board")).to_contain_text(
            re.compile(f"Your race: {race} \\(ready\\)|The kingdoms' races")
        )
        if username == "ann":
            screenshot(page, "start-race-chosen")
    for page in players.values():
        expect(page.locator("#setup-board")).to_contain_text("capital", timeout=20_000)

    # The rest of the setup, each step as its e-mail asks: capitals one kingdom at a time,
    # then the settlements and the first army; each player follows the newest e-mail
    for _ in range(MOST_SETUP_STEPS):
        data = common.latest_snapshot(campaign).data
        if data["clock"]["season"] != "setup":
            break
        for asked in data["pending"]:
            username = player_of(campaign, asked["kingdom"])
            page = players[username]
            page.goto(newest_link(username))
            choose_at_setup(page, asked["kind"])
            if username == "ann":
                screenshot(page, f"start-setup-{asked['kind']}")
    data = common.latest_snapshot(campaign).data
    assert (data["clock"]["season"], data["clock"]["month"]) == ("summer", 1)
    for username, page in players.items():
        assert "orders" in newest_subject(username).lower()
        page.goto(newest_link(username))
        expect(page.get_by_role("heading", name=re.compile("Orders"))).to_be_visible()
    screenshot(players["ann"], "start-first-orders")
