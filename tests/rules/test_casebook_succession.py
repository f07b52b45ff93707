"""The rules casebook for option `succession` (campaign-options.md, OB5 to OB7, part C's
settled points, and where it meets wizards). Each test is one case, named after its rule,
with the document's three worked examples among them; its docstring states the position
and what must happen. Positions stand at the winter's gather on a hexagon of plains of
radius 5, Red's capital [0, 0]: the engine gathers, then the succession step opens with
its dice, and stops where a decision is owed (an army to disband, else the tithes)."""

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
    refusal,
    tile,
)
from tests.rules.test_casebook_winter import winter

SUCCESSION = {"succession": True}
PLAINS = make_map(5)
RED_HOME = tile((0, 0), "red", "city")
BLUE_HOME = tile((-3, 3), "blue", "city")


def gathering(*, dice: list[int], **extra: Any) -> Json:
    """The winter's gather, succession on; Red and Blue each with one army at home."""
    return winter(
        "gather",
        map=extra.pop("map", PLAINS),
        options={**SUCCESSION, **extra.pop("options", {})},
        capitals=extra.pop("capitals", {"red": (0, 0), "blue": (-3, 3)}),
        tiles=extra.pop("tiles", [RED_HOME, BLUE_HOME]),
        armies=extra.pop("armies", [army("red-1", (0, 0)), army("blue-1", (-3, 3))]),
        dice=dice,
        **extra,
    )


def clock_step(data: Json) -> str:
    return str(data["clock"]["step"])


def test_ob5_ob6_example_1_a_long_reign_with_a_capital_passes_in_peace():
    """Red, reign 4, its capital held: die 1, the ruler dies; the heir's die 4 + 1 + 1 = 6:
    peaceful, no army lost; reign 0. Blue's die 3: lives, reign 1."""
    data = gathering(dice=[1, 4, 3], kingdom_fields={"red": {"reign": 4}})

    after = adjudicate(data)

    assert happened(after, "ruler-died") == [
        {"type": "ruler-died", "kingdom": "red", "heir": "peaceful", "reign": 4}
    ]
    assert events(after, "ruler-died")[0]["dice"] == [1, 4]
    assert kingdom(after, "red")["reign"] == 0
    assert kingdom(after, "blue")["reign"] == 1
    assert {a["id"] for a in after["armies"]} == {"red-1", "blue-1"}
    assert clock_step(after) == "tithe"
    assert kingdom(after, "red")["heir"] is None  # cleared as the step closes


def test_ob6_ob7_example_2_a_civil_war_without_a_capital():
    """Blue, reign 1, no capital (its armies recalled to its city [-3, 3]): die 2, the ruler
    dies; the heir's die 1 (no +1): civil war. Its farthest settlement, the village [1, 3],
    4 from the city, is razed (not the nearer [-3, 2]); blue-3, raised last, is disbanded
    by default."""
    tiles = [RED_HOME, BLUE_HOME, tile((-3, 2), "blue", "village"), tile((1, 3), "blue", "village")]
    armies = [army("red-1", (0, 0)), *(army(f"blue-{n}", (-3, 3)) for n in (1, 2, 3))]
    data = gathering(
        dice=[3, 2, 1],
        capitals={"red": (0, 0)},
        tiles=tiles,
        armies=armies,
        kingdom_fields={"blue": {"reign": 1}},
    )

    asked = adjudicate(data)
    assert pending(asked) == [
        {"kind": "succession", "kingdom": "blue", "armies": ["blue-1", "blue-2", "blue-3"]}
    ]
    assert kingdom(asked, "blue")["heir"] == "civil_war"
    assert happened(asked, "civil-war-razed") == [
        {"type": "civil-war-razed", "kingdom": "blue", "hex": [1, 3], "settlement": "village"}
    ]

    after = adjudicate(asked, defaults_now=True)

    assert happened(after, "disbanded") == [
        {"type": "disbanded", "kingdom": "blue", "army": "blue-3", "why": "succession"}
    ]
    assert clock_step(after) == "tithe"


def test_ob5_example_3_a_ruler_who_lives_reigns_on():
    data = gathering(dice=[3, 5], kingdom_fields={"red": {"reign": 2}})

    after = adjudicate(data)

    assert kingdom(after, "red")["reign"] == 3
    assert events(after, "ruler-died") == []


def test_ob7_the_kingdom_picks_the_army_and_one_army_goes_without_asking():
    """Red's ruler dies (die 1) and its heir is disputed (the heir's die 2, +1 for its
    capital: 3): Red, with red-1 and red-2, picks red-1. Blue's is disputed too (1, then
    2 + 1), with one army: it goes without asking."""
    armies = [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))]
    data = gathering(
        dice=[1, 2, 1, 2],
        armies=armies,
        inputs={"succession": {"red": {"disband": "red-1"}}},
    )

    after = adjudicate(data)

    assert [e["army"] for e in events(after, "disbanded")] == ["red-1", "blue-1"]
    assert [a["id"] for a in after["armies"]] == ["red-2"]
    assert "succession" not in after["inputs"]


def test_ob5_ob7_the_dice_come_first_and_a_file_at_the_step_has_had_them():
    """Part C's settled points: every kingdom's dice are rolled as the step opens, in player
    order (Red's death and heir, then Blue's), before anyone is asked; advancing the file
    that waits at the step rolls nothing more."""
    armies = [
        army("red-1", (0, 0)),
        army("red-2", (0, 0)),
        army("blue-1", (-3, 3)),
        army("blue-2", (-3, 3)),
    ]
    asked = adjudicate(gathering(dice=[1, 2, 1, 3], armies=armies))

    assert [e["dice"] for e in events(asked, "ruler-died")] == [[1, 2], [1, 3]]
    assert [p["kingdom"] for p in pending(asked)] == ["red", "blue"]
    again = adjudicate({**asked, "dice": [6, 6]})
    assert again["dice_rolled"] == asked["dice_rolled"]
    assert pending(again) == pending(asked)


def test_ob7_an_entry_naming_another_kingdoms_army_is_refused():
    armies = [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))]
    data = gathering(
        dice=[1, 2, 3], armies=armies, inputs={"succession": {"red": {"disband": "blue-1"}}}
    )

    refused = refusal(data)

    assert (refused.code, refused.field, refused.unit) == (
        "not-your-army",
        "inputs.succession.red.disband",
        "blue-1",
    )


def test_ob7_an_entry_of_a_kingdom_that_owes_nothing_is_dropped_when_the_step_closes():
    data = gathering(dice=[3, 3], inputs={"succession": {"red": {"disband": "red-1"}}})

    after = adjudicate(data)

    assert events(after, "disbanded") == []
    assert "succession" not in after["inputs"]


def test_og1_absent_fields_and_the_step_with_the_option_off():
    after = adjudicate(gathering(dice=[3, 3]))
    assert kingdom(after, "red")["reign"] == 1
    off = winter(
        "succession", tiles=[RED_HOME, BLUE_HOME], capitals={"red": (0, 0), "blue": (-3, 3)}
    )
    assert refusal(off).code == "bad-clock"
    stray = winter(
        "tithe",
        options=SUCCESSION,
        tiles=[RED_HOME, BLUE_HOME],
        capitals={"red": (0, 0), "blue": (-3, 3)},
        kingdom_fields={"red": {"heir": "disputed"}},
    )
    assert refusal(stray).code == "heir-out-of-step"


@pytest.mark.parametrize(
    ("die", "capital", "dead"),
    [(1, True, True), (2, True, False), (2, False, True), (3, False, False)],
)
def test_ob5_a_ruler_without_a_capital_dies_on_one_or_two(die, capital, dead):
    data = gathering(
        dice=[die, 6, 3] if dead else [die, 3],
        capitals={"red": (0, 0), "blue": (-3, 3)} if capital else {"blue": (-3, 3)},
    )

    assert bool(events(adjudicate(data), "ruler-died")) is dead


def test_meet_succession_and_wizards_a_disbanded_armys_artefacts_go_to_the_capital():
    """Red's heir is disputed; red-2, disbanded, carried the Blade of Slashing: it goes to
    Red's capital."""
    armies = [army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (-3, 3))]
    pool = [
        {"name": "Blade of Slashing", "points": 5, "holder": {"kingdom": "red", "army": "red-2"}}
    ]
    data = gathering(
        dice=[1, 2, 3],
        armies=armies,
        options={"wizards": True},
        artefacts=pool,
        inputs={"succession": {"red": {"disband": "red-2"}}},
    )

    after = adjudicate(data)

    (blade,) = [a for a in after["artefacts"] if a["name"] == "Blade of Slashing"]
    assert blade["holder"] == {"kingdom": "red", "army": None}


def test_ob7_an_entry_for_a_kingdom_the_campaign_has_not_is_refused_as_the_file_is_read():
    data = gathering(dice=[3, 3], inputs={"succession": {"green": {"disband": "green-1"}}})

    refused = refusal(data)

    assert (refused.code, refused.field) == ("unknown-kingdom", "inputs.succession.green")
