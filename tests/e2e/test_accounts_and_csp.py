"""On a phone: a new player signs up from the home page and finds the settings page with
their browser's time zone picked; then the demo players use the map, the orders page, the
winter page, the battle card and the admin's pages, and no page breaks the Content
Security Policy (Chromium tells each violation in the console)."""

import re
from collections.abc import Callable

import pytest
from django.core import mail
from playwright.sync_api import Browser, Page, expect
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from campaign.models import Campaign
from campaign.services import common
from tests.e2e.conftest import PHONE, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def watch(page: Page) -> list[str]:
    """What the page complains of: each violation of the Content Security Policy that
    Chromium tells in the console, and each uncaught script error."""
    problems: list[str] = []
    page.on(
        "console",
        lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
    )
    page.on("pageerror", lambda error: problems.append(str(error)))
    return problems


def test_the_watch_sees_a_csp_violation(browser: Browser, live_server: LiveServer) -> None:
    page = browser.new_context(**PHONE).new_page()
    problems = watch(page)
    page.goto(f"{live_server.url}/rules/")
    page.evaluate(
        "document.head.insertAdjacentHTML('beforeend', '<style>body { color: red }</style>')"
    )
    page.wait_for_timeout(100)
    assert any("Content Security Policy" in p for p in problems), problems


def test_a_visitor_signs_up_and_the_settings_page_guesses_their_time_zone(
    browser: Browser, live_server: LiveServer, screenshot: Callable[[Page, str], object]
) -> None:
    page = browser.new_context(**PHONE, timezone_id="Pacific/Auckland").new_page()
    problems = watch(page)
    page.goto(f"{live_server.url}/")
    page.locator("section.hero").get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("mira")
    page.get_by_label("E-mail").fill("mira@example.org")
    page.get_by_label("Password:", exact=True).fill("heavy-cavalry-at-dawn")
    page.get_by_label("Password confirmation").fill("heavy-cavalry-at-dawn")
    # the time zone is asked at sign-up, the browser's picked already
    expect(page.get_by_label("Time zone")).to_have_value("Pacific/Auckland")
    expect(page.get_by_text("Picked from your browser")).to_be_visible()
    screenshot(page, "accounts-sign-up")
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("ul.messages")).to_contain_text("Welcome, mira")
    page.get_by_role("link", name="mira (settings)").click()
    expect(page.get_by_label("Time zone")).to_have_value("Pacific/Auckland")  # kept
    screenshot(page, "accounts-settings")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("Pacific/Auckland")
    assert User.objects.get(username="mira").time_zone == "Pacific/Auckland"
    page.get_by_role("link", name="Close my account…").click()
    screenshot(page, "accounts-close")
    assert problems == []


def test_no_page_breaks_the_content_security_policy(browser, live_server, demo):
    alice = sign_in(browser, live_server, "alice")
    problems = watch(alice)
    # The campaign map: panzoom and map.js move it with styles set from script
    alice.goto(f"{live_server.url}/c/demo/")
    alice.get_by_role("button", name="Zoom in").tap()
    # A hex: her capital, where the map opens (a click on the frame's middle once found no
    # hex there, on a busy CI machine)
    campaign = Campaign.objects.get(slug="demo")
    mine = common.kingdom_of(campaign, User.objects.get(username="alice"))
    data = common.latest_snapshot(campaign).data
    q, r = next(k["capital"] for k in data["kingdoms"] if k["id"] == mine)
    alice.locator(f'.map-frame g.hex[data-hex="{q},{r}"]').tap(force=True)
    expect(alice.locator(".hex-details")).not_to_contain_text("Tap a hex")
    # The orders page: htmx swaps the map and the list as she taps
    alice.goto(f"{live_server.url}/c/demo/orders/")
    alice.locator("a.pick-unit").first.tap()
    alice.wait_for_selector("a.pick-target")
    alice.locator("a.pick-target").first.tap()
    alice.get_by_text("1 of 1 unit ordered.").wait_for()
    for path in (
        "/",
        "/c/demo/kingdom/",
        "/c/demo/story/might/",
        "/c/demo/story/chronicle/",
        "/c/demo-winter/winter/",
        "/c/demo-battle/battles/",
        "/c/demo-battle/battles/1/",
        "/c/demo-ended/story/end/",
        "/accounts/settings/",
        "/accounts/settings/password/",
        "/new/",
        f"/join/{Campaign.objects.get(slug='demo').join_code}/",
    ):
        alice.goto(f"{live_server.url}{path}")
        alice.wait_for_load_state("networkidle")
    # A new campaign's generated map, previewed by htmx
    alice.goto(f"{live_server.url}/new/")
    alice.get_by_role("button", name="Preview").click()
    alice.get_by_label("The generated map", exact=True).wait_for()
    assert problems == []

    gm = sign_in(browser, live_server, "gm")
    problems = watch(gm)
    for path in (
        "/c/demo/dashboard/",
        "/c/demo/notifications/",
        "/notifications/",
        "/admin/",
        "/admin/campaign/campaign/",
        "/admin/accounts/user/",
    ):
        gm.goto(f"{live_server.url}{path}")
        gm.wait_for_load_state("networkidle")
    assert problems == []


def test_a_player_resets_a_forgotten_password_and_signs_in_by_e_mail(
    browser: Browser,
    live_server: LiveServer,
    screenshot: Callable[[Page, str], object],
    eager: None,  # the reset e-mail is the worker's (accounts.tasks): at once, here
) -> None:
    User.objects.create_user("mira", "mira@example.org", "heavy-cavalry-at-dawn")
    page = browser.new_context(**PHONE).new_page()
    problems = watch(page)
    page.goto(f"{live_server.url}/accounts/sign-in/")
    for _ in range(5):
        page.get_by_label("Username or e-mail").fill("mira")
        page.get_by_label("Password").fill("light-cavalry-at-dusk")
        page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Too many tries")).to_be_visible()
    expect(page.locator("main")).to_contain_text("paused for 15 minutes")
    screenshot(page, "accounts-locked-out")
    page.get_by_role("link", name="reset your password by e-mail").click()
    page.get_by_label("Email").fill("Mira@Example.org")
    screenshot(page, "accounts-password-reset")
    page.get_by_role("button", name="Send the link").click()
    expect(page.get_by_role("heading", name="Check your e-mail")).to_be_visible()
    (message,) = mail.outbox
    link = re.search(r"http://\S+", str(message.body))
    assert link
    page.goto(link.group(0))
    page.get_by_label("New password:", exact=True).fill("siege-engines-at-noon")
    page.get_by_label("New password confirmation").fill("siege-engines-at-noon")
    screenshot(page, "accounts-new-password")
    page.get_by_role("button", name="Save the new password").click()
    expect(page.locator("main")).to_contain_text("You are signed in as mira.")
    page.get_by_role("button", name="Sign out").click()
    page.get_by_role("banner").get_by_role("link", name="Sign in").click()
    page.get_by_label("Username or e-mail").fill("mira@example.org")
    page.get_by_label("Password").fill("siege-engines-at-noon")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="My campaigns").wait_for()
    assert problems == []
