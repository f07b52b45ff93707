"""What every wording of an event shares: a die as rolled (`Roll`), an event in words
(`Line`), who it is told to (`Voice`), how one type is worded (`Wording`), and the
`Describer` that puts events into sentences by a table of wordings. The table itself is
`campaign.display.events` (the core game's types) with each optional rule's own
(`campaign.display.optional`).

Pure: no database, no request."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from campaign.gazetteer import Names
from campaign.rules.state import BattleStatus
from campaign.rules.vocabulary import EventType
from campaign.words import capitalised

type Event = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Roll:
    """One D6 as rolled, and what it decided."""

    value: int
    meaning: str


@dataclass(frozen=True, slots=True)
class Line:
    """One event in words, with the dice that decided it; for a battle, its place in the
    file's `battles` list (None if the list has no entry for it)."""

    text: str
    rolls: tuple[Roll, ...] = ()
    battle: int | None = None


class Voice(StrEnum):
    """Who an event is told to, and when."""

    TOLD = "told"  # the report and the chronicle: what happened, to everyone
    LEDGER = "ledger"  # a kingdom's own winter page: what its winter has done to it
    FORECAST = "forecast"  # what its winter list would do: no die still to roll is told


class Describer:
    """Puts events into sentences in one voice; knows the kingdoms' names and the battles
    list, so a battle event can say what each of its dice decided."""

    def __init__(
        self,
        names: Names,
        battles: Sequence[object],
        wordings: Mapping[EventType, "Wording"],
        voice: Voice = Voice.TOLD,
    ) -> None:
        self.names = names
        self.wordings = wordings
        self.voice = voice
        self.battles = [b for b in battles if isinstance(b, Mapping)]
        self.places = {id(b): place for place, b in enumerate(battles)}
        self.seen: dict[tuple[object, ...], int] = {}

    def k(self, kingdom_id: object) -> str:
        return kingdom_name(kingdom_id, self.names)

    def unit(self, unit_id: object) -> str:
        """A unit by its name, with its kingdom's if its player named it."""
        return self.names.unit(unit_id, whose=True)

    def units(self, unit_ids: object) -> str:
        return words_list([self.unit(u) for u in as_list(unit_ids)])

    def place(self, hex_: object) -> str:
        return self.names.place(as_list(hex_))

    def at(self, hex_: object) -> str:
        return self.names.at(as_list(hex_))

    def line(self, event: Event) -> Line:
        """The event in this describer's voice: a kingdom's own words if the event has
        them, else as told to everyone, with every die."""
        kind = str(event.get("type", ""))
        wording = self.wordings.get(EventType(kind)) if kind in EventType else None
        if self.voice is not Voice.TOLD and wording is not None and wording.own is not None:
            return Line(capitalised(wording.own(self, event)))
        try:
            line = wording.told(self, event) if wording else generic_line(event, self.names)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            line = generic_line(event, self.names)  # a malformed event still gets a line
        line = replace(line, text=capitalised(line.text))  # a unit's name may begin it
        dice = [die for die in as_list(event.get("dice")) if isinstance(die, int)]
        if [roll.value for roll in line.rolls] != dice:  # every die is shown, whatever it did
            line = replace(line, rolls=generic_line(event).rolls)
        return line

    def place_of(self, entry: Mapping[str, Any] | None) -> int | None:
        """Where a battles-list entry stands in the list."""
        return None if entry is None else self.places.get(id(entry))

    def battle_entry(self, event: Event) -> Mapping[str, Any] | None:
        """The battles-list entry an event speaks of: a hand-off by its dice, a resolved
        battle by its place among the resolved battles of its kind in that tile."""
        here = [
            b
            for b in self.battles
            if (as_int(b.get("year")), as_int(b.get("month")), list(b.get("hex") or []))
            == (as_int(event.get("year")), as_int(event.get("month")), list(event["hex"]))
        ]
        dice = list(event.get("dice") or [])
        if event.get("status") == BattleStatus.AWAITING_RESULT:
            return next((b for b in here if list(b.get("dice") or [])[: len(dice)] == dice), None)
        key = (event.get("year"), event.get("month"), tuple(event["hex"]), event.get("kind"))
        nth = self.seen.get(key, 0)
        self.seen[key] = nth + 1
        same = [b for b in here if b.get("kind") == event.get("kind")]
        return same[nth] if nth < len(same) else None


@dataclass(frozen=True, slots=True)
class Wording:
    """How an event is worded: `told` to everyone (the report, the chronicle), and, for a
    kingdom's winter, `own` on its winter page (None: it reads as told); `everyone`, an
    event of no kingdom's that every kingdom's winter page tells (the year's die)."""

    told: Callable[[Describer, Event], Line]
    own: Callable[[Describer, Event], str] | None = None
    everyone: bool = False


def generic_line(event: Event, names: Names | None = None) -> Line:
    kind = str(event.get("type") or "event")
    names = names if names is not None else Names()
    details = ", ".join(
        f"{key} {value_words(value, names)}"
        for key, value in event.items()
        if key not in ("year", "season", "month", "step", "type", "dice")
    )
    dice = [d for d in as_list(event.get("dice")) if isinstance(d, int)]
    rolls = tuple(Roll(d, f"a die for {kind}") for d in dice)
    return Line(f"{kind.replace('-', ' ').capitalize()}{': ' + details if details else ''}.", rolls)


def unit_at(text: str) -> Callable[[Describer, Event], Line]:
    def describe(d: Describer, e: Event) -> Line:
        return Line(text.format(unit=d.unit(e["unit"]), at=d.at(e["hex"])))

    return describe


def as_list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def as_mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def as_int(value: object) -> int:
    return value if isinstance(value, int) else 0


def kingdom_name(kingdom_id: object, names: Names) -> str:
    return names.kingdom(kingdom_id)


def counted(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def words_list(items: Sequence[str]) -> str:
    return ", ".join(str(item) for item in items)


def value_words(value: object, names: Names) -> str:
    """A value of an event in words: a hex as its place, a unit's or a kingdom's id as its
    name."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return names.place(value)
    if isinstance(value, list):
        return words_list([value_words(v, names) for v in value])
    if isinstance(value, Mapping):
        return "; ".join(f"{names.kingdom(k)} {value_words(v, names)}" for k, v in value.items())
    if isinstance(value, str) and (value in names or names.owner(value)):
        return names.kingdom(value) if value in names else names.unit(value, whose=True)
    return str(value)
