"""Casebook for the battle arithmetic (rulings B6 to B9, D1): each test states a position
and the outcome the rules require. Dice are scripted: the picker is "red", the opponent
"blue", and `Dice` fails a test that rolls more dice than it scripted or leaves some unused.
"""

import re

import pytest

from campaign.rules.combat import (
    LandWaterBattle,
    NavalBattle,
    NavalShip,
    Side,
    SimpleBattle,
    army_defence,
    battle_points,
    board_size,
    defender_benefit,
    land_water_battle,
    natural_key,
    naval_battle,
    scenario,
    simple_land_battle,
    tile_condition,
)
from campaign.rules.hexmap import Battlefield


class Dice:
    """A scripted D6: returns the given faces in order, one per call."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.rolled: list[int] = []

    def __call__(self) -> int:
        assert self.faces, f"rolled more dice than scripted (after {self.rolled})"
        self.rolled.append(self.faces.pop(0))
        return self.rolled[-1]

    def all_used(self) -> bool:
        return not self.faces


def simple(picker: list[int], opponent: list[int], *faces: int) -> SimpleBattle:
    dice = Dice(*faces)
    battle = simple_land_battle(picker, opponent, dice)
    assert dice.all_used()
    return battle


def naval(
    picker: list[NavalShip], opponent: list[NavalShip], *faces: int, river: bool = False
) -> NavalBattle:
    dice = Dice(*faces)
    battle = naval_battle(picker, opponent, river=river, roll=dice)
    assert dice.all_used()
    return battle


def red(n: int, carrying: bool = False) -> NavalShip:
    return NavalShip(f"red-s{n}", carrying)


def blue(n: int, carrying: bool = False) -> NavalShip:
    return NavalShip(f"blue-s{n}", carrying)


def ids(ships: tuple[NavalShip, ...]) -> list[str]:
    return [ship.id for ship in ships]


# B6 Pitched battle: board, points, condition, scenario, defender benefit


@pytest.mark.parametrize(
    ("armies", "board"),
    [(1, "4x4"), (2, "4x4"), (3, "5x4"), (4, "6x4"), (5, "6x4"), (6, "8x4"), (7, "8x4")],
)
def test_b6_board_size_by_the_larger_side(armies, board):
    """The larger side brings `armies` upright armies: 1-2 play on 4x4, 3 on 5x4,
    4-5 on 6x4, 6 (the kingdom maximum, or more) on 8x4."""
    assert board_size(armies) == board


@pytest.mark.parametrize("armies", [0, -1])
def test_b6_board_size_needs_an_army(armies):
    """A pitched battle with no army on the larger side is refused."""
    with pytest.raises(ValueError, match="at least one army"):
        board_size(armies)


@pytest.mark.parametrize(("armies", "points"), [(1, 500), (2, 1000), (3, 1500), (6, 3000)])
def test_b6_battle_points_are_500_per_upright_army(armies, points):
    """A side of `armies` upright armies fields `points` points of Kings of War."""
    assert battle_points(armies) == points


CONDITION_TABLE = [
    (Battlefield.RIVER_VALLEY, (1, 2, 3), "Boggy Ground"),
    (Battlefield.RIVER_VALLEY, (4, 5, 6), "Clear Conditions"),
    (Battlefield.MOUNTAINS, (1, 2, 3), "Unstable Ground"),
    (Battlefield.MOUNTAINS, (4, 5, 6), "Clear Conditions"),
    (Battlefield.COASTAL, (1, 2, 3), "Reduced Visibility"),
    (Battlefield.COASTAL, (4, 5, 6), "Clear Conditions"),
    (Battlefield.LOWLAND_FORESTS, (1, 2, 3), "Reduced Visibility"),
    (Battlefield.LOWLAND_FORESTS, (4, 5, 6), "Clear Conditions"),
    (Battlefield.LOWLAND_PLAINS, (1,), "Passing Engagement"),
    (Battlefield.LOWLAND_PLAINS, (2, 3, 4, 5), "Clear Conditions"),
    (Battlefield.LOWLAND_PLAINS, (6,), "Scouting Failure"),
]


@pytest.mark.parametrize(
    ("battlefield", "die", "condition"),
    [(field, die, condition) for field, faces, condition in CONDITION_TABLE for die in faces],
)
def test_b6_tile_condition_table(battlefield, die, condition):
    """A pitched battle on a `battlefield` tile (ruling M6) whose condition die shows
    `die` is fought under `condition`, as the rulebook's tile terrain table says."""
    assert tile_condition(battlefield, die) == condition


def test_b6_tile_condition_table_covers_every_battlefield_and_face():
    """The casebook above has exactly one row for every battlefield and every face."""
    cases = [(field, die) for field, faces, _ in CONDITION_TABLE for die in faces]
    assert sorted(cases) == sorted((field, die) for field in Battlefield for die in range(1, 7))


@pytest.mark.parametrize("die", [0, 7])
def test_b6_tile_condition_refuses_a_die_that_is_no_d6(die):
    """A condition die of `die` is not a D6 face: refused."""
    with pytest.raises(ValueError, match="1 to 6"):
        tile_condition(Battlefield.LOWLAND_PLAINS, die)


MARGIN = "10% of the game size"


@pytest.mark.parametrize(
    ("die", "name", "scored_by", "margin"),
    [
        (1, "Kill!", "Routed", True),
        (2, "Invade!", "entirely in the enemy half", True),
        (3, "Dominate!", 'entirely within 12" of the centre', True),
        (4, "Pillage!", "D3+4 objectives", False),
        (5, "Loot!", "3 loot tokens", False),
        (6, "Kill and Pillage!", "Routed, plus 10% of the game size for each objective", True),
    ],
)
def test_b6_scenario_table(die, name, scored_by, margin):
    """A scenario die of `die` gives `name`, scored by `scored_by`; Kill!, Invade!,
    Dominate! and Kill and Pillage! need a lead of 10% of the game size, else a draw;
    Pillage! and Loot! are won by having more, equal is a draw."""
    rolled = scenario(die)
    assert rolled.name == name
    assert scored_by in rolled.how_to_win
    assert rolled.how_to_win.endswith("draw.")
    if margin:
        assert f"leads by at least {MARGIN}" in rolled.how_to_win
        assert "200 in a 2,000-point game" in rolled.how_to_win
    else:
        assert "equal is a draw" in rolled.how_to_win
        assert MARGIN not in rolled.how_to_win


@pytest.mark.parametrize("die", [0, 7])
def test_b6_scenario_refuses_a_die_that_is_no_d6(die):
    """A scenario die of `die` is not a D6 face: refused."""
    with pytest.raises(ValueError, match="1 to 6"):
        scenario(die)


@pytest.mark.parametrize(
    ("settlement", "benefit"),
    [
        (
            None,
            "Add, remove, or move 1 piece of terrain on the table to represent the defenders "
            "choosing the battle ground.",
        ),
        (
            "village",
            "May add up to 1 blocking or difficult ground terrain pieces (village buildings, "
            "fields, etc) and up to 2 obstacles anywhere on the board.",
        ),
        (
            "city",
            "May add up to 2 blocking or difficult ground terrain pieces (city buildings, "
            "vineyards, ponds, etc) and up to 2 obstacles anywhere on the board. In addition, "
            "the defender places 1 objective marker on their half of the board which is worth "
            "1 Victory Point for the side that controls it at the end of the game, in addition "
            "to the normal scenario scoring.",
        ),
        (
            "fortress",
            "May add up to 2 blocking or difficult ground terrain pieces (fortifications or "
            "other defences) and up to 4 obstacles anywhere on the board. In addition, the "
            "defender places 2 objective markers on their half of the board which are worth "
            "1 Victory Point each for the side that controls either or both of them at the "
            "end of the game, in addition to the normal scenario scoring.",
        ),
    ],
)
def test_b6_defender_benefit_table(settlement, benefit):
    """A side defending a tile with `settlement` (None: no settlement) gets the rulebook's
    Defended tiles benefit, word for word."""
    assert defender_benefit(settlement) == benefit


@pytest.mark.parametrize("settlement", ["capital", "City", "castle", ""])
def test_b6_defender_benefit_refuses_an_unknown_settlement(settlement):
    """Settlements are village, city (a capital is a city) or fortress: anything else
    is refused."""
    with pytest.raises(ValueError, match="no defended-tile benefit"):
        defender_benefit(settlement)


# B7 Simple land battle


@pytest.mark.parametrize(
    ("defends", "own_capital", "own_fortress", "defence"),
    [
        (False, False, False, 4),
        (True, False, False, 5),
        (False, True, False, 5),
        (False, False, True, 5),
        (True, True, False, 6),
        (True, False, True, 6),
        (False, True, True, 6),
        (True, True, True, 7),
    ],
)
def test_b7_defence_modifiers_stack(defends, own_capital, own_fortress, defence):
    """An army's Defence is 4, +1 if it Defends, +1 in a tile with its own capital,
    +1 in a tile with its own fortress; the modifiers add up."""
    assert army_defence(defends=defends, own_capital=own_capital, own_fortress=own_fortress) == (
        defence
    )


def test_b7_die_allocated_to_lowest_defence():
    """Red: one army. Blue: two armies, Defence 6 and 4. Red rolls 4, Blue rolls 1, 1.
    Red's die goes to the Defence 4 army and hits; Red wins 1 hit to 0."""
    battle = simple([4], [6, 4], 4, 1, 1)
    assert (battle.picker_hits, battle.opponent_hits) == (1, 0)
    assert battle.winner is Side.PICKER


def test_b7_opponent_die_allocated_to_lowest_defence():
    """Red: two armies, Defence 6 and 4. Blue: one army at Defence 4. Red rolls 1, 1;
    Blue rolls 4. Blue's die goes to Red's Defence 4 army and hits; Blue wins 1 hit to 0."""
    battle = simple([6, 4], [4], 1, 1, 4)
    assert (battle.picker_hits, battle.opponent_hits) == (0, 1)
    assert battle.winner is Side.OPPONENT


def test_b7_die_equal_to_defence_hits():
    """Red: one army at Defence 5. Blue: one army at Defence 5. Red rolls 5, Blue rolls 4.
    5 is at least 5, a hit; 4 is not. Red wins."""
    battle = simple([5], [5], 5, 4)
    assert (battle.picker_hits, battle.opponent_hits) == (1, 0)
    assert battle.winner is Side.PICKER


def test_b7_one_army_may_be_hit_by_several_dice():
    """Red: three armies. Blue: one army at Defence 4. Red rolls 4, 5, 6; Blue rolls 6.
    All three of Red's dice hit Blue's one army: 3 hits to 1, Red wins."""
    battle = simple([4, 4, 4], [4], 4, 5, 6, 6)
    assert (battle.picker_hits, battle.opponent_hits) == (3, 1)
    assert battle.winner is Side.PICKER


def test_b7_more_hits_wins_for_the_opponent():
    """Red: one army at Defence 4. Blue: two armies at Defence 5 (they Defend).
    Red rolls 4 (misses Defence 5); Blue rolls 4, 6 (both hit Defence 4). Blue wins 2 to 0."""
    battle = simple([4], [5, 5], 4, 4, 6)
    assert (battle.picker_hits, battle.opponent_hits) == (0, 2)
    assert battle.winner is Side.OPPONENT


def test_b7_equal_hits_is_a_draw():
    """Red and Blue: two armies each at Defence 4. Red rolls 6, 1; Blue rolls 2, 4.
    One hit each: a draw."""
    battle = simple([4, 4], [4, 4], 6, 1, 2, 4)
    assert (battle.picker_hits, battle.opponent_hits) == (1, 1)
    assert battle.winner is None


def test_b7_no_hits_at_all_is_a_draw():
    """Red and Blue: one army each at Defence 7. Red rolls 6, Blue rolls 6.
    Nothing can hit Defence 7: no hits on either side, a draw."""
    battle = simple([7], [7], 6, 6)
    assert (battle.picker_hits, battle.opponent_hits) == (0, 0)
    assert battle.winner is None


def test_b7_picker_rolls_first_then_opponent():
    """Red (the picker): one army. Blue: two armies, all at Defence 4. The dice come
    6, 1, 1: Red rolls one die (6, a hit), then Blue two (1, 1, no hit). Red wins.
    (Had Blue rolled first it would have taken 6, 1 and won.)"""
    battle = simple([4], [4, 4], 6, 1, 1)
    assert battle.picker_dice == (6,)
    assert battle.opponent_dice == (1, 1)
    assert battle.winner is Side.PICKER


def test_b7_one_die_per_upright_army():
    """Red: two armies; Blue: three. Red rolls exactly two dice, Blue exactly three."""
    battle = simple([4, 4], [4, 4, 4], 1, 2, 3, 4, 5)
    assert battle.picker_dice == (1, 2)
    assert battle.opponent_dice == (3, 4, 5)


@pytest.mark.parametrize(("picker", "opponent"), [([], [4]), ([4], [])])
def test_b7_needs_an_upright_army_on_each_side(picker, opponent):
    """A simple land battle with no upright army on one side is refused, and no die is rolled."""
    dice = Dice()
    with pytest.raises(ValueError, match="upright army on each side"):
        simple_land_battle(picker, opponent, dice)


# B8 Naval battle


def test_b8_four_or_more_sinks_an_enemy_ship():
    """Red: red-s1. Blue: blue-s1. Red rolls 4, Blue rolls 3. Red's 4 sinks blue-s1;
    Blue's 3 misses. Blue has no ships: Red wins after one round."""
    battle = naval([red(1)], [blue(1)], 4, 3)
    assert battle.rounds[0].opponent_sunk == ("blue-s1",)
    assert battle.rounds[0].picker_sunk == ()
    assert battle.winner is Side.PICKER
    assert ids(battle.picker_survivors) == ["red-s1"]
    assert battle.opponent_survivors == ()


def test_b8_ship_carrying_an_army_adds_one():
    """Red: red-s1 carrying an army. Blue: blue-s1, empty. Red rolls 3, Blue rolls 3.
    Red's 3 + 1 = 4 sinks blue-s1; Blue's 3 misses. Red wins."""
    battle = naval([red(1, carrying=True)], [blue(1)], 3, 3)
    assert len(battle.rounds) == 1
    assert battle.rounds[0].opponent_sunk == ("blue-s1",)
    assert battle.winner is Side.PICKER


def test_b8_only_the_carrying_ship_adds_one():
    """Red: red-s1 empty, red-s2 carrying. Blue: blue-s1, blue-s2 empty. Round 1: Red
    rolls 1 then 3 (for red-s1, red-s2), Blue rolls 3, 3. Only red-s2's 3 + 1 = 4 hits:
    blue-s2 sinks, Blue has fewer ships and loses."""
    battle = naval([red(1), red(2, carrying=True)], [blue(1), blue(2)], 1, 3, 3, 3)
    assert battle.rounds[0].opponent_sunk == ("blue-s2",)
    assert battle.rounds[0].picker_sunk == ()
    assert battle.winner is Side.PICKER


def test_b8_river_takes_one_from_every_die():
    """On a river or lake tile. Red: red-s1. Blue: blue-s1. Round 1: Red rolls 4,
    Blue rolls 4: each 4 - 1 = 3 misses. Round 2: Red rolls 5 (5 - 1 = 4, a hit),
    Blue rolls 4 (a miss). Red wins in round 2."""
    battle = naval([red(1)], [blue(1)], 4, 4, 5, 4, river=True)
    assert [(r.picker_sunk, r.opponent_sunk) for r in battle.rounds] == [
        ((), ()),
        ((), ("blue-s1",)),
    ]
    assert battle.winner is Side.PICKER


def test_b8_river_and_carrying_cancel_out():
    """On a river tile. Red: red-s1 carrying. Blue: blue-s1 carrying. Round 1: 3 and 3
    (3 + 1 - 1 = 3, misses). Round 2: Red 1, Blue 4 (4 + 1 - 1 = 4, a hit). Blue wins."""
    battle = naval([red(1, carrying=True)], [blue(1, carrying=True)], 3, 3, 1, 4, river=True)
    assert len(battle.rounds) == 2
    assert battle.rounds[1].picker_sunk == ("red-s1",)
    assert battle.winner is Side.OPPONENT


def test_b8_sinking_is_simultaneous():
    """Red: red-s1, red-s2. Blue: blue-s1, blue-s2. Round 1: Red rolls 6, 6, Blue rolls
    6, 6. Blue's dice still count though both its ships are sunk by Red's: all four
    ships go down, and nobody wins."""
    battle = naval([red(1), red(2)], [blue(1), blue(2)], 6, 6, 6, 6)
    assert len(battle.rounds) == 1
    assert battle.rounds[0].picker_sunk == ("red-s2", "red-s1")
    assert battle.rounds[0].opponent_sunk == ("blue-s2", "blue-s1")
    assert battle.winner is None
    assert battle.picker_survivors == battle.opponent_survivors == ()


def test_b8_both_fleets_sunk_means_no_winner():
    """Red: red-s1. Blue: blue-s1. Red rolls 4, Blue rolls 5: both ships sink in the
    same round. There are no ships left; nobody wins."""
    battle = naval([red(1)], [blue(1)], 4, 5)
    assert battle.winner is None


def test_b8_highest_id_sunk_first():
    """Red: red-s1. Blue: blue-s2, blue-s10, blue-s9. Red rolls 6, Blue rolls 1, 1, 1.
    Blue loses one ship and by default the highest id goes: blue-s10 (natural number
    order, not "blue-s9"). Blue still has 2 ships to Red's 1, so Red has fewer and loses."""
    battle = naval([red(1)], [blue(2), blue(10), blue(9)], 6, 1, 1, 1)
    assert battle.rounds[0].opponent_sunk == ("blue-s10",)
    assert ids(battle.opponent_survivors) == ["blue-s2", "blue-s9"]
    assert battle.winner is Side.OPPONENT


def test_b8_more_hits_than_ships_sinks_the_fleet():
    """Red: red-s1, red-s2, red-s3 (all carrying). Blue: blue-s1, blue-s2 and blue-s3.
    Red rolls 6, 6, 6; Blue rolls 1, 1, 1. All of Blue's ships sink, listed highest id
    first: blue-s3, blue-s2, blue-s1."""
    fleet = [red(1, True), red(2, True), red(3, True)]
    battle = naval(fleet, [blue(1), blue(2), blue(3)], 6, 6, 6, 1, 1, 1)
    assert battle.rounds[0].opponent_sunk == ("blue-s3", "blue-s2", "blue-s1")
    assert battle.winner is Side.PICKER


def test_b8_fewer_ships_after_a_round_loses():
    """Red: red-s1, red-s2. Blue: blue-s1, blue-s2. Round 1: Red rolls 6, 1, Blue rolls
    1, 1. Blue is down to one ship against two: Blue has lost, though it still has a ship."""
    battle = naval([red(1), red(2)], [blue(1), blue(2)], 6, 1, 1, 1)
    assert len(battle.rounds) == 1
    assert battle.winner is Side.PICKER
    assert ids(battle.opponent_survivors) == ["blue-s1"]


def test_b8_unequal_fleets_still_fight_a_round():
    """Red: red-s1. Blue: blue-s1, blue-s2. The rule looks at the fleets after a round,
    so one round is fought: Red rolls 6, Blue rolls 1, 1. blue-s2 sinks; 1 ship each,
    another round: Red 6, Blue 6. Both sink: nobody wins."""
    battle = naval([red(1)], [blue(1), blue(2)], 6, 1, 1, 6, 6)
    assert [(r.picker_sunk, r.opponent_sunk) for r in battle.rounds] == [
        ((), ("blue-s2",)),
        (("red-s1",), ("blue-s1",)),
    ]
    assert battle.winner is None


def test_b8_equal_fleets_fight_more_rounds():
    """Red: red-s1, red-s2. Blue: blue-s1, blue-s2. Round 1: Red 6, 1; Blue 1, 5: one ship
    each sinks (red-s2, blue-s2). Round 2, one die each: 2 and 3, no hits. Round 3: Red 4,
    Blue 3: blue-s1 sinks and Red wins. Each round rolls one die per ship still afloat."""
    battle = naval([red(1), red(2)], [blue(1), blue(2)], 6, 1, 1, 5, 2, 3, 4, 3)
    assert battle.rounds[0].picker_sunk == ("red-s2",)
    assert battle.rounds[0].opponent_sunk == ("blue-s2",)
    assert [(r.picker_dice, r.opponent_dice) for r in battle.rounds] == [
        ((6, 1), (1, 5)),
        ((2,), (3,)),
        ((4,), (3,)),
    ]
    assert battle.winner is Side.PICKER
    assert ids(battle.picker_survivors) == ["red-s1"]


def test_b8_dice_go_to_ships_in_id_order():
    """Red: red-s10 carrying, red-s9 empty. Blue: blue-s1, blue-s2. Red's dice go to its
    ships in natural id order: red-s9 then red-s10. Round 1: Red rolls 3, 1 (red-s9's 3
    misses, red-s10's 1 + 1 = 2 misses), Blue 1, 1: no hits. Round 2: Red 6, 6, Blue 1, 1:
    Red sinks both and wins."""
    battle = naval([red(10, carrying=True), red(9)], [blue(1), blue(2)], 3, 1, 1, 1, 6, 6, 1, 1)
    assert battle.rounds[0].opponent_sunk == ()
    assert len(battle.rounds) == 2
    assert battle.winner is Side.PICKER


def test_b8_survivors_keep_their_cargo():
    """Red: red-s1 carrying. Blue: blue-s1. Red rolls 6, Blue 1: red-s1 survives,
    still carrying its army."""
    battle = naval([red(1, carrying=True)], [blue(1)], 6, 1)
    assert battle.picker_survivors == (NavalShip("red-s1", carrying=True),)


@pytest.mark.parametrize(
    ("picker", "opponent", "message"),
    [
        ([], [blue(1)], "ships on both sides"),
        ([red(1)], [], "ships on both sides"),
        ([red(1), red(1)], [blue(1)], "appears twice"),
    ],
)
def test_b8_refuses_a_battle_without_two_fleets(picker, opponent, message):
    """A naval battle needs ships on both sides, each ship once."""
    with pytest.raises(ValueError, match=message):
        naval_battle(picker, opponent, river=False, roll=Dice())


# B9 Land/water battle


def land_water(picker: int, opponent: int, *faces: int) -> LandWaterBattle:
    dice = Dice(*faces)
    battle = land_water_battle(picker, opponent, dice)
    assert dice.all_used()
    return battle


def test_b9_higher_total_wins():
    """Red: one army (1 die). Blue: two ships (2 dice). Dice 6, 2, 3: Red totals 6,
    Blue 5. Red wins."""
    battle = land_water(1, 2, 6, 2, 3)
    assert (battle.picker_total, battle.opponent_total) == (6, 5)
    assert battle.winner is Side.PICKER


def test_b9_opponent_wins_with_the_higher_total():
    """Red: one army. Blue: one ship. Dice 2, 5: Blue totals 5 to Red's 2 and wins."""
    battle = land_water(1, 1, 2, 5)
    assert battle.winner is Side.OPPONENT


def test_b9_equal_totals_draw():
    """Red: two armies. Blue: two ships. Dice 1, 6, 4, 3: 7 each, a draw."""
    battle = land_water(2, 2, 1, 6, 4, 3)
    assert (battle.picker_total, battle.opponent_total) == (7, 7)
    assert battle.winner is None


def test_b9_ship_carrying_an_army_rolls_two_dice():
    """Red: one ship carrying an army, which the caller counts as 2 dice. Blue: two armies.
    Dice 3, 3, 4, 1: Red rolls 3, 3 (6), Blue rolls 4, 1 (5). Red wins."""
    battle = land_water(2, 2, 3, 3, 4, 1)
    assert battle.picker_dice == (3, 3)
    assert battle.opponent_dice == (4, 1)
    assert battle.winner is Side.PICKER


def test_b9_picker_rolls_first():
    """Red: one army (1 die). Blue: three ships (3 dice). Dice 6, 1, 1, 1: Red's one
    die is the 6, Blue's are 1, 1, 1. Red wins 6 to 3."""
    battle = land_water(1, 3, 6, 1, 1, 1)
    assert battle.picker_dice == (6,)
    assert battle.opponent_dice == (1, 1, 1)
    assert battle.winner is Side.PICKER


@pytest.mark.parametrize(("picker", "opponent"), [(0, 1), (1, 0)])
def test_b9_needs_a_die_on_each_side(picker, opponent):
    """A land/water battle with nothing on one side is refused."""
    with pytest.raises(ValueError, match="at least one die"):
        land_water_battle(picker, opponent, Dice())


# D1 Every die is recorded


def test_d1_simple_land_battle_returns_every_die_in_order():
    """Red: two armies; Blue: one. Dice 5, 2, 3: all three come back, in the order rolled."""
    assert simple([4, 4], [4], 5, 2, 3).dice == (5, 2, 3)


def test_d1_naval_battle_returns_every_die_in_order():
    """Red: red-s1, red-s2; Blue: blue-s1, blue-s2. Round 1: 6, 1, 1, 5; round 2: 2, 3;
    round 3: 4, 3. All eight come back, round by round, picker first."""
    faces = (6, 1, 1, 5, 2, 3, 4, 3)
    assert naval([red(1), red(2)], [blue(1), blue(2)], *faces).dice == faces


def test_d1_land_water_battle_returns_every_die_in_order():
    """Red: 2 dice; Blue: 3. Dice 1, 2, 3, 4, 5 all come back, in order."""
    assert land_water(2, 3, 1, 2, 3, 4, 5).dice == (1, 2, 3, 4, 5)


@pytest.mark.parametrize("face", [0, 7])
def test_d1_a_roll_that_is_no_d6_is_refused(face):
    """A dice source that returns `face` is broken: the battle is refused, not fought."""
    with pytest.raises(ValueError, match="1 to 6"):
        land_water_battle(1, 1, Dice(face, 3))


# Unit ids in natural order (used for "highest id" defaults, rulings B5, B8)


def test_natural_key_orders_numbers_by_value():
    """red-s10 comes after red-s9 and red-s2; red-2 before red-10; kingdoms by name."""
    unsorted = ["red-s10", "red-s9", "blue-s1", "red-10", "red-s2", "red-2"]
    assert sorted(unsorted, key=natural_key) == [
        "blue-s1",
        "red-2",
        "red-10",
        "red-s2",
        "red-s9",
        "red-s10",
    ]


def test_natural_key_compares_ids_of_any_shape():
    """Ids with differing runs of text and numbers still compare, and ids equal as
    numbers ("s01", "s1") still have a fixed order."""
    assert sorted(["a1b2", "a1b", "a1", "7", "b", "s1", "s01"], key=natural_key) == [
        "7",
        "a1",
        "a1b",
        "a1b2",
        "b",
        "s01",
        "s1",
    ]


@pytest.mark.parametrize(
    ("fight", "reason"),
    [
        (lambda: battle_points(-1), "a side can't have -1 armies"),
        (lambda: simple_land_battle([], [4], Dice()), "a simple land battle needs an upright army on each side"),
        (lambda: land_water_battle(0, 1, Dice()), "a land/water battle needs at least one die on each side"),
        (lambda: naval_battle([], [NavalShip("blue-s1", carrying=False)], river=False, roll=Dice()), "a naval battle needs ships on both sides"),
    ],
    ids=["b6-points", "b7-simple", "b9-land-water", "b8-naval"],
)  # fmt: skip
def test_b6_to_b9_a_battle_the_rules_cannot_fight_is_refused_with_its_whole_reason(fight, reason):
    """Each guard's refusal reads in full, not only in part: B6's points of a side of -1
    armies, B7's battle without an upright army on a side, B9's without a die on a side,
    B8's without a ship on a side."""
    with pytest.raises(ValueError, match=f"^{re.escape(reason)}$"):
        fight()
