"""Option `wizards` (campaign-options.md, OA4 to OA6): Wizard's towers rise where an
exploration rolls doubles twice, nobody enters one, and heroes are sent on quests to them."""

import random
from dataclasses import replace
from typing import Any

from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex
from campaign.rules.state import Campaign, Purchase, PurchaseKind, Unit
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType


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
    turn.record(EventType.TOWER_RAISED, unit=unit.id, kingdom=unit.kingdom, hex=list(to), dice=dice)
    return replace(campaign, towers=campaign.towers | {to})


def move_into_tower(campaign: Campaign, unit: Unit, to: Hex, where: str) -> RuleError | None:
    """OA5: no order moves a unit into a Wizard's tower."""
    if to not in campaign.towers:
        return None
    return RuleError(
        "move-into-tower",
        where,
        f"{unit.id} can't enter {list(to)}: nobody enters a Wizard's tower (option OA5).",
        unit.id,
    )


def tower_blocks(campaign: Campaign, unit: Unit, to: Hex, turn: Turn) -> bool:
    """OA5: a tower that rose earlier this month stops a unit moving into it where it is."""
    if to not in campaign.towers:
        return False
    turn.record(EventType.TOWER_BLOCKED, unit=unit.id, kingdom=unit.kingdom, hex=list(to))
    return True


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


def bot_quests(campaign: Campaign, kingdom_id: str, rng: random.Random) -> list[dict[str, Any]]:
    """A bot's quests (OA6): a hero to each Wizard's tower next to the kingdom's tiles,
    while it has an army; each hero a name of his own and his points."""
    if not any(a.kingdom == kingdom_id for a in campaign.armies.values()):
        return []
    kingdom = campaign.kingdom(kingdom_id)
    towers = [
        tower
        for tower in sorted(campaign.towers)
        if any(campaign.owner(h) == kingdom_id for h in campaign.map.neighbours(tower))
    ]
    return [
        {"quest": list(tower), "hero": f"Hero {n} of {kingdom.name}",
         "points": rng.choice((0, 100, 200, 300))}
        for n, tower in enumerate(towers, 1)
    ]  # fmt: skip
