"""Places have names (issue 35): the gazetteer made from a map and a seed (app ruling A27),
and how pages and messages say places and units by it. No database."""

import json
from collections import Counter
from typing import Any

import pytest

from campaign.gazetteer import Names, all_names, draw_regions, make_gazetteer, ordinal, settled
from campaign.maps import BUILTIN_MAPS, load_builtin_map
from campaign.rules.hexmap import ARMY_TERRAIN, distance, map_to_json
from campaign.rules.mapgen import generate_map

KINGDOMS = ["Aldermark", "Duskhollow"]


def builtin(name: str) -> dict[str, Any]:
    hexmap: dict[str, Any] = map_to_json(load_builtin_map(name))
    return hexmap


@pytest.mark.parametrize("map_name", sorted(BUILTIN_MAPS))
def test_the_same_map_and_seed_always_give_the_same_names(map_name):
    hexmap = builtin(map_name)
    made = make_gazetteer(hexmap, 7, KINGDOMS)
    assert json.dumps(made) == json.dumps(make_gazetteer(hexmap, 7, KINGDOMS))
    assert all_names(made) != all_names(make_gazetteer(hexmap, 8, KINGDOMS))


@pytest.mark.parametrize("map_name", sorted(BUILTIN_MAPS))
def test_every_name_is_unique_in_the_campaign_and_none_is_a_kingdoms(map_name):
    hexmap = builtin(map_name)
    taken = [name for region in make_gazetteer(hexmap, 1)["regions"] for name in [region["name"]]]
    made = make_gazetteer(hexmap, 1, taken[:3])  # kingdoms named like places of seed 1
    names = [name.casefold() for name in all_names(made)]
    assert len(names) == len(set(names))
    assert not {name.casefold() for name in taken[:3]} & set(names)


def test_a_large_generated_map_has_enough_names_for_every_tile():
    hexmap: dict[str, Any] = map_to_json(generate_map(8, 3, 3000))
    made = make_gazetteer(hexmap, 3, KINGDOMS)
    names = [name.casefold() for name in all_names(made)]
    land = [t for t in hexmap["tiles"] if t["terrain"] in ARMY_TERRAIN]
    settlements: dict[str, str] = made["settlements"]
    assert len(settlements) == len(land) > 1500
    assert len(names) == len(set(names))


@pytest.mark.parametrize("map_name", sorted(BUILTIN_MAPS))
def test_a25_regions_are_connected_tiles_of_one_terrain_at_most_seven(map_name):
    """App ruling A27: every tile is in exactly one region; a region's tiles share a
    terrain and are joined tile to tile; none has more than seven."""
    hexmap = builtin(map_name)
    terrain = {tuple(t["hex"]): t["terrain"] for t in hexmap["tiles"]}
    regions = draw_regions(terrain)
    assert Counter(h for region in regions for h in region) == Counter(list(terrain))
    for region in regions:
        assert 1 <= len(region) <= 7
        assert len({terrain[h] for h in region}) == 1
        reached, frontier = {region[0]}, [region[0]]
        while frontier:
            here = frontier.pop()
            for there in region:
                if there not in reached and distance(here, there) == 1:
                    reached.add(there)
                    frontier.append(there)
        assert reached == set(region)


def test_every_tile_an_army_may_enter_keeps_a_settlements_name_and_no_other_does():
    hexmap = builtin("borderlands")
    made = make_gazetteer(hexmap, 1, KINGDOMS)
    land = {f"{t['hex'][0]},{t['hex'][1]}" for t in hexmap["tiles"] if t["terrain"] in ARMY_TERRAIN}
    assert set(made["settlements"]) == land
    assert made["units"] == {}


# --- Saying places and units -------------------------------------------------------------------

GAZETTEER = {
    "regions": [
        {"name": "the Greywood", "hexes": [[0, 0], [1, 0], [2, 0]]},
        {"name": "the Grey Sea", "hexes": [[3, 0]]},
    ],
    "settlements": {"0,0": "Harrowby", "1,0": "Ashford", "2,0": "Lorby"},
    "units": {"aldermark-3": "the Iron Host"},
}
NAMES = Names({"aldermark": "Aldermark", "red-elves": "Red Elves"}, GAZETTEER, settled=[(0, 0)])


def test_the_fingerprint_of_the_names_changes_with_every_name_they_say():
    """What a map drawn with the names is kept under (campaign.display.mapcache): the same
    names give the same fingerprint; a renamed kingdom, settlement, region or unit, or a
    tile settled since, gives another."""
    kingdoms = dict(NAMES.kingdoms)
    same = Names(kingdoms, json.loads(json.dumps(GAZETTEER)), settled=[(0, 0)])
    assert same.fingerprint() == NAMES.fingerprint()
    renamed = json.loads(json.dumps(GAZETTEER))
    renamed["settlements"]["1,0"] = "Ashworth"
    region = json.loads(json.dumps(GAZETTEER))
    region["regions"][0]["name"] = "the Blackwood"
    unit = json.loads(json.dumps(GAZETTEER))
    unit["units"]["aldermark-3"] = "the Steel Host"
    others = [
        Names({**kingdoms, "aldermark": "Aldmark"}, GAZETTEER, settled=[(0, 0)]),
        Names(kingdoms, renamed, settled=[(0, 0)]),
        Names(kingdoms, region, settled=[(0, 0)]),
        Names(kingdoms, unit, settled=[(0, 0)]),
        Names(kingdoms, GAZETTEER, settled=[(0, 0), (1, 0)]),
        NAMES.seeing([{"type": "built", "hex": [2, 0]}]),
    ]
    prints = {names.fingerprint() for names in others}
    assert len(prints) == len(others)
    assert NAMES.fingerprint() not in prints


def test_a_tile_with_a_settlement_is_said_by_its_name_and_one_without_by_its_region():
    assert (NAMES.place([0, 0]), NAMES.at([0, 0])) == ("Harrowby", "at Harrowby")
    assert (NAMES.place([1, 0]), NAMES.at([1, 0])) == ("the Greywood", "in the Greywood")
    assert NAMES.settlement([1, 0]) == "Ashford"  # kept for the settlement built there


def test_a_move_between_two_tiles_of_a_region_is_said_within_it():
    assert NAMES.route([1, 0], [2, 0]) == "within the Greywood"
    assert NAMES.route([0, 0], [1, 0]) == "from Harrowby to the Greywood"


def test_a_settlement_found_or_built_later_is_named_from_then_on():
    events = [
        {"type": "explored", "hex": [1, 0], "settlement": "village"},
        {"type": "explored", "hex": [2, 0], "settlement": None},
    ]
    later = NAMES.seeing(events)
    assert later.place([1, 0]) == "Ashford"
    assert later.place([2, 0]) == "the Greywood"
    built = settled([], [{"type": "built", "hex": [2, 0], "settlement": "village"}])
    assert Names(NAMES.kingdoms, GAZETTEER, settled=built).place([2, 0]) == "Lorby"


def test_a_settlement_razed_keeps_its_name():
    tiles = [{"hex": [1, 0], "owner": "aldermark", "settlement": None}]
    events = [{"type": "razed", "unit": "red-elves-1", "hex": [1, 0], "settlement": "city"}]
    assert Names(NAMES.kingdoms, GAZETTEER, settled=settled(tiles, events)).place([1, 0]) == (
        "Ashford"
    )


def test_an_army_is_its_kingdoms_and_its_number_until_its_player_names_it():
    assert NAMES.unit("aldermark-1") == "Aldermark's 1st army"
    assert NAMES.unit("red-elves-2") == "Red Elves' 2nd army"
    assert NAMES.unit("red-elves-s1") == "Red Elves' 1st ship"
    assert NAMES.unit("aldermark-3") == "the Iron Host"
    assert NAMES.unit("aldermark-3", whose=True) == "the Iron Host (Aldermark)"
    assert NAMES.short("aldermark-12") == "12th army"


def test_ordinals_read_as_english():
    assert [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st",
        "111th",
    ]  # fmt: skip


def test_a_place_the_gazetteer_does_not_name_is_said_by_its_coordinates():
    assert Names({}, {}).place([5, -2]) == "[5, -2]"
