"""Option army_limits (OA1 to OA3), as the app shows it: on the battle card, under each
side, the points its list may spend on Monsters and War Engines (OA2). Its licences are
on the army lists; it has nothing on the map."""

from campaign.display.optional.card import CardPart, Cite, Fought, Note, Side
from campaign.rules.options import OPTION_ROWS


def limits(battle: Fought, side: Side) -> Note | None:
    """A side's limits (OA2), if the card prints them."""
    spent = side.get("limits")
    if not spent:
        return None
    return Note(
        f"Its list: Monsters up to {spent['monsters']} points, War Engines up to "
        f"{spent['war_engines']} points, and no Kings of War magical artefacts",
        (Cite("OA2"),),
    )


CARD_PART = CardPart(option=OPTION_ROWS["army_limits"].name, side_note=limits)
