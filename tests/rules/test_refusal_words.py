"""What a refused order says, whole: the code, the field, the unit at fault and the
sentence the player reads on the orders page (the app names the ids in it). Each order a
player may get wrong has its own words, the army's and the ship's apart."""

from typing import Any

import pytest

from tests.rules.casebook import army, make_map, move, order, position, refusal, ship, tile
from tests.rules.test_refusals import COAST, decide, home, orders, sea_position

MARSH = make_map(2, terrain={(1, 0): "marsh"})
WATER_EDGE = make_map(2, water_edges=[((0, 0), (1, 0))])


def red(*given: dict[str, Any]) -> dict[str, Any]:
    return sea_position(orders={"red": list(given)})


def on_the_coast(*given: dict[str, Any], **units: Any) -> dict[str, Any]:
    return position(map=COAST, tiles=[tile((2, 0), "red")], inputs=orders(red=list(given)), **units)


CASES = [
    (decide(orders(red=[move("blue-1", (1, 0))])),
     "not-your-unit", "[0].unit", "blue-1", "blue-1 belongs to blue, not red."),
    (decide(orders(red=[move("red-9", (1, 0))])),
     "unknown-unit", "[0].unit", "red-9", "There is no army or ship 'red-9'."),
    (decide(orders(red=[move("red-1", (2, 0))])),
     "move-not-adjacent", "[0].to", "red-1", "red-1 can only move to a tile next to [0, 0]."),
    (decide(orders(red=[move("red-1", (0, 9))])),
     "move-off-map", "[0].to", "red-1", "[0, 9] is not on the map."),
    (decide(orders(red=[order("red-1", "defend"), order("red-1", "defend")])),
     "unit-ordered-twice", "[1]", "red-1", "red-1 has two orders this month."),
    (decide(orders(red=[order("red-1", "regroup")])),
     "regroup-upright", "[0].order", "red-1",
     "Army red-1 is upright: Regroup is only for a unit on its side."),
    (decide(orders(red=[order("red-1", "stay")])),
     "army-cannot-stay", "[0].order", "red-1", "Army red-1 can't just stay: it may Defend instead."),
    (decide(orders(red=[order("red-1", "defend", carry="red-2")])),
     "carry-by-army", "[0].carry", "red-1", "Only a ship's order can carry an army."),
    (position(armies=[army("red-1", (0, 0), upright=False)], tiles=home(),
              inputs=orders(red=[order("red-1", "defend")])),
     "must-regroup", "[0].order", "red-1", "Army red-1 is on its side: its only order is Regroup."),
    (red(order("red-s3", "stay")),
     "must-regroup", "[0].order", "red-s3", "Ship red-s3 is on its side: its only order is Regroup."),
    (position(armies=[army("red-1", (1, 0))], tiles=[tile((1, 0), "red")],
              inputs=orders(red=[order("red-1", "raze")])),
     "raze-off-settlement", "[0].order", "red-1",
     "Army red-1 is not on a settlement, so there is nothing to Raze."),
    (red(order("red-s1", "raze")),
     "raze-off-settlement", "[0].order", "red-s1",
     "Ship red-s1 is not on a settlement, so there is nothing to Raze."),
    (on_the_coast(order("red-s1", "defend"), ships=[ship("red-s1", (3, 0))]),
     "ship-cannot-defend", "[0].order", "red-s1",
     "Ship red-s1 can't Defend: ships and the armies they carry never do."),
    (position(map=MARSH, armies=[army("red-1", (0, 0))], tiles=[tile((0, 0), "red")],
              inputs=orders(red=[move("red-1", (1, 0))])),
     "move-not-enterable", "[0].to", "red-1",
     "Army red-1 can't enter [1, 0]: armies never enter marsh or open water (ruling M3)."),
    (on_the_coast(move("red-s1", (1, 0)), ships=[ship("red-s1", (2, 0))]),
     "move-not-enterable", "[0].to", "red-s1",
     "Ship red-s1 can't sail into [1, 0]: ships keep to sea, coast, rivers and lakes (ruling M3)."),
    (position(map=WATER_EDGE, armies=[army("red-1", (0, 0))], tiles=[tile((0, 0), "red")],
              inputs=orders(red=[move("red-1", (1, 0))])),
     "move-across-water", "[0].to", "red-1",
     "Army red-1 can't cross the water between [0, 0] and [1, 0] (ruling M3)."),
    (red(move("red-s2", (3, -1))),
     "landing-at-sea", "[0].carry", "red-s2",
     "Ship red-s2 is on open water: army red-2 can't land here (ruling O8)."),
    (red(move("red-s1", (3, 0), carry="blue-1")),
     "carry-unknown-army", "[0].carry", "red-s1",
     "Ship red-s1 can only carry an army of its own kingdom."),
    (red(move("red-s1", (3, 0), carry="red-2")),
     "carry-army-aboard", "[0].carry", "red-2", "Army red-2 is aboard another ship."),
    (red(move("red-s1", (3, 0), carry="red-3")),
     "carry-not-here", "[0].carry", "red-3",
     "Army red-3 is not in ship red-s1's tile, so it can't board."),
    (red(order("red-s3", "regroup", carry="red-1")),
     "carry-ship-on-its-side", "[0].carry", "red-s3",
     "Ship red-s3 is on its side: no army can board it until it regroups."),
    (red(move("red-s2", (3, -1), carry="red-2"), order("red-2", "defend")),
     "order-for-carried-army", "[1]", "red-2",
     "Army red-2 is aboard a ship: the ship's order is its order (ruling O8)."),
    (on_the_coast(move("red-s1", (3, 0), carry="red-1"),
                  armies=[army("red-1", (2, 0), upright=False)], ships=[ship("red-s1", (2, 0))]),
     "carry-army-on-its-side", "[0].carry", "red-1",
     "Army red-1 is on its side: it must Regroup before it can board."),
    (on_the_coast(move("red-s1", (3, 0), carry="red-1"), move("red-s2", (3, 0), carry="red-1"),
                  armies=[army("red-1", (2, 0))],
                  ships=[ship("red-s1", (2, 0)), ship("red-s2", (2, 0))]),
     "army-on-two-ships", "[1].carry", "red-1",
     "Army red-1 already sails with ship red-s1: an army pairs with one ship (ruling O8)."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "code", "field", "unit", "says"), CASES, ids=[f"{c[1]}-{c[3]}" for c in CASES]
)
def test_a_refused_order_says_why_in_the_games_words(data, code, field, unit, says):
    refused = refusal(data)
    assert refused.as_dict() == {
        "code": code,
        "field": f"inputs.orders.red{field}",
        "message": says,
        "unit": unit,
    }
