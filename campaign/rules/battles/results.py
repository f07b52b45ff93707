"""Battles: judging an entry against a battle (ruling B12), and applying a result (B10)."""

from dataclasses import replace

from campaign.rules import optional
from campaign.rules.battles.kinds import KIND_WORDS, NAVAL_NEEDS, may_make_last_stand, weaker_side
from campaign.rules.battles.ledger import AWAITING, Outcome, consume, entries_for, loser_of
from campaign.rules.battles.retreats import destroy
from campaign.rules.combat import natural_key
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex
from campaign.rules.orders import claim_unexplored, take_control
from campaign.rules.state import (
    HORDE,
    Army,
    Battle,
    BattleInput,
    BattlesMode,
    Campaign,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType


def refuse_misfits(campaign: Campaign, battle: Battle) -> None:
    """Every entry at the battle's tile must fit it, unless a third kingdom's units there
    may fight another battle in the tile this month, which the entry may be for (it is
    then judged when the engine stops, or refused when the month ends)."""
    if another_battle_may_follow(campaign, battle):
        return
    for entry in entries_for(campaign, battle.hex):
        refusal = misfit(campaign, battle, entry)
        if refusal is not None:
            raise refusal


def set_aside(campaign: Campaign, battle: Battle) -> Campaign:
    """Ruling B11: what was reported for a battle now re-stated is set aside."""
    return consume(campaign, battle.hex, lambda entry: of_battle(battle, entry))


def another_battle_may_follow(campaign: Campaign, battle: Battle) -> bool:
    sides = (battle.attacker, battle.defender)
    return any(u.kingdom not in sides for u in campaign.units_in(battle.hex))


def consume_fitting(campaign: Campaign, battle: Battle) -> Campaign:
    """The battle is settled: the entries that fit it are used up with it."""
    return consume(campaign, battle.hex, lambda entry: misfit(campaign, battle, entry) is None)


def named_in(entry: BattleInput) -> str | None:
    """The kingdom whose choice the entry is (a result's winner); None for a draw or the
    admin's switch to a simple battle."""
    named = (entry.concede, entry.last_stand, entry.naval, entry.winner)
    return next((kingdom for kingdom in named if kingdom is not None), None)


def of_battle(battle: Battle, entry: BattleInput) -> bool:
    named = named_in(entry)
    return named is None or named in (battle.attacker, battle.defender)


def described(entry: BattleInput) -> str:
    """The entry in words, for a refusal that names it."""
    at = list(entry.hex)
    if entry.concede is not None:
        return f"The concession of {entry.concede} at {at}"
    if entry.last_stand is not None:
        return f"The Last Stand of {entry.last_stand} at {at}"
    if entry.naval is not None:
        return f"The naval battle {entry.naval} chose at {at}"
    if entry.resolve is not None:
        return f"The switch to a simple battle at {at}"
    won = f"a win for {entry.winner}" if entry.winner is not None else "a draw"
    return f"The result reported at {at} ({won})"


def entry_field(entry: BattleInput) -> str:
    return f"inputs.battles[{entry.position}]"


def misfit(campaign: Campaign, battle: Battle, entry: BattleInput) -> RuleError | None:
    """Why the entry can't be for this battle, or None if it can: it must be by one of its
    sides, with a choice the rules allow in it (ruling B12)."""
    at = list(battle.hex)
    if HORDE in (entry.concede, entry.last_stand):
        return choice_refused(entry, "the horde never concedes (option OW5)")
    if entry.winner is not None and entry.winner not in (battle.attacker, battle.defender):
        return RuleError(
            "winner-not-in-battle",
            entry_field(entry),
            f"{entry.winner} did not fight the battle at {at}.",
        )
    capture = optional.result_refused(campaign, battle, entry)
    if capture is not None:
        return capture
    named = named_in(entry)
    if not of_battle(battle, entry):
        return RuleError(
            "not-in-battle",
            entry_field(entry),
            f"{described(entry)} addresses no battle: {named} is not a side of the battle "
            f"at {at} (ruling B12).",
        )
    why = _not_allowed(campaign, battle, entry)
    return None if why is None else choice_refused(entry, why)


def choice_refused(entry: BattleInput, why: str) -> RuleError:
    return RuleError(
        "choice-not-allowed",
        entry_field(entry),
        f"{described(entry)} is not a choice the rules allow: {why}.",
    )


def _not_allowed(campaign: Campaign, battle: Battle, entry: BattleInput) -> str | None:
    """Why the rules don't allow this entry's choice in the battle, or None."""
    if entry.naval is not None:
        return _naval_not_allowed(battle, entry.naval)
    if battle.kind != "pitched":
        kind = KIND_WORDS[battle.kind]
        return f"the battle at {list(battle.hex)} is {kind}, which the dice decide (ruling B3)"
    if entry.last_stand is not None:
        return _last_stand_not_allowed(campaign, battle, entry.last_stand)
    if entry.concede is not None:
        return None
    return _result_not_allowed(campaign, battle)


def _naval_not_allowed(battle: Battle, kingdom_id: str) -> str | None:
    """Ruling B3: only the picker chooses a naval battle, where both sides have upright
    armies and ships, before the battle is fought."""
    at = list(battle.hex)
    if battle.status == AWAITING:
        return (
            f"the battle at {at} is handed off already, and a naval battle is chosen before "
            "(ruling B3)"
        )
    if kingdom_id != battle.attacker:
        return (
            f"only {battle.attacker}, who picked the battle at {at}, may fight it at sea "
            "(ruling B3)"
        )
    return NAVAL_NEEDS if battle.kind != "naval" else None


def _last_stand_not_allowed(campaign: Campaign, battle: Battle, kingdom_id: str) -> str | None:
    """Ruling B4: only the side with fewer upright armies, with no tile of its own beside
    the battle's or in its own fortress held with a Defend order."""
    at = list(battle.hex)
    if battle.last_stand == kingdom_id:
        return None
    if kingdom_id != weaker_side(battle):
        return (
            f"{kingdom_id} is not outnumbered at {at}, and only the side with fewer upright "
            "armies may make a Last Stand (ruling B4)"
        )
    if not may_make_last_stand(campaign, battle.hex, kingdom_id):
        return (
            f"{kingdom_id} controls a tile beside {at} and holds no fortress there with a "
            "Defend order (ruling B4)"
        )
    return None


def _result_not_allowed(campaign: Campaign, battle: Battle) -> str | None:
    """A tabletop result, or the admin's switch to a simple battle, is for a pitched battle
    handed off in a tabletop campaign (B6), not one a side must concede (B4)."""
    if campaign.options.battles is BattlesMode.SIMPLE:
        return "in a simple campaign the dice decide every battle (ruling B6)"
    weaker = weaker_side(battle)
    if (
        weaker is not None
        and battle.last_stand != weaker
        and not may_make_last_stand(campaign, battle.hex, weaker)
    ):
        return (
            f"{weaker} is outnumbered at {list(battle.hex)} and must concede, so the battle "
            "is not played (ruling B4)"
        )
    return None


def apply_pitched_result(
    campaign: Campaign, battle: Battle, turn: Turn, *, tabletop: bool
) -> Campaign:
    """Might for a pitched battle won on the tabletop; a strategy for its loser (B10)."""
    loser = loser_of(battle, battle.winner)
    if battle.winner not in (None, HORDE) and tabletop:
        winner = campaign.kingdom(battle.winner)
        campaign = campaign.with_kingdom(replace(winner, pitched_wins=winner.pitched_wins + 1))
    if loser not in (None, HORDE):
        beaten = campaign.kingdom(loser)
        campaign = campaign.with_kingdom(replace(beaten, pitched_losses=beaten.pitched_losses + 1))
        turn.record(EventType.STRATEGY_LEARNED, kingdom=loser, strategies=beaten.pitched_losses + 1)
    return apply_outcome(
        campaign, battle.hex, Outcome((battle.attacker, battle.defender), battle.winner), turn
    )


def apply_outcome(campaign: Campaign, hex_: Hex, outcome: Outcome, turn: Turn) -> Campaign:
    """Ruling B10. Loss: the loser's units retreat and lie down. Draw: units stay if their
    kingdom controls the tile, else retreat upright. Win: the winner takes the tile, an
    unexplored one unsettled. The horde (OW6): beaten, destroyed; in a draw, off to the
    next tile; winning, it takes nothing."""
    # Not mutated: a loser is named exactly when a winner is (`and` -> `or` is the same test).
    if outcome.winner is not None and outcome.loser is not None:  # pragma: no mutate
        if outcome.loser == HORDE:
            campaign = _horde_destroyed(campaign, hex_, outcome.winner, turn)
        else:
            campaign = _order_retreat(campaign, hex_, outcome.loser, "loss")
        if outcome.winner == HORDE:
            return campaign
        if hex_ in campaign.tiles:
            campaign = take_control(campaign, hex_, outcome.winner, turn)
        elif campaign.map.army_may_enter(hex_):
            campaign = claim_unexplored(campaign, hex_, outcome.winner, turn)
        return campaign
    for kingdom_id in outcome.sides:
        if kingdom_id == HORDE:
            campaign = _horde_moves_off(campaign, hex_, turn)
        elif campaign.owner(hex_) != kingdom_id:
            campaign = _order_retreat(campaign, hex_, kingdom_id, "draw")
    return campaign


def _horde_in(campaign: Campaign, hex_: Hex) -> list[Army]:
    return sorted(
        (a for a in campaign.horde.values() if a.hex == hex_), key=lambda a: natural_key(a.id)
    )


def _horde_destroyed(campaign: Campaign, hex_: Hex, winner: str, turn: Turn) -> Campaign:
    """OW6: every marauder army in the tile is destroyed; OW7: the winner's plunder."""
    beaten = _horde_in(campaign, hex_)
    for army in beaten:
        campaign = destroy(campaign, army, turn, "beaten", winner)
    return optional.horde_beaten(campaign, winner, len(beaten), hex_, turn)


def _horde_moves_off(campaign: Campaign, hex_: Hex, turn: Turn) -> Campaign:
    """OW6: after a draw the horde moves together, upright, to the first tile one step
    away (OG3) with no kingdom's unit; with none, they are destroyed, and nobody won."""
    band = _horde_in(campaign, hex_)
    free = [
        h
        for h in sorted(campaign.map.neighbours(hex_))
        if campaign.one_step(hex_, h) and all(u.kingdom == HORDE for u in campaign.units_in(h))
    ]
    if not free:
        for army in band:
            campaign = destroy(campaign, army, turn, "no retreat", None)
        return campaign
    turn.record(
        EventType.MARAUDERS_MOVED_OFF,
        armies=[a.id for a in band],
        **{"from": list(hex_)},
        to=list(free[0]),
    )
    for army in band:
        campaign = campaign.with_army(replace(army, hex=free[0], upright=True))
    return campaign


def _order_retreat(campaign: Campaign, hex_: Hex, kingdom_id: str, why: str) -> Campaign:
    for unit in campaign.units_in(hex_):
        if unit.kingdom == kingdom_id:
            campaign = campaign.with_unit(replace(unit, retreat=why))
    return campaign
