"""The rules casebook, part 2: a Summer month. Phase A (giving orders: rulings O1, O3, O8),
phase B (order resolution and exploration: O2, O4 to O7), phase D (Reform: R1 to R3), the
map as it shows in play (M1 to M7) and the dice (D1, D2).

Each case is a campaign file standing at a summer step (by default year 1, month 1,
orders), the decisions in `inputs`, the dice it rolls scripted in `dice`, and what a player
would check in the engine's answer. Two maps:

- `BOARD`: a hexagon of radius 3, all plains.
- `SEA`: the same with open water along its east edge ([3, -3] to [3, 0]); coast tiles
  [2, -2] (a forest) to [2, 1]; a river from [0, 0] through [1, 0] to its mouth at [2, 0];
  a lake at [1, -1]; a marsh at [1, -2]; and a bay (a water edge) between [2, 0] and [2, 1].
"""

from typing import Any

import pytest

from tests.rules.casebook import (
    Json,
    adjudicate,
    army,
    battles,
    events,
    happened,
    kingdom,
    make_map,
    move,
    order,
    pending,
    position,
    refusal,
    ship,
    tile,
    tile_at,
    unit,
)

BOARD = make_map(3)
SEA = make_map(
    3,
    terrain={
        (3, -3): "ocean",
        (3, -2): "ocean",
        (3, -1): "ocean",
        (3, 0): "ocean",
        (1, -1): "lake",
        (1, -2): "marsh",
        (2, -2): "forest",
    },
    coast=[(2, -2), (2, -1), (2, 0), (2, 1)],
    river=[(0, 0), (1, 0), (2, 0)],
    water_edges=[((2, 0), (2, 1))],
)
MONTH_2_ORDERS = {"year": 1, "season": "summer", "month": 2, "step": "orders"}


def orders(**by_kingdom: list[Json]) -> dict[str, Any]:
    return {"orders": by_kingdom}


def at(data: Json, unit_id: str) -> list[int]:
    """Where a unit is."""
    found = unit(data, unit_id)
    assert found is not None, f"{unit_id} is gone"
    return list(found["hex"])


def upright(data: Json, unit_id: str) -> bool:
    found = unit(data, unit_id)
    assert found is not None, f"{unit_id} is gone"
    return bool(found["upright"])


def owner(data: Json, hex_: tuple[int, int]) -> str | None:
    held = tile_at(data, hex_)
    return None if held is None else str(held["owner"])


def settlement(data: Json, hex_: tuple[int, int]) -> str | None:
    held = tile_at(data, hex_)
    assert held is not None, f"{list(hex_)} is unexplored"
    found: str | None = held["settlement"]
    return found


def steps_of(data: Json, type_: str) -> list[str]:
    """The step of each event of a type, oldest first."""
    return [e["step"] for e in events(data, type_)]


def all_dice(data: Json) -> list[int]:
    """Every die recorded in the events, in the order they were recorded (ruling D1)."""
    return [die for e in data["events"] for die in e.get("dice", [])]


# === A) Give orders =========================================================================

# --- O1, sealed ------------------------------------------------------------------------------


def two_and_two(**extra: Any) -> Json:
    """Red and Blue with two armies each, all at home on BOARD."""
    return position(
        tiles=[tile((0, 0), "red"), tile((2, 0), "blue")],
        armies=[
            army("red-1", (0, 0)),
            army("red-2", (0, 0)),
            army("blue-1", (2, 0)),
            army("blue-2", (2, 0)),
        ],
        **extra,
    )


def test_o1_sealed_waits_for_every_kingdom_missing_orders():
    """Sealed orders, nobody has given any. The engine waits for both kingdoms, naming
    every unit each still has to order, and stays at the orders step."""
    after = adjudicate(two_and_two())

    assert pending(after) == [
        {"kind": "orders", "kingdom": "red", "units": ["red-1", "red-2"]},
        {"kind": "orders", "kingdom": "blue", "units": ["blue-1", "blue-2"]},
    ]
    assert after["clock"] == {"year": 1, "season": "summer", "month": 1, "step": "orders"}


def test_o1_sealed_waits_only_for_the_kingdoms_still_missing_orders():
    """Red has ordered both its armies; Blue has ordered one. The engine waits for Blue's
    other army only, and keeps Red's orders (nothing is resolved until all are in)."""
    red = [order("red-1", "defend"), order("red-2", "defend")]
    data = two_and_two(inputs=orders(red=red, blue=[order("blue-1", "defend")]))

    after = adjudicate(data)

    assert pending(after) == [{"kind": "orders", "kingdom": "blue", "units": ["blue-2"]}]
    assert after["inputs"]["orders"]["red"] == red
    assert events(after, "defended") == []


# --- O1, cycle, and first player brakes -------------------------------------------------------


def test_o1_cycle_asks_the_first_player_first():
    """Cycle orders, nobody has given any. Only Red, the first player, is asked: it is its
    turn in the order cycle."""
    after = adjudicate(two_and_two(options={"orders": "cycle"}))

    assert pending(after) == [
        {"kind": "orders", "kingdom": "red", "units": ["red-1", "red-2"], "cycle": True}
    ]


def test_o1_cycle_pending_names_only_the_kingdom_whose_turn_it_is():
    """Cycle orders, two armies each, no brakes (equal armies). Red has given both its
    orders, Blue none. The cycle takes Red's first order, then it is Blue's turn: only Blue
    is asked."""
    data = two_and_two(
        options={"orders": "cycle"},
        inputs=orders(red=[order("red-1", "defend"), order("red-2", "defend")]),
    )

    after = adjudicate(data)

    assert [(p["kingdom"], p["units"]) for p in pending(after)] == [("blue", ["blue-1", "blue-2"])]


def test_o1_cycle_goes_round_one_order_at_a_time():
    """Cycle orders. Red has given one order, Blue two. The cycle takes Red's order, then
    Blue's first; now it is Red's turn again and Red has no order left to give: Red is asked
    for red-2, and Blue is not asked."""
    data = two_and_two(
        options={"orders": "cycle"},
        inputs=orders(
            red=[order("red-1", "defend")],
            blue=[order("blue-1", "defend"), order("blue-2", "defend")],
        ),
    )

    after = adjudicate(data)

    assert [(p["kingdom"], p["units"]) for p in pending(after)] == [("red", ["red-2"])]


def brakes(**extra: Any) -> Json:
    """Red (first) has two armies, Blue one: first player brakes apply."""
    return position(
        tiles=[tile((0, 0), "red"), tile((2, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (2, 0))],
        options={"orders": "cycle"},
        **extra,
    )


def test_o1_first_player_brakes_the_first_player_orders_all_its_armies_first():
    """Cycle orders. Red, first, has two armies and Blue one, so Red must order all its
    armies before anyone else. Red has given one order and Blue its only one: Red is asked
    for red-2 (under first player brakes), and Blue's order is not taken before it."""
    data = brakes(inputs=orders(red=[order("red-1", "defend")], blue=[order("blue-1", "defend")]))

    after = adjudicate(data)

    assert pending(after) == [
        {
            "kind": "orders",
            "kingdom": "red",
            "units": ["red-2"],
            "cycle": True,
            "first_player_brakes": True,
        }
    ]


def test_o1_first_player_brakes_then_the_cycle_goes_on_without_the_first_player():
    """Cycle orders. Red has three armies, Blue and Green one each. Red has ordered all its
    armies; Green has given its order but Blue has not. The cycle, without Red, starts with
    Blue: only Blue is asked."""
    data = position(
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "red"), tile((2, 0), "blue"), tile((-2, 0), "green")],
        armies=[
            army("red-1", (0, 0)),
            army("red-2", (0, 0)),
            army("red-3", (0, 0)),
            army("blue-1", (2, 0)),
            army("green-1", (-2, 0)),
        ],
        options={"orders": "cycle"},
        inputs=orders(
            red=[order(f"red-{n}", "defend") for n in (1, 2, 3)],
            green=[order("green-1", "defend")],
        ),
    )

    after = adjudicate(data)

    assert [(p["kingdom"], p["units"]) for p in pending(after)] == [("blue", ["blue-1"])]


def test_o1_first_player_brakes_count_armies_not_ships():
    """Cycle orders on SEA. Red, first, has one army and two ships; Blue one army. Red has
    no more armies than Blue, so no brakes: after Red's first order it is Blue's turn."""
    data = position(
        map=SEA,
        tiles=[tile((2, 0), "red", "city"), tile((-2, 0), "blue")],
        armies=[army("red-1", (2, 0)), army("blue-1", (-2, 0))],
        ships=[ship("red-s1", (2, 0)), ship("red-s2", (2, 0))],
        options={"orders": "cycle"},
        inputs=orders(red=[order("red-1", "defend")]),
    )

    after = adjudicate(data)

    assert [p["kingdom"] for p in pending(after)] == ["blue"]


def test_o1_o3_cycle_with_defaults_then_pending_names_the_first_player_of_the_next_month():
    """Cycle orders with --defaults and no orders given: each army takes Defend. The month
    is played out; at month 2 Red (two armies) is still first and brakes apply, so only Red
    is asked."""
    after = adjudicate(brakes(), defaults=True)

    assert [e["unit"] for e in events(after, "defended")] == ["red-1", "blue-1", "red-2"]
    assert after["clock"] == MONTH_2_ORDERS
    assert pending(after) == [
        {
            "kind": "orders",
            "kingdom": "red",
            "units": ["red-1", "red-2"],
            "cycle": True,
            "first_player_brakes": True,
        }
    ]


# --- O3: every unit has an order, and the deadline defaults ----------------------------------


def test_o3_an_army_on_its_side_may_only_regroup():
    """Red's army lies on its side. Ordered to move: refused, naming the army."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((1, 0), "red")],
        armies=[army("red-1", (0, 0), upright=False)],
        inputs=orders(red=[move("red-1", (1, 0))]),
    )

    refused = refusal(data)

    assert (refused.code, refused.unit) == ("must-regroup", "red-1")


@pytest.mark.parametrize(
    ("given", "code"),
    [
        (order("red-1", "regroup"), "regroup-upright"),
        (order("red-s1", "defend"), "ship-cannot-defend"),
        (order("red-1", "stay"), "army-cannot-stay"),
        (order("red-1", "raze"), "raze-off-settlement"),
    ],
    ids=["regroup-upright", "ship-defend", "army-stay", "raze-nothing"],
)
def test_o3_orders_a_unit_may_not_choose(given, code):
    """Regroup is only for a unit on its side; ships never Defend; "stay" is only a ship's
    deadline default; Raze needs a settlement in the tile (the coast tile [2, 0] has none)."""
    data = position(
        map=SEA,
        tiles=[tile((2, 0), "red")],
        armies=[army("red-1", (2, 0))],
        ships=[ship("red-s1", (2, 0))],
        inputs=orders(red=[given]),
    )

    assert refusal(data).code == code


def test_o3_defaults_defend_regroup_and_stay_after_the_listed_orders():
    """--defaults on SEA. Red lists one order (red-3 moves home to [-2, 1]) and leaves out
    red-1 (upright), red-2 (on its side) and its ship red-s1. Blue lists Defend for blue-1.
    The listed orders resolve first (red-3, then Blue's), then Red's defaults in id order:
    red-1 Defends, red-2 Regroups (and stands), red-s1 stays."""
    data = position(
        map=SEA,
        tiles=[tile((-1, 0), "red"), tile((-1, 1), "red"), tile((-2, 1), "red"),
               tile((2, 0), "red", "city"), tile((-3, 0), "blue")],
        armies=[army("red-1", (-1, 0)), army("red-2", (-1, 0), upright=False),
                army("red-3", (-1, 1)), army("blue-1", (-3, 0))],
        ships=[ship("red-s1", (2, 0))],
        inputs=orders(red=[move("red-3", (-2, 1))], blue=[order("blue-1", "defend")]),
    )  # fmt: skip

    after = adjudicate(data, defaults=True)

    resolved = [(e["type"], e["unit"]) for e in after["events"] if e["step"] == "resolution"]
    assert resolved == [
        ("moved", "red-3"),
        ("defended", "blue-1"),
        ("defended", "red-1"),
        ("regrouped", "red-2"),
        ("stayed", "red-s1"),
    ]
    assert upright(after, "red-2")
    assert at(after, "red-s1") == [2, 0]
    assert happened(after, "moved") == [
        {"type": "moved", "unit": "red-3", "kingdom": "red", "from": [-1, 1], "to": [-2, 1]}
    ]
    assert happened(after, "regrouped") == [{"type": "regrouped", "unit": "red-2", "hex": [-1, 0]}]
    assert happened(after, "stayed") == [{"type": "stayed", "unit": "red-s1", "hex": [2, 0]}]


def test_o3_defaults_stop_at_the_next_months_orders_not_the_current():
    """--defaults at month 1's orders with no orders given: month 1 is played with the
    defaults (no battle, no decision missing) and the engine stops at month 2's orders,
    waiting for every kingdom; month 2 is not played. (Tied on armies, the roll-off is
    6, 1: Red stays first.)"""
    after = adjudicate(two_and_two(dice=[6, 1]), defaults=True)

    assert after["clock"] == MONTH_2_ORDERS
    assert [p["kingdom"] for p in pending(after, "orders")] == ["red", "blue"]
    assert {e["month"] for e in events(after, "defended")} == {1}


def test_o3_defaults_from_reform_stop_at_the_very_next_orders():
    """--defaults from month 1's Reform step: Reform is done and the engine stops at month
    2's orders (the next month's orders, even though it did not start at an orders step)."""
    data = two_and_two(clock=(1, "summer", 1, "reform"), dice=[6, 1])

    after = adjudicate(data, defaults=True)

    assert after["clock"] == MONTH_2_ORDERS
    assert events(after, "defended") == []
    assert [p["kingdom"] for p in pending(after, "orders")] == ["red", "blue"]


def test_r1_o3_an_army_laid_down_by_terrain_must_regroup_next_month():
    """Month 1: Red's army walks from the plains [0, 0] into the forest [1, 0] and lies down
    at Reform. Month 2: a Move for it is refused; with --defaults it Regroups and stands,
    ready to move in month 3."""
    data = position(
        map=make_map(3, terrain={(1, 0): "forest"}),
        tiles=[tile((0, 0), "red"), tile((1, 0), "red"), tile((2, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (2, 0))],
        inputs=orders(red=[move("red-1", (1, 0))], blue=[order("blue-1", "defend")]),
    )
    month_2 = adjudicate(data)
    assert month_2["clock"] == MONTH_2_ORDERS
    assert not upright(month_2, "red-1")

    moving = {**month_2, "inputs": orders(red=[move("red-1", (2, 0))])}
    assert refusal(moving).code == "must-regroup"

    month_3 = adjudicate(month_2, defaults=True)
    assert [e["unit"] for e in events(month_3, "regrouped")] == ["red-1"]
    assert upright(month_3, "red-1")
    assert month_3["clock"]["month"] == 3


# --- O8 and the rulebook's ships: pairing, boarding, landing --------------------------------


def test_o8_an_army_boards_a_ship_in_its_tile_and_sails_with_it():
    """Red's army and ship are in the port [2, 0]. The ship moves out to open water [3, 0]
    carrying the army. The pair has one order: the army needs none of its own. Both end at
    [3, 0], the army aboard."""
    data = position(
        map=SEA,
        tiles=[tile((2, 0), "red", "city")],
        armies=[army("red-1", (2, 0))],
        ships=[ship("red-s1", (2, 0))],
        inputs=orders(red=[move("red-s1", (3, 0), carry="red-1")]),
    )

    after = adjudicate(data)

    assert at(after, "red-s1") == at(after, "red-1") == [3, 0]
    assert unit(after, "red-s1")["carrying"] == "red-1"  # type: ignore[index]
    assert happened(after, "army-boarded") == [
        {"type": "army-boarded", "army": "red-1", "ship": "red-s1", "hex": [2, 0]}
    ]
    assert after["clock"] == MONTH_2_ORDERS


def test_o8_an_army_aboard_has_no_order_of_its_own():
    """Red's army is aboard its ship at sea. An order for the army is refused: the ship's
    order is the pair's order."""
    data = position(
        map=SEA,
        armies=[army("red-1", (3, 0))],
        ships=[ship("red-s1", (3, 0), carrying="red-1")],
        inputs=orders(red=[move("red-s1", (2, 0), carry="red-1"), order("red-1", "defend")]),
    )

    refused = refusal(data)

    assert (refused.code, refused.unit) == ("order-for-carried-army", "red-1")


def test_o8_a_ship_and_its_army_land_together_the_army_stays_aboard():
    """Red's ship sails from open water [3, -1] to the unexplored coast [2, -1] keeping its
    army aboard. The pair explores the tile (2D6: 3 + 3, empty) for Red; the army is still
    aboard and no one lies down."""
    data = position(
        map=SEA,
        tiles=[tile((-2, 0), "red")],
        armies=[army("red-1", (3, -1))],
        ships=[ship("red-s1", (3, -1), carrying="red-1")],
        inputs=orders(red=[move("red-s1", (2, -1), carry="red-1")]),
        dice=[3, 3],
    )

    after = adjudicate(data)

    assert at(after, "red-1") == [2, -1]
    assert unit(after, "red-s1")["carrying"] == "red-1"  # type: ignore[index]
    assert tile_at(after, (2, -1)) == tile((2, -1), "red", None)
    assert upright(after, "red-1")
    assert upright(after, "red-s1")


def test_o8_an_army_lands_when_its_ships_order_does_not_carry_it():
    """Red's ship carries an army at the coast [2, -1]. The ship's order has no `carry`: the
    army lands when orders are given and needs its own order. Until it has one, the engine
    waits for it."""
    data = position(
        map=SEA,
        tiles=[tile((2, -1), "red")],
        armies=[army("red-1", (2, -1))],
        ships=[ship("red-s1", (2, -1), carrying="red-1")],
        inputs=orders(red=[move("red-s1", (3, -1))]),
    )

    waiting = adjudicate(data)
    assert pending(waiting) == [{"kind": "orders", "kingdom": "red", "units": ["red-1"]}]

    data["inputs"] = orders(red=[move("red-s1", (3, -1)), order("red-1", "defend")])
    after = adjudicate(data)

    assert at(after, "red-s1") == [3, -1]
    assert at(after, "red-1") == [2, -1]
    assert unit(after, "red-s1")["carrying"] is None  # type: ignore[index]
    assert happened(after, "army-landed") == [
        {"type": "army-landed", "army": "red-1", "ship": "red-s1", "hex": [2, -1]}
    ]
    assert [e["unit"] for e in events(after, "defended")] == ["red-1"]


def test_o8_no_landing_on_open_water():
    """Red's ship carries an army on open water [3, 0] and its order has no `carry`: the army
    can't land at sea. Refused, naming the ship."""
    data = position(
        map=SEA,
        armies=[army("red-1", (3, 0))],
        ships=[ship("red-s1", (3, 0), carrying="red-1")],
        inputs=orders(red=[move("red-s1", (3, -1))]),
    )

    refused = refusal(data)

    assert (refused.code, refused.unit) == ("landing-at-sea", "red-s1")


def test_o8_an_army_pairs_with_one_ship_only():
    """Two of Red's ships in the port [2, 0] both name Red's one army there as their
    passenger. Each ship pairs with one army, and an army with one ship: the second ship's
    order is refused, naming the army."""
    data = position(
        map=SEA,
        tiles=[tile((2, 0), "red", "city")],
        armies=[army("red-1", (2, 0))],
        ships=[ship("red-s1", (2, 0)), ship("red-s2", (2, 0))],
        inputs=orders(
            red=[move("red-s1", (3, 0), carry="red-1"), move("red-s2", (3, -1), carry="red-1")]
        ),
    )

    refused = refusal(data)

    assert (refused.code, refused.field, refused.unit) == (
        "army-on-two-ships",
        "inputs.orders.red[1].carry",
        "red-1",
    )


def test_o3_o8_a_ships_default_order_keeps_its_army_aboard():
    """--defaults: Red's upright ship at sea carrying an army has no order. It stays, and
    the army stays aboard (no landing at sea, no order for the army)."""
    data = position(
        map=SEA,
        tiles=[tile((-2, 0), "blue")],
        armies=[army("red-1", (3, 0)), army("blue-1", (-2, 0))],
        ships=[ship("red-s1", (3, 0), carrying="red-1")],
    )

    after = adjudicate(data, defaults=True)

    assert [e["unit"] for e in events(after, "stayed")] == ["red-s1"]
    assert unit(after, "red-s1")["carrying"] == "red-1"  # type: ignore[index]
    assert at(after, "red-1") == [3, 0]


def test_o3_o8_a_ship_and_its_army_regroup_together():
    """Red's ship lies on its side in its port, its army aboard on its side too (they lost a
    battle together). The ship's Regroup is the pair's one order: both stand."""
    data = position(
        map=SEA,
        tiles=[tile((2, 0), "red", "city")],
        armies=[army("red-1", (2, 0), upright=False)],
        ships=[ship("red-s1", (2, 0), upright=False, carrying="red-1")],
        inputs=orders(red=[order("red-s1", "regroup", carry="red-1")]),
    )

    after = adjudicate(data)

    assert upright(after, "red-s1")
    assert upright(after, "red-1")
    assert unit(after, "red-s1")["carrying"] == "red-1"  # type: ignore[index]


# === The map in play (M1 to M7) ==============================================================


@pytest.mark.parametrize(
    ("start", "to", "code"),
    [((0, 0), (2, 0), "move-not-adjacent"), ((3, 0), (4, 0), "move-off-map")],
    ids=["two-steps", "off-the-board-edge"],
)
def test_m1_a_move_goes_to_an_adjacent_tile_on_the_map(start, to, code):
    """A move two steps away, or over the board edge, is refused."""
    data = position(
        tiles=[tile(start, "red")],
        armies=[army("red-1", start)],
        inputs=orders(red=[move("red-1", to)]),
    )

    refused = refusal(data)

    assert (refused.code, refused.unit) == (code, "red-1")


@pytest.mark.parametrize(
    ("start", "to", "code"),
    [
        ((2, -2), (1, -2), "move-not-enterable"),
        ((2, 0), (3, 0), "move-not-enterable"),
        ((2, 0), (2, 1), "move-across-water"),
    ],
    ids=["marsh", "open-water", "across-the-bay"],
)
def test_m3_an_army_never_enters_marsh_or_open_water_nor_crosses_a_water_edge(start, to, code):
    """On SEA an army may not walk into the marsh [1, -2], onto open water [3, 0], or across
    the bay from [2, 0] to [2, 1]."""
    data = position(
        map=SEA,
        tiles=[tile(start, "red")],
        armies=[army("red-1", start)],
        inputs=orders(red=[move("red-1", to)]),
    )

    refused = refusal(data)

    assert (refused.code, refused.unit) == (code, "red-1")


def test_m2_a_tiles_flags_default_to_false_and_are_read_in_play():
    """A hand-written map gives each tile its terrain and only the flags it has: [1, 0] is
    a plain with `river: true`, every other flag left out. The flags left out are false
    and written out in full; the river is read: Red's army walking into [1, 0] lies down."""
    hexmap = {
        "tiles": [{"hex": [q, r], "terrain": "plains"} for q, r in [(0, 0), (-1, 0), (0, 1)]]
        + [{"hex": [1, 0], "terrain": "plains", "river": True}],
        "water_edges": [],
    }
    data = position(
        map=hexmap,
        tiles=[tile((0, 0), "red"), tile((1, 0), "red")],
        armies=[army("red-1", (0, 0))],
        inputs=orders(red=[move("red-1", (1, 0))]),
    )

    after = adjudicate(data)

    assert {"hex": [1, 0], "terrain": "plains", "river": True, "coast": False,
            "bridge": False, "start": False} in after["map"]["tiles"]  # fmt: skip
    assert not upright(after, "red-1")


def test_m3_ships_sail_rivers_lakes_coasts_and_open_water_and_cross_the_bay():
    """Four of Red's ships: red-s1 sails up the river from its mouth [2, 0] to [1, 0]; red-s2
    from the coast [2, -1] onto the lake [1, -1]; red-s3 along the open water from [3, -1]
    to [3, 0]; red-s4 across the bay from [2, 1] to [2, 0]. All legal; none lies down."""
    data = position(
        map=SEA,
        tiles=[tile(h, "red") for h in [(2, 0), (1, 0), (2, -1), (1, -1), (2, 1), (-2, 0)]],
        armies=[army("red-1", (-2, 0))],
        ships=[ship("red-s1", (2, 0)), ship("red-s2", (2, -1)), ship("red-s3", (3, -1)),
               ship("red-s4", (2, 1))],
        inputs=orders(red=[move("red-s1", (1, 0)), move("red-s2", (1, -1)),
                           move("red-s3", (3, 0)), move("red-s4", (2, 0)),
                           order("red-1", "defend")]),
    )  # fmt: skip

    after = adjudicate(data)

    assert [at(after, f"red-s{n}") for n in (1, 2, 3, 4)] == [[1, 0], [1, -1], [3, 0], [2, 0]]
    assert all(upright(after, f"red-s{n}") for n in (1, 2, 3, 4))


@pytest.mark.parametrize(
    ("start", "to"),
    [((1, 0), (1, 1)), ((2, -2), (1, -2))],
    ids=["dry-land", "marsh"],
)
def test_m3_a_ship_never_sails_onto_dry_land_or_into_a_marsh(start, to):
    """From the river [1, 0] onto the plain [1, 1] (no river, no coast), or from the coast
    [2, -2] into the marsh [1, -2]: refused."""
    data = position(
        map=SEA,
        tiles=[tile(start, "red")],
        ships=[ship("red-s1", start)],
        inputs=orders(red=[move("red-s1", to)]),
    )

    refused = refusal(data)

    assert (refused.code, refused.unit) == ("move-not-enterable", "red-s1")


def test_m4_open_water_is_never_explored_or_controlled():
    """Red's ship sails from its port onto open water [3, 0] and stays there through Reform
    (alone in the tile). No die is rolled, and [3, 0] is nobody's."""
    data = position(
        map=SEA,
        tiles=[tile((2, 0), "red", "city"), tile((-2, 0), "blue")],
        armies=[army("blue-1", (-2, 0))],
        ships=[ship("red-s1", (2, 0))],
        inputs=orders(red=[move("red-s1", (3, 0))], blue=[order("blue-1", "defend")]),
        dice=[],
    )

    after = adjudicate(data)

    assert at(after, "red-s1") == [3, 0]
    assert tile_at(after, (3, 0)) is None
    assert events(after, "explored") == []
    assert after["dice_rolled"] == 0


def test_m5_an_explored_tile_stays_controlled_when_its_army_leaves():
    """Red's army leaves the empty tile [1, 0] that Red explored earlier. [1, 0] stays Red's:
    control is only lost by having it taken."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((1, 0), "red"), tile((-2, 0), "blue")],
        armies=[army("red-1", (1, 0)), army("blue-1", (-2, 0))],
        inputs=orders(red=[move("red-1", (0, 0))], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert owner(after, (1, 0)) == "red"


@pytest.mark.parametrize(
    ("terrain", "river", "coast", "battlefield", "condition"),
    [
        ("mountains", True, False, "Mountains", "Unstable Ground"),
        ("forest", True, False, "River valley", "Boggy Ground"),
        ("lake", False, False, "River valley", "Boggy Ground"),
        ("forest", False, True, "Coastal", "Reduced Visibility"),
        ("forest", False, False, "Lowland forests", "Reduced Visibility"),
        ("plains", False, False, "Lowland plains", "Passing Engagement"),
    ],
)
def test_m6_the_battlefield_follows_the_tiles_terrain(
    terrain, river, coast, battlefield, condition
):
    """Red's army moves into Blue's tile [1, 0], where Blue's army stands: a pitched battle,
    handed off. Its battlefield row follows ruling M6's order (mountains, then river or lake,
    then coast, then forest, else plains); the condition die 1 picks that row's first
    entry, the scenario die 4 gives Pillage!."""
    hexmap = make_map(
        3,
        terrain={(1, 0): terrain, (2, 0): "ocean", (2, -1): "ocean"},
        river=[(1, 0)] if river else [],
        coast=[(1, 0)] if coast else [],
    )
    data = position(
        map=hexmap,
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (1, 0))],
        inputs=orders(red=[move("red-1", (1, 0))], blue=[order("blue-1", "defend")]),
        dice=[1, 4],
    )

    after = adjudicate(data)

    (battle,) = battles(after, (1, 0))
    assert battle["extra"]["battlefield"] == battlefield
    assert battle["condition"] == condition
    assert battle["scenario"] == "Pillage!"
    assert battle["dice"] == [1, 4]


def test_m7_summer_needs_no_connection_to_the_capital():
    """Red's army stands far from Red's capital, on a tile joined to nothing Red holds. It
    explores [2, 1] all the same (8: a village) and takes it: a kingdom need not be
    contiguous; connection matters only in winter."""
    data = position(
        tiles=[tile((-2, 0), "red", "city"), tile((2, 0), "red")],
        capitals={"red": (-2, 0)},
        armies=[army("red-1", (2, 0))],
        inputs=orders(red=[move("red-1", (2, 1))]),
        dice=[5, 3],
    )

    after = adjudicate(data)

    assert tile_at(after, (2, 1)) == tile((2, 1), "red", "village")


# === B) Order resolution =====================================================================

# --- O2: the resolution sequence ---------------------------------------------------------------


def test_o2_orders_resolve_one_per_kingdom_in_player_order_round_and_round():
    """Red (first) lists red-2 then red-1; Blue lists blue-1. Resolution takes Red's first
    (red-2), Blue's first (blue-1), then Red's second (red-1): each kingdom's list is its
    resolution sequence."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((0, 1), "red"), tile((-1, 1), "red"),
               tile((2, 0), "blue"), tile((2, -1), "blue")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (2, 0))],
        inputs=orders(red=[move("red-2", (0, 1)), move("red-1", (-1, 1))],
                      blue=[move("blue-1", (2, -1))]),
    )  # fmt: skip

    after = adjudicate(data)

    assert [e["unit"] for e in events(after, "moved")] == ["red-2", "blue-1", "red-1"]


def walk_out(player_order: tuple[str, str], blue: list[Json]) -> Json:
    """Blue's army stands in its village [1, 0] and walks out to [2, 0]; Red's army walks in
    from [0, 0]. Blue also has an army at home that Defends."""
    return position(
        player_order=player_order,
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue", "village"), tile((2, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (1, 0)), army("blue-2", (2, 0))],
        inputs=orders(red=[move("red-1", (1, 0))], blue=blue),
    )


def test_o2_o4_an_enemy_that_walks_out_first_lets_the_tile_change_hands_at_once():
    """Player order Blue, Red. Blue's army leaves the village before Red's arrives, so when
    Red's move resolves no enemy is there: Red takes the village at once, during
    resolution."""
    blue = [move("blue-1", (2, 0)), order("blue-2", "defend")]

    after = adjudicate(walk_out(("blue", "red"), blue))

    assert tile_at(after, (1, 0)) == tile((1, 0), "red", "village")
    assert [(e["hex"], e["step"]) for e in events(after, "tile-taken")] == [([1, 0], "resolution")]
    assert battles(after) == []


@pytest.mark.parametrize(
    ("player_order", "blue"),
    [
        (("red", "blue"), [move("blue-1", (2, 0)), order("blue-2", "defend")]),
        (("blue", "red"), [order("blue-2", "defend"), move("blue-1", (2, 0))]),
    ],
    ids=["red-first", "blue-walks-out-second"],
)
def test_o2_o4_r2_an_enemy_still_there_keeps_the_tile_until_reform(player_order, blue):
    """Red's army enters the village while Blue's is still there (Red moves first, or Blue
    put its walk-out second in its sequence): the tile does not change hands then. Blue's
    army then walks out, there is no battle, and at Reform the tile, holding only Red's
    army, becomes Red's (conquering heroes)."""
    after = adjudicate(walk_out(player_order, blue))

    assert tile_at(after, (1, 0)) == tile((1, 0), "red", "village")
    assert [(e["hex"], e["step"]) for e in events(after, "tile-taken")] == [([1, 0], "reform")]
    assert battles(after) == []


# --- O4: moving into a controlled tile ---------------------------------------------------------


def test_o4_a_move_into_an_enemy_tile_with_no_enemy_takes_it_with_its_settlement():
    """Red's army moves into Blue's fortress [1, 0]; no Blue unit is there. Red takes the
    tile, the fortress with it."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue", "fortress"), tile((-3, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (-3, 0))],
        inputs=orders(red=[move("red-1", (1, 0))], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert tile_at(after, (1, 0)) == tile((1, 0), "red", "fortress")
    assert at(after, "red-1") == [1, 0]
    assert events(after, "tile-taken")[0]["from"] == "blue"


def test_o4_an_enemy_army_in_the_tile_keeps_it_and_a_battle_follows():
    """Red's army moves into Blue's village [1, 0], where Blue's army Defends. Red enters
    but does not take the tile; the battle step hands off a pitched battle (condition die 5,
    scenario die 1: Kill!) with Blue defending a village, and waits for its result."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue", "village")],
        armies=[army("red-1", (0, 0)), army("blue-1", (1, 0))],
        inputs=orders(red=[move("red-1", (1, 0))], blue=[order("blue-1", "defend")]),
        dice=[5, 1],
    )

    after = adjudicate(data)

    assert at(after, "red-1") == [1, 0]
    assert owner(after, (1, 0)) == "blue"
    assert events(after, "tile-taken") == []
    (battle,) = battles(after)
    assert (battle["attacker"], battle["defender"], battle["status"]) == (
        "red",
        "blue",
        "awaiting_result",
    )
    assert [side["defending"] for side in battle["sides"]] == [False, True]
    assert battle["defender_benefit"].startswith("May add up to 1 blocking")
    assert battle["scenario"] == "Kill!"
    assert after["clock"]["step"] == "battles"
    assert [(p["kind"], p["kingdom"]) for p in pending(after)] == [
        ("battle_result", "red"),
        ("battle_result", "blue"),
    ]


def test_o4_an_enemy_ship_in_the_tile_keeps_it_too():
    """On SEA, Red's army moves from the river [1, 0] into Blue's coast tile [2, -1], where
    only a Blue ship lies. The ship is an enemy in the tile, so Red does not take it when
    its move resolves. The land/water battle follows (Red's die 5, then Blue's die 2): Red
    wins, the ship retreats to open water [3, -1], and only then is the tile Red's."""
    data = position(
        map=SEA,
        tiles=[tile((1, 0), "red"), tile((2, -1), "blue")],
        armies=[army("red-1", (1, 0))],
        ships=[ship("blue-s1", (2, -1))],
        inputs={
            **orders(red=[move("red-1", (2, -1))], blue=[order("blue-s1", "stay")]),
            "retreats": {"blue-s1": [3, -1]},
        },
        dice=[5, 2],
    )

    after = adjudicate(data)

    (battle,) = battles(after)
    assert (battle["kind"], battle["winner"], battle["dice"]) == ("land_water", "red", [5, 2])
    assert steps_of(after, "tile-taken") == ["battles"]
    assert owner(after, (2, -1)) == "red"
    assert at(after, "blue-s1") == [3, -1]
    assert not upright(after, "blue-s1")


# --- O5 and the exploration table --------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "found"),
    [
        ((1, 1), None),
        ((3, 4), None),
        ((2, 6), "village"),
        ((4, 5), "village"),
        ((4, 6), "city"),
        ((5, 6), "fortress"),
        ((6, 6), "fortress"),
    ],
    ids=["2-empty", "7-empty", "8-village", "9-village", "10-city", "11-fortress", "12-fortress"],
)
def test_o5_exploration_table(dice, found):
    """Red's army moves into the unexplored [1, 0]. Two dice are rolled as the move resolves:
    2-7 empty, 8-9 a village, 10 a city, 11-12 a fortress, controlled by Red. The event
    records the dice."""
    data = position(
        tiles=[tile((0, 0), "red")],
        armies=[army("red-1", (0, 0))],
        inputs=orders(red=[move("red-1", (1, 0))]),
        dice=list(dice),
    )

    after = adjudicate(data)

    assert tile_at(after, (1, 0)) == tile((1, 0), "red", found)
    assert at(after, "red-1") == [1, 0]
    (explored,) = events(after, "explored")
    assert (explored["kingdom"], explored["dice"], explored["settlement"]) == (
        "red",
        list(dice),
        found,
    )
    assert after["dice"] == []


def test_o5_a_second_kingdom_into_a_tile_just_explored_does_not_roll():
    """Red (first) and Blue both move into the unexplored [1, 0]. Red's move resolves first
    and explores it (4 + 4: a village for Red). When Blue's resolves the tile is already
    controlled, with Red's army in it: Blue enters without rolling and takes nothing. The
    next two dice are the battle's (condition 3, scenario 2)."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((2, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (2, 0))],
        inputs=orders(red=[move("red-1", (1, 0))], blue=[move("blue-1", (1, 0))]),
        dice=[4, 4, 3, 2],
    )

    after = adjudicate(data)

    assert [e["dice"] for e in events(after, "explored")] == [[4, 4]]
    assert tile_at(after, (1, 0)) == tile((1, 0), "red", "village")
    assert at(after, "blue-1") == [1, 0]
    assert battles(after)[0]["dice"] == [3, 2]
    assert after["dice"] == []


def test_o5_a_second_army_of_the_same_kingdom_does_not_roll_either():
    """Two Red armies move into the unexplored [1, 0]. The first explores it (2 + 6: a
    village); the second finds it controlled, by Red, and rolls nothing."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((-3, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 0))],
        inputs=orders(
            red=[move("red-1", (1, 0)), move("red-2", (1, 0))], blue=[order("blue-1", "defend")]
        ),
        dice=[2, 6],
    )

    after = adjudicate(data)

    assert len(events(after, "explored")) == 1
    assert at(after, "red-1") == at(after, "red-2") == [1, 0]
    assert tile_at(after, (1, 0)) == tile((1, 0), "red", "village")


def test_o5_a_ship_explores_an_unexplored_coast_tile():
    """Red's ship sails from the coast [2, -1] into the unexplored forest coast [2, -2]
    (5 + 5: a city). The city is Red's; the ship does not lie down in the forest."""
    data = position(
        map=SEA,
        tiles=[tile((2, -1), "red"), tile((-2, 0), "blue")],
        armies=[army("blue-1", (-2, 0))],
        ships=[ship("red-s1", (2, -1))],
        inputs=orders(red=[move("red-s1", (2, -2))], blue=[order("blue-1", "defend")]),
        dice=[5, 5],
    )

    after = adjudicate(data)

    assert tile_at(after, (2, -2)) == tile((2, -2), "red", "city")
    assert upright(after, "red-s1")


# --- O6: raze -----------------------------------------------------------------------------------


def raze_village(player_order: tuple[str, str], *, dice: list[int], **inputs: Any) -> Json:
    """Red's army in Red's village [1, 0] razes it; Blue's army moves in from [2, 0]."""
    return position(
        player_order=player_order,
        tiles=[tile((0, 0), "red"), tile((1, 0), "red", "village"), tile((2, 0), "blue")],
        armies=[army("red-1", (1, 0)), army("blue-1", (2, 0))],
        inputs={**orders(red=[order("red-1", "raze")], blue=[move("blue-1", (1, 0))]), **inputs},
        dice=dice,
    )


def test_o6_raze_removes_the_settlement():
    """Red's army razes Red's own village [1, 0]; no enemy is there. The village is gone;
    the tile stays Red's."""
    data = position(
        tiles=[tile((1, 0), "red", "village"), tile((-3, 0), "blue")],
        armies=[army("red-1", (1, 0)), army("blue-1", (-3, 0))],
        inputs=orders(red=[order("red-1", "raze")], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert tile_at(after, (1, 0)) == tile((1, 0), "red", None)
    assert happened(after, "razed") == [
        {"type": "razed", "unit": "red-1", "hex": [1, 0], "settlement": "village"}
    ]


def test_o6_a_raze_fails_when_an_enemy_arrived_first():
    """Player order Blue, Red. Blue's army enters Red's village before Red's raze resolves:
    the raze fails with no effect, naming the enemy. (The pitched battle is then handed off:
    condition 6, scenario 6.)"""
    after = adjudicate(raze_village(("blue", "red"), dice=[6, 6]))

    assert settlement(after, (1, 0)) == "village"
    assert happened(after, "raze-failed") == [
        {"type": "raze-failed", "unit": "red-1", "hex": [1, 0], "enemies": ["blue-1"]}
    ]
    assert events(after, "razed") == []


def test_o6_a_raze_before_the_enemy_arrives_succeeds():
    """Player order Red, Blue: the same orders, but Red's raze resolves before Blue's army
    arrives. The village is burnt; Blue enters a tile with Red's army and takes nothing."""
    after = adjudicate(raze_village(("red", "blue"), dice=[6, 6]))

    assert tile_at(after, (1, 0)) == tile((1, 0), "red", None)
    assert at(after, "blue-1") == [1, 0]


def test_o6_reform_ii_a_failed_raze_leaves_the_settlement_standing():
    """The raze fails (Blue arrived first), Red concedes the battle (no dice) and retreats
    to [0, 0] on its side; Blue takes the tile. After Reform (a roll-off, 6 and 1, for the
    tied player order) the village is still there, Blue's."""
    data = raze_village(("blue", "red"), battles=[{"hex": [1, 0], "concede": "red"}], dice=[6, 1])

    after = adjudicate(data)

    assert after["clock"] == MONTH_2_ORDERS
    assert tile_at(after, (1, 0)) == tile((1, 0), "blue", "village")
    assert at(after, "red-1") == [0, 0]
    assert not upright(after, "red-1")


def test_o6_the_second_raze_of_a_settlement_finds_nothing_left():
    """Two Red armies raze the same village. The first burns it; the second finds nothing
    left to burn, and says so."""
    data = position(
        tiles=[tile((1, 0), "red", "village"), tile((-3, 0), "blue")],
        armies=[army("red-1", (1, 0)), army("red-2", (1, 0)), army("blue-1", (-3, 0))],
        inputs=orders(
            red=[order("red-1", "raze"), order("red-2", "raze")], blue=[order("blue-1", "defend")]
        ),
    )

    after = adjudicate(data)

    assert [e["unit"] for e in events(after, "razed")] == ["red-1"]
    assert happened(after, "raze-nothing-left") == [
        {"type": "raze-nothing-left", "unit": "red-2", "hex": [1, 0]}
    ]


def test_o6_a_ship_may_raze_the_settlement_it_lies_at():
    """Red's ship lies at Blue's coastal village [2, -1] (a ship may Raze too); no Blue unit
    is there. The village is burnt."""
    data = position(
        map=SEA,
        tiles=[tile((2, -1), "blue", "village"), tile((-2, 0), "blue")],
        armies=[army("blue-1", (-2, 0))],
        ships=[ship("red-s1", (2, -1))],
        inputs=orders(red=[order("red-s1", "raze")], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert settlement(after, (2, -1)) is None
    assert happened(after, "razed") == [
        {"type": "razed", "unit": "red-s1", "hex": [2, -1], "settlement": "village"}
    ]


def test_o6_o7_razing_a_capital_leaves_its_kingdom_without_one():
    """Red razes its own capital [0, 0]. The city is gone and Red has no capital."""
    data = position(
        tiles=[tile((0, 0), "red", "city"), tile((-3, 0), "blue")],
        capitals={"red": (0, 0)},
        armies=[army("red-1", (0, 0)), army("blue-1", (-3, 0))],
        inputs=orders(red=[order("red-1", "raze")], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert settlement(after, (0, 0)) is None
    assert kingdom(after, "red")["capital"] is None
    assert happened(after, "capital-lost") == [
        {"type": "capital-lost", "kingdom": "red", "hex": [0, 0], "how": "razed"}
    ]


# --- Defend and Regroup ------------------------------------------------------------------------


def test_r3_defend_holds_the_tile_and_the_marker_ends_with_the_month():
    """Red's army Defends its tile: it stays, is marked as defending while the month is
    played (the event), and the marker is gone when month 2 begins."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((-3, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (-3, 0))],
        inputs=orders(red=[order("red-1", "defend")], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert [e["hex"] for e in events(after, "defended")] == [[0, 0], [-3, 0]]
    assert at(after, "red-1") == [0, 0]
    assert "defending" not in unit(after, "red-1")  # type: ignore[operator]


def test_o3_regroup_stands_an_army_on_its_side_upright():
    """Red's army lies on its side; it Regroups and stands upright at resolution."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((-3, 0), "blue")],
        armies=[army("red-1", (0, 0), upright=False), army("blue-1", (-3, 0))],
        inputs=orders(red=[order("red-1", "regroup")], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert upright(after, "red-1")
    assert steps_of(after, "regrouped") == ["resolution"]


# --- O7: capitals taken -------------------------------------------------------------------------


def test_o7_a_capital_taken_becomes_a_plain_city():
    """Red's army walks into Blue's capital [2, 0]; no Blue unit is there. Red takes the
    tile; it is still a city, now Red's, and Blue has no capital."""
    data = position(
        tiles=[tile((1, 0), "red"), tile((2, 0), "blue", "city"), tile((2, -1), "blue")],
        capitals={"blue": (2, 0)},
        armies=[army("red-1", (1, 0)), army("blue-1", (2, -1))],
        inputs=orders(red=[move("red-1", (2, 0))], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert tile_at(after, (2, 0)) == tile((2, 0), "red", "city")
    assert kingdom(after, "blue")["capital"] is None
    assert [(e["kingdom"], e["how"], e["step"]) for e in events(after, "capital-lost")] == [
        ("blue", "taken", "resolution")
    ]


def test_o7_a_lost_capital_retaken_is_still_a_plain_city():
    """Blue's old capital [2, 0] is now Red's city; Blue has no capital. Blue's army walks
    back in; no Red unit is there. Blue takes the city back, but it is not Blue's capital
    again."""
    data = position(
        tiles=[tile((1, 0), "red"), tile((2, 0), "red", "city"), tile((2, -1), "blue")],
        armies=[army("red-1", (1, 0)), army("blue-1", (2, -1))],
        inputs=orders(red=[order("red-1", "defend")], blue=[move("blue-1", (2, 0))]),
    )

    after = adjudicate(data)

    assert tile_at(after, (2, 0)) == tile((2, 0), "blue", "city")
    assert kingdom(after, "blue")["capital"] is None
    assert events(after, "capital-lost") == []


def test_o7_r2_a_capital_taken_at_reform_is_lost_too():
    """Red's army walks into Blue's capital while Blue's army is still there; Blue's army
    then walks out. At Reform the tile holds only Red's army and becomes Red's: Blue's
    capital is lost then."""
    data = position(
        tiles=[tile((1, 0), "red"), tile((2, 0), "blue", "city"), tile((2, -1), "blue")],
        capitals={"blue": (2, 0)},
        armies=[army("red-1", (1, 0)), army("blue-1", (2, 0))],
        inputs=orders(red=[move("red-1", (2, 0))], blue=[move("blue-1", (2, -1))]),
    )

    after = adjudicate(data)

    assert tile_at(after, (2, 0)) == tile((2, 0), "red", "city")
    assert kingdom(after, "blue")["capital"] is None
    assert steps_of(after, "capital-lost") == ["reform"]


# === D) Reform ===============================================================================

# --- R1: terrain ---------------------------------------------------------------------------------

FROM, TO = (0, 0), (1, 0)

R1_CASES: list[tuple[str, Json, Json, bool]] = [
    ("plains-to-plains", {}, {}, True),
    ("into-forest", {}, {"terrain": "forest"}, False),
    ("out-of-forest", {"terrain": "forest"}, {}, False),
    ("into-mountains", {}, {"terrain": "mountains"}, False),
    ("out-of-mountains", {"terrain": "mountains"}, {}, False),
    ("into-river", {}, {"river": True}, False),
    ("out-of-river", {"river": True}, {}, True),
    ("river-to-river", {"river": True}, {"river": True}, False),
    ("into-lake", {}, {"terrain": "lake"}, False),
    ("out-of-lake", {"terrain": "lake"}, {}, True),
    ("into-river-mouth", {}, {"river": True, "coast": True}, False),
    ("into-coast", {}, {"coast": True}, True),
    ("over-a-bridge", {}, {"river": True, "bridge": True}, True),
    ("bridge-in-a-forest", {}, {"terrain": "forest", "river": True, "bridge": True}, False),
    ("bridge-at-the-start-only", {"river": True, "bridge": True}, {"river": True}, False),
    ("into-a-forest-city", {}, {"terrain": "forest", "settlement": "city"}, True),
    ("out-of-a-mountain-city", {"terrain": "mountains", "settlement": "city"}, {}, True),
    ("city-to-forest", {"settlement": "city"}, {"terrain": "forest"}, True),
    ("into-a-river-city", {}, {"river": True, "settlement": "city"}, True),
    ("into-a-capital", {}, {"river": True, "settlement": "capital"}, True),
    ("into-a-forest-village", {}, {"terrain": "forest", "settlement": "village"}, False),
    ("into-a-river-fortress", {}, {"river": True, "settlement": "fortress"}, False),
]


def r1_position(start: Json, end: Json) -> Json:
    """Red's army walks from [0, 0] to [1, 0], both Red's, each with the terrain, flags and
    settlement given ("capital": Red's capital city)."""
    specs = {FROM: start, TO: end}
    hexmap = make_map(
        2,
        terrain={h: s["terrain"] for h, s in specs.items() if "terrain" in s},
        river=[h for h, s in specs.items() if s.get("river")],
        coast=[h for h, s in specs.items() if s.get("coast")],
        bridge=[h for h, s in specs.items() if s.get("bridge")],
    )
    built = {h: s.get("settlement") for h, s in specs.items()}
    capital = [h for h, s in built.items() if s == "capital"]
    return position(
        map=hexmap,
        tiles=[tile(h, "red", "city" if s == "capital" else s) for h, s in built.items()]
        + [tile((-2, 0), "blue")],
        capitals={"red": capital[0]} if capital else None,
        armies=[army("red-1", FROM), army("blue-1", (-2, 0))],
        inputs=orders(red=[move("red-1", TO)], blue=[order("blue-1", "defend")]),
    )


@pytest.mark.parametrize(
    ("start", "end", "stands"),
    [case[1:] for case in R1_CASES],
    ids=[case[0] for case in R1_CASES],
)
def test_r1_terrain_lays_a_moving_army_on_its_side(start, end, stands):
    """Reform i and ruling R1. An army that moved lies on its side if its start or end tile
    is mountains or forest, or its end tile has a river or is a lake, unless that river has a
    bridge; moving out of a river or lake tile does not count. Never when its start or end
    tile holds a city (a capital too); a village or fortress is no exception."""
    after = adjudicate(r1_position(start, end))

    assert at(after, "red-1") == list(TO)
    assert upright(after, "red-1") is stands
    assert len(events(after, "slowed-by-terrain")) == (0 if stands else 1)
    assert steps_of(after, "slowed-by-terrain") == ([] if stands else ["reform"])


def test_r1_an_army_that_did_not_move_stays_upright_in_a_forest():
    """Red's army Defends in a forest on a mountain's edge: it did not move, so terrain does
    not lay it down."""
    data = position(
        map=make_map(3, terrain={(0, 0): "forest", (1, 0): "mountains"}),
        tiles=[tile((0, 0), "red"), tile((-3, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (-3, 0))],
        inputs=orders(red=[order("red-1", "defend")], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert upright(after, "red-1")


@pytest.mark.parametrize(
    ("dice", "found", "stands"),
    [((5, 5), "city", True), ((4, 4), "village", False)],
)
def test_o5_r1_exploring_a_forest_that_holds_a_city_does_not_lay_the_army_down(dice, found, stands):
    """Red's army explores the unexplored forest [1, 0]. If the dice find a city there
    (10), the army is on roads and stays upright; if a village (8), the forest lays it down
    at Reform."""
    data = position(
        map=make_map(3, terrain={(1, 0): "forest"}),
        tiles=[tile((0, 0), "red")],
        armies=[army("red-1", (0, 0))],
        inputs=orders(red=[move("red-1", (1, 0))]),
        dice=list(dice),
    )

    after = adjudicate(data)

    assert settlement(after, (1, 0)) == found
    assert upright(after, "red-1") is stands


def test_r1_o8_ships_and_their_armies_never_lie_down_for_terrain():
    """On SEA, Red's ship sails up the river from its mouth [2, 0] to [1, 0] carrying
    red-1, while red-2 walks the same way. red-2 lies down (into a river tile); the ship and
    the army aboard stay upright."""
    data = position(
        map=SEA,
        tiles=[tile((2, 0), "red"), tile((1, 0), "red"), tile((-2, 0), "blue")],
        armies=[army("red-1", (2, 0)), army("red-2", (2, 0)), army("blue-1", (-2, 0))],
        ships=[ship("red-s1", (2, 0))],
        inputs=orders(
            red=[move("red-s1", (1, 0), carry="red-1"), move("red-2", (1, 0))],
            blue=[order("blue-1", "defend")],
        ),
    )

    after = adjudicate(data)

    assert at(after, "red-1") == at(after, "red-2") == at(after, "red-s1") == [1, 0]
    assert upright(after, "red-s1")
    assert upright(after, "red-1")
    assert not upright(after, "red-2")
    assert [e["unit"] for e in events(after, "slowed-by-terrain")] == ["red-2"]


def reforming(player_order: tuple[str, ...] = ("red", "blue")) -> Json:
    """Month 1's Reform: red-1 and red-2 moved out of the forest [0, 0] into Red's [1, 0];
    red-2 lost a battle there and already lies on its side. Blue's one army stayed home."""
    moved = [[0, 0], [1, 0]]
    return position(
        map=make_map(3, terrain={(0, 0): "forest"}),
        clock=(1, "summer", 1, "reform"),
        player_order=player_order,
        tiles=[tile((0, 0), "red"), tile((1, 0), "red"), tile((-3, 0), "blue")],
        armies=[army("red-1", (1, 0), moved=moved),
                army("red-2", (1, 0), upright=False, moved=moved),
                army("blue-1", (-3, 0))],
        dice=[],
    )  # fmt: skip


def test_r1_the_army_laid_down_is_told_with_its_move_and_one_already_down_is_not():
    """red-1 lies down for the forest it left, told with its move, from [0, 0] to [1, 0];
    red-2, lying on its side already, is not laid down again."""
    after = adjudicate(reforming())

    (slowed,) = events(after, "slowed-by-terrain")
    assert slowed == {**slowed, "unit": "red-1", "from": [0, 0], "to": [1, 0]}
    assert not upright(after, "red-1")
    assert not upright(after, "red-2")


def test_r3_the_new_player_order_is_told():
    """Player order Blue, Red: Red's two armies put it first; the player-order event tells
    the new order, Red then Blue, with each kingdom's armies."""
    after = adjudicate(reforming(player_order=("blue", "red")))

    assert after["player_order"] == ["red", "blue"]
    (reordered,) = events(after, "player-order")
    assert (reordered["order"], reordered["armies"]) == (["red", "blue"], {"red": 2, "blue": 1})


# --- R2: conquering heroes -------------------------------------------------------------------------


def test_r2_a_tile_held_by_one_kingdoms_units_becomes_its_own_even_lying_down():
    """Red's army lies on its side, alone, in Blue's village [1, 0] (it lost there and could
    not leave). It Regroups. At Reform the tile holds only Red's units: it becomes Red's,
    the village with it."""
    data = position(
        tiles=[tile((1, 0), "blue", "village"), tile((-3, 0), "blue")],
        armies=[army("red-1", (1, 0), upright=False), army("blue-1", (-3, 0))],
        inputs=orders(red=[order("red-1", "regroup")], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert tile_at(after, (1, 0)) == tile((1, 0), "red", "village")
    assert steps_of(after, "tile-taken") == ["reform"]


# --- R3 and D2: the new player order -------------------------------------------------------------


def test_r3_the_kingdom_with_most_armies_goes_first_armies_aboard_ships_count():
    """Player order Blue, Red. Red has two armies, one of them aboard a ship; Blue has one
    army and two ships. Ships don't count, armies aboard do: Red (2) goes first, Blue (1)
    second, and no die is rolled."""
    data = position(
        map=SEA,
        player_order=("blue", "red"),
        tiles=[tile((2, 0), "red", "city"), tile((2, -1), "blue", "village"),
               tile((-2, 0), "blue")],
        armies=[army("red-1", (3, 0)), army("red-2", (2, 0)), army("blue-1", (-2, 0))],
        ships=[ship("red-s1", (3, 0), carrying="red-1"), ship("blue-s1", (2, -1)),
               ship("blue-s2", (2, -1))],
        inputs=orders(
            red=[order("red-s1", "stay", carry="red-1"), order("red-2", "defend")],
            blue=[order("blue-1", "defend"), order("blue-s1", "stay"), order("blue-s2", "stay")],
        ),
        dice=[],
    )  # fmt: skip

    after = adjudicate(data)

    assert after["player_order"] == ["red", "blue"]
    (reordered,) = events(after, "player-order")
    assert reordered["armies"] == {"blue": 1, "red": 2}
    assert events(after, "roll-off") == []


def test_r3_d2_ties_are_broken_by_a_roll_off_in_the_current_player_order():
    """Player order Blue, Green, Red, one army each: all tied. They roll in the current
    order: Blue 3, Green 5, Red 5. Green and Red are still tied and roll again, Green first:
    2 and 6. The new order is Red, Green, Blue."""
    data = position(
        kingdoms=("red", "blue", "green"),
        player_order=("blue", "green", "red"),
        tiles=[tile((0, 0), "red"), tile((2, 0), "blue"), tile((-2, 0), "green")],
        armies=[army("red-1", (0, 0)), army("blue-1", (2, 0)), army("green-1", (-2, 0))],
        inputs=orders(
            red=[order("red-1", "defend")],
            blue=[order("blue-1", "defend")],
            green=[order("green-1", "defend")],
        ),
        dice=[3, 5, 5, 2, 6],
    )

    after = adjudicate(data)

    assert after["player_order"] == ["red", "green", "blue"]
    assert [(e["kingdoms"], e["dice"], e["step"]) for e in events(after, "roll-off")] == [
        (["blue", "green", "red"], [3, 5, 5], "reform"),
        (["green", "red"], [2, 6], "reform"),
    ]
    assert after["dice"] == []


def test_r3_d2_a_roll_off_tells_why_and_a_roll_again_tells_the_same():
    """Month 1's Reform: Red and Blue have one army each, tied on 1. They roll 4 and 4,
    still tied, and roll again: 2 and 5. Both roll-offs tell why: the player order, tied
    on 1 armies. Blue goes first."""
    data = reforming(player_order=("red", "blue"))
    data["armies"] = [a for a in data["armies"] if a["id"] != "red-2"]
    data["dice"] = [4, 4, 2, 5]

    after = adjudicate(data)

    assert after["player_order"] == ["blue", "red"]
    assert [(e["why"], e["dice"]) for e in events(after, "roll-off")] == [
        ("player order: tied on 1 armies", [4, 4]),
        ("player order: tied on 1 armies", [2, 5]),
    ]


def test_r3_only_tied_places_roll_off():
    """Red has two armies, Blue and Green one each (player order Green, Blue, Red). Red is
    first without rolling; Green and Blue roll for second, Green first: 1 and 4."""
    data = position(
        kingdoms=("red", "blue", "green"),
        player_order=("green", "blue", "red"),
        tiles=[tile((0, 0), "red"), tile((2, 0), "blue"), tile((-2, 0), "green")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (2, 0)),
                army("green-1", (-2, 0))],
        inputs=orders(
            red=[order("red-1", "defend"), order("red-2", "defend")],
            blue=[order("blue-1", "defend")],
            green=[order("green-1", "defend")],
        ),
        dice=[1, 4],
    )  # fmt: skip

    after = adjudicate(data)

    assert after["player_order"] == ["red", "blue", "green"]
    assert [e["kingdoms"] for e in events(after, "roll-off")] == [["green", "blue"]]


def test_r3_after_the_sixth_month_winter_begins():
    """Month 6's Reform sets the player order, then the campaign moves on to winter."""
    data = two_and_two(
        clock=(1, "summer", 6, "orders"),
        inputs=orders(
            red=[order("red-1", "defend"), order("red-2", "defend")],
            blue=[order("blue-1", "defend"), order("blue-2", "defend")],
        ),
        dice=[6, 1],
    )

    after = adjudicate(data)

    assert [e["month"] for e in events(after, "player-order")] == [6]
    assert after["player_order"] == ["red", "blue"]
    assert after["clock"]["season"] == "winter"
    assert after["clock"]["month"] == 0


# === Stopping where a decision is missing, at each summer step ===============================


def test_summer_a_file_at_resolution_or_reform_needs_no_decision():
    """A file standing at the resolution step, with its orders, is resolved, its month
    played out, and the engine stops at month 2's orders (resolution and Reform ask nobody
    anything)."""
    data = two_and_two(
        clock=(1, "summer", 1, "resolution"),
        inputs=orders(
            red=[order("red-1", "defend"), order("red-2", "defend")],
            blue=[order("blue-1", "defend"), order("blue-2", "defend")],
        ),
        dice=[2, 3],
    )

    after = adjudicate(data)

    assert len(events(after, "defended")) == 4
    assert after["clock"] == MONTH_2_ORDERS
    assert [p["kind"] for p in pending(after)] == ["orders", "orders"]


def contested(**extra: Any) -> Json:
    """Red and Blue armies share [1, 0] and [-1, 0] (still contested from last month), each
    Defending."""
    return position(
        tiles=[tile((1, 0), "blue"), tile((-1, 0), "red"), tile((0, 0), "red"),
               tile((2, 0), "blue"), tile((2, -1), "blue")],
        armies=[army("red-1", (1, 0)), army("red-2", (-1, 0)), army("blue-1", (1, 0)),
                army("blue-2", (-1, 0))],
        inputs=orders(
            red=[order("red-1", "defend"), order("red-2", "defend")],
            blue=[order("blue-1", "defend"), order("blue-2", "defend")],
        ),
        **extra,
    )  # fmt: skip


def test_summer_battles_stop_for_the_pickers_choice_of_tile():
    """Red, first, has upright armies in two contested tiles and has not said which battle
    it picks: the engine stops at the battle step and asks Red, offering both tiles."""
    after = adjudicate(contested())

    assert after["clock"]["step"] == "battles"
    assert pending(after) == [
        {"kind": "battle_choice", "kingdom": "red", "choices": [[-1, 0], [1, 0]]}
    ]


def test_summer_battles_stop_for_reported_results_then_for_a_retreat():
    """Red picks [1, 0]: a pitched battle is handed off (dice 3, 3). Blue, next, picks the
    other contested tile [-1, 0]: handed off too (dice 4, 4). The engine waits for both
    results. With the result of [1, 0] reported (Red wins), Blue's army there must retreat
    and may go to [2, -1] or [2, 0]: the engine waits for Blue to say where."""
    data = contested(dice=[3, 3, 4, 4])
    data["inputs"]["battle_choices"] = {"red": [[1, 0]]}

    waiting = adjudicate(data)
    assert [(b["hex"], b["attacker"], b["dice"]) for b in battles(waiting)] == [
        ([1, 0], "red", [3, 3]),
        ([-1, 0], "blue", [4, 4]),
    ]
    assert {(p["kind"], p["kingdom"]) for p in pending(waiting)} == {
        ("battle_result", "red"),
        ("battle_result", "blue"),
    }

    waiting["inputs"]["battles"] = [{"hex": [1, 0], "result": "win", "winner": "red"}]
    after = adjudicate(waiting)

    assert pending(after) == [
        {"kind": "retreat", "kingdom": "blue", "unit": "blue-1", "choices": [[2, -1], [2, 0]]}
    ]
    assert after["clock"]["step"] == "battles"


def test_summer_battles_stop_for_a_last_stand_choice():
    """Red's two armies walk into [1, 0], where Blue's one army Defends a tile with no
    other Blue tile beside it. Blue has fewer armies and must concede, unless it makes a
    Last Stand (no adjacent tile it controls): the engine asks Blue, and rolls no die
    before it answers."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue"), tile((-3, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (1, 0))],
        inputs=orders(
            red=[move("red-1", (1, 0)), move("red-2", (1, 0))], blue=[order("blue-1", "defend")]
        ),
        dice=[],
    )

    after = adjudicate(data)

    assert after["clock"]["step"] == "battles"
    assert pending(after) == [{"kind": "last_stand", "kingdom": "blue", "hex": [1, 0]}]
    assert after["dice_rolled"] == 0


# === D1: the dice ==========================================================================


def exploring(seed: int, dice_rolled: int = 0) -> Json:
    """Three Red armies and one Blue army each explore a tile (eight dice)."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((0, -1), "blue")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("red-3", (0, 0)),
                army("blue-1", (0, -1))],
        inputs=orders(red=[move("red-1", (1, 0)), move("red-2", (-1, 1)), move("red-3", (0, 1))],
                      blue=[move("blue-1", (1, -2))]),
        options={"seed": seed},
    )  # fmt: skip
    data["dice_rolled"] = dice_rolled
    return data


def test_d1_the_seeded_source_gives_the_same_dice_for_the_same_file():
    """Without scripted dice, the same file adjudicated twice gives the same exploration
    dice and the same tiles; `dice_rolled` counts the eight dice."""
    first, second = adjudicate(exploring(seed=1)), adjudicate(exploring(seed=1))

    assert all_dice(first) == all_dice(second)
    assert first["tiles"] == second["tiles"]
    assert first["dice_rolled"] == 8
    assert "dice" not in first


def test_d1_another_seed_gives_other_dice():
    """The same file with another seed rolls other dice."""
    assert all_dice(adjudicate(exploring(seed=1))) != all_dice(adjudicate(exploring(seed=2)))


def test_d1_a_file_resumes_the_seeded_dice_where_it_left_off():
    """Die number n of a campaign is always the same: a file that has already rolled two
    dice rolls dice 3 to 10 of its seed, so its first exploration gets the dice the
    second exploration got in a file that had rolled none."""
    fresh = all_dice(adjudicate(exploring(seed=1)))
    resumed = all_dice(adjudicate(exploring(seed=1, dice_rolled=2)))

    assert resumed[:6] == fresh[2:]


def test_d1_every_die_is_recorded_in_an_event_in_the_order_rolled():
    """A simple-battles month with every kind of die. Red explores [1, 0] (2, 3), then Blue
    explores [1, -2] (3, 3); in the contested [0, 1] both Defend and fight a simple land
    battle, Red rolling 6 then Blue 1 (Red wins; Blue retreats to [0, 2]); at Reform the
    kingdoms are tied on two armies and roll off (4, 4, then 5, 1). The events hold every
    scripted die, in the same order, and the list is used up."""
    script = [2, 3, 3, 3, 6, 1, 4, 4, 5, 1]
    data = position(
        options={"battles": "simple"},
        tiles=[tile((0, 0), "red"), tile((0, -1), "blue"), tile((0, 1), "blue"),
               tile((0, 2), "blue")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 1)), army("blue-1", (0, -1)),
                army("blue-2", (0, 1))],
        inputs=orders(red=[move("red-1", (1, 0)), order("red-2", "defend")],
                      blue=[move("blue-1", (1, -2)), order("blue-2", "defend")]),
        dice=script,
    )  # fmt: skip

    after = adjudicate(data)

    assert all_dice(after) == script
    assert after["dice"] == []
    assert after["dice_rolled"] == len(script)
    (battle,) = battles(after)
    assert (battle["kind"], battle["winner"], battle["dice"]) == ("simple", "red", [6, 1])
    assert at(after, "blue-2") == [0, 2]
    assert after["player_order"] == ["red", "blue"]


def test_d1_running_out_of_scripted_dice_is_an_error():
    """The file scripts one die, but an exploration needs two: refused."""
    data = position(
        tiles=[tile((0, 0), "red")],
        armies=[army("red-1", (0, 0))],
        inputs=orders(red=[move("red-1", (1, 0))]),
        dice=[4],
    )

    assert refusal(data).code == "out-of-dice"
