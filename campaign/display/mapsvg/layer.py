"""An optional rule's layer on the map, declared by the rule's own module in
`campaign.display.optional`: the map walks the layers of the rules a campaign turns on and
never names an option itself."""

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from campaign.rules.hexmap import Hex

type DrawOnHex = Callable[[ET.Element, float, float], None]
type DrawSymbol = Callable[[ET.Element, str], None]
# A line from one hex's centre to another's: the group, then x1, y1, x2, y2.
type DrawSegment = Callable[[ET.Element, float, float, float, float], None]


class WordsAt(StrEnum):
    """Where a layer's words stand in a marked hex's title."""

    HOLDER = "holder"  # in place of who holds the hex: a hex no kingdom may hold
    SETTLEMENT = "settlement"  # after the hex's settlement


class LegendSymbol(NamedTuple):
    """A line a layer adds to the legend: its words, how its symbol is drawn (around
    [0, 0], ids starting with the prefix it is given) and the half-side of the square
    shown around it."""

    label: str
    draw: DrawSymbol
    half: float


@dataclass(frozen=True, slots=True)
class MapLayer:
    """What an optional rule shows on the map. `option` is its row's name in
    `campaign.rules.options`; `marks` reads from the campaign file the hexes it marks, each
    with what a tap on it says (said where `words_at` puts it); a marked hex's group
    carries `hex_class`, and `draw` (if any) draws on it, centred on the hex, above its
    settlement and below the contested ring; `segments` reads the pairs of hexes it joins
    (a track from tile to tile), each drawn by `draw_segment` from centre to centre, above the hexes and below
    the units; `legend` are its lines in the legend."""

    option: str
    marks: Callable[[Mapping[str, Any]], Mapping[Hex, str]]
    words_at: WordsAt = WordsAt.SETTLEMENT
    hex_class: str = ""
    draw: DrawOnHex | None = None
    segments: Callable[[Mapping[str, Any]], Sequence[tuple[Hex, Hex]]] | None = None
    draw_segment: DrawSegment | None = None
    legend: tuple[LegendSymbol, ...] = ()
    # Marked hexes it singles out as news (a marauder band just arrived near a kingdom's
    # settlements), each drawn over by `draw_news` as well.
    news: Callable[[Mapping[str, Any]], frozenset[Hex]] | None = None
    draw_news: DrawOnHex | None = None


class Marked(NamedTuple):
    """A layer with the hexes it marks on this map, each with its words, and those it
    singles out as news."""

    layer: MapLayer
    hexes: Mapping[Hex, str]
    news: frozenset[Hex] = frozenset()
