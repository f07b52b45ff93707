"""What the page is about, drawn over the map: the moves' arrows (last month's, or a
player's planned ones), the hexes outlined for a winter's supply (`Mark`), and the hexes a
player may tap (`Pick`), drawn on top as links."""

import math
import xml.etree.ElementTree as ET
from collections.abc import Container, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaign.display.mapsvg.geometry import centre, points
from campaign.display.mapsvg.palette import NEUTRAL
from campaign.display.mapsvg.reading import as_hex, as_text
from campaign.display.mapsvg.scene import Look
from campaign.display.svg import coordinate, element, title_element
from campaign.gazetteer import Names
from campaign.rules.hexmap import Hex
from campaign.rules.state import Step
from campaign.rules.vocabulary import EventType


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


@dataclass(frozen=True, slots=True)
class Move:
    """An arrow on the map: a unit's move, made last month or (`planned`) ordered now."""

    unit: str
    kingdom: str
    start: Hex
    end: Hex
    planned: bool = False


def last_month_moves(data: Mapping[str, Any]) -> list[Move]:
    """The moves of the newest resolved summer month: the clock's month once its orders are
    resolved, the month before while a new month waits for orders, and in winter or at the
    end the last summer month of the clock's year."""
    clock = data.get("clock") or {}
    year, season = clock.get("year"), clock.get("season")
    events = [e for e in data.get("events") or [] if e.get("season") == "summer"]
    target: tuple[object, object] | None
    if season == "summer":
        month = clock.get("month")
        if clock.get("step") == Step.ORDERS and isinstance(month, int):
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
        if (
            event.get("type") != EventType.MOVED
            or (event.get("year"), event.get("month")) != target
        ):
            continue
        start, end = as_hex(event.get("from")), as_hex(event.get("to"))
        if start is not None and end is not None and start != end:
            unit = as_text(event.get("unit"))
            kingdom = as_text(event.get("kingdom")) or unit.rsplit("-", 1)[0]
            moves.append(Move(unit, kingdom, start, end))
    return moves


def draw_moves(
    root: ET.Element,
    defs: ET.Element,
    moves: Sequence[Move],
    looks: Mapping[str, Look],
    on_map: Container[Hex],
    names: Names,
) -> None:
    layer = element(root, "g", {"class": "moves", "pointer-events": "none"})
    markers: dict[str, str] = {}
    for move in moves:
        if move.start not in on_map or move.end not in on_map:
            continue
        look = looks.get(move.kingdom)
        colour = look.colour if look else NEUTRAL
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
        (ax, ay), (bx, by) = centre(move.start), centre(move.end)
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


def draw_marks(root: ET.Element, marks: Sequence[Mark]) -> None:
    if not marks:
        return
    layer = element(root, "g", {"class": "marks"})
    for mark in marks:
        x, y = centre(mark.hex)
        outline = element(
            layer,
            "polygon",
            {
                "points": points(x, y, 0.8),
                "class": f"mark mark-{mark.kind}",
                "data-hex": f"{mark.hex[0]},{mark.hex[1]}",
            },
        )
        title_element(outline, mark.label)


def draw_picks(root: ET.Element, picks: Sequence[Pick]) -> None:
    if not picks:
        return
    layer = element(root, "g", {"class": "picks"})
    for pick in picks:
        x, y = centre(pick.hex)
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
        element(link, "polygon", {"points": points(x, y, 0.92)})
