"""Option sieges (OA14, OA15), as the app shows it: on the map, no siege works are drawn,
but a fortress or a capital held by its own kingdom says on a tap that it is fortified."""

from collections.abc import Mapping
from typing import Any

from campaign.display.mapsvg.layer import MapLayer
from campaign.display.mapsvg.reading import as_text, by_hex, capitals
from campaign.rules.hexmap import Hex
from campaign.rules.options import OPTION_ROWS

FORTIFIED_WORDS = (
    "fortified: a tabletop battle here while its kingdom's army holds Defend is a siege "
    "assault (option OA14)"
)


def fortified(data: Mapping[str, Any]) -> dict[Hex, str]:
    """The fortresses, and the capitals their own kingdom holds, each with its words."""
    capital_of = capitals(data)
    found: dict[Hex, str] = {}
    for h, holding in by_hex(data.get("tiles")).items():
        owner = as_text(holding.get("owner"))
        if owner and (holding.get("settlement") == "fortress" or capital_of.get(h) == owner):
            found[h] = FORTIFIED_WORDS
    return found


MAP_LAYER = MapLayer(option=OPTION_ROWS["sieges"].name, marks=fortified)
