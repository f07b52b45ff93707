"""The ground's layer: each hex's terrain with its marks, rivers and bridges, start tiles,
the shores along the ocean and the water edges armies may not cross."""

import math
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from campaign.display.mapsvg.geometry import centre, points, shared_edge
from campaign.display.mapsvg.palette import NEUTRAL, OUTLINE
from campaign.display.svg import coordinate, element
from campaign.rules.hexmap import Hex, neighbours

PATTERN_PREFIX = "mapsvg-terrain-"  # ids in <defs>, unlikely to clash on the page

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
WATER_EDGE = "#1b4f9c"
_SHORE = "#eadba6"


def terrain_patterns(defs: ET.Element, prefix: str) -> None:
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


def terrain_fill(terrain: str, prefix: str) -> str:
    colour = _TERRAIN_FILL.get(terrain, NEUTRAL)
    return f"url(#{prefix}{terrain}) {colour}" if terrain in _TERRAIN_MARKS else colour


def draw_terrain(parent: ET.Element, x: float, y: float, terrain: str, prefix: str) -> None:
    element(
        parent,
        "polygon",
        {
            "class": f"terrain {terrain}",
            "points": points(x, y),
            "fill": terrain_fill(terrain, prefix),
            "stroke": "#6f6f60",
            "stroke-width": "0.6",
        },
    )


def draw_waterways(
    parent: ET.Element, x: float, y: float, tile: Mapping[str, Any], ends: Sequence[Hex]
) -> None:
    """The tile's river, running to its `ends`, and its bridge, laid along the river."""
    if tile.get("river"):
        draw_river(parent, x, y, ends)
        if tile.get("bridge"):
            angle = 0.0
            if ends:
                ex, ey = centre(ends[0])
                angle = math.degrees(math.atan2(ey - y, ex - x))
            draw_bridge(parent, x, y + 1, angle)
    elif tile.get("bridge"):
        draw_bridge(parent, x, y + 1, 0.0)


def draw_river(parent: ET.Element, x: float, y: float, ends: Sequence[Hex]) -> None:
    if ends:
        path = " ".join(
            f"M{coordinate(x)},{coordinate(y)} L{coordinate((x + ex) / 2)},{coordinate((y + ey) / 2)}"
            for ex, ey in (centre(end) for end in ends)
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


def draw_bridge(parent: ET.Element, x: float, y: float, angle: float) -> None:
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


def draw_start(parent: ET.Element, x: float, y: float) -> None:
    """A start tile's dashed outline."""
    element(
        parent,
        "polygon",
        {
            "class": "start",
            "points": points(x, y, 0.78),
            "fill": "none",
            "stroke": OUTLINE,
            "stroke-width": "1.3",
            "stroke-dasharray": "4 3",
        },
    )


def draw_shores(root: ET.Element, terrain: Mapping[Hex, Mapping[str, Any]]) -> None:
    parts = []
    for h, tile in terrain.items():
        if tile.get("terrain") == "ocean":
            continue
        for n in neighbours(h):
            if n in terrain and terrain[n].get("terrain") == "ocean":
                x1, y1, x2, y2 = shared_edge(h, n)
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


def draw_water_edges(root: ET.Element, water_edges: Mapping[Hex, Sequence[Hex]]) -> None:
    layer = element(root, "g", {"class": "water-edges", "pointer-events": "none"})
    for a, others in sorted(water_edges.items()):
        for b in others:
            if a < b:
                x1, y1, x2, y2 = shared_edge(a, b)
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
                        "stroke": WATER_EDGE,
                        "stroke-width": "5",
                        "stroke-linecap": "round",
                    },
                )
