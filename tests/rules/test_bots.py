"""The bot players (campaign/rules/bots.py), one kind of decision at a time, on small
positions: every answer is one the engine accepts, and the bots lean the way their module
says (armies towards enemies and the unexplored, purchases within the kingdom's means,
deployments within each settlement's room).

The bots are random, so a leaning is checked as a share of many seeded runs: the seeds
make the counts the same on every run, and each expected share is the one the bots'
weights give, with room for the dice."""

import random
from collections import Counter
from collections.abc import Iterable
from typing import Any

import pytest

from campaign.rules.bots import decide
from campaign.rules.hexmap import cached_map_from_json
from campaign.rules.state import MAX_ARMIES
from campaign.rules.vocabulary import RACES
from tests.rules.casebook import (
    Json,
    adjudicate,
    army,
    hexagon,
    make_map,
    position,
    ship,
    tile,
)

RUNS = 1000  # seeded runs for a share; the dice then move a share by about 0.015


def asked(data: Json) -> Json:
    """The file the engine returns for a position: the one the bots answer."""
    return adjudicate(data)


def answers(data: Json, runs: int = RUNS) -> list[Json]:
    """The bots' inputs for the file's `pending`, once for each seed 0 to runs - 1."""
    hexmap = cached_map_from_json(data["map"])
    return [decide(data, random.Random(seed), hexmap)["inputs"] for seed in range(runs)]


def shares(values: Iterable[Any]) -> dict[Any, float]:
    """How often each value came, as a share of all."""
    counted = Counter(values)
    total = sum(counted.values())
    return {value: count / total for value, count in counted.items()}


def about(share: float, expected: float, within: float = 0.04) -> bool:
    return abs(share - expected) < within


def pending(data: Json, *asks: Json) -> Json:
    """A position with `pending` written by hand (for the asks a position alone does not
    make the engine print)."""
    return {**data, "pending": list(asks)}


def with_ally(*armies: Json) -> list[Json]:
    """Armies as the engine writes them (with `ally`), for files the bots read directly."""
    return [{"ally": None, **a} for a in armies]


# --- the entry point ---------------------------------------------------------------------------


def test_a_pending_kind_with_no_answer_is_refused_by_name():
    data = pending(position(), {"kind": "haggle", "kingdom": "red"})
    with pytest.raises(ValueError, match="no answer for a pending 'haggle'"):
        decide(data, random.Random(0))


def test_the_bots_add_to_the_inputs_given_and_leave_the_file_they_read_alone():
    data = asked(position(clock=(1, "winter", 0, "tithe")))
    data["inputs"] = {"tithes": {"blue": []}}
    answered = decide(data, random.Random(0))
    assert set(answered["inputs"]["tithes"]) == {"red", "blue"}
    assert data["inputs"] == {"tithes": {"blue": []}}
    assert {k: v for k, v in answered.items() if k != "inputs"} == {
        k: v for k, v in data.items() if k != "inputs"
    }


# --- setup ---------------------------------------------------------------------------------------


def test_a_bot_declares_a_kings_of_war_race_and_not_always_the_same():
    data = pending(position(clock=(1, "setup", 0, "races")), {"kind": "race", "kingdom": "red"})
    races = [a["races"]["red"] for a in answers(data, 60)]
    assert set(races) <= set(RACES)
    assert len(set(races)) > 5


def test_a_bot_founds_its_capital_and_picks_its_starting_army_among_the_choices_offered():
    choices = [[0, 0], [1, 0], [2, 0]]
    data = pending(
        position(clock=(1, "setup", 0, "capitals")),
        {"kind": "capital", "kingdom": "red", "choices": choices},
        {"kind": "starting_army", "kingdom": "blue", "choices": choices},
    )
    given = answers(data, 60)
    assert sorted({tuple(a["capitals"]["red"]) for a in given}) == [(0, 0), (1, 0), (2, 0)]
    assert sorted({tuple(a["starting_armies"]["blue"]) for a in given}) == [(0, 0), (1, 0), (2, 0)]


def test_a_bot_places_a_city_a_fortress_and_two_villages_on_four_different_choices():
    choices = [[q, 0] for q in range(6)]
    data = pending(
        position(clock=(1, "setup", 0, "settlements")),
        {"kind": "settlements", "kingdom": "red", "choices": choices},
    )
    for given in answers(data, 30):
        plan = given["settlements"]["red"]
        placed = [plan["city"], plan["fortress"], *plan["villages"]]
        assert len(plan["villages"]) == 2
        assert len({tuple(h) for h in placed}) == 4
        assert all(h in choices for h in placed)


# --- summer: orders ------------------------------------------------------------------------------

# Red's army at [0, 0]: blue's army at [1, 0], blue's tile at [1, -1], [0, -1] unexplored,
# and red's own tiles at [-1, 0], [-1, 1] and [0, 1].
LEANING = position(
    map=make_map(2),
    tiles=[
        tile((0, 0), "red"),
        tile((-1, 0), "red"),
        tile((-1, 1), "red"),
        tile((0, 1), "red"),
        tile((1, -1), "blue"),
        tile((1, 0), "blue"),
    ],
    armies=[army("red-1", (0, 0)), army("blue-1", (1, 0))],
    inputs={"orders": {"blue": [{"unit": "blue-1", "order": "defend"}]}},
)


def orders_of(given: Json, kingdom: str = "red") -> dict[str, Json]:
    return {order["unit"]: order for order in given["orders"][kingdom]}


def test_an_army_on_its_side_regroups():
    data = asked(
        position(tiles=[tile((0, 0), "red")], armies=[army("red-1", (0, 0), upright=False)])
    )
    assert all(
        orders_of(a)["red-1"] == {"unit": "red-1", "order": "regroup"} for a in answers(data, 20)
    )


def test_an_army_that_cannot_step_anywhere_defends_or_razes_the_enemy_settlement_it_stands_on():
    """A map of one tile: blue's village, where red's army stands (half Defend, half Raze);
    on its own village it only ever defends."""
    lone = make_map(hexes=[(0, 0)])
    enemy = asked(
        position(map=lone, tiles=[tile((0, 0), "blue", "village")], armies=[army("red-1", (0, 0))])
    )
    kinds = shares(orders_of(a)["red-1"]["order"] for a in answers(enemy, 400))
    assert set(kinds) == {"defend", "raze"}
    assert about(kinds["raze"], 0.5)
    own = asked(
        position(map=lone, tiles=[tile((0, 0), "red", "village")], armies=[army("red-1", (0, 0))])
    )
    assert {orders_of(a)["red-1"]["order"] for a in answers(own, 100)} == {"defend"}


def test_an_army_that_may_step_moves_six_times_in_seven_and_otherwise_defends():
    kinds = shares(orders_of(a)["red-1"]["order"] for a in answers(asked(LEANING)))
    assert set(kinds) == {"move", "defend"}
    assert about(kinds["move"], 6 / 7)


def test_on_an_enemy_settlement_an_army_that_may_step_moves_six_times_in_eight():
    data = asked(
        position(
            tiles=[tile((0, 0), "blue", "city")],
            armies=[army("red-1", (0, 0))],
            capitals={"blue": (0, 0)},
        )
    )
    kinds = shares(orders_of(a)["red-1"]["order"] for a in answers(data))
    assert about(kinds["move"], 6 / 8)
    assert about(kinds["raze"], 1 / 8)
    assert about(kinds["defend"], 1 / 8)


def test_an_army_leans_towards_enemy_armies_then_enemy_tiles_then_the_unexplored():
    """The weights 5 (enemy army), 4 (enemy tile), 3 (unexplored), 1 (own tile) over the six
    neighbours: 5 + 4 + 3 + 1 + 1 + 1 = 15."""
    moves = [orders_of(a)["red-1"] for a in answers(asked(LEANING), 3000)]
    steps = shares(tuple(order["to"]) for order in moves if order["order"] == "move")
    assert about(steps[(1, 0)], 5 / 15, within=0.02)
    assert about(steps[(1, -1)], 4 / 15, within=0.02)
    assert about(steps[(0, -1)], 3 / 15, within=0.02)
    for own in [(-1, 0), (-1, 1), (0, 1)]:
        assert about(steps[own], 1 / 15, within=0.02)


def test_an_army_never_steps_where_the_map_or_a_tower_forbids():
    """Marsh at [1, 0], a water edge to [0, 1], and with wizards on, a tower at [-1, 0]."""
    data = asked(
        position(
            map=make_map(2, terrain={(1, 0): "marsh"}, water_edges=[((0, 0), (0, 1))]),
            tiles=[tile((0, 0), "red")],
            armies=[army("red-1", (0, 0))],
            options={"wizards": True},
            towers=[[-1, 0]],
        )
    )
    steps = {
        tuple(o["to"])
        for a in answers(data, 300)
        if (o := orders_of(a)["red-1"])["order"] == "move"
    }
    assert steps == {(1, -1), (0, -1), (-1, 1)}


def border_position(radius: int, owned: Iterable[tuple[int, int]]) -> Json:
    return asked(
        position(
            map=make_map(radius),
            tiles=[tile(h, "red") for h in owned],
            armies=[army("red-1", (0, 0))],
        )
    )


def test_an_army_deep_inside_its_lands_heads_for_the_nearest_border_four_times_in_five():
    """Red holds every tile within 2 of [0, 0] but [2, 0]; the shortest walk out starts at
    [1, 0]. The fifth time it steps at random among its own six neighbours."""
    data = border_position(3, [h for h in hexagon(2) if h != (2, 0)])
    moves = [orders_of(a)["red-1"] for a in answers(data)]
    steps = shares(tuple(o["to"]) for o in moves if o["order"] == "move")
    assert about(steps[(1, 0)], 0.8 + 0.2 / 6)
    assert about(steps[(0, 1)], 0.2 / 6)


def test_an_army_whose_border_is_beyond_the_bots_search_steps_at_random():
    """Red holds every tile within 10 of its army (331 tiles, more than the 300 a bot looks
    at): no step is preferred."""
    data = border_position(11, hexagon(10))
    moves = [orders_of(a)["red-1"] for a in answers(data, 300)]
    steps = shares(tuple(o["to"]) for o in moves if o["order"] == "move")
    assert len(steps) == 6
    assert max(steps.values()) < 0.3


def test_the_orders_come_in_a_random_sequence():
    """Cycle and sealed orders resolve in the sequence given: the bots shuffle it."""
    data = asked(
        position(tiles=[tile((0, 0), "red")], armies=[army("red-1", (0, 0)), army("red-2", (0, 0))])
    )
    first = shares(a["orders"]["red"][0]["unit"] for a in answers(data, 200))
    assert about(first["red-1"], 0.5)


# Red's ship at [0, 0], on the coast, beside the ocean at [1, 0] and [1, -1].
HARBOUR = make_map(2, terrain={(1, 0): "ocean", (1, -1): "ocean", (2, -1): "ocean"}, coast=[(0, 0)])


def ship_orders(runs: int = RUNS, **where: Any) -> list[dict[str, Json]]:
    data = asked(
        position(
            map=HARBOUR, tiles=[tile((0, 0), "red", "city")], capitals={"red": (0, 0)}, **where
        )
    )
    return [orders_of(a) for a in answers(data, runs)]


def test_a_ship_on_its_side_regroups_and_keeps_the_army_aboard():
    for orders in ship_orders(
        50,
        ships=[ship("red-s1", (0, 0), upright=False, carrying="red-1")],
        armies=[army("red-1", (0, 0))],
    ):
        assert orders["red-s1"] == {"unit": "red-s1", "order": "regroup", "carry": "red-1"}


def test_a_ship_at_sea_always_keeps_its_army_and_one_in_port_lands_it_two_times_in_five():
    at_sea = ship_orders(
        100, ships=[ship("red-s1", (1, 0), carrying="red-1")], armies=[army("red-1", (1, 0))]
    )
    assert all(o["red-s1"].get("carry") == "red-1" for o in at_sea)
    in_port = ship_orders(
        ships=[ship("red-s1", (0, 0), carrying="red-1")], armies=[army("red-1", (0, 0))]
    )
    kept = shares(o["red-s1"].get("carry") == "red-1" for o in in_port)
    assert about(kept[False], 0.4)


def test_an_upright_army_in_port_boards_half_the_time_and_then_has_no_order_of_its_own():
    """Ruling O8; an army on its side never boards."""
    given = ship_orders(
        ships=[ship("red-s1", (0, 0))],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0), upright=False)],
    )
    boarded = shares(o["red-s1"].get("carry") for o in given)
    assert set(boarded) == {"red-1", None}
    assert about(boarded["red-1"], 0.5)
    for orders in given:
        assert ("red-1" in orders) is (orders["red-s1"].get("carry") is None)
        assert orders["red-2"]["order"] == "regroup"


def test_a_ship_sails_three_times_in_four_into_the_water_it_may_enter_or_stays():
    given = ship_orders(ships=[ship("red-s1", (0, 0))])
    kinds = shares(o["red-s1"]["order"] for o in given)
    assert set(kinds) == {"move", "stay"}
    assert about(kinds["move"], 3 / 4)
    sailed = shares(tuple(o["red-s1"]["to"]) for o in given if o["red-s1"]["order"] == "move")
    assert set(sailed) == {(1, 0), (1, -1)}


def test_a_ship_on_an_enemy_settlement_sometimes_razes_it():
    data = asked(
        position(
            map=HARBOUR,
            tiles=[tile((0, 0), "blue", "city")],
            capitals={"blue": (0, 0)},
            ships=[ship("red-s1", (0, 0))],
        )
    )
    kinds = shares(orders_of(a)["red-s1"]["order"] for a in answers(data))
    assert about(kinds["raze"], 1 / 5)
    assert about(kinds["move"], 3 / 5)


def test_the_engine_accepts_every_order_the_bots_give():
    data = asked(
        position(
            map=HARBOUR,
            tiles=[tile((0, 0), "red", "city"), tile((-1, 0), "blue", "village")],
            capitals={"red": (0, 0)},
            ships=[ship("red-s1", (0, 0))],
            armies=[army("red-1", (0, 0)), army("red-2", (-1, 1)), army("blue-1", (-1, 0))],
        )
    )
    for seed in range(40):
        adjudicate(decide(data, random.Random(seed)))


# --- summer: battles -------------------------------------------------------------------------


def test_a_bot_picks_any_contested_tile_and_a_naval_battle_half_the_time_where_one_may_be():
    """Ruling B3: at [0, 0] both sides have an upright army and ship; at [1, 0] armies only."""
    data = pending(
        position(
            map=HARBOUR,
            tiles=[tile((0, 0), "red")],
            armies=with_ally(
                army("red-1", (0, 0)),
                army("blue-1", (0, 0)),
                army("red-2", (-1, 0)),
                army("blue-2", (-1, 0)),
            ),
            ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
        ),
        {"kind": "battle_choice", "kingdom": "red", "choices": [[0, 0], [-1, 0]]},
    )
    given = answers(data)
    picked = shares(tuple(a["battle_choices"]["red"][0]) for a in given)
    assert about(picked[(0, 0)], 0.5)
    naval = [a.get("battles", []) for a in given if a["battle_choices"]["red"] == [[0, 0]]]
    assert about(shares(bool(b) for b in naval)[True], 0.5)
    assert all(b == [{"hex": [0, 0], "naval": "red"}] for b in naval if b)
    assert not any(a.get("battles") for a in given if a["battle_choices"]["red"] == [[-1, 0]])


def test_a_bot_that_may_make_a_last_stand_makes_it_half_the_time_and_else_concedes():
    data = pending(position(), {"kind": "last_stand", "kingdom": "blue", "hex": [1, 0]})
    entries = [a["battles"] for a in answers(data)]
    made = shares(tuple(e[0]) for e in entries)
    assert set(made) == {("hex", "last_stand"), ("hex", "concede")}
    assert about(made[("hex", "last_stand")], 0.5)
    assert all(
        e == [{"hex": [1, 0], **dict.fromkeys(e[0].keys() - {"hex"}, "blue")}] for e in entries
    )


AWAITING = {"hex": [1, 0], "attacker": "red", "defender": "blue", "status": "awaiting_result"}
RESOLVED = {"hex": [2, 0], "attacker": "blue", "defender": "red", "status": "resolved"}


def result_asked(**inputs: Any) -> Json:
    return pending(
        position(battles=[RESOLVED, AWAITING], inputs=inputs),
        {"kind": "battle_result", "kingdom": "red", "hex": [1, 0]},
        {"kind": "battle_result", "kingdom": "blue", "hex": [1, 0]},
    )


def test_a_tabletop_result_is_reported_once_for_both_players_mostly_a_win():
    """A win 70 % (either side), a draw 15 %, a concession 7 %, the simple battle 8 %."""
    given = [a["battles"] for a in answers(result_asked())]
    assert all(len(b) == 1 and b[0]["hex"] == [1, 0] for b in given)
    entries = [b[0] for b in given]
    kinds = shares(e.get("result") or ("concede" if "concede" in e else "simple") for e in entries)
    assert about(kinds["win"], 0.70)
    assert about(kinds["draw"], 0.15)
    assert about(kinds["concede"], 0.07)
    assert about(kinds["simple"], 0.08)
    assert next(e for e in entries if "resolve" in e) == {"hex": [1, 0], "resolve": "simple"}
    winners = shares(e["winner"] for e in entries if e.get("result") == "win")
    assert about(winners["red"], 0.5)
    assert {e["concede"] for e in entries if "concede" in e} == {"red", "blue"}


def test_a_battle_already_settled_in_the_inputs_is_not_reported_again():
    settled = {"hex": [1, 0], "result": "draw"}
    assert all(a["battles"] == [settled] for a in answers(result_asked(battles=[settled]), 20))
    naval = {"hex": [1, 0], "naval": "red"}  # an entry that settles nothing
    assert all(len(a["battles"]) == 2 for a in answers(result_asked(battles=[naval]), 20))


def test_a_retreating_unit_goes_to_one_of_the_tiles_offered():
    choices = [[1, 0], [0, 1]]
    data = pending(
        position(), {"kind": "retreat", "kingdom": "red", "unit": "red-1", "choices": choices}
    )
    assert sorted({tuple(a["retreats"]["red-1"]) for a in answers(data, 40)}) == [(0, 1), (1, 0)]


# --- winter ------------------------------------------------------------------------------------


def test_a_bot_gives_a_tithe_three_times_in_ten_to_another_kingdom_still_standing():
    data = asked(position(clock=(1, "winter", 0, "tithe"), kingdoms=("red", "blue", "green")))
    gifts = [a["tithes"]["red"] for a in answers(data)]
    assert about(shares(bool(g) for g in gifts)[True], 0.3)
    given = [g[0] for g in gifts if g]
    assert all(len(g) == 1 for g in gifts if g)
    assert {g["to"] for g in given} == {"blue", "green"}
    assert {(g["gold"], g["food"]) for g in given} == {(1, 0), (0, 1), (1, 1)}


def test_a_kingdom_standing_alone_gives_no_tithe():
    data = pending(
        position(clock=(1, "winter", 0, "tithe"), player_order=("red",)),
        {"kind": "tithes", "kingdom": "red"},
    )
    assert all(a["tithes"]["red"] == [] for a in answers(data, 50))


def purchases(runs: int = 200, **where: Any) -> list[list[Json]]:
    data = asked(position(clock=(1, "winter", 0, "build"), **where))
    return [a["purchases"]["red"] for a in answers(data, runs)]


def test_a_bot_wishes_for_the_next_thing_on_each_tile_it_holds():
    """A village on a bare tile; a city or a fortress on a village; an army at a fortress;
    now and then a ship at a port city where none is docked (a ship at [0, 0] already)."""
    bought = purchases(
        map=make_map(3, coast=[(0, 0), (2, 0)]),
        tiles=[
            tile((0, 0), "red", "city"),
            tile((2, 0), "red", "city"),
            tile((1, 0), "red", "village"),
            tile((-1, 0), "red", "fortress"),
            tile((0, 1), "red"),
        ],
        capitals={"red": (0, 0)},
        ships=[ship("red-s1", (0, 0))],
        armies=[army("red-1", (0, 0))],
        kingdom_fields={"red": {"gold": 20, "food": 20}},
    )
    wishes = Counter((w.get("build") or w["recruit"], tuple(w["hex"])) for b in bought for w in b)
    assert set(wishes) == {
        ("village", (0, 1)),
        ("city", (1, 0)),
        ("fortress", (1, 0)),
        ("army", (-1, 0)),
        ("ship", (2, 0)),
    }
    assert wishes["village", (0, 1)] == wishes["army", (-1, 0)] == len(bought)
    assert about(wishes["city", (1, 0)] / len(bought), 0.5)
    assert about(wishes["ship", (2, 0)] / len(bought), 0.3)


def test_a_kingdom_that_lost_its_capital_rebuilds_it_in_one_of_its_cities():
    bought = purchases(
        50,
        tiles=[tile((0, 0), "red", "city"), tile((1, 0), "red", "city")],
        kingdom_fields={"red": {"gold": 5, "food": 5}},
    )
    capitals = {tuple(w["hex"]) for b in bought for w in b if w.get("build") == "capital"}
    assert capitals == {(0, 0), (1, 0)}
    assert all(sum(w.get("build") == "capital" for w in b) == 1 for b in bought)


def test_a_bot_buys_only_what_its_gold_pays_for_keeping_food_for_its_armies():
    """3 gold, 2 food, 1 army: of a village (1 gold), a city (1 gold, 1 food), a fortress
    (2 gold) and an army (1 gold, a food to feed it), it buys what its purse allows in the
    order it shuffled them, always keeping a food for each army (ruling W6)."""
    for bought in purchases(
        tiles=[
            tile((0, 0), "red", "city"),
            tile((-1, 0), "red", "fortress"),
            tile((1, 0), "red", "village"),
            tile((2, 0), "red", "village"),
            tile((0, 1), "red"),
        ],
        capitals={"red": (0, 0)},
        armies=[army("red-1", (0, 0))],
        kingdom_fields={"red": {"gold": 3, "food": 2}},
    ):
        kinds = [w.get("build") or w["recruit"] for w in bought]
        gold = sum({"village": 1, "city": 1, "fortress": 2, "army": 1}[k] for k in kinds)
        food = kinds.count("city")
        assert gold <= 3
        assert 2 - food >= 1 + kinds.count("army")
        assert len(bought) >= 1


def test_a_bot_spends_its_last_gold_and_food():
    """Exactly the price is enough: a village for its one gold; a city for its last gold
    and food, with no army left to feed."""
    assert all(
        b == [{"build": "village", "hex": [0, 1]}]
        for b in purchases(20, tiles=[tile((0, 1), "red")], kingdom_fields={"red": {"gold": 1}})
    )
    bought = purchases(
        100,
        tiles=[tile((0, 1), "red", "village")],
        kingdom_fields={"red": {"gold": 1, "food": 1}},
    )
    kinds = shares(b[0]["build"] if b else None for b in bought)
    assert set(kinds) == {"city", None}  # a fortress costs two gold
    assert about(kinds["city"], 0.5)


def test_a_bot_recruits_no_more_than_six_armies():
    bought = purchases(
        50,
        tiles=[
            tile((0, 0), "red", "city"),
            *(tile((q, 1), "red", "fortress") for q in range(-2, 3)),
        ],
        capitals={"red": (0, 0)},
        armies=[army(f"red-{n}", (0, 0)) for n in range(1, MAX_ARMIES - 1)],
        kingdom_fields={"red": {"gold": 20, "food": 20}},
    )
    assert {sum(w.get("recruit") == "army" for w in b) for b in bought} == {2}


def allies(armies: int, **fields: Any) -> list[list[Json]]:
    return purchases(
        400,
        tiles=[tile((0, 0), "red", "city"), tile((1, 0), "red", "fortress")],
        capitals={"red": (0, 0)},
        armies=[army(f"red-{n}", (0, 0), **fields) for n in range(1, armies + 1)],
        kingdom_fields={"red": {"gold": 5, "food": 10}},
    )


def test_a_kingdom_of_three_armies_and_no_ally_recruits_an_ally_one_time_in_five():
    """Of another race than its own (Elves); never with fewer than three armies, or with an
    ally already."""
    recruits = [w for b in allies(3) for w in b if w.get("recruit")]
    allied = [w["ally"] for w in recruits if "ally" in w]
    assert about(len(allied) / len(recruits), 0.2)
    assert "Elves" not in allied
    assert len(set(allied)) > 5
    assert not any("ally" in w for b in allies(2) for w in b)
    assert not any("ally" in w for b in allies(3, ally="Dwarfs") for w in b)


def test_a_kingdom_recruits_one_ally_at_most_however_many_fortresses_it_has():
    """Five fortresses each wish for an army, an ally one time in five; with three armies,
    the purse pays for the first three it comes to (six at most) and for one ally among
    them at most: an ally in one time in 1 - 0.8**3."""
    bought = purchases(
        300,
        tiles=[
            tile((0, 0), "red", "city"),
            *(tile((q, 1), "red", "fortress") for q in range(-2, 3)),
        ],
        capitals={"red": (0, 0)},
        armies=[army(f"red-{n}", (0, 0)) for n in range(1, 4)],
        kingdom_fields={"red": {"gold": 20, "food": 20}},
    )
    allies = [sum("ally" in w for w in b) for b in bought]
    assert set(allies) == {0, 1}
    assert about(allies.count(1) / len(allies), 1 - 0.8**3)
    assert all(sum("recruit" in w for w in b) == 3 for b in bought)


def test_a_hungry_kingdom_disbands_as_many_armies_as_it_is_short_of_food():
    data = asked(
        position(
            clock=(1, "winter", 0, "feed"),
            tiles=[tile((0, 0), "red", "city")],
            capitals={"red": (0, 0)},
            armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("red-3", (0, 0))],
            kingdom_fields={"red": {"food": 1}},
        )
    )
    assert data["pending"] == [
        {"kind": "feed", "kingdom": "red", "armies": ["red-1", "red-2", "red-3"], "short": 2}
    ]
    disbanded = [a["feed"]["red"]["disband"] for a in answers(data, 60)]
    assert all(len(set(d)) == 2 for d in disbanded)
    assert {army for d in disbanded for army in d} == {"red-1", "red-2", "red-3"}
    data["pending"][0]["short"] = 5
    assert all(
        sorted(a["feed"]["red"]["disband"]) == ["red-1", "red-2", "red-3"] for a in answers(data, 5)
    )


def deployments(armies: int, tiles: list[Json], runs: int = 100) -> list[list[Json]]:
    data = asked(
        position(
            clock=(1, "winter", 0, "deploy"),
            tiles=tiles,
            capitals={"red": (0, 0)},
            armies=[army(f"red-{n}", (0, 0)) for n in range(1, armies + 1)],
            kingdom_fields={"red": {"food": 9}},
        )
    )
    return [a["deploy"]["red"] for a in answers(data, runs)]


def test_armies_deploy_to_settlements_joined_to_the_capital_within_each_ones_room():
    """Ruling W7: the capital takes 3, a fortress 3, a city 2, a village 1. The village at
    [3, 0] is cut off from the capital by blue's tile at [2, 0]."""
    tiles = [
        tile((0, 0), "red", "city"),
        tile((1, 0), "red", "village"),
        tile((0, 1), "red", "fortress"),
        tile((-1, 0), "red", "city"),
        tile((2, 0), "blue"),
        tile((3, 0), "red", "village"),
    ]
    room = {(0, 0): 3, (1, 0): 1, (0, 1): 3, (-1, 0): 2}
    used: Counter[tuple[int, int]] = Counter()
    for placed in deployments(6, tiles):
        assert sorted(p["army"] for p in placed) == [f"red-{n}" for n in range(1, 7)]
        here = Counter(tuple(p["hex"]) for p in placed)
        assert all(here[h] <= room.get(h, 0) for h in here)
        used.update(here)
    assert set(used) == set(room)


def test_armies_that_find_no_room_are_left_to_the_default():
    placed = deployments(6, [tile((0, 0), "red", "city"), tile((1, 0), "red", "village")], 20)
    assert all(sorted(Counter(tuple(p["hex"]) for p in d).values()) == [1, 3] for d in placed)
    assert all(len(d) == 4 for d in placed)


def test_a_kingdom_without_a_home_deploys_nothing():
    """No capital, and no city or village to stand for it (ruling W1): every army is left
    to the default."""
    data = asked(
        position(
            clock=(1, "winter", 0, "deploy"),
            tiles=[tile((0, 0), "red")],
            armies=[army("red-1", (0, 0))],
        )
    )
    assert data["pending"] == [{"kind": "deploy", "kingdom": "red", "armies": ["red-1"]}]
    assert all(a["deploy"]["red"] == [] for a in answers(data, 5))


def test_with_roads_a_bot_buys_a_road_from_its_road_linked_land_half_the_time():
    """Option roads (OW9): half the time a bot adds a road from a tile joined to its capital
    by roads to a tile of its own next to it with none yet, never across water nor where a
    road is; the engine builds it."""
    data = position(
        clock=(1, "winter", 0, "build"),
        map=make_map(2, water_edges=[((0, 0), (0, 1))]),
        tiles=[
            tile((0, 0), "red", "city"),
            tile((1, 0), "red"),
            tile((0, 1), "red"),
            tile((2, 0), "red"),
        ],
        capitals={"red": (0, 0)},
        options={"roads": True},
        roads=[[[0, 0], [1, 0]]],
        kingdom_fields={"red": {"gold": 5}},
    )
    bought = [a["purchases"]["red"] for a in answers(asked(data), 400)]
    roads = [p for ps in bought for p in ps if p.get("build") == "road"]
    assert about(len(roads) / len(bought), 0.5, within=0.08)
    # From [0, 0] or [1, 0] (road-linked) to a tile of Red's next to it: [1, 0] to [2, 0] or
    # to [0, 1]; never [0, 0]-[0, 1] (across water) nor [0, 0]-[1, 0] (built already).
    assert {(tuple(p["hex"]), tuple(p["to"])) for p in roads} == {
        ((1, 0), (2, 0)),
        ((1, 0), (0, 1)),
    }
    built = adjudicate({**asked(data), "inputs": {"purchases": {"red": roads[:1], "blue": []}}})
    assert sorted([roads[0]["hex"], roads[0]["to"]]) in built["roads"]
