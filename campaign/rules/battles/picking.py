"""Summer phase C: battles (rulings B1 to B12). Picking: which battles, in which order,
and the choices left over when the engine stops (B12)."""

from dataclasses import replace

from campaign.rules import optional
from campaign.rules.battles.fights import land_water, naval, pitched, slaughter
from campaign.rules.battles.kinds import (
    NAVAL_NEEDS,
    kind_of_battle,
    naval_possible,
    new_battle,
    opponent_of,
)
from campaign.rules.battles.ledger import (
    AWAITING,
    after,
    awaiting_at,
    consume,
    contested,
    earliest_awaiting,
    pickable,
    this_month,
)
from campaign.rules.battles.reported import restate_awaiting, result_for, settle_awaiting
from campaign.rules.battles.results import (
    another_battle_may_follow,
    choice_refused,
    described,
    entry_field,
    misfit,
    named_in,
    refuse_misfits,
)
from campaign.rules.battles.retreats import settle_retreats
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex
from campaign.rules.state import (
    HORDE,
    Battle,
    BattleInput,
    Campaign,
    PendingKind,
    Season,
    Step,
)
from campaign.rules.turn import Turn


def fight_battles(campaign: Campaign, turn: Turn) -> Campaign:
    """Pick and fight battles until no kingdom can pick (B2); tabletop battles wait for their
    results, which are applied in picking order (B11). An entry that addresses no battle
    is refused (B12)."""
    campaign = _fight_until_waiting(campaign, turn)
    month_over = not turn.pending
    # Ruling B12. Entries are judged here, where the engine stops, and not as the file is
    # read: one file may carry a month's battles and their results (B11), and a result,
    # concession, retreat or next-battle choice for a battle picked later in this same
    # advance is used when that battle comes. When the engine waits, what is left must
    # still address a battle of this month: one awaiting its result at the entry's hex
    # (and fitting it), or a contested tile where one is still to be fought. When the
    # month's battles are over, every entry left addressed none.
    _refuse_unaddressed(campaign, month_over=month_over)
    if not month_over:
        return campaign
    inputs = replace(campaign.inputs, battle_choices={}, battles=(), retreats={})
    return replace(campaign, inputs=inputs, battle_turn=None).at(Step.REFORM)


def _fight_until_waiting(campaign: Campaign, turn: Turn) -> Campaign:
    """Retreats, results and picks, in that order, until the engine must wait for a
    decision (`turn.pending`) or no battle is left to fight this month."""
    while True:
        campaign = settle_retreats(campaign, turn)
        if turn.pending:
            return campaign
        campaign = restate_awaiting(campaign, turn)
        earliest = earliest_awaiting(campaign)
        if earliest is not None:
            campaign, settled = settle_awaiting(campaign, earliest, turn)
            if turn.pending:
                return campaign
            if settled:
                continue
        campaign, picked = _pick_one(campaign, turn)
        if turn.pending:
            return campaign
        if picked:
            continue
        campaign, slaughtered = _horde_slaughter(campaign, turn)
        if slaughtered:
            continue
        awaiting = [b for b in this_month(campaign) if b.status == AWAITING]
        if awaiting:
            _wait_for_results(campaign, awaiting, turn)
        return campaign


def _wait_for_results(campaign: Campaign, awaiting: list[Battle], turn: Turn) -> None:
    """Both players of every battle still waiting for its tabletop result; a battle whose
    result is in only waits for an earlier one (B11)."""
    for battle in awaiting:
        if battle is not awaiting[0] and result_for(campaign, battle) is not None:
            continue
        restated = {"restated": True} if battle.extra.get("restated") else {}
        for side in battle.sides:
            general = optional.result_waits(campaign, battle) if side.kingdom == HORDE else {}
            turn.wait(
                PendingKind.BATTLE_RESULT,
                side.kingdom,
                hex=list(battle.hex),
                **restated,
                **general,
            )


def _pick_one(campaign: Campaign, turn: Turn) -> tuple[Campaign, bool]:
    """Going round in player order from `battle_turn`, the first kingdom that can pick a
    battle picks one and fights it (B2). False if nobody can pick."""
    order = campaign.player_order
    start = order.index(campaign.battle_turn) if campaign.battle_turn in order else 0
    for offset in range(len(order)):
        picker = order[(start + offset) % len(order)]
        tiles = pickable(campaign, picker)
        if not tiles:
            continue
        campaign = replace(campaign, battle_turn=picker)
        hex_ = _chosen_tile(campaign, picker, tiles, turn)
        if hex_ is None:
            # Not mutated: the picker has been asked, so the engine stops either way.
            return campaign, False  # pragma: no mutate
        campaign = _fight(campaign, hex_, picker, turn)
        if turn.pending:
            # Not mutated: a player has been asked, so the engine stops either way.
            return campaign, False  # pragma: no mutate
        return replace(campaign, battle_turn=after(order, picker)), True
    return campaign, False


def _horde_slaughter(campaign: Campaign, turn: Turn) -> tuple[Campaign, bool]:
    """OW5: when picking ends, the first tile ([q, r] order) with the horde and only laid-down
    kingdom units is a slaughter by the horde of the first of those kingdoms in player
    order; picking then resumes. False if there is no such tile."""
    for hex_, units in sorted(contested(campaign).items()):
        kingdoms = {u.kingdom for u in units if u.kingdom != HORDE}
        if HORDE in {u.kingdom for u in units} and not any(
            u.upright for u in units if u.kingdom != HORDE
        ):
            victim = next(k for k in campaign.player_order if k in kingdoms)
            return slaughter(campaign, hex_, HORDE, victim, turn), True
    return campaign, False


def _chosen_tile(campaign: Campaign, picker: str, tiles: list[Hex], turn: Turn) -> Hex | None:
    """The picker's stated preference, else its only tile; with defaults the first in
    [q, r] order; otherwise wait for its choice (B2)."""
    for preferred in campaign.inputs.battle_choices.get(picker, ()):
        if preferred in tiles:
            return preferred
    if len(tiles) == 1 or turn.takes_default(PendingKind.BATTLE_CHOICE, picker):
        return tiles[0]
    turn.wait(PendingKind.BATTLE_CHOICE, picker, choices=[list(h) for h in tiles])
    return None


def _fight(campaign: Campaign, hex_: Hex, picker: str, turn: Turn) -> Campaign:
    """Ruling B3: the kind of battle follows from the upright units of each side. The
    entries for the tile must fit it (B12)."""
    opponent = opponent_of(campaign, hex_, picker)
    kind = kind_of_battle(campaign, hex_, picker, opponent)
    refuse_misfits(campaign, new_battle(campaign, hex_, kind, picker, opponent))
    if kind == "slaughter":
        return slaughter(campaign, hex_, picker, opponent, turn)
    if kind == "pitched":
        return pitched(campaign, hex_, picker, opponent, turn)
    if kind == "naval":
        campaign = consume(campaign, hex_, lambda entry: entry.naval == picker)
        return naval(campaign, hex_, picker, opponent, turn)
    return land_water(campaign, hex_, picker, opponent, turn)


def refuse_entries_out_of_month(campaign: Campaign) -> None:
    """Ruling B12: battle entries stand in a file only in a summer month whose battles are
    not over; at any other step (setup, reform, winter) no battle of the current month is
    left for them to address."""
    clock = campaign.clock
    before_battles_end = (Step.ORDERS, Step.RESOLUTION, Step.BATTLES)
    if clock.season is Season.SUMMER and clock.step in before_battles_end:
        return
    _refuse_unaddressed(campaign, month_over=True)
    for kingdom_id, tiles in campaign.inputs.battle_choices.items():
        if tiles:
            raise RuleError(
                "no-such-battle",
                f"inputs.battle_choices.{kingdom_id}[0]",
                f"{kingdom_id} chose {list(tiles[0])} for its next battle, but no battle is "
                "left to pick this month (ruling B12).",
            )


def _refuse_unaddressed(campaign: Campaign, *, month_over: bool) -> None:
    """Ruling B12: every battle entry, retreat and next-battle choice still in the file must
    be able to address a battle of this month; none may be left when the month's battles
    are over."""
    for entry in campaign.inputs.battles:
        _refuse_unaddressed_entry(campaign, entry, month_over=month_over)
    for unit_id in campaign.inputs.retreats:
        if month_over or not _may_yet_retreat(campaign, unit_id):
            raise RuleError(
                "no-such-battle",
                f"inputs.retreats.{unit_id}",
                f"{unit_id} has no battle of this month to retreat from (ruling B12).",
                unit_id,
            )
    for kingdom_id, tiles in campaign.inputs.battle_choices.items():
        for index, hex_ in enumerate(tiles):
            if not _may_pick(campaign, kingdom_id, hex_, month_over=month_over):
                raise RuleError(
                    "no-such-battle",
                    f"inputs.battle_choices.{kingdom_id}[{index}]",
                    f"{kingdom_id} chose {list(hex_)} for its next battle, but it has no "
                    "battle to pick there this month (ruling B12).",
                )


def _refuse_unaddressed_entry(campaign: Campaign, entry: BattleInput, *, month_over: bool) -> None:
    """An entry at a battle awaiting its result must fit it; one at a contested tile waits
    for the battle still to be fought there; any other addresses no battle."""
    awaiting = None if month_over else awaiting_at(campaign, entry.hex)
    if awaiting is not None and not another_battle_may_follow(campaign, awaiting):
        refusal = misfit(campaign, awaiting, entry)
        if refusal is not None:
            raise refusal
        return
    if not month_over and entry.hex in contested(campaign):
        refusal = _unfit_for_a_battle_to_come(campaign, entry)
        if refusal is not None:
            raise refusal
        return
    raise _addressing_no_battle(campaign, entry)


def _unfit_for_a_battle_to_come(campaign: Campaign, entry: BattleInput) -> RuleError | None:
    """The entry's tile is contested (B1) and its battle still to be fought: the kingdom it
    names must have units there, and a naval battle needs armies and ships on both sides
    (B3). What else it must fit is judged when the battle is picked."""
    named = named_in(entry)
    if named is not None and not any(u.kingdom == named for u in campaign.units_in(entry.hex)):
        return _addressing_no_battle(campaign, entry)
    if entry.naval is not None and not naval_possible(campaign, entry.hex, entry.naval):
        return choice_refused(entry, NAVAL_NEEDS)
    return None


def _addressing_no_battle(campaign: Campaign, entry: BattleInput) -> RuleError:
    at = list(entry.hex)
    fought = [b for b in this_month(campaign) if b.hex == entry.hex]
    named = named_in(entry)
    sides = {kingdom for b in fought for kingdom in (b.attacker, b.defender)}
    if named is not None and named not in sides and (fought or entry.hex in contested(campaign)):
        return RuleError(
            "not-in-battle",
            entry_field(entry),
            f"{described(entry)} addresses no battle: {named} fights none at {at} "
            "this month (ruling B12).",
        )
    when = "the battle there is over" if fought else "none is fought there this month"
    return RuleError(
        "no-such-battle",
        entry_field(entry),
        f"{described(entry)} addresses no battle: {when} (ruling B12).",
    )


def _may_yet_retreat(campaign: Campaign, unit_id: str) -> bool:
    """The unit is retreating, or stands in a contested tile whose battle may send it back
    (a tile whose battle awaits its result is contested too)."""
    unit = campaign.armies.get(unit_id) or campaign.ships.get(unit_id)
    return unit is not None and (unit.retreat is not None or unit.hex in contested(campaign))


def _may_pick(campaign: Campaign, kingdom_id: str, hex_: Hex, *, month_over: bool) -> bool:
    """The kingdom fought a battle at the tile this month, or may still pick one there."""
    fought = any(
        b.hex == hex_ and kingdom_id in (b.attacker, b.defender) for b in this_month(campaign)
    )
    return fought or (not month_over and hex_ in pickable(campaign, kingdom_id))
