"""Battles: results reported from the tabletop (rulings B6, B11), and battles re-stated
while they await them."""

from dataclasses import replace

from campaign.rules import optional
from campaign.rules.battles.fights import before_battle, concede, simple
from campaign.rules.battles.kinds import both_sides, stated, weaker_side
from campaign.rules.battles.ledger import (
    AWAITING,
    RESOLVED,
    after,
    consume,
    entries_for,
    record,
    replace_battle,
    this_month,
)
from campaign.rules.battles.results import (
    apply_pitched_result,
    consume_fitting,
    of_battle,
    refuse_misfits,
    set_aside,
)
from campaign.rules.errors import RuleError
from campaign.rules.state import (
    Battle,
    BattleInput,
    Campaign,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType


def result_for(campaign: Campaign, battle: Battle) -> BattleInput | None:
    """A concession, a reported result, or the admin's switch to a simple battle, for this
    battle (not one by a third kingdom in the tile, ruling B12)."""
    for entry in entries_for(campaign, battle.hex):
        settles = entry.concede is not None or entry.result is not None or entry.resolve
        if settles and of_battle(battle, entry):
            return entry
    return None


def settle_awaiting(campaign: Campaign, battle: Battle, turn: Turn) -> tuple[Campaign, bool]:
    """The earliest battle awaiting its result (B11). If a re-statement has left a side with
    fewer armies, it must concede or make a Last Stand first (B4); then a reported result
    is applied. False if it still waits. The entries for it must fit it (B12)."""
    refuse_misfits(campaign, battle)
    weaker = weaker_side(battle)
    if weaker is not None and battle.last_stand != weaker:
        before = before_battle(campaign, battle, turn)
        if before is None:
            # Not mutated: before_battle has asked a player, so the engine stops either way.
            return campaign, False  # pragma: no mutate
        if before.last_stand is not None:
            campaign = consume(campaign, battle.hex, lambda e: e.last_stand == weaker)
            return replace_battle(campaign, replace(battle, last_stand=weaker)), True
        assert before.conceding is not None
        campaign = concede(campaign, battle, before.conceding, turn, forced=before.forced)
        return _resume_after(campaign, battle), True
    entry = result_for(campaign, battle)
    if entry is None:
        return campaign, False
    return _resume_after(_apply_reported(campaign, battle, entry, turn), battle), True


def _resume_after(campaign: Campaign, battle: Battle) -> Campaign:
    """Picking resumes with the kingdom after the one that picked the battle (B11)."""
    return replace(campaign, battle_turn=after(campaign.player_order, battle.attacker))


def _apply_reported(campaign: Campaign, battle: Battle, entry: BattleInput, turn: Turn) -> Campaign:
    if entry.concede is not None:
        return concede(campaign, battle, entry.concede, turn, forced=False)
    campaign = consume_fitting(campaign, battle)
    if entry.resolve == "simple":
        return simple(campaign, battle, turn)
    battle = replace(battle, status=RESOLVED, result=entry.result, winner=entry.winner)
    campaign = record(campaign, battle, turn)
    # What the winner names as taken. Not mutated: naming nothing takes nothing (OA10).
    if entry.captured and battle.winner is not None:  # pragma: no mutate
        refusal = optional.result_refused(campaign, battle, entry)
        if refusal is not None:
            raise refusal
        beaten = [s for s in battle.sides if s.kingdom != battle.winner]
        armies = [a for side in beaten for a in side.armies]
        campaign = optional.armies_beaten(
            campaign, armies, battle.winner, battle.hex, turn, names=entry.captured
        )
    return apply_pitched_result(campaign, battle, turn, tabletop=True)


def restate_awaiting(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling B11: a battle awaiting its result whose units a retreat has changed is
    re-stated (sides, points, strategy cards, board, defender benefit; the condition and
    scenario stand), and whatever was reported for it is set aside."""
    for battle in this_month(campaign):
        if battle.status != AWAITING:
            continue
        sides = both_sides(campaign, battle.hex, battle.attacker, battle.defender)
        if [(s.armies, s.ships) for s in sides] == [(s.armies, s.ships) for s in battle.sides]:
            continue
        if battle.kind == "pitched" and not all(side.armies for side in sides):
            # Only a correction or a hand-made file takes every army out of such a tile.
            raise RuleError(
                "battle-without-armies",
                f"battles[{campaign.battles.index(battle)}]",
                f"The pitched battle at {list(battle.hex)} waits for its result, but a side "
                "has no army left in its tile.",
            )
        restated = stated(campaign, replace(battle, sides=sides))
        restated = replace(restated, extra={**battle.extra, "restated": True})
        campaign = set_aside(replace_battle(campaign, restated), battle)
        turn.record(
            EventType.BATTLE_RESTATED,
            hex=list(battle.hex),
            sides={s.kingdom: [*s.armies, *s.ships] for s in sides},
            board=restated.board,
        )
    return campaign
