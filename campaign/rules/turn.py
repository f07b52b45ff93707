"""One call of the engine: its dice, the events it records, and what it waits for."""

from dataclasses import dataclass, field

from campaign.rules.dice import Dice
from campaign.rules.state import Clock, JsonObject, Pending


@dataclass
class Turn:
    """One call of `advance`: its dice, the events it records and what it waits for."""

    defaults: bool
    dice: Dice
    clock: Clock
    events: list[JsonObject] = field(default_factory=list)
    pending: list[Pending] = field(default_factory=list)

    def roll(self) -> int:
        return self.dice.roll()

    def record(self, type_: str, **detail: object) -> None:
        """An event at the current step, with the dice that decided it (ruling D1)."""
        self.events.append(
            {
                "year": self.clock.year,
                "season": str(self.clock.season),
                "month": self.clock.month,
                "step": str(self.clock.step),
                "type": type_,
                **detail,
            }
        )

    def wait(self, kind: str, kingdom: str, **detail: object) -> None:
        self.pending.append(Pending(kind, kingdom, detail))
