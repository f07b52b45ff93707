"""The rules casebook for the campaign options of part A that the engine plays so far
(campaign-options.md): switching (OG1), `army_limits` (OA1 to OA3), `common_deck` (OA12,
OA13) and `sieges` (OA14, OA15). Each test is one case, named after its rule, with the
document's worked examples among them; its docstring states the position and what must
happen. Positions are those of the battles and winter casebooks."""

import random
from typing import Any

import pytest

from campaign.rules import optional
from campaign.rules.combat import DEFENDER_BENEFITS
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import dump_campaign, parse_campaign
from tests.rules.casebook import adjudicate as run
from tests.rules.casebook import (
    army,
    events,
    happened,
    kingdom,
    make_map,
    move,
    order,
    position,
    refusal,
    tile,
    tile_at,
    unit,
)
from tests.rules.test_casebook_battles import (
    HOMES,
    OUTNUMBERED_AND_CUT_OFF,
    ROLL_OFF,
    TWO_TILES,
    at_battles,
    report,
    side,
    the_battle,
)
from tests.rules.test_casebook_setup import after_step_d, at_setup
from tests.rules.test_casebook_summer import at, orders
from tests.rules.test_casebook_winter import building, buy, deploying, place, recruit

type Json = dict[str, Any]
type Hex = tuple[int, int]

LIMITS = {"army_limits": True}
DECK = {"common_deck": True}
SIEGES = {"sieges": True}


def licence(data: Json, army_id: str) -> list[str]:
    found = unit(data, army_id)
    assert found is not None, f"{army_id} is gone"
    return list(found["licence"])


# === OG1 Switching =============================================================================


def test_og1_an_option_absent_is_off_and_the_file_says_only_those_on():
    """A file without `army_limits` plays without it: a new army has no licence field, and
    the options written back name no optional rule. With it on, the option is written back
    as true."""
    off = run(building(buy(red=[recruit((1, -1))]), tiles=[tile((1, -1), "red", "fortress")],
                       gold=1, food=2))  # fmt: skip
    assert "licence" not in unit(off, "red-1")  # type: ignore[operator]
    assert "army_limits" not in off["options"]
    on = run(
        building(
            buy(red=[recruit((1, -1))]),
            tiles=[tile((1, -1), "red", "fortress")],
            gold=1,
            food=2,
            options=LIMITS,
        )
    )
    assert on["options"]["army_limits"] is True
    assert licence(on, "red-1") == []


@pytest.mark.parametrize(
    ("where", "field"),
    [
        ("army", "armies[0].licence"),
        ("side", "battles[0].sides[0].limits"),
        ("siege", "battles[0].siege"),
    ],
)
def test_og1_a_state_field_of_an_option_that_is_off_is_refused_by_name(where, field):
    """A file holding an option's field while the option is off is refused, naming the
    field and the option."""
    data = at_battles(tiles=HOMES, armies=[army("red-1", (-1, 0))], dice=[])
    sides: list[Json] = [
        {"kingdom": "red", "armies": [], "ships": []},
        {"kingdom": "blue", "armies": [], "ships": []},
    ]
    battle: Json = {
        "year": 1, "month": 1, "hex": [0, 0], "kind": "simple", "attacker": "red",
        "defender": "blue", "status": "resolved", "sides": sides,
    }  # fmt: skip
    if where == "army":
        data["armies"][0]["licence"] = ["monsters"]
    elif where == "side":
        sides[0]["limits"] = {"monsters": 500, "war_engines": 0}
        data["battles"] = [battle]
    else:
        battle["siege"] = None
        data["battles"] = [battle]
    refused = refusal(data)
    assert (refused.code, refused.field) == ("option-off", field)
    assert "which is off in this campaign" in refused.message


def test_og1_an_option_is_true_or_false():
    refused = refusal(at_battles(tiles=HOMES, options={"sieges": "yes"}, dice=[]))
    assert refused.field == "options.sieges"


# === army_limits: OA1 to OA3 ===================================================================


def test_oa1_example_1_mountains_and_forest_beside_the_fortress_license_both():
    """Red raises an army at its fortress [2, 0] (plains); [3, 0] beside it is forest and
    [2, 1] mountains, both red's. The new army is licensed for monsters and war engines."""
    data = building(
        buy(red=[recruit((2, 0))]),
        tiles=[tile((2, 0), "red", "fortress"), tile((3, 0), "red"), tile((2, 1), "red")],
        gold=1,
        food=2,
        options=LIMITS,
        map=make_map(terrain={(3, 0): "forest", (2, 1): "mountains"}),
    )
    after = run(data)
    assert licence(after, "red-1") == ["monsters", "war_engines"]


def test_oa1_example_2_another_kingdoms_mountains_license_nothing_and_the_licence_stays():
    """Red raises an army at its fortress [0, 1] (plains); its neighbour [1, 1] is mountains
    but blue's; no marsh, no forest: no licence. Red later takes [1, 1]: the licence, fixed
    at raising, is still empty."""
    data = building(
        buy(red=[recruit((0, 1))]),
        tiles=[tile((0, 1), "red", "fortress"), tile((1, 1), "blue")],
        gold=1,
        food=2,
        options=LIMITS,
        map=make_map(terrain={(1, 1): "mountains"}),
    )
    after = run(data)
    assert licence(after, "red-1") == []
    taken = {**after, "tiles": [*after["tiles"][:-1], tile((1, 1), "red")]}
    assert licence(advance(taken), "red-1") == []


@pytest.mark.parametrize(
    ("terrain", "owner", "expected"),
    [
        ({(2, 0): "mountains"}, "red", ["monsters"]),  # the fortress among mountains
        ({(2, 0): "forest"}, "red", ["war_engines"]),  # the fortress in a forest
        ({(3, 0): "marsh"}, "blue", ["monsters"]),  # any marsh beside it, whoever's
        ({(3, 0): "forest"}, "blue", []),  # another kingdom's forest
    ],
)
def test_oa1_the_fortress_tile_and_its_neighbours_decide_the_licence(terrain, owner, expected):
    """Red raises an army at its fortress [2, 0]; its neighbour [3, 0] is `owner`'s."""
    data = building(
        buy(red=[recruit((2, 0))]),
        tiles=[tile((2, 0), "red", "fortress"), tile((3, 0), owner)],
        gold=1,
        food=2,
        options=LIMITS,
        map=make_map(terrain=terrain),
    )
    assert licence(run(data), "red-1") == expected


def test_oa1_an_allied_army_is_licensed_alike():
    """Red, with three armies, raises an allied army at its fortress [2, 0], beside its
    forest [3, 0]: licensed for war engines like any other."""
    data = building(
        buy(red=[recruit((2, 0), ally="Dwarfs")]),
        tiles=[tile((2, 0), "red", "fortress"), tile((3, 0), "red")],
        armies=[army(f"red-{n}", (0, 0), licence=[]) for n in (1, 2, 3)],
        armies_raised=3,
        gold=1,
        food=5,
        options=LIMITS,
        map=make_map(terrain={(3, 0): "forest"}),
    )
    after = run(data)
    assert unit(after, "red-4")["ally"] == "Dwarfs"  # type: ignore[index]
    assert licence(after, "red-4") == ["war_engines"]


def test_oa1_the_starting_army_is_judged_at_the_capital():
    """At setup step E, red places its army in its village [2, 1]; red's capital [2, 0]
    stands beside its forest [3, -1] (the fortress tile of its plan) and blue's capital
    [-2, 0] beside nothing but plains. Red's army is licensed for war engines as if raised
    at the capital; blue's has no licence."""
    data = at_setup(
        "armies",
        inputs={"starting_armies": {"blue": [-1, 0], "red": [2, 1]}},
        options=LIMITS,
        map=make_map(4, start=[(-2, 0), (2, 0)], terrain={(3, -1): "forest"}),
        **after_step_d(),
    )
    after = run(data)
    assert licence(after, "red-1") == ["war_engines"]
    assert licence(after, "blue-1") == []


def licensed_clash() -> Json:
    """Red fights at [0, 0] with red-1, licensed for monsters, and red-2, unlicensed;
    blue with blue-1, licensed for both, and blue-2, for war engines."""
    return at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[
            army("red-1", (0, 0), licence=["monsters"]),
            army("red-2", (0, 0), licence=[]),
            army("blue-1", (0, 0), licence=["monsters", "war_engines"]),
            army("blue-2", (0, 0), licence=["war_engines"]),
        ],
        options=LIMITS,
        dice=[4, 4],
    )


def test_oa2_example_3_the_card_prints_each_sides_limits():
    """`licensed_clash`: the tabletop card says red may spend 500 points on Monsters and
    none on War Engines; blue 500 and 1,000."""
    battle = the_battle(run(licensed_clash()))
    assert side(battle, "red")["limits"] == {"monsters": 500, "war_engines": 0}
    assert side(battle, "blue")["limits"] == {"monsters": 500, "war_engines": 1000}


def test_oa2_a_file_whose_side_has_negative_limits_is_refused():
    """The campaign file format: a side's limits are points, none below 0."""
    after = run(licensed_clash())
    after["battles"][0]["sides"][0]["limits"]["monsters"] = -500
    refused = refusal(after)
    assert (refused.code, refused.field) == ("out-of-range", "battles[0].sides[0].limits.monsters")
    assert refused.message.endswith("must be a whole number from 0, not -500.")


def test_oa2_only_a_battle_handed_to_the_tabletop_carries_limits():
    """In a campaign of simple battles the same clash is rolled: its sides carry no
    limits."""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0), licence=["monsters"]), army("blue-1", (0, 0), licence=[])],
        options={**LIMITS, "battles": "simple"},
        dice=[4, 4, *ROLL_OFF],
    )
    battle = the_battle(run(data))
    assert all("limits" not in s for s in battle["sides"])


# === common_deck: OA12, OA13 ===================================================================


def test_oa13_example_1_a_last_stand_draws_the_enemys_armies_and_its_own_losses():
    """Red has two armies at [0, 0], blue one, cut off, which makes its Last Stand; blue has
    lost 2 pitched battles before, red none. Blue draws 2 + 2 = 4 strategy cards, red 1."""
    data = at_battles(
        inputs={"battles": [{"hex": [0, 0], "last_stand": "blue"}]},
        kingdom_fields={"blue": {"pitched_losses": 2}},
        options=DECK,
        dice=[4, 4],
        **OUTNUMBERED_AND_CUT_OFF,
    )
    battle = the_battle(run(data))
    assert side(battle, "blue")["strategy_cards"] == 2 + 2
    assert side(battle, "red")["strategy_cards"] == 1


def test_oa13_example_2_two_armies_each():
    """Red, 2 armies and 1 pitched loss, meets blue, 2 armies and none, at blue's [0, 0]:
    red draws 2 + 1 = 3 strategy cards, blue 2."""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army(f"{k}-{n}", (0, 0)) for k in ("red", "blue") for n in (1, 2)],
        kingdom_fields={"red": {"pitched_losses": 1}},
        options=DECK,
        dice=[4, 4],
    )
    battle = the_battle(run(data))
    assert side(battle, "red")["strategy_cards"] == 3
    assert side(battle, "blue")["strategy_cards"] == 2


def test_oa13_without_the_option_a_side_draws_only_what_it_learned():
    """The same battle without `common_deck`: red 1 (its loss), blue 0 (B6)."""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army(f"{k}-{n}", (0, 0)) for k in ("red", "blue") for n in (1, 2)],
        kingdom_fields={"red": {"pitched_losses": 1}},
        dice=[4, 4],
    )
    battle = the_battle(run(data))
    assert [side(battle, k)["strategy_cards"] for k in ("red", "blue")] == [1, 0]


# === sieges: OA14, OA15 ========================================================================


def assault(settlement: str, *, defending: bool = True, capital: bool = False) -> Json:
    """Blue's army at blue's [1, 1] (with `settlement`), Defending unless told otherwise;
    red-1 has moved in. Blue's capital is [1, 1] with `capital`."""
    blue: Json = army("blue-1", (1, 1), defending=True) if defending else army("blue-1", (1, 1))
    if not defending:
        blue["moved"] = [[1, 0], [1, 1]]
    return at_battles(
        tiles=[tile((1, 1), "blue", settlement), *HOMES],
        armies=[army("red-1", (1, 1), moved=[[0, 1], [1, 1]]), blue],
        capitals={"blue": (1, 1)} if capital else None,
        options=SIEGES,
        dice=[4, 4],
    )


def test_oa14_oa15_example_1_a_defended_fortress_is_a_siege_with_stone_works():
    """blue-1 Defends blue's fortress [1, 1]; red-1 moves in. The tabletop battle is a siege
    of blue's with stone works, and blue gets no B6 fortress benefit."""
    battle = the_battle(run(assault("fortress")))
    assert battle["siege"] == {"side": "blue", "works": "stone"}
    assert battle["defender_benefit"] is None


@pytest.mark.parametrize("handed_off", [lambda: assault("fortress"), licensed_clash])
def test_oa2_oa14_a_file_keeps_its_handed_off_battles_siege_and_limits(handed_off):
    """The campaign file format: a file holding a battle handed to the tabletop, a siege
    of blue's fortress (stone works), or one whose sides carry their limits, is read and
    written again as it was."""
    after = run(handed_off())
    assert dump_campaign(parse_campaign(after), [])["battles"] == after["battles"]


def test_oa14_example_2_an_army_that_moved_in_makes_no_siege():
    """blue-1 moved into its fortress this month (Move, not Defend): an ordinary pitched
    battle, no siege and no benefit."""
    battle = the_battle(run(assault("fortress", defending=False)))
    assert battle["siege"] is None
    assert battle["defender_benefit"] is None


def test_oa15_example_3_a_defended_capital_is_a_siege_with_wooden_works():
    battle = the_battle(run(assault("city", capital=True)))
    assert battle["siege"] == {"side": "blue", "works": "wood"}
    assert battle["defender_benefit"] is None


def test_oa14_a_plain_city_is_no_siege_and_keeps_its_benefit():
    """blue-1 Defends a city of blue's that is not its capital: no siege; the city's B6
    benefit stands."""
    battle = the_battle(run(assault("city")))
    assert battle["siege"] is None
    assert battle["defender_benefit"] == DEFENDER_BENEFITS["city"]


def test_oa14_a_fortress_the_defender_does_not_control_is_no_siege():
    """blue-1 Defends a fortress tile that red controls: no siege (only the controlling
    kingdom's fortress is assaulted)."""
    data = assault("fortress")
    data["tiles"][0] = tile((1, 1), "red", "fortress")
    battle = the_battle(run(data))
    assert battle["siege"] is None


def test_oa14_a_siege_the_admin_settles_as_a_simple_battle_stops_being_one():
    """The siege at blue's fortress cannot be scheduled; the admin resolves it as a simple
    land battle: its kind is simple and it is no longer a siege."""
    handed_off = run(assault("fortress"))
    after = report(handed_off, {"hex": [1, 1], "resolve": "simple"}, dice=[4, 3, *ROLL_OFF])
    battle = the_battle(after)
    assert battle["kind"] == "simple"
    assert "siege" not in battle


def test_oa14_the_sieges_option_writes_a_null_siege_on_an_ordinary_tabletop_battle():
    """With `sieges` on, every pitched battle handed to the tabletop says whether it is a
    siege; a battle in the open says null."""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        options=SIEGES,
        dice=[4, 4],
    )
    assert the_battle(run(data))["siege"] is None


def test_army_limits_common_deck_and_sieges_together_on_one_card():
    """army_limits, common_deck and sieges together on a siege at blue's fortress: the card
    carries the limits, the strategy cards of OA13 and the stone works."""
    data = assault("fortress")
    data["options"] |= {**LIMITS, **DECK}
    for each in data["armies"]:
        each["licence"] = []
    battle = the_battle(run(data))
    assert battle["siege"] == {"side": "blue", "works": "stone"}
    assert [s["strategy_cards"] for s in battle["sides"]] == [1, 1]
    assert side(battle, "red")["limits"] == {"monsters": 0, "war_engines": 0}


def test_oa3_licences_are_public_and_worth_no_might():
    """Two positions alike but for red's licences: the kingdoms' might is the same."""
    plain = run(building(buy(), gold=0, food=2, options=LIMITS,
                         armies=[army("red-1", (0, 0), licence=[])]))  # fmt: skip
    licensed = run(building(buy(), gold=0, food=2, options=LIMITS,
                            armies=[army("red-1", (0, 0), licence=["monsters"])]))  # fmt: skip
    assert licensed["scores"] == plain["scores"]
    assert licence(licensed, "red-1") == ["monsters"]


def test_oa12_the_condition_is_the_tiles_roll_not_a_draw():
    """With `common_deck` the battle's condition is still B6's roll on the tile's
    battlefield type (Lowland plains, die 6: Scouting Failure), and the scenario its die."""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        options=DECK,
        dice=[6, 4],
    )
    battle = the_battle(run(data))
    assert (battle["condition"], battle["scenario"]) == ("Scouting Failure", "Pillage!")


# === wizards: OA4, OA5 (towers) ================================================================

WIZARDS = {"wizards": True}


def exploring(dice: list[int], **extra: Any) -> Json:
    """Red's army at [2, 0], red's, moves into the unexplored [3, 0]; blue stands far off.
    The month ends with the reform's roll-off (one army each, R3)."""
    return position(
        tiles=[tile((2, 0), "red"), tile((-3, 0), "blue")],
        armies=[army("red-1", (2, 0)), army("blue-1", (-3, 0))],
        inputs=orders(red=[move("red-1", (3, 0))], blue=[order("blue-1", "defend")]),
        options=WIZARDS,
        dice=[*dice, *ROLL_OFF],
        **extra,
    )


def test_oa4_oa5_example_1_doubles_twice_raise_a_tower_and_the_army_stays():
    """Dice 4, 4, then 2, 2: [3, 0] becomes a Wizard's tower, never explored; red-1 stays
    in [2, 0], upright, as if it had not moved."""
    after = run(exploring([4, 4, 2, 2]))
    assert after["towers"] == [[3, 0]]
    assert tile_at(after, (3, 0)) is None
    assert at(after, "red-1") == [2, 0]
    assert unit(after, "red-1")["upright"] is True  # type: ignore[index]
    (raised,) = events(after, "tower-raised")
    assert (raised["unit"], raised["hex"], raised["dice"]) == ("red-1", [3, 0], [4, 4, 2, 2])
    assert events(after, "explored") == []
    assert after["dice"] == []


def test_oa4_example_1_doubles_then_no_doubles_the_first_result_stands():
    """Dice 4, 4, then 1, 3: the first result stands, a village (8) of red's; all four dice
    are recorded with the exploration."""
    after = run(exploring([4, 4, 1, 3]))
    assert after["towers"] == []
    assert tile_at(after, (3, 0)) == tile((3, 0), "red", "village")
    assert at(after, "red-1") == [3, 0]
    (explored,) = events(after, "explored")
    assert explored["dice"] == [4, 4, 1, 3]


def test_oa4_no_doubles_no_more_dice():
    """Dice 2, 5: an empty tile; no more dice are rolled."""
    after = run(exploring([2, 5]))
    assert tile_at(after, (3, 0)) == tile((3, 0), "red")
    assert after["dice"] == []


def test_oa4_without_the_option_doubles_roll_no_more():
    data = exploring([4, 4])
    data["options"].pop("wizards")
    after = run(data)
    assert tile_at(after, (3, 0)) == tile((3, 0), "red", "village")
    assert "towers" not in after


def test_oa5_a_tower_on_forest_lays_nobody_down():
    """[3, 0] is forest; it becomes a tower: red-1 never entered it, so it does not lie down
    at the reform (R1)."""
    after = run(exploring([6, 6, 3, 3], map=make_map(terrain={(3, 0): "forest"})))
    assert after["towers"] == [[3, 0]]
    assert unit(after, "red-1")["upright"] is True  # type: ignore[index]


def test_oa5_a_move_into_a_tower_is_refused_when_given():
    """Red orders red-1 into the tower at [3, 0]: refused as given, naming the order and the
    unit."""
    refused = refusal(exploring([], towers=[[3, 0]]))
    assert refused.as_dict() == {
        "code": "move-into-tower",
        "field": "inputs.orders.red[0].to",
        "message": "red-1 can't enter [3, 0]: nobody enters a Wizard's tower (option OA5).",
        "unit": "red-1",
    }


def test_oa5_a_tower_risen_earlier_in_the_month_stops_a_later_move():
    """Red's red-1 raises a tower at [3, 0]; blue's blue-1, at [4, 0], ordered before the
    tower rose to move there, resolves later and stays where it is."""
    data = position(
        tiles=[tile((2, 0), "red"), tile((4, 0), "blue")],
        armies=[army("red-1", (2, 0)), army("blue-1", (4, 0))],
        inputs=orders(red=[move("red-1", (3, 0))], blue=[move("blue-1", (3, 0))]),
        options=WIZARDS,
        map=make_map(4),
        dice=[5, 5, 1, 1, *ROLL_OFF],
    )
    after = run(data)
    assert after["towers"] == [[3, 0]]
    assert at(after, "blue-1") == [4, 0]
    assert happened(after, "tower-blocked") == [
        {"type": "tower-blocked", "unit": "blue-1", "kingdom": "blue", "hex": [3, 0]}
    ]


def test_oa5_the_order_choices_never_offer_a_tower():
    from campaign.rules.fileformat import parse_campaign
    from campaign.rules.orders import order_choices

    state = parse_campaign(exploring([], towers=[[3, 0]]))
    assert (3, 0) not in order_choices(state, "red-1").moves
    assert (1, 0) in order_choices(state, "red-1").moves


def at_sea(data: Json, where: list[int]) -> None:
    """The map's tile at `where` is ocean."""
    for map_tile in data["map"]["tiles"]:
        if map_tile["hex"] == where:
            map_tile["terrain"] = "ocean"


@pytest.mark.parametrize(
    ("change", "code", "field", "message"),
    [
        (
            lambda d: d["tiles"].append(tile((3, 0), "red")),
            "tower-explored",
            "towers[0]",
            "[3, 0] is a Wizard's tower: it is never explored (option OA5).",
        ),
        (
            lambda d: d["armies"].append(army("red-2", (3, 0))),
            "unit-in-tower",
            "towers[0]",
            "A unit stands in the Wizard's tower [3, 0]: none ever enters one (option OA5).",
        ),
        (
            lambda d: at_sea(d, [3, 0]),
            "off-map",
            "towers[0]",
            "A tower stands on land: [3, 0] is not.",
        ),
        (  # the towers in their order: [3, 0], then [9, 9], off the map
            lambda d: d["towers"].insert(0, [9, 9]),
            "off-map",
            "towers[1]",
            "A tower stands on land: [9, 9] is not.",
        ),
        (
            lambda d: d["options"].pop("wizards"),
            "option-off",
            "towers",
            "'towers' belongs to the option wizards, which is off in this campaign (rule OG1).",
        ),
    ],
)
def test_oa5_a_file_with_a_tower_where_none_can_be_is_refused(change, code, field, message):
    """A tower at [3, 0] stands on land, unexplored and empty: a file that has it explored,
    with a unit in it, at sea, or another off the map (or towers without the option) is
    refused, naming the tower in the towers' order."""
    data = exploring([], towers=[[3, 0]])
    data["inputs"] = {}
    change(data)
    assert refusal(data).as_dict() == {"code": code, "field": field, "message": message}


# === wizards: OA8 (the pool) ===================================================================


def test_oa8_with_the_option_on_and_no_pool_listed_the_forty_are_free():
    """A file with `wizards` on and no `artefacts` has Kings of War's forty magical
    artefacts, all free, in the rulebook's order, and writes them out."""
    after = run(exploring([2, 5]))
    assert len(after["artefacts"]) == 40
    assert after["artefacts"][0] == {"name": "Blade of Slashing", "points": 5, "holder": None}
    assert after["artefacts"][-1]["name"] == "Crystal Pendant of Retribution"
    assert all(a["holder"] is None for a in after["artefacts"])


def test_oa8_a_pool_listed_is_kept_an_empty_one_is_a_campaign_without_artefacts():
    pool = [
        {"name": "A", "points": 25, "holder": None},
        {"name": "B", "points": 30, "holder": {"kingdom": "red", "army": None}},
    ]
    assert run(exploring([2, 5], artefacts=pool))["artefacts"] == pool
    assert run(exploring([2, 5], artefacts=[]))["artefacts"] == []


@pytest.mark.parametrize(
    ("artefacts", "code", "field", "message"),
    [
        ([{"name": "A", "points": 25}, {"name": "A", "points": 30}], "duplicate-artefact",
         "artefacts[1].name", "The artefact 'A' is listed twice: each exists once (option OA8)."),
        ([{"name": "A", "points": 55}], "out-of-range", "artefacts[0].points",
         "artefacts[0].points must be a whole number from 5 to 50, not 55."),
        ([{"name": "A", "points": 25, "holder": {"kingdom": "green"}}], "unknown-kingdom",
         "artefacts[0].holder.kingdom", "There is no kingdom 'green'."),
        ([{"name": "A", "points": 25, "holder": {"kingdom": "red", "army": "blue-1"}}],
         "unknown-unit", "artefacts[0].holder.army", "red has no army 'blue-1' to hold A."),
        ([{"name": "A", "points": 25, "holder": {"kingdom": "red", "army": "red-9"}}],
         "unknown-unit", "artefacts[0].holder.army", "red has no army 'red-9' to hold A."),
    ],
)  # fmt: skip
def test_oa8_a_pool_the_rules_cannot_make_is_refused_by_field(artefacts, code, field, message):
    """A pool with an artefact twice, of too many points, held by no kingdom, or on an army
    that is not its holder's (another's, or none) is refused, saying so."""
    refused = refusal(exploring([2, 5], artefacts=artefacts))
    assert refused.as_dict() == {"code": code, "field": field, "message": message}


def test_oa8_the_pool_of_an_option_that_is_off_is_refused():
    data = exploring([2, 5], artefacts=[])
    data["options"].pop("wizards")
    assert refusal(data).code == "option-off"


def test_oa10_an_army_disbanded_leaves_its_artefact_at_the_capital_or_to_the_pool():
    """At the winter's purchases red disbands red-2, which carries the artefact A: A goes to
    red's capital, secretly (no event names the army). Were red without a capital, A would
    go back to the pool, and that is told."""
    pool = [{"name": "A", "points": 25, "holder": {"kingdom": "red", "army": "red-2"}}]
    data = building(
        buy(red=[{"disband": "red-2"}]),
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0))],
        food=2,
        options=WIZARDS,
        artefacts=pool,
    )
    after = run(data)
    assert after["artefacts"] == [
        {"name": "A", "points": 25, "holder": {"kingdom": "red", "army": None}}
    ]
    assert events(after, "artefact-returned") == []
    homeless = building(
        buy(red=[{"disband": "red-2"}]),
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0))],
        food=2,
        options=WIZARDS,
        artefacts=pool,
        capitals={"blue": (-3, 3)},
    )
    after = run(homeless)
    assert after["artefacts"][0]["holder"] is None
    (returned,) = events(after, "artefact-returned")
    assert returned == {**returned, "artefact": "A", "kingdom": "red"}
    assert "army" not in returned


# === OG2 random picks ==========================================================================


@pytest.mark.parametrize(
    ("n", "dice", "picked"),
    [
        (1, [], 1),  # one candidate: no dice
        (3, [5, 2], 2),  # the document's example: 5 is past 3, rolled again; 2: the second
        (10, [3, 2], 9),  # two dice: 1 + 2 + 6 = the ninth
        (10, [6, 6, 1, 1], 1),  # 36 is past 10: both again
    ],
)
def test_og2_a_random_pick_among_n_candidates(n, dice, picked):
    from campaign.rules.picks import random_pick

    rolls = iter(dice)
    assert random_pick(list(range(1, n + 1)), lambda: next(rolls)) == picked
    assert next(rolls, None) is None  # every die scripted was used, and no more


@pytest.mark.parametrize(
    ("n", "dice", "picked"),
    [
        (6, [6], 6),  # six: one die is enough (6**1 >= 6)
        (7, [1, 2], 7),  # seven: two dice, 1 + 0 + 6 = the seventh
        (36, [6, 6], 36),  # thirty-six: still two dice, 1 + 5 + 30
        (37, [1, 1, 2], 37),  # thirty-seven: three dice, 1 + 0 + 0 + 36
    ],
)
def test_og2_a_pick_rolls_the_fewest_dice_whose_6_to_the_k_reaches_n(n, dice, picked):
    """OG2's k is the least with 6**k >= n: at 6, 7, 36 and 37 candidates, the last is
    picked with exactly k dice, the first die lowest."""
    from campaign.rules.picks import random_pick

    rolls = iter(dice)
    assert random_pick(list(range(1, n + 1)), lambda: next(rolls)) == picked
    assert next(rolls, None) is None  # every die scripted was used, and no more


# === wizards: OA6, OA7 (quests) ================================================================

QUEST_POOL = [
    {"name": "Small", "points": 10, "holder": None},
    {"name": "A", "points": 25, "holder": None},
    {"name": "B", "points": 30, "holder": None},
    {"name": "C", "points": 20, "holder": None},
    {"name": "Held", "points": 40, "holder": {"kingdom": "blue", "army": None}},
]


def questing(
    *purchases: Json, pool: list[Json] | None = None, dice: list[int], **extra: Any
) -> Json:
    """At the build step of year 1, red controls [2, 0] beside the Wizard's tower at
    [3, 0] and has an army at its capital [0, 0]."""
    return building(
        buy(red=list(purchases)),
        tiles=[tile((2, 0), "red")],
        armies=[army("red-1", (0, 0))],
        food=1,
        options=WIZARDS,
        towers=[[3, 0]],
        artefacts=QUEST_POOL if pool is None else pool,
        dice=dice,
        **extra,
    )


def quest(hero: str = "Ser Brand", points: int = 160, tower: Hex = (3, 0)) -> Json:
    return {"quest": list(tower), "hero": hero, "points": points}


def holder(data: Json, name: str) -> Json | None:
    found: Json | None = next(a for a in data["artefacts"] if a["name"] == name)["holder"]
    return found


def test_oa6_oa7_example_2_a_quest_wins_an_artefact_of_its_band_at_the_capital():
    """Ser Brand (160 points) quests at the tower: die 4 + 1 = 5, the band 20-30; free there
    in pool order A (25), B (30), C (20); pick dice 5 (past 3: again), 2: B, held at red's
    capital. The quest is free and public."""
    after = run(questing(quest(), dice=[4, 5, 2], gold=1))
    assert holder(after, "B") == {"kingdom": "red", "army": None}
    assert [holder(after, n) for n in ("A", "C", "Small")] == [None, None, None]
    (told,) = events(after, "quest")
    assert (told["hero"], told["points"], told["result"], told["artefact"]) == (
        "Ser Brand", 160, 5, "B",
    )  # fmt: skip
    assert told["dice"] == [4, 5, 2]  # the quest's die, then the pick's
    assert kingdom(after, "red")["gold"] == 1  # free


@pytest.mark.parametrize(("die", "outcome"), [(1, "lost"), (2, "hurt"), (3, "nothing")])
def test_oa7_a_low_roll_finds_no_artefact(die, outcome):
    """A hero of 0 points: the die alone decides; 1 to 3 find nothing and roll no more."""
    after = run(questing(quest(points=0), dice=[die]))
    (told,) = events(after, "quest")
    assert (told["outcome"], told["artefact"]) == (outcome, None)
    assert all(a["holder"] is None for a in after["artefacts"] if a["name"] != "Held")


def test_oa7_with_its_band_held_the_search_goes_lower_then_higher():
    """Die 6 with 0 points: the band 35-50, whose only artefact is held; the lower band
    20-30 has A, B and C: pick die 1, the first of them (A)."""
    after = run(questing(quest(points=0), dice=[6, 1]))
    assert holder(after, "A") == {"kingdom": "red", "army": None}


@pytest.mark.parametrize(("die", "points", "score"), [(6, 0, 6), (5, 200, 7)])
def test_oa7_a_score_of_6_or_more_finds_a_free_artefact_of_35_to_50_points(die, points, score):
    """Die 6 with 0 points (a score of 6), or die 5 with 200 points (7, past the top band):
    the band 35-50, where Found (45) is free beside the held Held (40), wins over the free
    A, B and C of 20-30; Found, alone in its band, is taken without a pick die."""
    pool: list[Json] = [*QUEST_POOL, {"name": "Found", "points": 45, "holder": None}]
    after = run(questing(quest(points=points), pool=pool, dice=[die]))
    assert holder(after, "Found") == {"kingdom": "red", "army": None}
    assert [holder(after, n) for n in ("A", "B", "C", "Small")] == [None] * 4
    (told,) = events(after, "quest")
    assert (told["result"], told["artefact"], told["dice"]) == (score, "Found", [die])


def test_oa7_with_every_lower_band_held_the_search_goes_higher():
    """Die 4 (5-15 points) with only a 25-point artefact free: found in the next band up."""
    pool = [{"name": "Small", "points": 10, "holder": {"kingdom": "blue", "army": None}},
            {"name": "A", "points": 25, "holder": None}]  # fmt: skip
    after = run(questing(quest(points=0), pool=pool, dice=[4]))
    assert holder(after, "A") == {"kingdom": "red", "army": None}


def test_oa7_a_kingdom_without_a_capital_keeps_its_find_on_its_first_army():
    after = run(questing(quest(points=0), dice=[5, 1], capitals={"blue": (-3, 3)}))
    assert holder(after, "A") == {"kingdom": "red", "army": "red-1"}


@pytest.mark.parametrize(
    ("purchases", "tiles", "armies", "reason"),
    [
        ([quest()], [], None, "controls no tile next to the Wizard's tower"),
        ([quest()], None, [], "has no army to send on a quest"),
        ([quest(), quest(hero="Ser Other")], None, None, "has sent a quest to the tower"),
    ],
)
def test_oa6_a_quest_not_allowed_at_its_moment_is_skipped(purchases, tiles, armies, reason):
    """Red's quests are skipped, with the reason, when it borders no tower tile, has no
    army, or sends a second quest to the same tower."""
    data = questing(*purchases, dice=[1, 1])
    if tiles is not None:
        data["tiles"] = [t for t in data["tiles"] if t["hex"] != [2, 0]]
    if armies is not None:
        data["armies"] = [a for a in data["armies"] if a["kingdom"] != "red"]
        data["kingdoms"][0]["food"] = 0
    after = run(data)
    assert any(reason in e["reason"] for e in events(after, "purchase-skipped"))


def test_oa6_a_hero_goes_on_one_quest_a_winter():
    """Red sends Ser Brand to two towers: the second is skipped."""
    data = questing(quest(), quest(tower=(2, 1)), dice=[1])
    data["towers"].append([2, 1])
    after = run(data)
    (skipped,) = events(after, "purchase-skipped")
    assert "Ser Brand has gone on a quest this winter already" in skipped["reason"]
    # the skipped quest is named as the winter page lists it: its tower, its hero, his points
    assert (skipped["kingdom"], skipped["purchase"]) == (
        "red",
        {"kind": "quest", "hex": [2, 1], "hero": "Ser Brand", "points": 160},
    )


def two_questing(red: list[Json], blue: list[Json]) -> Json:
    """At the build step, red's [2, 0] (a fortress) and blue's [3, -1] are both beside the
    tower at [3, 0]; [2, 1] is a tower beside red's too. Each kingdom has an army."""
    return building(
        buy(red=red, blue=blue),
        tiles=[tile((2, 0), "red", "fortress"), tile((3, -1), "blue")],
        armies=[army("red-1", (0, 0))],
        food=4,
        gold=4,
        options=WIZARDS,
        towers=[[3, 0], [2, 1]],
        artefacts=QUEST_POOL,
        dice=[3, 3, 3, 3, 3, 3],
    )


def test_oa6_a_hero_and_a_tower_are_each_kingdoms_own():
    """Red and blue each send a Ser Brand to the tower at [3, 0]: both go, for another
    kingdom's quests never use up a kingdom's hero or tower."""
    after = run(two_questing([quest()], [quest()]))
    assert [(q["kingdom"], q["hero"], q["tower"]) for q in events(after, "quest")] == [
        ("red", "Ser Brand", [3, 0]),
        ("blue", "Ser Brand", [3, 0]),
    ]
    assert events(after, "purchase-skipped") == []


def test_oa6_a_hero_goes_on_one_quest_a_winter_whatever_was_bought_before():
    """Red raises an army at its fortress, then sends Ser Brand to [3, 0] and again to
    [2, 1]: the army and the first quest are bought, the second quest is skipped."""
    after = run(two_questing([recruit((2, 0)), quest(), quest(tower=(2, 1))], []))
    assert len([a for a in after["armies"] if a["kingdom"] == "red"]) == 2
    assert [q["tower"] for q in events(after, "quest")] == [[3, 0]]
    assert [s["reason"] for s in events(after, "purchase-skipped")] == [
        "Ser Brand has gone on a quest this winter already."
    ]


RED_QUEST = "inputs.purchases.red[0]"
ONLY_ITS_OWN = "A quest names its tower, its hero and his points only."


@pytest.mark.parametrize(
    ("purchase", "code", "field", "message"),
    [
        (
            quest(points=1001),
            "out-of-range",
            f"{RED_QUEST}.points",
            f"{RED_QUEST}.points must be a whole number from 0 to 1000, not 1001.",
        ),
        (
            quest(points=-1),
            "out-of-range",
            f"{RED_QUEST}.points",
            f"{RED_QUEST}.points must be a whole number from 0 to 1000, not -1.",
        ),
        (
            {"quest": [3, 0], "points": 100},
            "missing-field",
            f"{RED_QUEST}.hero",
            "A quest needs 'hero'.",
        ),
        (
            {"quest": [3, 0], "hero": "Ser Brand"},
            "missing-field",
            f"{RED_QUEST}.points",
            "A quest needs 'points'.",
        ),
        (quest(hero="   "), "bad-purchase", f"{RED_QUEST}.hero", "A quest's hero has a name."),
        ({**quest(), "hex": [3, 0]}, "bad-purchase", RED_QUEST, ONLY_ITS_OWN),
        ({**quest(), "ally": "blue"}, "bad-purchase", RED_QUEST, ONLY_ITS_OWN),
        (
            quest(tower=(1, 1)),
            "unknown-tower",
            f"{RED_QUEST}.quest",
            "No Wizard's tower stands at [1, 1] (option OA6).",
        ),
    ],
)
def test_oa6_a_malformed_quest_refuses_the_file(purchase, code, field, message):
    """Settled points of part A: a malformed quest refuses the file, saying what is wrong
    where."""
    refused = refusal(questing(purchase, dice=[]))
    assert refused.as_dict() == {"code": code, "field": field, "message": message}


@pytest.mark.parametrize(
    ("hero", "points", "pool", "dice", "told"),
    [
        ("  Ser Brand ", 160, None, [4, 5, 2], ("Ser Brand", 160, 5, "artefact", "B")),
        ("Ser Brand", 0, None, [4], ("Ser Brand", 0, 4, "artefact", "Small")),
        ("Ser Brand", 1000, None, [4, 5, 2], ("Ser Brand", 1000, 14, "artefact", "B")),
        ("Ser Brand", 160, [], [4], ("Ser Brand", 160, 5, "nothing left", None)),
    ],
)
def test_oa6_a_quest_names_its_hero_as_written_and_takes_points_from_0_to_1000(
    hero, points, pool, dice, told
):
    """The hero is named without the spaces around his name; 0 and 1000 points are within
    the range a quest takes (the die adds a point a hundred: 4 + 0, 4 + 10). A quest whose
    band holds no free artefact finds nothing left."""
    data = questing(quest(hero=hero, points=points), pool=pool, dice=dice, gold=1)
    (found,) = events(run(data), "quest")
    assert tuple(found[k] for k in ("hero", "points", "result", "outcome", "artefact")) == told


def held(name: str, kingdom_id: str = "red", army_id: str | None = None, points: int = 25) -> Json:
    return {"name": name, "points": points, "holder": {"kingdom": kingdom_id, "army": army_id}}


def free(name: str, points: int) -> Json:
    return {"name": name, "points": points, "holder": None}


@pytest.mark.parametrize(
    ("pool", "die", "found"),
    [
        # 4: the band 5-15 has nothing free; the next band up, 20-30, before 35-50
        ([held("Small", "blue", points=10), free("A", 25), free("Big", 40)], 4, "A"),
        # each band holds its bounds: 5 and 15 points in 5-15, 20 in 20-30, 50 in 35-50
        ([free("Tiny", 5)], 4, "Tiny"),
        ([free("Edge", 15)], 4, "Edge"),
        ([held("A", "blue", points=25), free("C", 20), held("Big", "blue", points=40)], 5, "C"),
        ([free("Top", 50)], 6, "Top"),
    ],
)
def test_oa7_a_quest_searches_its_band_then_each_lower_then_each_higher(pool, die, found):
    """OA7 and its settled band search: a hero of 0 points rolls `die`; a lone free
    artefact of a band is found without a pick die."""
    after = run(questing(quest(points=0), pool=pool, dice=[die], gold=1))
    (told,) = events(after, "quest")
    assert (told["result"], told["outcome"], told["artefact"]) == (die, "artefact", found)


def test_oa6_oa9_a_file_writes_its_quests_and_artefact_entries_as_it_read_them():
    """The campaign file format: a winter's quests (one of 0 points) and a deploy list's
    artefact entries (one on an army, one at the capital) come out of the engine's writer
    as they went in."""
    questing_file = questing(quest(), quest(hero="Dame Ysolde", points=0), dice=[])
    placing_file = deploying_artefacts(
        [held("X"), held("Y")],
        [{"artefact": "X", "army": "red-1"}, {"artefact": "Y", "army": None}],
    )
    for data, key in ((questing_file, "purchases"), (placing_file, "deploy")):
        written = dump_campaign(parse_campaign(data), [])
        assert written["inputs"][key] == data["inputs"][key], key  # type: ignore[index]


def test_oa6_a_bot_sends_a_hero_to_each_tower_beside_its_tiles_while_it_has_an_army():
    """The bots' quests (`simulate`): red, whose [2, 0] is beside the tower at [3, 0] (not
    the one at [-2, 2], beside blue's capital), sends "Hero 1 of Red" there with 0, 100,
    200 or 300 points; blue sends "Hero 1 of Blue" to [-2, 2]. A kingdom without an army
    sends none."""
    data = questing(dice=[])
    data["towers"].append([-2, 2])
    campaign = parse_campaign(data)
    sent = [optional.bot_purchases(campaign, "red", random.Random(seed)) for seed in range(20)]
    assert {(q["hero"], tuple(q["quest"])) for quests in sent for q in quests} == {
        ("Hero 1 of Red", (3, 0))
    }
    assert {q["points"] for quests in sent for q in quests} == {0, 100, 200, 300}
    (blues,) = optional.bot_purchases(campaign, "blue", random.Random(1))
    assert (blues["hero"], blues["quest"]) == ("Hero 1 of Blue", [-2, 2])
    for kingdom_id in ("red", "blue"):
        data["armies"] = [a for a in data["armies"] if a["kingdom"] != kingdom_id]
        unarmed = parse_campaign(data)
        assert optional.bot_purchases(unarmed, kingdom_id, random.Random(1)) == [], kingdom_id


def test_oa6_a_quest_without_the_option_is_refused():
    data = questing(quest(), dice=[])
    data["options"].pop("wizards")
    data.pop("towers")
    data.pop("artefacts")
    assert refusal(data).code == "option-off"


# === wizards: OA9 (placing artefacts, secretly) ================================================


def deploying_artefacts(pool: list[Json], entries: list[Json], **extra: Any) -> Json:
    """Red's two armies wait at its capital [0, 0] at the deploy step; red's list places
    them there, with `entries` for its artefacts."""
    placements = [{"army": "red-1", "hex": [0, 0]}, {"army": "red-2", "hex": [0, 0]}]
    return deploying(
        [army("red-1", (0, 0)), army("red-2", (0, 0))],
        inputs={"deploy": {"red": [*placements, *entries]}},
        options=WIZARDS,
        artefacts=pool,
        dice=[],
        **extra,
    )


def test_oa9_a_kingdom_places_its_artefacts_on_its_armies_or_at_its_capital():
    pool = [held("A"), held("B", army_id="red-1")]
    entries: list[Json] = [{"artefact": "A", "army": "red-2"}, {"artefact": "B", "army": None}]
    after = run(deploying_artefacts(pool, entries))
    assert [a["holder"] for a in after["artefacts"]] == [
        {"kingdom": "red", "army": "red-2"},
        {"kingdom": "red", "army": None},
    ]


def test_oa9_an_artefacts_entry_may_come_before_the_armies_placements():
    """Red's list names A's army first, then sends red-1 to its village [1, 0]: the
    placement after the artefact's entry holds (W7), and A goes on red-2."""
    data = deploying(
        [army("red-1", (0, 0)), army("red-2", (0, 0))],
        tiles=[tile((1, 0), "red", "village")],
        inputs={"deploy": {"red": [{"artefact": "A", "army": "red-2"}, place("red-1", (1, 0))]}},
        options=WIZARDS,
        artefacts=[held("A")],
        dice=[],
    )
    after = run(data)
    assert [(a["id"], a["hex"]) for a in after["armies"] if a["kingdom"] == "red"] == [
        ("red-1", [1, 0]),
        ("red-2", [0, 0]),
    ]
    assert after["artefacts"][0]["holder"] == {"kingdom": "red", "army": "red-2"}


def test_oa9_defaults_same_army_else_the_first_army():
    """Not listed: A stays on red-2, which still exists; B, at the capital, goes to the
    first army, red-1."""
    pool = [held("A", army_id="red-2"), held("B")]
    after = run(deploying_artefacts(pool, []))
    assert [a["holder"]["army"] for a in after["artefacts"]] == ["red-2", "red-1"]


def test_oa9_without_an_army_at_the_capital_without_a_capital_to_the_pool():
    """Blue, with no army, keeps C at its capital; with no capital either, C returns to
    the pool."""
    pool = [held("C", kingdom_id="blue")]
    after = run(deploying_artefacts(pool, []))
    assert after["artefacts"][0]["holder"] == {"kingdom": "blue", "army": None}
    homeless = run(deploying_artefacts(pool, [], capitals={"red": (0, 0)}))
    assert homeless["artefacts"][0]["holder"] is None


def not_held(name: str) -> str:
    return f"red holds no artefact {name!r} to place (option OA9)."


def not_its_army(army_id: str) -> str:
    return (
        f"{army_id} is not an army of red: an artefact goes on one of its own armies or at its"
        " capital (option OA9)."
    )


@pytest.mark.parametrize(
    ("entries", "code", "field", "message"),
    [
        ([{"artefact": "Z", "army": "red-1"}], "artefact-not-yours", "[2].artefact", not_held("Z")),
        # blue's
        ([{"artefact": "C", "army": "red-1"}], "artefact-not-yours", "[2].artefact", not_held("C")),
        (
            [{"artefact": "A", "army": "blue-1"}],
            "artefact-not-your-army",
            "[2].army",
            not_its_army("blue-1"),
        ),
        (
            [{"artefact": "A", "army": "red-9"}],
            "artefact-not-your-army",
            "[2].army",
            not_its_army("red-9"),
        ),
        (  # placed twice: the second finds it placed already
            [{"artefact": "A", "army": "red-1"}, {"artefact": "A", "army": None}],
            "artefact-not-yours",
            "[3].artefact",
            not_held("A"),
        ),
    ],
)
def test_oa9_a_placement_the_rules_refuse_is_refused_naming_it(entries, code, field, message):
    """Red holds A; blue holds C and has blue-1. Red's list places an artefact it does not
    hold, one on another kingdom's army or on no army, or A twice."""
    data = deploying_artefacts([held("A"), held("C", kingdom_id="blue")], entries)
    data["armies"].append(army("blue-1", (-3, 3)))
    assert refusal(data).as_dict() == {
        "code": code,
        "field": f"inputs.deploy.red{field}",
        "message": message,
    }


def test_oa9_where_an_artefact_is_placed_is_told_in_no_event():
    pool = [held("Secret Ring")]
    after = run(deploying_artefacts(pool, [{"artefact": "Secret Ring", "army": "red-2"}]))
    assert "Secret Ring" not in str(after["events"])


def test_oa9_the_tabletop_card_shows_both_sides_the_artefacts_in_the_battle():
    """Red-1 carries A, blue-1 carries B, C waits at red's capital: the handed-off battle's
    sides list A and B."""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        options=WIZARDS,
        artefacts=[held("A", army_id="red-1"), held("B", "blue", "blue-1"), held("C")],
        dice=[4, 4],
    )
    battle = the_battle(run(data))
    assert side(battle, "red")["artefacts"] == ["A"]
    assert side(battle, "blue")["artefacts"] == ["B"]


# === wizards: OA10 (captures) ==================================================================


def holders(data: Json) -> dict[str, Json | None]:
    return {a["name"]: a["holder"] for a in data["artefacts"]}


def test_oa10_example_3_a_simple_battle_takes_what_was_on_the_army_hit():
    """Simple battles. Blue-1 Defends (Defence 5), blue-2 does not (4) and carries X; Y is
    at blue's capital. Red's dice 6 and 6 go to blue-2 and hit; blue's 3 and 3 miss. Red
    wins: X goes to red-1, red's first army there; Y stays at blue's capital."""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), tile((-1, 0), "red"), tile((1, 0), "blue", "city")],
        armies=[
            army("red-1", (0, 0)),
            army("red-2", (0, 0)),
            army("blue-1", (0, 0), defending=True),
            army("blue-2", (0, 0)),
        ],
        capitals={"blue": (1, 0)},
        options={"battles": "simple", **WIZARDS},
        artefacts=[held("X", "blue", "blue-2"), held("Y", "blue")],
        dice=[6, 6, 3, 3, *ROLL_OFF],
    )
    after = run(data)
    assert the_battle(after)["winner"] == "red"
    assert holders(after) == {
        "X": {"kingdom": "red", "army": "red-1"},
        "Y": {"kingdom": "blue", "army": None},
    }
    (taken,) = events(after, "artefact-taken")
    assert (taken["artefact"], taken["from"], taken["to"]) == ("X", "blue", "red")


def test_oa10_a_simple_battle_won_by_the_defender_takes_what_was_on_the_attackers_army_hit():
    """Simple battles. Red picks [0, 0], blue's, where red-1 carries Z: red's die 1 misses,
    blue's 6 hits red-1. Blue, the defender, wins: Z goes to blue-1 (OA10)."""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        options={"battles": "simple", **WIZARDS},
        artefacts=[held("Z", "red", "red-1")],
        dice=[1, 6, *ROLL_OFF],
    )
    after = run(data)
    assert the_battle(after)["winner"] == "blue"
    assert happened(after, "artefact-taken") == [
        {"type": "artefact-taken", "artefact": "Z", "from": "red", "to": "blue", "hex": [0, 0]}
    ]
    assert holders(after) == {"Z": {"kingdom": "blue", "army": "blue-1"}}


def tabletop_win(captured: list[str]) -> Json:
    """Red's win is reported with what it `captured` (`tabletop_result`)."""
    return tabletop_result({"result": "win", "winner": "red", "captured": captured})


def handed_off_with_artefacts() -> Json:
    """The battle at [0, 0], blue's, handed off with B and D on blue-1 and C on red-1."""
    return run(
        at_battles(
            tiles=[tile((0, 0), "blue"), *HOMES],
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
            options=WIZARDS,
            artefacts=[
                held("B", "blue", "blue-1"),
                held("C", "red", "red-1"),
                held("D", "blue", "blue-1"),
            ],
            dice=[4, 4],
        )
    )


def tabletop_result(entry: Json) -> Json:
    """`handed_off_with_artefacts`, its result `entry` reported."""
    return report(handed_off_with_artefacts(), {"hex": [0, 0], **entry}, dice=[*ROLL_OFF])


def test_oa10_a_file_writes_a_results_captures_as_it_read_them():
    """The campaign file format: a result reported with what it captured is written back
    with it; one that captured nothing is written without the field."""
    for captured in (["B", "D"], []):
        entry = {"hex": [0, 0], "result": "win", "winner": "red", "captured": captured}
        data = handed_off_with_artefacts()
        data["inputs"] = {**data["inputs"], "battles": [entry]}
        (written,) = dump_campaign(parse_campaign(data), [])["inputs"]["battles"]  # type: ignore[index]
        expected = entry if captured else {k: v for k, v in entry.items() if k != "captured"}
        assert written == expected


def test_oa10_a_tabletop_win_takes_what_the_result_names():
    """Red's win names B, one of the two artefacts on blue-1: B goes to red-1, D stays."""
    after = tabletop_win(["B"])
    assert holders(after) == {
        "B": {"kingdom": "red", "army": "red-1"},
        "C": {"kingdom": "red", "army": "red-1"},
        "D": {"kingdom": "blue", "army": "blue-1"},
    }
    assert happened(after, "artefact-taken") == [
        {"type": "artefact-taken", "artefact": "B", "from": "blue", "to": "red", "hex": [0, 0]}
    ]


def test_oa10_a_tabletop_win_takes_nothing_it_does_not_name():
    after = tabletop_win([])
    assert holders(after)["B"] == {"kingdom": "blue", "army": "blue-1"}


@pytest.mark.parametrize(
    ("captured", "code", "message"),
    [
        (
            ["C"],
            "capture-not-in-battle",
            "C was not on the beaten side's armies in the battle at [0, 0]: only what its card"
            " lists can be captured (option OA10).",
        ),
        (
            ["Nowhere", "C"],
            "capture-not-in-battle",
            "Nowhere, C was not on the beaten side's armies in the battle at [0, 0]: only what"
            " its card lists can be captured (option OA10).",
        ),
        (["B", "B"], "bad-battle-input", "Each artefact is captured once."),
    ],
)
def test_oa10_a_capture_of_what_was_not_on_the_beaten_side_or_twice_is_refused(
    captured, code, message
):
    """Red's win names C (its own, on red-1), an artefact nobody holds, or B twice."""
    with pytest.raises(RuleError) as refused:
        tabletop_win(captured)
    field = "inputs.battles[0].captured"
    assert refused.value.as_dict() == {"code": code, "field": field, "message": message}


@pytest.mark.parametrize("entry", [{"result": "draw"}, {"concede": "blue"}])
def test_oa10_only_a_win_captures_artefacts(entry):
    """A draw, or a concession, reported with an artefact captured is refused."""
    with pytest.raises(RuleError) as refused:
        tabletop_result({**entry, "captured": ["B"]})
    assert refused.value.as_dict() == {
        "code": "unknown-field",
        "field": "inputs.battles[0].captured",
        "message": "Only a win captures artefacts.",
    }


def test_oa10_an_army_lost_after_a_draw_gives_nothing_to_an_earlier_winner_in_the_tile():
    """Simple battles, blue first in player order. Blue, red and green armies share [0, 0],
    green's; red-1 carries X. Blue beats green there (6 to 1) and takes the tile; red and
    blue then draw (1 and 1). Red-1 must leave blue's tile and has no tile of red's beside
    it: it is destroyed. Its battle was a draw, which nobody won, so X goes to the pool
    (OA10): blue's win over green earlier in the tile takes nothing of red's."""
    data = at_battles(
        kingdoms=("blue", "red", "green"),
        tiles=[tile((0, 0), "green"), tile((0, 1), "green"), tile((3, -3), "red"),
               tile((-3, 3), "blue")],
        armies=[army("blue-1", (0, 0)), army("red-1", (0, 0)), army("green-1", (0, 0))],
        options={"battles": "simple", **WIZARDS},
        artefacts=[held("X", "red", "red-1")],
        dice=[6, 1, 1, 1, 6, 1],
    )  # fmt: skip
    after = run(data)
    assert [(b["hex"], b["attacker"], b["defender"], b["winner"]) for b in after["battles"]] == [
        ([0, 0], "blue", "green", "blue"),
        ([0, 0], "red", "blue", None),
    ]
    assert unit(after, "red-1") is None
    assert happened(after, "artefact-taken") == [
        {"type": "artefact-taken", "artefact": "X", "from": "red", "to": None, "hex": [0, 0]}
    ]
    assert holders(after) == {"X": None}


def test_oa10_a_capture_is_judged_when_a_third_kingdom_waits_in_the_tile():
    """Red, blue and green armies share [0, 0], blue's; red picks first and fights blue
    there, handed off with C on red-1 (green's battle in the tile is still to come). Red's
    win is reported naming C, red's own: it is refused as it is applied (OA10), though the
    entry could have been for green's battle, and blue-1, beaten, would then have to say
    where it retreats ([0, 1] or [1, 0]) before anything else is fought."""
    handed_off = run(
        at_battles(
            kingdoms=("red", "blue", "green"),
            tiles=[tile((0, 0), "blue"), tile((0, 1), "blue"), *HOMES],
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("green-1", (0, 0))],
            options=WIZARDS,
            artefacts=[held("B", "blue", "blue-1"), held("C", "red", "red-1")],
            dice=[4, 4],
        )
    )
    with pytest.raises(RuleError) as refused:
        report(handed_off, {"hex": [0, 0], "result": "win", "winner": "red", "captured": ["C"]})
    assert refused.value.as_dict() == {
        "code": "capture-not-in-battle",
        "field": "inputs.battles[0].captured",
        "message": "C was not on the beaten side's armies in the battle at [0, 0]: only what "
        "its card lists can be captured (option OA10).",
    }


def test_oa10_a_capture_is_judged_as_it_is_reported_while_an_earlier_battle_waits():
    """Issue 35: red's battle at [0, 1] and blue's at [1, -1] are handed off together (B11);
    blue-2 carries D, red-2 carries E. Blue's win at [1, -1] is reported, naming D, its own,
    while [0, 1] still waits: it is refused now (B12, OA10), not once [0, 1]'s result has
    come in (when the campaign could only stop on it)."""
    handed_off = run(
        at_battles(
            inputs={"battle_choices": {"red": [[0, 1]]}},
            dice=[4, 4, 4, 4],
            options=WIZARDS,
            artefacts=[held("D", "blue", "blue-2"), held("E", "red", "red-2")],
            **TWO_TILES,
        )
    )
    assert [b["status"] for b in handed_off["battles"]] == ["awaiting_result"] * 2
    with pytest.raises(RuleError) as refused:
        report(handed_off, {"hex": [1, -1], "result": "win", "winner": "blue", "captured": ["D"]})
    assert refused.value.code == "capture-not-in-battle"
    assert refused.value.field == "inputs.battles[0].captured"
    waiting = report(
        handed_off, {"hex": [1, -1], "result": "win", "winner": "blue", "captured": ["E"]}
    )
    assert [b["status"] for b in waiting["battles"]] == ["awaiting_result"] * 2


def test_oa10_the_winner_of_a_slaughter_takes_what_the_slaughtered_army_carried():
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-10", (0, 0), upright=False)],
        options=WIZARDS,
        artefacts=[held("S", "blue", "blue-10")],
        dice=[*ROLL_OFF],
    )
    after = run(data)
    assert holders(after)["S"] == {"kingdom": "red", "army": "red-1"}


def test_oa10_an_army_lost_for_want_of_a_retreat_after_a_concession_gives_its_artefacts():
    """Blue, cut off with nowhere to retreat, concedes: its army is lost, and red, the
    winner, takes what it carried (all a concession gives)."""
    data = at_battles(
        inputs={"battles": [{"hex": [0, 0], "concede": "blue"}]},
        options=WIZARDS,
        artefacts=[held("K", "blue", "blue-1")],
        dice=[*ROLL_OFF],
        **OUTNUMBERED_AND_CUT_OFF,
    )
    after = run(data)
    assert unit(after, "blue-1") is None
    assert holders(after)["K"] == {"kingdom": "red", "army": "red-1"}


def test_oa10_an_army_lost_for_want_of_a_retreat_after_a_draw_leaves_its_artefacts_to_the_pool():
    """Simple battles. Red picks [2, -1], blue's, and beats blue-1 there (6 to 1); blue-1
    retreats to [3, -1]. Blue then picks [0, 0], red's, where blue-2 carries X: a draw (1 and
    1). Blue-2 must leave red's tile and has no tile of blue's beside it: it is destroyed.
    Nobody won that battle, so X goes to the pool (OA10); red's win at [2, -1] earlier this
    month gives red nothing at [0, 0]."""
    data = at_battles(
        tiles=[tile((0, 0), "red"), tile((-1, 0), "red"), tile((2, -1), "blue"),
               tile((3, -1), "blue")],
        armies=[army("red-1", (2, -1)), army("blue-1", (2, -1)), army("red-2", (0, 0)),
                army("blue-2", (0, 0))],
        inputs={"battle_choices": {"red": [[2, -1]]}},
        options={"battles": "simple", **WIZARDS},
        artefacts=[held("X", "blue", "blue-2")],
        dice=[6, 1, 1, 1],
    )  # fmt: skip
    after = run(data)
    assert [(b["hex"], b["winner"]) for b in after["battles"]] == [([2, -1], "red"), ([0, 0], None)]
    assert unit(after, "blue-2") is None
    assert happened(after, "artefact-taken") == [
        {"type": "artefact-taken", "artefact": "X", "from": "blue", "to": None, "hex": [0, 0]}
    ]
    assert holders(after) == {"X": None}


def test_oa10_a_capital_taken_gives_what_it_held_to_the_taker_and_a_razed_one_to_the_pool():
    """Red walks into blue's empty capital [2, 0], where blue keeps T: red takes the tile,
    and T goes to red-1 there."""
    data = position(
        tiles=[tile((1, 0), "red"), tile((2, 0), "blue", "city"), tile((2, -1), "blue")],
        capitals={"blue": (2, 0)},
        armies=[army("red-1", (1, 0)), army("blue-1", (2, -1))],
        inputs=orders(red=[move("red-1", (2, 0))], blue=[order("blue-1", "defend")]),
        options=WIZARDS,
        artefacts=[held("T", "blue")],
        dice=[*ROLL_OFF],
    )
    after = run(data)
    assert holders(after)["T"] == {"kingdom": "red", "army": "red-1"}


def test_oa10_a_capital_razed_sends_what_it_held_to_the_pool():
    """Red's army stands in blue's capital [2, 0], where no blue unit is, and razes it (O6):
    T, which blue kept there, returns to the pool."""
    data = position(
        tiles=[tile((1, 0), "red"), tile((2, 0), "blue", "city"), tile((2, -1), "blue")],
        armies=[army("red-1", (2, 0)), army("blue-1", (2, -1))],
        inputs=orders(red=[order("red-1", "raze")], blue=[order("blue-1", "defend")]),
        options=WIZARDS,
        artefacts=[held("T", "blue")],
        capitals={"blue": (2, 0)},
        dice=[*ROLL_OFF],
    )
    after = run(data)
    assert kingdom(after, "blue")["capital"] is None
    assert holders(after)["T"] is None


def test_oa9_an_artefacts_entry_names_no_tile():
    data = deploying_artefacts([held("A")], [{"artefact": "A", "army": "red-1", "hex": [0, 0]}])
    assert refusal(data).as_dict() == {
        "code": "bad-deploy",
        "field": "inputs.deploy.red[2]",
        "message": "An artefact's entry names the artefact and its army.",
    }
