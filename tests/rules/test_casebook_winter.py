"""The rules casebook, part 4: Winter (rulebook section 4, rulings W1 to W7) and the
scoring at the end of the campaign (E, rulings P1 and P2), in the spirit of the Diplomacy
Adjudicator Test Cases: each test is one case, named after its ruling; its docstring states
the position and what must happen.

Most positions stand at a step of the winter of year 1, on a hexagon of plains of radius 3
around [0, 0] (`BOARD`). Red's capital is [0, 0] and Blue's is [-3, 3] (`HOMES`). `SEA` is
the same board with open water along its east edge ([3, -3] to [3, 0]), coast tiles at
q = 2 ([2, -3] to [2, 1]) and a river through [-1, 0] and [-2, 0].

A winter runs recall, gather, tithe, build, feed, deploy. The engine stops where a decision
is missing: the tithes and purchases of every kingdom, the feed of a kingdom short of food,
the deployment of a kingdom with armies to place. To read a kingdom's purse after building
(before feeding throws what is left away), the build cases give Blue a hungry army
(`HUNGRY_BLUE`): Blue is short of food, has not said which army goes, and the engine stops
at the feed step. Dice are rolled only by the roll-off for player order after deployment
(R3, D2); cases that deploy script them, or pass `dice=[]` when none may be rolled.
"""

from collections.abc import Sequence
from typing import Any

import pytest

from tests.rules.casebook import (
    Json,
    adjudicate,
    army,
    events,
    happened,
    kingdom,
    make_map,
    pending,
    position,
    refusal,
    ship,
    tile,
    tile_at,
    unit,
)

type Hex = tuple[int, int]

BOARD = make_map(3)
SEA = make_map(
    3,
    terrain={(3, -3): "ocean", (3, -2): "ocean", (3, -1): "ocean", (3, 0): "ocean"},
    coast=[(2, -3), (2, -2), (2, -1), (2, 0), (2, 1)],
    river=[(-1, 0), (-2, 0)],
)
RED_HOME = tile((0, 0), "red", "city")
BLUE_HOME = tile((-3, 3), "blue", "city")
HOMES = [RED_HOME, BLUE_HOME]
CAPITALS = {"red": (0, 0), "blue": (-3, 3)}
HUNGRY_BLUE = army("blue-1", (-3, 3))
NEXT_SUMMER = {"year": 2, "season": "summer", "month": 1, "step": "orders"}
WINTER_2 = {"year": 2, "season": "winter", "month": 0, "step": "recall"}


def winter(step: str, *, year: int = 1, capitals: Any = CAPITALS, **extra: Any) -> Json:
    """A campaign file at a step of the winter of `year` (default year 1)."""
    return position(clock=(year, "winter", 0, step), capitals=capitals, **extra)


def at(data: Json, unit_id: str) -> list[int]:
    """Where a unit is."""
    found = unit(data, unit_id)
    assert found is not None, f"{unit_id} is gone"
    return list(found["hex"])


def armies_of(data: Json, kingdom_id: str) -> dict[str, list[int]]:
    """A kingdom's armies and where they stand."""
    return {a["id"]: a["hex"] for a in data["armies"] if a["kingdom"] == kingdom_id}


def purse(data: Json, kingdom_id: str) -> tuple[int, int]:
    """A kingdom's gold and food."""
    found = kingdom(data, kingdom_id)
    return (found["gold"], found["food"])


def settlement(data: Json, hex_: Hex) -> str | None:
    held = tile_at(data, hex_)
    assert held is not None, f"{list(hex_)} is unexplored"
    found: str | None = held["settlement"]
    return found


def clock(data: Json) -> tuple[int, str, int, str]:
    c = data["clock"]
    return (c["year"], c["season"], c["month"], c["step"])


def kinds(data: Json) -> list[tuple[str, str]]:
    """What the campaign waits for: (kind, kingdom) pairs."""
    return [(p["kind"], p["kingdom"]) for p in pending(data)]


def buy(red: Sequence[Json] = (), blue: Sequence[Json] = ()) -> Json:
    return {"purchases": {"red": list(red), "blue": list(blue)}}


def build(kind: str, hex_: Hex) -> Json:
    return {"build": kind, "hex": list(hex_)}


def recruit(hex_: Hex, ally: str | None = None) -> Json:
    given: Json = {"recruit": "army", "hex": list(hex_)}
    if ally is not None:
        given["ally"] = ally
    return given


def skipped(data: Json) -> list[tuple[str, dict[str, Any], str]]:
    """Each purchase skipped: (kingdom, the purchase, the reason)."""
    return [(e["kingdom"], e["purchase"], e["reason"]) for e in events(data, "purchase-skipped")]


def gift(to: str, gold: int = 0, food: int = 0) -> Json:
    return {"to": to, "gold": gold, "food": food}


def place(army_id: str, hex_: Hex) -> Json:
    return {"army": army_id, "hex": list(hex_)}


# === A) Recall armies =========================================================================

# --- W1, lines of supply --------------------------------------------------------------------


def test_w1_an_army_connected_to_its_capital_goes_home_standing_up():
    """Red's capital is [0, 0]; it controls [1, 0] and [2, 0]. red-1 lies on its side at
    [2, 0] after a lost battle; red-2 stands defending in the capital, where it moved last
    month. Both are recalled to the capital, upright, no longer defending, their summer's
    move and retreat forgotten; the winter moves on to gathering and then waits for every
    kingdom's tithes."""
    data = winter(
        "recall",
        tiles=[*HOMES, tile((1, 0), "red"), tile((2, 0), "red")],
        armies=[
            army("red-1", (2, 0), upright=False, retreat="loss"),
            army("red-2", (0, 0), defending=True, moved=[[1, 0], [0, 0]]),
        ],
    )

    after = adjudicate(data)

    assert unit(after, "red-1") == army("red-1", (0, 0), upright=True, ally=None)
    assert unit(after, "red-2") == army("red-2", (0, 0), upright=True, ally=None)
    assert happened(after, "recalled") == [
        {"type": "recalled", "army": "red-1", "kingdom": "red", "from": [2, 0], "to": [0, 0]},
        {"type": "recalled", "army": "red-2", "kingdom": "red", "from": [0, 0], "to": [0, 0]},
    ]
    assert clock(after) == (1, "winter", 0, "tithe")
    assert kinds(after) == [("tithes", "red"), ("tithes", "blue")]


def test_w1_an_army_cut_off_from_its_capital_by_an_enemy_tile_is_lost():
    """Red holds [0, 0] (capital) and [1, 0]; Blue holds [2, 0]; Red also holds [3, 0],
    whose only land neighbours are [2, 0] (Blue's), [3, -1] and [2, 1] (unexplored). red-1
    at [3, 0] is cut off and destroyed; red-2 at [1, 0] goes home; red-3, standing in
    Blue's tile [2, 0], is in no tile of its kingdom and is destroyed too. Red keeps the
    tile [3, 0]."""
    data = winter(
        "recall",
        tiles=[*HOMES, tile((1, 0), "red"), tile((2, 0), "blue"), tile((3, 0), "red")],
        armies=[army("red-1", (3, 0)), army("red-2", (1, 0)), army("red-3", (2, 0))],
    )

    after = adjudicate(data)

    assert armies_of(after, "red") == {"red-2": [0, 0]}
    assert happened(after, "supply-lost") == [
        {"type": "supply-lost", "army": "red-1", "kingdom": "red", "hex": [3, 0]},
        {"type": "supply-lost", "army": "red-3", "kingdom": "red", "hex": [2, 0]},
    ]
    assert tile_at(after, (3, 0)) == tile((3, 0), "red")


def test_w1_m7_a_water_edge_does_not_break_the_line_of_supply():
    """A bay (a water edge) lies between Red's capital [0, 0] and its tile [1, 0], the
    only way between them. Armies can't cross it, but the tiles are still connected
    (ruling M7): red-1 at [1, 0] is recalled to the capital."""
    data = winter(
        "recall",
        map=make_map(3, water_edges=[((0, 0), (1, 0))]),
        tiles=[*HOMES, tile((1, 0), "red")],
        armies=[army("red-1", (1, 0))],
    )

    after = adjudicate(data)

    assert at(after, "red-1") == [0, 0]
    assert events(after, "supply-lost") == []


def test_w1_an_army_aboard_a_ship_is_recalled_from_the_ships_tile():
    """red-1 is aboard red-s1 on Red's coast tile [2, 0], connected to the capital through
    [1, 0]. The army counts as being in the ship's tile: it goes home to [0, 0] and leaves
    the ship, which docks at Red's coastal city [2, -1]."""
    data = winter(
        "recall",
        map=SEA,
        tiles=[*HOMES, tile((1, 0), "red"), tile((2, 0), "red"), tile((2, -1), "red", "city")],
        armies=[army("red-1", (2, 0))],
        ships=[ship("red-s1", (2, 0), carrying="red-1")],
    )

    after = adjudicate(data)

    assert at(after, "red-1") == [0, 0]
    assert unit(after, "red-s1") == ship("red-s1", (2, -1), carrying=None)


def test_w1_an_army_aboard_a_ship_at_sea_is_lost():
    """red-1 is aboard red-s1 on open water [3, -1]: an ocean tile is never controlled
    (M4), so the army is in no tile of its kingdom and is destroyed. The ship comes home
    empty to Red's port [2, -1]."""
    data = winter(
        "recall",
        map=SEA,
        tiles=[*HOMES, tile((1, 0), "red"), tile((2, -1), "red", "city")],
        armies=[army("red-1", (3, -1))],
        ships=[ship("red-s1", (3, -1), carrying="red-1")],
    )

    after = adjudicate(data)

    assert unit(after, "red-1") is None
    assert happened(after, "supply-lost") == [
        {"type": "supply-lost", "army": "red-1", "kingdom": "red", "hex": [3, -1]}
    ]
    assert unit(after, "red-s1") == ship("red-s1", (2, -1), carrying=None)


# --- W1, a kingdom without a capital ---------------------------------------------------------


def test_w1_without_a_capital_armies_go_to_the_city_connected_to_most_of_them():
    """Red has lost its capital. It holds two pieces of land: the city [1, 0] with [2, 0]
    (red-1 and red-2 stand at [2, 0]), and the city [-2, 1] with [-2, 2] (red-3 stands at
    [-2, 1]). [1, 0] is connected to more of its armies, so it stands in for the capital:
    red-1 and red-2 go there; red-3 is not connected to it and is destroyed, though its
    city comes first in [q, r] order."""
    data = winter(
        "recall",
        capitals={"blue": (-3, 3)},
        tiles=[
            *HOMES[1:],
            tile((1, 0), "red", "city"),
            tile((2, 0), "red"),
            tile((-2, 1), "red", "city"),
            tile((-2, 2), "red"),
        ],
        armies=[army("red-1", (2, 0)), army("red-2", (2, 0)), army("red-3", (-2, 1))],
    )

    after = adjudicate(data)

    assert armies_of(after, "red") == {"red-1": [1, 0], "red-2": [1, 0]}
    assert happened(after, "supply-lost") == [
        {"type": "supply-lost", "army": "red-3", "kingdom": "red", "hex": [-2, 1]}
    ]


def test_w1_without_a_capital_a_tie_goes_to_the_first_city_in_qr_order():
    """Red has no capital; the cities [1, 0] and [-2, 1] lie apart, each with one army.
    Tied on armies, the first in [q, r] order, [-2, 1], stands in for the capital: red-2
    stays there and red-1, cut off from it, is destroyed."""
    data = winter(
        "recall",
        capitals={"blue": (-3, 3)},
        tiles=[*HOMES[1:], tile((1, 0), "red", "city"), tile((-2, 1), "red", "city")],
        armies=[army("red-1", (1, 0)), army("red-2", (-2, 1))],
    )

    after = adjudicate(data)

    assert armies_of(after, "red") == {"red-2": [-2, 1]}


def test_w1_without_a_capital_or_a_city_armies_go_to_a_village():
    """Red has no capital and no city: a fortress at [1, 0] and a village at [2, 0]. Its
    army in the fortress is recalled to the village (a fortress can't stand in)."""
    data = winter(
        "recall",
        capitals={"blue": (-3, 3)},
        tiles=[*HOMES[1:], tile((1, 0), "red", "fortress"), tile((2, 0), "red", "village")],
        armies=[army("red-1", (1, 0))],
    )

    after = adjudicate(data)

    assert at(after, "red-1") == [2, 0]


def test_w1_w7_a_village_standing_in_for_the_capital_keeps_its_own_limit_of_1():
    """Red has no capital and no city: its village [1, 0] stands in for the capital, with
    its village [2, 0] beside it; red-1 and red-2 stand at [2, 0]. Both are recalled to
    [1, 0] (recall has no limit). The village keeps its own deployment limit (W7): it
    holds 1 army, not a capital's 3. Placing both there is refused; by default red-1
    deploys at [1, 0] and red-2 at [2, 0]."""
    data = winter(
        "recall",
        capitals={"blue": (-3, 3)},
        tiles=[*HOMES[1:], tile((1, 0), "red", "village"), tile((2, 0), "red", "village")],
        armies=[army("red-1", (2, 0)), army("red-2", (2, 0))],
        inputs={"tithes": {"red": [], "blue": []}, **buy()},
        dice=[],
    )

    recalled_to = adjudicate(data)
    assert armies_of(recalled_to, "red") == {"red-1": [1, 0], "red-2": [1, 0]}
    assert clock(recalled_to) == (1, "winter", 0, "deploy")
    both = {
        **recalled_to["inputs"],
        "deploy": {"red": [place("red-1", (1, 0)), place("red-2", (1, 0))]},
    }
    refused = refusal({**recalled_to, "inputs": both})
    assert (refused.code, refused.field, refused.unit) == (
        "deploy-no-room",
        "inputs.deploy.red[1].hex",
        "red-2",
    )

    after = adjudicate(recalled_to, defaults=True)
    assert armies_of(after, "red") == {"red-1": [1, 0], "red-2": [2, 0]}
    assert events(after, "no-room") == []


def test_w1_with_neither_city_nor_village_every_army_is_lost():
    """Red holds only a fortress [1, 0] and an empty tile [2, 0], with an army in each.
    A kingdom of fortresses can't support armies over the winter: both are destroyed. Red
    still controls tiles, so it is not eliminated."""
    data = winter(
        "recall",
        capitals={"blue": (-3, 3)},
        tiles=[*HOMES[1:], tile((1, 0), "red", "fortress"), tile((2, 0), "red")],
        armies=[army("red-1", (1, 0)), army("red-2", (2, 0))],
    )

    after = adjudicate(data)

    assert armies_of(after, "red") == {}
    assert happened(after, "supply-lost") == [
        {"type": "supply-lost", "army": "red-1", "kingdom": "red", "hex": [1, 0]},
        {"type": "supply-lost", "army": "red-2", "kingdom": "red", "hex": [2, 0]},
    ]
    assert kingdom(after, "red")["eliminated"] is None
    assert after["player_order"] == ["red", "blue"]


# --- W2, ships to port ---------------------------------------------------------------------


# Red's ports on SEA (its capital [0, 0] is inland): the coastal cities [2, -2] and [2, 1]
# and the river city [-1, 0].
PORTS = [tile((2, -2), "red", "city"), tile((2, 1), "red", "city"), tile((-1, 0), "red", "city")]


def test_w2_a_ship_returns_to_the_nearest_port_of_its_kingdom():
    """red-s1 is on open water at [3, -3], one step from Red's coastal city [2, -2] and
    four from [2, 1]: it docks at [2, -2]. red-s2 at [3, -1] is two steps from both
    coastal cities: the first in [q, r] order is taken, but it is [2, -2], already used,
    so red-s2 docks at [2, 1]."""
    data = winter(
        "recall",
        map=SEA,
        tiles=[*HOMES, *PORTS],
        ships=[ship("red-s1", (3, -3)), ship("red-s2", (3, -1))],
    )

    after = adjudicate(data)

    assert at(after, "red-s1") == [2, -2]
    assert at(after, "red-s2") == [2, 1]
    assert happened(after, "ship-docked") == [
        {"type": "ship-docked", "ship": "red-s1", "kingdom": "red", "hex": [2, -2]},
        {"type": "ship-docked", "ship": "red-s2", "kingdom": "red", "hex": [2, 1]},
    ]


def test_w2_a_tie_between_ports_goes_to_the_first_in_qr_order():
    """red-s1 at [3, -1] is two steps from both of Red's coastal cities, [2, -2] and
    [2, 1]: it docks at [2, -2], the first in [q, r] order."""
    data = winter("recall", map=SEA, tiles=[*HOMES, *PORTS], ships=[ship("red-s1", (3, -1))])

    after = adjudicate(data)

    assert at(after, "red-s1") == [2, -2]


def test_w2_one_ship_per_port_a_river_city_is_a_port_and_a_ship_with_none_left_is_lost():
    """Red's ports: [2, -2] on the coast and [-1, 0] on the river (its other city [2, 1]
    belongs to Blue here). Three Red ships come home: red-s1 and red-s2, both one step
    from [2, -2], and red-s3 at [3, 0]. red-s1 (first by id) docks at [2, -2]; red-s2
    sails on to the river city [-1, 0]; red-s3 finds no free port and is lost."""
    tiles = [*HOMES, tile((2, -2), "red", "city"), tile((-1, 0), "red", "city")]
    tiles.append(tile((2, 1), "blue", "city"))
    data = winter(
        "recall",
        map=SEA,
        tiles=tiles,
        ships=[ship("red-s1", (3, -3)), ship("red-s2", (3, -2)), ship("red-s3", (3, 0))],
    )

    after = adjudicate(data)

    assert at(after, "red-s1") == [2, -2]
    assert at(after, "red-s2") == [-1, 0]
    assert unit(after, "red-s3") is None
    assert happened(after, "ship-lost") == [
        {"type": "ship-lost", "ship": "red-s3", "kingdom": "red", "hex": [3, 0]}
    ]


def test_w2_only_a_coastal_or_river_city_is_a_port():
    """Red holds an inland city [0, 0] (its capital), a coastal village [2, -1] and a
    coastal fortress [2, 0]: none is a port, so red-s1 is lost."""
    data = winter(
        "recall",
        map=SEA,
        tiles=[*HOMES, tile((2, -1), "red", "village"), tile((2, 0), "red", "fortress")],
        ships=[ship("red-s1", (3, -1))],
    )

    after = adjudicate(data)

    assert unit(after, "red-s1") is None


def test_w2_a_ship_already_in_port_keeps_it():
    """red-s2 lies on its side in Red's port [2, -2], after a lost battle; red-s1, at sea
    on [3, -1], is two steps from both [2, -2] and [2, 1], and [2, -2] comes first in
    [q, r] order. The ship already in port keeps it (ships come home nearest first, A15):
    red-s1 sails on to [2, 1]. Both stand upright for the summer, red-s2's retreat
    forgotten."""
    data = winter(
        "recall",
        map=SEA,
        tiles=[*HOMES, *PORTS],
        ships=[
            ship("red-s1", (3, -1)),
            {**ship("red-s2", (2, -2), upright=False), "retreat": "loss"},
        ],
    )

    after = adjudicate(data)

    assert unit(after, "red-s2") == ship("red-s2", (2, -2))
    assert unit(after, "red-s1") == ship("red-s1", (2, 1))


def test_w2_an_enemy_ship_in_a_port_does_not_keep_it_from_its_owner():
    """Blue's only port is its coastal city [2, 0], where a Red ship lies on its side
    beside a Blue army (a tile still contested at the end of summer). Every ship is picked
    up and returned: blue-s1, at sea, docks in its city; red-s1 goes home to Red's port
    [2, -2]. Neither is lost."""
    data = winter(
        "recall",
        map=SEA,
        tiles=[*HOMES, tile((2, -2), "red", "city"), tile((2, 0), "blue", "city")],
        armies=[army("blue-1", (2, 0), upright=False)],
        ships=[ship("blue-s1", (3, -1)), ship("red-s1", (2, 0), upright=False)],
    )

    after = adjudicate(data)

    assert at(after, "blue-s1") == [2, 0]
    assert at(after, "red-s1") == [2, -2]
    assert events(after, "ship-lost") == []


def test_w2_a_ship_of_a_kingdom_without_a_port_is_lost_and_the_others_still_come_home():
    """Blue holds no coastal or river city (its capital [-3, 3] is inland): its ship
    blue-s1, at sea on [3, -1], has no port and is lost. Red's ship red-s1 on [3, -3]
    still comes home to Red's port [2, -2]."""
    data = winter(
        "recall",
        map=SEA,
        tiles=[*HOMES, *PORTS],
        ships=[ship("blue-s1", (3, -1)), ship("red-s1", (3, -3))],
    )

    after = adjudicate(data)

    assert unit(after, "blue-s1") is None
    assert at(after, "red-s1") == [2, -2]
    assert happened(after, "ship-lost") == [
        {"type": "ship-lost", "ship": "blue-s1", "kingdom": "blue", "hex": [3, -1]}
    ]
    assert happened(after, "ship-docked") == [
        {"type": "ship-docked", "ship": "red-s1", "kingdom": "red", "hex": [2, -2]}
    ]


# --- W3, eliminated players ------------------------------------------------------------------


def test_w3_a_kingdom_with_no_tile_left_is_eliminated_and_its_units_removed():
    """Blue has lost every tile; an army of Blue stands in Red's tile [1, 0] and a Blue
    ship is at sea. After recall Blue is eliminated in year 1: its units are gone, it
    leaves the player order, and only Red is asked for tithes."""
    data = winter(
        "recall",
        map=SEA,
        capitals={"red": (0, 0)},
        player_order=["blue", "red"],
        tiles=[RED_HOME, tile((1, 0), "red")],
        armies=[army("blue-1", (1, 0)), army("red-1", (1, 0))],
        ships=[ship("blue-s1", (3, -1))],
    )

    after = adjudicate(data)

    assert kingdom(after, "blue")["eliminated"] == 1
    assert [u["id"] for u in (*after["armies"], *after["ships"])] == ["red-1"]
    assert after["player_order"] == ["red"]
    assert [(e["kingdom"], e["year"]) for e in events(after, "eliminated")] == [("blue", 1)]
    assert happened(after, "eliminated") == [{"type": "eliminated", "kingdom": "blue"}]
    assert kinds(after) == [("tithes", "red")]


def test_w3_a_kingdom_with_tiles_but_no_settlement_is_not_eliminated():
    """Red holds only the empty tile [1, 0], with an army in it: the army is lost (no
    city, no village, W1) but Red still controls a tile, so it stays in the game."""
    data = winter(
        "recall",
        capitals={"blue": (-3, 3)},
        tiles=[BLUE_HOME, tile((1, 0), "red")],
        armies=[army("red-1", (1, 0))],
    )

    after = adjudicate(data)

    assert kingdom(after, "red")["eliminated"] is None
    assert unit(after, "red-1") is None
    assert events(after, "eliminated") == []


def test_w3_the_campaign_runs_on_with_one_kingdom_left():
    """Blue was eliminated in year 1; Red plays on alone. With defaults the winter of
    year 2 runs through and the campaign stops at year 3's first orders."""
    data = winter(
        "recall",
        year=2,
        capitals={"red": (0, 0)},
        player_order=["red"],
        kingdom_fields={"blue": {"eliminated": 1}},
        tiles=[RED_HOME, tile((1, 0), "red", "village")],
        armies=[army("red-1", (1, 0))],
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert after["clock"] == {"year": 3, "season": "summer", "month": 1, "step": "orders"}
    assert after["player_order"] == ["red"]
    assert at(after, "red-1") == [0, 0]
    assert kinds(after) == [("orders", "red")]


# === B) Gather resources ========================================================================


def test_gather_a_village_gives_food_a_city_gold_and_the_capital_one_gold_more():
    """Red holds its capital, a city, two villages, a fortress and an empty tile: 1 gold
    for each city (the capital is one) plus 1 for the capital, 1 food per village, nothing
    for the fortress: 3 gold, 2 food. Blue, with its capital only: 2 gold."""
    data = winter(
        "gather",
        tiles=[
            *HOMES,
            tile((1, 0), "red", "city"),
            tile((0, 1), "red", "village"),
            tile((-1, 1), "red", "village"),
            tile((1, -1), "red", "fortress"),
            tile((0, -1), "red"),
        ],
    )

    after = adjudicate(data)

    assert purse(after, "red") == (3, 2)
    assert purse(after, "blue") == (2, 0)
    # tile by tile, in [q, r] order: the capital 2 gold, the city 1, each village 1 food
    assert happened(after, "gathered") == [
        {
            "type": "gathered",
            "kingdom": "red",
            "gold": 3,
            "food": 2,
            "tiles": [
                {"hex": [-1, 1], "gold": 0, "food": 1},
                {"hex": [0, 0], "gold": 2, "food": 0},
                {"hex": [0, 1], "gold": 0, "food": 1},
                {"hex": [1, 0], "gold": 1, "food": 0},
            ],
        },
        {
            "type": "gathered",
            "kingdom": "blue",
            "gold": 2,
            "food": 0,
            "tiles": [{"hex": [-3, 3], "gold": 2, "food": 0}],
        },
    ]


def test_gather_a_kingdom_that_lost_its_capital_gets_no_extra_gold():
    """Red's capital [0, 0] was taken and retaken: it is a plain city now (O7), and Red
    has no capital. With it and the city [1, 0], Red gathers 2 gold, nothing more."""
    data = winter(
        "gather",
        capitals={"blue": (-3, 3)},
        tiles=[*HOMES, tile((1, 0), "red", "city")],
    )

    after = adjudicate(data)

    assert purse(after, "red") == (2, 0)


def test_gather_a_village_cut_off_from_the_capital_still_gives_food():
    """Red's village [3, -3] lies far from its capital, joined to it by no tile of Red's.
    Villages need not be connected to feed the armies: it gives 1 food."""
    data = winter("gather", tiles=[*HOMES, tile((3, -3), "red", "village")])

    after = adjudicate(data)

    assert purse(after, "red") == (2, 1)


# === C i) Tithe =================================================================================

THREE = ("red", "blue", "green")
THREE_HOMES = [*HOMES, tile((3, -3), "green", "city")]
THREE_CAPITALS = {**CAPITALS, "green": (3, -3)}


def tithing(tithes: Json, *, order: Sequence[str] = THREE, **purses: tuple[int, int]) -> Json:
    """Three kingdoms at the tithe step, with the given purses (gold, food)."""
    return winter(
        "tithe",
        kingdoms=THREE,
        player_order=order,
        capitals=THREE_CAPITALS,
        tiles=THREE_HOMES,
        kingdom_fields={k: {"gold": g, "food": f} for k, (g, f) in purses.items()},
        inputs={"tithes": tithes},
    )


def test_w4_a_kingdom_gives_another_up_to_one_gold_and_one_food():
    """Red, with 2 gold and 2 food, gives Blue 1 gold and 1 food. The winter moves on
    to building and waits for every kingdom's purchases."""
    data = tithing({"red": [gift("blue", 1, 1)], "blue": [], "green": []}, red=(2, 2))

    after = adjudicate(data)

    assert purse(after, "red") == (1, 1)
    assert purse(after, "blue") == (1, 1)
    assert happened(after, "tithe") == [
        {
            "type": "tithe",
            "kingdom": "red",
            "to": "blue",
            "gold": 1,
            "food": 1,
            "asked": {"gold": 1, "food": 1},
        }
    ]
    assert clock(after) == (1, "winter", 0, "build")
    assert kinds(after) == [("purchases", "red"), ("purchases", "blue"), ("purchases", "green")]
    assert "tithes" not in after["inputs"]


def test_w4_a_received_tithe_is_passed_on_the_same_winter():
    """Player order Red, Blue, Green. Red gives Blue 1 gold; Blue, with none of its own,
    gives Green 1 gold. Red's gift is applied first, so Blue holds the gold when its own
    gift comes up, and Green receives it."""
    data = tithing({"red": [gift("blue", 1)], "blue": [gift("green", 1)], "green": []}, red=(1, 0))

    after = adjudicate(data)

    assert purse(after, "red") == (0, 0)
    assert purse(after, "blue") == (0, 0)
    assert purse(after, "green") == (1, 0)


def test_w4_gifts_apply_in_player_order_so_one_before_receiving_finds_nothing():
    """The same gifts with Blue before Red in player order: Blue's gift to Green comes up
    first, when Blue holds nothing, so it gives nothing (the event says what was asked);
    then Red's gold reaches Blue, who keeps it."""
    data = tithing(
        {"red": [gift("blue", 1)], "blue": [gift("green", 1)], "green": []},
        order=("blue", "red", "green"),
        red=(1, 0),
    )

    after = adjudicate(data)

    assert purse(after, "blue") == (1, 0)
    assert purse(after, "green") == (0, 0)
    first = events(after, "tithe")[0]
    assert (first["kingdom"], first["gold"], first["asked"]) == ("blue", 0, {"gold": 1, "food": 0})


def test_w4_gifts_go_round_robin_one_of_each_kingdom_in_turn():
    """Red, with 2 food, lists gifts of 1 food to Blue and then to Green; Blue lists 1
    food to Green. Round one: Red to Blue, Blue to Green (passing on what it just got);
    round two: Red to Green. Green ends with 2 food."""
    data = tithing(
        {
            "red": [gift("blue", food=1), gift("green", food=1)],
            "blue": [gift("green", food=1)],
            "green": [],
        },
        red=(0, 2),
    )

    after = adjudicate(data)

    assert [(e["kingdom"], e["to"], e["food"]) for e in events(after, "tithe")] == [
        ("red", "blue", 1),
        ("blue", "green", 1),
        ("red", "green", 1),
    ]
    assert purse(after, "green") == (0, 2)


def test_w4_a_gift_the_giver_no_longer_holds_is_not_given():
    """Red has 1 gold and lists 1 gold to Blue, then 1 gold to Green. The first gift takes
    it; when the second comes up Red holds nothing, so Green gets nothing."""
    data = tithing(
        {"red": [gift("blue", 1), gift("green", 1)], "blue": [], "green": []}, red=(1, 0)
    )

    after = adjudicate(data)

    assert purse(after, "blue") == (1, 0)
    assert purse(after, "green") == (0, 0)
    assert [(e["to"], e["gold"]) for e in events(after, "tithe")] == [("blue", 1), ("green", 0)]


def test_w4_a_giver_holding_only_the_food_gives_the_food():
    """Red lists 1 gold and 1 food for Blue but holds no gold and 1 food. The gold and the
    food of one gift apply each on its own: Red gives the food, and the event says the
    gold was promised and not given."""
    data = tithing({"red": [gift("blue", 1, 1)], "blue": [], "green": []}, red=(0, 1))

    after = adjudicate(data)

    assert purse(after, "red") == (0, 0)
    assert purse(after, "blue") == (0, 1)
    (given,) = events(after, "tithe")
    assert (given["gold"], given["food"], given["asked"]) == (0, 1, {"gold": 1, "food": 1})


def test_w4_a_giver_holding_only_the_gold_gives_the_gold():
    """The other way round: Red holds 1 gold and no food, and gives Blue the gold."""
    data = tithing({"red": [gift("blue", 1, 1)], "blue": [], "green": []}, red=(1, 0))

    after = adjudicate(data)

    assert purse(after, "red") == (0, 0)
    assert purse(after, "blue") == (1, 0)


@pytest.mark.parametrize(
    ("red", "code", "field"),
    [
        ([gift("red", 1)], "tithe-to-self", "inputs.tithes.red[0].to"),
        ([gift("purple", 1)], "tithe-to-nobody", "inputs.tithes.red[0].to"),
        ([gift("blue", 1), gift("blue", food=1)], "tithe-twice", "inputs.tithes.red[1].to"),
    ],
)
def test_w4_an_illegal_tithe_is_refused(red, code, field):
    """A kingdom tithes to another kingdom still in the game, to each at most once a
    winter; anything else is refused, naming the gift."""
    refused = refusal(tithing({"red": red, "blue": [], "green": []}, red=(1, 1)))

    assert (refused.code, refused.field, refused.unit) == (code, field, None)


def test_w4_no_tithe_to_an_eliminated_kingdom():
    """Green was eliminated last winter: a tithe to it is refused (tithe-to-nobody)."""
    data = winter(
        "tithe",
        kingdoms=THREE,
        player_order=["red", "blue"],
        tiles=HOMES,
        kingdom_fields={"green": {"eliminated": 1}, "red": {"gold": 1}},
        inputs={"tithes": {"red": [gift("green", 1)], "blue": []}},
    )

    refused = refusal(data)

    assert (refused.code, refused.field) == ("tithe-to-nobody", "inputs.tithes.red[0].to")


# === C ii) Build and recruit ====================================================================


def building(
    purchases: Json,
    *,
    tiles: Sequence[Json] = (),
    armies: Sequence[Json] = (),
    gold: int = 0,
    food: int = 0,
    blue_gold: int = 0,
    armies_raised: int = 0,
    **extra: Any,
) -> Json:
    """At the build step, with Red's purse and Blue's hungry army (the engine stops at
    the feed step, so Red's purse can be read after building)."""
    return winter(
        "build",
        tiles=[*HOMES, *tiles],
        armies=[*armies, HUNGRY_BLUE],
        kingdom_fields={
            "red": {"gold": gold, "food": food, "armies_raised": armies_raised},
            "blue": {"gold": blue_gold},
        },
        inputs=purchases,
        **extra,
    )


def test_w5_the_settlements_table_village_city_fortress():
    """Red has 4 gold and 1 food. It builds a village on the empty tile [1, 0] (1 gold),
    upgrades the village [0, 1] to a city (1 gold, 1 food) and the village [-1, 1] to a
    fortress (2 gold). Each new settlement replaces the old one; the purse is empty."""
    data = building(
        buy(red=[build("village", (1, 0)), build("city", (0, 1)), build("fortress", (-1, 1))]),
        tiles=[
            tile((1, 0), "red"),
            tile((0, 1), "red", "village"),
            tile((-1, 1), "red", "village"),
        ],
        gold=4,
        food=1,
    )

    after = adjudicate(data)

    assert [settlement(after, h) for h in ((1, 0), (0, 1), (-1, 1))] == [
        "village",
        "city",
        "fortress",
    ]
    assert purse(after, "red") == (0, 0)
    assert happened(after, "built") == [
        {"type": "built", "kingdom": "red", "settlement": "village", "hex": [1, 0]},
        {"type": "built", "kingdom": "red", "settlement": "city", "hex": [0, 1]},
        {"type": "built", "kingdom": "red", "settlement": "fortress", "hex": [-1, 1]},
    ]
    assert skipped(after) == []
    assert clock(after) == (1, "winter", 0, "feed")
    assert kinds(after) == [("feed", "blue")]


def test_w5_upgrades_chain_in_one_winter_village_then_city():
    """Red builds a village on the empty tile [1, 0], then a city on it: 2 gold and 1
    food, and [1, 0] is a city by the end of the winter."""
    data = building(
        buy(red=[build("village", (1, 0)), build("city", (1, 0))]),
        tiles=[tile((1, 0), "red")],
        gold=2,
        food=1,
    )

    after = adjudicate(data)

    assert settlement(after, (1, 0)) == "city"
    assert purse(after, "red") == (0, 0)


def test_w5_a_purchase_out_of_order_is_skipped_at_its_moment():
    """Red lists the city on [1, 0] before the village it needs. When the city comes up
    [1, 0] is empty, so it is skipped (and costs nothing); the village is then built."""
    data = building(
        buy(red=[build("city", (1, 0)), build("village", (1, 0))]),
        tiles=[tile((1, 0), "red")],
        gold=2,
        food=1,
    )

    after = adjudicate(data)

    assert settlement(after, (1, 0)) == "village"
    assert purse(after, "red") == (1, 1)
    assert [p["kind"] for _, p, _ in skipped(after)] == ["city"]


def test_w5_purchases_are_made_round_robin_in_player_order():
    """Red lists two villages, Blue one; player order Red, Blue. They are built one at a
    time: Red's first, Blue's, then Red's second."""
    data = building(
        buy(
            red=[build("village", (1, 0)), build("village", (2, 0))],
            blue=[build("village", (-3, 2))],
        ),
        tiles=[tile((1, 0), "red"), tile((2, 0), "red"), tile((-3, 2), "blue")],
        gold=2,
        blue_gold=1,
    )

    after = adjudicate(data)

    assert [(e["kingdom"], e["hex"]) for e in events(after, "built")] == [
        ("red", [1, 0]),
        ("blue", [-3, 2]),
        ("red", [2, 0]),
    ]


def test_w5_a_kingdom_without_a_capital_names_a_city_free_and_it_produces_from_next_winter():
    """Red lost its capital and holds the cities [0, 0] and [1, 0]. At gathering it gets 2
    gold (no capital, no extra gold). It names [1, 0] its capital, free. The new capital
    gives no gold this winter; next winter Red gathers 3 gold (2 cities, 1 for the
    capital)."""
    data = winter(
        "gather",
        capitals={"blue": (-3, 3)},
        tiles=[*HOMES, tile((1, 0), "red", "city")],
        armies=[HUNGRY_BLUE],
        inputs={"tithes": {"red": [], "blue": []}, **buy(red=[build("capital", (1, 0))])},
    )

    after = adjudicate(data)

    assert kingdom(after, "red")["capital"] == [1, 0]
    assert purse(after, "red") == (2, 0)
    assert happened(after, "capital-named") == [
        {"type": "capital-named", "kingdom": "red", "hex": [1, 0]}
    ]

    summer = adjudicate({**after, "dice": [6, 1]}, defaults=True)
    assert summer["clock"] == NEXT_SUMMER
    # The summer of year 2 changes nothing here: straight on to its winter.
    next_winter = adjudicate({**summer, "clock": WINTER_2})

    gathered = [e for e in events(next_winter, "gathered") if e["year"] == 2]
    assert [(e["kingdom"], e["gold"]) for e in gathered] == [("red", 3), ("blue", 2)]


def test_w5_a_ship_costs_one_gold_in_a_port_without_a_docked_ship():
    """Red builds a ship at its coastal city [2, -2] for 1 gold: red-s1 stands there,
    ready for summer."""
    data = building(buy(red=[build("ship", (2, -2))]), map=SEA, tiles=PORTS, gold=1)

    after = adjudicate(data)

    assert unit(after, "red-s1") == ship("red-s1", (2, -2))
    assert purse(after, "red") == (0, 0)
    assert happened(after, "ship-built") == [
        {"type": "ship-built", "kingdom": "red", "ship": "red-s1", "hex": [2, -2]}
    ]


def test_w5_an_army_costs_one_gold_in_a_fortress_once_each_winter():
    """Red has fortresses at [1, -1] and [0, -1], 3 gold and food for its armies. It
    recruits at [1, -1], again at [1, -1] (skipped: that fortress has raised its army this
    winter, no gold spent), and at [0, -1]. The new armies stand in their fortresses."""
    data = building(
        buy(red=[recruit((1, -1)), recruit((1, -1)), recruit((0, -1))]),
        tiles=[tile((1, -1), "red", "fortress"), tile((0, -1), "red", "fortress")],
        armies=[army("red-1", (0, 0))],
        gold=3,
        food=3,
    )

    after = adjudicate(data)

    assert armies_of(after, "red") == {"red-1": [0, 0], "red-2": [1, -1], "red-3": [0, -1]}
    assert purse(after, "red") == (1, 3)
    assert happened(after, "recruited") == [
        {"type": "recruited", "kingdom": "red", "army": "red-2", "hex": [1, -1], "ally": None},
        {"type": "recruited", "kingdom": "red", "army": "red-3", "hex": [0, -1], "ally": None},
    ]


def test_w5_a_fortress_built_this_winter_recruits_at_once():
    """Red turns its village [1, 0] into a fortress (2 gold) and recruits there (1 gold)
    the same winter."""
    data = building(
        buy(red=[build("fortress", (1, 0)), recruit((1, 0))]),
        tiles=[tile((1, 0), "red", "village")],
        gold=3,
        food=1,
    )

    after = adjudicate(data)

    assert armies_of(after, "red") == {"red-1": [1, 0]}
    assert purse(after, "red") == (0, 1)


def test_w5_a_new_army_never_takes_the_id_of_one_that_was_lost():
    """Red has raised 4 armies over the campaign; only red-2 is left. Its next army is
    red-5."""
    data = building(
        buy(red=[recruit((1, -1))]),
        tiles=[tile((1, -1), "red", "fortress")],
        armies=[army("red-2", (0, 0))],
        gold=1,
        food=2,
        armies_raised=4,
    )

    after = adjudicate(data)

    assert armies_of(after, "red") == {"red-2": [0, 0], "red-5": [1, -1]}


SIX = [army(f"red-{n}", (0, 0)) for n in range(1, 7)]
THREE_ARMIES = SIX[:3]


def test_w5_at_six_armies_a_kingdom_disbands_one_to_make_room():
    """Red has 6 armies, a fortress at [1, -1] and 1 gold. Its first recruit is skipped
    (six armies is the most a kingdom may have); it then disbands red-3 (free) and
    recruits red-7."""
    data = building(
        buy(red=[recruit((1, -1)), {"disband": "red-3"}, recruit((1, -1))]),
        tiles=[tile((1, -1), "red", "fortress")],
        armies=SIX,
        gold=1,
        food=6,
    )

    after = adjudicate(data)

    assert sorted(armies_of(after, "red")) == ["red-1", "red-2", "red-4", "red-5", "red-6", "red-7"]
    assert at(after, "red-7") == [1, -1]
    assert happened(after, "disbanded") == [
        {"type": "disbanded", "kingdom": "red", "army": "red-3"}
    ]
    assert [r for _, _, r in skipped(after)] == [
        "red already has 6 armies: disband one to make room."
    ]
    assert purse(after, "red") == (0, 6)


def test_w5_an_allied_army_needs_three_armies_of_the_kingdoms_own_race():
    """Red has 2 armies, fortresses at [1, -1] and [0, -1], and 3 gold. Its allied army
    (Dwarfs) at [1, -1] is refused: only 2 other armies. It recruits a plain army there
    instead, and now, with 3, the allied army at [0, -1] is raised, its race public."""
    data = building(
        buy(red=[recruit((1, -1), "Dwarfs"), recruit((1, -1)), recruit((0, -1), "Dwarfs")]),
        tiles=[tile((1, -1), "red", "fortress"), tile((0, -1), "red", "fortress")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0))],
        gold=3,
        food=4,
    )

    after = adjudicate(data)

    assert [r for _, _, r in skipped(after)] == [
        "An allied army needs 3 or more other armies of the kingdom's own race."
    ]
    assert [(a["id"], a["ally"]) for a in after["armies"] if a["kingdom"] == "red"] == [
        ("red-1", None),
        ("red-2", None),
        ("red-3", None),
        ("red-4", "Dwarfs"),
    ]
    assert happened(after, "recruited") == [
        {"type": "recruited", "kingdom": "red", "army": "red-3", "hex": [1, -1], "ally": None},
        {"type": "recruited", "kingdom": "red", "army": "red-4", "hex": [0, -1], "ally": "Dwarfs"},
    ]
    assert purse(after, "red") == (1, 4)


def test_w5_an_army_may_be_disbanded_to_change_the_race_of_the_ally():
    """Red has 4 armies, red-4 an allied army of Dwarfs, a fortress and 1 gold. An allied
    army of Orcs is refused while it has its one ally; Red disbands red-4 (free, though it
    has room under six armies, A17) and then raises red-5, its new allied army, of Orcs."""
    data = building(
        buy(red=[recruit((1, -1), "Orcs"), {"disband": "red-4"}, recruit((1, -1), "Orcs")]),
        tiles=[tile((1, -1), "red", "fortress")],
        armies=[*THREE_ARMIES, army("red-4", (0, 0), ally="Dwarfs")],
        gold=1,
        food=4,
    )

    after = adjudicate(data)

    assert [r for _, _, r in skipped(after)] == ["red already has its one allied army."]
    assert [(a["id"], a["ally"]) for a in after["armies"] if a["kingdom"] == "red"] == [
        ("red-1", None),
        ("red-2", None),
        ("red-3", None),
        ("red-5", "Orcs"),
    ]


def test_w5_a_purchase_after_a_skipped_one_goes_on():
    """Red's first purchase, a fortress with too little gold, is skipped; its next, a
    village, is made."""
    data = building(
        buy(red=[build("fortress", (1, 0)), build("village", (2, 0))]),
        tiles=[tile((1, 0), "red", "village"), tile((2, 0), "red")],
        gold=1,
    )

    after = adjudicate(data)

    assert settlement(after, (1, 0)) == "village"
    assert settlement(after, (2, 0)) == "village"


# Red on SEA: capital [0, 0], coastal cities [2, -2] and [2, 1], river city [-1, 0] with
# red-s1 docked, a village [1, 0], fortresses [1, -1] and [0, -1], an empty tile [0, 1].
SHOP = [
    *PORTS,
    tile((1, 0), "red", "village"),
    tile((1, -1), "red", "fortress"),
    tile((0, -1), "red", "fortress"),
    tile((0, 1), "red"),
]


@pytest.mark.parametrize(
    ("purchases", "armies", "reason"),
    [
        pytest.param(
            [build("village", (-3, 3))], [], "[-3, 3] is not a tile red controls.", id="blue's"
        ),
        pytest.param(
            [build("village", (-2, 2))], [], "[-2, 2] is not a tile red controls.", id="unexplored"
        ),
        pytest.param(
            [build("city", (0, 1))],
            [],
            "A city is built on a village, and [0, 1] holds nothing.",
            id="city on an empty tile",
        ),
        pytest.param(
            [build("village", (1, 0))],
            [],
            "A village is built on an empty tile, and [1, 0] holds village.",
            id="village on a village",
        ),
        pytest.param(
            [build("fortress", (2, -2))],
            [],
            "A fortress is built on a village, and [2, -2] holds city.",
            id="fortress on a city",
        ),
        pytest.param(
            [build("capital", (1, 0))],
            [],
            "A capital is built on a city, and [1, 0] holds village.",
            id="capital on a village",
        ),
        pytest.param(
            [build("ship", (1, 0))],
            [],
            "A ship is built on a city, and [1, 0] holds village.",
            id="ship at a village",
        ),
        pytest.param(
            [recruit((2, -2))],
            [],
            "An army is raised in a fortress, and [2, -2] holds city.",
            id="army in a city",
        ),
        pytest.param(
            [recruit((1, -1)), recruit((0, -1)), build("fortress", (1, 0))],
            [],
            "It costs 2 gold and 0 food; red has 1 gold and 6 food.",
            id="can't afford",
        ),
        pytest.param(
            [build("capital", (2, -2))],
            [],
            "red already has a capital; only a kingdom without one names a new one.",
            id="capital already held",
        ),
        pytest.param(
            [build("ship", (0, 0))],
            [],
            "[0, 0] is not a city on the coast or a river.",
            id="ship: not a port",
        ),
        pytest.param(
            [build("ship", (-1, 0))],
            [],
            "A ship is already docked at [-1, 0].",
            id="ship: already docked",
        ),
        pytest.param(
            [recruit((1, -1)), recruit((1, -1))],
            THREE_ARMIES,
            "The fortress at [1, -1] has already raised an army this winter.",
            id="army: fortress used",
        ),
        pytest.param(
            [recruit((1, -1))],
            SIX,
            "red already has 6 armies: disband one to make room.",
            id="army: six armies",
        ),
        pytest.param(
            [recruit((1, -1), "Dwarfs")],
            THREE_ARMIES[:2],
            "An allied army needs 3 or more other armies of the kingdom's own race.",
            id="ally: fewer than 3 armies",
        ),
        pytest.param(
            [recruit((1, -1), "Dwarfs"), recruit((0, -1), "Orcs")],
            THREE_ARMIES,
            "red already has its one allied army.",
            id="ally: a second one",
        ),
        pytest.param(
            [{"disband": "blue-1"}], [], "blue-1 is not an army of red.", id="disband: not red's"
        ),
    ],
)
def test_w5_a_purchase_that_is_not_possible_is_skipped_and_the_kingdom_told_why(
    purchases, armies, reason
):
    """Red (3 gold, 6 food, the settlements of SHOP, red-s1 docked at [-1, 0]) lists
    purchases; all but the last are made, the last is not possible at its moment: it is
    skipped and the event says why."""
    data = building(
        buy(red=purchases),
        map=SEA,
        tiles=SHOP,
        armies=armies,
        ships=[ship("red-s1", (-1, 0))],
        gold=3,
        food=6,
    )

    after = adjudicate(data)

    assert skipped(after) == [("red", _described(purchases[-1]), reason)]


def _described(purchase: Json) -> Json:
    """A purchase as the skipped event names it."""
    if "disband" in purchase:
        return {"kind": "disband", "army": purchase["disband"]}
    kind = "army" if "recruit" in purchase else purchase["build"]
    return {"kind": kind, "hex": purchase["hex"], **({"ally": purchase["ally"]} if "ally" in purchase else {})}  # fmt: skip


@pytest.mark.parametrize(
    "purchase",
    [
        {"build": "village", "recruit": "army", "hex": [1, 0]},
        {"disband": "red-1", "hex": [0, 0]},
        {"hex": [1, 0]},
    ],
)
def test_w5_a_malformed_purchase_is_refused(purchase):
    """A purchase is one of: a build, a recruit, a disband (which names only the army)."""
    refused = refusal(building(buy(red=[purchase]), tiles=[tile((1, 0), "red")], gold=1))

    assert (refused.code, refused.field, refused.unit) == (
        "bad-purchase",
        "inputs.purchases.red[0]",
        None,
    )


# === C iii) Feed armies ========================================================================


def feeding(
    armies: Sequence[Json], *, food: int, gold: int = 0, blue_food: int = 0, **extra: Any
) -> Json:
    """At the feed step, with Red's gold and food and Blue's food."""
    return winter(
        "feed",
        tiles=HOMES,
        armies=armies,
        kingdom_fields={"red": {"gold": gold, "food": food}, "blue": {"food": blue_food}},
        **extra,
    )


def test_w6_each_army_eats_one_food_and_what_is_left_is_lost():
    """Red has 2 armies, 2 gold and 3 food. Both armies eat; the 2 gold and the last food
    are lost at the end of the phase. Red has armies to deploy, so the engine asks it."""
    data = feeding([army("red-1", (0, 0)), army("red-2", (0, 0))], food=3, gold=2)

    after = adjudicate(data)

    assert sorted(armies_of(after, "red")) == ["red-1", "red-2"]
    assert purse(after, "red") == (0, 0)
    assert happened(after, "resources-lost") == [
        {"type": "resources-lost", "kingdom": "red", "gold": 2, "food": 1}
    ]
    assert clock(after) == (1, "winter", 0, "deploy")
    assert kinds(after) == [("deploy", "red")]


def test_w6_the_engine_waits_only_for_a_kingdom_short_of_food():
    """Red has 2 armies and 1 food; Blue has 1 army and 1 food. Only Red is asked which
    army goes, with its armies and how many it is short; nothing is removed yet."""
    data = feeding(
        [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))],
        food=1,
        blue_food=1,
    )

    after = adjudicate(data)

    assert pending(after) == [
        {"kind": "feed", "kingdom": "red", "armies": ["red-1", "red-2"], "short": 1}
    ]
    assert clock(after) == (1, "winter", 0, "feed")
    assert len(after["armies"]) == 3


def test_w6_by_default_the_most_recently_raised_armies_starve_first():
    """Red has red-2, red-9 and red-10, and 1 food. With defaults the newest go first:
    red-10, then red-9. red-2 is fed and deployed."""
    data = feeding(
        [army("red-2", (0, 0)), army("red-9", (0, 0)), army("red-10", (0, 0))],
        food=1,
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert happened(after, "starved") == [
        {"type": "starved", "kingdom": "red", "army": "red-10"},
        {"type": "starved", "kingdom": "red", "army": "red-9"},
    ]
    assert armies_of(after, "red") == {"red-2": [0, 0]}


def test_w6_the_kingdom_picks_which_armies_go():
    """Red has red-1 and red-2 and 1 food, and chooses to let red-1 go."""
    data = feeding(
        [army("red-1", (0, 0)), army("red-2", (0, 0))],
        food=1,
        inputs={"feed": {"red": {"disband": ["red-1"]}}},
    )

    after = adjudicate(data)

    assert sorted(armies_of(after, "red")) == ["red-2"]
    assert kinds(after) == [("deploy", "red")]
    assert "feed" not in after["inputs"]


def test_w6_a_pick_short_of_the_shortfall_is_made_up_newest_first():
    """Red has three armies and 1 food, so 2 must go; it names only red-1. red-3, the
    newest, goes with it."""
    data = feeding(
        [army("red-1", (0, 0)), army("red-2", (0, 0)), army("red-3", (0, 0))],
        food=1,
        inputs={"feed": {"red": {"disband": ["red-1"]}}},
    )

    after = adjudicate(data)

    assert happened(after, "starved") == [
        {"type": "starved", "kingdom": "red", "army": "red-1"},
        {"type": "starved", "kingdom": "red", "army": "red-3"},
    ]
    assert sorted(armies_of(after, "red")) == ["red-2"]


def test_w6_an_army_recruited_this_winter_must_be_fed_too():
    """Red has 1 army and 1 food and recruits a second at its fortress: now it is 1 food
    short, and the engine asks which army goes."""
    data = building(
        buy(red=[recruit((1, -1))]),
        tiles=[tile((1, -1), "red", "fortress")],
        armies=[army("red-1", (0, 0))],
        gold=1,
        food=1,
    )

    after = adjudicate(data)

    assert pending(after, "feed")[0] == {
        "kind": "feed",
        "kingdom": "red",
        "armies": ["red-1", "red-2"],
        "short": 1,
    }


@pytest.mark.parametrize(
    ("disband", "field", "unit_id"),
    [
        (["blue-1"], "inputs.feed.red.disband[0]", "blue-1"),
        (["red-7"], "inputs.feed.red.disband[0]", "red-7"),
        (["red-1", "red-1"], "inputs.feed.red.disband[1]", "red-1"),
    ],
)
def test_w6_a_kingdom_picks_only_among_its_own_armies(disband, field, unit_id):
    """Red, short of food, names an army of Blue's, an army it doesn't have, or the same
    army twice: refused, naming the army."""
    data = feeding(
        [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))],
        food=1,
        blue_food=1,
        inputs={"feed": {"red": {"disband": disband}}},
    )

    refused = refusal(data)

    assert (refused.code, refused.field, refused.unit) == ("feed-not-your-army", field, unit_id)


# === D) Deploy armies ==========================================================================


def deploying(red: Sequence[Json], *, tiles: Sequence[Json] = (), **extra: Any) -> Json:
    return winter("deploy", tiles=[*HOMES, *tiles], armies=list(red), **extra)


def recalled(count: int, hex_: Hex = (0, 0)) -> list[Json]:
    """Red's armies red-1 … red-<count>, recalled to `hex_`."""
    return [army(f"red-{n}", hex_) for n in range(1, count + 1)]


def test_w7_armies_go_where_the_kingdom_says_within_the_limits():
    """Red's 5 armies wait in the capital. Red sends red-1 to its village [1, 0], red-2 and
    red-3 to its city [0, 1] and red-4 to its fortress [1, -1]; it leaves red-5 out, which
    goes to its default place, the capital. Year 2 begins: summer, month 1, orders."""
    data = deploying(
        recalled(5),
        tiles=[tile((1, 0), "red", "village"), tile((0, 1), "red", "city"), tile((1, -1), "red", "fortress")],
        inputs={"deploy": {"red": [place("red-1", (1, 0)), place("red-2", (0, 1)), place("red-3", (0, 1)), place("red-4", (1, -1))]}},
        dice=[],
    )  # fmt: skip

    after = adjudicate(data)

    assert armies_of(after, "red") == {
        "red-1": [1, 0],
        "red-2": [0, 1],
        "red-3": [0, 1],
        "red-4": [1, -1],
        "red-5": [0, 0],
    }
    assert after["clock"] == NEXT_SUMMER
    assert kinds(after) == [("orders", "red")]
    assert "deploy" not in after["inputs"]


def test_w7_default_places_the_capital_then_the_nearest_fortress_first_qr_on_ties():
    """Red's 6 armies wait in the capital; no plan. Its fortresses: [-2, 1] two steps away,
    [1, -1] and [0, -1] one step away; a city [1, 0] and a village [-1, 0] lie one step
    away too. The capital takes 3; the next 3 go to the nearest fortress, the first in
    [q, r] order: [0, -1]. Cities and villages come after fortresses."""
    data = deploying(
        recalled(6),
        tiles=[
            tile((-2, 1), "red", "fortress"),
            tile((-1, 1), "red"),
            tile((1, -1), "red", "fortress"),
            tile((0, -1), "red", "fortress"),
            tile((1, 0), "red", "city"),
            tile((-1, 0), "red", "village"),
        ],
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert armies_of(after, "red") == {
        "red-1": [0, 0],
        "red-2": [0, 0],
        "red-3": [0, 0],
        "red-4": [0, -1],
        "red-5": [0, -1],
        "red-6": [0, -1],
    }


def test_w7_default_places_a_fortress_before_a_nearer_city():
    """Red's 4 armies wait in the capital; no plan. Its city [1, 0] lies one step away,
    its fortress [2, -1] two steps away. The capital takes 3; the fourth goes to the
    fortress, though the city is nearer: fortresses come before cities (W7)."""
    data = deploying(
        recalled(4),
        tiles=[tile((1, 0), "red", "city"), tile((2, -1), "red", "fortress")],
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert armies_of(after, "red") == {
        "red-1": [0, 0],
        "red-2": [0, 0],
        "red-3": [0, 0],
        "red-4": [2, -1],
    }


def test_w7_default_places_cities_before_villages_nearest_first():
    """Red has no capital; its 6 armies were recalled to its city [0, 0]. Its other
    settlements: a city [2, -2] two steps away (through [1, -1]), villages [1, 0] and
    [-1, 1] one step away. Default: [0, 0] takes 2 (a city, not a capital), the city
    [2, -2] 2, then the villages, [-1, 1] before [1, 0] in [q, r] order."""
    data = deploying(
        recalled(6),
        capitals={"blue": (-3, 3)},
        tiles=[
            tile((1, -1), "red"),
            tile((2, -2), "red", "city"),
            tile((1, 0), "red", "village"),
            tile((-1, 1), "red", "village"),
        ],
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert armies_of(after, "red") == {
        "red-1": [0, 0],
        "red-2": [0, 0],
        "red-3": [2, -2],
        "red-4": [2, -2],
        "red-5": [-1, 1],
        "red-6": [1, 0],
    }


@pytest.mark.parametrize(
    ("hex_", "limit"),
    [((1, 0), 1), ((0, 1), 2), ((0, 0), 3), ((1, -1), 3)],
    ids=["village 1", "city 2", "capital 3", "fortress 3"],
)
def test_w7_each_settlement_takes_so_many_armies(hex_, limit):
    """Red's 4 armies wait to deploy; it has a village [1, 0], a city [0, 1], its capital
    [0, 0] and a fortress [1, -1]. A settlement takes its limit of armies (village 1, city
    2, capital 3, fortress 3); one more placed there is refused."""
    armies = [f"red-{n}" for n in range(1, limit + 2)]
    tiles = [tile((1, 0), "red", "village"), tile((0, 1), "red", "city")]
    tiles.append(tile((1, -1), "red", "fortress"))

    def plan(count: int) -> Json:
        return deploying(
            recalled(4),
            tiles=tiles,
            inputs={"deploy": {"red": [place(a, hex_) for a in armies[:count]]}},
            dice=[],
        )

    after = adjudicate(plan(limit))
    placed = armies_of(after, "red")
    assert [placed[a] for a in armies[:limit]] == [list(hex_)] * limit

    refused = refusal(plan(limit + 1))
    assert (refused.code, refused.field, refused.unit) == (
        "deploy-no-room",
        f"inputs.deploy.red[{limit}].hex",
        armies[limit],
    )


def test_w7_an_army_with_no_room_is_destroyed():
    """Red's only settlement is its capital (room for 3) and it has 4 armies. Red places
    red-4 there first; the others take the places left in id order, and red-3 has no
    room: it is destroyed."""
    data = deploying(recalled(4), inputs={"deploy": {"red": [place("red-4", (0, 0))]}}, dice=[])

    after = adjudicate(data)

    assert sorted(armies_of(after, "red")) == ["red-1", "red-2", "red-4"]
    assert happened(after, "no-room") == [{"type": "no-room", "kingdom": "red", "army": "red-3"}]
    assert happened(after, "deployed") == [
        {"type": "deployed", "kingdom": "red", "army": army_id, "hex": [0, 0]}
        for army_id in ("red-1", "red-2", "red-4")
    ]


def test_w7_an_army_recruited_in_a_fortress_cut_off_from_the_capital_stays_there():
    """Red recruited red-2 this winter in its fortress [2, -2], which is not connected to
    the capital ([1, -1] between them is Blue's). red-2 stays in the fortress; only red-1,
    in the capital, is asked about, and it deploys."""
    data = deploying(
        [army("red-1", (0, 0)), army("red-2", (2, -2))],
        tiles=[tile((1, -1), "blue"), tile((2, -2), "red", "fortress")],
        dice=[],
    )

    asked = adjudicate(data)
    assert pending(asked) == [{"kind": "deploy", "kingdom": "red", "armies": ["red-1"]}]

    after = adjudicate(data, defaults=True)
    assert armies_of(after, "red") == {"red-1": [0, 0], "red-2": [2, -2]}


def test_w7_an_army_recruited_in_a_connected_fortress_deploys_like_the_rest():
    """red-2 was recruited in the fortress [1, -1], next to the capital: it is taken up
    and deployed like every army, by default to the capital."""
    data = deploying(
        [army("red-1", (0, 0)), army("red-2", (1, -1))],
        tiles=[tile((1, -1), "red", "fortress")],
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert armies_of(after, "red") == {"red-1": [0, 0], "red-2": [0, 0]}


def test_w7_without_a_capital_armies_deploy_around_the_city_they_were_recalled_to():
    """Red has no capital; its army red-1 was recalled to its city [1, 0]. Apart from it
    Red holds the city [-2, 1] and two fortresses beside it, [-2, 2] and [-1, 2], where it
    recruited red-2 and red-3 this winter. The city the armies were recalled to still
    stands in for the capital at deployment (W1), though the other city is now connected
    to more armies: red-1 deploys at [1, 0], and the two recruits, cut off from it, stay
    in their fortresses."""
    data = winter(
        "deploy",
        armies=[army("red-1", (1, 0)), army("red-2", (-2, 2)), army("red-3", (-1, 2))],
        capitals={"blue": (-3, 3)},
        tiles=[
            BLUE_HOME,
            tile((1, 0), "red", "city"),
            tile((-2, 1), "red", "city"),
            tile((-2, 2), "red", "fortress"),
            tile((-1, 2), "red", "fortress"),
        ],
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert armies_of(after, "red") == {"red-1": [1, 0], "red-2": [-2, 2], "red-3": [-1, 2]}


def test_w1_w7_without_a_capital_or_an_army_recalled_a_recruits_fortress_does_not_stand_in():
    """Red has no capital and no army came home this winter; it raised red-1 in its
    fortress [-1, 1]. Its city [1, 0], joined to the fortress through [0, 0], stands in
    for the capital (W1: a city, never a fortress, and a recruit is not an army recalled
    to it): red-1 deploys to the fortress nearest the city, [1, -1], one step from it,
    not the two-step [-1, 1] where it was raised (W7)."""
    data = winter(
        "deploy",
        armies=[army("red-1", (-1, 1))],
        capitals={"blue": (-3, 3)},
        tiles=[
            BLUE_HOME,
            tile((1, 0), "red", "city"),
            tile((0, 0), "red"),
            tile((-1, 1), "red", "fortress"),
            tile((1, -1), "red", "fortress"),
        ],
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert armies_of(after, "red") == {"red-1": [1, -1]}


def test_w7_a_capital_named_this_winter_is_where_deployment_goes():
    """Red had no capital, recalled red-1 to its city [1, 0], and named the city [-2, 1]
    its capital this winter. red-1 is deployed around the new capital: to [-2, 1]."""
    data = deploying(
        [army("red-1", (1, 0))],
        capitals={"red": (-2, 1), "blue": (-3, 3)},
        tiles=[tile((1, 0), "red", "city"), tile((-2, 1), "red", "city")],
        dice=[],
    )

    after = adjudicate(data, defaults=True)

    assert armies_of(after, "red") == {"red-1": [-2, 1]}


def test_w7_only_kingdoms_with_armies_to_deploy_are_asked():
    """Red has an army to deploy, Blue none: only Red is asked."""
    after = adjudicate(deploying(recalled(1)))

    assert pending(after) == [{"kind": "deploy", "kingdom": "red", "armies": ["red-1"]}]
    assert clock(after) == (1, "winter", 0, "deploy")


def test_w7_first_player_brakes_the_first_player_deploys_all_its_armies_first():
    """Red, first, has 2 armies, Blue 1: Red deploys all its armies before Blue places
    any (first player brakes). Each kingdom places only in its own settlements, so this
    decides the order of the record, not where anyone goes."""
    data = deploying(
        [*recalled(2), army("blue-1", (-3, 3))], inputs={"deploy": {"red": [], "blue": []}}, dice=[]
    )

    after = adjudicate(data)

    assert happened(after, "deployed") == [
        {"type": "deployed", "kingdom": "red", "army": "red-1", "hex": [0, 0]},
        {"type": "deployed", "kingdom": "red", "army": "red-2", "hex": [0, 0]},
        {"type": "deployed", "kingdom": "blue", "army": "blue-1", "hex": [-3, 3]},
    ]


def test_w7_r3_the_player_order_is_redetermined_by_armies():
    """Red is first with 1 army, Blue second with 2. After deployment Blue goes first."""
    data = deploying(
        [*recalled(1), army("blue-1", (-3, 3)), army("blue-2", (-3, 3))],
        inputs={"deploy": {"red": [], "blue": []}},
        dice=[],
    )

    after = adjudicate(data)

    assert after["player_order"] == ["blue", "red"]
    assert happened(after, "player-order") == [
        {"type": "player-order", "order": ["blue", "red"], "armies": {"red": 1, "blue": 2}}
    ]


def test_w7_d2_kingdoms_tied_on_armies_roll_off_for_the_player_order():
    """Red and Blue have 1 army each: they roll off in the current order, Red 2, Blue 5.
    Blue goes first."""
    data = deploying(
        [*recalled(1), army("blue-1", (-3, 3))],
        inputs={"deploy": {"red": [], "blue": []}},
        dice=[2, 5],
    )

    after = adjudicate(data)

    assert after["player_order"] == ["blue", "red"]
    assert [e["dice"] for e in events(after, "roll-off")] == [[2, 5]]


def test_w7_the_player_order_counts_the_armies_before_they_are_placed():
    """Red has 4 armies and room for 3 (its capital only); Blue has 3. The rulebook sets
    the player order when the armies are taken up, before they are placed: Red, with 4,
    goes first, though it loses one for want of room. No roll-off."""
    data = deploying(
        [*recalled(4), *(army(f"blue-{n}", (-3, 3)) for n in (1, 2, 3))],
        player_order=["blue", "red"],
        inputs={"deploy": {"red": [], "blue": []}},
        dice=[],
    )

    after = adjudicate(data)

    assert after["player_order"] == ["red", "blue"]
    assert len(armies_of(after, "red")) == 3


@pytest.mark.parametrize(
    ("plan", "code", "field", "unit_id"),
    [
        ([place("blue-1", (0, 0))], "deploy-not-your-army", "inputs.deploy.red[0].army", "blue-1"),
        ([place("red-1", (0, 0)), place("red-1", (1, 0))], "deploy-not-your-army", "inputs.deploy.red[1].army", "red-1"),
        ([place("red-3", (2, -2))], "deploy-not-your-army", "inputs.deploy.red[0].army", "red-3"),
        ([place("red-1", (2, -2))], "deploy-not-connected", "inputs.deploy.red[0].hex", "red-1"),
        ([place("red-1", (0, 1))], "deploy-not-connected", "inputs.deploy.red[0].hex", "red-1"),
        ([place("red-1", (-3, 3))], "deploy-not-connected", "inputs.deploy.red[0].hex", "red-1"),
        ([place("red-1", (1, 0)), place("red-2", (1, 0))], "deploy-no-room", "inputs.deploy.red[1].hex", "red-2"),
    ],
)  # fmt: skip
def test_w7_an_illegal_placement_is_refused(plan, code, field, unit_id):
    """Red deploys only its own armies waiting to deploy (not Blue's, not one twice, not
    red-3 held in its cut-off fortress [2, -2]), each to a settlement of its own connected
    to the capital (not the cut-off fortress, not the empty tile [0, 1], not Blue's
    capital), within the limits (one army in the village [1, 0])."""
    data = deploying(
        [army("red-1", (0, 0)), army("red-2", (0, 0)), army("red-3", (2, -2)), army("blue-1", (-3, 3))],
        tiles=[tile((1, 0), "red", "village"), tile((0, 1), "red"), tile((1, -1), "blue"), tile((2, -2), "red", "fortress")],
        inputs={"deploy": {"red": plan, "blue": []}},
    )  # fmt: skip

    refused = refusal(data)

    assert (refused.code, refused.field, refused.unit) == (code, field, unit_id)


# --- the end of the year ------------------------------------------------------------------------


def test_w7_after_the_last_years_deployment_the_campaign_ends_with_the_final_scores():
    """Year 6 of 6: after deployment the campaign ends. Nothing is pending; the scores are
    final (Red: capital 3 + army 5 = 8; Blue: capital 3)."""
    data = deploying(recalled(1), year=6, inputs={"deploy": {"red": []}}, dice=[])

    after = adjudicate(data)

    assert after["clock"] == {"year": 6, "season": "ended", "month": 0, "step": "final"}
    assert after["pending"] == []
    assert [e["year"] for e in events(after, "campaign-ended")] == [6]
    assert [(s["kingdom"], s["might"], s["rank"]) for s in after["scores"]] == [
        ("red", 8, 1),
        ("blue", 3, 2),
    ]


def test_w7_a_shorter_campaign_ends_after_its_own_last_year():
    """A campaign of 2 years ends after the deployment of year 2, with defaults too."""
    data = deploying(recalled(1), year=2, options={"years": 2}, dice=[])

    after = adjudicate(data, defaults=True)

    assert after["clock"] == {"year": 2, "season": "ended", "month": 0, "step": "final"}
    assert after["pending"] == []


def test_w7_an_ended_campaign_does_not_move():
    """A campaign that has ended is returned as it is."""
    data = position(clock=(6, "ended", 0, "final"), tiles=HOMES, capitals=CAPITALS)

    after = adjudicate(data, defaults=True)

    assert after["clock"] == {"year": 6, "season": "ended", "month": 0, "step": "final"}
    assert after["events"] == []


# === Decisions: stopping where one is missing, or the deadline defaults =====================


def a_year_end(**extra: Any) -> Json:
    """The end of summer of year 1: Red holds its capital and a village [1, 0], with
    red-1 at [1, 0] and red-2 at [1, 1]; Blue holds its capital and a village [-3, 2], with
    blue-1 at home. Red will be one food short."""
    return winter(
        "recall",
        tiles=[
            *HOMES,
            tile((1, 0), "red", "village"),
            tile((1, 1), "red"),
            tile((-3, 2), "blue", "village"),
        ],
        armies=[army("red-1", (1, 0)), army("red-2", (1, 1)), army("blue-1", (-3, 3))],
        dice=[6, 1],
        **extra,
    )


def test_w4_w7_without_defaults_the_winter_stops_at_each_step_that_lacks_a_decision():
    """Step by step: the engine waits for every kingdom's tithes, then every kingdom's
    purchases, then the feed of Red (short of food), then the deployment of both. Given
    each, it goes on, and after deployment (a roll-off: Red 6, Blue 1) stops at the
    orders of summer month 1 of year 2."""
    data = a_year_end()

    data = adjudicate(data)
    assert (clock(data)[3], kinds(data)) == ("tithe", [("tithes", "red"), ("tithes", "blue")])

    data["inputs"]["tithes"] = {"red": []}
    data = adjudicate(data)
    assert (clock(data)[3], kinds(data)) == ("tithe", [("tithes", "blue")])

    data["inputs"]["tithes"]["blue"] = []
    data = adjudicate(data)
    assert (clock(data)[3], kinds(data)) == ("build", [("purchases", "red"), ("purchases", "blue")])

    data["inputs"]["purchases"] = {"red": [], "blue": []}
    data = adjudicate(data)
    assert clock(data)[3] == "feed"
    assert pending(data) == [
        {"kind": "feed", "kingdom": "red", "armies": ["red-1", "red-2"], "short": 1}
    ]

    data["inputs"]["feed"] = {"red": {"disband": ["red-1"]}}
    data = adjudicate(data)
    assert (clock(data)[3], kinds(data)) == ("deploy", [("deploy", "red"), ("deploy", "blue")])

    data["inputs"]["deploy"] = {"red": [], "blue": []}
    data = adjudicate(data)
    assert data["clock"] == NEXT_SUMMER
    assert kinds(data) == [("orders", "red"), ("orders", "blue")]
    assert armies_of(data, "red") == {"red-2": [0, 0]}
    assert data["inputs"] == {}


def test_w4_w7_defaults_run_a_whole_winter_to_the_next_summers_first_orders():
    """With defaults from the start of winter: no tithes, no purchases, Red's newest army
    starves, leftovers are lost, every army goes to its capital, and the engine stops at
    the orders of year 2, month 1 (a roll-off: Red 6, Blue 1)."""
    after = adjudicate(a_year_end(), defaults=True)

    assert after["clock"] == NEXT_SUMMER
    assert kinds(after) == [("orders", "red"), ("orders", "blue")]
    assert events(after, "tithe") == []
    assert events(after, "built") == []
    assert [e["army"] for e in events(after, "starved")] == ["red-2"]
    assert [(e["kingdom"], e["gold"], e["food"]) for e in events(after, "resources-lost")] == [
        ("red", 2, 0),
        ("blue", 2, 0),
    ]
    assert armies_of(after, "red") == {"red-1": [0, 0]}
    assert armies_of(after, "blue") == {"blue-1": [-3, 3]}
    assert after["player_order"] == ["red", "blue"]


# === E) Scoring =================================================================================


def final(**extra: Any) -> Json:
    """A campaign that has ended: the scores are final."""
    return position(clock=(6, "ended", 0, "final"), **extra)


def table(data: Json) -> list[tuple[str, int, int]]:
    return [(s["kingdom"], s["might"], s["rank"]) for s in data["scores"]]


def test_p1_might_counts_settlements_armies_and_pitched_wins():
    """Red controls its capital (3), a city (2), a fortress (2), two villages (1 each), an
    empty tile (0), 2 armies (5 each) and has won 3 pitched battles on the tabletop:
    3 + 2 + 2 + 2 + 10 + 3 = 22. The score line counts its settlements, the capital among
    the cities."""
    data = final(
        capitals=CAPITALS,
        tiles=[
            *HOMES,
            tile((1, 0), "red", "city"),
            tile((1, -1), "red", "fortress"),
            tile((0, 1), "red", "village"),
            tile((-1, 1), "red", "village"),
            tile((0, -1), "red"),
        ],
        armies=recalled(2),
        kingdom_fields={"red": {"pitched_wins": 3, "pitched_losses": 4}},
    )

    after = adjudicate(data)

    assert after["scores"][0] == {
        "kingdom": "red",
        "might": 22,
        "rank": 1,
        "armies": 2,
        "cities": 2,
        "fortresses": 1,
        "villages": 2,
    }


def test_p1_the_capital_counts_three_not_two_plus_three():
    """Red holds only its capital; Blue only a plain city (it lost its capital): Red 3,
    Blue 2."""
    data = final(capitals={"red": (0, 0)}, tiles=HOMES)

    after = adjudicate(data)

    assert table(after) == [("red", 3, 1), ("blue", 2, 2)]


def test_p1_the_scores_are_a_live_projection_during_the_campaign():
    """In the summer of year 2 the scores already show each kingdom's might."""
    data = position(
        clock=(2, "summer", 3, "orders"),
        capitals=CAPITALS,
        tiles=[*HOMES, tile((1, 0), "red", "village")],
        armies=[army("red-1", (0, 0))],
    )

    after = adjudicate(data)

    assert table(after) == [("red", 9, 1), ("blue", 3, 2)]


@pytest.mark.parametrize(
    ("tiles", "capitals", "armies", "wins", "ahead"),
    [
        pytest.param(
            [tile((-3, q), "blue", "village") for q in range(4)] + [tile((-2, 3), "blue", "village")],
            {},
            [army("red-1", (0, 0))],
            0,
            "red",
            id="armies: Red's army against Blue's 5 villages",
        ),
        pytest.param(
            [tile((0, 0), "red", "city"), tile((-3, 3), "blue", "fortress"), tile((-2, 3), "blue", "village")],
            {"red": (0, 0)},
            [],
            0,
            "red",
            id="cities: Red's capital against Blue's fortress and village",
        ),
        pytest.param(
            [tile((0, 0), "red", "fortress"), tile((-3, 3), "blue", "village"), tile((-2, 3), "blue", "village")],
            {},
            [],
            0,
            "red",
            id="fortresses: Red's fortress against Blue's 2 villages",
        ),
        pytest.param(
            [tile((0, 0), "red", "village"), tile((-3, 3), "blue", "village"), tile((-2, 3), "blue", "village")],
            {},
            [],
            1,
            "blue",
            id="villages: Red's village and pitched win against Blue's 2 villages",
        ),
    ],
)  # fmt: skip
def test_p2_tied_on_might_the_tiebreakers_decide_in_order(tiles, capitals, armies, wins, ahead):
    """Red and Blue have the same might; the first tiebreaker that differs decides, even
    where a later one favours the other: most armies, then most cities (the capital is
    one), most fortresses, most villages."""
    data = final(
        capitals=capitals,
        tiles=tiles,
        armies=armies,
        kingdom_fields={"red": {"pitched_wins": wins}},
    )

    after = adjudicate(data)

    mights = {s["kingdom"]: s["might"] for s in after["scores"]}
    assert mights["red"] == mights["blue"]
    behind = "blue" if ahead == "red" else "red"
    assert [(s["kingdom"], s["rank"]) for s in after["scores"]] == [(ahead, 1), (behind, 2)]


def test_p2_w3_then_the_kingdom_eliminated_latest_and_never_eliminated_is_best():
    """Red, Green and Yellow have 1 might each (one pitched win; Red holds an empty tile
    too) and nothing else. Green was eliminated in year 2, Yellow in year 4, Red never:
    Red first, Yellow second, Green third."""
    data = final(
        kingdoms=("red", "green", "yellow"),
        player_order=["red"],
        tiles=[tile((0, 0), "red")],
        kingdom_fields={
            "red": {"pitched_wins": 1},
            "green": {"pitched_wins": 1, "eliminated": 2},
            "yellow": {"pitched_wins": 1, "eliminated": 4},
        },
    )

    after = adjudicate(data)

    assert table(after) == [("red", 1, 1), ("yellow", 1, 2), ("green", 1, 3)]


def test_p2_kingdoms_still_tied_share_the_place():
    """Red and Blue each hold one village and nothing else; Green holds an empty tile.
    Red and Blue share first place; Green is third."""
    data = final(
        kingdoms=("red", "blue", "green"),
        tiles=[
            tile((0, 0), "red", "village"),
            tile((-3, 3), "blue", "village"),
            tile((3, -3), "green"),
        ],
    )

    after = adjudicate(data)

    assert table(after) == [("blue", 1, 1), ("red", 1, 1), ("green", 0, 3)]


# --- a list is judged as soon as it is given (for the winter page) ---------------------------


def test_w4_a_tithe_list_is_refused_as_soon_as_it_is_given():
    """Red lists a gift to itself while Blue and Green have not said: the list is refused
    now, not at the end of the tithes."""
    error = refusal(tithing({"red": [gift("red", gold=1)]}, red=(1, 0)))
    assert (error.code, error.field) == ("tithe-to-self", "inputs.tithes.red[0].to")


def test_w6_a_hungry_army_not_the_kingdoms_own_is_refused_while_others_decide():
    """Red and Blue are both short of food. Red names blue-1 to go hungry while Blue has
    not chosen: refused now."""
    data = feeding(
        [army("red-1", (0, 0)), army("blue-1", (-3, 3))],
        food=0,
        inputs={"feed": {"red": {"disband": ["blue-1"]}}},
    )
    error = refusal(data)
    assert (error.code, error.unit) == ("feed-not-your-army", "blue-1")


def test_w7_a_plan_placing_an_army_twice_is_refused_while_others_decide():
    """Red places red-1 twice while Blue, with an army to place, has not said: refused."""
    data = deploying(
        [*recalled(2), army("blue-1", (-3, 3))],
        inputs={"deploy": {"red": [place("red-1", (0, 0)), place("red-1", (0, 0))]}},
    )
    error = refusal(data)
    assert (error.code, error.unit) == ("deploy-not-your-army", "red-1")
