"""What a refused battle entry says, whole: the code, the field, the unit at fault and the
sentence the players read (ruling B12: an entry must address a battle of this month, by
one of its sides, with a choice the rules allow in it; B10: a retreat goes where the unit
may retreat). Each way an entry goes wrong has its own words."""

from typing import Any

import pytest

from tests.rules.casebook import adjudicate, army, refusal, ship, tile
from tests.rules.test_casebook_battles import (
    HOMES,
    OUTNUMBERED_AND_CUT_OFF,
    ROLL_OFF,
    SEA,
    TWO_TILES,
    at_battles,
    handed_off_at_0_0,
    one_on_one,
    simple,
)

type Json = dict[str, Any]

GREEN = {"id": "green", "name": "Green", "race": "Elves", "capital": None}


def handed_off(inputs: Json, *, green: bool = False, **changes: Any) -> Json:
    """The battle at [0, 0] between red-1 and blue-1 waits for its result (blue's tile, each
    with its home beside it); the file comes back with `inputs`."""
    data = {**handed_off_at_0_0(), **changes, "inputs": inputs}
    if green:
        data["kingdoms"] = [*data["kingdoms"], GREEN]
        data["player_order"] = [*data["player_order"], "green"]
    return data


def entry(**fields: Any) -> Json:
    """A battle input at [0, 0], unless it names its tile."""
    return {"battles": [{"hex": [0, 0], **fields}]}


def at_sea_too(inputs: Json) -> Json:
    """Red and blue each have an army and a ship at the coastal tile [0, 0], blue's."""
    return at_battles(
        map=SEA,
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        ships=[ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
        inputs=inputs,
        dice=[4, 4],
    )


def red_asked_between_two_tiles(inputs: Json) -> Json:
    """Red and blue face each other at [0, 1] and [1, -1]; red, first to pick, has said
    nothing, so the engine waits for its choice with both battles still to come."""
    return at_battles(kingdoms=("red", "blue", "green"), inputs=inputs, **TWO_TILES)


def red_asked_with_a_third_kingdoms_ship(inputs: Json) -> Json:
    """Red and blue face each other at [0, 0], red's coastal tile, and at [0, 1]; red,
    first to pick, has said nothing, so the engine waits for its choice. At [0, 0] red has
    an army and a ship, blue (its opponent there, B2) only an army; green's ship stands
    there too."""
    return at_battles(
        map=SEA,
        kingdoms=("red", "blue", "green"),
        tiles=[tile((0, 0), "red"), tile((0, 1), "blue"), *HOMES],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("red-2", (0, 1)),
                army("blue-2", (0, 1))],
        ships=[ship("red-s1", (0, 0)), ship("green-s1", (0, 0))],
        inputs=inputs,
    )  # fmt: skip


CUT_OFF_SLAUGHTER = at_battles(
    tiles=[tile((0, 0), "red"), *HOMES],
    armies=[army("red-1", (0, 0)), army("blue-1", (0, 0), upright=False)],
    inputs=entry(concede="blue"),
    dice=[4, 4],
)
SHIPS_ONLY = {
    "map": SEA,
    "tiles": [tile((0, 0), "blue"), *HOMES],
    "ships": [ship("red-s1", (0, 0)), ship("blue-s1", (0, 0))],
}
LAND_WATER = {
    "map": SEA,
    "tiles": [tile((0, 0), "blue"), *HOMES],
    "armies": [army("blue-1", (0, 0))],
    "ships": [ship("red-s1", (0, 0))],
}
TWO_AGAINST_ONE = {
    "tiles": [tile((0, 0), "blue"), *HOMES],
    "armies": [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))],
}


def refused_battle_left_behind() -> Json:
    """A hand-made file: the battle at [0, 0] waits for its result, but blue-1 stands at
    [1, 0], out of its tile."""
    data = handed_off_at_0_0()
    data["armies"] = [{**a, "hex": [1, 0]} if a["id"] == "blue-1" else a for a in data["armies"]]
    return {**data, "inputs": {}}


REFORM = {"year": 1, "season": "summer", "month": 1, "step": "reform"}


def after_the_months_battle(inputs: Json) -> Json:
    """Simple battles: red beat blue at [0, 0] (6 to 1), and blue-1 retreated to [1, 0]; the
    file stands at month 1's Reform, after the month's battles, with `inputs`."""
    fought = adjudicate(
        simple(
            kingdoms=("red", "blue", "green"),
            tiles=[tile((0, 0), "blue"), *HOMES],
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
            dice=[6, 1, 6, 5, 4],
        )
    )
    return {**fought, "clock": REFORM, "inputs": inputs}


CASES = [
    (handed_off(entry(result="win", winner="green"), green=True),
     "winner-not-in-battle", "inputs.battles[0]", None,
     "green did not fight the battle at [0, 0]."),
    (one_on_one(kingdoms=("red", "blue", "green"), inputs=entry(concede="green"), dice=[4, 4]),
     "not-in-battle", "inputs.battles[0]", None,
     "The concession of green at [0, 0] addresses no battle: green is not a side of the "
     "battle at [0, 0] (ruling B12)."),
    (one_on_one(kingdoms=("red", "blue", "green"), inputs=entry(last_stand="green"), dice=[4, 4]),
     "not-in-battle", "inputs.battles[0]", None,
     "The Last Stand of green at [0, 0] addresses no battle: green is not a side of the "
     "battle at [0, 0] (ruling B12)."),
    (one_on_one(kingdoms=("red", "blue", "green"), inputs=entry(naval="green"), dice=[4, 4]),
     "not-in-battle", "inputs.battles[0]", None,
     "The naval battle green chose at [0, 0] addresses no battle: green is not a side of the "
     "battle at [0, 0] (ruling B12)."),
    (handed_off(entry(concede="green"), green=True),
     "not-in-battle", "inputs.battles[0]", None,
     "The concession of green at [0, 0] addresses no battle: green is not a side of the "
     "battle at [0, 0] (ruling B12)."),
    (red_asked_between_two_tiles({"battles": [{"hex": [0, 1], "concede": "green"}]}),
     "not-in-battle", "inputs.battles[0]", None,
     "The concession of green at [0, 1] addresses no battle: green fights none at [0, 1] "
     "this month (ruling B12)."),
    (red_asked_between_two_tiles({"battles": [{"hex": [0, 1], "naval": "red"}]}),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The naval battle red chose at [0, 1] is not a choice the rules allow: a naval battle "
     "is chosen only where both sides have upright armies and ships (ruling B3)."),
    (red_asked_with_a_third_kingdoms_ship({"battles": [{"hex": [0, 0], "naval": "red"}]}),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The naval battle red chose at [0, 0] is not a choice the rules allow: a naval battle "
     "is chosen only where both sides have upright armies and ships (ruling B3)."),
    (at_sea_too(entry(naval="blue")),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The naval battle blue chose at [0, 0] is not a choice the rules allow: only red, who "
     "picked the battle at [0, 0], may fight it at sea (ruling B3)."),
    ({**adjudicate(at_sea_too({})), "inputs": entry(naval="red")},
     "choice-not-allowed", "inputs.battles[0]", None,
     "The naval battle red chose at [0, 0] is not a choice the rules allow: the battle at "
     "[0, 0] is handed off already, and a naval battle is chosen before (ruling B3)."),
    (one_on_one(inputs=entry(naval="red"), dice=[4, 4]),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The naval battle red chose at [0, 0] is not a choice the rules allow: a naval battle "
     "is chosen only where both sides have upright armies and ships (ruling B3)."),
    (CUT_OFF_SLAUGHTER,
     "choice-not-allowed", "inputs.battles[0]", None,
     "The concession of blue at [0, 0] is not a choice the rules allow: the battle at "
     "[0, 0] is a slaughter, which the dice decide (ruling B3)."),
    (at_battles(inputs=entry(result="win", winner="red"), dice=[4, 4], **SHIPS_ONLY),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The result reported at [0, 0] (a win for red) is not a choice the rules allow: the "
     "battle at [0, 0] is a naval battle, which the dice decide (ruling B3)."),
    (at_battles(inputs=entry(result="draw"), dice=[4, 4], **LAND_WATER),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The result reported at [0, 0] (a draw) is not a choice the rules allow: the battle "
     "at [0, 0] is a land/water battle, which the dice decide (ruling B3)."),
    (at_battles(inputs=entry(resolve="simple"), dice=[4, 4], **LAND_WATER),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The switch to a simple battle at [0, 0] is not a choice the rules allow: the battle "
     "at [0, 0] is a land/water battle, which the dice decide (ruling B3)."),
    (one_on_one(inputs=entry(last_stand="red"), dice=[4, 4]),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The Last Stand of red at [0, 0] is not a choice the rules allow: red is not "
     "outnumbered at [0, 0], and only the side with fewer upright armies may make a Last "
     "Stand (ruling B4)."),
    (at_battles(inputs=entry(last_stand="red"), dice=[4, 4], **OUTNUMBERED_AND_CUT_OFF),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The Last Stand of red at [0, 0] is not a choice the rules allow: red is not "
     "outnumbered at [0, 0], and only the side with fewer upright armies may make a Last "
     "Stand (ruling B4)."),
    (at_battles(inputs=entry(last_stand="blue"), dice=[4, 4], **TWO_AGAINST_ONE),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The Last Stand of blue at [0, 0] is not a choice the rules allow: blue controls a "
     "tile beside [0, 0] and holds no fortress there with a Defend order (ruling B4)."),
    (at_battles(inputs=entry(result="win", winner="blue"), dice=[4, 4], **TWO_AGAINST_ONE),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The result reported at [0, 0] (a win for blue) is not a choice the rules allow: blue "
     "is outnumbered at [0, 0] and must concede, so the battle is not played (ruling B4)."),
    (simple(tiles=[tile((0, 0), "blue"), *HOMES],
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
            inputs=entry(result="win", winner="red"), dice=[6, 1, *ROLL_OFF]),
     "choice-not-allowed", "inputs.battles[0]", None,
     "The result reported at [0, 0] (a win for red) is not a choice the rules allow: in a "
     "simple campaign the dice decide every battle (ruling B6)."),
    (handed_off({"battles": [{"hex": [0, 1], "result": "draw"}]}),
     "no-such-battle", "inputs.battles[0]", None,
     "The result reported at [0, 1] (a draw) addresses no battle: none is fought there "
     "this month (ruling B12)."),
    (simple(tiles=[tile((0, 0), "blue"), *HOMES],
            armies=[army("red-1", (0, 0)), army("blue-1", (0, 0)), army("red-2", (0, 1))],
            inputs={"battles": [{"hex": [0, 1], "concede": "red"}]}, dice=[6, 1, *ROLL_OFF]),
     "no-such-battle", "inputs.battles[0]", None,
     "The concession of red at [0, 1] addresses no battle: none is fought there this month "
     "(ruling B12)."),
    (after_the_months_battle(entry(result="draw")),
     "no-such-battle", "inputs.battles[0]", None,
     "The result reported at [0, 0] (a draw) addresses no battle: the battle there is over "
     "(ruling B12)."),
    (after_the_months_battle(entry(concede="green")),
     "not-in-battle", "inputs.battles[0]", None,
     "The concession of green at [0, 0] addresses no battle: green fights none at [0, 0] "
     "this month (ruling B12)."),
    (handed_off({"retreats": {"red-1": [-1, 0]}, "battle_choices": {}}, clock={
        "year": 1, "season": "summer", "month": 1, "step": "reform"}),
     "no-such-battle", "inputs.retreats.red-1", "red-1",
     "red-1 has no battle of this month to retreat from (ruling B12)."),
    (handed_off(entry(result="win", winner="red"), clock=REFORM),
     "no-such-battle", "inputs.battles[0]", None,
     "The result reported at [0, 0] (a win for red) addresses no battle: the battle there is "
     "over (ruling B12)."),
    (handed_off({"battle_choices": {"red": [[0, 1]]}}),
     "no-such-battle", "inputs.battle_choices.red[0]", None,
     "red chose [0, 1] for its next battle, but it has no battle to pick there this month "
     "(ruling B12)."),
    (handed_off({"battle_choices": {"red": [[0, 0]]}}, clock={
        "year": 1, "season": "summer", "month": 1, "step": "reform"}),
     "no-such-battle", "inputs.battle_choices.red[0]", None,
     "red chose [0, 0] for its next battle, but no battle is left to pick this month "
     "(ruling B12)."),
    (handed_off({"battles": [{"hex": [0, 0], "result": "win", "winner": "red"}],
                 "retreats": {"blue-1": [0, 1]}}),
     "bad-retreat", "inputs.retreats.blue-1", "blue-1",
     "blue-1 can't retreat to [0, 1]: it may go to [[1, 0]]."),
    (refused_battle_left_behind(),
     "battle-without-armies", "battles[0]", None,
     "The pitched battle at [0, 0] waits for its result, but a side has no army left in "
     "its tile."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "code", "field", "unit", "says"),
    CASES,
    ids=[f"{c[1]}-{i}" for i, c in enumerate(CASES)],
)
def test_a_refused_battle_entry_says_why_in_the_games_words(data, code, field, unit, says):
    refused = refusal(data)
    expected = {"code": code, "field": field, "message": says}
    assert refused.as_dict() == (expected if unit is None else {**expected, "unit": unit})
