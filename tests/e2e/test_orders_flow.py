"""Two players (alice and dave) give their orders on the demo campaign on a phone, one
changes an order and marks ready, the admin advances, and both see the month report and
the moved armies."""

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from campaign.models import Campaign
from campaign.services import common
from campaign.words import names_of
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def open_orders(page: Page) -> None:
    page.get_by_role("link", name="Demo", exact=True).click()
    page.get_by_role("link", name="Give your orders").click()
    page.wait_for_selector("a.pick-unit")


def newest(campaign: Campaign) -> dict[str, Any]:
    data: dict[str, Any] = common.latest_snapshot(campaign).data
    return data


def test_two_players_order_the_admin_advances_and_both_see_what_happened(
    browser, live_server, demo, screenshot
):
    campaign = Campaign.objects.get(slug="demo")
    before = newest(campaign)
    month = before["clock"]["month"]
    alice = sign_in(browser, live_server, "alice")
    open_orders(alice)
    alice.locator("a.pick-unit").first.tap()
    alice.wait_for_selector("a.pick-target")
    screenshot(alice, "orders-alice-unit-chosen")
    alice.locator("a.pick-target").first.tap()
    alice.get_by_text("1 of 1 unit ordered.").wait_for()
    # she changes her mind: the army defends instead
    alice.locator("a.pick-unit").first.tap()
    alice.get_by_role("button", name="Defend").tap()
    # the board is swapped in with the order given (the button "Defend" says so too soon)
    expect(alice.locator(".unit-order").first).to_have_text("Defend")
    alice.get_by_role("button", name="Ready").tap()
    alice.get_by_text("Your orders are ready").wait_for()
    screenshot(alice, "orders-alice-ready")

    # dave's army is upright too
    dave = sign_in(browser, live_server, "dave")
    open_orders(dave)
    dave.locator("a.pick-unit").first.tap()
    target = dave.locator("a.pick-target").first
    target.wait_for()
    data_hex = target.get_attribute("data-hex")
    assert data_hex is not None
    dave_to = [int(n) for n in data_hex.split(",")]
    target.tap()
    dave.get_by_text("1 of 1 unit ordered.").wait_for()
    screenshot(dave, "orders-dave")
    assert "Defend" not in dave.locator(".sequence").inner_text()  # alice's stay sealed

    gm = sign_in(browser, live_server, "gm")
    gm.goto(f"{live_server.url}/c/demo/dashboard/")
    gm.get_by_text("Advance now…").click()
    gm.get_by_role("button", name="Yes, advance now").click()
    gm.get_by_text(re.compile(r"^Advanced\. ")).wait_for()
    screenshot(gm, "dashboard-advanced")

    after = newest(campaign)
    assert (after["clock"]["month"], after["clock"]["step"]) != (month, "orders")
    dave_army = next(a for a in after["armies"] if a["kingdom"] == "duskhollow")
    assert dave_army["hex"] == dave_to
    for page, name in ((alice, "alice"), (dave, "dave")):
        page.goto(f"{live_server.url}/c/demo/")
        page.get_by_role(
            "link", name=re.compile(f"What happened in .*summer month {month}")
        ).click()
        report = page.locator("main").inner_text()
        said = names_of(after, campaign.gazetteer)
        assert said.unit("duskhollow-1", whose=True) in report
        assert said.unit("aldermark-1", whose=True) in report
        assert "duskhollow-1" not in report
        screenshot(page, f"report-{name}")
        page.goto(f"{live_server.url}/c/demo/")
        token = page.locator(
            f'g.hex-units[data-hex="{dave_to[0]},{dave_to[1]}"] [data-unit="duskhollow-1"]'
        )
        assert token.count() == 1
        screenshot(page, f"map-{name}")
