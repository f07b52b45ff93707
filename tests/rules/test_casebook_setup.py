"""The rules casebook, part 1: Setup (the rulebook's Initial Kingdom, steps A to E), with
rulings S1 to S4, M8 (start tiles) and D2 (the roll-off for the first player order).

Each case is a campaign file standing at a setup step, the decisions in `inputs`, the dice
it rolls scripted in `dice`, and what the engine's answer must show. Most cases use
`SETUP_MAP`: a hexagon of radius 4, all plains, with the start tiles (outlined with a dashed line on the map) at
[-2, 0] and [2, 0]."""

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
    tile,
    tile_at,
    unit,
)

WEST, EAST = (-2, 0), (2, 0)
SETUP_MAP = make_map(4, start=[WEST, EAST])
# The six neighbours of the start tiles, in [q, r] order.
AROUND_WEST = [(-3, 0), (-3, 1), (-2, -1), (-2, 1), (-1, -1), (-1, 0)]
AROUND_EAST = [(1, 0), (1, 1), (2, -1), (2, 1), (3, -1), (3, 0)]

WEST_PLAN = {"city": [-3, 0], "fortress": [-1, 0], "villages": [[-2, -1], [-2, 1]]}
EAST_PLAN = {"city": [1, 0], "fortress": [3, -1], "villages": [[2, -1], [2, 1]]}


def at_setup(
    step: str,
    *,
    kingdoms: tuple[str, ...] = ("red", "blue"),
    player_order: tuple[str, ...] | None = None,
    map: Json | None = None,
    **extra: Any,
) -> Json:
    """A campaign at a setup step. Before the races step is done no kingdom has a race and
    there is no player order yet."""
    raced = step != "races"
    return position(
        map=map if map is not None else SETUP_MAP,
        kingdoms=kingdoms,
        player_order=player_order if player_order is not None else (kingdoms if raced else ()),
        clock=(1, "setup", 0, step),
        kingdom_fields={} if raced else {k: {"race": None} for k in kingdoms},
        **extra,
    )


def founded(**capitals: tuple[int, int]) -> dict[str, Any]:
    """The capitals of step C, as `position` takes them, with their city tiles."""
    return {
        "capitals": capitals,
        "tiles": [tile(hex_, k, "city") for k, hex_ in capitals.items()],
    }


def settled(kingdom_id: str, capital: tuple[int, int], plan: Json) -> list[Json]:
    """The tiles of a kingdom after step D: its capital and the six tiles around it."""
    placed = {tuple(plan["city"]): "city", tuple(plan["fortress"]): "fortress"}
    placed.update({tuple(v): "village" for v in plan["villages"]})
    around = AROUND_WEST if capital == WEST else AROUND_EAST
    return [tile(capital, kingdom_id, "city")] + [
        tile(h, kingdom_id, placed.get(h)) for h in around
    ]


def owned(data: Json, kingdom_id: str) -> dict[tuple[int, int], str | None]:
    return {tuple(t["hex"]): t["settlement"] for t in data["tiles"] if t["owner"] == kingdom_id}


# --- A, ruling S1: races ------------------------------------------------------------------


def test_s1_a_races_stay_hidden_until_every_kingdom_has_chosen():
    """Red has chosen Elves; Blue has not chosen yet. The engine waits for Blue's race only,
    and reveals nobody's race: every kingdom's race is still null, the clock stays at the
    races step, and no die is rolled for the player order yet."""
    after = adjudicate(at_setup("races", inputs={"races": {"red": "Elves"}}, dice=[]))

    assert pending(after) == [{"kind": "race", "kingdom": "blue"}]
    assert [k["race"] for k in after["kingdoms"]] == [None, None]
    assert after["clock"]["step"] == "races"
    assert events(after, "races-revealed") == []
    assert after["dice_rolled"] == 0


def test_s1_a_races_are_revealed_together_when_all_have_chosen():
    """Red chooses Elves and Blue chooses Dwarfs. Both races are revealed at once, in one
    event, and the campaign moves on to choosing capitals."""
    data = at_setup("races", inputs={"races": {"red": "Elves", "blue": "Dwarfs"}}, dice=[6, 1])

    after = adjudicate(data)

    assert kingdom(after, "red")["race"] == "Elves"
    assert kingdom(after, "blue")["race"] == "Dwarfs"
    assert [e["races"] for e in events(after, "races-revealed")] == [
        {"red": "Elves", "blue": "Dwarfs"}
    ]
    assert after["clock"] == {"year": 1, "season": "setup", "month": 0, "step": "capitals"}
    assert "races" not in after["inputs"]


# --- B, rulings S2 and D2: the first player order ------------------------------------------


def test_s2_b_the_first_player_order_is_a_roll_off_in_the_order_kingdoms_joined():
    """Red, Blue and Green joined in that order and roll 2, 6 and 4. Blue goes first, then
    Green, then Red. The roll-off event holds the three dice in the joining order."""
    data = at_setup(
        "races",
        kingdoms=("red", "blue", "green"),
        inputs={"races": {"red": "Elves", "blue": "Dwarfs", "green": "Orcs"}},
        dice=[2, 6, 4],
    )

    after = adjudicate(data)

    assert after["player_order"] == ["blue", "green", "red"]
    (roll_off,) = events(after, "roll-off")
    assert roll_off["kingdoms"] == ["red", "blue", "green"]
    assert roll_off["dice"] == [2, 6, 4]
    assert roll_off["why"] == "player order"
    assert events(after, "player-order")[0]["order"] == ["blue", "green", "red"]
    assert after["dice"] == []
    assert after["dice_rolled"] == 3


def test_d2_at_setup_the_roll_off_follows_the_joining_order_not_the_files_player_order():
    """The file lists the kingdoms Red then Blue, but a stale player order Blue, Red. At
    setup the dice are taken in the order the kingdoms joined: Red rolls the 6, Blue the 1,
    so Red goes first."""
    data = at_setup(
        "races",
        player_order=("blue", "red"),
        inputs={"races": {"red": "Elves", "blue": "Dwarfs"}},
        dice=[6, 1],
    )

    after = adjudicate(data)

    assert events(after, "roll-off")[0]["kingdoms"] == ["red", "blue"]
    assert after["player_order"] == ["red", "blue"]


def test_d2_tied_kingdoms_roll_again_among_themselves():
    """Red, Blue and Green roll 5, 3 and 5. Red and Green are tied for first: they roll
    again, Red first (the joining order), 1 and 4. Green goes first, then Red, then Blue.
    Blue does not roll again."""
    data = at_setup(
        "races",
        kingdoms=("red", "blue", "green"),
        inputs={"races": {"red": "Elves", "blue": "Dwarfs", "green": "Orcs"}},
        dice=[5, 3, 5, 1, 4],
    )

    after = adjudicate(data)

    assert after["player_order"] == ["green", "red", "blue"]
    assert [(e["kingdoms"], e["dice"]) for e in events(after, "roll-off")] == [
        (["red", "blue", "green"], [5, 3, 5]),
        (["red", "green"], [1, 4]),
    ]
    assert after["dice"] == []


def test_d2_a_tie_is_rolled_again_until_it_is_broken():
    """Red and Blue roll 4 and 4, then 3 and 3, then 2 and 6: Blue goes first. Every roll is
    its own event, with its dice."""
    data = at_setup(
        "races", inputs={"races": {"red": "Elves", "blue": "Dwarfs"}}, dice=[4, 4, 3, 3, 2, 6]
    )

    after = adjudicate(data)

    assert after["player_order"] == ["blue", "red"]
    assert [e["dice"] for e in events(after, "roll-off")] == [[4, 4], [3, 3], [2, 6]]
    assert after["dice_rolled"] == 6


def test_d2_two_separate_ties_each_roll_again_best_first():
    """Red, Blue, Green and Black roll 5, 2, 5, 2: two ties. Red and Green roll again first
    (they are tied for the better place): 6 and 3. Then Blue and Black: 1 and 4. The order is
    Red, Green, Black, Blue."""
    data = at_setup(
        "races",
        kingdoms=("red", "blue", "green", "black"),
        inputs={"races": {k: "Elves" for k in ("red", "blue", "green", "black")}},
        dice=[5, 2, 5, 2, 6, 3, 1, 4],
    )

    after = adjudicate(data)

    assert after["player_order"] == ["red", "green", "black", "blue"]
    assert [(e["kingdoms"], e["dice"]) for e in events(after, "roll-off")] == [
        (["red", "blue", "green", "black"], [5, 2, 5, 2]),
        (["red", "green"], [6, 3]),
        (["blue", "black"], [1, 4]),
    ]


# --- C, rulings S3 and M8: capitals --------------------------------------------------------


def test_s3_c_the_first_player_chooses_a_capital_first():
    """The player order is Blue, Red. Red has already named [2, 0]; Blue has named nothing.
    It is Blue's turn, so the engine waits for Blue alone, offering both free start tiles,
    and founds no capital yet, not even Red's."""
    data = at_setup("capitals", player_order=("blue", "red"), inputs={"capitals": {"red": [2, 0]}})

    after = adjudicate(data)

    assert pending(after) == [{"kind": "capital", "kingdom": "blue", "choices": [[-2, 0], [2, 0]]}]
    assert kingdom(after, "red")["capital"] is None
    assert after["tiles"] == []


def test_s3_m8_c_the_next_player_chooses_among_the_start_tiles_left():
    """Blue, first, founds its capital on [-2, 0]: a city it controls. Blue's choice is
    used, so it leaves `inputs`. Red is asked next and offered only [2, 0], the start tile
    left."""
    data = at_setup(
        "capitals", player_order=("blue", "red"), inputs={"capitals": {"blue": [-2, 0]}}
    )

    after = adjudicate(data)

    assert kingdom(after, "blue")["capital"] == [-2, 0]
    assert tile_at(after, WEST) == tile(WEST, "blue", "city")
    assert pending(after) == [{"kind": "capital", "kingdom": "red", "choices": [[2, 0]]}]
    assert [e["hex"] for e in events(after, "capital-founded")] == [[-2, 0]]
    assert after["inputs"] == {}


def test_s3_c_both_capitals_founded_then_settlements_are_asked_for():
    """Both kingdoms name their start tiles. Both capitals are founded as cities, and the
    campaign moves to step D."""
    data = at_setup("capitals", inputs={"capitals": {"red": [2, 0], "blue": [-2, 0]}})

    after = adjudicate(data)

    assert kingdom(after, "red")["capital"] == [2, 0]
    assert kingdom(after, "blue")["capital"] == [-2, 0]
    assert after["clock"]["step"] == "settlements"
    assert "capitals" not in after["inputs"]
    assert happened(after, "capital-founded") == [
        {"type": "capital-founded", "kingdom": "red", "hex": [2, 0]},
        {"type": "capital-founded", "kingdom": "blue", "hex": [-2, 0]},
    ]


def test_m8_a_capital_must_be_on_a_start_tile():
    """Red names [0, 0], which is no start tile: refused, naming Red's choice."""
    refused = refusal(at_setup("capitals", inputs={"capitals": {"red": [0, 0]}}))

    assert (refused.code, refused.field) == ("capital-not-start-tile", "inputs.capitals.red")


def test_m8_a_start_tile_holds_one_capital():
    """Red, first, founds its capital on [2, 0]; Blue names [2, 0] too: refused."""
    data = at_setup("capitals", inputs={"capitals": {"red": [2, 0], "blue": [2, 0]}})

    refused = refusal(data)

    assert (refused.code, refused.field) == ("capital-taken", "inputs.capitals.blue")


# --- D, rulings S3 and S4: the first settlements, every kingdom at once ----------------------


def test_s4_d_every_kingdom_is_asked_for_its_settlements_at_once():
    """Both kingdoms have capitals and no plan is in. Online every kingdom places its
    settlements at once (S4): both are asked together, each offered the six tiles around
    its own capital, in player order."""
    after = adjudicate(at_setup("settlements", **founded(red=EAST, blue=WEST)))

    assert pending(after) == [
        {"kind": "settlements", "kingdom": "red", "choices": [list(h) for h in AROUND_EAST]},
        {"kind": "settlements", "kingdom": "blue", "choices": [list(h) for h in AROUND_WEST]},
    ]


def test_s4_d_a_kingdom_whose_settlements_stand_is_not_asked_again():
    """Red's settlements stand around its capital (a file stopped half-way through step D);
    Blue has only its capital: Blue alone is asked for its settlements."""
    data = at_setup(
        "settlements",
        capitals={"red": EAST, "blue": WEST},
        tiles=[*settled("red", EAST, EAST_PLAN), tile(WEST, "blue", "city")],
    )

    after = adjudicate(data)

    assert [(p["kind"], p["kingdom"]) for p in pending(after)] == [("settlements", "blue")]


def test_s4_d_a_plan_stays_hidden_until_every_kingdom_has_given_its_own():
    """Red's plan is in, Blue's is not. Nothing is placed (Red's plan would show on the
    map): Red's plan is kept in the inputs and only Blue is asked."""
    data = at_setup(
        "settlements",
        inputs={"settlements": {"red": EAST_PLAN}},
        **founded(red=EAST, blue=WEST),
    )

    after = adjudicate(data)

    assert pending(after) == [
        {"kind": "settlements", "kingdom": "blue", "choices": [list(h) for h in AROUND_WEST]}
    ]
    assert owned(after, "red") == {EAST: "city"}
    assert after["inputs"] == {"settlements": {"red": EAST_PLAN}}


def test_s3_d_a_city_a_fortress_two_villages_and_the_rest_controlled():
    """Blue puts its city on [-3, 0], its fortress on [-1, 0] and villages on [-2, -1] and
    [-2, 1]. The other two tiles around its capital, [-3, 1] and [-1, -1], are controlled by
    Blue without a settlement. Red's plan follows, and the campaign moves to step E."""
    data = at_setup(
        "settlements",
        inputs={"settlements": {"red": EAST_PLAN, "blue": WEST_PLAN}},
        **founded(red=EAST, blue=WEST),
    )

    after = adjudicate(data)

    assert owned(after, "blue") == {
        WEST: "city",
        (-3, 0): "city",
        (-1, 0): "fortress",
        (-2, -1): "village",
        (-2, 1): "village",
        (-3, 1): None,
        (-1, -1): None,
    }
    assert len(owned(after, "red")) == 7
    assert [e["kingdom"] for e in events(after, "settlements-placed")] == ["blue", "red"]
    assert events(after, "settlements-placed")[0]["controlled"] == [[-3, 1], [-1, -1]]
    assert "settlements" not in after["inputs"]  # the plans are used up
    assert events(after, "settlements-placed")[0]["settlements"] == {
        "village": [[-2, -1], [-2, 1]],
        "city": [[-3, 0]],
        "fortress": [[-1, 0]],
    }
    assert after["clock"]["step"] == "armies"


def test_s3_m4_d_marsh_and_open_water_around_a_capital_are_not_controlled():
    """Red's capital [2, 0] has a marsh at [3, -1] and open water at [3, 0]. Its four
    settlements go on the other four tiles; the marsh and the sea stay nobody's."""
    hexmap = make_map(
        4,
        start=[WEST, EAST],
        terrain={(3, -1): "marsh", (3, 0): "ocean"},
        coast=[(2, 0), (2, 1)],
    )
    plan = {"city": [1, 0], "fortress": [1, 1], "villages": [[2, -1], [2, 1]]}
    data = at_setup(
        "settlements",
        map=hexmap,
        inputs={"settlements": {"red": plan, "blue": WEST_PLAN}},
        **founded(red=EAST, blue=WEST),
    )

    after = adjudicate(data)

    assert owned(after, "red") == {
        EAST: "city",
        (1, 0): "city",
        (1, 1): "fortress",
        (2, -1): "village",
        (2, 1): "village",
    }
    assert tile_at(after, (3, -1)) is None
    assert tile_at(after, (3, 0)) is None


def test_s3_d_a_neighbour_across_a_water_edge_is_still_beside_the_capital():
    """A bay separates Blue's capital [-2, 0] from [-1, 0] (a water edge). [-1, 0] is one of
    the six tiles around the capital and armies may enter it, so Blue may put its fortress
    there (its army reaches it around the bay; ruling M7 joins tiles across water)."""
    hexmap = make_map(4, start=[WEST, EAST], water_edges=[(WEST, (-1, 0))])
    data = at_setup(
        "settlements",
        map=hexmap,
        inputs={"settlements": {"red": EAST_PLAN, "blue": WEST_PLAN}},
        **founded(red=EAST, blue=WEST),
    )

    after = adjudicate(data)

    assert tile_at(after, (-1, 0)) == tile((-1, 0), "blue", "fortress")


def test_s3_d_a_settlement_goes_beside_the_capital():
    """Blue names [0, 0], two steps from its capital, for its city: refused, naming the
    field."""
    plan = {**WEST_PLAN, "city": [0, 0]}
    data = at_setup(
        "settlements",
        inputs={"settlements": {"blue": plan}},
        **founded(red=EAST, blue=WEST),
    )

    refused = refusal(data)

    assert (refused.code, refused.field) == (
        "settlement-not-beside-capital",
        "inputs.settlements.blue.city",
    )


# --- E, ruling S3: the starting armies ------------------------------------------------------


def after_step_d() -> dict[str, Any]:
    return {
        "capitals": {"red": EAST, "blue": WEST},
        "tiles": settled("red", EAST, EAST_PLAN) + settled("blue", WEST, WEST_PLAN),
    }


def test_s4_e_every_kingdom_is_asked_for_its_starting_army_at_once():
    """Step E online (S4): both kingdoms are asked at once, each offered the five
    settlements it controls (not its two empty tiles)."""
    after = adjudicate(at_setup("armies", **after_step_d()))

    assert pending(after) == [
        {
            "kind": "starting_army",
            "kingdom": "red",
            "choices": [[1, 0], [2, -1], [2, 0], [2, 1], [3, -1]],
        },
        {
            "kind": "starting_army",
            "kingdom": "blue",
            "choices": [[-3, 0], [-2, -1], [-2, 0], [-2, 1], [-1, 0]],
        },
    ]
    assert after["armies"] == []


def test_s3_e_each_kingdom_gets_one_army_on_a_settlement_then_summer_begins():
    """Blue puts its army in its fortress [-1, 0], Red in its village [2, 1]. Each kingdom
    has one army, upright, where it said; the first summer month begins with its orders
    (sealed orders: both kingdoms are asked)."""
    data = at_setup(
        "armies",
        inputs={"starting_armies": {"blue": [-1, 0], "red": [2, 1]}},
        **after_step_d(),
    )

    after = adjudicate(data)

    assert after["armies"] == [
        army("blue-1", (-1, 0), ally=None),
        army("red-1", (2, 1), ally=None),
    ]
    assert happened(after, "army-placed") == [
        {"type": "army-placed", "kingdom": "blue", "army": "blue-1", "hex": [-1, 0]},
        {"type": "army-placed", "kingdom": "red", "army": "red-1", "hex": [2, 1]},
    ]
    assert "starting_armies" not in after["inputs"]
    assert after["clock"] == {"year": 1, "season": "summer", "month": 1, "step": "orders"}
    assert pending(after) == [
        {"kind": "orders", "kingdom": "red", "units": ["red-1"]},
        {"kind": "orders", "kingdom": "blue", "units": ["blue-1"]},
    ]


def test_s4_e_an_army_stays_hidden_until_every_kingdom_has_placed_its_own():
    """Blue has placed its army; Red has not. No army is on the board yet (S4: revealed
    together), Blue's choice is kept in the inputs, and only Red is asked."""
    data = at_setup("armies", inputs={"starting_armies": {"blue": [-2, 0]}}, **after_step_d())

    after = adjudicate(data)

    assert after["armies"] == []
    assert after["inputs"] == {"starting_armies": {"blue": [-2, 0]}}
    assert [(p["kind"], p["kingdom"]) for p in pending(after)] == [("starting_army", "red")]


def test_s4_e_a_starting_army_off_a_settlement_is_refused_while_others_are_missing():
    """Blue names [-1, -1] (no settlement) while Red has not chosen: refused at once, so
    Blue hears of it now and not when Red's choice comes in."""
    data = at_setup("armies", inputs={"starting_armies": {"blue": [-1, -1]}}, **after_step_d())

    refused = refusal(data)

    assert refused.field == "inputs.starting_armies.blue"


def test_s3_e_the_starting_army_stands_on_a_settlement():
    """Blue names [-1, -1], a tile it controls with no settlement: refused."""
    data = at_setup("armies", inputs={"starting_armies": {"blue": [-1, -1]}}, **after_step_d())

    refused = refusal(data)

    assert (refused.code, refused.field) == (
        "starting-army-not-on-settlement",
        "inputs.starting_armies.blue",
    )


# --- stopping where a decision is missing, and the deadline defaults ------------------------


@pytest.mark.parametrize(
    ("given", "step", "waits_for"),
    [
        ({}, "races", {"kind": "race", "kingdom": "red"}),
        ({"races": {"red": "Elves", "blue": "Dwarfs"}}, "capitals", {"kind": "capital"}),
        (
            {"races": {"red": "Elves", "blue": "Dwarfs"}, "capitals": {"red": [2, 0]}},
            "capitals",
            {"kind": "capital", "kingdom": "blue"},
        ),
        (
            {
                "races": {"red": "Elves", "blue": "Dwarfs"},
                "capitals": {"red": [2, 0], "blue": [-2, 0]},
            },
            "settlements",
            {"kind": "settlements", "kingdom": "red"},
        ),
        (
            {
                "races": {"red": "Elves", "blue": "Dwarfs"},
                "capitals": {"red": [2, 0], "blue": [-2, 0]},
                "settlements": {"red": EAST_PLAN, "blue": WEST_PLAN},
            },
            "armies",
            {"kind": "starting_army", "kingdom": "red"},
        ),
        (
            {
                "races": {"red": "Elves", "blue": "Dwarfs"},
                "capitals": {"red": [2, 0], "blue": [-2, 0]},
                "settlements": {"red": EAST_PLAN, "blue": WEST_PLAN},
                "starting_armies": {"red": [2, 0], "blue": [-2, 0]},
            },
            "orders",
            {"kind": "orders", "kingdom": "red"},
        ),
    ],
    ids=["races", "first-capital", "second-capital", "settlements", "armies", "all-given"],
)
def test_setup_stops_exactly_where_a_decision_is_missing(given, step, waits_for):
    """From the races step, with the decisions of the steps before given, the engine runs
    through setup in one call and stops at the first step whose decision is missing, asking
    for it first. The dice 6, 1 make Red the first player."""
    after = adjudicate(at_setup("races", inputs=given, dice=[6, 1]))

    assert after["clock"]["step"] == step
    first = pending(after)[0]
    assert {key: first[key] for key in waits_for} == waits_for


def test_o3_defaults_run_setup_through_to_the_first_months_orders():
    """With --defaults from the races step and no decisions at all: races are Undeclared,
    the roll-off (Red 2, Blue 5) makes Blue first; Blue takes the first free start tile
    [-2, 0] and Red the other; each kingdom's settlements go on the first four tiles around
    its capital in [q, r] order (city, fortress, village, village), the other two
    controlled; each army starts in its capital. The engine stops at the orders of summer
    month 1, waiting for both kingdoms."""
    after = adjudicate(at_setup("races", dice=[2, 5]), defaults=True)

    assert [k["race"] for k in after["kingdoms"]] == ["Undeclared", "Undeclared"]
    assert after["player_order"] == ["blue", "red"]
    assert kingdom(after, "blue")["capital"] == [-2, 0]
    assert kingdom(after, "red")["capital"] == [2, 0]
    assert owned(after, "blue") == {
        WEST: "city",
        (-3, 0): "city",
        (-3, 1): "fortress",
        (-2, -1): "village",
        (-2, 1): "village",
        (-1, -1): None,
        (-1, 0): None,
    }
    assert unit(after, "blue-1")["hex"] == [-2, 0]  # type: ignore[index]
    assert unit(after, "red-1")["hex"] == [2, 0]  # type: ignore[index]
    assert after["clock"] == {"year": 1, "season": "summer", "month": 1, "step": "orders"}
    assert [(p["kind"], p["kingdom"]) for p in pending(after)] == [
        ("orders", "blue"),
        ("orders", "red"),
    ]
    assert after["dice"] == []


def test_d1_setup_with_the_seeded_source_is_the_same_every_time():
    """Without scripted dice the roll-off comes from the campaign's seed: the same file gives
    the same player order and dice twice; its dice are counted in `dice_rolled`."""
    data = at_setup("races", inputs={"races": {"red": "Elves", "blue": "Dwarfs"}})

    first, second = adjudicate(data), adjudicate(data)

    assert first["player_order"] == second["player_order"]
    assert events(first, "roll-off") == events(second, "roll-off")
    rolled = sum(len(e["dice"]) for e in events(first, "roll-off"))
    assert first["dice_rolled"] == rolled >= 2


# --- the setup's refusals, in the words a player reads ------------------------------------


def _plan(**changed: Any) -> Json:
    return {**WEST_PLAN, **changed}


def _settling(plan: Json | None, map: Json | None = None) -> Json:
    """At step D, Blue's plan given (or none: the deadline's default)."""
    given = {"settlements": {"blue": plan}} if plan is not None else {}
    return at_setup("settlements", map=map, inputs=given, **founded(red=EAST, blue=WEST))


# A map whose west start tile has three enterable neighbours, the rest marsh.
HEMMED = make_map(4, start=[WEST, EAST], terrain={h: "marsh" for h in AROUND_WEST[3:]})


@pytest.mark.parametrize(
    ("data", "defaults", "code", "field", "message"),
    [
        (
            at_setup("capitals", inputs={"capitals": {"red": [0, 0]}}),
            False,
            "capital-not-start-tile",
            "inputs.capitals.red",
            "[0, 0] is not a start tile (a hex outlined with a dashed line).",
        ),
        (
            at_setup("capitals", inputs={"capitals": {"red": [2, 0], "blue": [2, 0]}}),
            False,
            "capital-taken",
            "inputs.capitals.blue",
            "[2, 0] is already another kingdom's capital.",
        ),
        (
            at_setup("capitals", kingdoms=("red", "blue", "green")),
            True,
            "no-start-tile-left",
            "inputs.capitals.green",
            "No start tile is left for a capital.",
        ),
        (
            _settling(_plan(city=[0, 0])),
            False,
            "settlement-not-beside-capital",
            "inputs.settlements.blue.city",
            "[0, 0] is not a tile next to the capital that an army may enter.",
        ),
        (
            _settling(_plan(villages=[[-3, 0], [-2, 1]])),
            False,
            "settlement-twice",
            "inputs.settlements.blue.villages[0]",
            "[-3, 0] already holds a settlement.",
        ),
        (
            _settling(None, map=HEMMED),
            True,
            "too-few-sites",
            "inputs.settlements.blue",
            "The capital has fewer than four enterable neighbours (ruling M8).",
        ),
        (
            at_setup("armies", inputs={"starting_armies": {"blue": [-1, -1]}}, **after_step_d()),
            False,
            "starting-army-not-on-settlement",
            "inputs.starting_armies.blue",
            "[-1, -1] is not a settlement of blue: the first army starts in one.",
        ),
    ],
    ids=[
        "capital-off-the-start-tiles",
        "capital-taken",
        "no-start-tile-left",
        "settlement-not-beside",
        "settlement-twice",
        "too-few-sites",
        "army-off-a-settlement",
    ],
)
def test_s3_m8_each_setup_refusal_says_what_is_wrong_and_where(
    data, defaults, code, field, message
):
    """Every refusal of the setup's steps, with its code, the field it names and its words:
    a capital off the start tiles or on one taken; a third kingdom's default capital with
    both start tiles taken; a settlement away from the capital or twice on a tile (the
    second village on the city); a capital with three enterable neighbours at the
    deadline; a first army off the kingdom's settlements."""
    refused = refusal(data, defaults=defaults)
    assert (refused.code, refused.field, refused.message) == (code, field, message)
