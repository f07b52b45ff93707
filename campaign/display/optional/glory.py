"""Option glory (OB1 to OB4) in the app: glory won and taken, and honours claimed, in the
report, the chronicle and the ledger; the honours' gains in a gathering; the honours and
glory on the leaderboard's line of each kingdom and in its might by source; the kingdom
page's honours, who holds each and what it does, and the kingdom's secret wishes, shown to
its own player alone. Nothing on the map."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.display.describing import Describer, Event, Line, Wording
from campaign.rules.optional.glory import (
    CHRONICLERS,
    CHRONICLERS_MIGHT,
    GRANARIES,
    HONOUR_MIGHT,
    HONOURS,
    MASTER_MASONS,
    ROYAL_MINT,
    STRATEGISTS,
    TO_CLAIM,
    VETERANS,
    WAR_COLLEGE,
    worth,
)
from campaign.rules.options import OPTION_ROWS
from campaign.rules.vocabulary import EventType

OPTION = OPTION_ROWS["glory"].name

# Each honour's name and what it does (OB3).
HONOUR_NAMES: Mapping[str, str] = {
    GRANARIES: "Granaries",
    ROYAL_MINT: "Royal mint",
    WAR_COLLEGE: "War college",
    VETERANS: "Veterans",
    STRATEGISTS: "Strategists",
    MASTER_MASONS: "Master masons",
    CHRONICLERS: "Chroniclers",
}
HONOUR_WORDS: Mapping[str, str] = {
    GRANARIES: "1 food more at every gather",
    ROYAL_MINT: "1 gold more at every gather",
    WAR_COLLEGE: "one army a winter raised in the capital, as in a fortress",
    VETERANS: "its armies' Defence +1 in simple land battles",
    STRATEGISTS: "1 strategy card more in tabletop pitched battles",
    MASTER_MASONS: "a village made a fortress for 1 gold",
    CHRONICLERS: "2 might more",
}
WHY: Mapping[str, str] = {
    "built": "for building",
    "explored": "for a settlement found exploring",
    "horde": "for a battle won against the marauders",
    "conquest": "for a conquest",
}
GAIN_NAMES: Mapping[str, str] = {GRANARIES: "the granaries", ROYAL_MINT: "the royal mint"}


def honour_named(honour: str) -> str:
    return f"{HONOUR_NAMES.get(honour, honour)} ({HONOUR_WORDS.get(honour, '')})"


def _gained(d: Describer, e: Event) -> Line:
    where = f" {d.at(e['hex'])}" if e.get("hex") else ""
    return Line(
        f"{d.k(e['kingdom'])} won a glory {WHY.get(str(e.get('why')), '')}{where}: "
        f"{e['glory']} glory."
    )


def _gained_own(d: Describer, e: Event) -> str:
    return f"A glory {WHY.get(str(e.get('why')), '')}: {e['glory']} glory."


def _lost(d: Describer, e: Event) -> Line:
    return Line(
        f"{d.k(e['to'])} took glory from {d.k(e['kingdom'])} {d.at(e['hex'])}: "
        f"{d.k(e['kingdom'])} has {e['glory']} left."
    )


def _claimed(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} claimed the honour {honour_named(str(e['honour']))}.")


def _claimed_own(d: Describer, e: Event) -> str:
    return f"Claimed the honour {honour_named(str(e['honour']))}."


EVENT_WORDINGS: Mapping[EventType, Wording] = {
    EventType.GLORY_GAINED: Wording(_gained, own=_gained_own),
    EventType.GLORY_LOST: Wording(_lost),
    EventType.HONOUR_CLAIMED: Wording(_claimed, own=_claimed_own),
}


# --- the standings ---------------------------------------------------------------------------

MIGHT_WORDS = (
    f"{HONOUR_MIGHT} per honour held ({CHRONICLERS_MIGHT} for the chroniclers), and once every "
    f"honour is claimed {HONOUR_MIGHT} per {TO_CLAIM} glory (option OB4)"
)


def might_source(kingdom: Mapping[str, Any]) -> tuple[str, int]:
    """The might a kingdom's honours and glory bring (OB4). Glory of 5 or more stands only
    once every honour is claimed (OB2), when each full 5 is worth 2."""
    honours = [str(h) for h in kingdom.get("honours") or ()]
    return ("honours", worth(honours, int(kingdom.get("glory") or 0) // TO_CLAIM))


def standing_notes(kingdom: Mapping[str, Any]) -> tuple[str, ...]:
    """A kingdom's glory and its honours, as its line on the leaderboard names them."""
    honours = tuple(HONOUR_NAMES.get(str(h), str(h)) for h in kingdom.get("honours") or ())
    return (f"Glory {int(kingdom.get('glory') or 0)}", *honours)


# --- the kingdom page --------------------------------------------------------------------------


@dataclass(frozen=True)
class Honour:
    """One honour as the kingdom page lists it: `holder`, the kingdom holding it by name
    ("" while unclaimed); `yours`, held by the page's own kingdom."""

    id: str
    name: str
    words: str
    holder: str
    yours: bool


@dataclass(frozen=True)
class Honours:
    """A kingdom's glory, every honour in OB3's order (`table`), the kingdom's own, its
    wishes in its order and the honours it has not wished for; `all_claimed`: glory then
    counts on for might (OB2, OB4)."""

    glory: int
    table: tuple[Honour, ...]
    held: tuple[Honour, ...]
    wishes: tuple[Honour, ...]
    others: tuple[Honour, ...]
    all_claimed: bool
    to_claim: int = TO_CLAIM


def kingdom_honours(
    data: Mapping[str, Any], kingdom_id: str, wishes: Sequence[str], kingdom: Callable[[str], str]
) -> Honours:
    """The kingdom page's honours for `kingdom_id`, its `wishes` as it last gave them (a
    list not yet applied, or the file's), other kingdoms named by `kingdom`."""
    holders = {h: k["id"] for k in data["kingdoms"] for h in k.get("honours") or ()}
    rows = {
        h: Honour(
            h,
            HONOUR_NAMES[h],
            HONOUR_WORDS[h],
            kingdom(holders[h]) if h in holders else "",
            holders.get(h) == kingdom_id,
        )
        for h in HONOURS
    }
    own = next(k for k in data["kingdoms"] if k["id"] == kingdom_id)
    return Honours(
        glory=int(own.get("glory") or 0),
        table=tuple(rows.values()),
        held=tuple(rows[h] for h in HONOURS if holders.get(h) == kingdom_id),
        wishes=tuple(rows[w] for w in wishes if w in rows),
        others=tuple(rows[h] for h in HONOURS if h not in wishes),
        all_claimed=len(holders) == len(HONOURS),
    )
