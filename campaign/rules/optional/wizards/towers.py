"""Option `wizards` (campaign-options.md, OA4 to OA6): Wizard's towers rise where an
exploration rolls doubles twice, and heroes are sent on quests to them."""

from dataclasses import replace

from campaign.rules.hexmap import Hex
from campaign.rules.state import Campaign, Purchase, PurchaseKind, Unit
from campaign.rules.turn import Turn


def tower_rises(
    campaign: Campaign, unit: Unit, to: Hex, dice: list[int], turn: Turn
) -> Campaign | None:
    """OA4, OA5: exploration dice that match are followed by two more (kept in `dice`); if
    those match too, a Wizard's tower rises at `to` instead of the first result, and the
    unit stays where it was (as if it had not moved). None: the exploration goes on."""
    if dice[0] != dice[1]:
        return None
    dice += [turn.roll(), turn.roll()]
    if dice[2] != dice[3]:
        return None
    turn.record("tower-raised", unit=unit.id, kingdom=unit.kingdom, hex=list(to), dice=dice)
    return replace(campaign, towers=campaign.towers | {to})


def quest_refusal(
    campaign: Campaign, kingdom_id: str, purchase: Purchase, made: list[tuple[str, Purchase]]
) -> str | None:
    """OA6: a quest is free; it needs a tile of the kingdom's next to the tower, an army,
    and neither that tower nor that hero used by the kingdom this winter."""
    tower = purchase.hex
    assert tower is not None
    if not any(campaign.owner(h) == kingdom_id for h in campaign.map.neighbours(tower)):
        return f"{kingdom_id} controls no tile next to the Wizard's tower at {list(tower)}."
    if not any(a.kingdom == kingdom_id for a in campaign.armies.values()):
        return f"{kingdom_id} has no army to send on a quest."
    for who, earlier in made:
        if who != kingdom_id or earlier.kind is not PurchaseKind.QUEST:
            continue
        if earlier.hex == tower:
            return f"{kingdom_id} has sent a quest to the tower at {list(tower)} this winter."
        if earlier.hero == purchase.hero:
            return f"{purchase.hero} has gone on a quest this winter already."
    return None
