"""The rules casebook for the campaign options of part B (campaign-options.md) that the
engine plays so far: `yearly_event` (OW15). Each test is one case, named after its rule,
with the document's worked examples among them; its docstring states the position and what
must happen. Positions are those of the winter casebook: year 1's winter at its gather step,
on a hexagon of plains around [0, 0], Red's capital [0, 0] and Blue's [-3, 3] (`HOMES`).
The gather step runs and the engine stops at the tithes, which every kingdom owes."""

from typing import Any

import pytest

from tests.rules.casebook import (
    Json,
    adjudicate,
    army,
    events,
    happened,
    make_map,
    tile,
    tile_at,
)
from tests.rules.test_casebook_winter import HOMES, purse, winter

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
