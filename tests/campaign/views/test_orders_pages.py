"""The orders page: a player taps a unit, the legal tiles light up, a tap gives the order;
the engine judges each order at once; the draft stays sealed, in its resolution sequence,
editable until ready. For each kind of visitor: a player, the admin, a player of another
campaign, a signed-out visitor."""

import copy
import html
import re
from collections.abc import Sequence
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from campaign.display.orders_board import orders_board
from campaign.gazetteer import Names
from campaign.models import Campaign, Snapshot, Submission
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import Hex
from campaign.rules.orders import order_choices, unordered
from campaign.services import admin, advancing, common, submissions
from campaign.words import names_of
from tests.campaign.helpers import (
    at_step,
    first_visit_queries,
    kingdom_of,
    new_campaign,
    play_from,
    play_until,
    seen_with,
    signed_in,
)
from tests.conftest import campaign_made_once, played_to, read_again

pytestmark = pytest.mark.django_db

HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


# The cast and the campaign at its first orders (year 1, summer month 1: alice and bob
# each have one army to order), made once for the module.
made, cast, campaign = campaign_made_once(played_to("orders"))


def url(campaign: Campaign, name: str = "orders") -> str:
    return reverse(f"campaign:{name}", args=[campaign.slug])


def newest(campaign: Campaign) -> Snapshot:
    return common.latest_snapshot(campaign)


def army_of(campaign: Campaign, user: User) -> dict[str, Any]:
    kingdom = kingdom_of(campaign, user)
    return next(a for a in newest(campaign).data["armies"] if a["kingdom"] == kingdom)


def said(campaign: Campaign) -> Names:
    """How the campaign's pages name its places and units now."""
    return names_of(newest(campaign).data, campaign.gazetteer)


def legal_moves(campaign: Campaign, unit_id: str) -> tuple[Hex, ...]:
    return order_choices(parse_campaign(newest(campaign).data), unit_id).moves


def draft(campaign: Campaign, user: User) -> Any:
    kingdom = kingdom_of(campaign, user)
    submission = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, kind="orders", consumed_by=None
    ).first()
    return submission.payload if submission else None


def give(
    client: Client,
    campaign: Campaign,
    unit: str,
    order: str,
    to: Sequence[int] | None = None,
    *,
    seen: int | None = None,
    htmx: bool = True,
    **extra: Any,
) -> Any:
    form = {"unit": unit, "order": order, "seen": seen or newest(campaign).number, **extra}
    if to is not None:
        form["to"] = f"{to[0]},{to[1]}"
    return client.post(
        url(campaign, "orders_give"), seen_with(campaign, form), **(HTMX if htmx else {})
    )


# --- a player ---------------------------------------------------------------------------


def test_a_player_sees_their_unit_outlined_on_the_map_and_none_ordered(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    page = html.unescape(signed_in(client, cast["alice"]).get(url(campaign)).text)
    assert "0 of 1 unit ordered." in page
    names = said(campaign)
    assert f'aria-label="Choose {names.unit(army["id"])} {names.at(army["hex"])}"' in page
    assert "Ready" in page


def test_on_a_phone_the_map_opens_on_the_players_unit(client, cast, campaign):
    """Issue 35: static/js/map.js scrolls the map's frame to the unit chosen, else the
    first lit to tap, else the hex the frame names: the player's unit, also once ready."""
    army = army_of(campaign, cast["alice"])
    opens_on = f'class="map-frame orders-map" data-centre="{army["hex"][0]},{army["hex"][1]}"'
    page = signed_in(client, cast["alice"]).get(url(campaign)).text
    assert "/static/js/map.js" in page
    assert opens_on in page
    give(client, campaign, army["id"], "defend")
    ready = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert 'class="pick' not in ready  # nothing lit to tap
    assert opens_on in ready


def test_a_kingdom_without_units_opens_the_map_on_its_capital(cast, campaign):
    alice = campaign.memberships.get(user=cast["alice"])
    data = copy.deepcopy(newest(campaign).data)
    data["armies"] = [a for a in data["armies"] if a["kingdom"] != alice.kingdom]
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == alice.kingdom)
    admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="lost", data=data, what="alice's army"
    )
    board = orders_board(alice, newest(campaign), [alice], draft=None, ready=set(), digest="")
    assert board.opens_on == f"{capital[0]},{capital[1]}"


def test_choosing_a_unit_lights_up_exactly_the_tiles_the_engine_allows(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    page = signed_in(client, cast["alice"]).get(url(campaign), {"unit": army["id"]}).text
    lit = re.findall(r'class="pick pick-target"[^>]*data-hex="(-?\d+),(-?\d+)"', page)
    assert sorted((int(q), int(r)) for q, r in lit) == sorted(legal_moves(campaign, army["id"]))
    assert f"<h2>{said(campaign).unit(army['id'])} " in html.unescape(page)
    assert ">Defend</button>" in page


def test_tapping_a_lit_tile_gives_the_move_and_draws_it_as_planned(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    to = legal_moves(campaign, army["id"])[0]
    response = give(signed_in(client, cast["alice"]), campaign, army["id"], "move", to)
    assert response.status_code == 200
    assert "<html" not in response.text  # the board fragment only
    assert "1 of 1 unit ordered." in response.text
    assert f"Move to {said(campaign).place(to)}" in html.unescape(response.text)
    assert 'class="move planned"' in response.text
    assert draft(campaign, cast["alice"]) == [{"unit": army["id"], "order": "move", "to": list(to)}]


def test_changing_an_order_replaces_it(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    signed_in(client, cast["alice"])
    give(client, campaign, army["id"], "move", legal_moves(campaign, army["id"])[0])
    page = give(client, campaign, army["id"], "defend").text
    assert draft(campaign, cast["alice"]) == [{"unit": army["id"], "order": "defend"}]
    assert "Defend" in page
    assert "1 of 1 unit ordered." in page


def test_an_illegal_move_is_refused_beside_the_unit_in_the_games_words(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    signed_in(client, cast["alice"])
    give(client, campaign, army["id"], "defend")
    q, r = army["hex"]
    tiles = [tuple(t["hex"]) for t in newest(campaign).data["map"]["tiles"]]
    far = next(h for h in tiles if max(abs(h[0] - q), abs(h[1] - r), abs(h[0] + h[1] - q - r)) > 1)
    page = give(client, campaign, army["id"], "move", far).text
    assert 'class="order-error" role="alert"' in page
    assert f"{said(campaign).unit(army['id'])} can only move to a tile next to" in html.unescape(
        page
    )
    assert draft(campaign, cast["alice"]) == [{"unit": army["id"], "order": "defend"}]


def test_a_forged_order_for_another_kingdoms_army_is_refused(client, cast, campaign):
    bobs = army_of(campaign, cast["bob"])
    page = give(signed_in(client, cast["alice"]), campaign, bobs["id"], "defend").text
    assert "belongs to" in page
    assert draft(campaign, cast["alice"]) is None
    assert draft(campaign, cast["bob"]) is None


@pytest.mark.parametrize(
    "form",
    [
        {"unit": "x", "order": "fly"},
        {"unit": "x", "order": "move", "to": "north"},
        {"unit": "", "order": "defend"},
        {"unit": "x", "order": "move", "to": "1,2,3"},
    ],
)
def test_an_order_that_makes_no_sense_gets_a_message_not_an_error(client, cast, campaign, form):
    signed_in(client, cast["alice"])
    page = client.post(url(campaign, "orders_give"), seen_with(campaign, form), **HTMX)
    assert page.status_code == 200
    assert "That order could not be read." in page.text
    plain = client.post(url(campaign, "orders_give"), seen_with(campaign, form), follow=True)
    assert plain.status_code == 200
    assert "That order could not be read." in plain.text
    assert draft(campaign, cast["alice"]) is None


def test_an_order_from_a_page_the_campaign_has_moved_on_from_is_refused(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    page = give(signed_in(client, cast["alice"]), campaign, army["id"], "defend", seen=1).text
    assert "The campaign has moved on since you looked" in page
    assert draft(campaign, cast["alice"]) is None


def test_without_javascript_a_tapped_tile_asks_to_confirm_and_the_form_gives_it(
    client, cast, campaign
):
    army = army_of(campaign, cast["alice"])
    to = legal_moves(campaign, army["id"])[0]
    signed_in(client, cast["alice"])
    page = client.get(url(campaign), {"unit": army["id"], "to": f"{to[0]},{to[1]}"}).text
    assert f">Move to {said(campaign).place(to, picking=True)}, " in html.unescape(page)
    response = give(client, campaign, army["id"], "move", to, htmx=False)
    assert response.status_code == 302
    assert draft(campaign, cast["alice"])[0]["to"] == list(to)


def test_ready_is_refused_until_every_unit_has_an_order(client, cast, campaign):
    signed_in(client, cast["alice"])
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert "Give every unit an order first: 0 of 1 units ordered." in page
    assert not Submission.objects.filter(campaign=campaign, consumed_by=None, ready=True).exists()


def test_once_ready_the_page_waits_only_for_the_kingdoms_not_ready(client, cast, campaign):
    names = dict(campaign.memberships.values_list("user__username", "kingdom_name"))
    signed_in(client, cast["alice"])
    give(client, campaign, army_of(campaign, cast["alice"])["id"], "defend")
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert f"Waiting for {names['bob']}." in page  # not for alice's own kingdom


def test_once_ready_the_unit_panel_shows_only_a_chosen_unit(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    signed_in(client, cast["alice"])
    drafting = client.get(url(campaign), **HTMX).text
    assert 'class="unit-panel"' in drafting
    assert "Tap one of your units on the map" in drafting
    give(client, campaign, army["id"], "defend")
    ready = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert 'class="unit-panel"' not in ready  # no empty box above the map
    chosen = client.get(url(campaign), {"unit": army["id"]}, **HTMX).text
    assert 'class="unit-panel"' in chosen
    assert "Order: <strong>Defend</strong>" in chosen


def test_ready_locks_the_orders_until_withdrawn(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    signed_in(client, cast["alice"])
    give(client, campaign, army["id"], "defend")
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert "Your orders are ready" in page
    assert "Not ready: change my orders" in page
    assert 'class="pick' not in page  # nothing to tap while ready
    refused = give(client, campaign, army["id"], "move", legal_moves(campaign, army["id"])[0])
    assert "withdraw that first" in refused.text
    assert draft(campaign, cast["alice"]) == [{"unit": army["id"], "order": "defend"}]
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "no"}), **HTMX
    ).text
    assert "0 of 1" not in page
    assert "1 of 1 unit ordered." in page
    assert ">Ready</button>" in page


def test_when_both_are_ready_the_month_resolves(
    client, cast, campaign, eager_celery, django_capture_on_commit_callbacks
):
    before = newest(campaign).number
    for name in ("alice", "bob"):
        army = army_of(campaign, cast[name])
        signed_in(client, cast[name])
        give(client, campaign, army["id"], "defend")
        with django_capture_on_commit_callbacks(execute=True):
            client.post(
                url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
            )
    assert newest(campaign).number > before
    page = client.get(url(campaign)).text
    assert "month 2" in page


def test_the_board_polls_its_status_while_waiting_for_others(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    signed_in(client, cast["alice"])
    assert 'hx-trigger="every' not in client.get(url(campaign), **HTMX).text
    give(client, campaign, army["id"], "defend")
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    status = f"{url(campaign, 'orders_status')}?seen={newest(campaign).number}"
    assert f'hx-get="{status}" hx-trigger="every 10s, shown from:document"' in page


def test_the_board_polls_as_often_as_poll_seconds_says(client, cast, campaign, settings):
    settings.POLL_SECONDS = 3
    army = army_of(campaign, cast["alice"])
    signed_in(client, cast["alice"])
    give(client, campaign, army["id"], "defend")
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert 'hx-trigger="every 3s, shown from:document"' in page


def test_a_waiting_boards_status_names_whom_it_waits_for_without_the_map(client, cast, campaign):
    names = dict(campaign.memberships.values_list("user__username", "kingdom_name"))
    bob = Client()
    signed_in(bob, cast["bob"])
    signed_in(client, cast["alice"])
    give(client, campaign, army_of(campaign, cast["alice"])["id"], "defend")
    client.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    status = f"{url(campaign, 'orders_status')}?seen={newest(campaign).number}"
    first = client.get(status, **HTMX)
    assert first.status_code == 200
    assert f"Waiting for {names['bob']}." in first.text
    assert "<svg" not in first.text
    assert "HX-Retarget" not in first
    unchanged = client.get(status, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert unchanged.status_code == 304
    give(bob, campaign, army_of(campaign, cast["bob"])["id"], "defend")
    bob.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    told = client.get(status, HTTP_IF_NONE_MATCH=first["ETag"], **HTMX)
    assert told.status_code == 200
    assert "Every kingdom is ready: the month resolves in a moment." in told.text
    assert "<svg" not in told.text


def test_once_the_month_moves_on_the_status_brings_the_whole_board_in_its_place(
    client, cast, campaign
):
    signed_in(client, cast["alice"])
    give(client, campaign, army_of(campaign, cast["alice"])["id"], "defend")
    client.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    status = f"{url(campaign, 'orders_status')}?seen={newest(campaign).number}"
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    board = client.get(status, **HTMX)
    assert board.status_code == 200
    assert board["HX-Retarget"] == "#orders-board"
    assert board["HX-Reswap"] == "outerHTML"
    assert f'name="seen" value="{newest(campaign).number}"' in board.text
    assert "<svg" in board.text
    report = reverse("campaign:report", args=[campaign.slug, newest(campaign).number])
    assert f'Month 1 is over: <a href="{report}">read the report</a>' in board.text
    assert client.get(report).status_code == 200


def test_while_drafting_the_status_is_the_whole_board(client, cast, campaign):
    signed_in(client, cast["alice"])
    status = f"{url(campaign, 'orders_status')}?seen={newest(campaign).number}"
    board = client.get(status, **HTMX)
    assert board["HX-Retarget"] == "#orders-board"
    assert "0 of 1 unit ordered." in board.text


# --- the resolution sequence ------------------------------------------------------------


@pytest.fixture(scope="module")
def made_two_armies(made: tuple[dict[str, User], Campaign], django_db_blocker: Any) -> Campaign:
    """Another campaign of the cast, made once for the module (in its transaction): a month
    in which alice has two or more units to order (after a winter of buying)."""
    with django_db_blocker.unblock():
        return played_to_two_armies(made[0])


@pytest.fixture
def two_armies(made_two_armies: Campaign) -> Campaign:
    """A month in which alice has two or more units to order (after a winter of buying)."""
    return read_again(made_two_armies)


def played_to_two_armies(cast: dict[str, User]) -> Campaign:
    campaign = new_campaign(cast)

    def alice_has_two(data: dict[str, Any]) -> bool:
        units = [p.get("units", []) for p in data["pending"] if p["kind"] == "orders"]
        kingdom = kingdom_of(campaign, cast["alice"])
        mine = [p for p in data["pending"] if p["kind"] == "orders" and p["kingdom"] == kingdom]
        return bool(units) and bool(mine) and len(mine[0]["units"]) >= 2

    play_until(campaign, cast, alice_has_two, limit=400)
    return campaign


def test_o2_the_sequence_follows_the_order_given_and_the_arrows_change_it(client, cast, two_armies):
    campaign = two_armies
    kingdom = kingdom_of(campaign, cast["alice"])
    first, second = next(
        p["units"] for p in newest(campaign).data["pending"] if p["kingdom"] == kingdom
    )[:2]
    signed_in(client, cast["alice"])
    for unit in (first, second):
        choices = order_choices(parse_campaign(newest(campaign).data), unit)
        give(client, campaign, unit, choices.orders[0].value)
    assert [o["unit"] for o in draft(campaign, cast["alice"])][:2] == [first, second]
    units = [o["unit"] for o in draft(campaign, cast["alice"])]
    form = {"unit": units, "lower": first, "seen": newest(campaign).number}
    page = client.post(url(campaign, "orders_sequence"), seen_with(campaign, form), **HTMX).text
    assert [o["unit"] for o in draft(campaign, cast["alice"])][:2] == [second, first]
    page, names = html.unescape(page), said(campaign)
    assert page.index(f">{names.unit(second)}</a>") < page.index(f">{names.unit(first)}</a>")
    # a drag posts the whole list in its new order
    dragged = list(reversed(units))
    client.post(url(campaign, "orders_sequence"), seen_with(campaign, {"unit": dragged}), **HTMX)
    assert [o["unit"] for o in draft(campaign, cast["alice"])] == dragged


def first_asked(campaign: Campaign, kingdom: str) -> tuple[str, str]:
    """The first unit the campaign asks the kingdom to order, and the first order it may
    give it."""
    units = next(p["units"] for p in newest(campaign).data["pending"] if p["kingdom"] == kingdom)
    choices = order_choices(parse_campaign(newest(campaign).data), units[0])
    return units[0], choices.orders[0].value


def test_after_an_order_the_next_unit_without_one_is_chosen(client, cast, two_armies):
    campaign = two_armies
    kingdom = kingdom_of(campaign, cast["alice"])
    unit, order = first_asked(campaign, kingdom)
    signed_in(client, cast["alice"])
    page = give(client, campaign, unit, order).text
    given = parse_campaign(
        {**newest(campaign).data, "inputs": {"orders": {kingdom: draft(campaign, cast["alice"])}}}
    )
    following = unordered(given, kingdom, given.inputs.orders[kingdom])[0]
    # the board comes back with the next unit still without an order chosen
    assert f"<h2>{said(campaign).unit(following)} " in html.unescape(page)
    plain = give(client, campaign, unit, order, htmx=False)
    assert plain.status_code == 302
    assert plain["Location"] == f"{url(campaign)}?unit={following}"


def test_o2_a_sequence_that_does_not_match_the_orders_is_refused(client, cast, two_armies):
    campaign = two_armies
    unit, order = first_asked(campaign, kingdom_of(campaign, cast["alice"]))
    signed_in(client, cast["alice"])
    give(client, campaign, unit, order)
    before = draft(campaign, cast["alice"])
    page = client.post(
        url(campaign, "orders_sequence"), seen_with(campaign, {"unit": ["bob-1", unit]}), **HTMX
    )
    assert "Your orders changed while you were sorting them" in page.text
    assert draft(campaign, cast["alice"]) == before


# --- who may see and give orders -----------------------------------------------------------


def test_sealed_orders_never_reach_another_players_browser(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    to = legal_moves(campaign, army["id"])[0]
    give(signed_in(client, cast["alice"]), campaign, army["id"], "move", to)
    client.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    said = f"[{to[0]}, {to[1]}]"
    signed_in(client, cast["bob"])
    pages = [
        client.get(url(campaign)),
        client.get(url(campaign), **HTMX),
        client.get(url(campaign), {"unit": army["id"]}, **HTMX),
        client.get(url(campaign, "campaign")),
        client.get(url(campaign, "kingdom")),
        client.get(reverse("campaign:home")),
    ]
    for page in pages:
        assert page.status_code == 200
        assert f"Move to {said}" not in page.text
        assert 'class="move planned"' not in page.text
        assert f"{army['id']} is ordered" not in page.text


def test_another_campaigns_player_and_the_admin_get_404(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    for name in ("eve", "gm"):
        signed_in(client, cast[name])
        assert client.get(url(campaign)).status_code == 404
        response = give(client, campaign, army["id"], "defend")
        assert response.status_code == 404
    assert draft(campaign, cast["alice"]) is None


def test_a_signed_out_visitor_is_sent_to_sign_in(client, cast, campaign):
    army = army_of(campaign, cast["alice"])
    for response in (
        client.get(url(campaign)),
        give(client, campaign, army["id"], "defend", htmx=False),
        client.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"})),
    ):
        assert response.status_code == 302
        assert response.url.startswith(reverse("accounts:sign_in"))
    assert draft(campaign, cast["alice"]) is None


def test_orders_are_not_asked_outside_the_orders_step(client, cast):
    campaign = new_campaign(cast)  # at setup: races
    page = signed_in(client, cast["alice"]).get(url(campaign)).text
    assert "The campaign is not waiting for your orders now" in page
    response = give(client, campaign, "red-elves-1", "defend")
    assert "Nothing of that kind is asked of your kingdom now." in response.text


def test_the_page_takes_the_same_queries_on_a_small_and_a_large_campaign(client, cast):
    small = new_campaign(cast, "Small")
    play_until(small, cast, at_step("orders"))
    large = new_campaign(cast, "Large", map_name="generated", size=1000)
    play_until(large, cast, lambda d: d["clock"]["month"] >= 3 and d["clock"]["step"] == "orders")
    signed_in(client, cast["alice"])
    counts = []
    for campaign in (small, large):
        unit = army_of(campaign, cast["alice"])["id"]
        with first_visit_queries() as queries:
            assert client.get(url(campaign), {"unit": unit}).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


# --- cycle mode ---------------------------------------------------------------------------


@pytest.fixture
def cycle(cast: dict[str, User]) -> Campaign:
    campaign = new_campaign(cast, "Cycle", options={"orders": "cycle"})
    play_until(campaign, cast, at_step("orders"))
    return campaign


def test_o1_cycle_mode_says_whose_turn_it_is_and_orders_are_public_once_given(
    client, cast, cycle, eager_celery, django_capture_on_commit_callbacks
):
    data = newest(cycle).data
    (turn,) = [p for p in data["pending"] if p["kind"] == "orders"]
    first = next(m.user for m in cycle.memberships.filter(kingdom=turn["kingdom"]))
    other = cast["bob"] if first == cast["alice"] else cast["alice"]
    first_name = cycle.memberships.get(user=first).kingdom_name
    waiting_page = signed_in(client, other).get(url(cycle)).text
    assert f"Waiting for {first_name} to give an order." in waiting_page
    assert 'hx-trigger="every 10s, shown from:document"' in waiting_page
    assert "Your turn: give one order." in signed_in(client, first).get(url(cycle)).text
    unit = turn["units"][0]
    with django_capture_on_commit_callbacks(execute=True):
        give(client, cycle, unit, "defend")
    seen_by_other = html.unescape(signed_in(client, other).get(url(cycle), **HTMX).text)
    assert f"{first_name}: {said(cycle).unit(unit)}: Defend" in seen_by_other


# --- ships taking armies aboard (ruling O8) -----------------------------------------------


def ship_at_the_coast(
    cast: dict[str, User], campaign: Campaign, *, aboard: bool = False
) -> Campaign:
    """The gm corrects month 1 so that alice's army and a ship of hers, empty or with the
    army `aboard`, stand on a coastal tile she holds."""
    data = newest(campaign).data
    kingdom = kingdom_of(campaign, cast["alice"])
    coast = next(t["hex"] for t in data["map"]["tiles"] if t["coast"] and t["terrain"] == "plains")
    army = army_of(campaign, cast["alice"])
    data["tiles"] = [t for t in data["tiles"] if t["hex"] != coast]
    data["tiles"].append({"hex": coast, "owner": kingdom, "settlement": None})
    for unit in data["armies"]:
        if unit["id"] == army["id"]:
            unit["hex"] = coast
    carrying = army["id"] if aboard else None
    data["ships"] = [
        {
            "id": f"{kingdom}-s1",
            "kingdom": kingdom,
            "hex": coast,
            "upright": True,
            "carrying": carrying,
        }
    ]
    data["pending"] = []
    play_from(campaign, cast["gm"], data, "a ship")
    return campaign


@pytest.fixture
def at_the_coast(cast: dict[str, User], campaign: Campaign) -> Campaign:
    """alice's army and her empty ship on the coast: two units to order."""
    ship_at_the_coast(cast, campaign)
    kingdom = kingdom_of(campaign, cast["alice"])
    asked = next(p for p in newest(campaign).data["pending"] if p["kingdom"] == kingdom)
    assert sorted(asked["units"]) == sorted(
        [army_of(campaign, cast["alice"])["id"], f"{kingdom}-s1"]
    )
    return campaign


@pytest.fixture
def aboard(cast: dict[str, User], campaign: Campaign) -> Campaign:
    """alice's army aboard her ship on the coast: only the ship is asked for an order."""
    ship_at_the_coast(cast, campaign, aboard=True)
    kingdom = kingdom_of(campaign, cast["alice"])
    asked = next(p for p in newest(campaign).data["pending"] if p["kingdom"] == kingdom)
    assert asked["units"] == [f"{kingdom}-s1"]
    return campaign


def test_o8_an_army_a_ship_takes_aboard_needs_no_order_of_its_own(client, cast, at_the_coast):
    campaign = at_the_coast
    army = army_of(campaign, cast["alice"])["id"]
    ship = f"{kingdom_of(campaign, cast['alice'])}-s1"
    signed_in(client, cast["alice"])
    give(client, campaign, army, "defend")  # first an order of its own, then the ship's
    page = give(client, campaign, ship, "stay", carry=army).text
    assert draft(campaign, cast["alice"]) == [{"unit": ship, "order": "stay", "carry": army}]
    assert "Aboard a ship" in page
    assert f"Aboard {said(campaign).unit(ship)}: the ship's order is its order" in html.unescape(
        page
    )
    assert "2 of 2 units ordered." in page
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert "Give every unit an order first" not in page
    assert "Your orders are ready: 2 of 2 units ordered." in page


def test_o8_an_army_aboard_is_not_asked_again_when_its_ship_is_ordered(client, cast, at_the_coast):
    campaign = at_the_coast
    army = army_of(campaign, cast["alice"])["id"]
    ship = f"{kingdom_of(campaign, cast['alice'])}-s1"
    signed_in(client, cast["alice"])
    response = give(client, campaign, ship, "stay", carry=army, htmx=False)
    assert response.status_code == 302
    assert f"unit={army}" not in response.url  # the page does not offer the army next


def test_o8_an_army_a_ship_puts_ashore_is_asked_for_its_own_order_before_ready(
    client, cast, aboard
):
    campaign = aboard
    army = army_of(campaign, cast["alice"])["id"]
    ship = f"{kingdom_of(campaign, cast['alice'])}-s1"
    signed_in(client, cast["alice"])
    page = client.get(url(campaign), **HTMX).text
    assert "1 of 1 unit ordered." not in page
    page = give(client, campaign, ship, "stay", carry="").text  # no army: it lands
    assert "1 of 2 units ordered." in page
    names = said(campaign)
    # not yet ordered
    assert (
        f'{names.unit(army)}</a> <span class="muted">{names.at(army_of(campaign, cast["alice"])["hex"])}'
        in html.unescape(page)
    )
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert "Give every unit an order first: 1 of 2 units ordered." in page
    give(client, campaign, army, "defend")
    page = client.post(
        url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX
    ).text
    assert "Your orders are ready: 2 of 2 units ordered." in page


def test_o8_orders_the_campaign_already_holds_are_kept_when_it_asks_for_the_rest(
    client, cast, aboard
):
    """alice's ship put her army ashore and was made ready through the services alone (as a
    deadline might): the campaign holds the ship's order and asks for the army's. The army's
    order given on the page joins the ship's, instead of replacing it."""
    campaign = aboard
    kingdom = kingdom_of(campaign, cast["alice"])
    army, ship = army_of(campaign, cast["alice"])["id"], f"{kingdom}-s1"
    ship_order = {"unit": ship, "order": "stay"}
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="orders", payload=[ship_order]
    )
    submissions.submission_set_ready(campaign=campaign, user=cast["alice"])
    bob_army = army_of(campaign, cast["bob"])["id"]
    submissions.submission_save(
        campaign=campaign, user=cast["bob"], kind="orders",
        payload=[{"unit": bob_army, "order": "defend"}],
    )  # fmt: skip
    submissions.submission_set_ready(campaign=campaign, user=cast["bob"])
    advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=newest(campaign).number)
    data = newest(campaign).data
    assert data["inputs"]["orders"][kingdom] == [ship_order]
    assert [p["units"] for p in data["pending"] if p["kingdom"] == kingdom] == [[army]]
    signed_in(client, cast["alice"])
    page = give(client, campaign, army, "defend").text
    assert "is aboard a ship" not in page
    assert draft(campaign, cast["alice"]) == [ship_order, {"unit": army, "order": "defend"}]
    assert "2 of 2 units ordered." in page


# --- two tabs of the same player --------------------------------------------------------


def draft_field(page: str) -> str:
    found = re.search(r'name="draft" value="([0-9a-f]*)"', page)
    assert found is not None, "the Ready form carries the draft it shows"
    return found.group(1)


def test_a_ready_from_a_tab_whose_draft_has_changed_since_is_refused_with_the_draft_now(
    client, cast, campaign
):
    """Tab 1 shows alice's army defending and offers Ready; in tab 2 she changes it to a
    move. Ready pressed in tab 1 would commit orders she no longer sees: it is refused, and
    the board shows the move as it stands. Ready from the fresh board then goes through."""
    army = army_of(campaign, cast["alice"])
    signed_in(client, cast["alice"])
    give(client, campaign, army["id"], "defend")
    first_tab = client.get(url(campaign)).text
    to = legal_moves(campaign, army["id"])[0]
    give(client, campaign, army["id"], "move", to)  # the second tab
    refused = client.post(
        url(campaign, "orders_ready"),
        seen_with(
            campaign,
            {"ready": "yes", "seen": newest(campaign).number, "draft": draft_field(first_tab)},
        ),
        **HTMX,
    )
    assert "Your decisions changed in another tab or window" in refused.text
    assert f"Move to {said(campaign).place(to)}" in html.unescape(refused.text)
    assert not Submission.objects.get(kind="orders", consumed_by=None).ready
    client.post(
        url(campaign, "orders_ready"),
        seen_with(
            campaign,
            {"ready": "yes", "seen": newest(campaign).number, "draft": draft_field(refused.text)},
        ),
        **HTMX,
    )
    assert Submission.objects.get(kind="orders", consumed_by=None).ready


@pytest.mark.parametrize(
    "stale", [{}, {"seen": "abc"}, {"seen": "9" * 5000}], ids=["none", "letters", "5000 digits"]
)
@pytest.mark.parametrize(
    "action", ["orders_give", "orders_withdraw", "orders_sequence", "orders_ready"]
)
def test_an_orders_post_without_the_page_it_was_drawn_on_is_refused(
    client, cast, campaign, action, stale
):
    army = army_of(campaign, cast["alice"])
    signed_in(client, cast["alice"])
    form = {"unit": army["id"], "order": "defend", "ready": "yes", **stale}
    page = client.post(url(campaign, action), form, **HTMX)
    assert page.status_code == 200
    assert "This page is out of date: reload it and decide again." in page.text
    assert draft(campaign, cast["alice"]) is None  # nothing saved


@pytest.mark.parametrize(
    "name",
    ["campaign:orders", "campaign:setup", "campaign:dashboard", "battles:mine", "battles:admin"],
)
def test_each_page_that_htmx_swaps_answers_a_history_restore_with_the_whole_page(
    client, cast, campaign, name
):
    signed_in(client, cast["gm" if name in {"campaign:dashboard", "battles:admin"} else "alice"])
    args = [] if name == "battles:mine" else [campaign.slug]
    restore = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
    response = client.get(reverse(name, args=args), headers=restore)
    assert response.status_code == 200
    assert response.text.lstrip().startswith("<!doctype html>")
    assert "HX-Request" in response["Vary"]


def test_the_new_campaign_page_varies_on_htmx(client, cast):
    signed_in(client, cast["alice"])
    assert "HX-Request" in client.get(reverse("campaign:new"))["Vary"]
    preview = client.get(reverse("campaign:new_preview"), {"kingdoms": 2, "seed": 3}, **HTMX)
    assert "HX-Request" in preview["Vary"]
    assert not preview.text.lstrip().startswith("<!doctype html>")
