"""Option milestones (OW12 to OW14), as the app shows it: each milestone gained or lost, in
the report, the chronicle and the kingdom's winter ledger. Nothing on the map: the holders
are a matter of the standings."""

from collections.abc import Mapping
from typing import Any

from campaign.display.describing import Describer, Event, Line, Wording
from campaign.rules.optional.milestones import (
    EMPIRE,
    HEAVILY_FORTIFIED,
    LARGEST_KINGDOM,
    MASTER_MERCHANT,
    MILESTONE_MIGHT,
    WARLORD,
)
from campaign.rules.options import OPTION_ROWS
from campaign.rules.vocabulary import EventType

OPTION = OPTION_ROWS["milestones"].name

# Each milestone's name, and what earns it (OW12).
MILESTONE_NAMES: Mapping[str, str] = {
    HEAVILY_FORTIFIED: "Heavily fortified",
    EMPIRE: "Empire",
    LARGEST_KINGDOM: "Largest kingdom",
    MASTER_MERCHANT: "Master merchant",
    WARLORD: "Warlord",
}
EARNED_BY: Mapping[str, str] = {
    HEAVILY_FORTIFIED: "3 fortresses or more",
    EMPIRE: "a capital, and a city on another kingdom's first capital",
    LARGEST_KINGDOM: "12 tiles or more, and strictly the most",
    MASTER_MERCHANT: "5 gold or more gathered this winter, and strictly the most",
    WARLORD: "3 pitched battles won at the tabletop or more, and strictly the most",
}


def _named(e: Event) -> str:
    milestone = str(e.get("milestone"))
    return f"{MILESTONE_NAMES.get(milestone, milestone)} ({EARNED_BY.get(milestone, '')})"


def _gained(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} holds the milestone {_named(e)}: {MILESTONE_MIGHT} might.")


def _lost(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} no longer holds the milestone {_named(e)}.")


def _gained_own(d: Describer, e: Event) -> str:
    return f"Holds the milestone {_named(e)}: {MILESTONE_MIGHT} might."


def _lost_own(d: Describer, e: Event) -> str:
    return f"No longer holds the milestone {_named(e)}."


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.MILESTONE_GAINED: Wording(_gained, own=_gained_own),
    EventType.MILESTONE_LOST: Wording(_lost, own=_lost_own),
}


# --- the standings ---------------------------------------------------------------------------

MIGHT_WORDS = f"{MILESTONE_MIGHT} per milestone held (option OW14)"


def might_source(kingdom: Mapping[str, Any]) -> tuple[str, int]:
    """The might a kingdom's milestones bring (OW14), as a source of its might."""
    return ("milestones", MILESTONE_MIGHT * len(kingdom.get("milestones") or ()))


def standing_notes(kingdom: Mapping[str, Any]) -> tuple[str, ...]:
    """The milestones a kingdom holds, as its line on the leaderboard names them."""
    held = kingdom.get("milestones") or ()
    return tuple(f"{MILESTONE_NAMES.get(str(m), str(m))} (+{MILESTONE_MIGHT})" for m in held)
