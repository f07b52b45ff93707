"""The engine reads a campaign file faster without reading it differently: the map once
for each content, and the tiles and events written as the engine writes them by a
shortcut. Each case is refused, or read, exactly as it was without them."""

import copy
from typing import Any

import pytest

from campaign.rules.errors import RuleError
from campaign.rules.fileformat import Json, parse_campaign
from campaign.rules.fileformat.parsing import _holding, _plain_holding
from campaign.rules.state import Holding, Settlement
from tests.rules.casebook import adjudicate, army, make_map, position, refusal, tile

BASE = position(
    armies=[army("red-1", (0, 0)), army("blue-1", (2, 0))],
    tiles=[tile((0, 0), "red", "city"), tile((2, 0), "blue", "city"), tile((1, 0), "red")],
)


def test_an_advanced_campaign_is_the_same_read_twice():
    """Advancing the same file twice (the second time with its map read from the cache)
    gives the same file."""
    first = adjudicate(copy.deepcopy(BASE))
    assert adjudicate(copy.deepcopy(BASE)) == first


def test_a_bad_map_is_refused_after_the_good_one_was_read():
    """The same campaign, its map read once, then with one tile of the map made "sand":
    the engine refuses it, every time."""
    adjudicate(copy.deepcopy(BASE))
    bad = copy.deepcopy(BASE)
    bad["map"]["tiles"][0]["terrain"] = "sand"
    for _ in range(2):
        refused = refusal(bad)
        assert (refused.code, refused.field) == ("unknown-terrain", "map.tiles[0].terrain")


def test_two_maps_give_two_positions():
    """The same position on two maps that differ in one tile: armies may stand on the
    plains of one, and not on the marsh of the other."""
    adjudicate(copy.deepcopy(BASE))
    marsh = copy.deepcopy(BASE)
    marsh["map"] = make_map(terrain={(2, 0): "marsh"})
    refused = refusal(marsh)
    assert refused.code == "settlement-on-marsh"


@pytest.mark.parametrize(
    ("holding", "code", "field"),
    [
        ({"hex": (1, 0), "owner": "red", "settlement": None}, "bad-hex", "tiles[2].hex"),
        ({"hex": [1, True], "owner": "red", "settlement": None}, "bad-hex", "tiles[2].hex"),
        ({"hex": [1, 0], "owner": "", "settlement": None}, "wrong-type", "tiles[2].owner"),
        ({"hex": [1, 0], "owner": "red", "settlement": "castle"}, "unknown-value",
         "tiles[2].settlement"),
        ({"hex": [1, 0], "owner": "red", "settlement": None, "x": 1}, "unknown-field",
         "tiles[2].x"),
        ({"hex": [0, 0], "owner": "red", "settlement": None}, "duplicate-hex", "tiles[2].hex"),
        ({"hex": [1, 0], "owner": "green", "settlement": None}, "unknown-kingdom",
         "tiles[2].owner"),
        ("tile", "wrong-type", "tiles[2]"),
    ],
)  # fmt: skip
def test_a_bad_tile_is_refused_as_before(holding: object, code: str, field: str) -> None:
    """A tile the shortcut does not take is read field by field and refused."""
    data = copy.deepcopy(BASE)
    data["tiles"][2] = holding
    refused = refusal(data)
    assert (refused.code, refused.field) == (code, field)


@pytest.mark.parametrize(
    "value",
    [
        {"hex": [1, 0], "owner": "red", "settlement": None},
        {"hex": [1, 0], "owner": "red", "settlement": "village"},
        {"hex": [1, 0], "owner": "red"},
        {"owner": "red", "settlement": "fortress", "hex": [1, 0]},
        {"hex": [1, 0], "owner": "red", "settlement": Settlement.CITY},
        {"hex": (1, 0), "owner": "red", "settlement": None},
        {"hex": [1, 0], "owner": "red", "settlement": "castle"},
        {"hex": [1.0, 0], "owner": "red", "settlement": None},
        {"hex": [1, 0, 0], "owner": "red", "settlement": None},
        {"hex": [1, 0], "owner": 7, "settlement": None},
        {"hex": [1, 0], "owner": "red", "settlement": 1},
        [1, 0],
    ],
)
def test_the_tile_shortcut_reads_what_it_takes_as_the_field_by_field_reading(value: object) -> None:
    """Where the shortcut takes a tile, the full reading gives the same holding."""
    shortcut = _plain_holding(value)
    try:
        read: Holding | None = _holding(Json(value, "tiles[0]"), {})
    except RuleError:
        read = None
    if shortcut is not None:
        assert shortcut == read
        assert read is not None
        assert type(shortcut.settlement) is type(read.settlement)


def test_events_are_read_as_they_are():
    """Events are JSON objects, kept as they are; anything else is refused by index."""
    data = copy.deepcopy(BASE)
    data["events"] = [{"type": "a"}, {"type": "b", "n": 1}]
    assert parse_campaign(data).events == ({"type": "a"}, {"type": "b", "n": 1})
    data["events"].append(["not", "an", "object"])
    refused = refusal(data)
    assert (refused.code, refused.field) == ("wrong-type", "events[2]")


def _tiles_of(data: dict[str, Any]) -> dict[tuple[int, int], Holding]:
    return dict(parse_campaign(data).tiles)


def test_tiles_are_read_as_before():
    """A file's tiles, in whichever order, are read to the same holdings."""
    data = copy.deepcopy(BASE)
    tiles = _tiles_of(data)
    assert tiles[0, 0] == Holding((0, 0), "red", Settlement.CITY)
    assert tiles[1, 0] == Holding((1, 0), "red", None)
    data["tiles"].reverse()
    assert _tiles_of(data) == tiles
