"""On phones, two tabs of one person (issue 35): the admin's second dashboard tab, still
showing the step before, does not advance the campaign again; and setup's Ready in one
tab never founds the capital tapped in another.

Each game is made through the services; the admin and the player click in Chromium."""

import pytest
from playwright.sync_api import expect
from pytest_django import Settings

from accounts.models import User
from campaign.models import Submission
from campaign.services import common
from tests.campaign.helpers import make_cast
from tests.e2e.conftest import sign_in
from tests.e2e.test_no_traps import KINGDOMS, answer_for, four_kingdoms, newest

pytestmark = pytest.mark.django_db(transaction=True)

DRAWN_BEFORE = "The campaign moved on since this page was drawn: here it is as it stands now."


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    """gm and the four players, each with the password `demo` (the sign-in helper's)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_cast(("gm", *KINGDOMS), password="demo")


def test_a_second_dashboard_tab_does_not_advance_the_campaign_again(
    browser, live_server, cast, screenshot
):
    campaign = four_kingdoms(cast)
    gm = sign_in(browser, live_server, "gm")
    dashboard = f"{live_server.url}/c/{campaign.slug}/dashboard/"
    first, second = gm, gm.context.new_page()
    for tab in (first, second):
        tab.goto(dashboard)
        tab.get_by_text("Advance now…").click()

    first.get_by_role("button", name="Yes, advance now").click()
    expect(first.locator("ul.messages")).to_contain_text("Advanced.")
    opened = common.latest_snapshot(campaign)
    assert opened.data["clock"]["step"] == "capitals"

    second.get_by_role("button", name="Yes, advance now").click()
    expect(second.locator("ul.messages")).to_contain_text(f"Nothing was changed. {DRAWN_BEFORE}")
    expect(second.locator("#standing")).to_contain_text(f"Snapshot #{opened.number} ")
    screenshot(second, "two-tabs-second-advance-refused")
    now = common.latest_snapshot(campaign)
    assert now.number == opened.number
    assert now.data["pending"] == opened.data["pending"]  # the capital's turn still open


def test_setup_ready_in_one_tab_never_founds_the_capital_tapped_in_another(
    browser, live_server, cast, eager_tasks, screenshot
):
    campaign = four_kingdoms(cast)
    answer_for(campaign, [cast[name] for name in KINGDOMS], lambda asked: "Elves")
    (asked,) = newest(campaign)["pending"]  # the capitals: one kingdom at a time
    name = next(n for n in KINGDOMS if common.kingdom_of(campaign, cast[n]) == asked["kingdom"])
    setup = f"{live_server.url}/c/{campaign.slug}/setup/"

    tab_a = sign_in(browser, live_server, name)
    tab_a.goto(setup)
    tab_a.locator("svg a.pick-target").first.tap()
    expect(tab_a.locator("svg a.pick-chosen")).to_have_count(1)
    here = tab_a.locator("svg a.pick-chosen").get_attribute("data-hex")
    tab_b = tab_a.context.new_page()
    tab_b.goto(setup)
    tab_b.locator("svg a.pick-target").first.tap()  # another start tile
    expect(tab_b.locator(".setup-notice")).to_contain_text("Your capital:")
    there = tab_b.locator("svg a.pick-chosen").get_attribute("data-hex")
    assert here
    assert there
    assert here != there

    tab_a.get_by_role("button", name="Ready", exact=True).click()

    board = tab_a.locator("#setup-board")
    expect(board).to_contain_text("Your decisions changed in another tab or window")
    q, r = there.split(",")
    expect(board).to_contain_text(f"Your capital: [{q}, {r}].")  # as it stands now
    screenshot(tab_a, "two-tabs-setup-ready-refused")
    [capital] = Submission.objects.filter(campaign=campaign, consumed_by=None)
    assert (capital.payload, capital.ready) == ([int(q), int(r)], False)
    assert newest(campaign)["pending"] == [asked]  # nothing founded
