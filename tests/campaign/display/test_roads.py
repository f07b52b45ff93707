"""Option roads (OW9 to OW11) on the map: each road drawn from tile centre to tile centre,
public to every viewer; a tap on a tile it runs through says so; the legend has its line;
with the option off, nothing of it is drawn. Its events in words."""

import re
from typing import Any

from campaign.display import events
from campaign.display.mapsvg.geometry import centre
from campaign.display.mapsvg.legend import legend_items
from campaign.display.mapsvg.render import render_map
from campaign.display.svg import coordinate
from campaign.gazetteer import Names
from tests.rules.casebook import make_map, position, tile

ROADS = [[[0, 0], [1, 0]], [[1, -1], [1, 0]]]


def with_roads(on: bool = True) -> dict[str, Any]:
    data = position(
        map=make_map(2),
        tiles=[tile((0, 0), "red", "city"), tile((1, 0), "red"), tile((1, -1), "red")],
        options={"roads": True} if on else {},
    )
    if on:
        data["roads"] = ROADS
    return data


def test_each_road_is_drawn_from_tile_centre_to_tile_centre():
    drawn = render_map(with_roads(), kingdoms={})
    lines = re.findall(
        r'<line class="road" x1="([^"]+)" y1="([^"]+)" x2="([^"]+)" y2="([^"]+)"', drawn
    )
    expected = {
        tuple(coordinate(v) for v in (*centre((a[0], a[1])), *centre((b[0], b[1]))))
        for a, b in ROADS
    }
    assert set(lines) == expected
    assert "a road runs through it" in drawn  # the words of a tap on [0, 0], [1, 0], [1, -1]


def test_with_the_option_off_no_road_is_drawn_and_the_legend_has_none():
    assert 'class="road"' not in render_map(with_roads(on=False), kingdoms={})
    assert not any(item.label.startswith("Road") for item in legend_items())
    assert any(item.label.startswith("Road") for item in legend_items({"roads": True}))


def test_a_road_built_is_told_with_its_two_places():
    built = {
        "year": 1, "season": "winter", "month": 0, "step": "build",
        "type": "road-built", "kingdom": "red", "hex": [0, 0], "to": [1, 0],
    }  # fmt: skip
    line = events.describe(built, Names({"red": "Red Elves"})).text
    assert line.startswith("Red Elves built a road from ")


def test_trade_is_told_in_the_gathering_with_the_settlements_that_brought_it():
    gathered = {
        "year": 1, "season": "winter", "month": 0, "step": "gather", "type": "gathered",
        "kingdom": "red", "gold": 4, "food": 1, "tiles": [],
        "gains": [{"source": "trade", "gold": 1, "food": 0, "tiles": [[1, -1], [2, 0]]}],
    }  # fmt: skip
    names = Names({"red": "Red Elves"})
    line = events.describe(gathered, names).text
    where = f"{names.place([1, -1])}, {names.place([2, 0])}"
    assert line.endswith(f"; trade along the roads 1 gold (from {where}).")
