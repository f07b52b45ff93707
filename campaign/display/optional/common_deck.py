"""Option common_deck (OA12, OA13), as the app shows it: on the battle card, how each
side's strategy cards were counted (OA13), and the set-up steps of one shared Battlefield
deck (OA12). It has nothing on the map."""

from campaign.display.optional.card import CardPart, Cite, Fought, Note, Side
from campaign.rules.options import OPTION_ROWS

# OA12: the set-up steps of one shared Battlefield deck.
ONE_DECK = (
    "Both players use one Battlefield deck, without the Thunderclouds and Unreplenished "
    "Casualties condition cards."
)
OBJECTIVE_CARDS = (
    "Deal each player 2 Objective cards from the deck: each keeps a primary and a secondary, "
    "and reveals the secondary at their own turn 4."
)


def strategy_reckoning(battle: Fought, side: Side) -> Note | None:
    """OA13, at the tabletop: a side's strategy cards are one for each upright army of the
    other side, plus the strategies it has learned from pitched battles lost."""
    others = [other for other in battle.sides if other["kingdom"] != side["kingdom"]]
    if not battle.tabletop or len(battle.sides) != 2 or len(others) != 1:
        return None
    (other,) = others
    armies = len(other["armies"])
    enemy = battle.name(other["kingdom"])
    return Note(
        f"{armies} for the arm{'y' if armies == 1 else 'ies'} of {enemy}, "
        f"{side['strategy_cards'] - armies} learned from pitched battles lost",
        (Cite("OA13"),),
    )


CARD_PART = CardPart(
    option=OPTION_ROWS["common_deck"].name,
    reckoning=strategy_reckoning,
    first_steps=(ONE_DECK,),
    draws_condition=False,
    before_deployment=(OBJECTIVE_CARDS,),
)
