"""Player order: roll-offs (ruling D2), the random order at setup (S2) and the order by
armies at Reform (R3)."""

from collections.abc import Sequence
from itertools import groupby

from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType


def roll_off(kingdoms: Sequence[str], turn: Turn, why: str) -> list[str]:
    """The kingdoms, highest roll first. Each rolls one die in the order given; those
    still tied roll again among themselves, the same way (ruling D2)."""
    if len(kingdoms) < 2:
        return list(kingdoms)
    rolls = {kingdom: turn.roll() for kingdom in kingdoms}
    turn.record(EventType.ROLL_OFF, why=why, kingdoms=list(kingdoms), dice=list(rolls.values()))
    order: list[str] = []
    by_roll = sorted(kingdoms, key=lambda kingdom: -rolls[kingdom])  # stable: keeps given order
    for _, tied in groupby(by_roll, key=lambda kingdom: rolls[kingdom]):
        order.extend(roll_off(list(tied), turn, why))
    return order


def order_by_count(counts: dict[str, int], current: Sequence[str], turn: Turn) -> list[str]:
    """Most first; ties broken by a roll-off in the current order (rulings R3, D2)."""
    ranked = sorted(current, key=lambda kingdom: -counts[kingdom])
    order: list[str] = []
    for count, tied in groupby(ranked, key=lambda kingdom: counts[kingdom]):
        order.extend(roll_off(list(tied), turn, f"player order: tied on {count} armies"))
    return order
