"""The map rulings (M1-M8), the map validator and the campaign file's `map` object.

Most positions are built on `board()`: a hexagon of radius 3 around [0, 0], all plains,
with start tiles at [-2, 0] and [2, 0]. It is a valid map; each test changes one thing."""

import json

import pytest

from campaign.rules.errors import RuleError
from campaign.rules.hexmap import (
    MAP_CACHE_SIZE,
    Battlefield,
    Hex,
    HexMap,
    MapProblem,
    MapTile,
    Terrain,
    _map_from_key,
    cached_map_from_json,
    connected,
    distance,
    hex_label,
    map_from_json,
    map_problems,
    map_to_json,
    neighbours,
)

STARTS = ((-2, 0), (2, 0))


def disc(radius: int) -> list[Hex]:
    return [
        (q, r)
        for q in range(-radius, radius + 1)
        for r in range(-radius, radius + 1)
        if distance((0, 0), (q, r)) <= radius
    ]


def board(
    changes: dict[Hex, MapTile] | None = None,
    water_edges: tuple[tuple[Hex, Hex], ...] = (),
    starts: tuple[Hex, ...] = STARTS,
) -> HexMap:
    tiles = {h: MapTile(h, Terrain.PLAINS, start=h in starts) for h in disc(3)}
    tiles.update(changes or {})
    return HexMap(tiles=tiles, water_edges=frozenset(frozenset(e) for e in water_edges))


def tiles(*items: MapTile) -> dict[Hex, MapTile]:
    return {tile.hex: tile for tile in items}


def codes(hexmap: HexMap) -> list[str]:
    return [problem.code for problem in map_problems(hexmap)]


# --- M1 coordinates -----------------------------------------------------------------------


def test_m1_neighbours_come_in_the_ruling_order():
    """[2, -1] has the neighbours [3, -1], [3, -2], [2, -2], [1, -1], [1, 0], [2, 0], in
    that order."""
    assert neighbours((2, -1)) == ((3, -1), (3, -2), (2, -2), (1, -1), (1, 0), (2, 0))


@pytest.mark.parametrize(
    ("a", "b", "steps"),
    [((0, 0), (0, 0), 0), ((0, 0), (1, -1), 1), ((0, 0), (2, -1), 2), ((0, 0), (3, -3), 3),
     ((-2, 1), (2, -1), 4), ((1, 2), (-2, -1), 6)],
)  # fmt: skip
def test_m1_distance_counts_hex_steps(a, b, steps):
    """The distance between two axial hexes is the number of steps between them, both ways."""
    assert distance(a, b) == steps
    assert distance(b, a) == steps


def test_m1_every_neighbour_is_one_step_away():
    """Each of the six neighbours of [4, -7] is at distance 1, and they are all different."""
    around = neighbours((4, -7))
    assert len(set(around)) == 6
    assert all(distance((4, -7), n) == 1 for n in around)


def test_m1_a_hex_off_the_map_does_not_exist():
    """On the board, [3, 0] is on the edge: only its three neighbours on the map count, and
    nothing may enter [4, 0] beyond the edge."""
    hexmap = board()
    assert hexmap.neighbours((3, 0)) == ((3, -1), (2, 0), (2, 1))
    assert not hexmap.army_may_enter((4, 0))
    assert not hexmap.ship_may_enter((4, 0))
    assert not hexmap.army_may_move((3, 0), (4, 0))


def test_m1_sorted_hexes_and_start_tiles_are_in_q_r_order():
    """sorted_hexes lists [-3, 0] first and [3, 0] last; start tiles come as [-2, 0], [2, 0]."""
    hexmap = board()
    assert hexmap.sorted_hexes()[0] == (-3, 0)
    assert hexmap.sorted_hexes()[-1] == (3, 0)
    assert len(hexmap.sorted_hexes()) == 37
    assert hexmap.start_tiles() == ((-2, 0), (2, 0))


# --- M2 terrain and flags -----------------------------------------------------------------


@pytest.mark.parametrize("terrain", list(Terrain))
def test_m2_every_terrain_is_read_from_the_file(terrain):
    """A tile with terrain `terrain` and no flags reads as that terrain, every flag false."""
    hexmap = map_from_json({"tiles": [{"hex": [0, 0], "terrain": terrain.value}]})
    assert hexmap.tiles[(0, 0)] == MapTile((0, 0), terrain)
    tile = hexmap.tiles[(0, 0)]
    assert (tile.river, tile.coast, tile.bridge, tile.start) == (False, False, False, False)


# --- M3 who may enter ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "terrain", [Terrain.PLAINS, Terrain.FOREST, Terrain.MOUNTAINS, Terrain.LAKE]
)
def test_m3_army_may_enter_plains_forest_mountains_and_lake(terrain):
    """An army may enter [1, 0] when it is plains, forest, mountains or lake."""
    hexmap = board(tiles(MapTile((1, 0), terrain)))
    assert hexmap.army_may_enter((1, 0))
    assert hexmap.army_may_move((0, 0), (1, 0))


@pytest.mark.parametrize(
    "marsh",
    [MapTile((1, 0), Terrain.MARSH), MapTile((1, 0), Terrain.MARSH, river=True),
     MapTile((1, 0), Terrain.MARSH, coast=True)],
)  # fmt: skip
def test_m3_army_may_not_enter_marsh(marsh):
    """[1, 0] is marsh (with or without a river or coast): no army may enter it."""
    hexmap = board(tiles(marsh))
    assert not hexmap.army_may_enter((1, 0))
    assert not hexmap.army_may_move((0, 0), (1, 0))


@pytest.mark.parametrize(
    "tile",
    [MapTile((1, 0), Terrain.PLAINS, coast=True), MapTile((1, 0), Terrain.FOREST, river=True),
     MapTile((1, 0), Terrain.MOUNTAINS, river=True, bridge=True), MapTile((1, 0), Terrain.LAKE),
     MapTile((1, 0), Terrain.OCEAN)],
)  # fmt: skip
def test_m3_ship_may_enter_coast_river_lake_and_ocean_tiles(tile):
    """A ship may enter [1, 0] when it is a coast tile, has a river, is a lake, or is ocean."""
    hexmap = board(tiles(tile))
    assert hexmap.ship_may_enter((1, 0))
    assert hexmap.ship_may_move((0, 0), (1, 0))


@pytest.mark.parametrize("terrain", [Terrain.PLAINS, Terrain.FOREST, Terrain.MOUNTAINS])
def test_m3_ship_may_not_enter_dry_land(terrain):
    """[1, 0] is inland plains, forest or mountains with no river: no ship may enter."""
    hexmap = board(tiles(MapTile((1, 0), terrain)))
    assert not hexmap.ship_may_enter((1, 0))
    assert not hexmap.ship_may_move((0, 0), (1, 0))


@pytest.mark.parametrize(
    "marsh",
    [MapTile((1, 0), Terrain.MARSH, river=True), MapTile((1, 0), Terrain.MARSH, coast=True)],
)
def test_m3_ship_may_not_enter_marsh_even_on_a_river_or_coast(marsh):
    """[1, 0] is marsh with a river, or marsh on the coast: ships never enter marsh."""
    hexmap = board(tiles(marsh))
    assert not hexmap.ship_may_enter((1, 0))
    assert not hexmap.ship_may_move((0, 0), (1, 0))


def test_m3_a_move_must_be_to_an_adjacent_tile():
    """From [0, 0], [2, 0] is two steps away and [0, 0] itself is no step: neither an army
    nor a ship may move there, though both may enter river tile [2, 0]."""
    hexmap = board(tiles(MapTile((2, 0), Terrain.PLAINS, river=True, start=True)))
    assert hexmap.army_may_enter((2, 0))
    assert hexmap.ship_may_enter((2, 0))
    assert not hexmap.army_may_move((0, 0), (2, 0))
    assert not hexmap.ship_may_move((0, 0), (2, 0))
    assert not hexmap.army_may_move((0, 0), (0, 0))


def test_m3_army_never_crosses_a_water_edge():
    """A water edge lies between [0, 0] and [1, 0]: an army may not cross it either way,
    but may still step from [0, 0] to its other neighbour [0, 1]."""
    hexmap = board(water_edges=(((0, 0), (1, 0)),))
    assert hexmap.is_water_edge((0, 0), (1, 0))
    assert hexmap.is_water_edge((1, 0), (0, 0))
    assert not hexmap.army_may_move((0, 0), (1, 0))
    assert not hexmap.army_may_move((1, 0), (0, 0))
    assert hexmap.army_may_move((0, 0), (0, 1))
    assert not hexmap.is_water_edge((0, 0), (0, 1))


def test_m3_ship_may_cross_a_water_edge():
    """[0, 0] and [1, 0] are river tiles with a water edge between them: a ship may sail
    across it where an army may not walk."""
    river = tiles(MapTile((0, 0), Terrain.PLAINS, river=True),
                  MapTile((1, 0), Terrain.PLAINS, river=True))  # fmt: skip
    hexmap = board(river, water_edges=(((0, 0), (1, 0)),))
    assert hexmap.ship_may_move((0, 0), (1, 0))
    assert hexmap.ship_may_move((1, 0), (0, 0))
    assert not hexmap.army_may_move((0, 0), (1, 0))


# --- M4 ocean -----------------------------------------------------------------------------


def test_m4_armies_never_enter_ocean_but_ships_do():
    """[1, 0] is ocean: an army on [0, 0] may not move there; a ship on [0, 0] may."""
    hexmap = board(tiles(MapTile((1, 0), Terrain.OCEAN)))
    assert not hexmap.army_may_enter((1, 0))
    assert not hexmap.army_may_move((0, 0), (1, 0))
    assert hexmap.ship_may_enter((1, 0))
    assert hexmap.ship_may_move((0, 0), (1, 0))


def test_m4_ships_sail_from_ocean_to_ocean():
    """[1, 0] and [1, 1] are ocean: a ship sails between them."""
    sea = tiles(MapTile((1, 0), Terrain.OCEAN), MapTile((1, 1), Terrain.OCEAN))
    assert board(sea).ship_may_move((1, 0), (1, 1))


# --- M6 battlefield -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tile", "battlefield"),
    [
        (MapTile((0, 0), Terrain.MOUNTAINS, river=True, coast=True), Battlefield.MOUNTAINS),
        (MapTile((0, 0), Terrain.MOUNTAINS), Battlefield.MOUNTAINS),
        (MapTile((0, 0), Terrain.FOREST, river=True, coast=True), Battlefield.RIVER_VALLEY),
        (MapTile((0, 0), Terrain.PLAINS, river=True, bridge=True), Battlefield.RIVER_VALLEY),
        (MapTile((0, 0), Terrain.LAKE, coast=True), Battlefield.RIVER_VALLEY),
        (MapTile((0, 0), Terrain.FOREST, coast=True), Battlefield.COASTAL),
        (MapTile((0, 0), Terrain.PLAINS, coast=True), Battlefield.COASTAL),
        (MapTile((0, 0), Terrain.FOREST), Battlefield.LOWLAND_FORESTS),
        (MapTile((0, 0), Terrain.PLAINS), Battlefield.LOWLAND_PLAINS),
    ],
)
def test_m6_battlefield_follows_the_ruling_order(tile, battlefield):
    """Mountains first; else a river or lake makes a river valley; else the coast; else
    forest; else plains."""
    assert board(tiles(tile)).battlefield((0, 0)) is battlefield


# --- M7 connected -------------------------------------------------------------------------


def strip(length: int, water_edges: tuple[tuple[Hex, Hex], ...] = ()) -> HexMap:
    """A one-hex-wide strip [0, 0] .. [length - 1, 0]: the only path runs along it."""
    row = {(q, 0): MapTile((q, 0), Terrain.PLAINS) for q in range(length)}
    return HexMap(tiles=row, water_edges=frozenset(frozenset(e) for e in water_edges))


def test_m7_tiles_joined_by_own_tiles_are_connected():
    """A kingdom holds [0, 0] to [3, 0] of a strip: all four are connected to [0, 0]."""
    owned = {(0, 0), (1, 0), (2, 0), (3, 0)}
    assert connected((0, 0), owned, strip(5)) == frozenset(owned)


def test_m7_an_enemy_tile_breaks_the_path():
    """A kingdom holds [0, 0], [1, 0], [3, 0] and [4, 0]; an enemy holds [2, 0]. From [0, 0]
    only [0, 0] and [1, 0] are connected; from [4, 0], only [3, 0] and [4, 0]."""
    owned = {(0, 0), (1, 0), (3, 0), (4, 0)}
    assert connected((0, 0), owned, strip(5)) == {(0, 0), (1, 0)}
    assert connected((4, 0), owned, strip(5)) == {(3, 0), (4, 0)}


def test_m7_a_path_may_go_round_an_enemy_tile():
    """On the board a kingdom holds [-1, 0], [0, -1], [1, -1] and [1, 0]; the enemy holds
    [0, 0]. The path round it connects [-1, 0] to [1, 0]."""
    owned = {(-1, 0), (0, -1), (1, -1), (1, 0)}
    assert connected((-1, 0), owned, board()) == frozenset(owned)


def test_m7_water_edges_do_not_break_connection():
    """A water edge lies between [1, 0] and [2, 0] of a strip the kingdom holds: [0, 0] is
    still connected to [3, 0]."""
    owned = {(0, 0), (1, 0), (2, 0), (3, 0)}
    hexmap = strip(4, water_edges=(((1, 0), (2, 0)),))
    assert connected((0, 0), owned, hexmap) == frozenset(owned)


def test_m7_nothing_is_connected_to_a_tile_the_kingdom_does_not_hold():
    """The kingdom holds [1, 0] and [2, 0] but not [0, 0]: nothing is connected to [0, 0]."""
    assert connected((0, 0), {(1, 0), (2, 0)}, strip(3)) == frozenset()


# --- M8 start tiles and the validator -----------------------------------------------------


def test_m8_the_board_is_a_valid_map():
    """The board (two start tiles four apart, each with six plains around) has no problem."""
    assert map_problems(board()) == []


def test_m8_a_start_tile_with_three_enterable_neighbours_is_invalid():
    """Start tile [2, 0] has marsh on [3, 0], [3, -1] and [2, 1], leaving three neighbours
    that armies may enter."""
    marsh = tiles(*(MapTile(h, Terrain.MARSH) for h in [(3, 0), (3, -1), (2, 1)]))
    problems = map_problems(board(marsh))
    assert [(p.code, p.hex) for p in problems] == [("start-too-few-neighbours", (2, 0))]
    assert "[2, 0]" in problems[0].message


def test_m8_a_start_tile_with_four_enterable_neighbours_is_valid():
    """Start tile [2, 0] has marsh on [3, 0] and ocean on [3, -1] (a coast); the other four
    neighbours are plains: valid."""
    edge = tiles(MapTile((3, 0), Terrain.MARSH), MapTile((3, -1), Terrain.OCEAN),
                 MapTile((2, -1), Terrain.PLAINS, coast=True),
                 MapTile((2, 0), Terrain.PLAINS, coast=True, start=True))  # fmt: skip
    assert map_problems(board(edge)) == []


def test_m8_a_start_tile_on_the_board_edge_lacks_neighbours():
    """Start tile [3, 0] sits on the board edge with three neighbours: invalid."""
    problems = map_problems(board(starts=((-2, 0), (3, 0))))
    assert [(p.code, p.hex) for p in problems] == [("start-too-few-neighbours", (3, 0))]


def test_m8_a_neighbour_across_a_water_edge_does_not_count():
    """Start tile [2, 0] has marsh on [3, 0] and [3, -1], and a water edge to [2, 1]: only
    three neighbours can be reached by its armies."""
    marsh = tiles(MapTile((3, 0), Terrain.MARSH), MapTile((3, -1), Terrain.MARSH))
    hexmap = board(marsh, water_edges=(((2, 0), (2, 1)),))
    assert codes(hexmap) == ["start-too-few-neighbours"]


def test_m8_a_start_tile_next_to_another_is_invalid():
    """Start tiles [0, 0] and [1, 0] are neighbours."""
    problems = map_problems(board(starts=((0, 0), (1, 0))))
    assert [(p.code, p.hex) for p in problems] == [("start-next-to-start", (0, 0))]
    assert "[0, 0]" in problems[0].message
    assert "[1, 0]" in problems[0].message


def test_m8_start_tiles_two_apart_are_too_close():
    """Start tiles [-1, 0] and [1, 0] are 2 apart: too close."""
    problems = map_problems(board(starts=((-1, 0), (1, 0))))
    assert [(p.code, p.hex) for p in problems] == [("start-too-close", (-1, 0))]


def test_m8_start_tiles_three_apart_are_fine():
    """Start tiles [-1, 0] and [2, 0] are 3 apart: valid."""
    assert map_problems(board(starts=((-1, 0), (2, 0)))) == []


def test_m8_every_pair_of_close_start_tiles_is_reported():
    """Start tiles [-1, 0], [1, 0] and [1, 1]: [-1, 0] is 2 from [1, 0] (and 3 from [1, 1]),
    [1, 0] is next to [1, 1]: two problems."""
    hexmap = board(starts=((-1, 0), (1, 0), (1, 1)))
    found = [(p.code, p.hex) for p in map_problems(hexmap)]
    assert found == [("start-too-close", (-1, 0)), ("start-next-to-start", (1, 0))]


def test_m8_a_start_tile_armies_may_not_enter_is_invalid():
    """Start tile [2, 0] is marsh."""
    hexmap = board(tiles(MapTile((2, 0), Terrain.MARSH, start=True)))
    assert codes(hexmap) == ["start-not-enterable"]


def test_a_map_with_no_tiles_is_refused():
    """An empty map: one problem, no-tiles, with no hex."""
    assert map_problems(HexMap(tiles={})) == [MapProblem("no-tiles", None, "The map has no tiles.")]


def test_a_map_needs_two_start_tiles():
    """The board with only [2, 0] as a start tile: a campaign needs at least two."""
    problems = map_problems(board(starts=((2, 0),)))
    assert [(p.code, p.hex) for p in problems] == [("too-few-start-tiles", None)]


def test_a_tile_filed_under_the_wrong_hex_is_reported():
    """The tile stored at [0, 0] says it is at [0, 1]."""
    hexmap = board({(0, 0): MapTile((0, 1), Terrain.PLAINS)})
    assert [(p.code, p.hex) for p in map_problems(hexmap)] == [("tile-hex-mismatch", (0, 0))]


def test_a_water_edge_between_hexes_that_are_not_adjacent_is_reported():
    """A water edge between [0, 0] and [2, 0], two steps apart."""
    problems = map_problems(board(water_edges=(((0, 0), (2, 0)),)))
    assert [(p.code, p.hex) for p in problems] == [("water-edge-not-adjacent", (0, 0))]
    assert "[0, 0]" in problems[0].message
    assert "[2, 0]" in problems[0].message


def test_a_water_edge_off_the_map_is_reported():
    """A water edge between [3, 0] on the map and [4, 0] off it."""
    problems = map_problems(board(water_edges=(((3, 0), (4, 0)),)))
    assert [(p.code, p.hex) for p in problems] == [("water-edge-off-map", (4, 0))]


def test_a_water_edge_from_a_hex_to_itself_is_reported():
    """A water edge that lists [0, 0] twice joins no two hexes."""
    hexmap = HexMap(tiles=board().tiles, water_edges=frozenset({frozenset({(0, 0)})}))
    assert codes(hexmap) == ["water-edge-not-adjacent"]


def test_a_bridge_without_a_river_is_reported():
    """[0, 0] has a bridge but no river."""
    problems = map_problems(board(tiles(MapTile((0, 0), Terrain.PLAINS, bridge=True))))
    assert [(p.code, p.hex) for p in problems] == [("bridge-without-river", (0, 0))]
    assert "[0, 0]" in problems[0].message


@pytest.mark.parametrize("flag", ["river", "coast"])
def test_m4_an_ocean_tile_with_a_land_flag_is_reported(flag):
    """Ocean tile [0, 0] is marked river or coast: open water has neither."""
    ocean = MapTile((0, 0), Terrain.OCEAN, **{flag: True})
    problems = map_problems(board(tiles(ocean)))
    assert [(p.code, p.hex) for p in problems] == [(f"{flag}-on-ocean", (0, 0))]
    assert "[0, 0]" in problems[0].message


def test_m4_a_start_tile_on_the_ocean_is_reported():
    """Ocean tile [0, 3] is marked start: reported as start-on-ocean (and, with only three
    neighbours on the board edge, as lacking neighbours)."""
    hexmap = board(tiles(MapTile((0, 3), Terrain.OCEAN, start=True)))
    assert codes(hexmap) == ["start-on-ocean", "start-too-few-neighbours"]


def test_m4_a_bridge_on_the_ocean_is_reported():
    """Ocean tile [0, 0] has a river and a bridge: both are reported."""
    ocean = MapTile((0, 0), Terrain.OCEAN, river=True, bridge=True)
    assert codes(board(tiles(ocean))) == ["river-on-ocean", "bridge-on-ocean"]


def test_a_coast_tile_away_from_the_sea_is_reported():
    """[0, 0] is marked coast but none of its neighbours is ocean."""
    problems = map_problems(board(tiles(MapTile((0, 0), Terrain.PLAINS, coast=True))))
    assert [(p.code, p.hex) for p in problems] == [("coast-without-sea", (0, 0))]


def island_board(*, island_coast: bool) -> HexMap:
    """The board with [3, 0] on the coast, ocean on [4, 0] and [5, 0], and an island
    [6, 0] beyond them."""
    extra = tiles(MapTile((3, 0), Terrain.PLAINS, coast=True), MapTile((4, 0), Terrain.OCEAN),
                  MapTile((5, 0), Terrain.OCEAN),
                  MapTile((6, 0), Terrain.FOREST, coast=island_coast))  # fmt: skip
    return board(extra)


def test_an_island_reached_by_ship_is_playable():
    """Ships sail from coast tile [3, 0] over the ocean to coast tile [6, 0]: no problem."""
    assert map_problems(island_board(island_coast=True)) == []


def test_an_island_no_ship_can_land_on_is_unreachable():
    """Island [6, 0] is not a coast tile, so no ship may land there: it is cut off."""
    problems = map_problems(island_board(island_coast=False))
    assert [(p.code, p.hex) for p in problems] == [("land-unreachable", (6, 0))]
    assert "[6, 0]" in problems[0].message


def test_land_beyond_a_marsh_is_unreachable():
    """[4, 0] and [5, 0] touch the board only at [3, 0], which is marsh: nothing reaches
    them."""
    extra = tiles(MapTile((3, 0), Terrain.MARSH), MapTile((4, 0), Terrain.PLAINS),
                  MapTile((5, 0), Terrain.PLAINS))  # fmt: skip
    problems = map_problems(board(extra))
    assert [(p.code, p.hex) for p in problems] == [("land-unreachable", (4, 0))]
    assert "2 tiles" in problems[0].message


def test_land_cut_off_by_a_water_edge_is_unreachable_unless_ships_cross():
    """[4, 0] touches the board only at [3, 0], across a water edge: armies can't reach it.
    When both are river tiles, ships cross the water edge and the map is playable."""
    cut = board(tiles(MapTile((4, 0), Terrain.PLAINS)), water_edges=(((3, 0), (4, 0)),))
    assert codes(cut) == ["land-unreachable"]
    river = tiles(MapTile((3, 0), Terrain.PLAINS, river=True),
                  MapTile((4, 0), Terrain.PLAINS, river=True))  # fmt: skip
    assert map_problems(board(river, water_edges=(((3, 0), (4, 0)),))) == []


def test_every_problem_is_reported_not_just_the_first():
    """A bridge without a river on [0, 0], a marsh start tile [2, 0] and a water edge off
    the map: every one of them is listed."""
    hexmap = board(
        tiles(MapTile((0, 0), Terrain.PLAINS, bridge=True),
              MapTile((2, 0), Terrain.MARSH, start=True)),
        water_edges=(((3, 0), (4, 0)),),
    )  # fmt: skip
    assert sorted(codes(hexmap)) == [
        "bridge-without-river",
        "start-not-enterable",
        "water-edge-off-map",
    ]


def test_every_message_names_its_hex():
    """Each problem with a hex names that hex in its sentence."""
    hexmap = board(
        tiles(MapTile((0, 0), Terrain.OCEAN, coast=True, river=True, start=True),
              MapTile((1, 0), Terrain.PLAINS, bridge=True, coast=True)),
        water_edges=(((-3, 0), (-1, 0)),),
        starts=((-1, 0), (1, 1)),
    )  # fmt: skip
    problems = map_problems(hexmap)
    assert len(problems) >= 6
    for problem in problems:
        assert problem.hex is not None
        assert hex_label(problem.hex) in problem.message
        assert problem.message.endswith(".")


# --- The campaign file's map object -------------------------------------------------------


def sample_json() -> dict[str, object]:
    return {
        "tiles": [
            {"hex": [0, 0], "terrain": "plains", "start": True},
            {"hex": [1, 0], "terrain": "forest", "river": True, "bridge": True},
            {"hex": [0, 1], "terrain": "ocean"},
            {"hex": [1, -1], "terrain": "mountains", "coast": True},
        ],
        "water_edges": [[[1, -1], [0, 0]]],
    }


def test_the_map_object_is_read_with_its_flags_and_water_edges():
    """Tiles come with their terrain and flags (absent flags are false); a water edge is an
    unordered pair."""
    hexmap = map_from_json(sample_json())
    assert hexmap.tiles[(1, 0)] == MapTile((1, 0), Terrain.FOREST, river=True, bridge=True)
    assert hexmap.tiles[(0, 0)] == MapTile((0, 0), Terrain.PLAINS, start=True)
    assert hexmap.is_water_edge((0, 0), (1, -1))
    assert len(hexmap.tiles) == 4


def test_water_edges_are_optional():
    """A map object without water_edges has none."""
    hexmap = map_from_json({"tiles": [{"hex": [0, 0], "terrain": "lake"}]})
    assert hexmap.water_edges == frozenset()


def test_the_map_object_round_trips():
    """Writing a map and reading it back gives the same map."""
    hexmap = map_from_json(sample_json())
    assert map_from_json(map_to_json(hexmap)) == hexmap
    assert map_from_json(json.loads(json.dumps(map_to_json(hexmap)))) == hexmap


def test_the_map_object_is_written_in_q_r_order_with_every_flag():
    """Tiles are written in [q, r] order, each with all four flags; water edges as sorted
    pairs."""
    data = json.loads(json.dumps(map_to_json(map_from_json(sample_json()))))
    assert [tile["hex"] for tile in data["tiles"]] == [[0, 0], [0, 1], [1, -1], [1, 0]]
    assert data["tiles"][0] == {
        "hex": [0, 0], "terrain": "plains", "river": False, "coast": False, "bridge": False,
        "start": True,
    }  # fmt: skip
    assert data["water_edges"] == [[[0, 0], [1, -1]]]


def refusal(data: object, field: str = "map") -> RuleError:
    with pytest.raises(RuleError) as caught:
        map_from_json(data, field)
    return caught.value


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ([], "map"),
        ({"tiles": {}}, "map.tiles"),
        ({"tiles": ["plains"]}, "map.tiles[0]"),
        ({"tiles": [{"hex": [0, 0], "terrain": 3}]}, "map.tiles[0].terrain"),
        ({"tiles": [{"hex": [0, 0], "terrain": "lake", "river": "yes"}]}, "map.tiles[0].river"),
        ({"tiles": [{"hex": [0, 0], "terrain": "lake", "start": 1}]}, "map.tiles[0].start"),
        ({"tiles": [], "water_edges": {}}, "map.water_edges"),
        ({"tiles": [], "water_edges": ["x"]}, "map.water_edges[0]"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused(data, field):
    """Objects, lists, booleans and terrain names must have their JSON type."""
    error = refusal(data)
    assert (error.code, error.field) == ("wrong-type", field)


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"tiles": [], "size": 3}, "map.size"),
        ({"tiles": [{"hex": [0, 0], "terrain": "lake", "colour": "blue"}]}, "map.tiles[0].colour"),
    ],
)
def test_an_unknown_field_is_refused_not_dropped(data, field):
    """A field the format does not know is an error naming it."""
    error = refusal(data)
    assert (error.code, error.field) == ("unknown-field", field)
    assert field.rsplit(".", 1)[1] in error.message


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"water_edges": []}, "map.tiles"),
        ({"tiles": [{"terrain": "plains"}]}, "map.tiles[0].hex"),
        (
            {"tiles": [{"hex": [0, 0]}, {"hex": [0, 1], "terrain": "plains"}]},
            "map.tiles[0].terrain",
        ),
    ],
)
def test_a_missing_field_is_refused(data, field):
    """tiles, and each tile's hex and terrain, are required."""
    error = refusal(data)
    assert (error.code, error.field) == ("missing-field", field)


def test_an_unknown_terrain_is_refused():
    """Terrain "desert" is no terrain of the rules; the message lists the ones there are."""
    error = refusal(
        {"tiles": [{"hex": [0, 0], "terrain": "plains"}, {"hex": [1, 0], "terrain": "desert"}]}
    )
    assert (error.code, error.field) == ("unknown-terrain", "map.tiles[1].terrain")
    assert "desert" in error.message
    assert "marsh" in error.message


@pytest.mark.parametrize(
    "bad",
    [[0], [0, 0, 0], "0,0", [0, "1"], [0.0, 1], [True, 0], [0, False], None, {"q": 0, "r": 0}],
)
def test_a_hex_that_is_not_two_whole_numbers_is_refused(bad):
    """A hex is a list of two integers; true and false are not coordinates."""
    error = refusal({"tiles": [{"hex": bad, "terrain": "plains"}]})
    assert (error.code, error.field) == ("bad-hex", "map.tiles[0].hex")


def test_a_bad_hex_in_a_water_edge_is_refused():
    """The second end of the first water edge is [1, true]."""
    data = {"tiles": [{"hex": [0, 0], "terrain": "plains"}], "water_edges": [[[0, 0], [1, True]]]}
    error = refusal(data)
    assert (error.code, error.field) == ("bad-hex", "map.water_edges[0][1]")


def test_a_duplicate_hex_is_refused():
    """[0, 0] is listed twice; the second listing is at fault."""
    data = {"tiles": [{"hex": [0, 0], "terrain": "plains"}, {"hex": [1, 0], "terrain": "lake"},
                      {"hex": [0, 0], "terrain": "forest"}]}  # fmt: skip
    error = refusal(data)
    assert (error.code, error.field) == ("duplicate-hex", "map.tiles[2].hex")
    assert "[0, 0]" in error.message


def test_a_water_edge_that_is_not_a_pair_is_refused():
    """A water edge lists three hexes."""
    data = {"tiles": [], "water_edges": [[[0, 0], [1, 0], [2, 0]]]}
    error = refusal(data)
    assert (error.code, error.field) == ("bad-water-edge", "map.water_edges[0]")


def test_a_duplicate_water_edge_is_refused():
    """The same water edge is listed twice, once each way round."""
    data = {"tiles": [], "water_edges": [[[0, 0], [1, 0]], [[1, 0], [0, 0]]]}
    error = refusal(data)
    assert (error.code, error.field) == ("duplicate-water-edge", "map.water_edges[1]")


def test_the_field_path_starts_where_the_caller_says():
    """Read as part of a larger document, the error names the full path."""
    error = refusal({"tiles": [{"hex": [0, 0], "terrain": "sand"}]}, "campaign.map")
    assert error.field == "campaign.map.tiles[0].terrain"


# --- The map read once for each content (the engine's cache) ------------------------------


def test_a_cached_map_reads_as_the_uncached_one():
    """The engine reads the map through the cache; what it reads is what `map_from_json`
    reads, and a second call gives the same map without reading it again."""
    data = map_to_json(board(water_edges=(((0, 0), (1, 0)),)))
    first = cached_map_from_json(data)
    assert first == map_from_json(data)
    assert cached_map_from_json(json.loads(json.dumps(data))) is first


def test_two_different_maps_do_not_share_a_cache_entry():
    """Two maps that differ in one tile's terrain are read as two maps."""
    plain = map_to_json(board())
    forest = map_to_json(board(tiles(MapTile((1, 1), Terrain.FOREST))))
    assert cached_map_from_json(plain) is cached_map_from_json(plain)
    assert cached_map_from_json(forest).tiles[1, 1].terrain is Terrain.FOREST
    assert cached_map_from_json(plain).tiles[1, 1].terrain is Terrain.PLAINS


def test_a_cached_map_still_refuses_a_bad_map():
    """A good map read (and cached) first does not let a bad copy of it through: the
    terrain of one tile changed to "sand", a flag made 1 instead of true, the tile list
    made a tuple. Each is refused, every time it is read."""
    good = map_to_json(board())
    cached_map_from_json(good)
    sand = json.loads(json.dumps(good))
    sand["tiles"][3]["terrain"] = "sand"
    one = json.loads(json.dumps(good))
    one["tiles"][3]["river"] = 1
    copy = json.loads(json.dumps(good))
    as_tuple = {**copy, "tiles": tuple(copy["tiles"])}
    for bad, code, field in (
        (sand, "unknown-terrain", "map.tiles[3].terrain"),
        (one, "wrong-type", "map.tiles[3].river"),
        (as_tuple, "wrong-type", "map.tiles"),
    ):
        for _ in range(2):
            with pytest.raises(RuleError) as refused:
                cached_map_from_json(bad)
            assert (refused.value.code, refused.value.field) == (code, field)


def test_a_map_of_other_types_is_read_uncached():
    """A map held in a subclass of dict is read as any other, without the cache."""

    class Document(dict):  # type: ignore[type-arg]
        pass

    data = Document(map_to_json(board()))
    assert cached_map_from_json(data) == map_from_json(data)
    assert cached_map_from_json(data) is not cached_map_from_json(data)


def test_a_refusal_read_through_the_cache_names_the_callers_field():
    """The field path of a refusal is the caller's, as without the cache."""
    with pytest.raises(RuleError) as refused:
        cached_map_from_json({"tiles": [{"hex": [0, 0], "terrain": "sand"}]}, "campaign.map")
    assert refused.value.field == "campaign.map.tiles[0].terrain"


def test_the_cache_is_bounded():
    """It keeps a few maps, not every map it has read."""
    for radius in range(2, 20):
        plains = {h: MapTile(h, Terrain.PLAINS) for h in disc(radius)}
        cached_map_from_json(map_to_json(HexMap(tiles=plains)))
    info = _map_from_key.cache_info()
    assert info.maxsize == MAP_CACHE_SIZE
    assert info.currsize <= MAP_CACHE_SIZE
