"""Option sieges (OA14, OA15), as the app shows it: on the map, no siege works are drawn,
but a fortress or a capital held by its own kingdom says on a tap that it is fortified; on
the battle card of a siege, the besieged and the side assaulting its walls, and the works
set up in place of the defender's benefit."""

from collections.abc import Mapping
from typing import Any

from campaign.display.mapsvg.layer import MapLayer
from campaign.display.mapsvg.reading import as_text, by_hex, capitals
from campaign.display.optional.card import CardPart, Cite, Fact, Fought, Note
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


# --- Its part of the battle card ----------------------------------------------------------------

# OA15: what each kind of works sets up.
WORKS = {
    "stone": "2 stone towers, 2 stone walls, a gate in one wall, and 2 objective markers on "
    "sections (1 victory point each)",
    "wood": "1 wooden tower, 2 wooden walls, a gate, and 1 objective marker on a section",
}


def _where(siege: Mapping[str, Any]) -> str:
    return "fortress" if siege["works"] == "stone" else "capital"


def stance_of(battle: Fought, kingdom: str) -> str | None:
    """A side's part in a siege (OA14): the besieged and the side assaulting its walls,
    whichever of them picked the battle (B2); None for a battle that is no siege."""
    siege = battle.details.get("siege")
    if not siege:
        return None
    return (
        f"besieged in its {_where(siege)}" if kingdom == siege["side"] else "assaulting its walls"
    )


def siege_assault(battle: Fought) -> Fact | None:
    """The siege of a battle, if it is one (OA14, OA15): who is besieged and the works they
    set up in place of the defender's benefit."""
    siege = battle.details.get("siege")
    if not siege:
        return None
    words = (
        f"{battle.name(siege['side'])} is besieged in its {_where(siege)}: instead of the "
        "defender's benefit it sets up, wholly in its own half before the first unit deploys, "
        f"{WORKS[siege['works']]}."
    )
    return Fact("Siege assault", Note(words, (Cite("OA15"),)))


CARD_PART = CardPart(
    option=OPTION_ROWS["sieges"].name, stance=stance_of, instead_of_benefit=siege_assault
)
