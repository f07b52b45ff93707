"""Option roads (OW9 to OW11), as the app shows it: on the map, each road drawn from tile to
tile (public, OW9), a tap on a tile it runs through saying so; a road built, in the report,
the chronicle and the kingdom's ledger; the trade it brings to a gathering (OW10). On the
winter page, the road purchase (OW9): a tap on one of the kingdom's tiles, then on a tile
next to it, or the two tiles chosen from lists; what the page refuses at once (tiles not
both the kingdom's, a road there or listed already). On the orders page, a move planned
along a road, spared the terrain (OW11)."""

import json
import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from typing import Any

from campaign.display.describing import Describer, Event, Line, Wording
from campaign.display.mapsvg.layer import LegendSymbol, MapLayer
from campaign.display.mapsvg.reading import as_hex
from campaign.display.optional.purchases import Offer, Offered, PurchasePart
from campaign.display.svg import coordinate, element
from campaign.gazetteer import Names
from campaign.rules.hexmap import Hex
from campaign.rules.optional.roads import ROAD_GOLD, TRADE, road
from campaign.rules.options import OPTION_ROWS
from campaign.rules.state import Campaign, PurchaseKind
from campaign.rules.vocabulary import EventType

OPTION = OPTION_ROWS["roads"].name
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
    option=OPTION,
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


# --- the winter page: the road purchase (OW9) -----------------------------------------------

PRICE = f"{ROAD_GOLD} gold"


def _listed(campaign: Campaign, kingdom: str) -> set[tuple[Hex, Hex]]:
    """The roads the kingdom's list buys, as the state keeps them."""
    return {
        road(p.hex, p.to)
        for p in campaign.inputs.purchases.get(kingdom, ())
        if p.kind is PurchaseKind.ROAD and p.hex is not None and p.to is not None
    }


def joinable(campaign: Campaign, kingdom: str) -> dict[Hex, list[Hex]]:
    """Each tile of the kingdom's with the tiles next to it a road may join it to: both
    the kingdom's, armies may enter both, no water between them, no road there yet nor in
    its list (OW9). Whether its gold lasts is the build step's to judge (W5)."""
    hexmap, taken = campaign.map, campaign.roads | _listed(campaign, kingdom)
    own = sorted(h for h, held in campaign.tiles.items() if held.owner == kingdom)
    found: dict[Hex, list[Hex]] = {}
    for a in own:
        ends = [
            b
            for b in hexmap.neighbours(a)
            if campaign.owner(b) == kingdom
            and hexmap.army_may_enter(a)
            and hexmap.army_may_enter(b)
            and not hexmap.is_water_edge(a, b)
            and road(a, b) not in taken
        ]
        if ends:
            found[a] = ends
    return found


def _offer(a: Hex, b: Hex, names: Names) -> Offer:
    value = {"build": str(PurchaseKind.ROAD), "hex": list(a), "to": list(b)}
    words = f"Build a road from {names.place(a, picking=True)} to {names.place(b, picking=True)}"
    return Offer(words, json.dumps(value), PRICE)


def offered(campaign: Campaign, kingdom: str, names: Names, tapped: Hex | None) -> Offered:
    """The tiles a road may start from, lit; after a tap on one, the tiles next to it a
    second tap builds the road to; the kingdom's tiles for the lists of the form."""
    ends = joinable(campaign, kingdom)
    own = sorted(h for h, held in campaign.tiles.items() if held.owner == kingdom)
    from_here = {b: _offer(tapped, b, names) for b in ends.get(tapped, ())} if tapped else {}
    return Offered(
        starts=frozenset(ends),
        ends=from_here,
        context={
            "tiles": [(f"{h[0]},{h[1]}", names.place(h, picking=True)) for h in own],
            "tapped": f"{tapped[0]},{tapped[1]}" if tapped in ends else "",
            "from_here": list(from_here.values()),
            "price": PRICE,
        },
    )


def _ends_of(purchase: Any) -> tuple[Hex, Hex] | None:
    """A road purchase's two tiles, if it is one and well formed (the engine refuses the
    others by their shape)."""
    if not isinstance(purchase, Mapping) or purchase.get("build") != PurchaseKind.ROAD:
        return None
    a, b = as_hex(purchase.get("hex")), as_hex(purchase.get("to"))
    return (a, b) if a is not None and b is not None else None


def refused(
    data: Mapping[str, Any], kingdom: str, purchases: Sequence[Any], names: Names
) -> str | None:
    """What the page refuses at once of a list (the build step would skip it, W5): a road
    between tiles not both the kingdom's, or where one is built or listed already (OW9)."""
    own = {as_hex(t.get("hex")) for t in data.get("tiles") or [] if t.get("owner") == kingdom}
    built = {road(a, b) for a, b in roads(data)}
    listed: set[tuple[Hex, Hex]] = set()
    for purchase in purchases:
        ends = _ends_of(purchase)
        if ends is None:
            continue
        a, b = ends
        there = f"{names.place(a, picking=True)} and {names.place(b, picking=True)}"
        if a not in own or b not in own:
            return f"A road joins two tiles of your kingdom's: {there} are not both yours (option OW9)."
        if road(a, b) in built:
            return f"A road joins {there} already (option OW9)."
        if road(a, b) in listed:
            return f"Your list builds the road between {there} already."
        listed.add(road(a, b))
    return None


PURCHASE_PART = PurchasePart(
    option=OPTION,
    offered=offered,
    section="campaign/_road_purchase.html",
    here="campaign/_road_from_here.html",
    refused=refused,
)


# --- the orders page: a march along a road (OW11) ---------------------------------------------

MARCH_WORDS = "along the road: spared the terrain (option OW11)"


def march_note(data: Mapping[str, Any], start: Hex, end: Hex) -> str | None:
    """A move from `start` to `end` along a road: it never lays the unit down for the
    terrain (OW11)."""
    return MARCH_WORDS if road(start, end) in {road(a, b) for a, b in roads(data)} else None
