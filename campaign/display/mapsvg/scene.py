"""The campaign file read into what the map draws, by hex: the terrain, who explored and
holds each tile, the capitals, the units in the order their tokens are laid, how each
kingdom looks, the water edges and the rivers' courses, and the names the map says."""

import re
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaign.display.mapsvg.geometry import direction
from campaign.display.mapsvg.layer import Marked
from campaign.display.mapsvg.palette import NEUTRAL
from campaign.display.mapsvg.reading import as_hex, as_text, by_hex, capitals
from campaign.display.optional import map_layers
from campaign.gazetteer import Names
from campaign.rules.hexmap import Hex, neighbours
from campaign.words import Ruler

# Colours for kingdoms the view passes no look for (eliminated, or no membership yet).
_FALLBACK_COLOURS = (
    "#c0392b",
    "#2e6fd1",
    "#2e9e4f",
    "#d4a017",
    "#444444",
    "#eeeeee",
    "#8a8a8a",
    "#7d3c98",
)
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True, slots=True)
class KingdomLook:
    """How a kingdom shows on the map: its name, its colour ("#rrggbb") and its heraldic
    letter, which is drawn on its settlements and units so that colour is never the only
    sign. A colour that is not "#rrggbb" is drawn grey."""

    name: str
    colour: str
    heraldry: str


def looks_of(players: Iterable[Ruler]) -> dict[str, KingdomLook]:
    """How each player's kingdom shows on the map, by its id."""
    return {p.kingdom: KingdomLook(p.kingdom_name, p.colour, p.heraldry) for p in players}


@dataclass(frozen=True, slots=True)
class Look:
    name: str
    colour: str
    letter: str
    ink: str  # the text colour that reads on `colour`


@dataclass(frozen=True, slots=True)
class Unit:
    id: str
    kingdom: str
    hex: Hex
    ship: bool
    upright: bool
    defending: bool
    ally: str | None
    carrying: str | None
    aboard: str | None


@dataclass(frozen=True, slots=True)
class Scene:
    """The campaign file read into what the drawing needs, by hex."""

    terrain: Mapping[Hex, Mapping[str, Any]]
    explored: Mapping[Hex, Mapping[str, Any]]
    capitals: Mapping[Hex, str]
    units: Mapping[Hex, Sequence[Unit]]
    looks: Mapping[str, Look]
    water_edges: Mapping[Hex, Sequence[Hex]]
    rivers: Mapping[Hex, Sequence[Hex]]
    optional: Sequence[Marked] = ()  # the layers of the optional rules turned on
    names: Names = field(default_factory=Names)


def read_scene(
    data: Mapping[str, Any], kingdoms: Mapping[str, KingdomLook], names: Names | None = None
) -> Scene:
    game_map = data.get("map") or {}
    terrain = by_hex(game_map.get("tiles"))
    looks = read_looks(data, kingdoms)
    units: dict[Hex, list[Unit]] = {}
    for unit in _units(data):
        if unit.hex in terrain:
            units.setdefault(unit.hex, []).append(unit)
    return Scene(
        terrain=terrain,
        explored=by_hex(data.get("tiles")),
        capitals=capitals(data),
        units={h: _in_token_order(here, looks) for h, here in units.items()},
        looks=looks,
        water_edges=_water_edges(game_map.get("water_edges") or [], terrain),
        rivers=_river_links(terrain),
        optional=tuple(_optional_layers(data)),
        names=names_for(data, looks, names),
    )


def _optional_layers(data: Mapping[str, Any]) -> list[Marked]:
    """The layers of the optional rules the file's options turn on, with what they mark."""
    return [
        Marked(layer, layer.marks(data), layer.news(data) if layer.news else frozenset())
        for layer in map_layers(data.get("options") or {})
    ]


def map_tiles(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The map's tiles, those that are objects."""
    tiles = (data.get("map") or {}).get("tiles")
    return [t for t in tiles if isinstance(t, Mapping)] if isinstance(tiles, list) else []


def capital_of(data: Mapping[str, Any], kingdom: str) -> Hex | None:
    """The kingdom's capital, None for a kingdom without one (or no such kingdom)."""
    kingdoms = data.get("kingdoms") or ()
    return next((as_hex(k.get("capital")) for k in kingdoms if k.get("id") == kingdom), None)


def from_capital(data: Mapping[str, Any], kingdom: str, h: Hex) -> str | None:
    """Which way `h` lies from the kingdom's capital ("north-west"); "" for the capital
    itself, None for a kingdom without one."""
    capital = capital_of(data, kingdom)
    if capital is None:
        return None
    return "" if capital == h else direction(capital, h)


def read_looks(data: Mapping[str, Any], kingdoms: Mapping[str, KingdomLook]) -> dict[str, Look]:
    looks: dict[str, Look] = {}
    file_kingdoms = [k for k in data.get("kingdoms") or [] if isinstance(k, Mapping)]
    ids = [as_text(k.get("id")) for k in file_kingdoms]
    names = {as_text(k.get("id")): as_text(k.get("name")) for k in file_kingdoms}
    for i, kid in enumerate([*ids, *(k for k in kingdoms if k not in names)]):
        look = kingdoms.get(kid)
        name = look.name if look is not None else names.get(kid) or kid
        colour = look.colour if look is not None else _FALLBACK_COLOURS[i % 8]
        if not _COLOUR.fullmatch(colour):
            colour = NEUTRAL
        letter = (look.heraldry.strip() if look is not None else "") or name.strip() or "?"
        looks[kid] = Look(name, colour.lower(), letter[0].upper(), _ink(colour))
    return looks


def _ink(colour: str) -> str:
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


def names_for(data: Mapping[str, Any], looks: Mapping[str, Look], names: Names | None) -> Names:
    """The names the map says: those given, else the kingdoms' alone (places then go by
    their coordinates, as on a map previewed before a campaign has names)."""
    return names if names is not None else Names({k: look.name for k, look in looks.items()})


def _units(data: Mapping[str, Any]) -> list[Unit]:
    aboard: dict[str, str] = {}
    for item in data.get("ships") or []:
        if item.get("carrying"):
            aboard[as_text(item["carrying"])] = as_text(item.get("id"))
    units: list[Unit] = []
    for key, is_ship in (("armies", False), ("ships", True)):
        for item in data.get(key) or []:
            where = as_hex(item.get("hex"))
            if where is None:
                continue
            unit_id = as_text(item.get("id"))
            units.append(
                Unit(
                    id=unit_id,
                    kingdom=as_text(item.get("kingdom")),
                    hex=where,
                    ship=is_ship,
                    upright=item.get("upright", True) is not False,
                    defending=bool(item.get("defending")),
                    ally=as_text(item.get("ally")) or None,
                    carrying=(as_text(item.get("carrying")) or None) if is_ship else None,
                    aboard=aboard.get(unit_id),
                )
            )
    return units


def unit_number(unit_id: str) -> str:
    """The number on a unit's token: its id's last part without its letters."""
    last = unit_id.rsplit("-", 1)[-1]
    return last.lstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") or last


def _in_token_order(units: Sequence[Unit], looks: Mapping[str, Look]) -> list[Unit]:
    order = {kid: i for i, kid in enumerate(looks)}

    def key(unit: Unit) -> tuple[int, str, bool, int, str]:
        number = unit_number(unit.id)
        return (
            order.get(unit.kingdom, len(order)),
            unit.kingdom,
            unit.ship,
            int(number) if number.isdecimal() else 0,
            unit.id,
        )

    return sorted(units, key=key)


def _water_edges(items: Iterable[object], terrain: Mapping[Hex, object]) -> dict[Hex, list[Hex]]:
    by_hex: dict[Hex, list[Hex]] = {}
    for item in items:
        if not isinstance(item, list | tuple) or len(item) != 2:
            continue
        a, b = as_hex(item[0]), as_hex(item[1])
        if a is None or b is None or a not in terrain or b not in terrain:
            continue
        if b in neighbours(a):
            by_hex.setdefault(a, []).append(b)
            by_hex.setdefault(b, []).append(a)
    return by_hex


def _river_links(terrain: Mapping[Hex, Mapping[str, Any]]) -> dict[Hex, list[Hex]]:
    """The neighbours each river tile's line runs to. River tiles next to each other are
    joined along a tree (three tiles around one corner make a fork, not a triangle), and a
    river end beside a lake or the ocean runs into it (its mouth)."""
    river = {h for h, tile in terrain.items() if tile.get("river")}
    links: dict[Hex, list[Hex]] = {h: [] for h in river}
    seen: set[Hex] = set()

    def around(h: Hex) -> list[Hex]:
        return [n for n in neighbours(h) if n in river]

    # Each piece of river is walked breadth-first from its end: a tile with fewest river
    # neighbours, then the first in [q, r] order.
    for start in sorted(river, key=lambda h: (len(around(h)), h)):
        if start in seen:
            continue
        seen.add(start)
        frontier = deque([start])
        while frontier:
            h = frontier.popleft()
            for n in around(h):
                if n not in seen:
                    seen.add(n)
                    links[h].append(n)
                    links[n].append(h)
                    frontier.append(n)
    for h in sorted(river):
        if len(links[h]) <= 1:
            water = [
                n
                for n in neighbours(h)
                if n in terrain and terrain[n].get("terrain") in ("lake", "ocean")
            ]
            links[h].extend(water[:1])
    return links
