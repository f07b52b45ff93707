"""Battles: what each kind of battle is (ruling B3) and its card: the sides, board and
defender benefit (B6), and what the optional rules add to it."""

from collections.abc import Callable
from dataclasses import replace

from campaign.rules import combat, optional
from campaign.rules.battles.ledger import armies_among, entries_for, ships_among
from campaign.rules.combat import natural_key
from campaign.rules.hexmap import Hex
from campaign.rules.state import (
    HORDE,
    Army,
    Battle,
    BattleSide,
    Campaign,
    Settlement,
    Ship,
)


def opponent_of(campaign: Campaign, hex_: Hex, picker: str) -> str:
    """One with upright units if any; among those, the tile's controller if present; else
    the first in player order, the horde last (B2, OW1)."""
    units = [u for u in campaign.units_in(hex_) if u.kingdom != picker]
    upright = {u.kingdom for u in units if u.upright}
    candidates = upright or {u.kingdom for u in units}
    controller = campaign.owner(hex_)
    if controller in candidates:
        return controller
    return next(k for k in (*campaign.player_order, HORDE) if k in candidates)


def kind_of_battle(campaign: Campaign, hex_: Hex, picker: str, opponent: str) -> str:
    """Ruling B3: a slaughter if the opponent has no upright unit; pitched between upright
    armies, unless both sides also have ships and the picker chose a naval battle; naval
    between ships; else land/water."""
    mine = [u for u in campaign.units_in(hex_) if u.kingdom == picker and u.upright]
    theirs = [u for u in campaign.units_in(hex_) if u.kingdom == opponent and u.upright]
    if not theirs:
        return "slaughter"
    ships_both = bool(ships_among(mine) and ships_among(theirs))
    if (
        armies_among(mine)
        and armies_among(theirs)
        and not (ships_both and _naval_chosen(campaign, hex_, picker))
    ):
        return "pitched"
    return "naval" if ships_both else "land_water"


def naval_possible(campaign: Campaign, hex_: Hex, picker: str) -> bool:
    """Ruling B3: the picker may choose a naval battle here, as both it and its opponent
    have upright armies and ships in the tile."""
    opponent = opponent_of(campaign, hex_, picker)
    upright = [u for u in campaign.units_in(hex_) if u.upright]
    return all(
        any(isinstance(u, kind) and u.kingdom == side for u in upright)
        for kind in (Army, Ship)
        for side in (picker, opponent)
    )


def _naval_chosen(campaign: Campaign, hex_: Hex, picker: str) -> bool:
    """Ruling B3: with upright armies and ships on both sides, the picker may choose a
    naval battle instead of a pitched one (`{"hex": ..., "naval": picker}`; else pitched)."""
    return any(entry.naval == picker for entry in entries_for(campaign, hex_))


def _side(campaign: Campaign, hex_: Hex, kingdom_id: str) -> BattleSide:
    """A kingdom's side in a tile, its units in id order whatever the file's order, so a
    side stated again compares equal (B11)."""
    units = sorted(
        (u for u in campaign.units_in(hex_) if u.kingdom == kingdom_id),
        key=lambda u: natural_key(u.id),
    )
    upright_armies = [a for a in armies_among(units) if a.upright]
    return BattleSide(
        kingdom=kingdom_id,
        armies=tuple(a.id for a in upright_armies),
        ships=tuple(s.id for s in ships_among(units)),
        points=combat.battle_points(len(upright_armies)),
        strategy_cards=0 if kingdom_id == HORDE else campaign.kingdom(kingdom_id).pitched_losses,
        defending=any(a.defending for a in upright_armies),
    )


def both_sides(
    campaign: Campaign, hex_: Hex, attacker: str, defender: str
) -> tuple[BattleSide, BattleSide]:
    """Both sides of a battle, as the optional rules that are on state them (their strategy
    cards: OA13)."""
    sides = (_side(campaign, hex_, attacker), _side(campaign, hex_, defender))
    return optional.battle_sides(campaign, sides)


def new_battle(campaign: Campaign, hex_: Hex, kind: str, picker: str, opponent: str) -> Battle:
    return Battle(
        year=campaign.clock.year,
        month=campaign.clock.month,
        hex=hex_,
        kind=kind,
        attacker=picker,
        defender=opponent,
        sides=both_sides(campaign, hex_, picker, opponent),
    )


def weaker_side(battle: Battle) -> str | None:
    """The side with fewer upright armies, which must concede (ruling B4); the horde
    outnumbered scatters (OW5)."""
    attacker, defender = battle.sides
    if len(attacker.armies) == len(defender.armies):
        return None
    return attacker.kingdom if len(attacker.armies) < len(defender.armies) else defender.kingdom


def may_make_last_stand(campaign: Campaign, hex_: Hex, kingdom_id: str) -> bool:
    """No adjacent tile it controls, or a fortress it controls here held by one of its
    armies with a Defend order (ruling B4)."""
    if not any(campaign.owner(h) == kingdom_id for h in campaign.map.neighbours(hex_)):
        return True
    holding = campaign.tiles.get(hex_)
    defends = any(
        a.kingdom == kingdom_id and a.defending for a in campaign.armies.values() if a.hex == hex_
    )
    return (
        holding is not None
        and holding.owner == kingdom_id
        and holding.settlement is Settlement.FORTRESS
        and defends
    )


def stated(campaign: Campaign, battle: Battle) -> Battle:
    """The board by the larger side, and the defender benefit for the tile's settlement
    if one side's army there Defends (B6)."""
    largest = max(len(side.armies) for side in battle.sides)
    settlement = campaign.settlement(battle.hex)
    defended = any(side.defending for side in battle.sides)
    benefit = combat.defender_benefit(settlement and str(settlement)) if defended else None
    card = replace(battle, board=combat.board_size(largest), defender_benefit=benefit)
    return optional.battle_card(campaign, card)


def _each_side(battle: Battle, change: Callable[[BattleSide], BattleSide]) -> Battle:
    first, second = battle.sides
    return replace(battle, sides=(change(first), change(second)))


def as_simple(battle: Battle) -> Battle:
    """A battle the admin settles as a simple battle: no longer a siege, and no lists to
    limit (B7's +1 counts the walls)."""
    bare = _each_side(battle, lambda s: replace(s, limits=None, artefacts=None))
    # Not mutated: only a pitched battle at the tabletop writes a siege (OA15).
    return replace(bare, kind="simple", siege=None)  # pragma: no mutate


NAVAL_NEEDS = (
    "a naval battle is chosen only where both sides have upright armies and ships (ruling B3)"
)


KIND_WORDS = {
    "slaughter": "a slaughter",
    "naval": "a naval battle",
    "land_water": "a land/water battle",
}
