"""Ruling O2 in the browser: a player with two orders drags one above the other, and the
resolution sequence saved is the new one."""

from typing import Any

import pytest
from playwright.sync_api import Browser
from pytest_django.live_server_helper import LiveServer

from campaign.models import Submission
from campaign.rules.fileformat import parse_campaign
from campaign.rules.orders import order_choices
from campaign.services import common
from tests.campaign.helpers import PASSWORD, kingdom_of, make_cast, new_campaign, play_until
from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.django_db(transaction=True)


def test_o2_dragging_an_order_changes_the_resolution_sequence(
    browser: Browser, live_server: LiveServer, screenshot: Any
) -> None:
    cast = make_cast()  # alice's two orders are given; she only sorts them
    campaign = new_campaign(cast)
    alice = kingdom_of(campaign, cast["alice"])

    def two_to_order(data: dict[str, Any]) -> bool:
        mine = [p for p in data["pending"] if p["kind"] == "orders" and p["kingdom"] == alice]
        return bool(mine) and len(mine[0]["units"]) >= 2

    data = play_until(campaign, cast, two_to_order, limit=400)
    units = next(p["units"] for p in data["pending"] if p["kingdom"] == alice)[:2]
    state = parse_campaign(data)
    orders = [{"unit": unit, "order": order_choices(state, unit).orders[0].value} for unit in units]
    Submission.objects.create(
        campaign=campaign,
        kingdom=alice,
        kind="orders",
        payload=orders,
        snapshot=common.latest_snapshot(campaign).number,
        submitted_by=cast["alice"],
    )

    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/accounts/sign-in/")
    page.get_by_label("Username").fill("alice")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"{live_server.url}/c/{campaign.slug}/orders/")
    handles = page.locator(".sequence .drag-handle")
    handles.nth(1).drag_to(handles.nth(0))
    page.wait_for_timeout(1000)
    screenshot(page, "orders-sequence-dragged")
    saved = Submission.objects.get(campaign=campaign, kingdom=alice, consumed_by=None)
    assert [o["unit"] for o in saved.payload][:2] == [units[1], units[0]]
