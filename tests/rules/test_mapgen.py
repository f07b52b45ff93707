"""Generated maps: playable (no map problem, ruling M8's start tiles), varied, sized as
asked, and the same for the same seed."""

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules.hexmap import Terrain, distance, map_problems, map_to_json
from campaign.rules.mapgen import generate_map, start_tiles_for


def test_the_same_seed_gives_the_same_map():
    """Two maps for 4 kingdoms from seed 7 at 200 hexes are equal, tile for tile."""
    first = generate_map(4, 7, 200)
    assert generate_map(4, 7, 200) == first
    assert map_to_json(generate_map(4, 7, 200)) == map_to_json(first)


def test_different_seeds_give_different_maps():
    """Seeds 1 to 5 give five different maps."""
    maps = [map_to_json(generate_map(4, seed, 200)) for seed in range(1, 6)]
    assert all(maps[i] != maps[j] for i in range(5) for j in range(i + 1, 5))


def test_the_global_random_source_is_neither_used_nor_disturbed():
    """Reseeding the global random module changes nothing, and generating a map leaves the
    global random state as it was."""
    random.seed(1)
    first = generate_map(3, 99, 120)
    random.seed(2)
    state = random.getstate()
    assert generate_map(3, 99, 120) == first
    assert random.getstate() == state


@given(
    kingdoms=st.integers(2, 8),
    seed=st.integers(0, 10**6),
    size=st.sampled_from([60, 100, 150, 300, 600, 1000, 1500]),
)
@settings(max_examples=50, deadline=None)
def test_m8_generated_maps_are_valid_with_enough_start_tiles(kingdoms, seed, size):
    """Any number of kingdoms from 2 to 8, any seed and size: the map has no problem, one
    start tile per kingdom plus spares, all at least 3 apart, and a sea for ships."""
    hexmap = generate_map(kingdoms, seed, size)
    assert map_problems(hexmap) == []
    starts = hexmap.start_tiles()
    assert len(starts) == start_tiles_for(kingdoms) > kingdoms
    assert all(distance(a, b) >= 3 for a in starts for b in starts if a != b)
    assert any(tile.terrain is Terrain.OCEAN for tile in hexmap.tiles.values())
    assert any(tile.coast for tile in hexmap.tiles.values())


@pytest.mark.parametrize("kingdoms", [2, 3, 4, 5, 6, 7, 8])
def test_spare_start_tiles(kingdoms):
    """Kingdoms plus half as many again (at least one) start tiles."""
    assert start_tiles_for(kingdoms) == kingdoms + max(1, kingdoms // 2)


@pytest.mark.parametrize(("kingdoms", "size"), [(2, 100), (4, 300), (8, 1000), (4, 1500)])
def test_the_map_has_about_the_size_asked_for(kingdoms, size):
    """Across seeds, the tile count stays within a fifth of the size asked for."""
    for seed in range(10):
        assert size * 0.8 <= len(generate_map(kingdoms, seed, size).tiles) <= size * 1.2


def test_a_map_too_small_for_its_kingdoms_is_grown():
    """8 kingdoms on 60 hexes: the map grows until its 12 start tiles fit, and is valid."""
    hexmap = generate_map(8, 3, 60)
    assert len(hexmap.start_tiles()) == 12
    assert len(hexmap.tiles) >= 240
    assert map_problems(hexmap) == []


@pytest.mark.parametrize("seed", range(8))
def test_generated_maps_are_varied(seed):
    """A 300-hex map has every terrain, rivers with bridges, coast, and a water edge."""
    hexmap = generate_map(5, seed, 300)
    tiles = list(hexmap.tiles.values())
    terrains = Counter(tile.terrain for tile in tiles)
    assert set(terrains) == set(Terrain)
    assert terrains[Terrain.OCEAN] >= 0.15 * len(tiles)
    assert sum(tile.river for tile in tiles) >= 3
    assert any(tile.bridge for tile in tiles)
    assert any(tile.coast for tile in tiles)
    assert hexmap.water_edges


def test_ships_can_sail_up_a_river_from_the_sea():
    """Some river tile is a coast tile: a river mouth where ships enter from the ocean."""
    hexmap = generate_map(4, 11, 300)
    mouths = [t.hex for t in hexmap.tiles.values() if t.river and t.coast]
    assert mouths
    assert all(
        any(hexmap.tiles[n].terrain is Terrain.OCEAN for n in hexmap.neighbours(h)) for h in mouths
    )


@pytest.mark.parametrize("kingdoms", [1, 9, 0, -3])
def test_kingdoms_outside_2_to_8_are_refused(kingdoms):
    """Maps are generated for 2 to 8 kingdoms; anything else is a ValueError saying so."""
    with pytest.raises(ValueError, match="2 to 8 kingdoms"):
        generate_map(kingdoms, 1, 300)


def test_a_size_beyond_the_limit_is_refused():
    """More than 5,000 hexes is a ValueError."""
    with pytest.raises(ValueError, match="at most 5000 hexes"):
        generate_map(4, 1, 5001)


def test_a_thousand_hex_map_is_generated_for_eight_kingdoms():
    """1,000 hexes for 8 kingdoms: about that many tiles, and the start tiles M8 asks for
    (its time is `make bench`'s `mapgen_8k_1000hex`, not a test's)."""
    hexmap = generate_map(8, 2024, 1000)
    assert 1000 <= len(hexmap.tiles) <= 1100
    assert len(hexmap.start_tiles()) == start_tiles_for(8)
