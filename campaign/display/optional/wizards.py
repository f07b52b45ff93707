"""Option wizards (OA4 to OA11), as the app shows it: on the map, each Wizard's tower
(OA5), drawn on its hex, and what a tap on it says; in the report, the chronicle and the
winter ledger, its events in words (towers, quests, artefacts taken and returned); on the
battle card, the magical artefacts on each side's armies (OA9, public there: A24)."""

import xml.etree.ElementTree as ET
from collections.abc import Mapping
from typing import Any

from campaign.display.describing import (
    Describer,
    Event,
    Line,
    Roll,
    Voice,
    Wording,
    as_int,
    unit_at,
)
from campaign.display.mapsvg.layer import MapLayer, WordsAt
from campaign.display.mapsvg.palette import OUTLINE
from campaign.display.mapsvg.reading import as_hex
from campaign.display.optional.card import CardPart, Cite, Fought, Note, Side
from campaign.display.svg import coordinate, element
from campaign.rules.hexmap import Hex
from campaign.rules.options import OPTION_ROWS
from campaign.rules.vocabulary import EventType

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


# --- Its events in words ------------------------------------------------------------------------


def _tower_raised(d: Describer, e: Event) -> Line:
    """Option wizards (OA4, OA5)."""
    dice = e["dice"]
    where = d.names.region(e["hex"])
    decided = f"{d.k(e['kingdom'])} exploring {where}: doubles twice, a Wizard's tower"
    return Line(
        f"{d.k(e['kingdom'])} explored new land in {where}: rolled {dice[0]} and {dice[1]}, then "
        f"{dice[2]} and {dice[3]}: doubles twice, and a Wizard's tower rose there; "
        f"{d.unit(e['unit'])} stayed where it was.",
        tuple(Roll(die, decided) for die in dice),
    )


QUEST_OUTCOMES = {
    "lost": "the hero is lost",
    "hurt": "the hero is hurt",
    "nothing": "nothing was found",
    "nothing left": "every artefact of the campaign is held: nothing was found",
}


def _quest(d: Describer, e: Event) -> Line:
    """Option wizards (OA6, OA7): the die, the hero's points, and what was found."""
    bonus = as_int(e.get("points")) // 100
    outcome = QUEST_OUTCOMES.get(e["outcome"]) or f"{e['artefact']} was found"
    who = f"{d.k(e['kingdom'])}'s {e['hero']} ({e['points']} points)"
    die, *picks = e["dice"]
    decided = f"{who} at the tower {d.at(e['tower'])}: {e['result']}, {outcome}"
    picked = f"{who}: the pick among the free artefacts, {e['artefact']}"
    return Line(
        f"{who} went on a quest to the Wizard's tower {d.at(e['tower'])}: rolled "
        f"{die} + {bonus} = {e['result']}: {outcome}.",
        (Roll(die, decided), *(Roll(pick, picked) for pick in picks)),
    )


def _artefact_taken(d: Describer, e: Event) -> Line:
    """Option wizards (OA10)."""
    if e.get("to"):
        return Line(f"{d.k(e['to'])} took {e['artefact']} from {d.k(e['from'])} {d.at(e['hex'])}.")
    return Line(
        f"{e['artefact']}, lost by {d.k(e['from'])} {d.at(e['hex'])}, returned to the pool."
    )


def _artefact_returned(d: Describer, e: Event) -> Line:
    return Line(f"{e['artefact']}, held by {d.k(e['kingdom'])}, returned to the pool.")


def _quest_own(d: Describer, e: Event) -> str:
    """A forecast never tells a die that is still to be rolled: a quest's outcome is its
    die's."""
    went = f"{e['hero']} goes on a quest to the Wizard's tower {d.at(e['tower'])}"
    if d.voice is Voice.FORECAST:
        return f"{went}: a die decides what he finds."
    found = f"finds {e['artefact']}" if e.get("artefact") else QUEST_OUTCOMES[e["outcome"]]
    return f"{went}: {e['result']}, {found}."


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.TOWER_RAISED: Wording(_tower_raised),
    EventType.TOWER_BLOCKED: Wording(
        unit_at("{unit} found a Wizard's tower {at} and stayed where it was.")
    ),
    EventType.QUEST: Wording(_quest, own=_quest_own),
    EventType.ARTEFACT_TAKEN: Wording(_artefact_taken),
    EventType.ARTEFACT_RETURNED: Wording(_artefact_returned),
}


# --- Its part of the battle card ----------------------------------------------------------------


def artefacts(battle: Fought, side: Side) -> Note | None:
    """OA9: the magical artefacts on a side's armies, which the card shows both players
    (app ruling A24)."""
    carried = side.get("artefacts")
    if carried is None:
        return None
    return Note(
        f"Magical artefacts on its armies: {', '.join(carried) if carried else 'none'}",
        (Cite("OA9"), Cite("A24", word="ruling", before="; public once on a card, ")),
    )


CARD_PART = CardPart(option=OPTION_ROWS["wizards"].name, side_note=artefacts)
