"""The campaign file (format 1, ../shared/design/campaign-file.md): read, parse, validate,
write.

Everything that reads JSON goes through `campaign.rules.filevalues.Json`, which knows where
in the file it is, so a refusal names the field ("armies[2].hex") and carries a stable
code; `parsing` makes the engine's state of it, `validating` checks what its parts must
agree on, and `writing` makes the file again. An optional rule reads, checks and writes
its own fields (`campaign.rules.optional`); these call it by the fields' place.
"""

from campaign.rules.fileformat.parsing import parse_campaign
from campaign.rules.fileformat.reading import FORMAT, TOP_LEVEL
from campaign.rules.fileformat.validating import validate_state
from campaign.rules.fileformat.writing import dump_battle, dump_campaign, dump_purchase, sort_units
from campaign.rules.filevalues import Json

__all__ = [
    "FORMAT",
    "TOP_LEVEL",
    "Json",
    "dump_battle",
    "dump_campaign",
    "dump_purchase",
    "parse_campaign",
    "sort_units",
    "validate_state",
]
