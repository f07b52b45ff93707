"""The rules casebook for summer phase C, battles (rulings B1 to B12), in the spirit of the
Diplomacy Adjudicator Test Cases: each test is one case, named after its ruling; its
docstring states the position and what must happen.

Most positions stand at the `battles` step of year 1, summer month 1, with the units already
in their tiles, on a hexagon of plains of radius 3 around [0, 0]. The contested tile is
usually [0, 0]; red's home tile beside it is [-1, 0] and blue's is [1, 0]. Dice are scripted
in the contract's order (a pitched hand-off: condition die, then scenario die; a simple,
naval or land/water battle: the picker's dice, then the opponent's). When the battles are
over the month runs through Reform, whose player order may need a roll-off (R3, D2), to the
orders of month 2.
"""

from typing import Any

import pytest

from campaign.rules.combat import DEFENDER_BENEFITS
from tests.rules.casebook import adjudicate as run
from tests.rules.casebook import (
    army,
    battles,
    events,
    happened,
    hexagon,
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

type Json = dict[str, Any]
type Hex = tuple[int, int]

BATTLES = (1, "summer", 1, "battles")
ROLL_OFF = [6, 1]  # Reform: two kingdoms tied on armies roll off; the first stays first
NEXT_MONTH = {"year": 1, "season": "summer", "month": 2, "step": "orders"}
STILL_BATTLES = {"year": 1, "season": "summer", "month": 1, "step": "battles"}
HOMES = [tile((-1, 0), "red"), tile((1, 0), "blue")]

# A sea to the north: ocean where r < 0, a coast of plains along r = 0, land to the south.
SEA = make_map(
    terrain={h: "ocean" for h in hexagon(3) if h[1] < 0},
    coast=[h for h in hexagon(3) if h[1] == 0],
)


def at_battles(**kwargs: Any) -> Json:
    return position(clock=BATTLES, **kwargs)


def simple(**kwargs: Any) -> Json:
    """A campaign whose pitched battles are all simple land battles (B6)."""
    return at_battles(options={"battles": "simple"}, **kwargs)


def the_battle(data: Json) -> Json:
    """The one battle of the file."""
    (battle,) = data["battles"]
    assert isinstance(battle, dict)
    return battle


def present(data: Json, unit_id: str) -> Json:
    """An army or ship that must still be on the board."""
    found = unit(data, unit_id)
    assert found is not None, f"{unit_id} is gone"
    return found


def side(battle: Json, kingdom_id: str) -> Json:
    return next(s for s in battle["sides"] if s["kingdom"] == kingdom_id)


def where(data: Json, unit_id: str) -> tuple[list[int], bool] | None:
    """A unit's tile and whether it is upright, or None if it is gone."""
    found = unit(data, unit_id)
    return None if found is None else (found["hex"], found["upright"])


def owner(data: Json, hex_: Hex) -> str | None:
    found = tile_at(data, hex_)
    return None if found is None else found["owner"]


def battle_event(kind: str, hex_: Hex, attacker: str, defender: str, winner: str | None) -> Json:
    """The event of a battle fought and decided at once (not handed off), as the report
    words it: a win for `winner`, or a draw if None."""
    return {
        "type": "battle",
        "kind": kind,
        "hex": list(hex_),
        "attacker": attacker,
        "defender": defender,
        "status": "resolved",
        "result": "draw" if winner is None else "win",
        "winner": winner,
    }


def handed_off_event(hex_: Hex, attacker: str, defender: str) -> Json:
    """The event of a pitched battle handed off to the tabletop, awaiting its result."""
    return {
        **battle_event("pitched", hex_, attacker, defender, None),
        "status": "awaiting_result",
        "result": None,
    }


def waiting_for(data: Json, kind: str) -> list[tuple[str, list[int]]]:
    return [(p["kingdom"], p["hex"]) for p in pending(data, kind)]


def report(
    data: Json, *entries: Json, dice: list[int] | None = None, retreats: Json | None = None
) -> Json:
    """The engine's file fed back with reported decisions added to its `inputs`."""
    inputs = {**data["inputs"], "battles": [*data["inputs"].get("battles", []), *entries]}
    if retreats is not None:
        inputs["retreats"] = retreats
    again = {**data, "inputs": inputs}
    if dice is not None:
        again["dice"] = dice
    return run(again)


# --- B1 contested tiles ---------------------------------------------------------------------


def test_b1_a_tile_holding_units_of_two_kingdoms_is_contested():
    """Red and blue armies share [0, 0]; red's second army is alone at [-1, 0] and blue's at
    [1, 0]. Only [0, 0] is contested: one battle is fought there, and none elsewhere."""
    before = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-2", (-1, 0)),
            army("blue-2", (1, 0)),
        ],
        dice=[4, 4],
    )
    after = run(before)
    assert [b["hex"] for b in after["battles"]] == [[0, 0]]
    assert waiting_for(after, "battle_result") == [("red", [0, 0]), ("blue", [0, 0])]


def test_b1_a_ship_and_an_army_contest_a_tile():
    """A red ship (no army aboard) and a blue army share the coastal tile [0, 0], blue's.
    The tile is contested: red picks a land/water battle (B9) and wins it 5 to 2; the blue
    army retreats to [1, 0] on its side and the ship takes the tile."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("blue-1", (0, 0))],
        ships=[ship("red-s1", (0, 0))],
        dice=[5, 2],
    )
    after = run(before)
    battle = the_battle(after)
    assert battle["kind"] == "land_water"
    assert side(battle, "red")["ships"] == ["red-s1"]
    assert side(battle, "red")["armies"] == []
    assert battle["winner"] == "red"
    assert where(after, "blue-1") == ([1, 0], False)
    assert owner(after, (0, 0)) == "red"


def test_b1_three_kingdoms_in_one_tile_fight_it_out_two_at_a_time():
    """Red, blue and green armies share [0, 0], green's; player order red, blue, green;
    simple battles. Red picks first and must fight green, the tile's controller (B2): red
    rolls 6, green 1, green loses and retreats to [0, 1]. Blue picks next: [0, 0] is still
    contested, now with red, its new controller; blue rolls 1, red 6, blue retreats to
    [1, 0]. Red holds the tile."""
    before = simple(
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "green"), tile((0, 1), "green"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("green-1", (0, 0))],
        dice=[6, 1, 1, 6, 6, 5, 4],
    )
    after = run(before)
    fought = [(b["attacker"], b["defender"], b["winner"]) for b in battles(after, (0, 0))]
    assert fought == [("red", "green", "red"), ("blue", "red", "red")]
    assert where(after, "green-1") == ([0, 1], False)
    assert where(after, "blue-1") == ([1, 0], False)
    assert owner(after, (0, 0)) == "red"
    assert after["clock"] == NEXT_MONTH


# --- B2 picking battles ---------------------------------------------------------------------

TWO_TILES = {
    "tiles": [tile((0, 1), "blue"), tile((1, -1), "blue"), *HOMES],
    "armies": [
        army("red-1", (0, 1)),
        army("blue-1", (0, 1)),
        army("red-2", (1, -1)),
        army("blue-2", (1, -1)),
    ],
}


def test_b2_kingdoms_pick_in_player_order():
    """Red and blue both have armies at [0, 1] and [1, -1]; the player order is blue, red.
    Blue picks first, [1, -1] as it prefers; then red picks the other tile. Both battles
    are handed off: blue is the attacker of the first, red of the second."""
    before = at_battles(
        player_order=["blue", "red"],
        inputs={"battle_choices": {"blue": [[1, -1]]}},
        dice=[4, 4, 4, 4],
        **TWO_TILES,
    )
    after = run(before)
    picked = [(b["hex"], b["attacker"], b["defender"]) for b in after["battles"]]
    assert picked == [([1, -1], "blue", "red"), ([0, 1], "red", "blue")]


def test_b2_a_kingdom_picks_its_stated_preference():
    """Red, first in player order, could pick [0, 1] or [1, -1] and states [1, -1]: it picks
    [1, -1], though [0, 1] comes first in [q, r] order."""
    before = at_battles(
        inputs={"battle_choices": {"red": [[1, -1]]}}, dice=[4, 4, 4, 4], **TWO_TILES
    )
    after = run(before)
    assert after["battles"][0]["hex"] == [1, -1]
    assert after["battles"][0]["attacker"] == "red"


def test_b2_the_kingdom_asked_to_pick_keeps_its_turn():
    """Simple battles. Red and blue face each other at [0, 1], [1, -1] and [-1, -1]. Red
    picks [0, 1] (its preference) and wins (6 to 1); it is blue's turn, and blue, with two
    tiles left, is asked. When blue answers [-1, -1], blue picks it: the turn stayed with
    blue while it was asked (B2), though red could also pick there; red then picks the
    last, [1, -1]."""
    before = simple(
        tiles=[tile((0, 1), "blue"), tile((1, -1), "blue"), *HOMES],
        armies=[
            *TWO_TILES["armies"],
            army("red-3", (-1, -1)),
            army("blue-3", (-1, -1)),
        ],
        inputs={"battle_choices": {"red": [[0, 1]]}},
        dice=[6, 1],
    )
    asked = run(before)
    assert asked["pending"] == [
        {"kind": "battle_choice", "kingdom": "blue", "choices": [[-1, -1], [1, -1]]}
    ]
    answered = {**asked["inputs"], "battle_choices": {"blue": [[-1, -1]]}}
    after = run({**asked, "inputs": answered, "dice": [6, 1, 6, 1, *ROLL_OFF]})
    assert [(b["hex"], b["attacker"]) for b in battles(after)] == [
        ([0, 1], "red"),
        ([-1, -1], "blue"),
        ([1, -1], "red"),
    ]


def test_b2_a_kingdom_with_two_tiles_and_no_preference_is_asked():
    """Red could pick [0, 1] or [1, -1] and has stated no preference. The engine waits for
    red's choice; no battle is fought and no die rolled."""
    before = at_battles(dice=[], **TWO_TILES)
    after = run(before)
    assert after["pending"] == [
        {"kind": "battle_choice", "kingdom": "red", "choices": [[0, 1], [1, -1]]}
    ]
    assert after["battles"] == []
    assert after["clock"] == STILL_BATTLES


def test_b2_with_defaults_a_kingdom_picks_the_first_tile_in_qr_order():
    """The same position with --defaults: red picks [0, 1], first in [q, r] order (q first,
    then r, so before [1, -1]); then blue picks [1, -1]."""
    before = at_battles(dice=[4, 4, 4, 4], **TWO_TILES)
    after = run(before, defaults=True)
    assert [(b["hex"], b["attacker"]) for b in after["battles"]] == [
        ([0, 1], "red"),
        ([1, -1], "blue"),
    ]


def three_kingdoms(owner_: str, order_: list[str], *, green_upright: bool = True) -> Json:
    return at_battles(
        kingdoms=("red", "blue", "green"),
        player_order=order_,
        tiles=[tile((0, 0), owner_)],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("green-1", (0, 0), upright=green_upright),
        ],
        dice=[4, 4],
    )


def test_b2_the_opponent_must_have_upright_units_if_any_has():
    """Red picks [0, 0], green's tile, where blue's army is upright and green's lies on its
    side (player order red, green, blue). Red must fight blue: an opponent with upright
    units comes before the tile's controller and before player order."""
    after = run(three_kingdoms("green", ["red", "green", "blue"], green_upright=False))
    assert after["battles"][0]["defender"] == "blue"


def test_b2_among_upright_opponents_the_tiles_controller_is_chosen():
    """Red picks [0, 0], green's tile, where blue and green are upright (player order red,
    blue, green). Red must fight green, the tile's controller."""
    after = run(three_kingdoms("green", ["red", "blue", "green"]))
    assert after["battles"][0]["defender"] == "green"


def test_b2_else_the_first_upright_opponent_in_player_order_is_chosen():
    """Red picks [0, 0], its own tile, where blue and green are upright (player order red,
    green, blue). Neither controls the tile: red must fight green, first in player order."""
    after = run(three_kingdoms("red", ["red", "green", "blue"]))
    assert after["battles"][0]["defender"] == "green"


def test_b2_a_kingdom_may_pick_more_than_once():
    """Red's armies are upright at [0, 0] and [0, 2]; blue's army in each lies on its side,
    so blue can never pick. Red picks [0, 0] (its preference) and slaughters blue-1; blue
    can't pick; red picks again, [0, 2], and slaughters blue-2."""
    before = at_battles(
        tiles=[tile((0, 0), "blue"), tile((0, 2), "blue")],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0), upright=False),
            army("red-2", (0, 2)),
            army("blue-2", (0, 2), upright=False),
        ],
        inputs={"battle_choices": {"red": [[0, 0], [0, 2]]}},
        dice=[],
    )
    after = run(before)
    picked = [(b["hex"], b["attacker"], b["kind"]) for b in after["battles"]]
    assert picked == [([0, 0], "red", "slaughter"), ([0, 2], "red", "slaughter")]
    assert unit(after, "blue-1") is None
    assert unit(after, "blue-2") is None


def test_b2_a_tile_where_nobody_has_an_upright_unit_stays_contested():
    """Red and blue armies share [0, 0], both on their sides. Neither can pick a battle
    there: no battle is fought, both stay, and the month goes on to Reform and month 2."""
    before = at_battles(
        tiles=[tile((0, 0), "blue")],
        armies=[army("red-1", (0, 0), upright=False), army("blue-1", (0, 0), upright=False)],
        dice=ROLL_OFF,
    )
    after = run(before)
    assert after["battles"] == []
    assert where(after, "red-1") == ([0, 0], False)
    assert where(after, "blue-1") == ([0, 0], False)
    assert owner(after, (0, 0)) == "blue"
    assert after["clock"] == NEXT_MONTH


# --- B3 the kind of battle ------------------------------------------------------------------


def test_b3_an_army_aboard_a_ship_counts_as_part_of_its_ship():
    """At the coastal tile [0, 0], blue's, red's ship carries red-1 and blue has one army.
    Red has no army outside its ship, so this is no pitched battle but a land/water battle,
    the ship with its army rolling two dice (1 + 1 against blue's 3): blue wins. The ship
    retreats with its army aboard into the open water red chose, both on their sides."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        ships=[ship("red-s1", (0, 0), carrying="red-1")],
        inputs={"retreats": {"red-s1": [0, -1]}},
        dice=[1, 1, 3, *ROLL_OFF],
    )
    after = run(before)
    battle = the_battle(after)
    assert battle["kind"] == "land_water"
    assert side(battle, "red")["armies"] == []
    assert battle["dice"] == [1, 1, 3]
    assert battle["winner"] == "blue"
    assert where(after, "red-s1") == ([0, -1], False)
    assert present(after, "red-s1")["carrying"] == "red-1"
    assert where(after, "red-1") == ([0, -1], False)


def test_b3_upright_armies_on_both_sides_make_a_pitched_battle_and_ships_share_its_result():
    """At the coastal tile [0, 0], blue's, each side has an upright army and an empty ship;
    simple battles. Red, the picker, has not chosen a naval battle, so it is a pitched
    battle between the armies. Red rolls 6, blue 1: blue loses, and its ship retreats
    with its army, on its side, into the open water blue chose."""
    before = simple(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
        inputs={"retreats": {"blue-s1": [1, -1]}},
        dice=[6, 1, *ROLL_OFF],
    )
    after = run(before)
    battle = the_battle(after)
    assert battle["kind"] == "simple"
    assert side(battle, "red") == {
        "kingdom": "red",
        "armies": ["red-1"],
        "ships": ["red-s1"],
        "points": 500,
        "strategy_cards": 0,
        "defending": False,
    }
    assert where(after, "blue-1") == ([1, 0], False)
    assert where(after, "blue-s1") == ([1, -1], False)
    assert where(after, "red-s1") == ([0, 0], True)
    assert owner(after, (0, 0)) == "red"


def test_b3_the_picker_may_choose_a_naval_battle_instead_of_a_pitched_one():
    """As above, both sides have an upright army and an empty ship at [0, 0], blue's, but
    red, the picker, has chosen a naval battle there (a battles entry with "naval"). Ship
    against ship, one round: red rolls 4 (a hit), blue 2. Blue's ship sinks, blue has fewer
    ships and loses: its army retreats, on its side. The armies never fought."""
    before = simple(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
        inputs={"battles": [{"hex": [0, 0], "naval": "red"}]},
        dice=[4, 2, *ROLL_OFF],
    )
    after = run(before)
    battle = the_battle(after)
    assert (battle["kind"], battle["winner"], battle["dice"]) == ("naval", "red", [4, 2])
    assert unit(after, "blue-s1") is None
    assert where(after, "blue-1") == ([1, 0], False)
    assert where(after, "red-1") == ([0, 0], True)
    assert owner(after, (0, 0)) == "red"
    assert after["inputs"].get("battles", []) == []


def test_b3_b12_only_the_picker_chooses_a_naval_battle():
    """The same tile, but the naval entry names blue, who did not pick the battle (red is
    first in player order and picks). It is not a choice the rules allow blue: the entry
    is refused (B12), not left unread while the battle is handed off as a pitched one."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
        inputs={"battles": [{"hex": [0, 0], "naval": "blue"}]},
        dice=[4, 4],
    )
    refused = refusal(before)
    assert (refused.code, refused.field) == ("choice-not-allowed", "inputs.battles[0]")
    assert "only red" in refused.message
    after = run({**before, "inputs": {}})
    assert the_battle(after)["kind"] == "pitched"
    assert the_battle(after)["status"] == "awaiting_result"


def test_b3_b12_a_naval_battle_uses_up_only_its_pickers_choice():
    """At the coastal tile [0, 0], blue's, red and blue each have an army and a ship, and
    green an army. Red picks it against blue, the tile's controller (B2), and chose a naval
    battle: red's 6 sinks blue's ship, blue's 1 misses, and blue-1 retreats. The file also
    holds green's concession, for green's own battle there: it stands, and when green picks
    [0, 0] against red it concedes (B12)."""
    before = at_battles(
        map=SEA,
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "blue"), *HOMES, tile((-1, 1), "green")],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("green-1", (0, 0))],
        ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
        inputs={"battles": [{"hex": [0, 0], "naval": "red"}, {"hex": [0, 0], "concede": "green"}]},
        dice=[6, 1, 6, 5, 4],  # the naval round, then Reform's roll-off of three tied kingdoms
    )
    after = run(before)
    assert [(b["kind"], b["attacker"], b["winner"]) for b in after["battles"]] == [
        ("naval", "red", "red"),
        ("concession", "green", "red"),
    ]
    assert after["clock"] == NEXT_MONTH


def test_b3_ships_on_both_sides_without_armies_on_both_make_a_naval_battle():
    """At the coastal tile [0, 0], red has an army and a ship, blue only a ship. Both sides
    have ships but only red has armies: a naval battle, ship against ship (red's army does
    not fight). Red rolls 4 and sinks blue's ship; blue rolls 1."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0))],
        ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
        dice=[4, 1],
    )
    after = run(before)
    battle = the_battle(after)
    assert battle["kind"] == "naval"
    assert battle["dice"] == [4, 1]
    assert battle["winner"] == "red"
    assert unit(after, "blue-s1") is None
    assert owner(after, (0, 0)) == "red"


# --- B4 concession and the Last Stand -----------------------------------------------------------


def one_on_one(**kwargs: Any) -> Json:
    """Red-1 and blue-1 at [0, 0], blue's, each with its home tile beside it."""
    return at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        **kwargs,
    )


def test_b4_either_side_may_concede_before_a_pitched_battle():
    """One army each at [0, 0], blue's; red, the picker, concedes before the battle. It is a
    concession: blue wins, red loses; no might, no strategy, and no condition or scenario is
    rolled (the only dice rolled are Reform's roll-off). Red's army retreats on its side."""
    after = run(one_on_one(inputs={"battles": [{"hex": [0, 0], "concede": "red"}]}, dice=ROLL_OFF))
    battle = the_battle(after)
    assert battle["kind"] == "concession"
    assert (battle["status"], battle["result"], battle["winner"]) == ("resolved", "win", "blue")
    assert battle["extra"] == {"conceded_by": "red", "forced": False}
    assert (battle["condition"], battle["scenario"], battle["board"]) == (None, None, None)
    assert battle["dice"] == []
    assert after["dice"] == []
    assert [kingdom(after, k)["pitched_wins"] for k in ("red", "blue")] == [0, 0]
    assert [kingdom(after, k)["pitched_losses"] for k in ("red", "blue")] == [0, 0]
    assert where(after, "red-1") == ([-1, 0], False)
    assert after["clock"] == NEXT_MONTH


def test_b4_a_handed_off_battle_may_still_be_conceded():
    """One army each at [0, 0]: the pitched battle is handed off (condition and scenario
    rolled). Then blue concedes instead of playing: the battle is resolved as a concession
    (a win for red worth no might, no strategy for blue), blue retreats, the month goes on."""
    handed_off = run(one_on_one(dice=[4, 4]))
    after = report(handed_off, {"hex": [0, 0], "concede": "blue"}, dice=ROLL_OFF)
    battle = the_battle(after)
    assert battle["kind"] == "concession"
    assert (battle["status"], battle["winner"]) == ("resolved", "red")
    assert battle["extra"] == {"conceded_by": "blue", "forced": False}
    assert kingdom(after, "red")["pitched_wins"] == 0
    assert kingdom(after, "blue")["pitched_losses"] == 0
    assert where(after, "blue-1") == ([1, 0], False)
    assert owner(after, (0, 0)) == "red"
    assert pending(after, "battle_result") == []
    assert after["clock"] == NEXT_MONTH


def test_b4_a_side_with_fewer_armies_must_concede():
    """Red has two armies at [0, 0], blue one; blue controls [1, 0] beside it, holds no
    fortress there, so it may not make a Last Stand. Blue must concede: nobody is asked,
    no die is rolled, blue's army retreats on its side and red takes the tile."""
    before = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))],
        dice=[],
    )
    after = run(before)
    battle = the_battle(after)
    assert battle["kind"] == "concession"
    assert battle["winner"] == "red"
    assert battle["extra"] == {"conceded_by": "blue", "forced": True}
    assert pending(after, "last_stand") == []
    assert where(after, "blue-1") == ([1, 0], False)
    assert owner(after, (0, 0)) == "red"
    assert after["clock"] == NEXT_MONTH


def test_b4_an_outnumbered_side_that_concedes_in_its_file_concedes_as_it_must():
    """Red's two armies face blue's one at [0, 0], red's; blue, cut off, could make a Last
    Stand but concedes in its file: the concession is the one B4 forces on the side with
    fewer armies."""
    before = at_battles(
        inputs={"battles": [{"hex": [0, 0], "concede": "blue"}]},
        dice=[],
        **OUTNUMBERED_AND_CUT_OFF,
    )
    battle = the_battle(run(before))
    assert (battle["kind"], battle["winner"]) == ("concession", "red")
    assert battle["extra"] == {"conceded_by": "blue", "forced": True}


def test_b4_armies_aboard_ships_do_not_count_against_a_forced_concession():
    """At the coastal tile [0, 0], red has one army ashore and a ship carrying another;
    blue has two armies. Red has fewer armies in the tile (the one aboard counts as its
    ship) and must concede; the ship, with its army, retreats with the rest of red."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[
            army("red-1", (0, 0)),
            army("red-2", (0, 0)),
            army("blue-1", (0, 0)),
            army("blue-2", (0, 0)),
        ],
        ships=[ship("red-s1", (0, 0), carrying="red-2")],
        inputs={"retreats": {"red-s1": [-1, 0]}},
        dice=ROLL_OFF,
    )
    after = run(before)
    battle = the_battle(after)
    assert battle["kind"] == "concession"
    assert battle["extra"]["conceded_by"] == "red"
    assert where(after, "red-1") == ([-1, 0], False)
    assert where(after, "red-s1") == ([-1, 0], False)
    assert where(after, "red-2") == ([-1, 0], False)


OUTNUMBERED_AND_CUT_OFF = {
    "tiles": [tile((0, 0), "red"), tile((-1, 0), "red"), tile((3, 0), "blue")],
    "armies": [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))],
}


def test_b4_a_side_with_no_adjacent_own_tile_is_asked_for_a_last_stand():
    """Red has two armies at [0, 0], its tile, blue one; blue controls no tile beside [0, 0].
    Blue must concede unless it makes a Last Stand, so the engine asks blue; nothing is
    fought or rolled yet."""
    after = run(at_battles(dice=[], **OUTNUMBERED_AND_CUT_OFF))
    assert after["pending"] == [{"kind": "last_stand", "kingdom": "blue", "hex": [0, 0]}]
    assert after["battles"] == []
    assert where(after, "blue-1") == ([0, 0], True)
    assert after["clock"] == STILL_BATTLES


def test_b4_a_last_stand_is_a_pitched_battle_worth_might():
    """The same position; blue makes its Last Stand. The pitched battle is handed off, 1,000
    points against 500 on a 4x4 board, marked as blue's Last Stand. Blue wins it on the
    tabletop: 1 might for blue, a strategy for red, whose armies retreat on their sides to
    [-1, 0]; blue takes [0, 0]."""
    before = at_battles(
        inputs={"battles": [{"hex": [0, 0], "last_stand": "blue"}]},
        dice=[4, 1],
        **OUTNUMBERED_AND_CUT_OFF,
    )
    handed_off = run(before)
    battle = the_battle(handed_off)
    assert battle["kind"] == "pitched"
    assert battle["last_stand"] == "blue"
    assert [s["points"] for s in battle["sides"]] == [1000, 500]
    assert battle["board"] == "4x4"
    assert battle["status"] == "awaiting_result"
    assert handed_off["inputs"] == {}
    after = report(handed_off, {"hex": [0, 0], "result": "win", "winner": "blue"}, dice=[])
    assert the_battle(after)["winner"] == "blue"
    assert kingdom(after, "blue")["pitched_wins"] == 1
    assert kingdom(after, "red")["pitched_losses"] == 1
    assert where(after, "red-1") == ([-1, 0], False)
    assert where(after, "red-2") == ([-1, 0], False)
    assert owner(after, (0, 0)) == "blue"
    assert after["clock"] == NEXT_MONTH


def test_b4_b11_a_last_stand_sent_again_is_no_result():
    """The Last Stand of the case above is handed off; blue's player sends its Last Stand
    again, with no result. It is no result (B6, B11): the battle still waits for one from
    both players."""
    before = at_battles(
        inputs={"battles": [{"hex": [0, 0], "last_stand": "blue"}]},
        dice=[4, 1],
        **OUTNUMBERED_AND_CUT_OFF,
    )
    handed_off = run(before)
    again = report(handed_off, {"hex": [0, 0], "last_stand": "blue"}, dice=[])
    assert the_battle(again)["status"] == "awaiting_result"
    assert again["pending"] == handed_off["pending"]


def test_b4_a_last_stand_chosen_together_with_its_result_keeps_the_result():
    """Blue states its Last Stand and, in the same file, the result blue reports for it (a
    draw). The Last Stand is used, the battle handed off, and the draw applied at once: red
    holds its tile, blue, not the controller, retreats upright but has nowhere to go."""
    before = at_battles(
        inputs={
            "battles": [
                {"hex": [0, 0], "last_stand": "blue"},
                {"hex": [0, 0], "result": "draw"},
            ]
        },
        dice=[4, 1],
        **OUTNUMBERED_AND_CUT_OFF,
    )
    after = run(before)
    battle = the_battle(after)
    assert (battle["last_stand"], battle["status"], battle["result"]) == (
        "blue",
        "resolved",
        "draw",
    )
    assert unit(after, "blue-1") is None
    assert after["clock"] == NEXT_MONTH


def test_b4_a_last_stand_in_an_own_fortress_held_with_a_defend_order():
    """Blue's army holds blue's fortress at [0, 0] with a Defend order; red moves two armies
    in from [-1, 0]. Blue controls [1, 0] beside it, yet may make a Last Stand in its own
    fortress, so it is asked. It makes one: the battle is handed off with the fortress's
    defender benefit for blue, the defending side."""
    before = position(
        tiles=[tile((0, 0), "blue", "fortress"), *HOMES],
        armies=[army("red-1", (-1, 0)), army("red-2", (-1, 0)), army("blue-1", (0, 0))],
        inputs={
            "orders": {
                "red": [move("red-1", (0, 0)), move("red-2", (0, 0))],
                "blue": [order("blue-1", "defend")],
            }
        },
        dice=[],
    )
    asked = run(before)
    assert asked["pending"] == [{"kind": "last_stand", "kingdom": "blue", "hex": [0, 0]}]
    after = report(asked, {"hex": [0, 0], "last_stand": "blue"}, dice=[4, 1])
    battle = the_battle(after)
    assert battle["last_stand"] == "blue"
    assert side(battle, "blue")["defending"] is True
    assert battle["defender_benefit"] == DEFENDER_BENEFITS["fortress"]


def test_b4_no_last_stand_in_an_own_fortress_without_a_defend_order():
    """Blue's army is in blue's fortress at [0, 0] without a Defend order, against two red
    armies; blue controls [1, 0]. No Last Stand is possible: blue must concede."""
    before = at_battles(
        tiles=[tile((0, 0), "blue", "fortress"), *HOMES],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))],
        dice=[],
    )
    after = run(before)
    assert pending(after, "last_stand") == []
    assert the_battle(after)["kind"] == "concession"
    assert owner(after, (0, 0)) == "red"


def test_b4_with_defaults_no_last_stand_is_made():
    """Blue, outnumbered at [0, 0] with no tile of its own beside it, could make a Last
    Stand but has not said. With --defaults it makes none: it must concede, and its army,
    with nowhere to retreat, is destroyed (B10)."""
    after = run(at_battles(dice=[], **OUTNUMBERED_AND_CUT_OFF), defaults=True)
    battle = the_battle(after)
    assert battle["kind"] == "concession"
    assert battle["extra"] == {"conceded_by": "blue", "forced": True}
    assert unit(after, "blue-1") is None
    assert happened(after, "destroyed") == [
        {"type": "destroyed", "units": ["blue-1"], "hex": [0, 0], "why": "no retreat"}
    ]
    assert after["clock"] == NEXT_MONTH


# --- B5 slaughter -------------------------------------------------------------------------------


def test_b5_slaughter_removes_the_highest_id_and_the_rest_retreat_on_their_sides():
    """Red's army is upright at [0, 0], blue's; blue's three armies there (blue-2, blue-3,
    blue-10) lie on their sides. Red picks a slaughter: blue-10, the highest id, is removed;
    blue-2 and blue-3 retreat to [1, 0], still on their sides; red takes the tile. No die,
    no might, no strategy."""
    before = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[
            army("red-1", (0, 0)),
            army("blue-2", (0, 0), upright=False),
            army("blue-3", (0, 0), upright=False),
            army("blue-10", (0, 0), upright=False),
        ],
        dice=[],
    )
    after = run(before)
    battle = the_battle(after)
    assert (battle["kind"], battle["winner"], battle["dice"]) == ("slaughter", "red", [])
    assert (battle["status"], battle["result"]) == ("resolved", "win")
    assert happened(after, "battle") == [battle_event("slaughter", (0, 0), "red", "blue", "red")]
    assert happened(after, "destroyed") == [
        {"type": "destroyed", "units": ["blue-10"], "hex": [0, 0], "why": "slaughtered"}
    ]
    assert battle["extra"] == {"removed": "blue-10"}
    assert unit(after, "blue-10") is None
    assert where(after, "blue-2") == ([1, 0], False)
    assert where(after, "blue-3") == ([1, 0], False)
    assert owner(after, (0, 0)) == "red"
    assert kingdom(after, "red")["pitched_wins"] == 0
    assert kingdom(after, "blue")["pitched_losses"] == 0


def test_b5_a_slaughtered_ship_takes_its_army_down_with_it():
    """Blue's ship, carrying blue-1, lies on its side at the coastal tile [0, 0]; red's army
    there is upright. The ship is slaughtered and blue-1, aboard, is lost with it."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0), upright=False)],
        ships=[ship("blue-s1", (0, 0), upright=False, carrying="blue-1")],
        dice=[],
    )
    after = run(before)
    assert the_battle(after)["extra"] == {"removed": "blue-s1"}
    assert unit(after, "blue-s1") is None
    assert unit(after, "blue-1") is None
    assert happened(after, "destroyed") == [
        {"type": "destroyed", "units": ["blue-s1", "blue-1"], "hex": [0, 0], "why": "slaughtered"}
    ]


# --- B6 pitched battles: the tabletop hand-off, results, simple battles -------------------------


def test_b6_a_pitched_battle_is_handed_off_to_the_tabletop():
    """One army each at [0, 0], blue's plain tile without a settlement; nobody Defends; blue
    has lost two pitched battles before. The battle is handed off: 500 points a side on a
    4x4 board, condition die 6 on Lowland plains (Scouting Failure), scenario die 4
    (Pillage!), two strategy cards for blue, no defender benefit. It waits for its result
    from both players; nobody moves yet."""
    after = run(one_on_one(kingdom_fields={"blue": {"pitched_losses": 2}}, dice=[6, 4]))
    battle = the_battle(after)
    # what the battle card prints beside the condition and the scenario
    assert battle.pop("extra") == {
        "battlefield": "Lowland plains",
        "how_to_win": 'D3+4 objectives are placed alternately, more than 12" apart. A side '
        'controls an objective if it has a unit within 3" of it and the enemy has none '
        'within 3". The side controlling more objectives wins; equal is a draw.',
        "condition_die": 6,
        "scenario_die": 4,
    }
    assert battle == {
        "year": 1,
        "month": 1,
        "hex": [0, 0],
        "kind": "pitched",
        "attacker": "red",
        "defender": "blue",
        "sides": [
            {
                "kingdom": "red",
                "armies": ["red-1"],
                "ships": [],
                "points": 500,
                "strategy_cards": 0,
                "defending": False,
            },
            {
                "kingdom": "blue",
                "armies": ["blue-1"],
                "ships": [],
                "points": 500,
                "strategy_cards": 2,
                "defending": False,
            },
        ],
        "board": "4x4",
        "condition": "Scouting Failure",
        "scenario": "Pillage!",
        "defender_benefit": None,
        "last_stand": None,
        "status": "awaiting_result",
        "result": None,
        "winner": None,
        "dice": [6, 4],
    }
    assert happened(after, "battle") == [handed_off_event((0, 0), "red", "blue")]
    assert [e["dice"] for e in events(after, "battle")] == [[6, 4]]
    assert after["pending"] == [
        {"kind": "battle_result", "kingdom": "red", "hex": [0, 0]},
        {"kind": "battle_result", "kingdom": "blue", "hex": [0, 0]},
    ]
    assert where(after, "red-1") == ([0, 0], True)
    assert owner(after, (0, 0)) == "blue"
    assert after["clock"] == STILL_BATTLES


@pytest.mark.parametrize(
    ("reds", "blues", "board"),
    [
        (1, 1, "4x4"),
        (2, 2, "4x4"),
        (3, 3, "5x4"),
        (4, 4, "6x4"),
        (5, 5, "6x4"),
        (6, 6, "8x4"),
        (3, 1, "5x4"),
    ],
)
def test_b6_the_board_and_points_follow_the_larger_side(reds, blues, board):
    """Red and blue armies at [0, 0]; blue has no tile beside it and, when outnumbered,
    makes a Last Stand (only then may it, B4 and B12). Points are 500 per upright army on
    each side; the board is set by the larger side: 1-2 armies 4x4, 3 5x4, 4-5 6x4, 6 8x4
    (3 against 1 is still 5x4)."""
    stand = [{"hex": [0, 0], "last_stand": "blue"}] if blues < reds else []
    before = at_battles(
        tiles=[tile((0, 0), "red")],
        armies=[
            *(army(f"red-{n}", (0, 0)) for n in range(1, reds + 1)),
            *(army(f"blue-{n}", (0, 0)) for n in range(1, blues + 1)),
        ],
        inputs={"battles": stand},
        dice=[4, 4],
    )
    battle = the_battle(run(before))
    assert battle["board"] == board
    assert [s["points"] for s in battle["sides"]] == [500 * reds, 500 * blues]


@pytest.mark.parametrize(
    ("terrain", "flags", "die", "condition"),
    [
        ("mountains", {}, 3, "Unstable Ground"),
        ("mountains", {"river": [(0, 0)]}, 1, "Unstable Ground"),
        ("mountains", {}, 4, "Clear Conditions"),
        ("plains", {"river": [(0, 0)]}, 3, "Boggy Ground"),
        ("lake", {}, 4, "Clear Conditions"),
        ("lake", {}, 1, "Boggy Ground"),
        ("plains", {"coast": [(0, 0)]}, 2, "Reduced Visibility"),
        ("forest", {"coast": [(0, 0)]}, 6, "Clear Conditions"),
        ("forest", {}, 1, "Reduced Visibility"),
        ("plains", {}, 1, "Passing Engagement"),
        ("plains", {}, 5, "Clear Conditions"),
        ("plains", {}, 6, "Scouting Failure"),
    ],
)
def test_b6_the_condition_is_rolled_on_the_tiles_battlefield_type(terrain, flags, die, condition):
    """The pitched battle at [0, 0] rolls one die on the tile terrain table, by the tile's
    battlefield type (M6: mountains; else river or lake, River valley; else coast; else
    forest; else Lowland plains)."""
    before = one_on_one(map=make_map(terrain={(0, 0): terrain}, **flags), dice=[die, 4])
    battle = the_battle(run(before))
    assert battle["condition"] == condition
    assert battle["dice"] == [die, 4]


@pytest.mark.parametrize(
    ("die", "scenario"),
    [
        (1, "Kill!"),
        (2, "Invade!"),
        (3, "Dominate!"),
        (4, "Pillage!"),
        (5, "Loot!"),
        (6, "Kill and Pillage!"),
    ],
)
def test_b6_the_scenario_is_rolled_on_one_die(die, scenario):
    """The second die of the hand-off picks the Kings of War scenario."""
    battle = the_battle(run(one_on_one(dice=[4, die])))
    assert battle["scenario"] == scenario
    assert battle["extra"]["scenario_die"] == die


@pytest.mark.parametrize("settlement", [None, "village", "city", "fortress"])
def test_b6_a_side_that_defends_gets_the_benefit_of_the_tiles_settlement(settlement):
    """Blue's army Defends [0, 0], blue's, against one red army. The hand-off gives the
    rulebook's defender benefit for the tile's settlement (or for no settlement), and marks
    blue's side as defending."""
    before = at_battles(
        tiles=[tile((0, 0), "blue", settlement), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0), defending=True)],
        dice=[4, 4],
    )
    battle = the_battle(run(before))
    assert battle["defender_benefit"] == DEFENDER_BENEFITS[settlement]
    assert side(battle, "blue")["defending"] is True
    assert side(battle, "red")["defending"] is False


def test_b6_a_capital_gives_the_benefit_of_a_city():
    """Blue's army Defends its capital at [0, 0]: the defender benefit is a city's."""
    before = at_battles(
        tiles=[tile((0, 0), "blue", "city"), *HOMES],
        capitals={"blue": (0, 0)},
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0), defending=True)],
        dice=[4, 4],
    )
    assert the_battle(run(before))["defender_benefit"] == DEFENDER_BENEFITS["city"]


def test_b6_without_a_defend_order_there_is_no_defender_benefit():
    """Blue's army stands in blue's fortress at [0, 0] without a Defend order: no benefit."""
    before = at_battles(
        tiles=[tile((0, 0), "blue", "fortress"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[4, 4],
    )
    assert the_battle(run(before))["defender_benefit"] is None


def test_b6_a_win_reported_from_the_tabletop():
    """The handed-off battle at [0, 0], blue's, is reported won by red. Red gains 1 might
    (pitched_wins), blue learns a strategy (pitched_losses); blue's army retreats to [1, 0]
    on its side and red takes the tile. The month goes on."""
    handed_off = run(one_on_one(dice=[4, 4]))
    after = report(handed_off, {"hex": [0, 0], "result": "win", "winner": "red"}, dice=ROLL_OFF)
    battle = the_battle(after)
    assert (battle["kind"], battle["status"]) == ("pitched", "resolved")
    assert (battle["result"], battle["winner"]) == ("win", "red")
    assert battle["dice"] == [4, 4]
    assert happened(after, "battle") == [
        handed_off_event((0, 0), "red", "blue"),
        battle_event("pitched", (0, 0), "red", "blue", "red"),
    ]
    assert [e["dice"] for e in events(after, "battle")] == [[4, 4], []]  # D1: not twice
    assert kingdom(after, "red")["pitched_wins"] == 1
    assert kingdom(after, "blue")["pitched_losses"] == 1
    assert kingdom(after, "red")["pitched_losses"] == 0
    assert happened(after, "strategy-learned") == [
        {"type": "strategy-learned", "kingdom": "blue", "strategies": 1}
    ]
    assert happened(after, "retreated") == [
        {"type": "retreated", "unit": "blue-1", "from": [0, 0], "to": [1, 0], "upright": False}
    ]
    assert where(after, "blue-1") == ([1, 0], False)
    assert where(after, "red-1") == ([0, 0], True)
    assert owner(after, (0, 0)) == "red"
    assert after["pending"] == [
        {"kind": "orders", "kingdom": "red", "units": ["red-1"]},
        {"kind": "orders", "kingdom": "blue", "units": ["blue-1"]},
    ]
    assert after["clock"] == NEXT_MONTH


def test_b6_a_draw_reported_from_the_tabletop():
    """The handed-off battle at [0, 0], blue's, is reported drawn: no might, no strategy;
    blue's army stays (blue controls the tile); red's retreats upright to [-1, 0]."""
    handed_off = run(one_on_one(dice=[4, 4]))
    after = report(handed_off, {"hex": [0, 0], "result": "draw"}, dice=ROLL_OFF)
    battle = the_battle(after)
    assert (battle["status"], battle["result"], battle["winner"]) == ("resolved", "draw", None)
    assert [kingdom(after, k)["pitched_wins"] for k in ("red", "blue")] == [0, 0]
    assert [kingdom(after, k)["pitched_losses"] for k in ("red", "blue")] == [0, 0]
    assert where(after, "blue-1") == ([0, 0], True)
    assert where(after, "red-1") == ([-1, 0], True)
    assert happened(after, "retreated") == [
        {"type": "retreated", "unit": "red-1", "from": [0, 0], "to": [-1, 0], "upright": True}
    ]
    assert happened(after, "strategy-learned") == []
    assert owner(after, (0, 0)) == "blue"


def test_b6_a_winner_who_did_not_fight_is_refused():
    """A result naming green, who did not fight at [0, 0], is refused."""
    handed_off = run(one_on_one(kingdoms=("red", "blue", "green"), dice=[4, 4]))
    refused = refusal(
        {**handed_off, "inputs": {"battles": [{"hex": [0, 0], "result": "win", "winner": "green"}]}}
    )
    assert refused.code == "winner-not-in-battle"


def test_b6_the_admin_may_resolve_a_handed_off_battle_as_a_simple_land_battle():
    """The handed-off battle at [0, 0] can't be scheduled; the admin resolves it as a simple
    land battle: red rolls 4 (a hit on blue's Defence 4), blue rolls 3 (no hit on red's 4).
    Red wins: no might (not won on the tabletop), but blue learns a strategy."""
    handed_off = run(one_on_one(dice=[4, 4]))
    after = report(handed_off, {"hex": [0, 0], "resolve": "simple"}, dice=[4, 3, *ROLL_OFF])
    battle = the_battle(after)
    assert (battle["kind"], battle["status"], battle["winner"]) == ("simple", "resolved", "red")
    assert battle["dice"] == [4, 4, 4, 3]
    assert [e["dice"] for e in events(after, "battle")] == [[4, 4], [4, 3]]
    assert happened(after, "battle") == [
        handed_off_event((0, 0), "red", "blue"),
        battle_event("simple", (0, 0), "red", "blue", "red"),
    ]
    assert kingdom(after, "red")["pitched_wins"] == 0
    assert kingdom(after, "blue")["pitched_losses"] == 1
    assert where(after, "blue-1") == ([1, 0], False)
    assert after["clock"] == NEXT_MONTH


def test_b6_in_a_simple_campaign_every_pitched_battle_is_a_simple_land_battle():
    """With the `battles: simple` option the battle at [0, 0] is fought at once as a simple
    land battle: no condition, scenario or board; red's die 2 misses, blue's 5 hits. Blue
    wins; red learns a strategy and retreats on its side; nobody gains might."""
    after = run(
        simple(
            tiles=[tile((0, 0), "blue"), *HOMES],
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
            dice=[2, 5, *ROLL_OFF],
        )
    )
    battle = the_battle(after)
    assert (battle["kind"], battle["status"], battle["winner"]) == ("simple", "resolved", "blue")
    assert (battle["board"], battle["condition"], battle["scenario"]) == (None, None, None)
    assert battle["dice"] == [2, 5]
    assert kingdom(after, "red")["pitched_losses"] == 1
    assert kingdom(after, "blue")["pitched_wins"] == 0
    assert where(after, "red-1") == ([-1, 0], False)
    assert after["clock"] == NEXT_MONTH


# --- B7 simple land battles ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("settlement", "capital", "defends", "defence"),
    [
        (None, False, False, 4),
        (None, False, True, 5),
        ("city", True, False, 5),
        ("fortress", False, False, 5),
        ("fortress", False, True, 6),
        ("city", True, True, 6),
        ("city", False, True, 5),
    ],
)
def test_b7_defence_is_4_plus_1_for_defend_own_capital_and_own_fortress(
    settlement, capital, defends, defence
):
    """Blue's army at [0, 0], blue's, has Defence 4, +1 if it Defends, +1 in its own capital,
    +1 in its own fortress. Red's die equal to that Defence hits (red wins, blue's die of 1
    misses); one less misses (a draw: nobody hit)."""
    for die, winner in ((defence, "red"), (defence - 1, None)):
        before = simple(
            tiles=[tile((0, 0), "blue", settlement), *HOMES],
            capitals={"blue": (0, 0)} if capital else None,
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0), defending=defends)],
            dice=[die, 1, *ROLL_OFF],
        )
        battle = the_battle(run(before))
        assert battle["winner"] == winner, (die, defence)
        assert battle["extra"]["attacker_hits"] == (winner == "red")


@pytest.mark.parametrize(
    ("settlement", "capitals"),
    [("city", {"blue": (0, 0)}), ("fortress", None)],
    ids=["capital", "fortress"],
)
def test_b7_no_modifier_in_an_enemy_capital_or_fortress(settlement, capitals):
    """Red's army stands in blue's capital (or blue's fortress) at [0, 0]: a capital or a
    fortress gives only its own kingdom's armies +1, so red's Defence stays 4 and blue's die
    of 4 hits it."""
    before = simple(
        tiles=[tile((0, 0), "blue", settlement), *HOMES],
        capitals=capitals,
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[1, 4, *ROLL_OFF],
    )
    battle = the_battle(run(before))
    assert battle["extra"]["defender_hits"] == 1
    assert battle["winner"] == "blue"


def test_b7_the_pickers_army_has_its_modifiers_too():
    """Red picks the battle at [0, 0], its own capital, which blue-1 has entered. Red-1, the
    picker's army, has Defence 5 there (B7's +1 for its own capital counts for either side):
    blue's die of 4 misses and red's 1 misses, a draw; blue-1 goes back upright."""
    before = simple(
        tiles=[tile((0, 0), "red", "city"), *HOMES],
        capitals={"red": (0, 0)},
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[1, 4, *ROLL_OFF],
    )
    after = run(before)
    assert happened(after, "battle") == [battle_event("simple", (0, 0), "red", "blue", None)]
    assert where(after, "blue-1") == ([1, 0], True)


def test_b7_each_die_goes_to_the_opposing_army_with_the_lowest_defence():
    """Blue has two armies at [0, 0], blue's: blue-1 Defends (Defence 5), blue-2 does not
    (Defence 4). Red's two armies roll 4 and 4: both dice go to blue-2, the lowest Defence,
    and both hit (an army may be hit by several dice). Blue rolls 3 and 3: no hit. Red wins
    2 hits to 0."""
    before = simple(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[
            army("red-1", (0, 0)),
            army("red-2", (0, 0)),
            army("blue-1", (0, 0), defending=True),
            army("blue-2", (0, 0)),
        ],
        dice=[4, 4, 3, 3, *ROLL_OFF],
    )
    battle = the_battle(run(before))
    assert battle["extra"]["attacker_dice"] == [4, 4]
    assert battle["extra"]["defender_dice"] == [3, 3]
    assert (battle["extra"]["attacker_hits"], battle["extra"]["defender_hits"]) == (2, 0)
    assert battle["winner"] == "red"


# --- B8 naval battles ---------------------------------------------------------------------------

AT_SEA = (0, -1)  # open water


def test_b8_a_ship_carrying_an_army_adds_one_to_its_die():
    """On open water at [0, -1], red's ship carries an army, blue's does not. Both roll 3:
    red's 3 + 1 sinks blue's ship, blue's 3 misses. Blue has no ship left: red wins. Open
    water is never controlled."""
    before = at_battles(
        map=SEA,
        armies=[army("red-1", AT_SEA)],
        ships=[ship("red-s1", AT_SEA, carrying="red-1"), ship("blue-s1", AT_SEA)],
        dice=[3, 3, *ROLL_OFF],
    )
    after = run(before)
    battle = the_battle(after)
    assert (battle["kind"], battle["winner"], battle["dice"]) == ("naval", "red", [3, 3])
    assert (battle["status"], battle["result"]) == ("resolved", "win")
    assert happened(after, "battle") == [battle_event("naval", AT_SEA, "red", "blue", "red")]
    assert battle["extra"]["rounds"] == [
        {
            "attacker_dice": [3],
            "defender_dice": [3],
            "attacker_sunk": [],
            "defender_sunk": ["blue-s1"],
        }
    ]
    assert unit(after, "blue-s1") is None
    assert where(after, "red-s1") == (list(AT_SEA), True)
    assert tile_at(after, AT_SEA) is None


def test_b8_every_die_is_one_lower_on_a_river():
    """Red's and blue's ships meet on the river at [0, 1], red's plain tile. Red rolls 4
    (3 after the river's -1: a miss), blue rolls 5 (4: a hit). Red's ship sinks; blue wins
    and takes the tile."""
    before = at_battles(
        map=make_map(river=[(0, 1)]),
        tiles=[tile((0, 1), "red")],
        ships=[ship("red-s1", (0, 1)), ship("blue-s1", (0, 1))],
        dice=[4, 5, *ROLL_OFF],
    )
    after = run(before)
    assert the_battle(after)["winner"] == "blue"
    assert unit(after, "red-s1") is None
    assert owner(after, (0, 1)) == "blue"


def test_b8_every_die_is_one_lower_on_a_lake():
    """The same on a lake tile: red's 4 misses, blue's 5 hits."""
    before = at_battles(
        map=make_map(terrain={(0, 1): "lake"}),
        tiles=[tile((0, 1), "red")],
        ships=[ship("red-s1", (0, 1)), ship("blue-s1", (0, 1))],
        dice=[4, 5, *ROLL_OFF],
    )
    assert the_battle(run(before))["winner"] == "blue"


def test_b8_an_army_aboard_a_sunk_ship_sinks_with_it():
    """On open water, blue's ship carries blue-1. Red rolls 4 and sinks it; blue's 2 + 1
    misses. Blue-1 is lost with its ship."""
    before = at_battles(
        map=SEA,
        armies=[army("blue-1", AT_SEA)],
        ships=[ship("red-s1", AT_SEA), ship("blue-s1", AT_SEA, carrying="blue-1")],
        dice=[4, 2, *ROLL_OFF],
    )
    after = run(before)
    assert the_battle(after)["winner"] == "red"
    assert unit(after, "blue-s1") is None
    assert unit(after, "blue-1") is None
    assert happened(after, "destroyed") == [
        {"type": "destroyed", "units": ["blue-s1", "blue-1"], "hex": list(AT_SEA), "why": "sunk"}
    ]


@pytest.mark.parametrize(
    ("aboard", "capitals", "holder"),
    [
        ("red-1", {}, {"kingdom": "red", "army": "red-1"}),
        (None, {"red": (0, 2)}, {"kingdom": "red", "army": None}),
        (None, {}, None),
    ],
    ids=["to-its-army-aboard", "to-its-capital", "to-the-pool"],
)
def test_b8_oa10_the_winner_of_a_naval_battle_takes_what_the_sunk_army_carried(
    aboard, capitals, holder
):
    """With wizards and artefacts (OA10), blue-1, aboard blue's ship on open water, carries
    S; red rolls 4 and sinks the ship, blue's 2 misses. Red won the battle that sank it: S
    goes to red's first army in the tile, red-1 aboard red's ship (which keeps carrying it).
    With red's ship empty, nothing of red's stands in the tile: S goes to red's capital, at
    [0, 2]; with no capital, back to the pool, and the chronicle says it went to nobody."""
    before = at_battles(
        map=SEA,
        armies=[*([army(aboard, AT_SEA)] if aboard else []), army("blue-1", AT_SEA)],
        ships=[
            ship("red-s1", AT_SEA, carrying=aboard),
            ship("blue-s1", AT_SEA, carrying="blue-1"),
        ],
        tiles=[tile(c, k, "city") for k, c in capitals.items()],
        capitals=capitals,
        options={"wizards": True},
        artefacts=[{"name": "S", "points": 25, "holder": {"kingdom": "blue", "army": "blue-1"}}],
        dice=[4, 2, *ROLL_OFF],
    )
    after = run(before)
    assert the_battle(after)["winner"] == "red"
    assert unit(after, "blue-1") is None
    assert present(after, "red-s1")["carrying"] == aboard
    assert [a["holder"] for a in after["artefacts"]] == [holder]
    to = "red" if holder else None
    assert happened(after, "artefact-taken") == [
        {"type": "artefact-taken", "artefact": "S", "from": "blue", "to": to, "hex": list(AT_SEA)}
    ]


def test_b8_rounds_repeat_while_the_fleets_are_equal():
    """One ship each on open water. Round 1: 2 and 2, both miss; round 2: 3 and 3, both
    miss; round 3: red 6 sinks blue's ship, blue's 1 misses. Red wins after three rounds;
    every die is recorded in order."""
    before = at_battles(
        map=SEA,
        ships=[ship("red-s1", AT_SEA), ship("blue-s1", AT_SEA)],
        dice=[2, 2, 3, 3, 6, 1, *ROLL_OFF],
    )
    battle = the_battle(run(before))
    assert battle["dice"] == [2, 2, 3, 3, 6, 1]
    assert len(battle["extra"]["rounds"]) == 3
    assert battle["winner"] == "red"


def test_b8_a_side_with_fewer_ships_after_a_round_has_lost():
    """Red has two ships on open water, blue one. Round 1: all three dice miss. Blue has
    fewer ships: it has lost, and its ship retreats on its side into open water it chose."""
    before = at_battles(
        map=SEA,
        ships=[ship("red-s1", AT_SEA), ship("red-s2", AT_SEA), ship("blue-s1", AT_SEA)],
        inputs={"retreats": {"blue-s1": [0, -2]}},
        dice=[1, 1, 1, *ROLL_OFF],
    )
    after = run(before)
    battle = the_battle(after)
    assert (battle["winner"], battle["dice"]) == ("red", [1, 1, 1])
    assert where(after, "blue-s1") == ([0, -2], False)


def test_b8_when_both_fleets_sink_in_the_same_round_nobody_wins():
    """One ship each on open water; both roll 5 and both ships sink. Nobody wins: the result
    is recorded as a draw without a winner. (Each side has an army ashore elsewhere.)"""
    before = at_battles(
        map=SEA,
        armies=[army("red-1", (-1, 1)), army("blue-1", (1, 1))],
        ships=[ship("red-s1", AT_SEA), ship("blue-s1", AT_SEA)],
        dice=[5, 5, *ROLL_OFF],
    )
    after = run(before)
    battle = the_battle(after)
    assert (battle["result"], battle["winner"]) == ("draw", None)
    assert happened(after, "battle") == [battle_event("naval", AT_SEA, "red", "blue", None)]
    assert after["ships"] == []
    assert after["clock"] == NEXT_MONTH
    assert tile_at(after, AT_SEA) is None


# --- B9 land/water battles ---------------------------------------------------------------------


def test_b9_a_ship_with_an_army_rolls_two_dice():
    """Red's ship carrying red-1 faces blue's army at the coastal tile [0, 0], blue's. Red
    rolls two dice (3 + 3 = 6), blue one (5): red wins. Blue's army retreats on its side to
    [1, 0]; nothing is sunk or destroyed; red takes the tile."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        ships=[ship("red-s1", (0, 0), carrying="red-1")],
        dice=[3, 3, 5, *ROLL_OFF],
    )
    after = run(before)
    battle = the_battle(after)
    assert battle["kind"] == "land_water"
    assert battle["extra"] == {"attacker_total": 6, "defender_total": 5}
    assert battle["winner"] == "red"
    assert (battle["status"], battle["result"]) == ("resolved", "win")
    assert happened(after, "battle") == [battle_event("land_water", (0, 0), "red", "blue", "red")]
    assert where(after, "blue-1") == ([1, 0], False)
    assert where(after, "red-1") == ([0, 0], True)
    assert events(after, "destroyed") == []
    assert owner(after, (0, 0)) == "red"


def test_b9_equal_totals_are_a_draw():
    """Red's empty ship and blue's army at the coastal tile [0, 0], blue's, both roll 4: a
    draw. Blue's army stays (blue controls the tile); red's ship must leave and retreats
    upright into the open water red chose."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("blue-1", (0, 0))],
        ships=[ship("red-s1", (0, 0))],
        inputs={"retreats": {"red-s1": [0, -1]}},
        dice=[4, 4],
    )
    after = run(before)
    assert the_battle(after)["result"] == "draw"
    assert happened(after, "battle") == [battle_event("land_water", (0, 0), "red", "blue", None)]
    assert where(after, "blue-1") == ([0, 0], True)
    assert where(after, "red-s1") == ([0, -1], True)
    assert happened(after, "retreated") == [
        {"type": "retreated", "unit": "red-s1", "from": [0, 0], "to": [0, -1], "upright": True}
    ]
    assert owner(after, (0, 0)) == "blue"


# --- B10 results --------------------------------------------------------------------------------

TWO_WAYS_HOME = [
    tile((0, 0), "blue"),
    tile((1, 0), "blue"),
    tile((0, 1), "blue"),
    tile((-1, 0), "red"),
]


def test_b10_each_losing_unit_retreats_to_the_tile_chosen_for_it():
    """Two armies each at [0, 0], blue's; blue controls [1, 0] and [0, 1] beside it. Red wins
    on the tabletop; blue sends blue-1 to [1, 0] and blue-2 to [0, 1]. Both lie on their
    sides."""
    before = at_battles(
        tiles=TWO_WAYS_HOME,
        armies=[
            army("red-1", (0, 0)),
            army("red-2", (0, 0)),
            army("blue-1", (0, 0)),
            army("blue-2", (0, 0)),
        ],
        dice=[4, 4],
    )
    after = report(
        run(before),
        {"hex": [0, 0], "result": "win", "winner": "red"},
        retreats={"blue-1": [1, 0], "blue-2": [0, 1]},
        dice=ROLL_OFF,
    )
    assert where(after, "blue-1") == ([1, 0], False)
    assert where(after, "blue-2") == ([0, 1], False)
    assert after["clock"] == NEXT_MONTH


def test_b10_a_loser_with_a_choice_of_tiles_is_asked_where_to_retreat():
    """Red wins at [0, 0]; blue-1 may retreat to [0, 1] or [1, 0] and blue has not said
    which. The engine waits for blue's choice (the battle is resolved; the army still stands
    at [0, 0], marked as retreating from a loss). Once blue says [1, 0], it goes there."""
    before = simple(
        tiles=TWO_WAYS_HOME,
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[6, 1, *ROLL_OFF],
    )
    asked = run(before)
    assert asked["pending"] == [
        {"kind": "retreat", "kingdom": "blue", "unit": "blue-1", "choices": [[0, 1], [1, 0]]}
    ]
    assert the_battle(asked)["status"] == "resolved"
    assert present(asked, "blue-1")["retreat"] == "loss"
    assert asked["clock"] == STILL_BATTLES
    after = report(asked, retreats={"blue-1": [1, 0]})
    assert where(after, "blue-1") == ([1, 0], False)
    assert "retreat" not in present(after, "blue-1")
    assert after["clock"] == NEXT_MONTH


def test_b10_every_losing_unit_with_a_choice_is_asked():
    """Simple battles. Red's two armies beat blue's two at [0, 0], blue's (6 and 6 against 1
    and 1). Blue-1 and blue-2 may each go to [0, 1], [1, -1] or [1, 0]: blue is asked for
    both, not only the first."""
    before = simple(
        tiles=[tile((0, 0), "blue"), tile((1, -1), "blue"), tile((0, 1), "blue"), *HOMES],
        armies=[
            army("red-1", (0, 0)),
            army("red-2", (0, 0)),
            army("blue-1", (0, 0)),
            army("blue-2", (0, 0)),
        ],
        dice=[6, 6, 1, 1],
    )
    after = run(before)
    choices = [[0, 1], [1, -1], [1, 0]]
    assert after["pending"] == [
        {"kind": "retreat", "kingdom": "blue", "unit": "blue-1", "choices": choices},
        {"kind": "retreat", "kingdom": "blue", "unit": "blue-2", "choices": choices},
    ]


def test_b10_with_defaults_a_retreat_goes_to_the_first_tile_in_qr_order():
    """Blue-1 loses at [0, 0] and may retreat to [1, -1] or [0, 1]. With --defaults it goes
    to [0, 1], first in [q, r] order."""
    before = simple(
        tiles=[tile((0, 0), "blue"), tile((1, -1), "blue"), tile((0, 1), "blue"), HOMES[0]],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[6, 1, *ROLL_OFF],
    )
    after = run(before, defaults=True)
    assert where(after, "blue-1") == ([0, 1], False)


def test_b10_a_unit_with_nowhere_to_retreat_is_destroyed():
    """Blue-1 loses at [0, 0], red's, and blue controls no tile beside it: it is destroyed."""
    before = simple(
        tiles=[tile((0, 0), "red")],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[6, 1],
    )
    after = run(before)
    assert unit(after, "blue-1") is None
    assert happened(after, "destroyed") == [
        {"type": "destroyed", "units": ["blue-1"], "hex": [0, 0], "why": "no retreat"}
    ]


def test_b10_a_unit_destroyed_for_want_of_a_retreat_leaves_the_others_to_retreat():
    """Simple battles. Blue-1 and blue's ship blue-s1 lose at the coastal tile [0, 0], red's
    (red rolls 6, blue 1). Blue controls no tile beside it: blue-1 is destroyed; blue-s1
    still retreats, into the open water blue chose for it."""
    before = simple(
        map=SEA,
        tiles=[tile((0, 0), "red"), HOMES[0]],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        ships=[ship("blue-s1", (0, 0))],
        inputs={"retreats": {"blue-s1": [0, -1]}},
        dice=[6, 1],
    )
    after = run(before)
    assert happened(after, "destroyed") == [
        {"type": "destroyed", "units": ["blue-1"], "hex": [0, 0], "why": "no retreat"}
    ]
    assert happened(after, "retreated") == [
        {"type": "retreated", "unit": "blue-s1", "from": [0, 0], "to": [0, -1], "upright": False}
    ]
    assert after["clock"] == NEXT_MONTH


def test_b10_an_army_cannot_retreat_across_a_water_edge():
    """Blue-1 loses at [0, 0]; blue's only tile beside it, [1, 0], lies across a water edge,
    which armies never cross: blue-1 has nowhere to go and is destroyed."""
    before = simple(
        map=make_map(water_edges=[((0, 0), (1, 0))]),
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[6, 1],
    )
    assert unit(run(before), "blue-1") is None


def test_b10_a_ship_may_retreat_into_open_water_without_enemy_ships():
    """Blue's ship loses a naval battle on open water at [0, -1] (two red ships, all dice
    miss). It may retreat into open water without enemy ships ([-1, -1], where blue's own
    second ship is, [0, -2], [1, -2]; not [1, -1], where red's third ship is) or to blue's
    own coastal tile [0, 0]. Blue is asked which."""
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), HOMES[0]],
        ships=[
            ship("red-s1", AT_SEA),
            ship("red-s2", AT_SEA),
            ship("red-s3", (1, -1)),
            ship("blue-s1", AT_SEA),
            ship("blue-s2", (-1, -1)),
        ],
        dice=[1, 1, 1],
    )
    after = run(before)
    assert after["pending"] == [
        {
            "kind": "retreat",
            "kingdom": "blue",
            "unit": "blue-s1",
            "choices": [[-1, -1], [0, -2], [0, 0], [1, -2]],
        }
    ]


def test_b10_a_draw_in_a_third_kingdoms_tile_sends_both_sides_back_upright():
    """Red and blue draw at [0, 0], green's tile (neither scores a hit). Neither controls
    it, so both retreat, upright, to their own tiles beside it; green keeps the tile."""
    before = simple(
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "green"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("green-1", (2, 0))],
        dice=[1, 1, 6, 5, 4],
    )
    after = run(before)
    assert the_battle(after)["result"] == "draw"
    assert where(after, "red-1") == ([-1, 0], True)
    assert where(after, "blue-1") == ([1, 0], True)
    assert owner(after, (0, 0)) == "green"


def test_b10_a_drawn_unit_with_a_choice_of_tiles_waits_upright_for_its_retreat():
    """Red and blue draw at [0, 0], green's tile (both roll 1). Red-1 goes back upright to
    [-1, 0]; blue-1 may go to [1, -1] or [1, 0], blue's: blue is asked, and meanwhile blue-1
    stands upright in [0, 0], retreating from a draw (not a loss, which lays it down)."""
    before = simple(
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "green"), tile((1, -1), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("green-1", (2, 0))],
        dice=[1, 1],
    )
    after = run(before)
    assert after["pending"] == [
        {"kind": "retreat", "kingdom": "blue", "unit": "blue-1", "choices": [[1, -1], [1, 0]]}
    ]
    assert unit(after, "blue-1") == {**army("blue-1", (0, 0)), "ally": None, "retreat": "draw"}
    assert where(after, "red-1") == ([-1, 0], True)


def test_b10_the_winner_takes_the_tile_and_a_capital_so_taken_is_no_capital():
    """Red's two armies face blue's one in blue's capital at [0, 0]. Blue must concede (B4):
    red wins and takes the tile, a city that is no longer anyone's capital (O7)."""
    before = at_battles(
        tiles=[tile((0, 0), "blue", "city"), *HOMES],
        capitals={"blue": (0, 0)},
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))],
        dice=[],
    )
    after = run(before)
    assert tile_at(after, (0, 0)) == tile((0, 0), "red", "city")
    assert kingdom(after, "blue")["capital"] is None
    assert kingdom(after, "red")["capital"] is None
    assert [e["kingdom"] for e in events(after, "capital-lost")] == ["blue"]


def test_b10_a_retreat_into_an_enemy_held_tile_makes_a_new_battle():
    """Blue-1 loses at [0, 0] (red rolls 6, blue 1) and must retreat to [1, 0], blue's only
    tile beside it, where red-2 stands alone. [1, 0] is now contested: blue's army lies on
    its side, so blue can't pick, and red picks again: a slaughter, and blue-1 is gone."""
    before = simple(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("red-2", (1, 0))],
        dice=[6, 1],
    )
    after = run(before)
    assert [(b["hex"], b["kind"], b["attacker"]) for b in after["battles"]] == [
        ([0, 0], "simple", "red"),
        ([1, 0], "slaughter", "red"),
    ]
    assert unit(after, "blue-1") is None
    assert owner(after, (1, 0)) == "red"


def test_b10_a_retreat_into_a_tile_not_yet_fought_joins_its_side():
    """Red picks [0, 0] first and wins (6 against 1); blue-1 retreats, as blue chose, to
    [1, 0], where blue-2 and red-2 have yet to fight. Blue-1 lies there on its side with
    blue's units. Blue picks [1, 0] and loses (1 against 6): blue-1 shares the result and
    retreats again, with blue-2, to [2, 0] (its earlier choice does not stand in the way)."""
    before = simple(
        tiles=[
            tile((0, 0), "blue"),
            tile((1, 0), "blue"),
            tile((-1, 1), "blue"),
            tile((2, 0), "blue"),
            HOMES[0],
        ],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-2", (1, 0)),
            army("blue-2", (1, 0)),
        ],
        inputs={"battle_choices": {"red": [[0, 0]]}, "retreats": {"blue-1": [1, 0]}},
        dice=[6, 1, 1, 6, *ROLL_OFF],
    )
    after = run(before)
    second = battles(after, (1, 0))[0]
    assert (second["attacker"], second["winner"]) == ("blue", "red")
    assert side(second, "blue")["armies"] == ["blue-2"]
    assert happened(after, "retreated") == [
        {"type": "retreated", "unit": "blue-1", "from": [0, 0], "to": [1, 0], "upright": False},
        {"type": "retreated", "unit": "blue-1", "from": [1, 0], "to": [2, 0], "upright": False},
        {"type": "retreated", "unit": "blue-2", "from": [1, 0], "to": [2, 0], "upright": False},
    ]
    assert where(after, "blue-1") == ([2, 0], False)
    assert where(after, "blue-2") == ([2, 0], False)
    assert after["clock"] == NEXT_MONTH


def test_b10_a_drawn_army_retreating_upright_can_force_a_concession_where_it_lands():
    """Red picks [0, 0], its tile, and draws with blue (1 against 1): blue-1 retreats upright
    to [1, 0], blue's, where blue-2 and red-2 have yet to fight. Blue picks [1, 0] next:
    two blue armies against one, so red must concede, and red-2 retreats to [0, 0]."""
    before = simple(
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue")],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-2", (1, 0)),
            army("blue-2", (1, 0)),
        ],
        inputs={"battle_choices": {"red": [[0, 0]]}},
        dice=[1, 1, *ROLL_OFF],
    )
    after = run(before)
    second = battles(after, (1, 0))[0]
    assert (second["kind"], second["attacker"], second["winner"]) == ("concession", "blue", "blue")
    assert second["extra"] == {"conceded_by": "red", "forced": True}
    assert where(after, "blue-1") == ([1, 0], True)
    assert where(after, "red-2") == ([0, 0], False)


def test_b10_a_drawn_army_retreating_upright_can_spare_a_last_stand():
    """Blue-2 stands alone against red-2 and red-3 at [1, 0], blue's only tile (so it could
    make a Last Stand). Red picks [0, 0] first and draws (1 against 1): blue-1 retreats
    upright to [1, 0]. Blue then picks [1, 0]: two against two, a pitched battle handed off
    with no Last Stand to ask about."""
    before = at_battles(
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue")],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-2", (1, 0)),
            army("red-3", (1, 0)),
            army("blue-2", (1, 0)),
        ],
        options={"battles": "tabletop"},
        inputs={"battle_choices": {"red": [[0, 0]]}},
        dice=[4, 4],
    )
    handed_off = run(before)
    first = the_battle(handed_off)
    assert first["hex"] == [0, 0]
    after = report(handed_off, {"hex": [0, 0], "result": "draw"}, dice=[4, 4])
    second = battles(after, (1, 0))[0]
    assert (second["kind"], second["attacker"], second["last_stand"]) == ("pitched", "blue", None)
    assert sorted(side(second, "blue")["armies"]) == ["blue-1", "blue-2"]
    assert pending(after, "last_stand") == []


def test_b10_a_ship_retreating_upright_from_a_draw_meets_enemy_ships_in_a_naval_battle():
    """A land/water battle at the coastal tile [0, 0], blue's: blue's army against red's
    empty ship, 4 against 4, a draw. The ship must leave, upright, and its only way is red's
    coastal tile [-1, 0], where blue's ship lies at anchor. That tile is now contested; after
    red (the picker) comes blue, who picks it: a naval battle, blue rolling first. Round 1:
    2 and 2, both miss; round 2: blue's 5 sinks red's ship, red's 1 misses. Blue takes
    [-1, 0]."""
    before = at_battles(
        map=make_map(coast=[(0, 0), (-1, 0)]),
        tiles=[tile((0, 0), "blue"), tile((-1, 0), "red")],
        armies=[army("blue-1", (0, 0)), army("red-1", (-2, 0))],
        ships=[ship("red-s1", (0, 0)), ship("blue-s2", (-1, 0))],
        dice=[4, 4, 2, 2, 5, 1, *ROLL_OFF],
    )
    after = run(before)
    naval = battles(after, (-1, 0))[0]
    assert (naval["kind"], naval["attacker"], naval["defender"]) == ("naval", "blue", "red")
    assert naval["dice"] == [2, 2, 5, 1]
    assert naval["winner"] == "blue"
    assert unit(after, "red-s1") is None
    assert owner(after, (-1, 0)) == "blue"


# --- B11 parallel tabletop play ------------------------------------------------------------------


def test_b11_battles_in_different_tiles_are_handed_off_together():
    """Red and blue face each other at [0, 1] and [1, -1]. Red picks [0, 1] (its preference)
    and hands it off; the tile waits for its result, so picking goes on: blue picks
    [1, -1] and hands it off too. Both wait, and all four players are asked for results."""
    before = at_battles(
        inputs={"battle_choices": {"red": [[0, 1]]}}, dice=[1, 2, 3, 4], **TWO_TILES
    )
    after = run(before)
    assert [(b["hex"], b["status"], b["dice"]) for b in after["battles"]] == [
        ([0, 1], "awaiting_result", [1, 2]),
        ([1, -1], "awaiting_result", [3, 4]),
    ]
    assert waiting_for(after, "battle_result") == [
        ("red", [0, 1]),
        ("blue", [0, 1]),
        ("blue", [1, -1]),
        ("red", [1, -1]),
    ]


def test_b11_a_later_result_waits_for_an_earlier_one():
    """The two handed-off battles: blue reports its win at [1, -1] first. It is not applied:
    the earlier battle at [0, 1] has no result yet, and only its players are still asked.
    When red's win at [0, 1] comes in, both are applied in picking order."""
    before = at_battles(
        inputs={"battle_choices": {"red": [[0, 1]]}}, dice=[4, 4, 4, 4], **TWO_TILES
    )
    handed_off = run(before)
    waiting = report(handed_off, {"hex": [1, -1], "result": "win", "winner": "blue"})
    assert [b["status"] for b in waiting["battles"]] == ["awaiting_result", "awaiting_result"]
    assert waiting_for(waiting, "battle_result") == [("red", [0, 1]), ("blue", [0, 1])]
    assert where(waiting, "red-2") == ([1, -1], True)
    after = report(waiting, {"hex": [0, 1], "result": "win", "winner": "red"}, dice=[])
    resolved = [e["hex"] for e in events(after, "battle") if e["status"] == "resolved"]
    assert resolved == [[0, 1], [1, -1]]
    assert [b["winner"] for b in after["battles"]] == ["red", "blue"]
    assert kingdom(after, "red")["pitched_wins"] == 1
    assert kingdom(after, "blue")["pitched_wins"] == 1
    assert after["clock"] == NEXT_MONTH


def test_b11_a_result_in_for_a_middle_battle_leaves_the_others_asked():
    """Three battles are handed off together: red's at [0, 1], blue's at [1, -1], red's at
    [-1, -1]. Blue's win at [1, -1] comes in first: it waits for the earlier [0, 1], and
    the players of [0, 1] and of [-1, -1] are still asked for their results (B11)."""
    before = at_battles(
        tiles=[tile((0, 1), "blue"), tile((1, -1), "blue"), *HOMES],
        armies=[
            *TWO_TILES["armies"],
            army("red-3", (-1, -1)),
            army("blue-3", (-1, -1)),
        ],
        inputs={"battle_choices": {"red": [[0, 1], [-1, -1]], "blue": [[1, -1]]}},
        dice=[4, 4, 4, 4, 4, 4],
    )
    handed_off = run(before)
    assert [(b["hex"], b["attacker"]) for b in handed_off["battles"]] == [
        ([0, 1], "red"),
        ([1, -1], "blue"),
        ([-1, -1], "red"),
    ]
    waiting = report(handed_off, {"hex": [1, -1], "result": "win", "winner": "blue"})
    assert waiting_for(waiting, "battle_result") == [
        ("red", [0, 1]),
        ("blue", [0, 1]),
        ("red", [-1, -1]),
        ("blue", [-1, -1]),
    ]


def test_b11_picking_resumes_with_the_kingdom_after_the_one_that_picked_the_battle():
    """Player order green, red, blue. Red picks [0, 0], its tile, against blue; blue picks
    [0, 2] against red; both are handed off, and the turn to pick passes round to green.
    The result at [0, 0] comes in: a draw, so blue-1 retreats upright to [1, 0], blue's,
    where green-1 stands. Picking resumes with blue, the kingdom after red: blue picks
    [1, 0] against green (had it gone on with green, green would be the attacker)."""
    before = at_battles(
        kingdoms=("red", "blue", "green"),
        player_order=["green", "red", "blue"],
        tiles=[tile((0, 0), "red"), tile((0, 2), "blue"), tile((1, 0), "blue")],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-2", (0, 2)),
            army("blue-2", (0, 2)),
            army("green-1", (1, 0)),
        ],
        inputs={"battle_choices": {"red": [[0, 0]]}},
        dice=[4, 4, 4, 4],
    )
    handed_off = run(before)
    assert [(b["hex"], b["attacker"]) for b in handed_off["battles"]] == [
        ([0, 0], "red"),
        ([0, 2], "blue"),
    ]
    after = report(handed_off, {"hex": [0, 0], "result": "draw"}, dice=[4, 4])
    assert where(after, "blue-1") == ([1, 0], True)
    third = battles(after, (1, 0))[0]
    assert (third["attacker"], third["defender"], third["status"]) == (
        "blue",
        "green",
        "awaiting_result",
    )


RESTATED = {
    "tiles": [tile((0, 0), "red"), tile((1, 0), "blue", "fortress")],
    "armies": [
        army("red-1", (0, 0)),
        army("blue-1", (0, 0)),
        army("red-2", (1, 0)),
        army("red-3", (1, 0)),
        army("blue-2", (1, 0), defending=True),
    ],
}


def test_b11_a_retreat_into_a_waiting_battles_tile_restates_it():
    """Red picks [0, 0], its tile, against blue-1; blue picks [1, 0], its fortress, where
    blue-2 holds with Defend against red-2 and red-3 and makes a Last Stand (500 against
    1,000). Both are handed off. The results come in together: a draw at [0, 0] and a red
    win at [1, 0]. The draw sends blue-1 upright into [1, 0]: that battle is re-stated,
    1,000 points a side, its players told again, and the red win reported for the old sides
    is set aside. Blue's new report, a win, is then applied."""
    before = at_battles(
        inputs={
            "battle_choices": {"red": [[0, 0]]},
            "battles": [{"hex": [1, 0], "last_stand": "blue"}],
        },
        dice=[4, 4, 4, 4],
        **RESTATED,
    )
    handed_off = run(before)
    fortress = battles(handed_off, (1, 0))[0]
    assert (fortress["attacker"], fortress["last_stand"]) == ("blue", "blue")
    assert [s["points"] for s in fortress["sides"]] == [500, 1000]
    restated = report(
        handed_off,
        {"hex": [0, 0], "result": "draw"},
        {"hex": [1, 0], "result": "win", "winner": "red"},
        dice=[],
    )
    fortress = battles(restated, (1, 0))[0]
    assert fortress["status"] == "awaiting_result"
    assert sorted(side(fortress, "blue")["armies"]) == ["blue-1", "blue-2"]
    assert [s["points"] for s in fortress["sides"]] == [1000, 1000]
    assert fortress["board"] == "4x4"
    assert (fortress["condition"], fortress["scenario"]) == (
        battles(handed_off, (1, 0))[0]["condition"],
        battles(handed_off, (1, 0))[0]["scenario"],
    )
    assert fortress["extra"]["restated"] is True
    assert happened(restated, "battle-restated") == [
        {
            "type": "battle-restated",
            "hex": [1, 0],
            "sides": {"blue": ["blue-1", "blue-2"], "red": ["red-2", "red-3"]},
            "board": "4x4",
        }
    ]
    assert restated["pending"] == [
        {"kind": "battle_result", "kingdom": "blue", "hex": [1, 0], "restated": True},
        {"kind": "battle_result", "kingdom": "red", "hex": [1, 0], "restated": True},
    ]
    assert "battles" not in restated["inputs"]
    assert where(restated, "red-2") == ([1, 0], True)
    after = report(restated, {"hex": [1, 0], "result": "win", "winner": "blue"}, dice=ROLL_OFF)
    assert battles(after, (1, 0))[0]["winner"] == "blue"
    assert kingdom(after, "blue")["pitched_wins"] == 1
    assert where(after, "red-2") == ([0, 0], False)
    assert after["clock"] == NEXT_MONTH


def test_b11_a_restatement_sets_aside_only_what_was_reported_for_that_battle():
    """The position of the case above, with green-1 also standing in blue's fortress [1, 0]
    (green, last to pick, finds both tiles waiting). With the draw at [0, 0] and red's win at
    [1, 0] comes green's concession at [1, 0], for green's own battle there, still to come.
    The re-statement sets aside red's win, reported for the old sides, and keeps green's
    concession (B11, B12). Blue's win is then applied; green picks [1, 0] against blue and
    concedes."""
    before = at_battles(
        kingdoms=("red", "blue", "green"),
        tiles=RESTATED["tiles"],
        armies=[*RESTATED["armies"], army("green-1", (1, 0))],
        inputs={
            "battle_choices": {"red": [[0, 0]]},
            "battles": [{"hex": [1, 0], "last_stand": "blue"}],
        },
        dice=[4, 4, 4, 4],
    )
    restated = report(
        run(before),
        {"hex": [0, 0], "result": "draw"},
        {"hex": [1, 0], "result": "win", "winner": "red"},
        {"hex": [1, 0], "concede": "green"},
        dice=[],
    )
    assert len(events(restated, "battle-restated")) == 1
    assert restated["inputs"]["battles"] == [{"hex": [1, 0], "concede": "green"}]
    after = report(restated, {"hex": [1, 0], "result": "win", "winner": "blue"}, dice=[])
    assert [(b["kind"], b["attacker"], b["winner"]) for b in battles(after, (1, 0))] == [
        ("pitched", "blue", "blue"),
        ("concession", "green", "blue"),
    ]
    assert after["clock"] == NEXT_MONTH


def test_b11_a_battle_further_down_the_list_is_restated_past_one_unchanged():
    """Three battles are handed off: red's at [0, 0], its tile; blue's at [-1, -1] (its
    preference); red's at [1, 0], blue's. The draw at [0, 0] sends blue-1 upright into
    [1, 0]: that battle is re-stated and its players told again, though [-1, -1], before it
    in picking order, is unchanged (B11)."""
    before = at_battles(
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue")],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-3", (-1, -1)),
            army("blue-3", (-1, -1)),
            army("red-2", (1, 0)),
            army("blue-2", (1, 0)),
        ],
        inputs={"battle_choices": {"red": [[0, 0]], "blue": [[-1, -1]]}},
        dice=[4, 4, 4, 4, 4, 4],
    )
    handed_off = run(before)
    assert [b["hex"] for b in handed_off["battles"]] == [[0, 0], [-1, -1], [1, 0]]
    after = report(handed_off, {"hex": [0, 0], "result": "draw"}, dice=[])
    assert happened(after, "battle-restated") == [
        {
            "type": "battle-restated",
            "hex": [1, 0],
            "sides": {"red": ["red-2"], "blue": ["blue-1", "blue-2"]},
            "board": "4x4",
        }
    ]
    assert after["pending"] == [
        {"kind": "battle_result", "kingdom": "blue", "hex": [-1, -1]},
        {"kind": "battle_result", "kingdom": "red", "hex": [-1, -1]},
        {"kind": "battle_result", "kingdom": "red", "hex": [1, 0], "restated": True},
        {"kind": "battle_result", "kingdom": "blue", "hex": [1, 0], "restated": True},
    ]


def test_b11_a_restated_battle_with_a_side_now_outnumbered_is_conceded():
    """Red picks [0, 0], its tile, against blue-1; blue picks [1, 0], its own, one army
    against one; both are handed off. The draw at [0, 0] sends blue-1 upright into [1, 0]:
    re-stated, red now has fewer armies there and no Last Stand (it controls [0, 0] beside
    it), so it must concede, whatever result was reported for the old sides."""
    before = at_battles(
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue")],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-2", (1, 0)),
            army("blue-2", (1, 0)),
        ],
        inputs={"battle_choices": {"red": [[0, 0]]}},
        dice=[4, 4, 4, 4],
    )
    after = report(
        run(before),
        {"hex": [0, 0], "result": "draw"},
        {"hex": [1, 0], "result": "win", "winner": "red"},
        dice=ROLL_OFF,
    )
    (conceded,) = battles(after, (1, 0))  # red-2 retreats before anything else is picked
    assert (conceded["kind"], conceded["status"], conceded["winner"]) == (
        "concession",
        "resolved",
        "blue",
    )
    assert conceded["extra"] == {"conceded_by": "red", "forced": True}
    assert kingdom(after, "red")["pitched_wins"] == 0
    assert where(after, "red-2") == ([0, 0], False)
    assert owner(after, (1, 0)) == "blue"
    assert after["clock"] == NEXT_MONTH


def test_b11_a_battle_whose_units_have_not_changed_is_not_restated():
    """Two armies a side at [0, 0], listed out of id order in the file (blue-2 before
    blue-1). The battle is handed off and its result reported: nothing has changed its
    sides, so it is not re-stated and the result is applied."""
    before = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[
            army("blue-2", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-2", (0, 0)),
            army("red-1", (0, 0)),
        ],
        dice=[4, 4],
    )
    handed_off = run(before)
    assert side(the_battle(handed_off), "blue")["armies"] == ["blue-1", "blue-2"]
    after = report(handed_off, {"hex": [0, 0], "result": "win", "winner": "blue"}, dice=ROLL_OFF)
    assert events(after, "battle-restated") == []
    assert the_battle(after)["winner"] == "blue"


def test_b11_a_restated_battle_asks_a_side_now_outnumbered_for_its_last_stand():
    """Red and blue draw at [0, 0], green's tile: both must leave, upright; red-1 to [-1, 0],
    blue-1 to [1, 0], where blue-2 and red-2 wait for their own result. Re-stated, red has
    one army there against two and no tile of its own beside [1, 0]: it is asked for a Last
    Stand. It makes one, and the battle waits for its result again."""
    before = at_battles(
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "green"), *HOMES],
        armies=[
            army("red-1", (0, 0)),
            army("blue-1", (0, 0)),
            army("red-2", (1, 0)),
            army("blue-2", (1, 0)),
        ],
        inputs={"battle_choices": {"red": [[0, 0]]}},
        dice=[4, 4, 4, 4],
    )
    asked = report(run(before), {"hex": [0, 0], "result": "draw"}, dice=[])
    assert where(asked, "red-1") == ([-1, 0], True)
    assert where(asked, "blue-1") == ([1, 0], True)
    assert asked["pending"] == [{"kind": "last_stand", "kingdom": "red", "hex": [1, 0]}]
    after = report(asked, {"hex": [1, 0], "last_stand": "red"})
    stand = battles(after, (1, 0))[0]
    assert (stand["status"], stand["last_stand"]) == ("awaiting_result", "red")
    assert [s["points"] for s in stand["sides"]] == [1000, 500]
    assert waiting_for(after, "battle_result") == [("blue", [1, 0]), ("red", [1, 0])]
    assert "battles" not in after["inputs"]
    # Had red sent its result with its Last Stand, both would be used at once (B4, B11).
    won = report(
        asked,
        {"hex": [1, 0], "last_stand": "red"},
        {"hex": [1, 0], "result": "win", "winner": "red"},
        dice=ROLL_OFF,
    )
    stand = battles(won, (1, 0))[0]
    assert (stand["status"], stand["last_stand"], stand["winner"]) == ("resolved", "red", "red")
    assert kingdom(won, "red")["pitched_wins"] == 1


# --- B12 entries that address no battle ----------------------------------------------------------


def handed_off_at_0_0() -> Json:
    """One army each at [0, 0], blue's: the pitched battle there waits for its result."""
    return run(one_on_one(dice=[4, 4]))


@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"battles": [{"hex": [0, 1], "result": "win", "winner": "red"}]}, "inputs.battles[0]"),
        ({"battles": [{"hex": [0, 1], "result": "draw"}]}, "inputs.battles[0]"),
        ({"battles": [{"hex": [0, 1], "concede": "blue"}]}, "inputs.battles[0]"),
        ({"battles": [{"hex": [0, 1], "resolve": "simple"}]}, "inputs.battles[0]"),
        ({"battle_choices": {"red": [[0, 1]]}}, "inputs.battle_choices.red[0]"),
        ({"retreats": {"red-2": [-2, 0]}}, "inputs.retreats.red-2"),
    ],
    ids=["win", "draw", "concession", "simple", "next battle", "retreat"],
)
def test_b12_an_entry_for_a_hex_where_no_battle_is_fought_is_refused(inputs, field):
    """The battle at [0, 0] waits for its tabletop result; red-2 stands alone at [-1, 0].
    An entry is given for [0, 1], where no battle is fought this month (a result typed
    against the wrong hex, a concession, the admin's switch, a choice of the next battle),
    or a retreat for red-2, which fights no battle. It is refused with an error naming
    it, not dropped in silence: the engine does not go on as if it were not there."""
    data = handed_off_at_0_0()
    data["armies"].append(army("red-2", (-1, 0)))
    refused = refusal({**data, "inputs": inputs})
    assert (refused.code, refused.field) == ("no-such-battle", field)
    assert "B12" in refused.message


def test_b12_a_result_at_the_wrong_hex_in_the_battles_own_file_is_refused():
    """The file that hands off the battle at [0, 0] also carries its result, typed against
    [0, 1]. The battle is handed off and waits; the result addresses none and is refused,
    rather than lying unread in the file until the month's battles end."""
    before = one_on_one(
        inputs={"battles": [{"hex": [0, 1], "result": "win", "winner": "red"}]}, dice=[4, 4]
    )
    refused = refusal(before)
    assert (refused.code, refused.field) == ("no-such-battle", "inputs.battles[0]")
    assert "[0, 1]" in refused.message


@pytest.mark.parametrize(
    "entry",
    [
        {"hex": [0, 0], "concede": "green"},
        {"hex": [0, 0], "last_stand": "green"},
        {"hex": [0, 0], "naval": "green"},
    ],
    ids=["concession", "last stand", "naval"],
)
def test_b12_an_entry_by_a_kingdom_that_is_not_a_side_is_refused(entry):
    """Red and blue fight at [0, 0]; green, with no unit there, concedes that battle, makes
    a Last Stand in it, or chooses to fight it at sea. Green is not a side of it: the
    entry is refused (not-in-battle), naming it."""
    before = one_on_one(kingdoms=("red", "blue", "green"), inputs={"battles": [entry]}, dice=[4, 4])
    refused = refusal(before)
    assert (refused.code, refused.field) == ("not-in-battle", "inputs.battles[0]")
    assert "green" in refused.message


def test_b12_an_entry_by_a_kingdom_that_is_not_a_side_of_a_handed_off_battle_is_refused():
    """The battle at [0, 0] between red and blue waits for its result; green concedes it."""
    data = handed_off_at_0_0()
    data["kingdoms"].append({"id": "green", "name": "Green", "race": "Elves", "capital": None})
    data["player_order"].append("green")
    refused = refusal({**data, "inputs": {"battles": [{"hex": [0, 0], "concede": "green"}]}})
    assert (refused.code, refused.field) == ("not-in-battle", "inputs.battles[0]")


@pytest.mark.parametrize(
    ("tiles", "armies", "stand"),
    [
        (
            [tile((0, 0), "blue"), *HOMES],
            [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))],
            "blue",
        ),
        (
            [tile((0, 0), "blue", "fortress"), *HOMES],
            [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))],
            "blue",
        ),
        ([tile((0, 0), "blue"), *HOMES], [army("red-1", (0, 0)), army("blue-1", (0, 0))], "red"),
        (
            OUTNUMBERED_AND_CUT_OFF["tiles"],
            OUTNUMBERED_AND_CUT_OFF["armies"],
            "red",
        ),
    ],
    ids=[
        "outnumbered with a tile of its own beside",
        "in its own fortress without a Defend order",
        "not outnumbered",
        "the stronger side",
    ],
)
def test_b12_a_last_stand_that_b4_does_not_allow_is_refused(tiles, armies, stand):
    """Ruling B4 allows a Last Stand only to the side with fewer upright armies, and only
    with no tile of its own beside the battle's, or in its own fortress held with a Defend
    order. Blue, outnumbered two to one at [0, 0], controls [1, 0] beside it (in the open,
    or in its fortress with no Defend order); or red, one army against one, or red, the
    stronger side, states a Last Stand. The Last Stand is refused (not dropped while the
    battle is conceded or handed off as if it were not there)."""
    before = at_battles(
        tiles=tiles, armies=armies, inputs={"battles": [{"hex": [0, 0], "last_stand": stand}]}
    )
    refused = refusal({**before, "dice": [4, 4]})
    assert (refused.code, refused.field) == ("choice-not-allowed", "inputs.battles[0]")
    assert "Last Stand" in refused.message
    assert "B4" in refused.message


def test_b12_results_in_the_same_file_as_their_battles_are_applied_when_handed_off():
    """One file carries the month's battles and their results: red and blue face each other
    at [0, 1] and [1, -1], and the file reports red's win in both, with blue-2's retreat.
    When it is read, no battle exists yet, and the one at [1, -1] is only picked (by blue)
    after the result at [0, 1] is applied. Each result is applied when its battle is handed
    off (B11), the retreat when blue-2 must retreat, and the month goes on."""
    before = at_battles(
        inputs={
            "battle_choices": {"red": [[0, 1]]},
            "battles": [
                {"hex": [0, 1], "result": "win", "winner": "red"},
                {"hex": [1, -1], "result": "win", "winner": "red"},
            ],
            "retreats": {"blue-2": [1, 0]},
        },
        dice=[4, 4, 4, 4, *ROLL_OFF],
        **TWO_TILES,
    )
    after = run(before)
    fought = [(b["hex"], b["attacker"], b["status"], b["winner"]) for b in after["battles"]]
    assert fought == [([0, 1], "red", "resolved", "red"), ([1, -1], "blue", "resolved", "red")]
    assert where(after, "blue-1") == ([1, 0], False)
    assert where(after, "blue-2") == ([1, 0], False)
    assert kingdom(after, "red")["pitched_wins"] == 2
    assert after["inputs"] == {}
    assert after["clock"] == NEXT_MONTH


def test_b12_a_retreat_given_before_its_battle_is_decided_waits_for_it():
    """Red and blue each have an army and a ship at the coastal tile [0, 0], blue's; the
    pitched battle there is handed off. The same file says where blue-1 and blue-s1 would
    retreat: both stand in the tile whose battle waits, so the entries address it and are
    kept. Red's win is reported: blue-1 retreats to [1, 0] and blue-s1 to the open sea at
    [1, -1], as told, both on their sides."""
    retreats = {"blue-1": [1, 0], "blue-s1": [1, -1]}
    handed_off = run(
        at_battles(
            map=SEA,
            tiles=[tile((0, 0), "blue"), *HOMES],
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
            ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
            inputs={"retreats": retreats},
            dice=[4, 4],
        )
    )
    assert the_battle(handed_off)["status"] == "awaiting_result"
    assert handed_off["inputs"]["retreats"] == retreats
    after = report(handed_off, {"hex": [0, 0], "result": "win", "winner": "red"}, dice=ROLL_OFF)
    assert happened(after, "retreated") == [
        {"type": "retreated", "unit": "blue-1", "from": [0, 0], "to": [1, 0], "upright": False},
        {"type": "retreated", "unit": "blue-s1", "from": [0, 0], "to": [1, -1], "upright": False},
    ]
    assert after["clock"] == NEXT_MONTH


CUT_OFF_SLAUGHTER = {
    "tiles": [tile((0, 0), "red"), *HOMES],
    "armies": [army("red-1", (0, 0)), army("blue-1", (0, 0), upright=False)],
}
SHIPS_ONLY = {
    "map": SEA,
    "tiles": [tile((0, 0), "blue"), *HOMES],
    "ships": [ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
}


@pytest.mark.parametrize(
    ("position_", "entry", "reason"),
    [
        (CUT_OFF_SLAUGHTER, {"hex": [0, 0], "concede": "blue"}, "a slaughter"),
        (CUT_OFF_SLAUGHTER, {"hex": [0, 0], "result": "draw"}, "a slaughter"),
        (SHIPS_ONLY, {"hex": [0, 0], "result": "win", "winner": "red"}, "a naval battle"),
        (SHIPS_ONLY, {"hex": [0, 0], "last_stand": "blue"}, "a naval battle"),
        (
            {"tiles": [tile((0, 0), "blue"), *HOMES], "armies": [army("red-1", (0, 0)), army("blue-1", (0, 0))]},
            {"hex": [0, 0], "naval": "red"},
            "upright armies and ships",
        ),
        (
            {"tiles": [tile((0, 0), "blue"), *HOMES], "armies": [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))]},
            {"hex": [0, 0], "result": "win", "winner": "blue"},
            "must concede",
        ),
    ],
    ids=[
        "concession of a slaughter",
        "result of a slaughter",
        "result of a naval battle",
        "last stand in a naval battle",
        "naval battle without ships",
        "result of a battle a side must concede",
    ],
)  # fmt: skip
def test_b12_a_choice_the_battle_does_not_allow_is_refused(position_, entry, reason):
    """Only a pitched battle is conceded, made a Last Stand in, or played for a reported
    result (B4, B6); a naval battle is chosen only where both sides have upright armies and
    ships (B3); a battle a side must concede is not played. Red picks the battle at [0, 0]:
    a slaughter of blue's army on its side, a naval battle of two lone ships, a pitched
    battle of one army each, or two red armies against one blue with a tile of its own
    beside. An entry for it that the battle does not allow is refused, naming it."""
    refused = refusal(at_battles(inputs={"battles": [entry]}, dice=[4, 4], **position_))
    assert (refused.code, refused.field) == ("choice-not-allowed", "inputs.battles[0]")
    assert reason in refused.message


def test_b12_in_a_simple_campaign_a_reported_result_is_refused():
    """In a simple campaign the dice decide every battle: a tabletop result reported for
    the battle at [0, 0] is refused (B6)."""
    before = simple(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        inputs={"battles": [{"hex": [0, 0], "result": "win", "winner": "red"}]},
        dice=[6, 1, *ROLL_OFF],
    )
    refused = refusal(before)
    assert (refused.code, refused.field) == ("choice-not-allowed", "inputs.battles[0]")
    assert "simple campaign" in refused.message


def test_b12_a_naval_battle_chosen_after_the_hand_off_is_refused():
    """The pitched battle at the coastal tile [0, 0] is handed off; only then does red,
    its picker, choose to fight it at sea. The choice comes too late: it is refused."""
    handed_off = run(
        at_battles(
            map=SEA,
            tiles=[tile((0, 0), "blue"), *HOMES],
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
            ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
            dice=[4, 4],
        )
    )
    refused = refusal({**handed_off, "inputs": {"battles": [{"hex": [0, 0], "naval": "red"}]}})
    assert (refused.code, refused.field) == ("choice-not-allowed", "inputs.battles[0]")
    assert "handed off already" in refused.message


def test_b12_an_entry_for_a_later_battle_in_the_same_tile_waits_for_it():
    """Red, blue and green armies share [0, 0], green's; simple battles. Red picks first and
    fights green (B2); the file already holds blue's concession, which is not for that
    battle but for blue's own, later, in the same tile. It is kept, not refused: red beats
    green (6 to 1), then blue picks [0, 0] against red and concedes. Red holds the tile."""
    before = simple(
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "green"), tile((0, 1), "green"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("green-1", (0, 0))],
        inputs={"battles": [{"hex": [0, 0], "concede": "blue"}]},
        dice=[6, 1, 6, 5, 4],
    )
    after = run(before)
    fought = [(b["attacker"], b["defender"], b["kind"]) for b in battles(after, (0, 0))]
    assert fought == [("red", "green", "simple"), ("blue", "red", "concession")]
    assert where(after, "blue-1") == ([1, 0], False)
    assert owner(after, (0, 0)) == "red"
    assert after["clock"] == NEXT_MONTH


def test_b12_entries_for_battles_still_to_come_stand_while_the_engine_waits():
    """Red and blue face each other at the coastal tile [0, 0], each with an army and a
    ship, and at [0, 1]. Red, first to pick, has not said which: the engine waits for its
    choice. The file already holds red's choice of a naval battle at [0, 0] (B3: both sides
    have armies and ships there), blue's concession at [0, 1] and blue's next battle,
    [0, 0]: each addresses a battle still to come, so none is refused, and they stand
    until their battles come (B12). Red then picks [0, 0]: a naval battle."""
    entries = [{"hex": [0, 0], "naval": "red"}, {"hex": [0, 1], "concede": "blue"}]
    inputs: Json = {"battles": entries, "battle_choices": {"blue": [[0, 0]]}}
    before = at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), tile((0, 1), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("red-2", (0, 1)),
                army("blue-2", (0, 1))],
        ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
        inputs=inputs,
        dice=[],
    )  # fmt: skip
    waiting = run(before)
    assert waiting["pending"] == [
        {"kind": "battle_choice", "kingdom": "red", "choices": [[0, 0], [0, 1]]}
    ]
    assert (waiting["battles"], waiting["inputs"]) == ([], inputs)
    chosen = {"blue": [[0, 0]], "red": [[0, 0]]}
    after = run({**waiting, "inputs": {**inputs, "battle_choices": chosen}, "dice": [4, 1]})
    assert [(b["hex"], b["kind"], b["attacker"]) for b in after["battles"]] == [
        ([0, 0], "naval", "red")
    ]


def test_b12_a_concession_uses_up_only_the_entries_of_its_own_battle():
    """Red, blue and green armies share [0, 0], green's. Red picks first and fights green
    (B2), which concedes; the file also holds blue's concession, for blue's own battle in
    the same tile, later. Green's concession settles its battle and is used up with it;
    blue's stands: blue then picks [0, 0] against red and concedes too (B4, B12)."""
    before = at_battles(
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "green"), tile((0, 1), "green"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("green-1", (0, 0))],
        inputs={
            "battles": [{"hex": [0, 0], "concede": "green"}, {"hex": [0, 0], "concede": "blue"}]
        },
        dice=[6, 5, 4],  # Reform: the three kingdoms, one army each, roll off
    )
    after = run(before)
    fought = [(b["attacker"], b["defender"], b["kind"]) for b in battles(after, (0, 0))]
    assert fought == [("red", "green", "concession"), ("blue", "red", "concession")]
    assert owner(after, (0, 0)) == "red"
    assert after["clock"] == NEXT_MONTH


def test_b12_an_entry_left_when_the_months_battles_are_over_is_refused():
    """Simple battles: red beats blue at [0, 0] (6 to 1) and the month's battles are over.
    The file also told blue-2, far from any battle, where to retreat: an entry nothing
    used. The month does not end with it dropped: it is refused."""
    before = simple(
        tiles=[tile((0, 0), "blue"), *HOMES, tile((2, 0), "blue"), tile((3, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("blue-2", (2, 0))],
        inputs={"retreats": {"blue-2": [3, 0]}},
        dice=[6, 1, *ROLL_OFF],
    )
    refused = refusal(before)
    assert (refused.code, refused.field, refused.unit) == (
        "no-such-battle",
        "inputs.retreats.blue-2",
        "blue-2",
    )


@pytest.mark.parametrize(
    "clock",
    [(1, "summer", 1, "reform"), (1, "winter", 0, "tithe"), (2, "summer", 1, "orders")],
    ids=["reform", "winter", "next month"],
)
@pytest.mark.parametrize(
    ("inputs", "field"),
    [
        ({"battles": [{"hex": [0, 0], "result": "draw"}]}, "inputs.battles[0]"),
        ({"battle_choices": {"red": [[0, 0]]}}, "inputs.battle_choices.red[0]"),
    ],
    ids=["result", "next battle"],
)
def test_b12_battle_entries_stand_only_until_the_months_battles_are_over(clock, inputs, field):
    """A result or a next-battle choice for [0, 0] in a file at the reform step of month 1,
    after the month's battles, or in the winter, has no battle of its month left to
    address, and is refused (not carried into the next month's battles). At the orders
    step of a month it waits for that month's battles (here none comes: it is refused when
    they are over)."""
    before = position(
        clock=clock,
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (1, 0))],
        inputs=inputs,
        dice=ROLL_OFF,
    )
    refused = refusal(before, defaults=True)
    assert (refused.code, refused.field) == ("no-such-battle", field)
