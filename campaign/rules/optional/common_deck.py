"""Option `common_deck` (campaign-options.md, OA12 and OA13): both players of a tabletop
battle share one Battlefield deck, and a side draws a strategy card per upright army of the
other side, besides those it has learned (B6). The engine states the count (OA13); the deck
itself is the players'."""

from dataclasses import replace

from campaign.rules.optional.rule import OptionalRule, OptionRow, Sides
from campaign.rules.state import Campaign


def _strategy_cards(campaign: Campaign, sides: Sides) -> Sides:
    """OA13: per side, the other side's upright armies plus its own pitched losses."""
    first, second = sides
    return (
        replace(first, strategy_cards=len(second.armies) + first.strategy_cards),
        replace(second, strategy_cards=len(first.armies) + second.strategy_cards),
    )


RULE = OptionalRule(
    row=OptionRow(
        "common_deck",
        "One Battlefield deck",
        "Both players of a tabletop battle share one Battlefield deck, and each side's "
        "strategy cards are the enemy's armies plus its own lost pitched battles (options "
        "OA12 and OA13).",
        default=False,
        switch=True,
    ),
    battle_sides=_strategy_cards,
)
