"""A tap whose post the server refuses (too many posts in a minute, a database away) is
not met with silence on a phone: the refusal's own words appear at the top of the page,
and what was saved before stays as it was."""

import time
import types
import uuid
from collections.abc import Callable

import pytest
from playwright.sync_api import Browser, Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from campaign.models import Campaign
from campaign.services import common
from tests.e2e.conftest import sign_in
from tests.e2e.test_orders_flow import open_orders

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_post_over_the_limit_says_so_on_the_orders_page(
    browser: Browser,
    live_server: LiveServer,
    demo: None,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    screenshot: Callable[[Page, str], object],
) -> None:
    campaign = Campaign.objects.get(slug="demo")
    alice = sign_in(browser, live_server, "alice")
    open_orders(alice)
    caches = {name: dict(config) for name, config in settings.CACHES.items()}
    caches["default"]["KEY_PREFIX"] = uuid.uuid4().hex  # counted apart from other tests
    settings.CACHES = caches
    settings.POST_RATE_LIMIT = (1, 60)
    now = time.time()  # both posts fall in one window, even across a minute's turn
    monkeypatch.setattr("config.ratelimit.time", types.SimpleNamespace(time=lambda: now))
    alice.locator("a.pick-unit").first.tap()
    alice.locator("a.pick-target").first.tap()
    alice.get_by_text("1 of 1 unit ordered.").wait_for()
    banner = alice.locator("#htmx-error")
    expect(banner).to_be_hidden()
    saved = (
        common.latest_snapshot(campaign).number,
        list(campaign.submissions.filter(consumed_by=None).values_list("payload", flat=True)),
    )

    alice.locator("a.pick-unit").first.tap()
    alice.get_by_role("button", name="Defend").tap()  # a second post in the minute
    expect(banner).to_be_visible()
    expect(banner).to_contain_text("so it was not saved")
    screenshot(alice, "refused-post-banner")
    assert saved == (
        common.latest_snapshot(campaign).number,
        list(campaign.submissions.filter(consumed_by=None).values_list("payload", flat=True)),
    )
