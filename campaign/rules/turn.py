"""One call of the engine: its dice, the events it records and what it waits for."""

from collections import Counter
from dataclasses import dataclass, field

from campaign.rules.dice import Dice
from campaign.rules.state import Clock, JsonObject, Pending, PendingKind
from campaign.rules.vocabulary import EventType


@dataclass
class Turn:
    """One call of `advance`: its dice, the events it records and what it waits for.

    `defaults` is `--defaults` (every missing decision takes its deadline default);
    `due` is `--defaults-now`: the decisions the campaign waited for when the deadline
    passed, by kind and kingdom, each of which takes its default once."""

    defaults: bool
    dice: Dice
    clock: Clock
    due: Counter[tuple[str, str]] = field(default_factory=Counter)
    events: list[JsonObject] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)

    def roll(self) -> int:
        return self.dice.roll()

    def record(self, type_: EventType, **detail: object) -> None:
        """An event at the current step, with the dice that decided it (ruling D1); its
        type is written as the file's string."""
        self.events.append(
            {
                "year": self.clock.year,
                "season": str(self.clock.season),
                "month": self.clock.month,
                "step": str(self.clock.step),
                "type": type_.value,
                **detail,
            }
        )

    def wait(self, kind: PendingKind, kingdom: str, **detail: object) -> None:
        self.pending.append(Pending(kind, kingdom, detail))

    def takes_default(self, kind: PendingKind, kingdom: str) -> bool:
        """Whether this kingdom's missing decision of this kind takes its deadline default
        instead of being asked for: always with `--defaults`; with `--defaults-now`, if it
        was pending when the deadline passed, once (the next one of its kind is asked for
        again), recorded as a `deadline-default` event."""
        if self.defaults:
            return True
        if self.due[kind, kingdom] <= 0:
            return False
        self.due[kind, kingdom] -= 1
        self.record(EventType.DEADLINE_DEFAULT, kind=kind, kingdom=kingdom)
        return True
