"""What a refused winter list says, whole: the code, the field, the army at fault (if any)
and the sentence the player reads on the winter page. Each list a player writes in the
winter (tithes W4, the armies that go hungry W6, the deployment W7) has its own words."""

from typing import Any

import pytest

from tests.rules.casebook import army, refusal, tile
from tests.rules.test_casebook_winter import deploying, feeding, gift, place, recalled, tithing

# Red's armies red-1 and red-2 wait in the capital [0, 0]; red-3 was raised in the fortress
# [2, -2], cut off from the capital by Blue's [1, -1]; Red holds a village [1, 0] and an
# empty tile [0, 1].
WAITING = [*recalled(2), army("red-3", (2, -2)), army("blue-1", (-3, 3))]
HELD = [
    tile((1, 0), "red", "village"),
    tile((0, 1), "red"),
    tile((1, -1), "blue"),
    tile((2, -2), "red", "fortress"),
]


def tithes(*given: dict[str, Any]) -> dict[str, Any]:
    return tithing({"red": list(given), "blue": [], "green": []}, red=(1, 1))


def hungry(*disband: str) -> dict[str, Any]:
    return feeding(
        [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))],
        food=1,
        blue_food=1,
        inputs={"feed": {"red": {"disband": list(disband)}}},
    )


def deploys(*plan: dict[str, Any]) -> dict[str, Any]:
    return deploying(WAITING, tiles=HELD, inputs={"deploy": {"red": list(plan), "blue": []}})


CASES = [
    (tithes(gift("red", 1)),
     "tithe-to-self", "inputs.tithes.red[0].to", None, "A kingdom can't tithe to itself."),
    (tithes(gift("purple", 1)),
     "tithe-to-nobody", "inputs.tithes.red[0].to", None,
     "'purple' is not a kingdom still in the game."),
    (tithes(gift("blue", 1), gift("blue", food=1)),
     "tithe-twice", "inputs.tithes.red[1].to", None,
     "red may tithe to blue only once each winter."),
    (hungry("blue-1"),
     "feed-not-your-army", "inputs.feed.red.disband[0]", "blue-1",
     "blue-1 is not an army of red."),
    (hungry("red-1", "red-1"),
     "feed-not-your-army", "inputs.feed.red.disband[1]", "red-1",
     "red-1 is not an army of red."),
    (deploys(place("blue-1", (0, 0))),
     "deploy-not-your-army", "inputs.deploy.red[0].army", "blue-1",
     "blue-1 is not an army of red waiting to deploy."),
    (deploys(place("red-3", (0, 0))),
     "deploy-not-your-army", "inputs.deploy.red[0].army", "red-3",
     "red-3 is not an army of red waiting to deploy."),
    (deploys(place("red-1", (0, 1))),
     "deploy-not-connected", "inputs.deploy.red[0].hex", "red-1",
     "[0, 1] is not a settlement of red connected to its capital."),
    (deploys(place("red-1", (1, 0)), place("red-2", (1, 0))),
     "deploy-no-room", "inputs.deploy.red[1].hex", "red-2",
     "[1, 0] has no room left for red-2 (ruling W7 limits)."),
]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "code", "field", "unit", "says"),
    CASES,
    ids=[f"{c[1]}-{c[2].rsplit('.', 1)[-1]}" for c in CASES],
)
def test_a_refused_winter_list_says_why_in_the_games_words(data, code, field, unit, says):
    refused = refusal(data)
    expected = {"code": code, "field": field, "message": says}
    if unit is not None:
        expected["unit"] = unit
    assert refused.as_dict() == expected
