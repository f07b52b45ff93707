"""The rules casebook for option `marauders` (campaign-options.md, OW1 to OW8, part B's
settled points and where the horde meets the other options). Each test is one case, named
after its rule, with the document's four worked examples among them; its docstring states
the position and what must happen.

Positions stand on a hexagon of plains of radius 5 around [0, 0] (`PLAINS`), Red's capital
[0, 0] and Blue's [-3, 3] unless a case says otherwise. A month opens as the clock enters
its orders step, so a case of arrival or of orders starts at the reform of the month
before (Red with two armies, Blue with one, so the new player order takes no dice) and the
engine stops at the new month's orders, its opening done."""

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
)
from tests.rules.test_casebook_summer import orders, upright

Hex = tuple[int, int]

MARAUDERS = {"marauders": True, "marauder_race": "Orcs", "marauder_general": "admin"}
PLAINS = make_map(5)
CAPITALS = {"red": (0, 0), "blue": (-3, 3)}
HOMES = [tile((0, 0), "red", "city"), tile((-3, 3), "blue", "city")]
# Red two armies, Blue one: the player order after a reform takes no dice (R3).
GARRISONS = [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))]


def horde(marauder_id: str, hex_: Hex, *, upright: bool = True, **extra: Any) -> Json:
    return {"id": marauder_id, "hex": list(hex_), "upright": upright, **extra}


def with_horde(
    *,
    clock: tuple[int, str, int, str] = (1, "summer", 1, "orders"),
    tiles: list[Json] | None = None,
    armies: list[Json] | None = None,
    marauders: list[Json] = (),  # type: ignore[assignment]
    options: Json | None = None,
    **extra: Any,
) -> Json:
    """A file with the horde on (`marauder_general` the admin) at `clock`."""
    return position(
        map=extra.pop("map", PLAINS),
        clock=clock,
        capitals=extra.pop("capitals", CAPITALS),
        tiles=HOMES if tiles is None else tiles,
        armies=GARRISONS if armies is None else armies,
        options={**MARAUDERS, **(options or {})},
        marauder_armies=list(marauders),
        **extra,
    )


def opening(*, year: int = 1, month: int = 2, **extra: Any) -> Json:
    """The file at the reform of the month before `month`: the engine reforms, then opens
    `month` (its arrival die, then the orders) and waits for its orders."""
    return with_horde(clock=(year, "summer", month - 1, "reform"), **extra)


def the_horde(data: Json) -> dict[str, Json]:
    return {m["id"]: m for m in data["marauder_armies"]}


def order_of(data: Json, marauder_id: str) -> Json:
    found: Json = the_horde(data)[marauder_id]["order"]
    return found


def arrival(data: Json) -> Json:
    (arrived,) = events(data, "marauders-arrived")
    return arrived


def defend_all(data_armies: list[Json]) -> dict[str, list[Json]]:
    """Every kingdom army Defends (each kingdom's orders), but those given."""
    by_kingdom: dict[str, list[Json]] = {}
    for a in data_armies:
        by_kingdom.setdefault(a["kingdom"], []).append(order(a["id"], "defend"))
    return by_kingdom


# === OW2 arrival ===================================================================================


def test_ow2_example_1_a_band_of_two_arrives_on_the_third_candidate():
    """Year 3, opening month 2; 4 marauder armies out (m-1 to m-4), 4 arrived so far. The
    arrival die is 6: a band of 2 (years 3 and 4). Unexplored tiles armies may enter with no
    unit: [-3, 1], [4, -1] and [5, 0] (every other tile explored). The pick (OG2, n = 3, one
    die): 5 is past 3, rolled again; 3, the third: m-5 and m-6 stand upright at [5, 0]."""
    unexplored = {(-3, 1), (4, -1), (5, 0)}
    held = [
        tile(h, "red" if h[0] >= 0 else "blue", "city" if h in ((0, 0), (-3, 3)) else None)
        for h in sorted(set(map(tuple, (t["hex"] for t in PLAINS["tiles"]))) - unexplored)
    ]
    out = [horde(f"m-{n}", (n, -5)) for n in range(1, 5)]
    data = opening(year=3, tiles=held, marauders=out, marauders_arrived=4, dice=[6, 5, 3])

    after = adjudicate(data)

    assert arrival(after)["dice"] == [6, 5, 3]
    assert arrival(after)["armies"] == ["m-5", "m-6"]
    assert the_horde(after)["m-5"]["hex"] == [5, 0]
    assert the_horde(after)["m-6"] == {**the_horde(after)["m-5"], "id": "m-6"}
    assert the_horde(after)["m-6"]["upright"] is True
    assert after["marauders_arrived"] == 6
    assert after["clock"] == {"year": 3, "season": "summer", "month": 2, "step": "orders"}


def test_ow2_no_six_no_band_and_the_die_is_told():
    """The arrival die is 4: no band; the die is an event of its own (OG5)."""
    after = adjudicate(opening(dice=[4]))

    assert [e["dice"] for e in events(after, "no-marauders")] == [[4]]
    assert events(after, "marauders-arrived") == []
    assert after["marauder_armies"] == []


@pytest.mark.parametrize(
    ("year", "out", "band"), [(1, 0, 1), (2, 0, 1), (4, 0, 2), (5, 0, 3), (6, 4, 2)]
)
def test_ow2_a_band_is_sized_by_the_year_never_past_six(year, out, band):
    """A band is 1 army in years 1 and 2, 2 in years 3 and 4, 3 from year 5, and never so
    many that more than 6 are out (4 out in year 6: 2)."""
    standing = [horde(f"m-{n}", (n - 5, 5)) for n in range(1, out + 1)]
    after = adjudicate(opening(year=year, marauders=standing, dice=[6, 1, 1, 1]))

    assert len(arrival(after)["armies"]) == band


def test_ow2_six_out_no_die_is_rolled():
    """Six marauder armies out: no arrival die at the opening (the dice stay unread)."""
    six = [horde(f"m-{n}", (n - 6, 5)) for n in range(1, 7)]
    after = adjudicate(opening(marauders=six, dice=[6]))

    assert events(after, "marauders-arrived") == []
    assert after["dice_rolled"] == 0


def test_ow2_with_nothing_unexplored_a_band_lands_on_an_empty_controlled_tile():
    """Every tile explored: the candidates are controlled tiles with no settlement and no
    unit; here only [1, 0] (the rest hold a settlement or a unit). One candidate: no dice."""
    hexes = [(0, 0), (1, 0), (2, 0), (-1, 0)]
    tiles = [
        tile((0, 0), "red", "city"),
        tile((1, 0), "red"),
        tile((2, 0), "red", "village"),
        tile((-1, 0), "blue", "city"),
    ]
    data = opening(
        map=make_map(hexes=hexes),
        tiles=tiles,
        capitals={"red": (0, 0), "blue": (-1, 0)},
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-1, 0))],
        dice=[6],
    )

    after = adjudicate(data)

    assert arrival(after)["hex"] == [1, 0]
    assert arrival(after)["dice"] == [6]


def test_ow2_with_no_candidate_no_band_arrives():
    """Every tile explored and holding a settlement or a unit: the 6 brings nobody."""
    hexes = [(0, 0), (1, 0), (-1, 0)]
    tiles = [tile((0, 0), "red", "city"), tile((1, 0), "red"), tile((-1, 0), "blue", "city")]
    data = opening(
        map=make_map(hexes=hexes),
        tiles=tiles,
        capitals={"red": (0, 0), "blue": (-1, 0)},
        armies=[army("red-1", (0, 0)), army("red-2", (1, 0)), army("blue-1", (-1, 0))],
        dice=[6],
    )

    after = adjudicate(data)

    assert [e["dice"] for e in events(after, "no-marauders")] == [[6]]
    assert after["marauder_armies"] == []


def test_ow2_a_month_opens_once_a_file_at_its_orders_step_has_had_its_opening():
    """Part B's settled points: a file standing at a summer orders step has had its
    opening; advancing it again (orders still missing) rolls nothing."""
    after = adjudicate(opening(dice=[4]))
    again = adjudicate({**after, "dice": [6, 6, 6]})

    assert len(events(again, "no-marauders")) == 1
    assert again["dice_rolled"] == after["dice_rolled"]


def test_ow2_month_1_of_year_1_opens_after_the_setup():
    """The setup's last step (the starting armies) enters year 1, month 1: it opens, and
    a 6 brings a band of one."""
    data = with_horde(
        clock=(1, "setup", 0, "armies"),
        tiles=[*HOMES, tile((1, 0), "red", "fortress"), tile((-2, 3), "blue", "fortress")],
        armies=[],
        player_order=["red", "blue"],
        inputs={"starting_armies": {"red": [0, 0], "blue": [-3, 3]}},
    )
    data["dice"] = [6, 1, 1, 1]

    after = adjudicate(data)

    assert after["clock"] == {"year": 1, "season": "summer", "month": 1, "step": "orders"}
    assert arrival(after)["armies"] == ["m-1"]
    assert arrival(after)["month"] == 1


def test_ow2_with_defaults_the_run_stops_after_the_next_months_opening():
    """`--defaults` from a reform stops at the next month's orders, its opening done: the
    arrival die is the last die taken."""
    after = adjudicate(opening(dice=[6, 1, 1, 1]), defaults=True)

    assert after["clock"]["month"] == 2
    assert after["clock"]["step"] == "orders"
    assert events(after, "marauders-arrived")[-1]["dice"][0] == 6
    assert after["marauder_armies"][0]["order"] is not None


# === OW3 orders =====================================================================================


def test_ow3_example_2_the_band_steps_toward_the_nearer_village():
    """m-1 at [4, 0]; Red's village [2, 0] and Blue's city [4, -2] are both 2 steps away:
    the village first. m-1 is ordered to [3, 0], the only tile one step from both, and
    moves there when the month resolves, after the kingdoms' orders."""
    tiles = [*HOMES, tile((2, 0), "red", "village"), tile((4, -2), "blue", "city")]
    after = adjudicate(opening(tiles=tiles, marauders=[horde("m-1", (4, 0))], dice=[1]))

    assert order_of(after, "m-1") == {"order": "move", "to": [3, 0]}
    assert happened(after, "marauder-orders") == [
        {"type": "marauder-orders", "orders": {"m-1": {"order": "move", "to": [3, 0]}}}
    ]

    given = {**after, "inputs": orders(**defend_all(after["armies"])), "dice": [1]}
    resolved = adjudicate(given)

    assert the_horde(resolved)["m-1"]["hex"] == [3, 0]
    moved = [e for e in happened(resolved, "moved") if e["unit"] == "m-1"]
    assert moved == [
        {"type": "moved", "unit": "m-1", "kingdom": "marauders", "from": [4, 0], "to": [3, 0]}
    ]
    assert tile_at(resolved, (3, 0)) is None  # the horde explores nothing


@pytest.mark.parametrize(
    ("stands", "upright_", "guard", "expected"),
    [
        ((1, 0), False, None, {"order": "regroup"}),
        ((2, 0), True, None, {"order": "raze"}),
        ((2, 0), True, "red-2", {"order": "hold"}),
        ((3, 0), True, "red-2", {"order": "hold"}),
    ],
    ids=[
        "on-its-side-regroups",
        "unguarded-settlement-razed",
        "guarded-settlement-held",
        "beside-a-unit-holds",
    ],
)
def test_ow3_the_order_follows_the_armys_place(stands, upright_, guard, expected):
    """On its side: Regroup. Upright on a settlement with no kingdom unit: Raze. Upright
    with a kingdom's unit in its tile: Hold (on a settlement or not)."""
    tiles = [*HOMES, tile((2, 0), "red", "village"), tile((3, 0), "red")]
    garrisons = [
        army("red-1", (0, 0)),
        army("red-2", stands if guard else (0, 0)),
        army("blue-1", (-3, 3)),
    ]
    data = opening(
        tiles=tiles, armies=garrisons, marauders=[horde("m-1", stands, upright=upright_)], dice=[1]
    )

    after = adjudicate(data)

    assert order_of(after, "m-1") == expected


def test_ow3_nothing_reachable_holds():
    """Water edges part m-1's tile from every settlement: nothing reachable, so Hold."""
    walls = [((4, 0), n) for n in ((5, 0), (5, -1), (4, -1), (3, 0), (3, 1), (4, 1))]
    data = opening(map=make_map(5, water_edges=walls), marauders=[horde("m-1", (4, 0))], dice=[1])

    assert order_of(adjudicate(data), "m-1") == {"order": "hold"}


def test_ow3_ties_a_village_before_a_city_before_a_fortress_then_qr_order():
    """Three settlements 2 steps from m-1 at [0, 3]: Red's fortress [2, 1], city [-2, 3]
    and village [0, 1] (the capitals are 3 away): the village. Its step: [0, 2], the one
    tile beside m-1 that is one step from the village."""
    tiles = [
        *HOMES,
        tile((2, 1), "red", "fortress"),
        tile((-2, 3), "red", "city"),
        tile((0, 1), "red", "village"),
    ]
    after = adjudicate(opening(tiles=tiles, marauders=[horde("m-1", (0, 3))], dice=[1]))

    assert order_of(after, "m-1") == {"order": "move", "to": [0, 2]}


def test_ow3_a_file_at_the_orders_step_fills_in_an_absent_order_and_refuses_another():
    """Part B's settled points: at the orders step an order absent (or null) is filled in
    as OW3 gives it; one that differs is refused, naming the marauder's order."""
    tiles = [*HOMES, tile((2, 0), "red", "village")]
    data = with_horde(tiles=tiles, marauders=[horde("m-1", (2, 0), order=None)])

    assert order_of(adjudicate(data), "m-1") == {"order": "raze"}

    wrong = with_horde(tiles=tiles, marauders=[horde("m-1", (2, 0), order={"order": "hold"})])
    refused = refusal(wrong)
    assert refused.code == "bad-marauder-order"
    assert refused.field == "marauder_armies[0].order"


def test_ow3_an_order_in_winter_is_refused():
    """The season turning to winter clears the orders: a non-null order in winter is
    refused."""
    data = with_horde(
        clock=(1, "winter", 0, "gather"), marauders=[horde("m-1", (3, 0), order={"order": "hold"})]
    )

    assert refusal(data).code == "order-out-of-season"


# === OW4 resolution ====================================================================================


def test_ow4_example_3_a_raze_fails_and_the_simple_battle_is_won():
    """m-1 on Red's village [2, 0] with no Red unit: Raze. red-1 moves in from [1, 0]
    first (the horde's orders resolve after the kingdoms'): the raze fails. The simple
    battle (Defence 4 each): Red's die 5 hits, the marauders' 2 misses: m-1 is destroyed,
    Red's plunder is 1, and no might (a simple battle)."""
    tiles = [*HOMES, tile((1, 0), "red"), tile((2, 0), "red", "village")]
    data = with_horde(
        tiles=tiles,
        armies=[army("red-1", (1, 0))],
        marauders=[horde("m-1", (2, 0), order={"order": "raze"})],
        options={"battles": "simple"},
        inputs=orders(red=[move("red-1", (2, 0))]),
        dice=[5, 2, 1],  # the battle's, then month 2's arrival die
    )

    after = adjudicate(data)

    assert happened(after, "raze-failed") == [
        {"type": "raze-failed", "unit": "m-1", "hex": [2, 0], "enemies": ["red-1"]}
    ]
    (fought,) = battles(after, (2, 0))
    assert (fought["kind"], fought["attacker"], fought["defender"]) == (
        "simple",
        "red",
        "marauders",
    )
    assert fought["winner"] == "red"
    assert fought["dice"] == [5, 2]  # the kingdom's die first
    assert "m-1" not in the_horde(after)
    assert kingdom(after, "red")["plunder"] == 1
    assert kingdom(after, "red")["pitched_wins"] == 0
    assert tile_at(after, (2, 0)) == tile((2, 0), "red", "village")


def test_ow4_an_unguarded_raze_razes_and_a_capital_razed_is_lost():
    """m-1 on Blue's capital with no Blue unit there: the capital is razed and lost."""
    data = with_horde(
        armies=[army("red-1", (0, 0)), army("blue-1", (-2, 3))],
        marauders=[horde("m-1", (-3, 3), order={"order": "raze"})],
        inputs=orders(red=[order("red-1", "defend")], blue=[order("blue-1", "defend")]),
    )

    after = adjudicate(data)

    assert tile_at(after, (-3, 3)) == tile((-3, 3), "blue", None)
    assert kingdom(after, "blue")["capital"] is None
    assert happened(after, "capital-lost")[0]["how"] == "razed"


def test_ow1_ow4_a_kingdom_moving_into_the_horde_neither_takes_nor_explores():
    """red-1 moves into Blue's [1, 0], where m-1 stands, and red-2 into unexplored [0, 1],
    where m-2 stands: as they enter, the tile stays Blue's and [0, 1] is not explored (no
    dice). Then the horde moves (both toward Red's capital, one step away) and leaves them
    alone: at reform red-1 takes [1, 0] and red-2 claims [0, 1] with no settlement and no
    dice (R2, part B's settled points)."""
    data = with_horde(
        tiles=[*HOMES, tile((1, 0), "blue")],
        marauders=[horde("m-1", (1, 0)), horde("m-2", (0, 1))],
        inputs=orders(
            red=[move("red-1", (1, 0)), move("red-2", (0, 1))], blue=[order("blue-1", "defend")]
        ),
        dice=[1],  # month 2's arrival die
    )

    after = adjudicate(data)

    assert events(after, "explored") == []
    taken = [(e["step"], e["hex"], e["from"]) for e in events(after, "tile-taken")]
    assert taken == [("reform", [0, 1], None), ("reform", [1, 0], "blue")]
    assert tile_at(after, (0, 1)) == tile((0, 1), "red")
    assert [m["hex"] for m in after["marauder_armies"]] == [[0, 0], [0, 0]]


# === OW5 battles ========================================================================================


def test_ow5_example_4_outnumbered_the_horde_scatters():
    """red-1 and red-2 meet m-1 at [2, 0]: the marauders have fewer armies, so they
    scatter: a concession, no game; m-1 destroyed, Red's plunder 1, no might."""
    tiles = [*HOMES, tile((1, 0), "red"), tile((2, 0), "red", "village")]
    data = with_horde(
        tiles=tiles,
        armies=[army("red-1", (1, 0)), army("red-2", (1, 0)), army("blue-1", (-3, 3))],
        marauders=[horde("m-1", (2, 0), order={"order": "raze"})],
        inputs=orders(
            red=[move("red-1", (2, 0)), move("red-2", (2, 0))], blue=[order("blue-1", "defend")]
        ),
        dice=[1],  # month 2's arrival die
    )

    after = adjudicate(data)

    (fought,) = battles(after, (2, 0))
    assert fought["kind"] == "concession"
    assert fought["winner"] == "red"
    assert pending(after, "battle_result") == []
    assert after["marauder_armies"] == []
    assert kingdom(after, "red")["plunder"] == 1
    assert kingdom(after, "red")["pitched_wins"] == 0


def pitched_at(general: str = "admin", options: Json | None = None, **extra: Any) -> Json:
    """m-1 is to raze Red's village [1, 0]; red-1 moves in first: the raze fails, and a
    pitched battle is handed to the tabletop, one army a side (Blue has none)."""
    return with_horde(
        tiles=[*HOMES, tile((1, 0), "red", "village")],
        armies=[army("red-1", (0, 0))],
        marauders=[horde("m-1", (1, 0), order={"order": "raze"})],
        options={"marauder_general": general, **(options or {})},
        inputs=orders(red=[move("red-1", (1, 0))]),
        dice=[6, 6],  # the hand-off's
        **extra,
    )


def test_ow5_a_pitched_battle_waits_for_the_kingdom_and_the_general():
    """The battle is handed to the tabletop: the kingdom is its attacker and `"marauders"`
    its defender, with Defence 4 armies, 0 strategy cards; both sides are pending, the
    horde's with its general (Blue)."""
    after = adjudicate(pitched_at("blue"))

    (fought,) = battles(after, (1, 0))
    assert (fought["attacker"], fought["defender"]) == ("red", "marauders")
    assert fought["status"] == "awaiting_result"
    horde_side = next(s for s in fought["sides"] if s["kingdom"] == "marauders")
    assert horde_side["armies"] == ["m-1"]
    assert horde_side["strategy_cards"] == 0
    assert horde_side["points"] == 500
    assert pending(after) == [
        {"kind": "battle_result", "kingdom": "red", "hex": [1, 0]},
        {"kind": "battle_result", "kingdom": "marauders", "hex": [1, 0], "general": "blue"},
    ]


def test_ow5_a_general_whose_kingdom_fights_the_horde_gives_way_to_the_admin():
    """Red is the general and fights the horde itself: the admin reports for it."""
    after = adjudicate(pitched_at("red"))

    assert pending(after)[-1] == {
        "kind": "battle_result",
        "kingdom": "marauders",
        "hex": [1, 0],
        "general": "admin",
    }


def test_ow5_ow6_a_result_the_horde_won_sends_the_kingdom_back_and_changes_nothing():
    """The marauders win: red-1 retreats as a loss (on its side), the tile stays Red's, Red
    learns a strategy; nobody's might changes (OW8)."""
    after = adjudicate(pitched_at())
    after["dice"] = [1]  # month 2's arrival die
    after["inputs"] = {"battles": [{"hex": [1, 0], "result": "win", "winner": "marauders"}]}

    settled = adjudicate(after)

    assert battles(settled, (1, 0))[0]["winner"] == "marauders"
    assert tile_at(settled, (1, 0)) == tile((1, 0), "red", "village")
    assert upright(settled, "red-1") is False
    assert kingdom(settled, "red")["pitched_losses"] == 1
    assert "m-1" in the_horde(settled)


def test_ow5_ow7_a_tabletop_win_over_the_horde_is_might_and_plunder():
    """Red wins at the tabletop: m-1 destroyed, Red +1 pitched win (might) and plunder 1."""
    after = adjudicate(pitched_at())
    after["dice"] = [1]  # month 2's arrival die
    after["inputs"] = {"battles": [{"hex": [1, 0], "result": "win", "winner": "red"}]}

    settled = adjudicate(after)

    assert "m-1" not in the_horde(settled)
    assert kingdom(settled, "red")["pitched_wins"] == 1
    assert kingdom(settled, "red")["plunder"] == 1
    assert happened(settled, "plundered") == [
        {"type": "plundered", "kingdom": "red", "hex": [1, 0], "gold": 1}
    ]


@pytest.mark.parametrize("entry", [{"concede": "marauders"}, {"last_stand": "marauders"}])
def test_ow5_the_horde_never_concedes(entry):
    """A concession or Last Stand for the marauders is refused (B12), nothing changed."""
    after = adjudicate(pitched_at())
    after["dice"] = [1]  # month 2's arrival die
    after["inputs"] = {"battles": [{"hex": [1, 0], **entry}]}

    refused = refusal(after)

    assert refused.code == "choice-not-allowed"
    assert refused.field == "inputs.battles[0]"


def test_ow5_a_general_not_the_admin_nor_a_kingdom_is_refused():
    refused = refusal(pitched_at("green"))

    assert (refused.code, refused.field) == ("bad-marauder-general", "options.marauder_general")


def test_ow5_an_outnumbered_kingdom_must_concede_or_make_a_last_stand():
    """Two marauder armies hold Red's [3, 0]; red-1 moves in alone. Red controls [2, 0]
    beside it, so it may make no Last Stand: it must concede (B4), a loss; the horde takes
    nothing."""
    data = with_horde(
        tiles=[*HOMES, tile((2, 0), "red"), tile((3, 0), "red", "village")],
        armies=[army("red-1", (2, 0))],
        marauders=[
            horde("m-1", (3, 0), order={"order": "raze"}),
            horde("m-2", (3, 0), order={"order": "raze"}),
        ],
        inputs=orders(red=[move("red-1", (3, 0))]),
        dice=[1],  # month 2's arrival die
    )

    after = adjudicate(data)

    (fought,) = battles(after, (3, 0))
    assert fought["kind"] == "concession"
    assert fought["winner"] == "marauders"
    assert tile_at(after, (3, 0)) == tile((3, 0), "red", "village")
    assert [e["unit"] for e in happened(after, "retreated")] == ["red-1"]


def test_ow5_when_picking_ends_the_horde_slaughters_laid_down_units():
    """red-1 lies on its side at [1, 0] where m-1 holds (upright): nobody can pick there;
    when picking ends the horde slaughters it: red-1 (its only unit) is removed."""
    data = with_horde(
        clock=(1, "summer", 1, "battles"),
        tiles=[*HOMES, tile((1, 0), "red")],
        armies=[army("red-1", (1, 0), upright=False), army("blue-1", (-3, 3))],
        marauders=[horde("m-1", (1, 0), order={"order": "hold"})],
        dice=[1],  # month 2's arrival die
    )

    after = adjudicate(data)

    (fought,) = battles(after, (1, 0))
    assert (fought["kind"], fought["attacker"], fought["defender"]) == (
        "slaughter",
        "marauders",
        "red",
    )
    assert all(a["id"] != "red-1" for a in after["armies"])
    assert tile_at(after, (1, 0)) == tile((1, 0), "red")  # the horde takes nothing


# === OW6 results ========================================================================================


def test_ow6_a_draw_moves_the_horde_off_to_the_first_free_tile():
    """A draw at [1, 0] (Red's): red-1 stays (its tile); m-1 moves, upright, to the first
    tile one step away ([q, r] order) with no kingdom's unit: [0, 0], Red's capital, which
    red-1 left this month. No plunder: nobody won."""
    after = adjudicate(pitched_at())
    after["dice"] = [1]  # month 2's arrival die
    after["inputs"] = {"battles": [{"hex": [1, 0], "result": "draw"}]}

    settled = adjudicate(after)

    assert the_horde(settled)["m-1"]["hex"] == [0, 0]
    assert the_horde(settled)["m-1"]["upright"] is True
    assert kingdom(settled, "red")["plunder"] == 0
    assert happened(settled, "marauders-moved-off") == [
        {"type": "marauders-moved-off", "armies": ["m-1"], "from": [1, 0], "to": [0, 0]}
    ]


def test_ow6_a_draw_with_nowhere_to_go_destroys_the_horde_without_plunder():
    """On a strip of three tiles, [1, 0]'s only neighbour [0, 0] holds red-2: after a draw
    m-1 has no tile to go to and is destroyed; nobody won, so no plunder."""
    data = with_horde(
        map=make_map(hexes=[(-1, 0), (0, 0), (1, 0)]),
        capitals={"red": (0, 0), "blue": (-1, 0)},
        tiles=[
            tile((0, 0), "red", "city"),
            tile((1, 0), "red", "village"),
            tile((-1, 0), "blue", "city"),
        ],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-1, 0))],
        marauders=[horde("m-1", (1, 0), order={"order": "raze"})],
        inputs=orders(
            red=[move("red-1", (1, 0)), order("red-2", "defend")], blue=[order("blue-1", "defend")]
        ),
        dice=[6, 6],
    )
    after = adjudicate(data)
    after["dice"] = [1]  # month 2's arrival die
    after["inputs"] = {"battles": [{"hex": [1, 0], "result": "draw"}]}

    settled = adjudicate(after)

    assert the_horde(settled) == {}
    assert happened(settled, "destroyed")[-1]["units"] == ["m-1"]
    assert kingdom(settled, "red")["plunder"] == 0


def test_ow6_a_win_on_an_unexplored_tile_takes_it_unsettled():
    """At the battle step red-1 stands with m-1 on unexplored [0, 1] and wins the simple
    battle (Red 6, marauders 1): the tile becomes Red's with no settlement and no dice."""
    data = with_horde(
        clock=(1, "summer", 1, "battles"),
        armies=[army("red-1", (0, 1))],
        marauders=[horde("m-1", (0, 1), order={"order": "hold"})],
        options={"battles": "simple"},
        dice=[6, 1, 1],  # the battle's, then month 2's arrival die
    )

    after = adjudicate(data)

    assert tile_at(after, (0, 1)) == tile((0, 1), "red")
    assert events(after, "explored") == []


# === OW7 plunder =========================================================================================


def test_ow7_plunder_is_gathered_at_the_next_gather_then_spent():
    """Red's plunder 2 is added at the gather step, told as a gain, and reads 0 after."""
    data = with_horde(
        clock=(1, "winter", 0, "gather"), kingdom_fields={"red": {"plunder": 2}}, armies=[]
    )

    after = adjudicate(data)

    red = next(e for e in events(after, "gathered") if e["kingdom"] == "red")
    assert {"source": "plunder", "gold": 2, "food": 0} in red["gains"]
    assert red["gold"] == 4  # the capital's 2, and the plunder
    assert kingdom(after, "red")["plunder"] == 0


# === OW1 at reform and recall =================================================================================


def test_ow1_the_horde_obeys_r1_and_stands_up_at_the_recall():
    """m-1 moved from [1, 0] into forest [2, 0] this month: at reform it lies down (R1);
    a tile shared with it does not change hands (R2): red-1 in Blue's [3, 0] beside m-2
    takes nothing. At the winter recall the horde stands up and stays."""
    forest = make_map(5, terrain={(2, 0): "forest"})
    data = with_horde(
        map=forest,
        clock=(1, "summer", 6, "reform"),
        tiles=[*HOMES, tile((3, 0), "blue")],
        armies=[army("red-1", (3, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))],
        marauders=[
            horde("m-1", (2, 0), order={"order": "move", "to": [2, 0]}, moved=[[1, 0], [2, 0]]),
            horde("m-2", (3, 0), order={"order": "hold"}),
        ],
    )

    after = adjudicate(data)

    assert [e["unit"] for e in events(after, "slowed-by-terrain")] == ["m-1"]
    assert tile_at(after, (3, 0)) == tile((3, 0), "blue")
    assert after["clock"]["season"] == "winter"
    assert the_horde(after)["m-1"]["upright"] is True  # stood up at the recall
    assert the_horde(after)["m-1"]["order"] is None
    assert the_horde(after)["m-1"]["hex"] == [2, 0]


# === the file (OG1, part B's settled points) =================================================================


def test_og1_absent_fields_read_as_none_and_the_highest_id():
    """`marauder_armies` absent: none; `marauders_arrived` absent: the highest N in use;
    `plunder` absent: 0. The engine writes all three."""
    data = with_horde(marauders=[horde("m-3", (3, 0))])
    del data["marauder_armies"][0]["upright"]

    after = adjudicate(data)

    assert after["marauders_arrived"] == 3
    assert kingdom(after, "red")["plunder"] == 0
    assert the_horde(after)["m-3"]["upright"] is True


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        ({"marauders_arrived": 1}, "bad-marauders-arrived", "marauders_arrived"),
        ({"marauder_armies": [horde("m-02", (3, 0))]}, "bad-marauder-id", "marauder_armies[0].id"),
        ({"marauder_armies": [horde("x-1", (3, 0))]}, "bad-marauder-id", "marauder_armies[0].id"),
    ],
)
def test_og1_bad_marauder_fields_are_refused(change, code, field):
    data = with_horde(marauders=[horde("m-2", (3, 0))])
    data.update(change)

    refused = refusal(data)

    assert (refused.code, refused.field) == (code, field)


def test_og1_the_horde_is_refused_with_the_option_off_and_its_settings_required_with_it_on():
    off = position(marauder_armies=[])
    assert refusal(off).field == "marauder_armies"
    without_race = with_horde()
    del without_race["options"]["marauder_race"]
    assert refusal(without_race).code == "missing-field"


# === where options meet ==================================================================================


def test_meet_marauders_and_milestones_plunder_counts_toward_the_master_merchant():
    """Red's capital 2 gold and plunder 3: 5 gathered, the master merchant (OW12)."""
    data = with_horde(
        clock=(1, "winter", 0, "gather"),
        options={"milestones": True},
        kingdom_fields={"red": {"plunder": 3}},
        armies=[],
    )

    after = adjudicate(data)

    assert "master_merchant" in kingdom(after, "red")["milestones"]


def test_meet_marauders_and_common_deck_the_horde_draws_the_kingdoms_armies():
    """With `common_deck`, the horde's side draws one card per upright army of Red's side
    and learns none (OA13)."""
    after = adjudicate(pitched_at(options={"common_deck": True}))

    horde_side = next(s for s in battles(after)[0]["sides"] if s["kingdom"] == "marauders")
    assert horde_side["strategy_cards"] == 1


# === OW8 ==========================================================================================


def test_ow8_no_kingdom_orders_the_horde_and_it_adds_to_nobodys_might():
    """Red's order for m-1 is refused (the horde's orders are the engine's); a file with
    the horde scores as it would without it: might only through pitched wins."""
    data = with_horde(
        marauders=[horde("m-1", (3, 0))],
        inputs=orders(red=[order("m-1", "defend")]),
    )

    refused = refusal(data)

    assert (refused.code, refused.field) == ("not-your-unit", "inputs.orders.red[0].unit")
    without = position(map=PLAINS, capitals=CAPITALS, tiles=HOMES, armies=GARRISONS)
    assert (
        adjudicate(with_horde(marauders=[horde("m-1", (3, 0))]))["scores"]
        == adjudicate(without)["scores"]
    )


def test_og1_a_setting_of_the_horde_with_it_off_is_refused_and_a_race_must_be_known():
    off = position(options={"marauder_general": "admin"})
    assert refusal(off).code == "option-off"
    unknown = with_horde(options={"marauder_race": "Pirates"})
    assert (refusal(unknown).code, refusal(unknown).field) == (
        "unknown-value",
        "options.marauder_race",
    )


def test_meet_wizards_and_marauders_the_horde_never_steps_into_a_tower():
    """A Wizard's tower at [1, 0] between m-1 at [2, 0] and Red's capital: OG3's steps go
    round it (3 steps, by [1, 1] or by [2, -1]), so m-1 steps to [1, 1], the first in
    [q, r] order."""
    data = opening(
        options={"wizards": True},
        towers=[[1, 0]],
        marauders=[horde("m-1", (2, 0))],
        dice=[1],
    )

    after = adjudicate(data)

    assert order_of(after, "m-1") == {"order": "move", "to": [1, 1]}


def test_meet_marauders_and_roads_the_horde_on_a_road_breaks_no_trade():
    """m-1 stands on Red's [1, 0], on the road from the capital to Red's city [2, 0]: the
    city still trades its gold (the horde controls nothing)."""
    data = with_horde(
        clock=(1, "winter", 0, "gather"),
        options={"roads": True},
        tiles=[*HOMES, tile((1, 0), "red"), tile((2, 0), "red", "city")],
        roads=[[[0, 0], [1, 0]], [[1, 0], [2, 0]]],
        armies=[],
        marauders=[horde("m-1", (1, 0))],
    )

    after = adjudicate(data)

    red = next(e for e in events(after, "gathered") if e["kingdom"] == "red")
    assert {"source": "trade", "gold": 1, "food": 0, "tiles": [[2, 0]]} in red["gains"]


def test_meet_marauders_and_sieges_a_kingdom_defending_its_fortress_gets_a_siege_card():
    """red-1 Defends its fortress [1, 0]; m-1 moves in (toward the fortress, its target):
    the pitched battle's card is a siege with stone works for Red."""
    data = with_horde(
        options={"sieges": True},
        tiles=[*HOMES, tile((1, 0), "red", "fortress"), tile((2, 0), "red")],
        armies=[army("red-1", (1, 0))],
        marauders=[horde("m-1", (2, 0), order={"order": "move", "to": [1, 0]})],
        inputs=orders(red=[order("red-1", "defend")]),
        dice=[6, 6],
    )

    after = adjudicate(data)

    (fought,) = battles(after, (1, 0))
    assert fought["siege"] == {"side": "red", "works": "stone"}


# === more of part B's settled points ==================================================================


def test_ow2_the_next_summer_opens_after_the_winters_deploy():
    """Part B's settled points: the winter's deploy enters month 1 of the next year, which
    opens: its arrival die is rolled (here a 4: no band) and the run stops at its orders."""
    data = with_horde(
        clock=(1, "winter", 0, "deploy"),
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))],
        inputs={"deploy": {"red": [], "blue": []}},
        dice=[4],
    )

    after = adjudicate(data)

    assert after["clock"] == {"year": 2, "season": "summer", "month": 1, "step": "orders"}
    (rolled,) = events(after, "no-marauders")
    assert (rolled["year"], rolled["month"], rolled["step"], rolled["dice"]) == (
        2,
        1,
        "orders",
        [4],
    )


def test_orders_of_things_marauder_ids_go_by_their_number():
    """Part B's settled points: m-2 comes before m-10, in the file and in the orders."""
    data = opening(
        marauders=[horde("m-10", (4, 0)), horde("m-2", (-4, 0))], marauders_arrived=10, dice=[1]
    )

    after = adjudicate(data)

    assert [m["id"] for m in after["marauder_armies"]] == ["m-2", "m-10"]
    (ordered,) = events(after, "marauder-orders")
    assert list(ordered["orders"]) == ["m-2", "m-10"]


def test_ow5_a_kingdoms_ships_alone_against_the_horde_fight_a_land_water_battle():
    """Red's ship (its only unit there) shares the coast tile [1, 0] with m-1 at the battle
    step: a land/water battle (B9), Red's die first (5), the horde's (2): Red wins, m-1 is
    destroyed and Red plunders 1."""
    coast = make_map(5, terrain={(2, 0): "ocean"}, coast=[(1, 0)])
    data = with_horde(
        map=coast,
        clock=(1, "summer", 1, "battles"),
        tiles=[*HOMES, tile((1, 0), "red")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))],
        ships=[ship("red-s1", (1, 0))],
        marauders=[horde("m-1", (1, 0), order={"order": "hold"})],
        dice=[5, 2, 1],
    )

    after = adjudicate(data)

    (fought,) = battles(after, (1, 0))
    assert (fought["kind"], fought["winner"], fought["dice"]) == ("land_water", "red", [5, 2])
    assert the_horde(after) == {}
    assert kingdom(after, "red")["plunder"] == 1


def test_ow5_an_outnumbered_kingdom_with_no_tile_beside_may_make_a_last_stand():
    """Two marauder armies hold unexplored [0, 2]... red-1 alone stands there with them at
    the battle step, Red holding no tile beside it: it is asked for a Last Stand (B4)."""
    data = with_horde(
        clock=(1, "summer", 1, "battles"),
        armies=[army("red-1", (0, 3))],
        marauders=[
            horde("m-1", (0, 3), order={"order": "hold"}),
            horde("m-2", (0, 3), order={"order": "hold"}),
        ],
    )

    after = adjudicate(data)

    assert pending(after) == [{"kind": "last_stand", "kingdom": "red", "hex": [0, 3]}]
    after["inputs"] = {"battles": [{"hex": [0, 3], "last_stand": "red"}]}
    after["dice"] = [6, 6]
    stood = adjudicate(after)
    (fought,) = battles(stood, (0, 3))
    assert (fought["kind"], fought["last_stand"], fought["status"]) == (
        "pitched",
        "red",
        "awaiting_result",
    )


def test_ow5_the_admin_may_settle_a_battle_against_the_horde_as_a_simple_battle():
    """The admin's switch to a simple battle (B6): Defence 4 on both sides, Red's die (4)
    hits, the horde's (1) misses: Red wins, no might (not at the tabletop), plunder 1."""
    after = adjudicate(pitched_at())
    after["inputs"] = {"battles": [{"hex": [1, 0], "resolve": "simple"}]}
    after["dice"] = [4, 1, 1]

    settled = adjudicate(after)

    (fought,) = battles(settled, (1, 0))
    assert (fought["kind"], fought["winner"]) == ("simple", "red")
    assert kingdom(settled, "red")["pitched_wins"] == 0
    assert kingdom(settled, "red")["plunder"] == 1


def test_ow1_m7_a_kingdom_deploys_onto_its_settlement_where_the_horde_stands():
    """Part B's settled points: the horde controls nothing and bars no deployment: red-1
    deploys onto Red's capital, where m-1 stands."""
    data = with_horde(
        clock=(1, "winter", 0, "deploy"),
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))],
        marauders=[horde("m-1", (0, 0))],
        inputs={"deploy": {"red": [{"army": "red-1", "hex": [0, 0]}], "blue": []}},
        dice=[4],  # month 1's arrival die: Red has more armies, so no roll-off
    )

    after = adjudicate(data)

    assert next(a for a in after["armies"] if a["id"] == "red-1")["hex"] == [0, 0]
    assert order_of(after, "m-1") == {"order": "hold"}  # OW3: a kingdom's unit in its tile


def test_meet_wizards_and_marauders_artefacts_the_horde_wins_return_to_the_pool():
    """red-1 carries the Blade of Slashing; the marauders win the simple battle (Red 1,
    horde 6): the artefact on the army they hit goes back to the pool, none to the horde."""
    data = with_horde(
        clock=(1, "summer", 1, "battles"),
        options={"wizards": True, "battles": "simple"},
        tiles=[*HOMES, tile((1, 0), "red")],
        armies=[army("red-1", (1, 0)), army("blue-1", (-3, 3))],
        marauders=[horde("m-1", (1, 0), order={"order": "hold"})],
        artefacts=[
            {
                "name": "Blade of Slashing",
                "points": 5,
                "holder": {"kingdom": "red", "army": "red-1"},
            }
        ],
        dice=[1, 6, 1, 2, 1],  # the battle's, the new player order's roll-off, the arrival's
    )

    after = adjudicate(data)

    assert battles(after, (1, 0))[0]["winner"] == "marauders"
    (blade,) = [a for a in after["artefacts"] if a["name"] == "Blade of Slashing"]
    assert blade["holder"] is None
    assert happened(after, "artefact-taken")[0]["to"] is None


def test_meet_marauders_and_yearly_event_the_horde_on_a_link_causes_no_revolt():
    """A revolt (die 2): Red's village [2, 0] is joined to its capital through [1, 0], where
    m-1 stands: the horde breaks no connection, so nothing rises."""
    data = with_horde(
        clock=(1, "winter", 0, "gather"),
        options={"yearly_event": True},
        tiles=[*HOMES, tile((1, 0), "red"), tile((2, 0), "red", "village")],
        armies=[],
        marauders=[horde("m-1", (1, 0))],
        dice=[2],
    )

    after = adjudicate(data)

    assert events(after, "revolted") == []
    assert tile_at(after, (2, 0)) == tile((2, 0), "red", "village")
