"""Battles: retreats after a loss or a draw, and units destroyed (ruling B10)."""

from dataclasses import replace

from campaign.rules import optional
from campaign.rules.battles.ledger import RESOLVED, this_month
from campaign.rules.combat import natural_key
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex, Terrain
from campaign.rules.state import (
    Army,
    Campaign,
    PendingKind,
    Ship,
    Unit,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType


def retreat_options(campaign: Campaign, unit: Unit) -> list[Hex]:
    """Adjacent tiles its kingdom controls; ships may also retreat into open water without
    enemy ships (ruling B10)."""
    hexmap = campaign.map
    options: list[Hex] = []
    for h in hexmap.neighbours(unit.hex):
        owned = campaign.owner(h) == unit.kingdom
        if isinstance(unit, Army):
            if owned and hexmap.army_may_move(unit.hex, h):
                options.append(h)
            continue
        if not hexmap.ship_may_move(unit.hex, h):
            continue
        open_water = hexmap.tiles[h].terrain is Terrain.OCEAN and not any(
            isinstance(u, Ship) and u.kingdom != unit.kingdom for u in campaign.units_in(h)
        )
        if owned or open_water:
            options.append(h)
    return sorted(options)


def settle_retreats(campaign: Campaign, turn: Turn) -> Campaign:
    """Move every retreating unit: where its player said, where it must, or by default the
    first tile in [q, r] order; destroyed with nowhere to go (ruling B10)."""
    retreating = sorted(
        (u for u in campaign.units() if u.retreat),
        key=lambda u: natural_key(u.id),
    )
    for unit in retreating:
        options = retreat_options(campaign, unit)
        choice = campaign.inputs.retreats.get(unit.id)
        if choice is not None and choice not in options:
            raise RuleError(
                "bad-retreat",
                f"inputs.retreats.{unit.id}",
                f"{unit.id} can't retreat to {list(choice)}: it may go to {[list(h) for h in options]}.",
                unit.id,
            )
        if not options:
            winner = _victor_at(campaign, unit.hex, unit.kingdom)
            campaign = destroy(campaign, unit, turn, "no retreat", winner)
            continue
        if (
            choice is None
            and len(options) > 1
            and not turn.takes_default(PendingKind.RETREAT, unit.kingdom)
        ):
            turn.wait(
                PendingKind.RETREAT, unit.kingdom, unit=unit.id, choices=[list(h) for h in options]
            )
            continue
        # A choice is used once: the unit may have to retreat again later this month.
        retreats = {u: h for u, h in campaign.inputs.retreats.items() if u != unit.id}
        campaign = replace(campaign, inputs=replace(campaign.inputs, retreats=retreats))
        campaign = _retreat(campaign, unit, choice or options[0], turn)
    return campaign


def _retreat(campaign: Campaign, unit: Unit, to: Hex, turn: Turn) -> Campaign:
    lies_down = unit.retreat == "loss"
    upright = unit.upright and not lies_down
    turn.record(
        EventType.RETREATED, unit=unit.id, **{"from": list(unit.hex)}, to=list(to), upright=upright
    )
    campaign = campaign.with_unit(replace(unit, hex=to, upright=upright, retreat=None))
    if isinstance(unit, Ship) and unit.carrying:
        army = campaign.armies[unit.carrying]
        campaign = campaign.with_army(replace(army, hex=to, upright=army.upright and not lies_down))
    return campaign


def destroy(campaign: Campaign, unit: Unit, turn: Turn, why: str, winner: str | None) -> Campaign:
    """A unit is removed in a battle that `winner` won (None: nobody); an army aboard a
    sunk or destroyed ship goes down with it. The lost armies are beaten by the winner, at
    the optional rules' point (OA10: what they held)."""
    lost = [unit.id]
    if isinstance(unit, Ship) and unit.carrying:
        lost.append(unit.carrying)
    turn.record(EventType.DESTROYED, units=lost, hex=list(unit.hex), why=why)
    for unit_id in lost:
        campaign = campaign.without_unit(unit_id)
    return optional.armies_beaten(campaign, lost, winner, unit.hex, turn)


def _victor_at(campaign: Campaign, hex_: Hex, loser: str) -> str | None:
    """The winner of `loser`'s last battle this month at the tile, if it lost it: none
    after a draw, even when another kingdom won an earlier battle there (OA10: artefacts
    on armies destroyed in a battle nobody won go to the pool)."""
    fought = [
        b
        for b in this_month(campaign)
        if b.hex == hex_ and b.status == RESOLVED and loser in (b.attacker, b.defender)
    ]
    winner = fought[-1].winner if fought else None
    return winner if winner != loser else None
