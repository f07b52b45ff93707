"""Option marauders (OW1 to OW8), as the app shows it: on the map, the horde's armies in
their own colour, each band with this month's order drawn as an arrow before anyone orders
(public, OW3, OW8), a tap on it saying what it will do and why (its target settlement), and
a band arrived this month within three steps of a kingdom's settlements ringed; in the
report, the chronicle and the ledger, its events in words (arrivals with their dice, the
month's orders, a band falling back after a draw, plunder); on the battle card, what the
horde's side fields (OW5)."""

import xml.etree.ElementTree as ET
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from campaign.display.describing import Describer, Event, Line, Roll, Wording
from campaign.display.mapsvg.layer import LegendSymbol, MapLayer
from campaign.display.mapsvg.palette import OUTLINE
from campaign.display.mapsvg.reading import as_hex
from campaign.display.optional.card import CardPart, Cite, Fought, Note, Side
from campaign.display.svg import coordinate, element
from campaign.gazetteer import Names
from campaign.rules.hexmap import Hex, cached_map_from_json
from campaign.rules.optional.marauders import ARRIVAL_FACE, PLUNDER, Ground, number, target
from campaign.rules.options import OPTION_ROWS
from campaign.rules.state import HORDE, Season, Settlement, Step
from campaign.rules.vocabulary import EventType
from campaign.words import capitalised

OPTION = OPTION_ROWS["marauders"].name
NEAR = 3  # steps: a band this near a kingdom's settlements is news to it (the issue)
_HORDE = "#7a1010"
AFTER_YOURS = (
    "The marauders move after every kingdom's orders (options OW3, OW4): an army that reaches "
    "a settlement they are to raze first stops the raze, and fights them there."
)
_HORDE_LIGHT = "#f2c14e"


@dataclass(frozen=True, slots=True)
class Band:
    """The marauder armies on one tile, with their order this month (null in winter)."""

    hex: Hex
    armies: tuple[str, ...]
    order: Mapping[str, Any] | None


def bands(data: Mapping[str, Any]) -> list[Band]:
    """The file's `marauder_armies`, tile by tile (a malformed entry left out); the band's
    order is its first army's (they stand and act together)."""
    by_hex: dict[Hex, list[Mapping[str, Any]]] = {}
    for army in data.get("marauder_armies") or []:
        h = as_hex(army.get("hex")) if isinstance(army, Mapping) else None
        if h is not None and isinstance(army.get("id"), str):
            by_hex.setdefault(h, []).append(army)
    return [
        Band(h, tuple(a["id"] for a in armies), armies[0].get("order"))
        for h, armies in sorted(by_hex.items())
    ]


def armies(n: int) -> str:
    return f"{n} marauder arm{'y' if n == 1 else 'ies'}"


def race(data: Mapping[str, Any]) -> str:
    return str((data.get("options") or {}).get("marauder_race") or "unknown race")


def _ground(data: Mapping[str, Any]) -> Ground:
    settlements = {
        h: Settlement(t["settlement"])
        for t in data.get("tiles") or []
        if t.get("settlement") and (h := as_hex(t.get("hex"))) is not None
    }
    towers = frozenset(h for item in data.get("towers") or [] if (h := as_hex(item)))
    return Ground(cached_map_from_json(data["map"], "map"), towers, settlements)


def _hex(h: Hex) -> str:
    return str(list(h))


def _intent(
    data: Mapping[str, Any], band: Band, ground: Ground, place: Callable[[Hex], str] = _hex
) -> str:
    """What the band will do this month and why, in words, each tile as `place` says it;
    once the month's orders have resolved, what it was to do."""
    said = _intended(data, band, ground, place)
    if _resolved(data) and said.startswith("will "):
        return "this month it was to " + said.removeprefix("will ")
    return said


def _resolved(data: Mapping[str, Any]) -> bool:
    """The month's orders have resolved (its battles or reform): they are its record."""
    return (data.get("clock") or {}).get("step") in (Step.BATTLES, Step.REFORM)


def _intended(
    data: Mapping[str, Any], band: Band, ground: Ground, place: Callable[[Hex], str]
) -> str:
    kind = (band.order or {}).get("order")
    if kind == "move":
        found = target(ground, band.hex)
        goal = (
            f", toward {_settlement_words(data, found[0], place)}, the nearest settlement"
            if found
            else ""
        )
        return f"will move to {place(as_hex((band.order or {})['to']) or band.hex)}{goal}"
    if kind == "raze":
        return "will raze the settlement it stands on, unless a kingdom's unit is in the tile"
    if kind == "regroup":
        return "will stand up"
    if kind == "hold":
        return "will hold: a kingdom's unit stands in its tile, or nothing is in reach"
    return "waits for the next summer"


def _settlement_words(data: Mapping[str, Any], h: Hex, place: Callable[[Hex], str]) -> str:
    held: Mapping[str, Any] = next(
        (t for t in data.get("tiles") or [] if as_hex(t.get("hex")) == h), {}
    )
    return f"the {held.get('settlement', 'settlement')} at {place(h)}"


def coming_moves(data: Mapping[str, Any], names: Names) -> tuple[str, ...]:
    """The horde's orders this month, band by band, for a player planning their own (so
    they may intercept a raid): public before anyone orders (OW3, OW8)."""
    ground = _ground(data)

    def place(h: Hex) -> str:
        return names.place(list(h))

    moves = tuple(
        f"{capitalised(armies(len(band.armies)))} of {race(data)} {names.at(list(band.hex))} "
        f"{_intent(data, band, ground, place)}."
        for band in bands(data)
        if band.order
    )
    return (*moves, AFTER_YOURS) if moves else ()


def arrived_near(data: Mapping[str, Any], ground: Ground) -> dict[Hex, list[str]]:
    """Bands that arrived at this month's opening, each with the kingdoms whose settlements
    lie within three steps of it (OG3: round water edges and towers, as the horde marches):
    what a kingdom is told."""
    owners = {
        as_hex(t.get("hex")): t["owner"] for t in data.get("tiles") or [] if t.get("settlement")
    }
    return {h: _owners_near(ground, owners, h) for h in _landed(data)}


def _landed(data: Mapping[str, Any]) -> list[Hex]:
    """Where the bands of this month's opening landed: its events are the newest, so the
    story is read back from its end only as far as this month."""
    clock = data.get("clock") or {}
    when = (clock.get("year"), clock.get("month"))
    landed: list[Hex] = []
    for event in reversed(data.get("events") or []):
        if (event.get("year"), event.get("month")) != when:
            break
        h = as_hex(event.get("hex")) if event.get("type") == EventType.MARAUDERS_ARRIVED else None
        if h is not None:
            landed.append(h)
    return landed


def _owners_near(ground: Ground, owners: Mapping[Hex | None, str], h: Hex) -> list[str]:
    near: set[str] = set()
    for steps, ring in enumerate(ground.rings(h)):
        if steps > NEAR:
            break
        near.update(owners[x] for x in ring if x in owners)
    return sorted(near)


def arrivals_near(data: Mapping[str, Any], names: Names) -> dict[str, tuple[str, ...]]:
    """What each kingdom is told as the month opens: a band arrived within three tiles of
    its settlements (the issue's notification)."""
    clock = data["clock"]
    if clock["season"] != Season.SUMMER or clock["step"] != Step.ORDERS:
        return {}
    told: dict[str, list[str]] = {}
    ground = _ground(data)
    standing = {band.hex: band for band in bands(data)}
    for h, kingdoms in arrived_near(data, ground).items():
        band = standing.get(h)
        if band is None:
            continue
        line = (
            f"A band of {armies(len(band.armies))} of {race(data)} arrived {names.at(list(h))}, "
            f"within {NEAR} steps of your settlements: "
            f"{_intent(data, band, ground, lambda x: names.place(list(x)))}."
        )
        for kingdom in kingdoms:
            told.setdefault(kingdom, []).append(line)
    return {kingdom: tuple(lines) for kingdom, lines in told.items()}


def marked(data: Mapping[str, Any]) -> dict[Hex, str]:
    """Each tile where the horde stands, with what a tap on it says."""
    ground = _ground(data)
    near = arrived_near(data, ground)
    words: dict[Hex, str] = {}
    for band in bands(data):
        said = (
            f"{armies(len(band.armies))} of {race(data)} (option OW1): "
            f"{_intent(data, band, ground)}"
        )
        if band.hex in near:
            said += "; arrived this month"
            if near[band.hex]:
                named = {k["id"]: k.get("name") or k["id"] for k in data.get("kingdoms") or []}
                whose = " and ".join(named.get(k, k) for k in near[band.hex])
                said += f", within {NEAR} steps of the settlements of {whose}"
        words[band.hex] = said
    return words


def raids(data: Mapping[str, Any]) -> list[tuple[Hex, Hex]]:
    """This month's moves of the horde, from tile to tile: public before anyone orders."""
    found = []
    for band in bands(data):
        to = (
            as_hex((band.order or {}).get("to"))
            if (band.order or {}).get("order") == "move"
            else None
        )
        if to is not None:
            found.append((band.hex, to))
    return found


def draw_band(parent: ET.Element, x: float, y: float) -> None:
    """A marauder band: a dark red shield with a gold blaze, in the hex's upper half."""
    top = y - 16
    points = [(-7, -7), (7, -7), (7, 1), (0, 8), (-7, 1)]
    shape = " ".join(f"{coordinate(x + dx)},{coordinate(top + dy)}" for dx, dy in points)
    band = element(parent, "g", {"class": "marauder-band"})
    element(
        band, "polygon", {"points": shape, "fill": _HORDE, "stroke": OUTLINE, "stroke-width": "1.2"}
    )
    blaze = f"M{coordinate(x - 3)},{coordinate(top - 3)} L{coordinate(x + 3)},{coordinate(top + 3)}"
    element(band, "path", {"d": blaze, "stroke": _HORDE_LIGHT, "stroke-width": "2.2"})


def draw_raid(group: ET.Element, x1: float, y1: float, x2: float, y2: float) -> None:
    """A raid's arrow: from the band toward the tile it moves to, its head short of the
    tile's centre."""
    ex, ey = x1 + (x2 - x1) * 0.72, y1 + (y2 - y1) * 0.72
    element(
        group,
        "line",
        {
            "class": "raid",
            "x1": coordinate(x1),
            "y1": coordinate(y1),
            "x2": coordinate(ex),
            "y2": coordinate(ey),
            "stroke": _HORDE,
            "stroke-width": "3",
            "stroke-dasharray": "2 3",
        },
    )
    length = max(((x2 - x1) ** 2 + (y2 - y1) ** 2) ** 0.5, 1e-6)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    head = [(ex + ux * 7, ey + uy * 7), (ex - uy * 5, ey + ux * 5), (ex + uy * 5, ey - ux * 5)]
    element(
        group,
        "polygon",
        {
            "points": " ".join(f"{coordinate(px)},{coordinate(py)}" for px, py in head),
            "fill": _HORDE,
        },
    )


def _band_symbol(root: ET.Element, prefix: str) -> None:
    draw_band(root, 0, 12)


def _raid_symbol(root: ET.Element, prefix: str) -> None:
    draw_raid(root, -12, 0, 16, 0)


def news(data: Mapping[str, Any]) -> frozenset[Hex]:
    """The tiles where a band arrived this month within three steps of a kingdom's
    settlements: ringed on the map."""
    return frozenset(h for h, near in arrived_near(data, _ground(data)).items() if near)


def draw_arrival(parent: ET.Element, x: float, y: float) -> None:
    """A band just arrived near a kingdom's lands: a gold ring, dashed, round the hex."""
    element(
        parent,
        "circle",
        {
            "class": "marauders-arrived",
            "cx": coordinate(x),
            "cy": coordinate(y),
            "r": "21",
            "fill": "none",
            "stroke": _HORDE_LIGHT,
            "stroke-width": "3",
            "stroke-dasharray": "5 3",
        },
    )


def _arrival_symbol(root: ET.Element, prefix: str) -> None:
    draw_arrival(root, 0, 0)


MAP_LAYER = MapLayer(
    option=OPTION,
    marks=marked,
    hex_class="marauders",
    draw=draw_band,
    news=news,
    draw_news=draw_arrival,
    segments=raids,
    draw_segment=draw_raid,
    legend=(
        LegendSymbol("Marauders: a horde that belongs to nobody", _band_symbol, 10),
        LegendSymbol("Where the marauders move this month", _raid_symbol, 16),
        LegendSymbol("Marauders just arrived near a kingdom's lands", _arrival_symbol, 24),
    ),
)

GAIN_NAMES: Mapping[str, str] = {PLUNDER: "plunder from the marauders"}


# --- words -------------------------------------------------------------------------------


def _no_marauders(d: Describer, e: Event) -> Line:
    die = e["dice"][0]
    words = "no band arrived" if die != ARRIVAL_FACE else "a band found nowhere to land"
    return Line(
        f"The marauders' die: {words}.", (Roll(die, f"the marauders' arrival die: {words}"),)
    )


def _arrived(d: Describer, e: Event) -> Line:
    die, *picks = e["dice"]
    band = armies(len(e["armies"]))
    landing = [Roll(p, "where the band lands (a random pick)") for p in picks]
    rolls = (Roll(die, "a 6: a marauder band arrives"), *landing)
    return Line(f"A band of {band} arrived {d.at(e['hex'])}: {d.units(e['armies'])}.", rolls)


def _raid_words(d: Describer, marauder: str, order: Mapping[str, Any]) -> str:
    kind = order.get("order")
    if kind == "move":
        return f"{d.unit(marauder)} moves to {d.place(order['to'])}"
    if kind == "raze":
        return f"{d.unit(marauder)} razes where it stands"
    if kind == "regroup":
        return f"{d.unit(marauder)} stands up"
    return f"{d.unit(marauder)} holds"


def _orders(d: Describer, e: Event) -> Line:
    said = [
        _raid_words(d, m, o) for m, o in sorted(e["orders"].items(), key=lambda i: number(i[0]))
    ]
    return Line(f"The marauders' orders this month: {'; '.join(said)}.")


def _moved_off(d: Describer, e: Event) -> Line:
    return Line(
        f"After the draw {d.units(e['armies'])} fell back {d.names.route(e['from'], e['to'])}."
    )


def _plundered(d: Describer, e: Event) -> Line:
    return Line(
        f"{d.k(e['kingdom'])} plundered {e['gold']} gold from the marauders {d.at(e['hex'])}, "
        "gathered next winter."
    )


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.NO_MARAUDERS: Wording(_no_marauders),
    EventType.MARAUDERS_ARRIVED: Wording(_arrived),
    EventType.MARAUDER_ORDERS: Wording(_orders),
    EventType.MARAUDERS_MOVED_OFF: Wording(_moved_off),
    EventType.PLUNDERED: Wording(_plundered),
}


# --- the battle card ------------------------------------------------------------------------


def horde_note(battle: Fought, side: Side) -> Note | None:
    """Under the horde's side: what it fields (OW5)."""
    if side["kingdom"] != HORDE:
        return None
    return Note(
        f"{armies(len(side['armies']))} of 500 points each, of the marauders' race, Defence 4, never "
        "Defending, no strategy cards of its own; it never concedes",
        (Cite("OW5"),),
    )


def after_battle(event: Mapping[str, Any], hex_: list[int], names: Names) -> str | None:
    """On the card, what the horde's events after its battle do (OW6, OW7)."""
    if event.get("type") == EventType.MARAUDERS_MOVED_OFF and event.get("from") == hex_:
        return f"The marauders fall back to {names.place(event['to'])} (option OW6)."
    if event.get("type") == EventType.PLUNDERED and event.get("hex") == hex_:
        who = names.kingdom(event["kingdom"])
        return f"{who} plunders {event['gold']} gold, gathered next winter (option OW7)."
    return None


CARD_PART = CardPart(option=OPTION, side_note=horde_note, after_battle=after_battle)
