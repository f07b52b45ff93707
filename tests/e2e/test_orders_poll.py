"""The orders board of a player who is ready polls its status (whom it waits for) every
POLL_SECONDS (10 seconds; here 1, tests/e2e/conftest.py); while nothing changes the server answers 304 Not Modified and the browser keeps
what it has; once another player marks ready and the month is resolved, the next poll
brings the whole board of the new month in, without a reload."""

from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_conditional_response
from playwright.sync_api import Page, Response, expect

from accounts.models import User
from campaign.models import Campaign
from campaign.services import admin, common
from tests.e2e.conftest import POLL_SECONDS, sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def open_orders(page: Page) -> None:
    page.get_by_role("link", name="Demo", exact=True).click()
    page.get_by_role("link", name="Give your orders").click()
    page.wait_for_selector("a.pick-unit")


def give_defend_and_ready(page: Page) -> None:
    page.locator("a.pick-unit").first.tap()
    page.get_by_role("button", name="Defend").tap()
    expect(page.locator(".unit-order").first).to_have_text("Defend")
    page.get_by_role("button", name="Ready").tap()
    page.get_by_text("Your orders are ready").wait_for()


@pytest.fixture
def answered_not_modified(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths the server (in this process) answered 304 Not Modified."""
    paths: list[str] = []

    def recording(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse | None:
        response = get_conditional_response(request, *args, **kwargs)
        if response is not None and response.status_code == 304:
            paths.append(request.path)
        return response

    # `condition` looks the function up in its module on every request
    monkeypatch.setattr("django.views.decorators.http.get_conditional_response", recording)
    return paths


def test_a_ready_players_board_is_revalidated_and_brings_the_next_month_in(
    browser: Any, live_server: Any, demo: None, answered_not_modified: list[str]
) -> None:
    campaign = Campaign.objects.get(slug="demo")
    before = common.latest_snapshot(campaign).number
    alice = sign_in(browser, live_server, "alice")
    open_orders(alice)
    polls: list[int] = []

    def seen(response: Response) -> None:
        if response.request.headers.get("hx-request") and "/orders/" in response.url:
            polls.append(response.status)

    alice.on("response", seen)
    give_defend_and_ready(alice)
    board = alice.locator("#orders-board")
    expect(alice.locator("#orders-status")).to_have_attribute(
        "hx-trigger", f"every {POLL_SECONDS}s, shown from:document"
    )
    polls.clear()
    answered_not_modified.clear()
    alice.wait_for_timeout(3_000 * POLL_SECONDS)  # two polls or more, nothing changed
    assert len(polls) >= 2, polls
    assert answered_not_modified.count("/c/demo/orders/status/") >= len(polls) - 1
    expect(alice.get_by_text("Your orders are ready")).to_be_visible()

    status = alice.locator("#orders-status")
    daves = campaign.memberships.get(user__username="dave").kingdom_name
    expect(status).to_contain_text(daves)
    dave = sign_in(browser, live_server, "dave")
    open_orders(dave)
    give_defend_and_ready(dave)
    if common.latest_snapshot(campaign).number == before:  # others still to order
        expect(status).not_to_contain_text(daves, timeout=10_000)  # no longer waited for
        admin.campaign_advance_now(campaign=campaign, actor=User.objects.get(username="gm"))
    after = common.latest_snapshot(campaign).number
    assert after > before
    # the board moves on by itself and says what ended, linking the report
    expect(board.locator(".moved-on")).to_contain_text("read the report", timeout=10_000)
    expect(board.locator(f'input[name="seen"][value="{after}"]').first).to_be_attached()
