"""The rules casebook for the campaign options of part B (campaign-options.md) that the
engine plays so far: `roads` (OW9 to OW11), `milestones` (OW12 to OW14) and
`yearly_event` (OW15). Each test is
one case, named after its rule, with the document's worked examples among them; its
docstring states the position and what must happen. Positions are those of the summer and
winter casebooks, on a hexagon of plains around [0, 0], Red's capital [0, 0] and Blue's
[-3, 3] (`HOMES`): a reform step (the engine then waits for month 2's orders), a gather
step (it then waits for the tithes) or a deploy step (it then waits for next year's
orders)."""

from typing import Any

import pytest

from campaign.rules.errors import RuleError
from tests.rules.casebook import (
    Json,
    adjudicate,
    army,
    events,
    happened,
    hexagon,
    kingdom,
    make_map,
    move,
    order,
    position,
    refusal,
    tile,
    tile_at,
)
from tests.rules.test_casebook_setup import at_setup
from tests.rules.test_casebook_summer import orders, upright
from tests.rules.test_casebook_winter import HOMES, HUNGRY_BLUE, buy, purse, winter

YEARLY_EVENT = {"yearly_event": True}


def gather_with(die: int, *, tiles: list[Json], **extra: Any) -> Json:
    """The file at the gather step with `yearly_event` on and the year's die scripted."""
    return winter("gather", tiles=tiles, options=YEARLY_EVENT, dice=[die], **extra)


def the_year(data: Json) -> Json:
    (rolled,) = events(data, "yearly_event")
    return rolled


def test_ow15_example_1_a_hard_frost_takes_one_food_of_what_is_gathered():
    """Die 1, a hard frost: Red, with its capital and two villages, gathers 2 gold and 1
    food (2 less 1); Blue, with its capital alone, gathers 2 gold and no food (never below
    0). The die is an event of its own, public, with its die."""
    villages = [tile((1, 0), "red", "village"), tile((0, 1), "red", "village")]

    after = adjudicate(gather_with(1, tiles=[*HOMES, *villages]))

    assert the_year(after)["dice"] == [1]
    assert the_year(after)["event"] == "frost"
    assert purse(after, "red") == (2, 1)
    assert purse(after, "blue") == (2, 0)
    red, blue = happened(after, "gathered")
    assert red["gains"] == [{"source": "frost", "gold": 0, "food": -1}]
    assert blue["gains"] == [{"source": "frost", "gold": 0, "food": 0}]  # nothing to take


def test_ow15_example_2_a_revolt_razes_a_village_cut_off_from_the_capital():
    """Die 2, a revolt: Red's village [6, 0] was joined to its capital only through [5, 0],
    which is Blue's now: it rises and is razed before anything is gathered (the tile stays
    Red's). Red gathers its capital's 2 gold and no food."""
    road = [tile((q, 0), "red") for q in range(1, 5)]
    tiles = [*HOMES, *road, tile((5, 0), "blue"), tile((6, 0), "red", "village")]

    after = adjudicate(gather_with(2, tiles=tiles, map=make_map(7)))

    assert the_year(after)["event"] == "revolt"
    assert happened(after, "revolted") == [
        {"type": "revolted", "kingdom": "red", "hex": [6, 0], "settlement": "village"}
    ]
    razed = tile_at(after, (6, 0))
    assert razed is not None
    assert (razed["owner"], razed["settlement"]) == ("red", None)
    assert purse(after, "red") == (2, 0)


def test_ow15_example_3_a_trade_fair_adds_a_gold():
    """Die 6, a trade fair: Red's capital and city give 3 gold, and the fair 1 more: 4.
    Blue, with its capital alone, gathers 2 + 1."""
    after = adjudicate(gather_with(6, tiles=[*HOMES, tile((1, 0), "red", "city")]))

    assert the_year(after)["event"] == "fair"
    assert purse(after, "red") == (4, 0)
    assert purse(after, "blue") == (3, 0)


def test_ow15_a_good_harvest_adds_a_food_to_every_kingdom():
    """Die 5, a good harvest: every kingdom not eliminated gathers 1 food more, Blue with no
    village too."""
    after = adjudicate(gather_with(5, tiles=[*HOMES, tile((1, 0), "red", "village")]))

    assert the_year(after)["event"] == "harvest"
    assert purse(after, "red") == (2, 2)
    assert purse(after, "blue") == (2, 1)


@pytest.mark.parametrize("die", [3, 4])
def test_ow15_a_quiet_year_changes_nothing(die):
    """Die 3 or 4, a quiet year: every kingdom gathers what its settlements give, nothing
    more, and no gain is told."""
    after = adjudicate(gather_with(die, tiles=[*HOMES, tile((1, 0), "red", "village")]))

    assert the_year(after)["event"] == "quiet"
    assert purse(after, "red") == (2, 1)
    assert all("gains" not in told for told in happened(after, "gathered"))


def test_ow15_one_die_for_all_first_in_the_gather_step():
    """Part B's settled points, one die for all: one die a winter, before anything is
    gathered, whatever the number of kingdoms; the die is the only one the step takes (the
    scripted list holds one, and the run needs no other)."""
    after = adjudicate(gather_with(6, tiles=[*HOMES]))

    order = [e["type"] for e in after["events"]]
    assert order == ["yearly_event", "gathered", "gathered"]
    assert after["dice"] == []


def test_ow15_a_revolt_spares_what_is_joined_to_the_stand_in_of_a_kingdom_without_capital():
    """Red lost its capital ([0, 0] is a plain city of Red's now); its army was recalled to
    its city [1, 0], W1's stand-in. In a revolt the stand-in and what is joined to it stand
    (the city [0, 0], the village [2, 0]); the village [3, -3], joined to nothing of Red's,
    is razed."""
    tiles = [
        *HOMES,
        tile((1, 0), "red", "city"),
        tile((2, 0), "red", "village"),
        tile((3, -3), "red", "village"),
    ]
    data = gather_with(2, tiles=tiles, capitals={"blue": (-3, 3)}, armies=[army("red-1", (1, 0))])

    after = adjudicate(data)

    assert [e["hex"] for e in happened(after, "revolted")] == [[3, -3]]
    assert purse(after, "red") == (2, 1)  # the two cities' gold, the village's food


def test_ow15_a_kingdom_with_neither_capital_nor_stand_in_loses_every_settlement():
    """Red has no capital and no army recalled to a city or village: in a revolt every
    settlement of Red's rises, its old capital city [0, 0] included. Blue's capital
    stands."""
    tiles = [*HOMES, tile((1, 0), "red", "village")]
    data = gather_with(2, tiles=tiles, capitals={"blue": (-3, 3)})

    after = adjudicate(data)

    assert [e["hex"] for e in happened(after, "revolted")] == [[0, 0], [1, 0]]
    assert purse(after, "red") == (0, 0)
    assert purse(after, "blue") == (2, 0)


def test_ow15_with_the_option_off_the_gather_step_takes_no_die():
    """OG1: `yearly_event` absent (false): no die, no event, no gain."""
    data = winter("gather", tiles=[*HOMES], dice=[])

    after = adjudicate(data)

    assert events(after, "yearly_event") == []
    assert purse(after, "red") == (2, 0)


# --- milestones (OW12 to OW14) -------------------------------------------------------------------

MILESTONES = {"milestones": True}
# The board's hexes other than the two capitals, [q, r] order: tiles to hand out.
FREE = [h for h in hexagon(3) if h not in ((0, 0), (-3, 3))]


def held(data: Json, kingdom_id: str) -> list[str]:
    return list(kingdom(data, kingdom_id)["milestones"])


def reforming(
    *,
    tiles: list[Json],
    holding: dict[str, list[str]] | None = None,
    capitals: Any = None,
    **extra: Any,
) -> Json:
    """Month 1's reform step with `milestones` on: Red's two armies and Blue's one (no
    roll-off for the player order), each kingdom holding the milestones `holding` gives."""
    holding = holding or {}
    return position(
        clock=(1, "summer", 1, "reform"),
        capitals=capitals or {"red": (0, 0), "blue": (-3, 3)},
        tiles=[*HOMES, *tiles],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))],
        options=MILESTONES,
        kingdom_fields={k: {"milestones": ms} for k, ms in holding.items()},
        **extra,
    )


def owned(
    kingdom_id: str, hexes: list[tuple[int, int]], settlement: str | None = None
) -> list[Json]:
    return [tile(h, kingdom_id, settlement) for h in hexes]


def test_ow12_ow13_heavily_fortified_is_shared_by_every_kingdom_with_three_fortresses():
    """Red and Blue each control 3 fortresses at the end of the reform step: both hold
    `heavily_fortified` (shared); each gain is an event of the reform step."""
    tiles = owned("red", FREE[:3], "fortress") + owned("blue", FREE[3:6], "fortress")

    after = adjudicate(reforming(tiles=tiles))

    assert (held(after, "red"), held(after, "blue")) == (
        ["heavily_fortified"],
        ["heavily_fortified"],
    )
    assert [
        (e["kingdom"], e["milestone"], e["step"]) for e in events(after, "milestone-gained")
    ] == [
        ("red", "heavily_fortified", "reform"),
        ("blue", "heavily_fortified", "reform"),
    ]


def test_ow13_a_shared_milestone_is_held_exactly_while_it_is_met():
    """Red held `heavily_fortified` but controls 2 fortresses now: it loses it at the
    reform step's end."""
    tiles = owned("red", FREE[:2], "fortress")

    after = adjudicate(reforming(tiles=tiles, holding={"red": ["heavily_fortified"]}))

    assert held(after, "red") == []
    assert happened(after, "milestone-lost") == [
        {"type": "milestone-lost", "kingdom": "red", "milestone": "heavily_fortified"}
    ]


def test_ow12_empire_a_capital_and_a_city_on_another_kingdoms_first_capital():
    """Blue's first capital was [2, 0] (its capital is [-3, 3] now); Red, with its capital,
    controls the city there: Red holds `empire`. Blue holds none: it controls no city on
    Red's first capital."""
    data = reforming(tiles=owned("red", [(2, 0)], "city"))
    data["kingdoms"][1]["first_capital"] = [2, 0]

    after = adjudicate(data)

    assert (held(after, "red"), held(after, "blue")) == (["empire"], [])


def test_ow12_empire_needs_a_capital_of_its_own():
    """Red has lost its capital (its old capital [0, 0] is a plain city) but controls the
    city on Blue's first capital [2, 0]: no `empire` (W1's stand-in is no capital)."""
    data = reforming(tiles=owned("red", [(2, 0)], "city"), capitals={"blue": (-3, 3)})
    data["kingdoms"][1]["first_capital"] = [2, 0]

    after = adjudicate(data)

    assert held(after, "red") == []


@pytest.mark.parametrize(
    ("red", "blue", "holder", "then"),
    [
        (12, 12, None, None),  # tied: nobody
        (13, 12, None, "red"),  # red strictly the most
        (13, 13, "red", "red"),  # red keeps it: nobody has strictly more
        (13, 14, "red", "blue"),  # blue has strictly more
    ],
)
def test_ow13_example_1_largest_kingdom_goes_to_strictly_the_most(red, blue, holder, then):
    """Reform: Red 12 tiles, Blue 12 → nobody; next month Red 13 → Red; Blue 13 → Red
    keeps it; Blue 14 → Blue. Tiles counted with the capitals."""
    tiles = owned("red", FREE[: red - 1]) + owned("blue", FREE[red - 1 : red - 1 + blue - 1])
    holding = {holder: ["largest_kingdom"]} if holder else {}

    after = adjudicate(reforming(tiles=tiles, holding=holding))

    holders = [k for k in ("red", "blue") if "largest_kingdom" in held(after, k)]
    assert holders == ([then] if then else [])


@pytest.mark.parametrize(
    ("red", "blue", "holder", "then"),
    [
        (5, 6, None, "blue"),  # blue strictly the most
        (6, 6, "blue", "blue"),  # blue keeps it
        (5, 4, "blue", "red"),  # blue no longer meets it; red does, alone
    ],
)
def test_ow13_example_2_master_merchant_at_the_gather_step(red, blue, holder, then):
    """Gathers: Red 5 gold, Blue 6 → Blue; next winter both 6 → Blue keeps it; next Red 5,
    Blue 4 → Red. Gold from the capital (2) and a gold per other city."""
    tiles = owned("red", FREE[: red - 2], "city") + owned("blue", FREE[10 : 10 + blue - 2], "city")
    holding = {holder: ["master_merchant"]} if holder else {}
    data = winter(
        "gather",
        tiles=[*HOMES, *tiles],
        options=MILESTONES,
        kingdom_fields={k: {"milestones": ms} for k, ms in holding.items()},
    )

    after = adjudicate(data)

    assert (purse(after, "red")[0], purse(after, "blue")[0]) == (red, blue)
    holders = [k for k in ("red", "blue") if "master_merchant" in held(after, k)]
    assert holders == [then]
    assert all(e["step"] == "gather" for e in events(after, "milestone-gained"))


def test_ow13_warlord_is_three_pitched_wins_or_more():
    """Red has won 3 pitched battles at the tabletop, Blue 2: Red is the `warlord`."""
    data = reforming(tiles=[])
    data["kingdoms"][0]["pitched_wins"] = 3
    data["kingdoms"][1]["pitched_wins"] = 2

    after = adjudicate(data)

    assert (held(after, "red"), held(after, "blue")) == (["warlord"], [])


def test_ow13_the_milestones_are_checked_at_the_end_of_the_deploy_step():
    """Winter's deploy step: Red's army waits in its capital and goes there by default;
    Red controls 3 fortresses: it gains `heavily_fortified` as the step ends, before year 2
    begins."""
    data = winter(
        "deploy",
        tiles=[*HOMES, *owned("red", FREE[:3], "fortress")],
        armies=[army("red-1", (0, 0))],
        inputs={"deploy": {"red": []}},
        options=MILESTONES,
        dice=[],
    )

    after = adjudicate(data)

    assert held(after, "red") == ["heavily_fortified"]
    assert [e["step"] for e in events(after, "milestone-gained")] == ["deploy"]
    assert after["clock"]["season"] == "summer"


def test_ow13_master_merchant_is_not_checked_at_the_reform_step():
    """Blue holds `master_merchant` from the last winter; the reform step leaves it."""
    after = adjudicate(reforming(tiles=[], holding={"blue": ["master_merchant"]}))

    assert held(after, "blue") == ["master_merchant"]


def test_ow14_example_3_each_milestone_held_at_the_end_is_two_might():
    """The last deploy of year 6: Red holds `largest_kingdom` (12 tiles) and
    `heavily_fortified` (3 fortresses) as it ends: its final might is 4 more than without
    the option."""
    tiles = owned("red", FREE[:3], "fortress") + owned("red", FREE[3:11])
    base = winter(
        "deploy",
        year=6,
        tiles=[*HOMES, *tiles],
        armies=[army("red-1", (0, 0))],
        inputs={"deploy": {"red": []}},
        dice=[],
    )
    with_milestones = {**base, "options": {**base["options"], **MILESTONES}}

    without, after = adjudicate(base), adjudicate(with_milestones)

    assert after["clock"]["season"] == "ended"
    assert held(after, "red") == ["heavily_fortified", "largest_kingdom"]
    might = {s["kingdom"]: s["might"] for s in after["scores"]}
    before = {s["kingdom"]: s["might"] for s in without["scores"]}
    assert might["red"] == before["red"] + 4
    assert might["blue"] == before["blue"]


def test_ow12_the_first_capital_is_the_one_chosen_at_the_setup():
    """Setup's capitals step: Red founds its capital at [2, 0], Blue at [-2, 0]; each
    kingdom's `first_capital` is written, and stays when the capital is lost later."""
    data = at_setup(
        "capitals", inputs={"capitals": {"red": [2, 0], "blue": [-2, 0]}}, options=MILESTONES
    )

    after = adjudicate(data)

    assert kingdom(after, "red")["first_capital"] == [2, 0]
    assert kingdom(after, "blue")["first_capital"] == [-2, 0]


def test_og1_absent_milestone_fields_read_as_none_held_and_the_capital_in_the_file():
    """Part B's settled points: `milestones` absent is none held (from the next check on);
    `first_capital` absent is the kingdom's capital in that file, and is written."""
    after = adjudicate(reforming(tiles=[]))

    assert kingdom(after, "red")["first_capital"] == [0, 0]
    assert kingdom(after, "blue")["first_capital"] == [-3, 3]
    assert held(after, "red") == []


@pytest.mark.parametrize(
    ("given", "code"),
    [(["capital_city"], "unknown-milestone"), (["empire", "empire"], "milestone-twice")],
)
def test_ow12_a_milestone_that_is_none_or_listed_twice_is_refused(given, code):
    refused = refusal(reforming(tiles=[], holding={"red": given}))
    assert refused.code == code
    assert refused.field.startswith("kingdoms[0].milestones")


def test_ow12_a_sole_milestone_held_by_two_kingdoms_is_refused():
    refused = refusal(reforming(tiles=[], holding={"red": ["warlord"], "blue": ["warlord"]}))
    assert (refused.code, refused.field) == ("sole-milestone-shared", "kingdoms[1].milestones")


def test_og1_a_milestone_field_with_the_option_off_is_refused():
    data = reforming(tiles=[], holding={"red": ["warlord"]})
    data["options"].pop("milestones")
    refused = refusal(data)
    assert isinstance(refused, RuleError)
    assert (refused.code, refused.field) == ("option-off", "kingdoms[0].milestones")


def test_ow13_an_eliminated_kingdom_holding_a_milestone_is_refused():
    """Eliminated kingdoms hold none: a file where one does is refused, naming it."""
    data = reforming(tiles=[], holding={"blue": ["warlord"]})
    data["kingdoms"][1]["eliminated"] = 1
    data["player_order"] = ["red"]
    data["armies"] = [a for a in data["armies"] if a["kingdom"] == "red"]
    refused = refusal(data)
    assert (refused.code, refused.field) == ("eliminated-holds-milestone", "kingdoms[1].milestones")


# --- roads (OW9 to OW11) -------------------------------------------------------------------------

ROADS = {"roads": True}


def a_road(a: tuple[int, int], b: tuple[int, int]) -> Json:
    return {"build": "road", "hex": list(a), "to": list(b)}


def building_roads(*purchases: Json, tiles: list[Json], gold: int = 3, **extra: Any) -> Json:
    """Winter's build step with `roads` on: Red buys `purchases` with `gold`; Blue, short of
    food with its hungry army, makes the engine stop at the feed step, Red's purse read."""
    return winter(
        "build",
        tiles=[*HOMES, *tiles],
        armies=[HUNGRY_BLUE],
        inputs=buy(red=list(purchases)),
        options=ROADS,
        kingdom_fields={"red": {"gold": gold}},
        **extra,
    )


def test_ow9_a_road_between_two_tiles_of_the_kingdoms_costs_a_gold():
    """Red buys a road from its capital [0, 0] to its tile [1, 0]: 1 gold, and `roads` holds
    the pair, in [q, r] order whichever way it was bought."""
    data = building_roads(a_road((1, 0), (0, 0)), tiles=[tile((1, 0), "red")])

    after = adjudicate(data)

    assert after["roads"] == [[[0, 0], [1, 0]]]
    assert purse(after, "red")[0] == 2
    assert happened(after, "road-built") == [
        {"type": "road-built", "kingdom": "red", "hex": [1, 0], "to": [0, 0]}
    ]


@pytest.mark.parametrize(
    ("tiles", "roads", "gold", "reason"),
    [
        ([tile((1, 0), "blue")], [], 3, "does not control both"),  # a tile not Red's
        ([tile((1, 0), "red")], [[[0, 0], [1, 0]]], 3, "already"),  # a road there
        ([tile((1, 0), "red")], [], 0, "gold"),  # too little gold
    ],
)
def test_ow9_a_road_not_possible_at_its_moment_is_skipped_with_its_reason(
    tiles, roads, gold, reason
):
    """Part B's settled points: a road whose tile is not the kingdom's, that is built
    already, or that Red cannot pay is skipped as W5 skips a purchase, and costs nothing."""
    data = building_roads(a_road((0, 0), (1, 0)), tiles=tiles, gold=gold, roads=roads)

    after = adjudicate(data)

    (skipped,) = happened(after, "purchase-skipped")
    assert skipped["purchase"] == {"kind": "road", "hex": [0, 0], "to": [1, 0]}
    assert reason in skipped["reason"]
    assert purse(after, "red")[0] == gold
    assert after["roads"] == roads


@pytest.mark.parametrize(
    ("to", "board"),
    [
        ((2, 0), make_map(3)),  # not adjacent
        ((1, 0), make_map(3, terrain={(1, 0): "marsh"})),  # no army enters marsh
        ((1, 0), make_map(3, water_edges=[((0, 0), (1, 0))])),  # across a water edge
    ],
)
def test_ow9_a_road_that_can_never_be_is_refused_naming_the_purchase(to, board):
    """Part B's settled points: a road purchase whose tiles are not two adjacent map tiles
    armies may enter, or that crosses a water edge, refuses the file, naming it."""
    data = building_roads(a_road((0, 0), to), tiles=[tile((1, 0), "red")], map=board)

    refused = refusal(data)

    assert (refused.code, refused.field) == ("bad-road", "inputs.purchases.red[0]")


@pytest.mark.parametrize(
    ("roads", "code", "field"),
    [
        ([[[0, 0], [2, 0]]], "bad-road", "roads[0]"),  # not adjacent
        ([[[0, 0], [1, 0]], [[1, 0], [0, 0]]], "road-twice", "roads[1]"),  # either way round
    ],
)
def test_ow9_a_road_of_the_file_that_cannot_be_is_refused(roads, code, field):
    refused = refusal(building_roads(tiles=[], roads=roads))
    assert (refused.code, refused.field) == (code, field)


def test_ow9_input_roads_in_any_order_are_written_each_pair_and_the_list_in_qr_order():
    data = building_roads(tiles=[], roads=[[[1, 0], [0, 0]], [[-1, 0], [0, 0]]])
    assert adjudicate(data)["roads"] == [[[-1, 0], [0, 0]], [[0, 0], [1, 0]]]


def test_ow10_example_1_trade_from_the_road_linked_city_and_villages():
    """Capital [0, 0]; roads [0, 0]-[1, 0], [1, 0]-[2, 0], [1, 0]-[1, -1]; city [2, 0],
    village [1, -1], village [3, -1] with no road: trade 1 + (1 // 2) = 1 gold, told as a
    gain of the gathering."""
    tiles = [
        tile((1, 0), "red"),
        tile((2, 0), "red", "city"),
        tile((1, -1), "red", "village"),
        tile((3, -1), "red", "village"),
    ]
    roads = [[[0, 0], [1, 0]], [[1, 0], [2, 0]], [[1, -1], [1, 0]]]
    data = winter("gather", tiles=[*HOMES, *tiles], options=ROADS, roads=roads)

    after = adjudicate(data)

    red = happened(after, "gathered")[0]  # with the city and the village that brought it
    assert red["gains"] == [{"source": "trade", "gold": 1, "food": 0, "tiles": [[1, -1], [2, 0]]}]
    assert purse(after, "red") == (2 + 1 + 1, 2)  # capital 2, city 1, trade 1; 2 villages


def test_ow10_example_2_a_road_tile_lost_breaks_the_link_and_the_roads_stay():
    """Blue takes [1, 0]: Red's road link to [2, 0] and [1, -1] is broken, trade 0; the
    roads stay."""
    tiles = [
        tile((1, 0), "blue"),
        tile((2, 0), "red", "city"),
        tile((1, -1), "red", "village"),
    ]
    roads = [[[0, 0], [1, 0]], [[1, 0], [2, 0]], [[1, -1], [1, 0]]]
    data = winter("gather", tiles=[*HOMES, *tiles], options=ROADS, roads=roads)

    after = adjudicate(data)

    assert "gains" not in happened(after, "gathered")[0]
    assert after["roads"] == sorted(roads)  # every road stays, in [q, r] order


def test_ow10_a_kingdom_without_a_capital_trades_nothing_and_fortresses_bring_none():
    """Decided: fortresses bring no trade; and without a capital, nothing is road-linked."""
    tiles = [tile((1, 0), "red", "fortress"), tile((2, 0), "red", "city")]
    roads = [[[0, 0], [1, 0]], [[1, 0], [2, 0]]]
    with_capital = winter("gather", tiles=[*HOMES, *tiles], options=ROADS, roads=roads)
    without = winter(
        "gather", tiles=[*HOMES, *tiles], options=ROADS, roads=roads, capitals={"blue": (-3, 3)}
    )

    assert happened(adjudicate(with_capital), "gathered")[0]["gains"] == [
        {"source": "trade", "gold": 1, "food": 0, "tiles": [[2, 0]]}  # the city alone
    ]
    assert "gains" not in happened(adjudicate(without), "gathered")[0]


@pytest.mark.parametrize(("roads", "stands"), [([[[0, 0], [1, 0]]], True), ([], False)])
def test_ow11_example_3_a_march_along_a_road_spares_the_terrain(roads, stands):
    """red-1 moves from [0, 0] (plains) to [1, 0] (forest): along a road it stays upright;
    without the road it lies down (R1)."""
    data = position(
        map=make_map(3, terrain={(1, 0): "forest"}),
        tiles=[tile((0, 0), "red"), tile((1, 0), "red"), tile((-2, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (-2, 0))],
        inputs=orders(red=[move("red-1", (1, 0))], blue=[order("blue-1", "defend")]),
        options=ROADS,
        roads=roads,
    )

    after = adjudicate(data)

    assert upright(after, "red-1") is stands


def test_og1_roads_with_the_option_off_are_refused():
    data = building_roads(tiles=[], roads=[[[0, 0], [1, 0]]])
    data["options"].pop("roads")
    assert (refusal(data).code, refusal(data).field) == ("option-off", "roads")
