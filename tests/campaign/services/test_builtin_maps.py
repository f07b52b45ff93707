"""The built-in maps: valid, big enough for their kingdoms, varied, and stored as stable,
readable JSON."""

from collections import Counter
from importlib import resources

import pytest

from campaign.maps import BUILTIN_MAPS, load_builtin_map, map_json_text
from campaign.rules.hexmap import Terrain, map_problems

SIZES = {"borderlands": (60, 100), "river-kingdoms": (150, 250), "great-continent": (300, 400)}


def test_there_are_maps_for_every_table_from_2_to_8_kingdoms():
    """borderlands (2-3), river-kingdoms (4-5) and great-continent (6-8) cover 2 to 8."""
    assert {name: (m.min_kingdoms, m.max_kingdoms) for name, m in BUILTIN_MAPS.items()} == {
        "borderlands": (2, 3),
        "river-kingdoms": (4, 5),
        "great-continent": (6, 8),
    }


@pytest.mark.parametrize("name", sorted(BUILTIN_MAPS))
def test_m8_a_builtin_map_is_valid(name):
    """The map has no problem: start tiles pass ruling M8 and all land can be reached."""
    assert map_problems(load_builtin_map(name)) == []


@pytest.mark.parametrize("name", sorted(BUILTIN_MAPS))
def test_a_builtin_map_has_a_start_tile_for_each_kingdom_and_a_spare(name):
    """More start tiles than its largest table of kingdoms."""
    assert len(load_builtin_map(name).start_tiles()) > BUILTIN_MAPS[name].max_kingdoms


@pytest.mark.parametrize("name", sorted(BUILTIN_MAPS))
def test_a_builtin_map_has_its_size(name):
    """borderlands 60-100 hexes, river-kingdoms 150-250, great-continent 300-400."""
    low, high = SIZES[name]
    assert low <= len(load_builtin_map(name).tiles) <= high


@pytest.mark.parametrize("name", sorted(BUILTIN_MAPS))
def test_a_builtin_map_has_varied_terrain(name):
    """Every terrain, rivers with bridges, a coast with ships' landings, and a water edge."""
    hexmap = load_builtin_map(name)
    tiles = list(hexmap.tiles.values())
    assert set(Counter(tile.terrain for tile in tiles)) == set(Terrain)
    assert sum(tile.river for tile in tiles) >= 4
    assert any(tile.bridge for tile in tiles)
    assert sum(tile.coast for tile in tiles) >= 10
    assert hexmap.water_edges


@pytest.mark.parametrize("name", sorted(BUILTIN_MAPS))
def test_a_builtin_map_has_a_title_and_a_one_line_description(name):
    """Title and description are set; the description is one line."""
    info = BUILTIN_MAPS[name]
    assert info.title
    assert info.description
    assert "\n" not in info.description
    assert 2 <= info.min_kingdoms <= info.max_kingdoms <= 8


@pytest.mark.parametrize("name", sorted(BUILTIN_MAPS))
def test_a_builtin_map_file_is_stable_with_one_tile_a_line(name):
    """The file is exactly what map_json_text writes for the map it holds (so rewriting it
    changes nothing), and each tile is on its own line."""
    text = resources.files("campaign.maps").joinpath(f"{name}.json").read_text(encoding="utf-8")
    hexmap = load_builtin_map(name)
    assert text == map_json_text(hexmap)
    tile_lines = [line for line in text.splitlines() if line.strip().startswith('{"hex"')]
    assert len(tile_lines) == len(hexmap.tiles)


def test_an_unknown_map_name_is_a_key_error_naming_the_maps():
    """Asking for "atlantis" raises KeyError that names it and lists the built-in maps."""
    with pytest.raises(KeyError, match="atlantis") as caught:
        load_builtin_map("atlantis")
    assert "borderlands" in str(caught.value)
