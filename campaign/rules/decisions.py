"""What each kind of pending decision asks, declared once: the `inputs` key that answers
it and the shape of that answer (campaign-file.md, `pending` and `inputs`).

The services read their answers by this table, the bots answer every kind in it, and the
app's words for each kind (campaign.asks) are keyed by the same `PendingKind`: a new kind of
decision is one more row here and one there (tests/rules/test_vocabulary.py holds them to
it)."""

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from campaign.rules.state import PendingKind


class Shape(StrEnum):
    """How an `inputs` key holds its answers."""

    BY_KINGDOM = "by kingdom"  # {kingdom: answer}
    LISTED = "listed"  # [entry, ...], each entry naming what it answers
    BY_UNIT = "by unit"  # {unit: answer}


@dataclass(frozen=True)
class Asked:
    """What a pending decision of one kind asks: `answer`, the `inputs` key that answers
    it, in `shape`; `also`, the keys a kingdom may give while it is asked (while the tile of
    its next battle is asked, B2, a kingdom may choose to fight there at sea, B3)."""

    answer: str
    shape: Shape = Shape.BY_KINGDOM
    also: frozenset[str] = frozenset()


DECISIONS: Mapping[PendingKind, Asked] = MappingProxyType(
    {
        PendingKind.RACE: Asked("races"),
        PendingKind.CAPITAL: Asked("capitals"),
        PendingKind.SETTLEMENTS: Asked("settlements"),
        PendingKind.STARTING_ARMY: Asked("starting_armies"),
        # Nothing about battles is taken with the orders: before they resolve no battle
        # exists to judge an entry by, and one for a battle that never comes would be
        # refused at the advance (ruling B12), pausing the campaign.
        PendingKind.ORDERS: Asked("orders"),
        PendingKind.BATTLE_CHOICE: Asked("battle_choices", also=frozenset({"battles"})),
        PendingKind.LAST_STAND: Asked("battles", Shape.LISTED),
        PendingKind.BATTLE_RESULT: Asked("battles", Shape.LISTED),
        PendingKind.RETREAT: Asked("retreats", Shape.BY_UNIT),
        PendingKind.TITHES: Asked("tithes"),
        PendingKind.PURCHASES: Asked("purchases"),
        PendingKind.FEED: Asked("feed"),
        PendingKind.DEPLOY: Asked("deploy"),
        PendingKind.SUCCESSION: Asked(PendingKind.SUCCESSION.value),  # an army to disband (OB7)
    }
)
# Which `inputs` key answers each kind, and the keys by their shape.
ANSWERS: Mapping[str, str] = MappingProxyType({k: d.answer for k, d in DECISIONS.items()})
ANSWER_KEYS = frozenset(ANSWERS.values())
LISTED = frozenset(d.answer for d in DECISIONS.values() if d.shape is Shape.LISTED)
BY_UNIT = frozenset(d.answer for d in DECISIONS.values() if d.shape is Shape.BY_UNIT)
# What a kingdom may give at any step, asked by no pending decision (the secret honour
# wishes of OB2): final once given and used at the next advance, no part of the draft
# that Ready commits nor of whether a kingdom is ready.
HONOUR_WISHES = "honour_wishes"
STANDING = frozenset({HONOUR_WISHES})


def asked_of(pending: Iterable[Mapping[str, Any]], kingdom: str) -> set[str]:
    """The `inputs` keys that a file's `pending` waits for from this kingdom, with what it
    may also give meanwhile."""
    asked = [DECISIONS[PendingKind(p["kind"])] for p in pending if p["kingdom"] == kingdom]
    return {d.answer for d in asked}.union(*(d.also for d in asked))
