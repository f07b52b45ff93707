"""Option succession (OB5 to OB7) in the app: each ruler's die, a death and its heir with
their dice, a civil war's razed settlement, in the report, the chronicle and the kingdom's
ledger; a kingdom told when its ruler dies (`deaths_told`). The winter page's choice of the
army to disband is `campaign.display.winter_board`'s. A settlement razed in a civil war this winter is marked on the map with a cross."""

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from campaign.display.describing import Describer, Event, Line, Roll, Wording
from campaign.display.mapsvg.layer import LegendSymbol, MapLayer
from campaign.display.svg import coordinate, element
from campaign.gazetteer import Names, possessive
from campaign.rules.hexmap import Hex
from campaign.rules.optional.succession import CIVIL_WAR, DISPUTED, PEACEFUL
from campaign.rules.options import OPTION_ROWS
from campaign.rules.state import Season
from campaign.rules.vocabulary import EventType

OPTION = OPTION_ROWS["succession"].name

HEIR_WORDS: Mapping[str, str] = {
    PEACEFUL: "the heir takes the crown in peace",
    DISPUTED: "the heir's claim is disputed: an army is disbanded",
    CIVIL_WAR: "civil war: an army is disbanded and the farthest settlement razed",
}


def _lived(d: Describer, e: Event) -> Line:
    die = e["dice"][0]
    return Line(
        f"{possessive(d.k(e['kingdom']))} ruler lives on: reign {e['reign']}.",
        (Roll(die, "the ruler's die: lives"),),
    )


def _died(d: Describer, e: Event) -> Line:
    death, heir = e["dice"]
    words = HEIR_WORDS.get(str(e.get("heir")), "")
    return Line(
        f"{possessive(d.k(e['kingdom']))} ruler died after a reign of {e['reign']}: {words}.",
        (Roll(death, "the ruler's die: dies"), Roll(heir, f"the heir's die: {words}")),
    )


def _died_own(d: Describer, e: Event) -> str:
    return (
        f"The ruler died after a reign of {e['reign']}: {HEIR_WORDS.get(str(e.get('heir')), '')}."
    )


def _razed(d: Describer, e: Event) -> Line:
    return Line(
        f"In {possessive(d.k(e['kingdom']))} civil war the {e['settlement']} of {d.place(e['hex'])} was razed."
    )


def _razed_own(d: Describer, e: Event) -> str:
    return f"In the civil war the {e['settlement']} of {d.place(e['hex'])} was razed."


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.RULER_LIVED: Wording(_lived),
    EventType.RULER_DIED: Wording(_died, own=_died_own),
    EventType.CIVIL_WAR_RAZED: Wording(_razed, own=_razed_own),
}


def deaths_told(data: Mapping[str, Any], names: Names) -> dict[str, tuple[str, ...]]:
    """Each kingdom whose ruler died this winter, told what its heir's die brought (and,
    for a disputed heir, that an army is to be disbanded), whether or not it is asked
    anything (app ruling A31)."""
    return {
        e["kingdom"]: (
            f"Your ruler died after a reign of {e['reign']}: "
            f"{HEIR_WORDS.get(str(e.get('heir')), '')} (option OB6).",
        )
        for e in _this_winter(data)
        if e["type"] == EventType.RULER_DIED
    }


def _this_winter(data: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    """The events of this winter, newest first, while the clock stands in one."""
    clock = data["clock"]
    if clock["season"] != Season.WINTER:
        return []
    found = []
    for event in reversed(data["events"]):
        if event["year"] != clock["year"] or event["season"] != Season.WINTER:
            break
        found.append(event)
    return found


def razed_this_winter(data: Mapping[str, Any]) -> dict[Hex, str]:
    """The settlements razed in this winter's civil wars, each with what a tap says."""
    return {
        (e["hex"][0], e["hex"][1]): (
            f"its {e['settlement']} razed this winter in a civil war (option OB6)"
        )
        for e in _this_winter(data)
        if e["type"] == EventType.CIVIL_WAR_RAZED
    }


def draw_razed(parent: ET.Element, x: float, y: float) -> None:
    """A settlement razed: a dark cross over the hex."""
    for dx in (-9, 9):
        element(
            parent,
            "line",
            {
                "class": "razed",
                "x1": coordinate(x - dx),
                "y1": coordinate(y - 9),
                "x2": coordinate(x + dx),
                "y2": coordinate(y + 9),
                "stroke": "#3b2314",
                "stroke-width": "4",
                "stroke-linecap": "round",
            },
        )


def _razed_symbol(root: ET.Element, prefix: str) -> None:
    draw_razed(root, 0, 0)


MAP_LAYER = MapLayer(
    option=OPTION,
    marks=razed_this_winter,
    hex_class="razed",
    draw=draw_razed,
    legend=(LegendSymbol("A settlement razed this winter in a civil war", _razed_symbol, 12),),
)
