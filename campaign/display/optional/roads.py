"""Option roads (OW9 to OW11), as the app shows it so far: on the map, each road drawn from
tile to tile (public, OW9), a tap on a tile it runs through saying so; a road built, in the
report, the chronicle and the kingdom's ledger; the trade it brings to a gathering. The
winter page's road purchase by two taps and the orders page's march come with its pages
(issue 38): until then the option is not offered."""

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from campaign.display.describing import Describer, Event, Line, Wording
from campaign.display.mapsvg.layer import LegendSymbol, MapLayer
from campaign.display.mapsvg.reading import as_hex
from campaign.display.svg import coordinate, element
from campaign.rules.hexmap import Hex
from campaign.rules.optional.roads import TRADE
from campaign.rules.options import OPTION_ROWS
from campaign.rules.vocabulary import EventType

ROAD_WORDS = "a road runs through it: trade to the capital, and a march along it is spared the terrain (options OW10, OW11)"
_ROAD = "#8a5a2b"


def roads(data: Mapping[str, Any]) -> list[tuple[Hex, Hex]]:
    """The file's `roads`, each a pair of hexes (a malformed one left out)."""
    found = []
    for pair in data.get("roads") or []:
        ends = [as_hex(h) for h in pair] if isinstance(pair, list) and len(pair) == 2 else []
        if len(ends) == 2 and ends[0] is not None and ends[1] is not None:
            found.append((ends[0], ends[1]))
    return found


def road_tiles(data: Mapping[str, Any]) -> dict[Hex, str]:
    """The tiles a road runs through, each with what a tap on it says."""
    return {h: ROAD_WORDS for pair in roads(data) for h in pair}


def draw_road(group: ET.Element, x1: float, y1: float, x2: float, y2: float) -> None:
    """A road: a brown dashed track from tile centre to tile centre."""
    ends = {"x1": coordinate(x1), "y1": coordinate(y1), "x2": coordinate(x2), "y2": coordinate(y2)}
    element(
        group,
        "line",
        {
            "class": "road",
            **ends,
            "stroke": _ROAD,
            "stroke-width": "3.5",
            "stroke-dasharray": "7 4",
            "stroke-linecap": "round",
        },
    )


def _road_symbol(root: ET.Element, prefix: str) -> None:
    draw_road(root, -12, 6, 12, -6)


MAP_LAYER = MapLayer(
    option=OPTION_ROWS["roads"].name,
    marks=road_tiles,
    segments=roads,
    draw_segment=draw_road,
    legend=(
        LegendSymbol(
            "Road: trade to the capital; a march along it is spared the terrain", _road_symbol, 16
        ),
    ),
)

GAIN_NAMES: Mapping[str, str] = {TRADE: "trade along the roads"}


def _road_built(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} built a road from {d.place(e['hex'])} to {d.place(e['to'])}.")


def _road_built_own(d: Describer, e: Event) -> str:
    return f"A road is built from {d.place(e['hex'])} to {d.place(e['to'])} (1 gold)."


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.ROAD_BUILT: Wording(_road_built, own=_road_built_own),
}
