"""The campaign map as one self-contained inline SVG, drawn on the server from a campaign file.

Pure: no Django, no I/O, no JavaScript in the output. `render_map` takes the campaign file
(format 1) and how each kingdom looks (from the memberships) and returns the SVG markup.
Every text that comes from the file or from users is escaped by ElementTree, which builds
the whole document.

Hexes are pointy-top, laid out from axial [q, r] (ruling M1): x grows with q, y with r.
Colour is never the only sign: terrain carries marks (trees, peaks, reeds, waves), owned
tiles and units carry their kingdom's heraldic letter, and every hex has a `<title>` saying
in words what is there.
"""

import math
import re
import xml.etree.ElementTree as ET
from collections import deque
from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, NamedTuple

from campaign.display.svg import FONTS, SVG_NS, coordinate, element, text_element, title_element
from campaign.gazetteer import Names
from campaign.rules.hexmap import Hex, hex_label, neighbours
from campaign.words import Ruler

SIZE = 30.0  # centre to corner of a hex, in SVG user units
_LEAST_PX_PER_UNIT = 1.25  # a hex at least 65 px wide, its settlement symbols 16 px
_HALF_WIDTH = SIZE * math.sqrt(3) / 2
_MARGIN = 6.0
_PATTERN_PREFIX = "mapsvg-terrain-"  # ids in <defs>, unlikely to clash on the page

# Pointy-top corners, clockwise from the upper right (y grows downwards).
_CORNERS = tuple(
    (SIZE * math.cos(math.radians(60 * i - 30)), SIZE * math.sin(math.radians(60 * i - 30)))
    for i in range(6)
)

_TERRAIN_FILL = {
    "plains": "#d5e4a4",
    "forest": "#74a65e",
    "mountains": "#b9a88c",
    "marsh": "#a3b89a",
    "lake": "#8fc6ea",
    "ocean": "#5d9bd3",
}
_TERRAIN_MARK_COLOUR = {
    "plains": "#a7bd72",
    "forest": "#2f5f27",
    "mountains": "#5a4832",
    "marsh": "#3f5f3a",
    "lake": "#eef7ff",
    "ocean": "#cfe6fb",
}
# Pattern tiles (width, height, path) drawn over the terrain's fill.
_TERRAIN_MARKS: dict[str, tuple[int, int, str]] = {
    "plains": (22, 20, "M4,9 l1,-3 M6,9 v-3.5 M8,9 l-1,-3 M15,18 l1,-3 M17,18 v-3.5 M19,18 l-1,-3"),
    "forest": (16, 16, "M4,1 L7.5,7 H0.5 Z M12,9 L15.5,15 H8.5 Z"),
    "mountains": (24, 18, "M1,16 L7,6 L13,16 M10,16 L15,9 L20,16"),
    "marsh": (14, 12, "M1,10 H11 M3.5,10 V5 M6,10 V3 M8.5,10 V6"),
    "lake": (14, 10, "M1,6 q2.5,-3 5,0 t5,0"),
    "ocean": (18, 12, "M1,7 q2.5,-3 5,0 t5,0 t5,0"),
}
_FILLED_MARKS = frozenset({"forest"})

_RIVER = "#2f7fd6"
_WATER_EDGE = "#1b4f9c"
_SHORE = "#eadba6"
_CONTESTED = "#d62020"
_UNEXPLORED = "#4d4d4d"
_TOWER = "#5b2c83"
_TOWER_LIGHT = "#ffd84a"
_CROWN = "#f2c230"
_OUTLINE = "#222222"
_NEUTRAL = "#9a9a9a"

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
class Pick:
    """A hex the player may tap on the map, drawn highlighted above everything else as an
    SVG link: `href` works without JavaScript, and `attrs` (htmx's `hx-post`, `hx-vals`…)
    are added to the link as they are. `kind` says what tapping does, for the styling:
    "unit" (choose one of my units), "chosen" (the unit chosen now), "target" (a place to
    send it, or to put something at setup)."""

    hex: Hex
    label: str
    href: str
    kind: str = "target"
    attrs: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Mark:
    """A hex outlined for what the page is about, with its `label` as its title: `kind`
    "supplied" (connected to its kingdom's capital) or "cut-off" (not connected)."""

    hex: Hex
    kind: str
    label: str


class LegendItem(NamedTuple):
    """One line of the map's legend: what a symbol means, and the symbol as a small inline
    SVG. The SVG is built from constants only (no user text), so it is safe to mark safe."""

    label: str
    svg: str


# --- Reading the campaign file -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Look:
    name: str
    colour: str
    letter: str
    ink: str  # the text colour that reads on `colour`


@dataclass(frozen=True, slots=True)
class _Unit:
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
class Move:
    """An arrow on the map: a unit's move, made last month or (`planned`) ordered now."""

    unit: str
    kingdom: str
    start: Hex
    end: Hex
    planned: bool = False


def _hex(value: object) -> Hex | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        q, r = value
        if isinstance(q, int) and isinstance(r, int):
            return q, r
    return None


def _text(value: object) -> str:
    return "" if value is None else str(value)


def _looks(data: Mapping[str, Any], kingdoms: Mapping[str, KingdomLook]) -> dict[str, _Look]:
    looks: dict[str, _Look] = {}
    file_kingdoms = [k for k in data.get("kingdoms") or [] if isinstance(k, Mapping)]
    ids = [_text(k.get("id")) for k in file_kingdoms]
    names = {_text(k.get("id")): _text(k.get("name")) for k in file_kingdoms}
    for i, kid in enumerate([*ids, *(k for k in kingdoms if k not in names)]):
        look = kingdoms.get(kid)
        name = look.name if look is not None else names.get(kid) or kid
        colour = look.colour if look is not None else _FALLBACK_COLOURS[i % 8]
        if not _COLOUR.fullmatch(colour):
            colour = _NEUTRAL
        letter = (look.heraldry.strip() if look is not None else "") or name.strip() or "?"
        looks[kid] = _Look(name, colour.lower(), letter[0].upper(), _ink(colour))
    return looks


def _ink(colour: str) -> str:
    red, green, blue = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return "#111111" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


def _units(data: Mapping[str, Any]) -> list[_Unit]:
    aboard: dict[str, str] = {}
    for item in data.get("ships") or []:
        if item.get("carrying"):
            aboard[_text(item["carrying"])] = _text(item.get("id"))
    units: list[_Unit] = []
    for key, is_ship in (("armies", False), ("ships", True)):
        for item in data.get(key) or []:
            where = _hex(item.get("hex"))
            if where is None:
                continue
            unit_id = _text(item.get("id"))
            units.append(
                _Unit(
                    id=unit_id,
                    kingdom=_text(item.get("kingdom")),
                    hex=where,
                    ship=is_ship,
                    upright=item.get("upright", True) is not False,
                    defending=bool(item.get("defending")),
                    ally=_text(item.get("ally")) or None,
                    carrying=(_text(item.get("carrying")) or None) if is_ship else None,
                    aboard=aboard.get(unit_id),
                )
            )
    return units


def _last_month_moves(data: Mapping[str, Any]) -> list[Move]:
    """The moves of the newest resolved summer month: the clock's month once its orders are
    resolved, the month before while a new month waits for orders, and in winter or at the
    end the last summer month of the clock's year."""
    clock = data.get("clock") or {}
    year, season = clock.get("year"), clock.get("season")
    events = [e for e in data.get("events") or [] if e.get("season") == "summer"]
    target: tuple[object, object] | None
    if season == "summer":
        month = clock.get("month")
        if clock.get("step") == "orders" and isinstance(month, int):
            month -= 1
        target = (year, month)
    elif season in ("winter", "ended"):
        months = [e.get("month") for e in events if e.get("year") == year]
        ints = [m for m in months if isinstance(m, int)]
        target = (year, max(ints)) if ints else None
    else:
        target = None
    moves: list[Move] = []
    for event in events:
        if event.get("type") != "moved" or (event.get("year"), event.get("month")) != target:
            continue
        start, end = _hex(event.get("from")), _hex(event.get("to"))
        if start is not None and end is not None and start != end:
            unit = _text(event.get("unit"))
            kingdom = _text(event.get("kingdom")) or unit.rsplit("-", 1)[0]
            moves.append(Move(unit, kingdom, start, end))
    return moves


# --- Geometry ------------------------------------------------------------------------------


def _centre(h: Hex) -> tuple[float, float]:
    q, r = h
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


COMPASS = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


def direction(start: Hex, end: Hex) -> str:
    """Which way `end` lies from `start` on the drawn map, in compass words ("north-west")."""
    (ax, ay), (bx, by) = _centre(start), _centre(end)
    angle = math.degrees(math.atan2(by - ay, bx - ax))  # the map's y grows southward
    return COMPASS[round(angle / 45) % 8]


def capital_of(data: Mapping[str, Any], kingdom: str) -> Hex | None:
    """The kingdom's capital, None for a kingdom without one (or no such kingdom)."""
    kingdoms = data.get("kingdoms") or ()
    return next((_hex(k.get("capital")) for k in kingdoms if k.get("id") == kingdom), None)


def from_capital(data: Mapping[str, Any], kingdom: str, h: Hex) -> str | None:
    """Which way `h` lies from the kingdom's capital ("north-west"); "" for the capital
    itself, None for a kingdom without one."""
    capital = capital_of(data, kingdom)
    if capital is None:
        return None
    return "" if capital == h else direction(capital, h)


def _points(x: float, y: float, scale: float = 1.0) -> str:
    return " ".join(
        f"{coordinate(x + dx * scale)},{coordinate(y + dy * scale)}" for dx, dy in _CORNERS
    )


def _shared_edge(a: Hex, b: Hex) -> tuple[float, float, float, float]:
    """The ends of the edge between two adjacent hexes."""
    (ax, ay), (bx, by) = _centre(a), _centre(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    length = math.hypot(bx - ax, by - ay)
    px, py = -(by - ay) / length * SIZE / 2, (bx - ax) / length * SIZE / 2
    return mx - px, my - py, mx + px, my + py


# --- Building the SVG --------------------------------------------------------------------


def _terrain_patterns(defs: ET.Element, prefix: str) -> None:
    for terrain, (width, height, path) in _TERRAIN_MARKS.items():
        pattern = element(
            defs,
            "pattern",
            {
                "id": f"{prefix}{terrain}",
                "width": str(width),
                "height": str(height),
                "patternUnits": "userSpaceOnUse",
            },
        )
        element(pattern, "rect", {"width": str(width), "height": str(height)}).set(
            "fill", _TERRAIN_FILL[terrain]
        )
        mark = _TERRAIN_MARK_COLOUR[terrain]
        if terrain in _FILLED_MARKS:
            element(pattern, "path", {"d": path, "fill": mark})
        else:
            stroke = {"d": path, "fill": "none", "stroke": mark, "stroke-width": "1.3"}
            element(pattern, "path", {**stroke, "stroke-linecap": "round"})


def _terrain_fill(terrain: str, prefix: str) -> str:
    colour = _TERRAIN_FILL.get(terrain, _NEUTRAL)
    return f"url(#{prefix}{terrain}) {colour}" if terrain in _TERRAIN_MARKS else colour


def _draw_terrain(parent: ET.Element, x: float, y: float, terrain: str, prefix: str) -> None:
    element(
        parent,
        "polygon",
        {
            "class": f"terrain {terrain}",
            "points": _points(x, y),
            "fill": _terrain_fill(terrain, prefix),
            "stroke": "#6f6f60",
            "stroke-width": "0.6",
        },
    )


def _draw_river(parent: ET.Element, x: float, y: float, ends: Sequence[Hex]) -> None:
    if ends:
        path = " ".join(
            f"M{coordinate(x)},{coordinate(y)} L{coordinate((x + ex) / 2)},{coordinate((y + ey) / 2)}"
            for ex, ey in (_centre(end) for end in ends)
        )
    else:  # a river tile on its own: a short stream across it
        path = f"M{coordinate(x - 14)},{coordinate(y + 6)} q7,-9 14,-6 t14,-6"
    element(
        parent,
        "path",
        {
            "class": "river",
            "d": path,
            "fill": "none",
            "stroke": _RIVER,
            "stroke-width": "4",
            "stroke-linecap": "round",
        },
    )


def _draw_bridge(parent: ET.Element, x: float, y: float, angle: float) -> None:
    bridge = element(
        parent,
        "g",
        {
            "class": "bridge",
            "transform": f"translate({coordinate(x)},{coordinate(y)}) rotate({coordinate(angle)})",
        },
    )
    element(
        bridge,
        "rect",
        {
            "x": "-3",
            "y": "-8",
            "width": "6",
            "height": "16",
            "rx": "1",
            "fill": "#9a6a3a",
            "stroke": "#3b2410",
            "stroke-width": "1",
        },
    )
    element(bridge, "path", {"d": "M-3,-4 H3 M-3,0 H3 M-3,4 H3", "stroke": "#3b2410"})


def _draw_settlement(
    parent: ET.Element, x: float, y: float, kind: str, look: _Look | None, *, capital: bool
) -> None:
    colour, ink, letter = (look.colour, look.ink, look.letter) if look else (_NEUTRAL, "#111", "")
    name = "capital" if capital else kind
    group = element(
        parent,
        "g",
        {"class": f"settlement {name}", "transform": f"translate({coordinate(x)},{coordinate(y)})"},
    )
    body = {"fill": colour, "stroke": _OUTLINE, "stroke-width": "1.2"}
    baseline = "3.5"
    if capital:
        element(
            group, "circle", {"r": "9.5", "fill": "#fff", "stroke": _OUTLINE, "stroke-width": "1"}
        )
        element(group, "circle", {"r": "7.5", **body})
        crown = "M-6,-7.5 V-15 L-3,-11 L0,-16 L3,-11 L6,-15 V-7.5 Z"
        element(
            group, "path", {"d": crown, "fill": _CROWN, "stroke": "#5b4300", "stroke-width": "1"}
        )
    elif kind == "city":
        element(group, "circle", {"r": "8", **body})
    elif kind == "fortress":
        tower = "M-7.5,8 V-8 H-4.5 V-5 H-1.5 V-8 H1.5 V-5 H4.5 V-8 H7.5 V8 Z"
        element(group, "path", {"d": tower, **body})
        baseline = "5"
    else:  # village
        element(group, "path", {"d": "M-6.5,7 V-1 L0,-7.5 L6.5,-1 V7 Z", **body})
        baseline = "5.5"
    if letter:
        text_element(
            group,
            letter,
            {
                "class": "heraldry",
                "y": baseline,
                "text-anchor": "middle",
                "font-size": "9",
                "font-weight": "bold",
                "fill": ink,
            },
        )


_ARMY_SHAPE = "M-7.5,-5.5 H7.5 V5.5 H-7.5 Z"
_SHIP_SHAPE = "M-9,-5 H9 Q7,5.5 0,5.5 Q-7,5.5 -9,-5 Z"
_DEFEND_SHAPE = "M-3,-3.5 H3 V0 Q3,2.5 0,4 Q-3,2.5 -3,0 Z"


def _unit_number(unit_id: str) -> str:
    last = unit_id.rsplit("-", 1)[-1]
    return last.lstrip("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ") or last


def _draw_unit(
    parent: ET.Element,
    x: float,
    y: float,
    unit: _Unit,
    look: _Look | None,
    scale: float,
    names: Names,
) -> None:
    colour, ink, letter = (look.colour, look.ink, look.letter) if look else (_NEUTRAL, "#111", "")
    kind = "ship" if unit.ship else "army"
    stance = "upright" if unit.upright else "lying"
    transform = f"translate({coordinate(x)},{coordinate(y)})"
    if scale != 1:
        transform += f" scale({scale:.2f})"
    token = element(
        parent,
        "g",
        {"class": f"unit {kind} {stance}", "data-unit": unit.id, "transform": transform},
    )
    title_element(token, _unit_words(unit, names))
    body = element(token, "g", {} if unit.upright else {"transform": "rotate(90)"})
    shape = {
        "d": _SHIP_SHAPE if unit.ship else _ARMY_SHAPE,
        "fill": colour,
        "stroke": _OUTLINE,
        "stroke-width": "1.1",
    }
    if not unit.upright:
        shape["stroke-dasharray"] = "2 1.5"
    element(body, "path", shape)
    label = letter + _unit_number(unit.id)
    text_element(
        body,
        label,
        {
            "class": "unit-label",
            "y": "2.8",
            "text-anchor": "middle",
            "font-size": "7.5" if len(label) <= 2 else "6",
            "font-weight": "bold",
            "fill": ink,
        },
    )
    if unit.defending:
        element(
            token,
            "path",
            {
                "class": "defend",
                "d": _DEFEND_SHAPE,
                "transform": "translate(7,-6)",
                "fill": "#ffffff",
                "stroke": _OUTLINE,
                "stroke-width": "1",
            },
        )


def _draw_units(
    parent: ET.Element,
    x: float,
    y: float,
    units: Sequence[_Unit],
    looks: Mapping[str, _Look],
    names: Names,
) -> None:
    count = len(units)
    columns = 3 if count <= 6 else math.ceil(math.sqrt(2 * count))
    rows = math.ceil(count / columns)
    scale = min(1.0, 3 / columns)
    pitch_x, pitch_y = 19 * scale, 13 * scale
    top = y + 12 - (rows - 1) * pitch_y / 2
    for i, unit in enumerate(units):
        row, column = divmod(i, columns)
        in_row = min(columns, count - row * columns)
        ux = x + (column - (in_row - 1) / 2) * pitch_x
        _draw_unit(parent, ux, top + row * pitch_y, unit, looks.get(unit.kingdom), scale, names)


def _unit_details(unit: _Unit, names: Names) -> str:
    details = ["upright" if unit.upright else "on its side"]
    if unit.defending:
        details.append("defending")
    if unit.ally:
        details.append(f"allied {unit.ally}")
    if unit.carrying:
        details.append(f"carrying {names.unit(unit.carrying)}")
    if unit.aboard:
        details.append(f"aboard {names.unit(unit.aboard)}")
    return ", ".join(details)


def _unit_words(unit: _Unit, names: Names) -> str:
    return f"{names.unit(unit.id, whose=True)} ({_unit_details(unit, names)})"


def _unit_list(units: Iterable[_Unit], names: Names) -> str:
    return ", ".join(f"{names.unit(u.id, whose=True)} ({_unit_details(u, names)})" for u in units)


def _names(kingdom_ids: Iterable[str], looks: Mapping[str, _Look]) -> str:
    return " and ".join(looks[k].name if k in looks else k for k in kingdom_ids)


def _draw_moves(
    root: ET.Element,
    defs: ET.Element,
    moves: Sequence[Move],
    looks: Mapping[str, _Look],
    on_map: Container[Hex],
    names: Names,
) -> None:
    layer = element(root, "g", {"class": "moves", "pointer-events": "none"})
    markers: dict[str, str] = {}
    for move in moves:
        if move.start not in on_map or move.end not in on_map:
            continue
        look = looks.get(move.kingdom)
        colour = look.colour if look else _NEUTRAL
        if colour not in markers:
            markers[colour] = f"mapsvg-arrow-{len(markers)}"
            marker = element(
                defs,
                "marker",
                {
                    "id": markers[colour],
                    "viewBox": "0 0 10 10",
                    "refX": "7",
                    "refY": "5",
                    "markerWidth": "4",
                    "markerHeight": "4",
                    "orient": "auto-start-reverse",
                },
            )
            arrowhead = {"d": "M0,0 L10,5 L0,10 Z", "fill": colour, "stroke": "#ffffff"}
            element(marker, "path", arrowhead)
        (ax, ay), (bx, by) = _centre(move.start), _centre(move.end)
        length = math.hypot(bx - ax, by - ay)
        dx, dy = (bx - ax) / length, (by - ay) / length
        # Shifted a little to the right of travel, so that two opposite moves stay apart.
        sx, sy = -dy * 3.5, dx * 3.5
        line = {
            "x1": coordinate(ax + dx * 9 + sx),
            "y1": coordinate(ay + dy * 9 + sy),
            "x2": coordinate(bx - dx * 13 + sx),
            "y2": coordinate(by - dy * 13 + sy),
        }
        arrow = element(
            layer,
            "g",
            {"class": "move planned" if move.planned else "move", "data-unit": move.unit},
        )
        verb = "is ordered to move" if move.planned else "moved"
        route = f"from {names.place(move.start)} to {names.place(move.end)}"
        title_element(arrow, f"{names.unit(move.unit, whose=True)} {verb} {route}")
        halo = {"stroke": "#ffffff", "stroke-width": "5", "stroke-opacity": "0.8"}
        element(arrow, "line", {**line, **halo, "stroke-linecap": "round"})
        element(
            arrow,
            "line",
            {
                **line,
                "stroke": colour,
                "stroke-width": "2.5",
                "stroke-linecap": "round",
                "marker-end": f"url(#{markers[colour]})",
                **({"stroke-dasharray": "5 3"} if move.planned else {}),
            },
        )


@dataclass(frozen=True, slots=True)
class _Scene:
    """The campaign file read into what the drawing needs, by hex."""

    terrain: Mapping[Hex, Mapping[str, Any]]
    explored: Mapping[Hex, Mapping[str, Any]]
    capitals: Mapping[Hex, str]
    units: Mapping[Hex, Sequence[_Unit]]
    looks: Mapping[str, _Look]
    water_edges: Mapping[Hex, Sequence[Hex]]
    rivers: Mapping[Hex, Sequence[Hex]]
    towers: frozenset[Hex] = frozenset()  # option wizards (OA5)
    sieges: bool = False  # option sieges (OA14): fortresses and capitals say "fortified"
    names: Names = field(default_factory=Names)


def _names_for(data: Mapping[str, Any], looks: Mapping[str, _Look], names: Names | None) -> Names:
    """The names the map says: those given, else the kingdoms' alone (places then go by
    their coordinates, as on a map previewed before a campaign has names)."""
    return names if names is not None else Names({k: look.name for k, look in looks.items()})


def _scene(
    data: Mapping[str, Any], kingdoms: Mapping[str, KingdomLook], names: Names | None = None
) -> _Scene:
    game_map = data.get("map") or {}
    terrain = _by_hex(game_map.get("tiles"))
    looks = _looks(data, kingdoms)
    capitals: dict[Hex, str] = {}
    for kingdom in data.get("kingdoms") or []:
        where = _hex(kingdom.get("capital"))
        if where is not None:
            capitals[where] = _text(kingdom.get("id"))
    units: dict[Hex, list[_Unit]] = {}
    for unit in _units(data):
        if unit.hex in terrain:
            units.setdefault(unit.hex, []).append(unit)
    return _Scene(
        terrain=terrain,
        explored=_by_hex(data.get("tiles")),
        capitals=capitals,
        units={h: _in_token_order(here, looks) for h, here in units.items()},
        looks=looks,
        water_edges=_water_edges(game_map.get("water_edges") or [], terrain),
        rivers=_river_links(terrain),
        towers=frozenset(h for h in map(_hex, data.get("towers") or []) if h is not None),
        sieges=bool((data.get("options") or {}).get("sieges")),
        names=_names_for(data, looks, names),
    )


def _by_hex(items: object) -> dict[Hex, Mapping[str, Any]]:
    found: dict[Hex, Mapping[str, Any]] = {}
    for item in items if isinstance(items, list) else []:
        where = _hex(item.get("hex")) if isinstance(item, Mapping) else None
        if where is not None:
            found[where] = item
    return found


def render_map(
    data: Mapping[str, Any],
    *,
    kingdoms: Mapping[str, KingdomLook],
    picks: Sequence[Pick] = (),
    moves: Sequence[Move] | None = None,
    focus: Sequence[Hex] = (),
    marks: Sequence[Mark] = (),
    names: Names | None = None,
) -> str:
    """The campaign file's map as one inline SVG string (no script, no external file).

    `kingdoms` maps kingdom ids to how they look; a kingdom of the file without one is drawn
    with its name from the file, a colour of its own and its name's first letter. `picks`
    are the hexes the player may tap now, drawn on top as links. `moves` are the arrows to
    draw; by default the moves of the newest resolved summer month. With `focus`, the
    picture is framed on those hexes (a battle's tile and its neighbours). `marks` are
    outlined above the units (a winter's supply lines). `names`: the campaign's, which
    the titles say places and units by (`campaign.words.names_of`).

    It is `draw_ground` with `draw_overlay` laid over it (`laid_over`): the ground is the
    same for every viewer of a snapshot, so it can be kept once and the overlay drawn anew."""
    ground = draw_ground(
        data, kingdoms=kingdoms, focus=focus, last_moves=moves is None, names=names
    )
    overlay = draw_overlay(
        data, kingdoms=kingdoms, picks=picks, moves=moves or (), marks=marks, names=names
    )
    return laid_over(ground, overlay)


def draw_ground(
    data: Mapping[str, Any],
    *,
    kingdoms: Mapping[str, KingdomLook],
    focus: Sequence[Hex] = (),
    last_moves: bool = True,
    names: Names | None = None,
) -> str:
    """The map as every viewer sees it: hexes, shores, units, and with `last_moves` the
    arrows of the newest resolved summer month."""
    scene = _scene(data, kingdoms, names)
    framed = [h for h in focus if h in scene.terrain] or list(scene.terrain)
    if framed:
        xs = [_centre(h)[0] for h in framed]
        ys = [_centre(h)[1] for h in framed]
        left, top = min(xs) - _HALF_WIDTH - _MARGIN, min(ys) - SIZE - _MARGIN
        width = max(xs) - min(xs) + 2 * (_HALF_WIDTH + _MARGIN)
        height = max(ys) - min(ys) + 2 * (SIZE + _MARGIN)
    else:
        left, top, width, height = 0.0, 0.0, 1.0, 1.0
    name = _text(data.get("name")) or "the campaign"
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "campaign-map",
            "viewBox": f"{coordinate(left)} {coordinate(top)} {coordinate(width)} {coordinate(height)}",
            # Never drawn smaller than its own units, so that a village stays about 16 px
            # wide on a phone: a wider map scrolls and pans inside its frame.
            "style": f"min-width: {round(width * _LEAST_PX_PER_UNIT)}px",
            "role": "group",  # not "img": screen readers may reach each hex's title
            "aria-label": f"Map of {name}: {len(scene.terrain)} hexes, "
            f"{len(scene.explored)} explored; hover or tap a hex for what is on it.",
            "font-family": FONTS,
        },
    )
    defs = element(root, "defs")
    _terrain_patterns(defs, _PATTERN_PREFIX)
    layer = element(root, "g", {"class": "hexes"})
    for h in sorted(scene.terrain, key=lambda h: (h[1], h[0])):
        _draw_hex(layer, h, scene)
    _draw_shores(root, scene.terrain)
    _draw_water_edges(root, scene.water_edges)
    # Tokens go above every hex, so that one reaching past its hex's edge is never hidden.
    tokens = element(root, "g", {"class": "units"})
    for h in sorted(scene.units, key=lambda h: (h[1], h[0])):
        x, y = _centre(h)
        group = element(tokens, "g", {"class": "hex-units", "data-hex": f"{h[0]},{h[1]}"})
        _draw_units(group, x, y, scene.units[h], scene.looks, scene.names)
    if last_moves:
        _draw_moves(root, defs, _last_month_moves(data), scene.looks, scene.terrain, scene.names)
    return ET.tostring(root, encoding="unicode")


def draw_overlay(
    data: Mapping[str, Any],
    *,
    kingdoms: Mapping[str, KingdomLook],
    picks: Sequence[Pick] = (),
    moves: Sequence[Move] = (),
    marks: Sequence[Mark] = (),
    names: Names | None = None,
) -> str:
    """What one viewer sees over the ground, as SVG elements to lay over it: `moves` (a
    player's planned arrows), `marks`, then `picks` on top; each only on the map's hexes."""
    on_map = {h for h in (_hex(t.get("hex")) for t in _tiles(data)) if h is not None}
    root = ET.Element("g")
    if moves:
        defs = element(root, "defs")
        looks = _looks(data, kingdoms)
        _draw_moves(root, defs, moves, looks, on_map, _names_for(data, looks, names))
    _draw_marks(root, [m for m in marks if m.hex in on_map])
    _draw_picks(root, [p for p in picks if p.hex in on_map])
    return "".join(ET.tostring(layer, encoding="unicode") for layer in root)


def laid_over(ground: str, overlay: str) -> str:
    """The ground's SVG with the overlay's elements last inside it, so drawn on top."""
    closing = "</svg>"
    if not overlay or not ground.endswith(closing):
        return ground
    return ground[: -len(closing)] + overlay + closing


def _tiles(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    tiles = (data.get("map") or {}).get("tiles")
    return [t for t in tiles if isinstance(t, Mapping)] if isinstance(tiles, list) else []


def _draw_marks(root: ET.Element, marks: Sequence[Mark]) -> None:
    if not marks:
        return
    layer = element(root, "g", {"class": "marks"})
    for mark in marks:
        x, y = _centre(mark.hex)
        outline = element(
            layer,
            "polygon",
            {
                "points": _points(x, y, 0.8),
                "class": f"mark mark-{mark.kind}",
                "data-hex": f"{mark.hex[0]},{mark.hex[1]}",
            },
        )
        title_element(outline, mark.label)


def _draw_picks(root: ET.Element, picks: Sequence[Pick]) -> None:
    if not picks:
        return
    layer = element(root, "g", {"class": "picks"})
    for pick in picks:
        x, y = _centre(pick.hex)
        link = element(
            layer,
            "a",
            {
                **pick.attrs,
                "href": pick.href,
                "class": f"pick pick-{pick.kind}",
                "aria-label": pick.label,
                "data-hex": f"{pick.hex[0]},{pick.hex[1]}",
            },
        )
        title_element(link, pick.label)
        element(link, "polygon", {"points": _points(x, y, 0.92)})


def _water_edges(items: Iterable[object], terrain: Mapping[Hex, object]) -> dict[Hex, list[Hex]]:
    by_hex: dict[Hex, list[Hex]] = {}
    for item in items:
        if not isinstance(item, list | tuple) or len(item) != 2:
            continue
        a, b = _hex(item[0]), _hex(item[1])
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


def _draw_hex(layer: ET.Element, h: Hex, scene: _Scene) -> None:
    tile = scene.terrain[h]
    holding = scene.explored.get(h)
    kind = _text(tile.get("terrain"))
    x, y = _centre(h)
    owner = _text(holding.get("owner")) if holding else ""
    look = scene.looks.get(owner)
    settlement = _text(holding.get("settlement")) if holding else ""
    capital_of = scene.capitals.get(h)
    capital = capital_of is not None and (capital_of == owner or not owner)
    units = scene.units.get(h, ())
    contesting = list(dict.fromkeys(u.kingdom for u in units))
    classes = ["hex", kind or "unknown"]
    if holding is not None:
        classes.append("explored")
    elif kind != "ocean":
        classes.append("unexplored")
    if len(contesting) > 1:
        classes.append("contested")
    if h in scene.towers:
        classes.append("tower")
    group = element(layer, "g", {"class": " ".join(classes), "data-hex": f"{h[0]},{h[1]}"})
    group.set("id", f"hex-{h[0]}_{h[1]}")
    title_element(group, _hex_words(h, scene))

    _draw_terrain(group, x, y, kind, _PATTERN_PREFIX)
    if tile.get("river"):
        ends = scene.rivers.get(h, ())
        _draw_river(group, x, y, ends)
        if tile.get("bridge"):
            angle = 0.0
            if ends:
                ex, ey = _centre(ends[0])
                angle = math.degrees(math.atan2(ey - y, ex - x))
            _draw_bridge(group, x, y + 1, angle)
    elif tile.get("bridge"):
        _draw_bridge(group, x, y + 1, 0.0)
    if holding is None and kind != "ocean":
        element(
            group,
            "polygon",
            {
                "class": "shade",
                "points": _points(x, y),
                "fill": _UNEXPLORED,
                "fill-opacity": "0.4",
            },
        )
    if holding is not None and look is not None:
        element(
            group,
            "polygon",
            {
                "class": "owner",
                "data-owner": owner,
                "points": _points(x, y, 0.9),
                "fill": look.colour,
                "fill-opacity": "0.3",
                "stroke": look.colour,
                "stroke-width": "3",
                "stroke-linejoin": "round",
            },
        )
    if tile.get("start"):
        element(
            group,
            "polygon",
            {
                "class": "start",
                "points": _points(x, y, 0.78),
                "fill": "none",
                "stroke": _OUTLINE,
                "stroke-width": "1.3",
                "stroke-dasharray": "4 3",
            },
        )
    if settlement or capital:
        settled_by = scene.looks.get(owner or capital_of or "")
        _draw_settlement(group, x, y - 10, settlement, settled_by, capital=capital)
    if h in scene.towers:
        _draw_tower(group, x, y)
    if len(contesting) > 1:
        element(
            group,
            "circle",
            {
                "class": "contested",
                "cx": coordinate(x),
                "cy": coordinate(y),
                "r": coordinate(SIZE * 0.8),
                "fill": "none",
                "stroke": _CONTESTED,
                "stroke-width": "3",
            },
        )


def _hex_words(h: Hex, scene: _Scene) -> str:
    """The hex's `<title>`: what a player would say is there, in words."""
    tile = scene.terrain[h]
    holding = scene.explored.get(h)
    kind = _text(tile.get("terrain"))
    flags = [f for f in ("river", "coast", "bridge") if tile.get(f)]
    if tile.get("start"):
        flags.append("start tile")
    names = scene.names
    place = names.place(h, picking=True)
    where = place if place.endswith(hex_label(h)) else f"{place} {hex_label(h)}"
    words = [", ".join([f"{where} {kind}", *flags])]
    if scene.water_edges.get(h):
        edges = ", ".join(names.place(n, picking=True) for n in scene.water_edges[h])
        words.append(f"water edge to {edges}")
    owner = _text(holding.get("owner")) if holding else ""
    if h in scene.towers:
        words.append(TOWER_WORDS)
    elif holding is not None:
        words.append(scene.looks[owner].name if owner in scene.looks else "explored, no owner")
    elif kind != "ocean":
        words.append("unexplored")
    capital_of = scene.capitals.get(h)
    if capital_of is not None and (capital_of == owner or not owner):
        words.append("capital city")
    elif holding is not None and holding.get("settlement"):
        words.append(_text(holding.get("settlement")))
    fortress = holding is not None and holding.get("settlement") == "fortress"
    if scene.sieges and owner and (fortress or capital_of == owner):
        words.append(FORTIFIED_WORDS)
    units = scene.units.get(h, ())
    contesting = list(dict.fromkeys(u.kingdom for u in units))
    if len(contesting) > 1:
        words.append(f"contested by {_names(contesting, scene.looks)}")
    armies = [u for u in units if not u.ship]
    ships = [u for u in units if u.ship]
    if armies:
        words.append(_unit_list(armies, names))
    if ships:
        words.append(_unit_list(ships, names))
    return " · ".join(words)


FORTIFIED_WORDS = (
    "fortified: a tabletop battle here while its kingdom's army holds Defend is a siege "
    "assault (option OA14)"
)
TOWER_WORDS = (
    "a Wizard's tower: nobody enters it; a kingdom with a tile next to it may send a hero "
    "on a quest each winter (options OA5, OA6)"
)


def _draw_tower(parent: ET.Element, x: float, y: float) -> None:
    """A Wizard's tower (option wizards, OA5): a crenellated tower with a lit window."""
    outline = [
        (-5, 11), (-5, -6), (-8, -6), (-8, -12), (-5, -12), (-5, -9), (-2, -9), (-2, -12),
        (2, -12), (2, -9), (5, -9), (5, -12), (8, -12), (8, -6), (5, -6), (5, 11),
    ]  # fmt: skip
    points = " ".join(f"{coordinate(x + dx)},{coordinate(y + dy)}" for dx, dy in outline)
    tower = element(parent, "g", {"class": "tower"})
    element(
        tower,
        "polygon",
        {"points": points, "fill": _TOWER, "stroke": _OUTLINE, "stroke-width": "1.2"},
    )
    orb = {"cx": coordinate(x), "cy": coordinate(y - 1), "r": "2.6", "fill": _TOWER_LIGHT}
    element(tower, "circle", orb)


def _in_token_order(units: Sequence[_Unit], looks: Mapping[str, _Look]) -> list[_Unit]:
    order = {kid: i for i, kid in enumerate(looks)}

    def key(unit: _Unit) -> tuple[int, str, bool, int, str]:
        number = _unit_number(unit.id)
        return (
            order.get(unit.kingdom, len(order)),
            unit.kingdom,
            unit.ship,
            int(number) if number.isdecimal() else 0,
            unit.id,
        )

    return sorted(units, key=key)


def _draw_shores(root: ET.Element, terrain: Mapping[Hex, Mapping[str, Any]]) -> None:
    parts = []
    for h, tile in terrain.items():
        if tile.get("terrain") == "ocean":
            continue
        for n in neighbours(h):
            if n in terrain and terrain[n].get("terrain") == "ocean":
                x1, y1, x2, y2 = _shared_edge(h, n)
                parts.append(
                    f"M{coordinate(x1)},{coordinate(y1)} L{coordinate(x2)},{coordinate(y2)}"
                )
    if parts:
        element(
            root,
            "path",
            {
                "class": "shore",
                "d": " ".join(parts),
                "fill": "none",
                "stroke": _SHORE,
                "stroke-width": "2.5",
                "stroke-linecap": "round",
                "pointer-events": "none",
            },
        )


def _draw_water_edges(root: ET.Element, water_edges: Mapping[Hex, Sequence[Hex]]) -> None:
    layer = element(root, "g", {"class": "water-edges", "pointer-events": "none"})
    for a, others in sorted(water_edges.items()):
        for b in others:
            if a < b:
                x1, y1, x2, y2 = _shared_edge(a, b)
                element(
                    layer,
                    "line",
                    {
                        "class": "water-edge",
                        "data-hexes": f"{a[0]},{a[1]} {b[0]},{b[1]}",
                        "x1": coordinate(x1),
                        "y1": coordinate(y1),
                        "x2": coordinate(x2),
                        "y2": coordinate(y2),
                        "stroke": _WATER_EDGE,
                        "stroke-width": "5",
                        "stroke-linecap": "round",
                    },
                )


# --- Legend ----------------------------------------------------------------------------------

type _Draw = Callable[[ET.Element, str], None]

_LEGEND_LOOK = _Look("Kingdom", "#c8c8c8", "K", "#111111")
_LEGEND_OWNER = "#c0392b"


@cache
def legend_items() -> tuple[LegendItem, ...]:
    """The map's symbols with what they mean, for the legend beside the map: terrain, rivers
    and water, settlements, units and markers. Each symbol is a small inline SVG drawn by
    the same code as the map, with ids of its own; it holds no user text. Drawn once."""
    return tuple(
        LegendItem(label, _legend_svg(draw, f"mapsvg-legend-{i}-", half))
        for i, (label, draw, half) in enumerate(_LEGEND)
    )


def _legend_svg(draw: _Draw, prefix: str, half: float) -> str:
    """A 32-pixel symbol showing the square of half-side `half` around [0, 0]."""
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "map-legend-symbol",
            "viewBox": f"{coordinate(-half)} {coordinate(-half)} {coordinate(2 * half)} {coordinate(2 * half)}",
            "width": "32",
            "height": "32",
            "aria-hidden": "true",
            "font-family": FONTS,
        },
    )
    draw(root, prefix)
    return ET.tostring(root, encoding="unicode")


def _legend_hex(terrain: str) -> _Draw:
    def draw(root: ET.Element, prefix: str) -> None:
        defs = element(root, "defs")
        _terrain_patterns(defs, prefix)
        element(
            root,
            "polygon",
            {
                "points": _points(0, 0, 0.62),
                "fill": _terrain_fill(terrain, prefix),
                "stroke": "#6f6f60",
                "stroke-width": "0.6",
            },
        )

    return draw


def _legend_plains_with(*extras: Callable[[ET.Element], None]) -> _Draw:
    def draw(root: ET.Element, prefix: str) -> None:
        _legend_hex("plains")(root, prefix)
        for extra in extras:
            extra(root)

    return draw


def _legend_river(root: ET.Element) -> None:
    _draw_river(root, 0, 0, [])


def _legend_bridge(root: ET.Element) -> None:
    _draw_bridge(root, 0, 0, -35)


def _legend_water_edge(root: ET.Element) -> None:
    edge = {"x1": "16", "y1": "-9.3", "x2": "16", "y2": "9.3", "stroke": _WATER_EDGE}
    element(root, "line", {**edge, "stroke-width": "5", "stroke-linecap": "round"})


def _legend_start(root: ET.Element) -> None:
    dashed = {"fill": "none", "stroke": _OUTLINE, "stroke-dasharray": "4 3"}
    element(root, "polygon", {"points": _points(0, 0, 0.5), "stroke-width": "1.3", **dashed})


def _legend_unexplored(root: ET.Element) -> None:
    shade = {"fill": _UNEXPLORED, "fill-opacity": "0.4"}
    element(root, "polygon", {"points": _points(0, 0, 0.62), **shade})


def _legend_owned(root: ET.Element) -> None:
    tint = {"fill": _LEGEND_OWNER, "fill-opacity": "0.3", "stroke": _LEGEND_OWNER}
    element(root, "polygon", {"points": _points(0, 0, 0.55), "stroke-width": "3", **tint})


def _legend_settlement(kind: str, *, capital: bool = False) -> _Draw:
    def draw(root: ET.Element, prefix: str) -> None:
        _draw_settlement(root, 0, 3.5 if capital else 0, kind, _LEGEND_LOOK, capital=capital)

    return draw


def _legend_unit(*, ship: bool, upright: bool, defending: bool = False) -> _Draw:
    unit = _Unit("k-1", "k", (0, 0), ship, upright, defending, None, None, None)

    def draw(root: ET.Element, prefix: str) -> None:
        _draw_unit(root, 0, 0, unit, _LEGEND_LOOK, 1.0, Names({"k": _LEGEND_LOOK.name}))

    return draw


def _legend_contested(root: ET.Element, prefix: str) -> None:
    ring = {"r": "15", "fill": "none", "stroke": _CONTESTED, "stroke-width": "3"}
    element(root, "circle", ring)


def _legend_move(root: ET.Element, prefix: str) -> None:
    marker = element(
        element(root, "defs"),
        "marker",
        {
            "id": f"{prefix}arrow",
            "viewBox": "0 0 10 10",
            "refX": "7",
            "refY": "5",
            "markerWidth": "4",
            "markerHeight": "4",
            "orient": "auto",
        },
    )
    element(marker, "path", {"d": "M0,0 L10,5 L0,10 Z", "fill": "#555555"})
    line = {"x1": "-14", "y1": "8", "x2": "12", "y2": "-8", "stroke": "#555555"}
    element(root, "line", {**line, "stroke-width": "2.5", "marker-end": f"url(#{prefix}arrow)"})


_LEGEND: tuple[tuple[str, _Draw, float], ...] = (
    ("Plains", _legend_hex("plains"), 20),
    ("Forest", _legend_hex("forest"), 20),
    ("Mountains", _legend_hex("mountains"), 20),
    ("Marsh (no armies, no ships)", _legend_hex("marsh"), 20),
    ("Lake", _legend_hex("lake"), 20),
    ("Ocean", _legend_hex("ocean"), 20),
    ("River", _legend_plains_with(_legend_river), 20),
    ("Bridge", _legend_plains_with(_legend_river, _legend_bridge), 20),
    ("Water edge: armies may not cross", _legend_plains_with(_legend_water_edge), 20),
    ("Start tile", _legend_plains_with(_legend_start), 20),
    ("Unexplored", _legend_plains_with(_legend_unexplored), 20),
    ("Explored: tinted in its owner's colour", _legend_plains_with(_legend_owned), 20),
    ("Village, with its owner's letter", _legend_settlement("village"), 10),
    ("City", _legend_settlement("city"), 10),
    ("Capital", _legend_settlement("city", capital=True), 13),
    ("Fortress", _legend_settlement("fortress"), 10),
    ("Army, upright: owner's letter and number", _legend_unit(ship=False, upright=True), 11),
    ("Army on its side", _legend_unit(ship=False, upright=False), 11),
    ("Ship, upright", _legend_unit(ship=True, upright=True), 11),
    ("Ship on its side", _legend_unit(ship=True, upright=False), 11),
    ("Army defending", _legend_unit(ship=False, upright=True, defending=True), 11),
    ("Contested: units of two or more kingdoms", _legend_contested, 20),
    ("Moved last month", _legend_move, 20),
)
