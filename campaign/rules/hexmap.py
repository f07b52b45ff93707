"""The hex map: geometry (ruling M1), terrain and flags (M2), who may enter what (M3),
ocean (M4), connectivity (M7), battlefield type (M6) and start tiles (M8)."""

import json
import marshal
from collections import deque
from collections.abc import Iterator, Mapping, Set
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property, lru_cache

from campaign.rules.errors import RuleError

type Hex = tuple[int, int]


class Terrain(StrEnum):
    PLAINS = "plains"
    FOREST = "forest"
    MOUNTAINS = "mountains"
    MARSH = "marsh"
    LAKE = "lake"
    OCEAN = "ocean"


class Battlefield(StrEnum):
    """The rows of the rulebook's tile terrain table (ruling M6)."""

    RIVER_VALLEY = "River valley"
    MOUNTAINS = "Mountains"
    COASTAL = "Coastal"
    LOWLAND_FORESTS = "Lowland forests"
    LOWLAND_PLAINS = "Lowland plains"


ARMY_TERRAIN = frozenset({Terrain.PLAINS, Terrain.FOREST, Terrain.MOUNTAINS, Terrain.LAKE})


def neighbours(h: Hex) -> tuple[Hex, ...]:
    """The six hexes around `h` in ruling M1's order, whether on a map or not."""
    q, r = h
    return ((q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1))


def distance(a: Hex, b: Hex) -> int:
    """The number of steps between two hexes in axial coordinates (ruling M1)."""
    dq = a[0] - b[0]
    dr = a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def hex_label(h: Hex) -> str:
    """A hex as players read it in messages: `[q, r]`."""
    return f"[{h[0]}, {h[1]}]"


@dataclass(frozen=True, slots=True)
class MapTile:
    hex: Hex
    terrain: Terrain
    river: bool = False
    coast: bool = False
    bridge: bool = False
    start: bool = False


@dataclass(frozen=True)
class HexMap:
    """A map is read-only once made: its JSON form is worked out once (`map_to_json`)."""

    tiles: Mapping[Hex, MapTile]
    water_edges: frozenset[frozenset[Hex]] = frozenset()

    @cached_property
    def json_rows(self) -> tuple[tuple[tuple[object, ...], ...], tuple[tuple[int, ...], ...]]:
        """The tiles in [q, r] order as (q, r, terrain, river, coast, bridge, start), and
        the water edges in order as (q, r, q, r): what `map_to_json` writes."""
        tiles = tuple(
            (h[0], h[1], t.terrain.value, t.river, t.coast, t.bridge, t.start)
            for h, t in ((h, self.tiles[h]) for h in sorted(self.tiles))
        )
        pairs = sorted(_pair(edge) for edge in self.water_edges)
        return tiles, tuple((a[0], a[1], b[0], b[1]) for a, b in pairs)

    def neighbours(self, h: Hex) -> tuple[Hex, ...]:
        """The neighbours of `h` that are on the map, in ruling M1's order."""
        return tuple(n for n in neighbours(h) if n in self.tiles)

    def army_may_enter(self, h: Hex) -> bool:
        """Ruling M3: plains, forest, mountains and lake; never marsh, ocean or off the map."""
        tile = self.tiles.get(h)
        return tile is not None and tile.terrain in ARMY_TERRAIN

    def ship_may_enter(self, h: Hex) -> bool:
        """Ruling M3: ocean, coast, river or lake tiles; never marsh or off the map."""
        tile = self.tiles.get(h)
        if tile is None or tile.terrain is Terrain.MARSH:
            return False
        return tile.terrain in {Terrain.OCEAN, Terrain.LAKE} or tile.coast or tile.river

    def is_water_edge(self, a: Hex, b: Hex) -> bool:
        """The map lists `a` and `b` as separated by water (ruling M3)."""
        return bool(self.water_edges) and frozenset((a, b)) in self.water_edges

    def army_may_move(self, a: Hex, b: Hex) -> bool:
        """Ruling M3: one step onto a tile armies may enter, never across a water edge."""
        return (
            a in self.tiles
            and distance(a, b) == 1
            and self.army_may_enter(b)
            and not self.is_water_edge(a, b)
        )

    def ship_may_move(self, a: Hex, b: Hex) -> bool:
        """Ruling M3: one step onto a tile ships may enter; ships cross water edges."""
        return a in self.tiles and distance(a, b) == 1 and self.ship_may_enter(b)

    def battlefield(self, h: Hex) -> Battlefield:
        """The row of the tile terrain table for a battle fought on `h` (ruling M6)."""
        tile = self.tiles[h]
        if tile.terrain is Terrain.MOUNTAINS:
            return Battlefield.MOUNTAINS
        if tile.river or tile.terrain is Terrain.LAKE:
            return Battlefield.RIVER_VALLEY
        if tile.coast:
            return Battlefield.COASTAL
        if tile.terrain is Terrain.FOREST:
            return Battlefield.LOWLAND_FORESTS
        return Battlefield.LOWLAND_PLAINS

    def start_tiles(self) -> tuple[Hex, ...]:
        """The capital start tiles, in [q, r] order."""
        return tuple(sorted(h for h, tile in self.tiles.items() if tile.start))

    def sorted_hexes(self) -> tuple[Hex, ...]:
        """Every hex of the map, in [q, r] order."""
        return tuple(sorted(self.tiles))


def connected(start: Hex, owned: Set[Hex], hexmap: HexMap) -> frozenset[Hex]:
    """Ruling M7: the tiles of `owned` joined to `start` by a path of adjacent tiles all in
    `owned`. Water edges do not break it. Empty if `start` is not owned or not on the map."""
    if start not in owned or start not in hexmap.tiles:
        return frozenset()
    reached = {start}
    frontier = deque([start])
    while frontier:
        for n in hexmap.neighbours(frontier.popleft()):
            if n in owned and n not in reached:
                reached.add(n)
                frontier.append(n)
    return frozenset(reached)


def steps(hexmap: HexMap, a: Hex, b: Hex, towers: Set[Hex] = frozenset()) -> int | None:
    """Rule OG3 of campaign-options.md: the fewest moves from `a` to `b`, tile to adjacent
    tile, through tiles armies may enter (ruling M3; explored or not), never across a water
    edge nor into a Wizard's tower of `towers`. None if no way leads there."""
    if a == b:
        return 0
    route = routes(hexmap, a, towers).get(b)
    return None if route is None else route[0]


def routes(
    hexmap: HexMap, start: Hex, towers: Set[Hex] = frozenset()
) -> dict[Hex, tuple[int, Hex]]:
    """Every other tile an army can march to from `start` as `steps` counts them: how many
    steps, and the first one."""
    found: dict[Hex, tuple[int, Hex]] = {}
    frontier = deque([(start, 0, start)])
    while frontier:
        here, distance, first = frontier.popleft()
        for there in hexmap.neighbours(here):
            if there == start or there in found or there in towers:
                continue
            if hexmap.army_may_move(here, there):
                step = there if here == start else first
                found[there] = (distance + 1, step)
                frontier.append((there, distance + 1, step))
    return found


# --- Validation of a hand-made map --------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MapProblem:
    """Something that makes a map unplayable. `code` is stable and kebab-case."""

    code: str
    hex: Hex | None
    message: str


MIN_START_NEIGHBOURS = 4  # ruling M8
MIN_START_DISTANCE = 3  # ruling M8
MIN_START_TILES = 2  # a campaign needs at least two kingdoms


def map_problems(hexmap: HexMap) -> list[MapProblem]:
    """Every problem of the map, not just the first; an empty list for a playable map."""
    if not hexmap.tiles:
        no_tiles = MapProblem("no-tiles", None, "The map has no tiles.")
        return [no_tiles, *_water_edge_problems(hexmap)]
    return [
        *_tile_key_problems(hexmap),
        *_water_edge_problems(hexmap),
        *_flag_problems(hexmap),
        *_start_problems(hexmap),
        *_reachability_problems(hexmap),
    ]


def _tile_key_problems(hexmap: HexMap) -> Iterator[MapProblem]:
    for h in sorted(hexmap.tiles):
        tile = hexmap.tiles[h]
        if tile.hex != h:
            yield MapProblem(
                "tile-hex-mismatch",
                h,
                f"The tile listed at {hex_label(h)} says it is at {hex_label(tile.hex)}.",
            )


def _water_edge_problems(hexmap: HexMap) -> Iterator[MapProblem]:
    for edge in sorted(hexmap.water_edges, key=sorted):
        pair = sorted(edge)
        names = " and ".join(hex_label(h) for h in pair)
        for h in pair:
            if h not in hexmap.tiles:
                yield MapProblem(
                    "water-edge-off-map",
                    h,
                    f"The water edge between {names} uses {hex_label(h)}, which is not on the map.",
                )
        if len(pair) != 2 or distance(pair[0], pair[1]) != 1:
            yield MapProblem(
                "water-edge-not-adjacent",
                pair[0],
                f"The water edge between {names} does not join two adjacent hexes.",
            )


def _flag_problems(hexmap: HexMap) -> Iterator[MapProblem]:
    for h in sorted(hexmap.tiles):
        yield from _tile_flag_problems(hexmap, hexmap.tiles[h])


def _tile_flag_problems(hexmap: HexMap, tile: MapTile) -> Iterator[MapProblem]:
    where = hex_label(tile.hex)
    if tile.bridge and not tile.river:
        yield MapProblem(
            "bridge-without-river", tile.hex, f"Tile {where} has a bridge but no river."
        )
    if tile.terrain is Terrain.OCEAN:
        # ruling M4: open water holds no river, bridge, coast or capital.
        for flag in ("river", "bridge", "coast", "start"):
            if getattr(tile, flag):
                yield MapProblem(
                    f"{flag}-on-ocean", tile.hex, f"Ocean tile {where} is marked {flag}."
                )
        return
    if tile.coast and not any(
        hexmap.tiles[n].terrain is Terrain.OCEAN for n in hexmap.neighbours(tile.hex)
    ):
        yield MapProblem(
            "coast-without-sea", tile.hex, f"Tile {where} is marked coast but touches no ocean."
        )
    if tile.start and not hexmap.army_may_enter(tile.hex):
        yield MapProblem(
            "start-not-enterable",
            tile.hex,
            f"Start tile {where} is {tile.terrain}, which armies may not enter.",
        )


def _start_problems(hexmap: HexMap) -> Iterator[MapProblem]:
    starts = hexmap.start_tiles()
    if len(starts) < MIN_START_TILES:
        yield MapProblem(
            "too-few-start-tiles",
            None,
            f"The map has {_count(len(starts), 'start tile')}; "
            f"a campaign needs at least {MIN_START_TILES}.",
        )
    for start in starts:
        yield from _start_neighbour_problems(hexmap, start)
    for i, start in enumerate(starts):
        for other in starts[i + 1 :]:
            yield from _start_spacing_problems(start, other)


def _start_neighbour_problems(hexmap: HexMap, start: Hex) -> Iterator[MapProblem]:
    # ruling M8; a neighbour across a water edge is one the capital's armies can't reach.
    open_neighbours = [n for n in hexmap.neighbours(start) if hexmap.army_may_move(start, n)]
    if len(open_neighbours) < MIN_START_NEIGHBOURS:
        yield MapProblem(
            "start-too-few-neighbours",
            start,
            f"Start tile {hex_label(start)} has {_count(len(open_neighbours), 'neighbour')} "
            f"that armies may enter; it needs at least {MIN_START_NEIGHBOURS}.",
        )


def _start_spacing_problems(start: Hex, other: Hex) -> Iterator[MapProblem]:
    apart = distance(start, other)
    if apart == 1:
        yield MapProblem(
            "start-next-to-start",
            start,
            f"Start tile {hex_label(start)} is next to start tile {hex_label(other)}.",
        )
    elif apart < MIN_START_DISTANCE:
        yield MapProblem(
            "start-too-close",
            start,
            f"Start tiles {hex_label(start)} and {hex_label(other)} are {apart} apart; "
            f"they must be at least {MIN_START_DISTANCE} apart.",
        )


def _reachability_problems(hexmap: HexMap) -> Iterator[MapProblem]:
    # The largest piece is the mainland; every other piece is cut off from it.
    for piece in travel_regions(hexmap)[1:]:
        first = min(piece)
        yield MapProblem(
            "land-unreachable",
            first,
            f"The land at {hex_label(first)} ({_count(len(piece), 'tile')} armies may enter) "
            "can't be reached by armies or ships from the rest of the map.",
        )


def travel_regions(hexmap: HexMap) -> list[frozenset[Hex]]:
    """The army-enterable land split into pieces that armies, on foot or aboard ships, can
    travel between (ruling M3), largest first, then in [q, r] order of their first hex."""
    seen: set[Hex] = set()
    pieces: list[frozenset[Hex]] = []
    for h in sorted(hexmap.tiles):
        if h in seen or not hexmap.army_may_enter(h):
            continue
        region = _travel_region(hexmap, h)
        seen |= region
        pieces.append(frozenset(n for n in region if hexmap.army_may_enter(n)))
    return sorted(pieces, key=lambda piece: (-len(piece), min(piece)))


def _travel_region(hexmap: HexMap, start: Hex) -> set[Hex]:
    reached = {start}
    frontier = deque([start])
    while frontier:
        h = frontier.popleft()
        for n in _travel_steps(hexmap, h):
            if n not in reached:
                reached.add(n)
                frontier.append(n)
    return reached


def _travel_steps(hexmap: HexMap, h: Hex) -> Iterator[Hex]:
    by_army = hexmap.army_may_enter(h)
    by_ship = hexmap.ship_may_enter(h)
    # Neighbours on the map are adjacent: only what may enter them is left to ask (ruling M3).
    for n in hexmap.neighbours(h):
        on_foot = by_army and hexmap.army_may_enter(n) and not hexmap.is_water_edge(h, n)
        if on_foot or (by_ship and hexmap.ship_may_enter(n)):
            yield n


# --- The campaign file's "map" object -------------------------------------------------------

_MAP_FIELDS = frozenset({"tiles", "water_edges"})
_TILE_FIELDS = frozenset({"hex", "terrain", "river", "coast", "bridge", "start"})
_FLAGS = ("river", "coast", "bridge", "start")


def map_from_json(data: object, field: str = "map") -> HexMap:
    """Read the campaign file's `map` object; a RuleError names the first field at fault."""
    obj = _object(data, field, _MAP_FIELDS)
    tiles: dict[Hex, MapTile] = {}
    for i, item in enumerate(_list(_required(obj, "tiles", field), f"{field}.tiles")):
        tile = _tile_from_json(item, f"{field}.tiles[{i}]")
        if tile.hex in tiles:
            raise RuleError(
                "duplicate-hex",
                f"{field}.tiles[{i}].hex",
                f"The map lists the tile {hex_label(tile.hex)} twice.",
            )
        tiles[tile.hex] = tile
    edges = _water_edges_from_json(obj.get("water_edges", []), f"{field}.water_edges")
    return HexMap(tiles={h: tiles[h] for h in sorted(tiles)}, water_edges=edges)


MAP_CACHE_SIZE = 8  # maps kept parsed: a campaign's map never changes while it is played


def cached_map_from_json(data: object, field: str = "map") -> HexMap:
    """`map_from_json`, read once for each content: a campaign's map is the same at every
    call of the engine. The cache's key is the map's exact content (`marshal`, which tells
    a list from a tuple, true from 1, and refuses any type but Python's own), and a cached
    map is the one read from that key, so a map is cached only once it has been read
    without a refusal, and never answers for a different one. Treat the result as
    read-only: it is shared between calls."""
    try:
        key = marshal.dumps(data, 2)  # type: ignore[arg-type]  # it raises for what it refuses
    except ValueError:  # a type marshal refuses (a subclass, say): read it uncached
        return map_from_json(data, field)
    return _map_from_key(key, field)


@lru_cache(maxsize=MAP_CACHE_SIZE)
def _map_from_key(key: bytes, field: str) -> HexMap:
    return map_from_json(marshal.loads(key), field)


def map_to_json(hexmap: HexMap) -> dict[str, object]:
    """The campaign file's `map` object: tiles in [q, r] order, every flag written. Each
    call makes new lists and objects, which the caller may change."""
    rows, pairs = hexmap.json_rows
    tiles: list[object] = [
        {"hex": [q, r], "terrain": terrain, "river": river, "coast": coast,
         "bridge": bridge, "start": start}
        for q, r, terrain, river, coast, bridge, start in rows
    ]  # fmt: skip
    water_edges = [[[aq, ar], [bq, br]] for aq, ar, bq, br in pairs]
    return {"tiles": tiles, "water_edges": water_edges}


def _pair(edge: frozenset[Hex]) -> tuple[Hex, Hex]:
    ends = sorted(edge)
    return ends[0], ends[-1]


def _tile_from_json(data: object, field: str) -> MapTile:
    obj = _object(data, field, _TILE_FIELDS)
    h = _hex(_required(obj, "hex", field), f"{field}.hex")
    terrain = _terrain(_required(obj, "terrain", field), f"{field}.terrain")
    river, coast, bridge, start = (_bool(obj.get(f, False), f"{field}.{f}") for f in _FLAGS)
    return MapTile(h, terrain, river=river, coast=coast, bridge=bridge, start=start)


def _water_edges_from_json(data: object, field: str) -> frozenset[frozenset[Hex]]:
    edges: set[frozenset[Hex]] = set()
    for i, item in enumerate(_list(data, field)):
        ends = _list(item, f"{field}[{i}]")
        if len(ends) != 2:
            raise RuleError(
                "bad-water-edge",
                f"{field}[{i}]",
                f"A water edge is a pair of hexes, not {len(ends)} of them.",
            )
        edge = frozenset(_hex(end, f"{field}[{i}][{j}]") for j, end in enumerate(ends))
        if edge in edges:
            raise RuleError(
                "duplicate-water-edge",
                f"{field}[{i}]",
                f"The map lists the water edge {' and '.join(map(hex_label, sorted(edge)))} twice.",
            )
        edges.add(edge)
    return frozenset(edges)


def _object(data: object, field: str, known: frozenset[str]) -> Mapping[str, object]:
    if not isinstance(data, Mapping):
        raise RuleError("wrong-type", field, f"Expected an object here, not {_shown(data)}.")
    for key in data:
        if key not in known:
            names = ", ".join(sorted(known))
            raise RuleError(
                "unknown-field",
                f"{field}.{key}",
                f"{key!r} is not a field here; the fields are {names}.",
            )
    return data


def _required(obj: Mapping[str, object], key: str, field: str) -> object:
    if key not in obj:
        raise RuleError("missing-field", f"{field}.{key}", f"The field {key!r} is missing.")
    return obj[key]


def _list(data: object, field: str) -> list[object]:
    if not isinstance(data, list):
        raise RuleError("wrong-type", field, f"Expected a list here, not {_shown(data)}.")
    return data


def _bool(data: object, field: str) -> bool:
    if not isinstance(data, bool):
        raise RuleError("wrong-type", field, f"Expected true or false, not {_shown(data)}.")
    return data


def _hex(data: object, field: str) -> Hex:
    if isinstance(data, list | tuple) and len(data) == 2 and all(_is_int(c) for c in data):
        q, r = data
        return q, r
    raise RuleError(
        "bad-hex", field, f"A hex is a list of two whole numbers [q, r], not {_shown(data)}."
    )


def _is_int(value: object) -> bool:
    # bool is a subclass of int in Python, but true is no coordinate.
    return isinstance(value, int) and not isinstance(value, bool)


def _terrain(data: object, field: str) -> Terrain:
    if not isinstance(data, str):
        raise RuleError("wrong-type", field, f"Expected a terrain name, not {_shown(data)}.")
    try:
        return Terrain(data)
    except ValueError:
        names = ", ".join(t.value for t in Terrain)
        raise RuleError(
            "unknown-terrain", field, f"{_shown(data)} is not a terrain; the terrains are {names}."
        ) from None


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"


def _shown(value: object) -> str:
    """A value as it looks in the file."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
