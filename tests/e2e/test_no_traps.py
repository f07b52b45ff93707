"""On phones, the traps a new group of four fell into, each played through and gone: a late
kingdom at the tithes costs only itself (the purchases, the hungry armies and the
deployment each open for everyone with its own deadline), four kingdoms place their
settlements at once, Back after Ready shows the orders as they stand, and a confirmed
result shows the loser's retreat question without a reload once the advance has landed.

Each game is made through the services (no demo to seed); one player plays it in
Chromium, the others answer through the services as their own pages would."""

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect
from pytest_django import Settings

from accounts.models import User
from battles.models import Battle
from battles.services import results
from campaign.display.winter_board import NOTHING
from campaign.models import Campaign
from campaign.rules import decisions
from campaign.rules.hexmap import map_from_json
from campaign.services import advancing, common, members, setup, submissions
from tests.campaign.helpers import (
    at_step,
    make_cast,
    play_from,
    play_until,
    set_up_by_the_deadlines,
)
from tests.e2e.conftest import sign_in
from tests.notifications.notifying import with_addresses

pytestmark = pytest.mark.django_db(transaction=True)

type Json = dict[str, Any]
KINGDOMS = {"alice": "Aldermark", "bob": "Brightwater", "carol": "Carrowmoor", "dave": "Duskhollow"}


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    """gm and the four players, each with the password `demo` (the sign-in helper's)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return with_addresses(make_cast(("gm", *KINGDOMS), password="demo"))


def four_kingdoms(cast: dict[str, User], **options: Any) -> Campaign:
    campaign = setup.campaign_create(
        name="Four Winds", admin=cast["gm"], kingdoms=4, map_name="river-kingdoms",
        options={"seed": 5, **options},
    )  # fmt: skip
    for name, kingdom in KINGDOMS.items():
        members.campaign_join(campaign=campaign, user=cast[name], kingdom_name=kingdom)
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
    campaign.refresh_from_db()
    return campaign


def newest(campaign: Campaign) -> Json:
    data: Json = common.latest_snapshot(campaign).data
    return data


def kingdom_of(campaign: Campaign, user: User) -> str:
    return common.kingdom_of(campaign, user)


def answer_for(campaign: Campaign, users: list[User], payloads: Callable[[Json], Any]) -> None:
    """Each of `users` gives what the newest snapshot asks of its kingdom and is ready."""
    data = newest(campaign)
    for user in users:
        me = kingdom_of(campaign, user)
        for asked in [p for p in data["pending"] if p["kingdom"] == me]:
            kind = decisions.ANSWERS[asked["kind"]]
            submissions.submission_save(
                campaign=campaign, user=user, kind=kind, payload=payloads(asked)
            )
        submissions.submission_set_ready(campaign=campaign, user=user)


def test_a_late_kingdom_at_the_tithes_costs_only_itself(
    browser, live_server, cast, eager_tasks, screenshot
):
    campaign = four_kingdoms(cast, months=1)
    play_until(campaign, cast, at_step("tithe"))
    players = [cast[name] for name in ("bob", "carol")]
    steps = [(newest(campaign)["clock"]["step"])]

    # alice gives no gifts and is ready; bob and carol too; dave is late
    alice = sign_in(browser, live_server, "alice")
    alice.goto(f"{live_server.url}/c/{campaign.slug}/winter/")
    alice.get_by_role("button", name="Ready", exact=True).click()
    expect(alice.locator(".moving-on")).to_contain_text("You are ready")
    answer_for(campaign, players, lambda asked: NOTHING[decisions.ANSWERS[asked["kind"]]])

    # the gm reads what Advance now will do, and does it
    gm = sign_in(browser, live_server, "gm")
    gm.goto(f"{live_server.url}/c/{campaign.slug}/dashboard/")
    gm.get_by_text("Advance now…").click()
    told = gm.locator(".at-deadline")
    expect(told).to_contain_text("Duskhollow gives no tithes; then the purchases step opens until")
    screenshot(gm, "no-traps-advance-now-told")
    gm.get_by_role("button", name="Yes, advance now").click()
    expect(gm.get_by_text(re.compile(r"^Advanced\. Duskhollow gives no tithes"))).to_be_visible()

    # alice's page follows: the purchases, asked of every kingdom, dave's included
    expect(alice.get_by_role("heading", name="Build and recruit")).to_be_visible(timeout=15_000)
    asked = {p["kingdom"] for p in newest(campaign)["pending"] if p["kind"] == "purchases"}
    assert asked == {kingdom_of(campaign, cast[name]) for name in KINGDOMS}
    screenshot(alice, "no-traps-purchases-open")
    # she chooses a purchase by tapping a lit tile on the map
    alice.locator("svg a.pick-target").first.tap()
    here = alice.locator("#here")
    expect(here).to_contain_text("What you could add at")
    here.get_by_role("button").first.click()
    expect(alice.locator("ol.listed")).not_to_contain_text("Nothing listed")
    screenshot(alice, "no-traps-purchase-tapped")

    # the rest of the winter: each step stops for everyone, dave on time from now on
    everyone = [cast[name] for name in KINGDOMS]
    while newest(campaign)["clock"]["season"] == "winter":
        steps.append(newest(campaign)["clock"]["step"])
        answer_for(campaign, everyone, lambda asked: NOTHING[decisions.ANSWERS[asked["kind"]]])
    assert steps[:2] == ["tithe", "build"]
    assert steps[-1] == "deploy"
    assert newest(campaign)["clock"]["season"] == "summer"
    dave_armies = [a for a in newest(campaign)["armies"] if a["kingdom"] == "duskhollow"]
    assert dave_armies, "dave's armies were deployed, not lost to his late tithe"


def test_four_kingdoms_place_their_settlements_at_once(
    browser, live_server, cast, eager_tasks, screenshot
):
    campaign = four_kingdoms(cast)
    answer_for(campaign, [cast[n] for n in KINGDOMS], lambda asked: "Elves")
    while newest(campaign)["clock"]["step"] == "capitals":  # one kingdom at a time
        (asked,) = newest(campaign)["pending"]
        user = next(cast[n] for n in KINGDOMS if kingdom_of(campaign, cast[n]) == asked["kingdom"])
        answer_for(campaign, [user], lambda asked: asked["choices"][0])
    data = newest(campaign)
    assert data["clock"]["step"] == "settlements"
    assert len(data["pending"]) == 4  # every kingdom at once

    alice = sign_in(browser, live_server, "alice")
    alice.goto(f"{live_server.url}/c/{campaign.slug}/setup/")
    board = alice.locator("#setup-board")
    expect(board).to_contain_text("Every kingdom places its settlements at once")
    for placed in range(4):  # tap a lit tile on the map for each settlement in turn
        alice.locator("svg a.pick-target").first.tap()
        expect(board.locator(".setup-choices button.holds")).to_have_count(placed + 1)
    alice.get_by_role("button", name="Ready", exact=True).click()
    expect(board).to_contain_text("Waiting for Brightwater to place their settlements.")
    assert newest(campaign)["clock"]["step"] == "settlements"  # nothing revealed yet
    screenshot(alice, "no-traps-settlements-waiting")

    def plan(asked: Json) -> Json:
        first = asked["choices"]
        return {"city": first[0], "fortress": first[1], "villages": [first[2], first[3]]}

    answer_for(campaign, [cast[n] for n in ("bob", "carol", "dave")], plan)
    assert newest(campaign)["clock"]["step"] == "armies"
    # alice's board follows by itself: the first armies, every kingdom's settlements shown
    expect(board).to_contain_text("Step 4 of 4: first armies", timeout=15_000)
    screenshot(alice, "no-traps-settlements-revealed")


def test_back_after_ready_shows_the_orders_as_they_stand(
    browser, live_server, cast, eager_tasks, screenshot
):
    campaign = four_kingdoms(cast)
    set_up_by_the_deadlines(campaign, cast["gm"])
    alice = sign_in(browser, live_server, "alice")
    alice.goto(f"{live_server.url}/c/{campaign.slug}/orders/")
    alice.locator("a.pick-unit").first.tap()
    alice.get_by_role("button", name="Defend").tap()
    expect(alice.locator(".unit-order").first).to_have_text("Defend")
    alice.get_by_role("button", name="Ready").tap()
    alice.get_by_text("Your orders are ready").wait_for()
    alice.get_by_role("link", name=f"← {campaign.name}").click()
    alice.get_by_role("heading", level=1, name=campaign.name).wait_for()
    alice.go_back()
    status = alice.locator("#orders-status")
    expect(status).to_contain_text("Your orders are ready")
    expect(status).not_to_contain_text("0 of 1 unit ordered")
    screenshot(alice, "no-traps-back-after-ready")


def battle_with_two_ways_back(campaign: Campaign, gm: User) -> list[int]:
    """Aldermark's and Brightwater's armies meet on a plains tile of Aldermark's; two of
    its neighbours are Brightwater's, so a beaten Brightwater army is asked where to go."""
    data = copy.deepcopy(newest(campaign))
    hexmap = map_from_json(data["map"])
    held = {tuple(t["hex"]) for t in data["tiles"]}
    for tile in data["map"]["tiles"]:
        here = (tile["hex"][0], tile["hex"][1])
        room = [
            h
            for h in sorted(hexmap.neighbours(here))
            if h not in held and hexmap.army_may_move(here, h)
        ]
        if tile["terrain"] == "plains" and here not in held and len(room) >= 2:
            break
    army = {"upright": True, "ally": None, "hex": list(here)}
    data.update(
        clock={"year": 1, "season": "summer", "month": 1, "step": "battles"},
        tiles=[
            *data["tiles"],
            {"hex": list(here), "owner": "aldermark", "settlement": None},
            *({"hex": list(h), "owner": "brightwater", "settlement": None} for h in room[:2]),
        ],
        armies=[
            {"id": "aldermark-1", "kingdom": "aldermark", **army},
            {"id": "brightwater-1", "kingdom": "brightwater", **army},
        ],
        ships=[],
        pending=[],
    )
    play_from(campaign, gm, data, "set up a battle")
    return list(here)


def test_a_confirm_shows_the_retreat_question_once_the_advance_lands(
    browser, live_server, cast, monkeypatch, screenshot
):
    campaign = four_kingdoms(cast)
    set_up_by_the_deadlines(campaign, cast["gm"])
    where = battle_with_two_ways_back(campaign, cast["gm"])
    queued: list[tuple[int, int]] = []  # the worker's queue: the test runs the advance
    monkeypatch.setattr(
        "campaign.services.advancing._send_advance",
        lambda campaign_id, number, defaults: queued.append((campaign_id, number)),
    )
    battle = Battle.objects.get(campaign=campaign, hex=where)
    results.battle_report(battle=battle, user=cast["alice"], result="win", winner="aldermark")

    bob = sign_in(browser, live_server, "bob")
    bob.goto(f"{live_server.url}/c/{campaign.slug}/battles/{battle.number}/")
    bob.get_by_role("button", name="Confirm this result").click()
    expect(bob.locator(".moving-on")).to_contain_text("The result is in: the campaign is moving on")
    expect(bob.get_by_role("heading", name="Report the result")).to_have_count(0)
    screenshot(bob, "no-traps-confirmed-moving-on")
    assert queued, "the confirm queued the advance"
    campaign_id, number = queued[-1]
    advancing.campaign_advance(campaign_id=campaign_id, snapshot_number=number)  # the worker
    expect(bob.locator("p.owed")).to_contain_text(
        "choose where Brightwater's 1st army retreats", timeout=10_000
    )
    screenshot(bob, "no-traps-retreat-asked")


def test_the_campaign_map_on_a_phone_shows_settlements_legibly_around_the_capital(
    browser, live_server, cast, eager_tasks, screenshot
):
    campaign = four_kingdoms(cast)
    set_up_by_the_deadlines(campaign, cast["gm"])
    alice = sign_in(browser, live_server, "alice")  # a 390-pixel-wide phone
    alice.goto(f"{live_server.url}/c/{campaign.slug}/")
    frame = alice.locator(".map-frame")
    settlements = frame.locator("g.settlement")
    expect(settlements.first).to_be_visible()
    widths = [box["width"] for box in (s.bounding_box() for s in settlements.all()) if box]
    assert widths
    assert min(widths) >= 14, widths  # legible without zooming (it was about 6 px)
    # The map opens on alice's capital, not on the map's top left corner.
    me = kingdom_of(campaign, cast["alice"])
    q, r = next(k["capital"] for k in newest(campaign)["kingdoms"] if k["id"] == me)
    capital = frame.locator(f'g.hex[data-hex="{q},{r}"] g.settlement.capital')
    box, view = capital.bounding_box(), frame.bounding_box()
    assert box
    assert view
    assert view["x"] <= box["x"]
    assert box["x"] + box["width"] <= view["x"] + view["width"]
    assert view["y"] <= box["y"]
    assert box["y"] + box["height"] <= view["y"] + view["height"]
    screenshot(alice, "no-traps-campaign-map-phone")
