"""The campaign file's options, declared once (campaign-file.md, `options`).

Each row names an option, its default (what a file without it means), its bounds or
choices, and the words that explain it. The file format reads and checks options by these
rows, the services fill in and refuse by them, the new-campaign form and the rules page
show them. An optional rule's row (an `OptionRow` with `switch=True`, absent meaning false,
rule OG1 of campaign-options.md) is declared by its module in `campaign.rules.optional`,
with its fields and hooks; this registry gathers them after the file's own options."""

from collections.abc import Mapping
from types import MappingProxyType

from campaign.rules.optional import RULES
from campaign.rules.optional.rule import OptionRow, OptionValue
from campaign.rules.state import BattlesMode, OrdersMode

# The campaign file's own options; the optional rules' rows follow, each from its module.
BASE_OPTIONS: tuple[OptionRow, ...] = (
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
)
OPTIONS: tuple[OptionRow, ...] = (
    *BASE_OPTIONS,
    *(rule.row for rule in RULES),
    *(setting for rule in RULES for setting in rule.settings),
)
OPTION_ROWS: Mapping[str, OptionRow] = MappingProxyType({row.name: row for row in OPTIONS})
# What a file without the option means: an optional rule absent is off (OG1), so the
# campaign's options name only those turned on.
DEFAULTS: Mapping[str, OptionValue] = MappingProxyType(
    {row.name: row.default for row in OPTIONS if not row.switch and not row.needs}
)


# The state fields each optional rule adds to the campaign file, by where they stand, as
# (option, field), each declared by the rule's module: a file holding a field of a rule
# that is off is refused, naming the field (OG1).
def _option_fields() -> dict[str, tuple[tuple[str, str], ...]]:
    fields: dict[str, tuple[tuple[str, str], ...]] = {}
    for rule in RULES:
        for where, keys in rule.fields.items():
            fields[where] = (*fields.get(where, ()), *((rule.row.name, key) for key in keys))
    return fields


OPTION_FIELDS: Mapping[str, tuple[tuple[str, str], ...]] = MappingProxyType(_option_fields())


def switched_on(options: Mapping[str, object]) -> list[OptionRow]:
    """The optional rules a campaign's `options` turn on, in the table's order."""
    return [row for row in OPTIONS if row.switch and options.get(row.name) is True]


def offered() -> list[OptionRow]:
    """The options a group chooses among when it creates a campaign."""
    return [row for row in OPTIONS if row.offered]


def orders_in_cycle(options: Mapping[str, object]) -> bool:
    """Whether a campaign file's options give orders in the cycle (ruling O1)."""
    return options.get("orders") == OrdersMode.CYCLE
