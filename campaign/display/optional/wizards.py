"""Option wizards (OA4 to OA11), as the app shows it: on the map, each Wizard's tower
(OA5), drawn on its hex, and what a tap on it says."""

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from campaign.display.mapsvg.layer import MapLayer, WordsAt
from campaign.display.mapsvg.palette import OUTLINE
from campaign.display.mapsvg.reading import as_hex
from campaign.display.svg import coordinate, element
from campaign.rules.hexmap import Hex
from campaign.rules.options import OPTION_ROWS

TOWER_WORDS = (
    "a Wizard's tower: nobody enters it; a kingdom with a tile next to it may send a hero "
    "on a quest each winter (options OA5, OA6)"
)
_TOWER = "#5b2c83"
_TOWER_LIGHT = "#ffd84a"


def towers(data: Mapping[str, Any]) -> dict[Hex, str]:
    """The towers' hexes (the file's `towers`), each with what a tap on it says."""
    found = (as_hex(item) for item in data.get("towers") or [])
    return {h: TOWER_WORDS for h in found if h is not None}


def draw_tower(parent: ET.Element, x: float, y: float) -> None:
    """A Wizard's tower: a crenellated tower with a lit window."""
    outline = [
        (-5, 11), (-5, -6), (-8, -6), (-8, -12), (-5, -12), (-5, -9), (-2, -9), (-2, -12),
        (2, -12), (2, -9), (5, -9), (5, -12), (8, -12), (8, -6), (5, -6), (5, 11),
    ]  # fmt: skip
    points = " ".join(f"{coordinate(x + dx)},{coordinate(y + dy)}" for dx, dy in outline)
    tower = element(parent, "g", {"class": "tower"})
    element(
        tower,
        "polygon",
        {"points": points, "fill": _TOWER, "stroke": OUTLINE, "stroke-width": "1.2"},
    )
    orb = {"cx": coordinate(x), "cy": coordinate(y - 1), "r": "2.6", "fill": _TOWER_LIGHT}
    element(tower, "circle", orb)


MAP_LAYER = MapLayer(
    option=OPTION_ROWS["wizards"].name,
    marks=towers,
    words_at=WordsAt.HOLDER,  # nobody holds a tower (OA5)
    hex_class="tower",
    draw=draw_tower,
)
