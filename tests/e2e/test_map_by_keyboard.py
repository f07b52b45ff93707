"""The map by keyboard alone (issue 37): alice signs in, tabs to her orders page's map,
moves across its tiles with the arrow keys, hears each tile's words, chooses her army and a
tile to move it to with Enter, and presses Ready; then, on the campaign page, the tile she
reaches by keyboard stays in sight and Enter shows its words. No mouse, no tap."""

import re

import pytest
from playwright.sync_api import Page, expect

from campaign.models import Campaign, Submission
from campaign.services import common
from campaign.words import names_of

pytestmark = pytest.mark.django_db(transaction=True)

ARROWS = ("ArrowRight", "ArrowLeft", "ArrowUp", "ArrowDown")


def arrow(key: str, q: int, r: int) -> tuple[int, int]:
    """Where an arrow goes from the tile [q, r] (map.js): along the row, or to the row above
    or below keeping to a column (odd rows lie half a tile left of it)."""
    return {
        "ArrowRight": (q + 1, r),
        "ArrowLeft": (q - 1, r),
        "ArrowUp": (q + r % 2, r - 1),
        "ArrowDown": (q - 1 + r % 2, r + 1),
    }[key]


# The focused tile's centre is inside the map's frame, and on the screen.
IN_VIEW = """() => {
  const tile = document.activeElement.getBoundingClientRect();
  const frame = document.querySelector(".map-frame").getBoundingClientRect();
  const x = tile.left + tile.width / 2, y = tile.top + tile.height / 2;
  return frame.left <= x && x <= frame.right && frame.top <= y && y <= frame.bottom
    && 0 <= y && y <= innerHeight;
}"""


def tab_to(page: Page, selector: str) -> None:
    """Tab forward until the focused element matches `selector`."""
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reaches {selector}")


def focused_hex(page: Page) -> tuple[int, int]:
    """The tile that has the focus, once one has: in a board htmx swaps in, the map gives
    the focus back to the tile chosen as it is set up, a moment after the swap."""
    page.wait_for_function("() => document.activeElement?.matches('g.hex')")
    q, r = page.evaluate("document.activeElement.getAttribute('data-hex')").split(",")
    return int(q), int(r)


def test_a_player_orders_and_is_ready_with_the_keyboard_alone(browser, live_server, demo):
    data = common.latest_snapshot(Campaign.objects.get(slug="demo")).data
    said = names_of(data, Campaign.objects.get(slug="demo").gazetteer)
    army = next(a for a in data["armies"] if a["kingdom"] == "aldermark")
    home = tuple(army["hex"])
    terrain = next(t["terrain"] for t in data["map"]["tiles"] if tuple(t["hex"]) == home)
    page = browser.new_context().new_page()
    page.goto(f"{live_server.url}/accounts/sign-in/")
    page.keyboard.type("alice")  # the username field has the focus
    page.keyboard.press("Tab")
    page.keyboard.type("demo")
    page.keyboard.press("Enter")
    page.get_by_role("heading", name="My campaigns").wait_for()
    page.goto(f"{live_server.url}/c/demo/orders/")

    # The map is one tab stop: the tile of the unit to order, in words, its pick described.
    tab_to(page, "g.hex")
    tile = page.locator("g.hex:focus")
    assert focused_hex(page) == home
    unit = re.escape(said.unit(army["id"], whose=True))
    expect(tile).to_have_accessible_name(re.compile(f"{re.escape(terrain)}.*Aldermark.*{unit}"))
    expect(tile).to_have_accessible_description(re.compile(f"^Choose {unit}"))
    for key in ("ArrowRight", "ArrowUp", "ArrowLeft", "ArrowDown"):  # once round
        before = focused_hex(page)
        page.keyboard.press(key)
        assert focused_hex(page) == arrow(key, *before), key
        expect(tile).to_have_accessible_name(re.compile(r"\[-?\d+, -?\d+\]"))
    page.keyboard.press("Tab")  # out of the map and back: its tab stop is the tile left last
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.matches('g.hex')")

    # Right, Up, Left and Down lead round to the army's tile again: Enter chooses the army,
    # and the focus stays on its tile in the board swapped in.
    assert focused_hex(page) == home
    page.keyboard.press("Enter")
    page.locator("a.pick-chosen").wait_for()
    expect(tile).to_have_accessible_description(re.compile("is here"))
    assert focused_hex(page) == home
    targets = {
        tuple(int(n) for n in h.split(","))
        for h in page.locator("a.pick-target").evaluate_all("l => l.map(a => a.dataset.hex)")
    }
    key, to = next((k, arrow(k, *home)) for k in ARROWS if arrow(k, *home) in targets)
    page.keyboard.press(key)
    expect(tile).to_have_accessible_description(re.compile(f"^Move {unit} to "))
    page.keyboard.press("Enter")
    page.get_by_text("1 of 1 unit ordered.").wait_for()
    assert focused_hex(page) == to

    tab_to(page, "form.ready button")
    expect(page.locator("form.ready button:focus")).to_have_text("Ready")
    page.keyboard.press("Enter")
    page.get_by_text("Your orders are ready").wait_for()
    orders = Submission.objects.get(
        campaign__slug="demo", kingdom="aldermark", kind="orders", consumed_by=None
    )
    assert orders.ready
    assert orders.payload == [{"unit": army["id"], "order": "move", "to": list(to)}]

    # The campaign page: the map pans to the tile reached, and Enter shows its words.
    page.goto(f"{live_server.url}/c/demo/")
    tab_to(page, "g.hex")
    for key in ("+", "+", "+", *["ArrowRight"] * 6, *["ArrowDown"] * 6):
        page.keyboard.press(key)
    page.wait_for_function(IN_VIEW, timeout=5000)
    page.keyboard.press("Enter")
    words = tile.evaluate("g => g.querySelector('title').textContent")
    expect(page.locator(".hex-details")).to_have_text(words)
