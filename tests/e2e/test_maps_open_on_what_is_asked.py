"""On a phone a map is larger than the screen: it opens on what the page asks about, not
on the map's top left corner (issue 35). The orders map opens on the player's units (the
unit chosen, else the first to order, else, once ready, its first unit), and the battle
card's map on the battle's tile.

Each game is made through the services; each player looks in Chromium."""

import pytest
from playwright.sync_api import Locator, Page, expect
from pytest_django import Settings

from accounts.models import User
from battles.models import Battle
from campaign.services import common
from tests.campaign.helpers import make_cast, set_up_by_the_deadlines
from tests.e2e.conftest import sign_in
from tests.e2e.test_no_traps import KINGDOMS, battle_with_two_ways_back, four_kingdoms

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    """gm and the four players, each with the password `demo` (the sign-in helper's)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_cast(("gm", *KINGDOMS), password="demo")


def larger_than_its_frame(frame: Locator) -> bool:
    """The map does not fit its frame on the phone: where it opens matters."""
    return bool(
        frame.evaluate("f => f.scrollWidth > f.clientWidth || f.scrollHeight > f.clientHeight")
    )


def in_view(frame: Locator, spot: Locator) -> bool:
    """The middle of `spot` is inside what the frame shows."""
    box, view = spot.bounding_box(), frame.bounding_box()
    assert box is not None
    assert view is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    return bool(
        view["x"] <= x <= view["x"] + view["width"] and view["y"] <= y <= view["y"] + view["height"]
    )


def opened(frame: Locator) -> Locator:
    """The map `frame` once its script has set it up (and scrolled it to where it opens):
    a frame swapped in by htmx is set up a moment after it is in the page."""
    expect(frame).to_have_attribute("data-map-ready", "1")
    return frame


def hex_of(page: Page, where: str) -> Locator:
    return page.locator(f'.map-frame g.hex[data-hex="{where}"]')


def test_the_orders_map_opens_on_the_players_units(
    browser, live_server, cast, eager_tasks, screenshot
):
    campaign = four_kingdoms(cast)
    data = set_up_by_the_deadlines(campaign, cast["gm"])
    for name in KINGDOMS:
        me = common.kingdom_of(campaign, cast[name])
        army = next(a for a in data["armies"] if a["kingdom"] == me)
        where = f"{army['hex'][0]},{army['hex'][1]}"
        player = sign_in(browser, live_server, name)
        player.goto(f"{live_server.url}/c/{campaign.slug}/orders/")
        frame = player.locator(".orders-map")
        unit = frame.locator("a.pick-unit").first
        expect(unit).to_be_attached()
        assert larger_than_its_frame(frame)
        assert unit.get_attribute("data-hex") == where
        assert in_view(frame, unit), f"{name}'s army at {where} is off the map's frame"
        screenshot(player, f"orders-map-opens-on-{name}")
        player.context.close()

    # once a unit is chosen, on it; once ready (nothing to tap), on the player's first unit
    alice = sign_in(browser, live_server, "alice")
    alice.goto(f"{live_server.url}/c/{campaign.slug}/orders/")
    first = alice.locator(".orders-map a.pick-unit").first
    first_at = first.get_attribute("data-hex")
    assert first_at is not None
    first.tap()
    chosen = alice.locator(".orders-map a.pick-chosen")
    expect(chosen).to_be_attached()
    assert in_view(opened(alice.locator(".orders-map")), chosen)
    alice.get_by_role("button", name="Defend").tap()
    expect(alice.locator(".unit-order").first).to_have_text("Defend")
    alice.get_by_role("button", name="Ready").tap()
    expect(alice.locator("#orders-status")).to_contain_text("Your orders are ready")
    expect(alice.locator(".orders-map a.pick")).to_have_count(0)
    assert in_view(opened(alice.locator(".orders-map")), hex_of(alice, first_at))
    screenshot(alice, "orders-map-opens-on-alice-ready")


def test_the_battle_cards_map_opens_on_the_battle(browser, live_server, cast, screenshot):
    campaign = four_kingdoms(cast)
    set_up_by_the_deadlines(campaign, cast["gm"])
    q, r = battle_with_two_ways_back(campaign, cast["gm"])
    battle = Battle.objects.get(campaign=campaign, hex=[q, r])
    bob = sign_in(browser, live_server, "bob")
    bob.goto(f"{live_server.url}/c/{campaign.slug}/battles/{battle.number}/")
    frame = bob.locator(".battle-map .map-frame")
    frame.scroll_into_view_if_needed()
    assert in_view(frame, hex_of(bob, f"{q},{r}"))
    screenshot(bob, "battle-card-map-opens-on-the-battle")
