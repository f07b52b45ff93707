"""Battles: this month's battles as the engine keeps them (picking order, battle inputs,
the tiles contested), shared by every phase."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from campaign.rules.combat import Side
from campaign.rules.hexmap import Hex
from campaign.rules.state import (
    Army,
    Battle,
    BattleInput,
    BattleStatus,
    Campaign,
    Ship,
    Unit,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

AWAITING = BattleStatus.AWAITING_RESULT


RESOLVED = BattleStatus.RESOLVED


@dataclass(frozen=True, slots=True)
class Outcome:
    """The two kingdoms that fought, and who won (None: a draw, or nobody)."""

    sides: tuple[str, str]
    winner: str | None = None

    @property
    def loser(self) -> str | None:
        if self.winner is None:
            return None
        return self.sides[1] if self.winner == self.sides[0] else self.sides[0]


def this_month(campaign: Campaign) -> list[Battle]:
    clock = campaign.clock
    return [b for b in campaign.battles if b.year == clock.year and b.month == clock.month]


def earliest_awaiting(campaign: Campaign) -> Battle | None:
    return next((b for b in this_month(campaign) if b.status == AWAITING), None)


def entries_for(campaign: Campaign, hex_: Hex) -> list[BattleInput]:
    return [entry for entry in campaign.inputs.battles if entry.hex == hex_]


def consume(
    campaign: Campaign, hex_: Hex, used: Callable[[BattleInput], bool] = lambda entry: True
) -> Campaign:
    """The battle inputs without those for this tile that have been used."""
    battles = tuple(e for e in campaign.inputs.battles if e.hex != hex_ or not used(e))
    return replace(campaign, inputs=replace(campaign.inputs, battles=battles))


def contested(campaign: Campaign) -> dict[Hex, list[Unit]]:
    """Ruling B1: tiles holding units of two or more kingdoms, with their units."""
    by_hex: dict[Hex, list[Unit]] = {}
    carried = {ship.carrying for ship in campaign.ships.values() if ship.carrying}
    for unit in campaign.units():
        if unit.id not in carried:
            by_hex.setdefault(unit.hex, []).append(unit)
    return {h: units for h, units in by_hex.items() if len({u.kingdom for u in units}) > 1}


def pickable(campaign: Campaign, kingdom_id: str) -> list[Hex]:
    """Contested tiles where the kingdom has an upright unit and no battle awaits its result."""
    waiting = {b.hex for b in this_month(campaign) if b.status == AWAITING}
    return sorted(
        h
        for h, units in contested(campaign).items()
        if h not in waiting and any(u.kingdom == kingdom_id and u.upright for u in units)
    )


def after(order: Sequence[str], kingdom_id: str) -> str:
    return order[(order.index(kingdom_id) + 1) % len(order)]


def armies_among(units: Sequence[Unit]) -> list[Army]:
    return [u for u in units if isinstance(u, Army)]


def ships_among(units: Sequence[Unit]) -> list[Ship]:
    return [u for u in units if isinstance(u, Ship)]


def record(campaign: Campaign, battle: Battle, turn: Turn) -> Campaign:
    """Add the battle to the campaign's list, in place of the one that awaited its result
    in this tile, if any, so the list stays in picking order. The event holds the dice
    rolled now: those of the hand-off were recorded with it (ruling D1)."""
    awaiting = awaiting_at(campaign, battle.hex)
    turn.record(
        EventType.BATTLE,
        kind=battle.kind,
        hex=list(battle.hex),
        attacker=battle.attacker,
        defender=battle.defender,
        status=battle.status,
        result=battle.result,
        winner=battle.winner,
        dice=list(battle.dice[len(awaiting.dice) :] if awaiting else battle.dice),
    )
    if awaiting is not None:
        return replace_battle(campaign, battle)
    return replace(campaign, battles=(*campaign.battles, battle))


def awaiting_at(campaign: Campaign, hex_: Hex) -> Battle | None:
    return next((b for b in this_month(campaign) if b.hex == hex_ and b.status == AWAITING), None)


def winner_of(battle: Battle, side: Side | None) -> str | None:
    if side is None:
        return None
    return battle.attacker if side is Side.PICKER else battle.defender


def loser_of(battle: Battle, winner: str | None) -> str | None:
    if winner is None:
        return None
    return battle.defender if winner == battle.attacker else battle.attacker


def replace_battle(campaign: Campaign, battle: Battle) -> Campaign:
    battles = tuple(
        battle
        if (b.year, b.month, b.hex, b.status) == (battle.year, battle.month, battle.hex, AWAITING)
        else b
        for b in campaign.battles
    )
    return replace(campaign, battles=battles)
