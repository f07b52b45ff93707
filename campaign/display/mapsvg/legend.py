"""The map's legend: each symbol with what it means, drawn by the same code as the map."""

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from functools import cache
from typing import NamedTuple

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe

from campaign.display.mapsvg.control import CONTESTED, UNEXPLORED, draw_settlement
from campaign.display.mapsvg.geometry import points
from campaign.display.mapsvg.layer import DrawSymbol
from campaign.display.mapsvg.palette import OUTLINE
from campaign.display.mapsvg.scene import Look, Unit
from campaign.display.mapsvg.terrain import (
    WATER_EDGE,
    draw_bridge,
    draw_river,
    terrain_fill,
    terrain_patterns,
)
from campaign.display.mapsvg.units import draw_unit
from campaign.display.optional import MAP_LAYERS, map_layers
from campaign.display.svg import FONTS, SVG_NS, coordinate, element
from campaign.gazetteer import Names


class LegendItem(NamedTuple):
    """One line of the map's legend: what a symbol means, and the symbol as a small inline
    SVG. The SVG is built from constants only (no user text), so it is safe to mark safe."""

    label: str
    svg: str


_LEGEND_LOOK = Look("Kingdom", "#c8c8c8", "K", "#111111")
_LEGEND_OWNER = "#c0392b"


def legend_items(options: Mapping[str, object] | None = None) -> tuple[LegendItem, ...]:
    """The map's symbols with what they mean, for the legend beside the map: terrain, rivers
    and water, settlements, units and markers, then those of the optional rules a
    campaign's `options` turn on. Each symbol is a small inline SVG drawn by the same code
    as the map, with ids of its own; it holds no user text. Drawn once."""
    return _legend(tuple(layer.option for layer in map_layers(options or {})))


def legend_list(options: Mapping[str, object] | None = None) -> SafeString:
    """`legend_items` as the list the campaign page shows (`<ul>`, a symbol and its meaning
    a line), drawn once for each set of options."""
    return _legend_list(tuple(layer.option for layer in map_layers(options or {})))


@cache
def _legend_list(options: tuple[str, ...]) -> SafeString:
    lines = format_html_join(
        "", "<li>{} {}</li>", ((mark_safe(i.svg), i.label) for i in _legend(options))
    )  # constants alone (LegendItem)
    return format_html("<ul>{}</ul>", lines)


@cache
def _legend(options: tuple[str, ...]) -> tuple[LegendItem, ...]:
    symbols: list[tuple[str, DrawSymbol, float]] = [*_LEGEND]
    symbols += [symbol for option in options for symbol in MAP_LAYERS[option].legend]
    return tuple(
        LegendItem(label, _legend_svg(draw, f"mapsvg-legend-{i}-", half))
        for i, (label, draw, half) in enumerate(symbols)
    )


def _legend_svg(draw: DrawSymbol, prefix: str, half: float) -> str:
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


def _legend_hex(terrain: str) -> DrawSymbol:
    def draw(root: ET.Element, prefix: str) -> None:
        defs = element(root, "defs")
        terrain_patterns(defs, prefix)
        element(
            root,
            "polygon",
            {
                "points": points(0, 0, 0.62),
                "fill": terrain_fill(terrain, prefix),
                "stroke": "#6f6f60",
                "stroke-width": "0.6",
            },
        )

    return draw


def _legend_plains_with(*extras: Callable[[ET.Element], None]) -> DrawSymbol:
    def draw(root: ET.Element, prefix: str) -> None:
        _legend_hex("plains")(root, prefix)
        for extra in extras:
            extra(root)

    return draw


def _legend_river(root: ET.Element) -> None:
    draw_river(root, 0, 0, [])


def _legend_bridge(root: ET.Element) -> None:
    draw_bridge(root, 0, 0, -35)


def _legend_water_edge(root: ET.Element) -> None:
    edge = {"x1": "16", "y1": "-9.3", "x2": "16", "y2": "9.3", "stroke": WATER_EDGE}
    element(root, "line", {**edge, "stroke-width": "5", "stroke-linecap": "round"})


def _legend_start(root: ET.Element) -> None:
    dashed = {"fill": "none", "stroke": OUTLINE, "stroke-dasharray": "4 3"}
    element(root, "polygon", {"points": points(0, 0, 0.5), "stroke-width": "1.3", **dashed})


def _legend_unexplored(root: ET.Element) -> None:
    shade = {"fill": UNEXPLORED, "fill-opacity": "0.4"}
    element(root, "polygon", {"points": points(0, 0, 0.62), **shade})


def _legend_owned(root: ET.Element) -> None:
    tint = {"fill": _LEGEND_OWNER, "fill-opacity": "0.3", "stroke": _LEGEND_OWNER}
    element(root, "polygon", {"points": points(0, 0, 0.55), "stroke-width": "3", **tint})


def _legend_settlement(kind: str, *, capital: bool = False) -> DrawSymbol:
    def draw(root: ET.Element, prefix: str) -> None:
        draw_settlement(root, 0, 3.5 if capital else 0, kind, _LEGEND_LOOK, capital=capital)

    return draw


def _legend_unit(*, ship: bool, upright: bool, defending: bool = False) -> DrawSymbol:
    unit = Unit("k-1", "k", (0, 0), ship, upright, defending, None, None, None)

    def draw(root: ET.Element, prefix: str) -> None:
        draw_unit(root, 0, 0, unit, _LEGEND_LOOK, 1.0, Names({"k": _LEGEND_LOOK.name}))

    return draw


def _legend_contested(root: ET.Element, prefix: str) -> None:
    ring = {"r": "15", "fill": "none", "stroke": CONTESTED, "stroke-width": "3"}
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


_LEGEND: tuple[tuple[str, DrawSymbol, float], ...] = (
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
