"""Who holds the land: the shade over unexplored tiles, the owner's tint, the settlements
with their owner's letter, the capitals' crowns, and the ring around a contested hex."""

import xml.etree.ElementTree as ET

from campaign.display.mapsvg.geometry import SIZE, points
from campaign.display.mapsvg.palette import NEUTRAL, OUTLINE
from campaign.display.mapsvg.scene import Look
from campaign.display.svg import coordinate, element, text_element

CONTESTED = "#d62020"
UNEXPLORED = "#4d4d4d"
_CROWN = "#f2c230"


def draw_unexplored(parent: ET.Element, x: float, y: float) -> None:
    """The grey shade over a tile nobody has explored."""
    element(
        parent,
        "polygon",
        {
            "class": "shade",
            "points": points(x, y),
            "fill": UNEXPLORED,
            "fill-opacity": "0.4",
        },
    )


def draw_owner(parent: ET.Element, x: float, y: float, owner: str, look: Look) -> None:
    """The owner's tint and border inside an explored tile."""
    element(
        parent,
        "polygon",
        {
            "class": "owner",
            "data-owner": owner,
            "points": points(x, y, 0.9),
            "fill": look.colour,
            "fill-opacity": "0.3",
            "stroke": look.colour,
            "stroke-width": "3",
            "stroke-linejoin": "round",
        },
    )


def draw_settlement(
    parent: ET.Element, x: float, y: float, kind: str, look: Look | None, *, capital: bool
) -> None:
    colour, ink, letter = (look.colour, look.ink, look.letter) if look else (NEUTRAL, "#111", "")
    name = "capital" if capital else kind
    group = element(
        parent,
        "g",
        {"class": f"settlement {name}", "transform": f"translate({coordinate(x)},{coordinate(y)})"},
    )
    body = {"fill": colour, "stroke": OUTLINE, "stroke-width": "1.2"}
    baseline = "3.5"
    if capital:
        element(
            group, "circle", {"r": "9.5", "fill": "#fff", "stroke": OUTLINE, "stroke-width": "1"}
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


def draw_contested(parent: ET.Element, x: float, y: float) -> None:
    """The red ring around a hex where units of two or more kingdoms stand."""
    element(
        parent,
        "circle",
        {
            "class": "contested",
            "cx": coordinate(x),
            "cy": coordinate(y),
            "r": coordinate(SIZE * 0.8),
            "fill": "none",
            "stroke": CONTESTED,
            "stroke-width": "3",
        },
    )
