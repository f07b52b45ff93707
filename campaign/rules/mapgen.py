"""Random maps: a landmass with one sea, forests, mountains, marshes, lakes, rivers with
bridges, water edges across bays, and start tiles that pass ruling M8.

Playability is built in rather than searched for: the sea is one body, marsh never lies on
the coast, and a tile only becomes marsh if the land around it stays joined, so every piece
of land touches the sea through a coast tile ships may enter (ruling M3)."""

import heapq
import math
import random
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from campaign.rules.hexmap import (
    ARMY_TERRAIN,
    MIN_START_DISTANCE,
    MIN_START_NEIGHBOURS,
    Hex,
    HexMap,
    MapTile,
    Terrain,
    distance,
    map_problems,
    neighbours,
)

MIN_KINGDOMS = 2
MAX_KINGDOMS = 8
MIN_SIZE = 60
MAX_SIZE = 5000
HEXES_PER_START = 20  # room for a kingdom to grow: a capital, its ring, and land between
ATTEMPTS = 20

LAND_TERRAIN = (Terrain.PLAINS, Terrain.FOREST, Terrain.MOUNTAINS, Terrain.MARSH)
CAPITAL_TERRAIN = frozenset({Terrain.PLAINS, Terrain.FOREST})


def start_tiles_for(kingdoms: int) -> int:
    """How many start tiles a generated map has: one per kingdom and some spares."""
    return kingdoms + max(1, kingdoms // 2)


def generate_map(kingdoms: int, seed: int, size: int) -> HexMap:
    """A playable random map (no `map_problems`) of about `size` hexes for `kingdoms` kingdoms,
    with `start_tiles_for(kingdoms)` start tiles. The same seed gives the same map.

    The map is grown to fit when `size` is too small: it has at least 60 hexes and 20 per
    start tile, and grows by a tenth whenever the start tiles don't fit on a draft.
    Raises ValueError for fewer than 2 or more than 8 kingdoms, or more than 5,000 hexes."""
    if not MIN_KINGDOMS <= kingdoms <= MAX_KINGDOMS:
        raise ValueError(
            f"A map can be generated for {MIN_KINGDOMS} to {MAX_KINGDOMS} kingdoms, not {kingdoms}."
        )
    if size > MAX_SIZE:
        raise ValueError(f"A generated map has at most {MAX_SIZE} hexes, not {size}.")
    rng = random.Random(seed)
    starts = start_tiles_for(kingdoms)
    size = max(size, MIN_SIZE, HEXES_PER_START * starts)
    for _ in range(ATTEMPTS):
        hexmap = _draft_map(rng, size, starts)
        if hexmap is not None and not map_problems(hexmap):
            return hexmap
        size += size // 10
    raise RuntimeError(f"No playable map for {kingdoms} kingdoms from seed {seed}.")


@dataclass
class _Draft:
    rng: random.Random
    around: dict[Hex, tuple[Hex, ...]]
    terrain: dict[Hex, Terrain] = field(default_factory=dict)
    river: set[Hex] = field(default_factory=set)
    bridge: set[Hex] = field(default_factory=set)
    coast: set[Hex] = field(default_factory=set)
    water_edges: set[frozenset[Hex]] = field(default_factory=set)

    def land(self) -> list[Hex]:
        return sorted(h for h, t in self.terrain.items() if t is not Terrain.OCEAN)

    def is_open(self, h: Hex) -> bool:
        """Armies may enter it (ruling M3)."""
        return self.terrain.get(h) in ARMY_TERRAIN

    def hexmap(self, starts: frozenset[Hex] = frozenset()) -> HexMap:
        tiles = {
            h: MapTile(
                h,
                self.terrain[h],
                river=h in self.river,
                coast=h in self.coast,
                bridge=h in self.bridge,
                start=h in starts,
            )
            for h in sorted(self.terrain)
        }
        return HexMap(tiles=tiles, water_edges=frozenset(self.water_edges))


def _draft_map(rng: random.Random, size: int, starts: int) -> HexMap | None:
    shape = _grow_shape(rng, size)
    around = {h: tuple(n for n in neighbours(h) if n in shape) for h in sorted(shape)}
    draft = _Draft(rng, around, terrain=dict.fromkeys(sorted(shape), Terrain.PLAINS))
    _flood_sea(draft)
    draft.coast = {
        h for h in draft.land() if any(draft.terrain[n] is Terrain.OCEAN for n in around[h])
    }
    _paint_land(draft)
    _drain_marshes(draft)
    _fill_lakes(draft)
    _run_rivers(draft)
    _cut_bays(draft)
    capitals = _place_starts(draft, starts)
    return None if capitals is None else draft.hexmap(capitals)


def _grow_shape(rng: random.Random, size: int) -> set[Hex]:
    """A connected blob of `size` hexes, stretched along a random axis."""
    stretch = rng.uniform(1.0, 1.8)
    angle = rng.uniform(0, math.pi)
    cos, sin = math.cos(angle), math.sin(angle)

    def reach(h: Hex) -> float:
        x, y = math.sqrt(3) * (h[0] + h[1] / 2), 1.5 * h[1]
        along, across = x * cos + y * sin, -x * sin + y * cos
        return (along / stretch) ** 2 + across**2

    shape = {(0, 0)}
    frontier = list(neighbours((0, 0)))
    queued = shape | set(frontier)
    while len(shape) < size:
        # Of two random frontier hexes the nearer joins: a smoother blob than one pick.
        i, j = rng.randrange(len(frontier)), rng.randrange(len(frontier))
        h = _take(frontier, min(i, j, key=lambda k: reach(frontier[k])))
        shape.add(h)
        for n in neighbours(h):
            if n not in queued:
                queued.add(n)
                frontier.append(n)
    return _smooth(shape | _holes(shape))


def _smooth(shape: set[Hex]) -> set[Hex]:
    """Fill the notches of the shape's edge and trim its spurs, keeping it in one piece."""
    notches = {
        n
        for h in shape
        for n in neighbours(h)
        if n not in shape and sum(m in shape for m in neighbours(n)) >= 4
    }
    shape = shape | notches
    for h in sorted(shape):
        ring = [n in shape for n in neighbours(h)]
        if sum(ring) <= 2 and _runs(ring) <= 1:
            shape.discard(h)
    return shape


def _holes(shape: set[Hex]) -> set[Hex]:
    """Hexes enclosed by the shape: a map has no holes in its middle."""
    qs = [h[0] for h in shape]
    rs = [h[1] for h in shape]
    box = {(q, r) for q in range(min(qs) - 1, max(qs) + 2) for r in range(min(rs) - 1, max(rs) + 2)}
    outside = {(min(qs) - 1, min(rs) - 1)}
    frontier = list(outside)
    while frontier:
        for n in neighbours(frontier.pop()):
            if n in box and n not in shape and n not in outside:
                outside.add(n)
                frontier.append(n)
    return box - shape - outside


def _take[T](items: list[T], i: int) -> T:
    items[i], items[-1] = items[-1], items[i]
    return items.pop()


def _flood_sea(draft: _Draft) -> None:
    """One sea, grown from a hex on the rim: it follows the rim and reaches inland in bays.
    A single body of water keeps every piece of land reachable by ship."""
    rng, around = draft.rng, draft.around
    depth = _steps_from(around, [h for h in around if len(around[h]) < 6], lambda h: True)
    rim = sorted(h for h in around if depth[h] == 0)
    source = rng.choice(rim)
    inland_cost = rng.uniform(1.0, 2.5)
    spread_cost = rng.uniform(0.05, 0.6)
    roughness = rng.uniform(1.5, 4.0)

    def cost(h: Hex) -> float:
        return depth[h] * inland_cost + distance(h, source) * spread_cost + rng.random() * roughness

    wanted = round(len(around) * rng.uniform(0.18, 0.3))
    queue = [(0.0, source)]
    queued = {source}
    sea = 0
    while queue and sea < wanted:
        _, h = heapq.heappop(queue)
        draft.terrain[h] = Terrain.OCEAN
        sea += 1
        for n in around[h]:
            if n not in queued:
                queued.add(n)
                heapq.heappush(queue, (cost(n), n))


def _steps_from(
    around: dict[Hex, tuple[Hex, ...]], sources: list[Hex], passable: Callable[[Hex], bool]
) -> dict[Hex, int]:
    """Steps from the nearest source through passable hexes; unreached hexes are left out."""
    steps = dict.fromkeys(sources, 0)
    frontier = deque(sources)
    while frontier:
        h = frontier.popleft()
        for n in around[h]:
            if n not in steps and passable(n):
                steps[n] = steps[h] + 1
                frontier.append(n)
    return steps


def _paint_land(draft: _Draft) -> None:
    """Regions of plains, forest, mountains and marsh grown from scattered seeds, one hex at
    a time for a region picked at random, so regions come out of similar sizes."""
    rng = draft.rng
    land = draft.land()
    land_set = set(land)
    weights = [rng.uniform(3, 5), rng.uniform(2, 4), rng.uniform(1, 2.5), rng.uniform(0.8, 1.6)]
    count = max(len(LAND_TERRAIN), len(land) // rng.randint(5, 8))
    kinds = list(LAND_TERRAIN) + rng.choices(LAND_TERRAIN, weights, k=count - len(LAND_TERRAIN))
    regions = [(kind, [h]) for h, kind in zip(rng.sample(land, count), kinds, strict=True)]
    painted: dict[Hex, Terrain] = {}
    while regions:
        i = rng.randrange(len(regions))
        kind, frontier = regions[i]
        h = _take(frontier, rng.randrange(len(frontier)))
        if h not in painted:
            painted[h] = kind
            frontier.extend(n for n in draft.around[h] if n not in painted and n in land_set)
        if not frontier:
            _take(regions, i)
    draft.terrain.update(painted)


def _drain_marshes(draft: _Draft) -> None:
    """Marsh stays only where armies can walk round it and ships can still land (ruling M3):
    never on the coast, and never where it would cut the land around it in two."""
    marshes = sorted(h for h, t in draft.terrain.items() if t is Terrain.MARSH)
    for h in marshes:
        draft.terrain[h] = Terrain.PLAINS
    draft.rng.shuffle(marshes)
    for h in marshes:
        if h not in draft.coast and _open_runs(draft, h) <= 1:
            draft.terrain[h] = Terrain.MARSH


def _open_runs(draft: _Draft, h: Hex) -> int:
    """How many separate runs of open neighbours go round `h`. With at most one, closing
    `h` splits no land: the ruling M1 neighbour order goes round the hex, each next to the
    one before."""
    return _runs([draft.is_open(n) for n in neighbours(h)])


def _runs(ring: list[bool]) -> int:
    return sum(1 for i in range(6) if ring[i] and not ring[i - 1])


def _fill_lakes(draft: _Draft) -> None:
    """A few small lakes of one to three tiles, away from the coast."""
    rng = draft.rng
    inland = sorted(
        h for h in draft.land() if h not in draft.coast and draft.terrain[h] in CAPITAL_TERRAIN
    )
    for _ in range(min(len(inland), max(1, len(inland) // 60 + rng.randint(0, 1)))):
        h = rng.choice(inland)
        for _ in range(rng.randint(1, 3)):
            draft.terrain[h] = Terrain.LAKE
            h = rng.choice(draft.around[h])
            if h in draft.coast or not draft.is_open(h):
                break


def _run_rivers(draft: _Draft) -> None:
    """Rivers rise in the hills or in a lake and run downhill to the sea, where their mouth
    is a coast tile; ships may sail up them (ruling M3). Some river tiles have bridges."""
    rng = draft.rng
    to_sea = _steps_from(draft.around, sorted(draft.coast), draft.is_open)
    if not to_sea:
        return
    highest = max(to_sea.values())
    springs = sorted(
        h
        for h, steps in to_sea.items()
        if steps >= min(3, highest)
        and draft.terrain[h] in {Terrain.MOUNTAINS, Terrain.LAKE, Terrain.FOREST}
    ) or sorted(h for h, steps in to_sea.items() if steps == highest)
    for _ in range(1 + len(to_sea) // rng.randint(70, 130)):
        course = _river_course(draft, to_sea, rng.choice(springs))
        draft.river.update(course)
        crossings = [h for h in course if draft.terrain[h] is not Terrain.LAKE]
        for h in rng.sample(crossings, min(len(crossings), rng.randint(1, 3))):
            draft.bridge.add(h)


def _river_course(draft: _Draft, to_sea: dict[Hex, int], spring: Hex) -> list[Hex]:
    course = [spring]
    h = spring
    while to_sea[h] > 0 and h not in draft.river:
        lower = [n for n in draft.around[h] if to_sea.get(n) == to_sea[h] - 1]
        h = draft.rng.choice(lower)
        course.append(h)
    return course


def _cut_bays(draft: _Draft) -> None:
    """Water edges across bays: two coast tiles side by side with the sea between them on
    one side and land on the other, so armies walk round (ruling M3) and ships sail across."""
    candidates = sorted(
        (a, b)
        for a in draft.coast
        for b in draft.around[a]
        if a < b and b in draft.coast and _is_bay(draft, a, b)
    )
    count = min(len(candidates), draft.rng.randint(1, 1 + len(draft.terrain) // 250))
    for a, b in draft.rng.sample(candidates, count):
        draft.water_edges.add(frozenset((a, b)))


def _is_bay(draft: _Draft, a: Hex, b: Hex) -> bool:
    """Of the two hexes next to both `a` and `b`, one is ocean and the other is land."""
    between = set(neighbours(a)) & set(neighbours(b))
    kinds = sorted(draft.terrain.get(h) is Terrain.OCEAN for h in between)
    on_map = all(h in draft.terrain for h in between)
    return on_map and kinds == [False, True]


def _place_starts(draft: _Draft, count: int) -> frozenset[Hex] | None:
    """Start tiles on the mainland, on tiles with as many open neighbours as the land allows
    (six, else five, else ruling M8's four), so that no capital is cramped against the coast
    or the board edge; None when `count` of them don't fit."""
    hexmap = draft.hexmap()
    room = {
        h: sum(hexmap.army_may_move(h, n) for n in draft.around[h])
        for h in sorted(_mainland(hexmap))
        if draft.terrain[h] in CAPITAL_TERRAIN
    }
    for least in range(6, MIN_START_NEIGHBOURS - 1, -1):
        chosen = _spread(draft.rng, [h for h, n in room.items() if n >= least], count)
        if chosen is not None:
            return chosen
    return None


def _spread(rng: random.Random, candidates: list[Hex], count: int) -> frozenset[Hex] | None:
    """`count` of the candidates, each next one as far from those chosen as it can be; None
    when they don't fit at least ruling M8's distance apart."""
    if not candidates:
        return None
    tiebreak = {h: rng.random() for h in candidates}
    chosen = [rng.choice(candidates)]
    nearest = {h: distance(h, chosen[0]) for h in candidates}
    while len(chosen) < count:
        best = max(candidates, key=lambda h: (nearest[h], tiebreak[h]))
        if nearest[best] < MIN_START_DISTANCE:
            return None
        chosen.append(best)
        for h in candidates:
            nearest[h] = min(nearest[h], distance(h, best))
    return frozenset(chosen)


def _mainland(hexmap: HexMap) -> set[Hex]:
    """The largest piece of land armies can walk across without a ship."""
    best: set[Hex] = set()
    seen: set[Hex] = set()
    for h in hexmap.tiles:
        if h in seen or not hexmap.army_may_enter(h):
            continue
        piece = {h}
        frontier = deque([h])
        while frontier:
            here = frontier.popleft()
            for n in hexmap.neighbours(here):
                if n not in piece and hexmap.army_may_move(here, n):
                    piece.add(n)
                    frontier.append(n)
        seen |= piece
        if len(piece) > len(best):
            best = piece
    return best
