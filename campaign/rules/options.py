"""The campaign file's options, declared once (campaign-file.md, `options`).

Each row names an option, its default (what a file without it means), its bounds or
choices, and the words that explain it. The file format reads and checks options by these
rows, the services fill in and refuse by them, the new-campaign form and the rules page
show them: an optional rule is one more row (an `OptionRow` with `switch=True`, absent
meaning false, rule OG1 of campaign-options.md)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from campaign.rules.state import BattlesMode, OrdersMode

type OptionValue = int | str | bool


@dataclass(frozen=True)
class OptionRow:
    """One option: an int within `low`..`high`, one of `choices` (value -> words), or with
    `switch` a rule turned on or off."""

    name: str
    label: str
    words: str
    default: OptionValue
    low: int | None = None
    high: int | None = None
    choices: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    enum: type[StrEnum] | None = None  # the engine's type of a choice
    switch: bool = False
    # Offered to a group creating a campaign: an optional rule whose pages are not all
    # built yet is played by the engine (and its casebook) but not offered.
    offered: bool = True

    def refusal(self, value: object) -> str | None:
        """What is wrong with `value` for this option, in words; None if it stands."""
        if self.switch:
            return None if type(value) is bool else f"{self.label} is true or false."
        if self.choices:
            allowed = " or ".join(self.choices)
            return None if value in self.choices else f"{self.label} is {allowed}."
        if type(value) is not int:
            return f"{self.label} is a whole number."
        if self.low is not None and value < self.low:
            return f"{self.label} is {self._range()}."
        if self.high is not None and value > self.high:
            return f"{self.label} is {self._range()}."
        return None

    def _range(self) -> str:
        if self.high is None:
            return f"{self.low} or more"
        return f"{self.low} to {self.high}"


OPTIONS: tuple[OptionRow, ...] = (
    OptionRow(
        "years",
        "Years",
        "Each a summer and a winter; the rulebook plays 6.",
        default=6,
        low=1,
        high=20,
    ),
    OptionRow(
        "months",
        "Summer months a year",
        "The rulebook plays 6.",
        default=6,
        low=1,
        high=12,
    ),
    OptionRow(
        "orders",
        "Orders",
        "How the kingdoms give their summer orders (ruling O1).",
        default=OrdersMode.SEALED.value,
        enum=OrdersMode,
        choices=MappingProxyType(
            {
                OrdersMode.SEALED.value: "Sealed: every kingdom gives all its orders in "
                "secret; they resolve together",
                OrdersMode.CYCLE.value: "In turn: one unit at a time in player order, each "
                "order public once given",
            }
        ),
    ),
    OptionRow(
        "battles",
        "Battles",
        "How pitched battles are fought (ruling B6).",
        default=BattlesMode.TABLETOP.value,
        enum=BattlesMode,
        choices=MappingProxyType(
            {
                BattlesMode.TABLETOP.value: "At the tabletop: pitched battles are played as "
                "Kings of War games",
                BattlesMode.SIMPLE.value: "Simple: the app rolls every battle",
            }
        ),
    ),
    OptionRow(
        "seed",
        "Seed",
        "Another seed, another map, and other dice (ruling D1).",
        default=0,
    ),
    OptionRow(
        "army_limits",
        "Army limits by terrain",
        "Monsters and War Engines only from armies raised among mountains, marsh or forest, "
        "and no Kings of War magical artefacts (options OA1 to OA3).",
        default=False,
        switch=True,
    ),
    OptionRow(
        "wizards",
        "Wizard's towers",
        "Towers rise where an exploration rolls doubles twice; heroes quest at them for "
        "magical artefacts (options OA4 to OA11).",
        default=False,
        switch=True,
    ),
    OptionRow(
        "common_deck",
        "One Battlefield deck",
        "Both players of a tabletop battle share one Battlefield deck, and each side's "
        "strategy cards are the enemy's armies plus its own lost pitched battles (options "
        "OA12 and OA13).",
        default=False,
        switch=True,
    ),
    OptionRow(
        "sieges",
        "Siege assaults",
        "A fortress or capital defended by its own kingdom's army is assaulted over towers "
        "and walls at the tabletop (options OA14 and OA15).",
        default=False,
        switch=True,
    ),
)
OPTION_ROWS: Mapping[str, OptionRow] = MappingProxyType({row.name: row for row in OPTIONS})
# What a file without the option means: an optional rule absent is off (OG1), so the
# campaign's options name only those turned on.
DEFAULTS: Mapping[str, OptionValue] = MappingProxyType(
    {row.name: row.default for row in OPTIONS if not row.switch}
)


# The state fields each optional rule adds to the campaign file, by where they stand: a
# file holding a field of a rule that is off is refused, naming the field (OG1).
OPTION_FIELDS: Mapping[str, tuple[tuple[str, str], ...]] = MappingProxyType(
    {
        "": (("wizards", "towers"), ("wizards", "artefacts")),
        "armies[]": (("army_limits", "licence"),),
        "inputs.purchases[]": (("wizards", "quest"), ("wizards", "hero"), ("wizards", "points")),
        "battles[]": (("sieges", "siege"),),
        "battles[].sides[]": (("army_limits", "limits"), ("wizards", "artefacts")),
        "inputs.deploy[]": (("wizards", "artefact"),),
        "inputs.battles[]": (("wizards", "captured"),),
    }
)


def switched_on(options: Mapping[str, object]) -> list[OptionRow]:
    """The optional rules a campaign's `options` turn on, in the table's order."""
    return [row for row in OPTIONS if row.switch and options.get(row.name) is True]


def offered() -> list[OptionRow]:
    """The options a group chooses among when it creates a campaign."""
    return [row for row in OPTIONS if row.offered]


def orders_in_cycle(options: Mapping[str, object]) -> bool:
    """Whether a campaign file's options give orders in the cycle (ruling O1)."""
    return options.get("orders") == OrdersMode.CYCLE
