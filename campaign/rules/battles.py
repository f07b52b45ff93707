"""Summer phase C: battles (rulings B1 to B12)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from campaign.rules import artefacts, combat
from campaign.rules.army_limits import limits
from campaign.rules.combat import Side, natural_key
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex, Terrain
from campaign.rules.orders import take_control
from campaign.rules.sieges import siege_of
from campaign.rules.state import (
    Army,
    Battle,
    BattleInput,
    BattleSide,
    BattlesMode,
    BattleStatus,
    Campaign,
    PendingKind,
    Season,
    Settlement,
    Ship,
    Step,
    Unit,
)
from campaign.rules.turn import Turn

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
        campaign = _settle_retreats(campaign, turn)
        if turn.pending:
            return campaign
        campaign = _restate_awaiting(campaign, turn)
        earliest = _earliest_awaiting(campaign)
        if earliest is not None:
            campaign, settled = _settle_awaiting(campaign, earliest, turn)
            if turn.pending:
                return campaign
            if settled:
                continue
        campaign, picked = _pick_one(campaign, turn)
        if turn.pending:
            return campaign
        if picked:
            continue
        awaiting = [b for b in _this_month(campaign) if b.status == AWAITING]
        if awaiting:
            _wait_for_results(campaign, awaiting, turn)
        return campaign


def _wait_for_results(campaign: Campaign, awaiting: list[Battle], turn: Turn) -> None:
    """Both players of every battle still waiting for its tabletop result; a battle whose
    result is in only waits for an earlier one (B11)."""
    for battle in awaiting:
        if battle is not awaiting[0] and _result_for(campaign, battle) is not None:
            continue
        restated = {"restated": True} if battle.extra.get("restated") else {}
        for side in battle.sides:
            turn.wait(PendingKind.BATTLE_RESULT, side.kingdom, hex=list(battle.hex), **restated)


def _this_month(campaign: Campaign) -> list[Battle]:
    clock = campaign.clock
    return [b for b in campaign.battles if b.year == clock.year and b.month == clock.month]


def _earliest_awaiting(campaign: Campaign) -> Battle | None:
    return next((b for b in _this_month(campaign) if b.status == AWAITING), None)


def _entries_for(campaign: Campaign, hex_: Hex) -> list[BattleInput]:
    return [entry for entry in campaign.inputs.battles if entry.hex == hex_]


def _consume(
    campaign: Campaign, hex_: Hex, used: Callable[[BattleInput], bool] = lambda entry: True
) -> Campaign:
    """The battle inputs without those for this tile that have been used."""
    battles = tuple(e for e in campaign.inputs.battles if e.hex != hex_ or not used(e))
    return replace(campaign, inputs=replace(campaign.inputs, battles=battles))


# --- B1, B2: contested tiles and picking ----------------------------------------------------


def contested(campaign: Campaign) -> dict[Hex, list[Unit]]:
    """Ruling B1: tiles holding units of two or more kingdoms, with their units."""
    by_hex: dict[Hex, list[Unit]] = {}
    carried = {ship.carrying for ship in campaign.ships.values() if ship.carrying}
    for army in campaign.armies.values():
        if army.id not in carried:
            by_hex.setdefault(army.hex, []).append(army)
    for ship in campaign.ships.values():
        by_hex.setdefault(ship.hex, []).append(ship)
    return {h: units for h, units in by_hex.items() if len({u.kingdom for u in units}) > 1}


def _pickable(campaign: Campaign, kingdom_id: str) -> list[Hex]:
    """Contested tiles where the kingdom has an upright unit and no battle awaits its result."""
    waiting = {b.hex for b in _this_month(campaign) if b.status == AWAITING}
    return sorted(
        h
        for h, units in contested(campaign).items()
        if h not in waiting and any(u.kingdom == kingdom_id and u.upright for u in units)
    )


def _pick_one(campaign: Campaign, turn: Turn) -> tuple[Campaign, bool]:
    """Going round in player order from `battle_turn`, the first kingdom that can pick a
    battle picks one and fights it (B2). False if nobody can pick."""
    order = campaign.player_order
    start = order.index(campaign.battle_turn) if campaign.battle_turn in order else 0
    for offset in range(len(order)):
        picker = order[(start + offset) % len(order)]
        tiles = _pickable(campaign, picker)
        if not tiles:
            continue
        campaign = replace(campaign, battle_turn=picker)
        hex_ = _chosen_tile(campaign, picker, tiles, turn)
        if hex_ is None:
            return campaign, False
        campaign = _fight(campaign, hex_, picker, turn)
        if turn.pending:
            return campaign, False
        return replace(campaign, battle_turn=_after(order, picker)), True
    return campaign, False


def _after(order: Sequence[str], kingdom_id: str) -> str:
    return order[(order.index(kingdom_id) + 1) % len(order)]


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


def _opponent(campaign: Campaign, hex_: Hex, picker: str) -> str:
    """One with upright units if any; among those, the tile's controller if present; else
    the first in player order (B2)."""
    units = [u for u in campaign.units_in(hex_) if u.kingdom != picker]
    upright = {u.kingdom for u in units if u.upright}
    candidates = upright or {u.kingdom for u in units}
    controller = campaign.owner(hex_)
    if controller in candidates:
        return controller
    return next(k for k in campaign.player_order if k in candidates)


# --- B3 to B9: fighting a battle -----------------------------------------------------------


def _fight(campaign: Campaign, hex_: Hex, picker: str, turn: Turn) -> Campaign:
    """Ruling B3: the kind of battle follows from the upright units of each side. The
    entries for the tile must fit it (B12)."""
    opponent = _opponent(campaign, hex_, picker)
    kind = _kind_of_battle(campaign, hex_, picker, opponent)
    _refuse_misfits(campaign, _new_battle(campaign, hex_, kind, picker, opponent))
    if kind == "slaughter":
        return _slaughter(campaign, hex_, picker, opponent, turn)
    if kind == "pitched":
        return _pitched(campaign, hex_, picker, opponent, turn)
    if kind == "naval":
        campaign = _consume(campaign, hex_, lambda entry: entry.naval == picker)
        return _naval(campaign, hex_, picker, opponent, turn)
    return _land_water(campaign, hex_, picker, opponent, turn)


def _kind_of_battle(campaign: Campaign, hex_: Hex, picker: str, opponent: str) -> str:
    """Ruling B3: a slaughter if the opponent has no upright unit; pitched between upright
    armies, unless both sides also have ships and the picker chose a naval battle; naval
    between ships; else land/water."""
    mine = [u for u in campaign.units_in(hex_) if u.kingdom == picker and u.upright]
    theirs = [u for u in campaign.units_in(hex_) if u.kingdom == opponent and u.upright]
    if not theirs:
        return "slaughter"
    ships_both = bool(_ships(mine) and _ships(theirs))
    if (
        _armies(mine)
        and _armies(theirs)
        and not (ships_both and _naval_chosen(campaign, hex_, picker))
    ):
        return "pitched"
    return "naval" if ships_both else "land_water"


def naval_possible(campaign: Campaign, hex_: Hex, picker: str) -> bool:
    """Ruling B3: the picker may choose a naval battle here, as both it and its opponent
    have upright armies and ships in the tile."""
    opponent = _opponent(campaign, hex_, picker)
    upright = [u for u in campaign.units_in(hex_) if u.upright]
    return all(
        any(isinstance(u, kind) and u.kingdom == side for u in upright)
        for kind in (Army, Ship)
        for side in (picker, opponent)
    )


def _naval_chosen(campaign: Campaign, hex_: Hex, picker: str) -> bool:
    """Ruling B3: with upright armies and ships on both sides, the picker may choose a
    naval battle instead of a pitched one (`{"hex": ..., "naval": picker}`; else pitched)."""
    return any(entry.naval == picker for entry in _entries_for(campaign, hex_))


def _armies(units: Sequence[Unit]) -> list[Army]:
    return [u for u in units if isinstance(u, Army)]


def _ships(units: Sequence[Unit]) -> list[Ship]:
    return [u for u in units if isinstance(u, Ship)]


def _side(campaign: Campaign, hex_: Hex, kingdom_id: str) -> BattleSide:
    """A kingdom's side in a tile, its units in id order whatever the file's order, so a
    side stated again compares equal (B11)."""
    units = sorted(
        (u for u in campaign.units_in(hex_) if u.kingdom == kingdom_id),
        key=lambda u: natural_key(u.id),
    )
    upright_armies = [a for a in _armies(units) if a.upright]
    return BattleSide(
        kingdom=kingdom_id,
        armies=tuple(a.id for a in upright_armies),
        ships=tuple(s.id for s in _ships(units)),
        points=combat.battle_points(len(upright_armies)),
        strategy_cards=campaign.kingdom(kingdom_id).pitched_losses,
        defending=any(a.defending for a in upright_armies),
    )


def _sides(
    campaign: Campaign, hex_: Hex, attacker: str, defender: str
) -> tuple[BattleSide, BattleSide]:
    """Both sides of a battle. With option `common_deck` (OA13) a side draws a strategy card
    per upright army of the other side, besides those it has learned (B6)."""
    sides = (_side(campaign, hex_, attacker), _side(campaign, hex_, defender))
    if not campaign.options.on("common_deck"):
        return sides
    first, second = sides
    return (
        replace(first, strategy_cards=len(second.armies) + first.strategy_cards),
        replace(second, strategy_cards=len(first.armies) + second.strategy_cards),
    )


def _record(campaign: Campaign, battle: Battle, turn: Turn) -> Campaign:
    """Add the battle to the campaign's list, in place of the one that awaited its result
    in this tile, if any, so the list stays in picking order. The event holds the dice
    rolled now: those of the hand-off were recorded with it (ruling D1)."""
    awaiting = _awaiting_at(campaign, battle.hex)
    turn.record(
        "battle",
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
        return _replace_battle(campaign, battle)
    return replace(campaign, battles=(*campaign.battles, battle))


def _awaiting_at(campaign: Campaign, hex_: Hex) -> Battle | None:
    return next((b for b in _this_month(campaign) if b.hex == hex_ and b.status == AWAITING), None)


def _new_battle(campaign: Campaign, hex_: Hex, kind: str, picker: str, opponent: str) -> Battle:
    return Battle(
        year=campaign.clock.year,
        month=campaign.clock.month,
        hex=hex_,
        kind=kind,
        attacker=picker,
        defender=opponent,
        sides=_sides(campaign, hex_, picker, opponent),
    )


def _slaughter(campaign: Campaign, hex_: Hex, picker: str, victim: str, turn: Turn) -> Campaign:
    """Ruling B5: one of the victim's units is removed (the highest id), the rest retreat."""
    battle = _new_battle(campaign, hex_, "slaughter", picker, victim)
    units = [u for u in campaign.units_in(hex_) if u.kingdom == victim]
    removed = max(units, key=lambda u: natural_key(u.id))
    campaign = _destroy(campaign, removed, turn, "slaughtered", picker)
    battle = replace(battle, result="win", winner=picker, extra={"removed": removed.id})
    campaign = _record(campaign, battle, turn)
    return _apply_outcome(campaign, hex_, Outcome((picker, victim), picker), turn)


@dataclass(frozen=True, slots=True)
class BeforeBattle:
    """What ruling B4 settles before a pitched battle is played."""

    conceding: str | None = None
    forced: bool = False
    last_stand: str | None = None


def _pitched(campaign: Campaign, hex_: Hex, picker: str, opponent: str, turn: Turn) -> Campaign:
    """Rulings B4 and B6: a concession, else a pitched battle (handed off, or simple)."""
    battle = _new_battle(campaign, hex_, "pitched", picker, opponent)
    before = _before_battle(campaign, battle, turn)
    if before is None:
        return campaign
    if before.conceding is not None:
        return _concede(campaign, battle, before.conceding, turn, forced=before.forced)
    if before.last_stand is not None:
        battle = replace(battle, last_stand=before.last_stand)
        campaign = _consume(campaign, hex_, lambda e: e.last_stand == before.last_stand)
    if campaign.options.battles is BattlesMode.SIMPLE:
        return _simple(campaign, battle, turn)
    return _hand_off(campaign, battle, turn)


def _before_battle(campaign: Campaign, battle: Battle, turn: Turn) -> BeforeBattle | None:
    """Ruling B4: either side may concede; a side with fewer upright armies must, unless it
    may make a Last Stand and chooses to. None while such a side has not said (with
    defaults it doesn't make one)."""
    entries = _entries_for(campaign, battle.hex)
    sides = (battle.attacker, battle.defender)
    weaker = _weaker_side(battle)
    conceding = next((e.concede for e in entries if e.concede in sides), None)
    if conceding is not None:
        return BeforeBattle(conceding=conceding, forced=conceding == weaker)
    if weaker is None:
        return BeforeBattle()
    if _may_make_last_stand(campaign, battle.hex, weaker):
        if any(e.last_stand == weaker for e in entries):
            return BeforeBattle(last_stand=weaker)
        if not turn.takes_default(PendingKind.LAST_STAND, weaker):
            turn.wait(PendingKind.LAST_STAND, weaker, hex=list(battle.hex))
            return None
    return BeforeBattle(conceding=weaker, forced=True)


def _weaker_side(battle: Battle) -> str | None:
    """The side with fewer upright armies, which must concede (ruling B4)."""
    attacker, defender = battle.sides
    if len(attacker.armies) == len(defender.armies):
        return None
    return attacker.kingdom if len(attacker.armies) < len(defender.armies) else defender.kingdom


def _may_make_last_stand(campaign: Campaign, hex_: Hex, kingdom_id: str) -> bool:
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


def _concede(
    campaign: Campaign, battle: Battle, conceding: str, turn: Turn, *, forced: bool
) -> Campaign:
    """Ruling B4: a loss for the side that concedes, worth no might and no strategy."""
    campaign = _consume_fitting(campaign, battle)
    winner = battle.defender if conceding == battle.attacker else battle.attacker
    battle = replace(
        battle,
        kind="concession",
        status=RESOLVED,
        result="win",
        winner=winner,
        extra={"conceded_by": conceding, "forced": forced},
    )
    campaign = _record(campaign, battle, turn)
    return _apply_outcome(
        campaign, battle.hex, Outcome((battle.attacker, battle.defender), winner), turn
    )


def _hand_off(campaign: Campaign, battle: Battle, turn: Turn) -> Campaign:
    """Ruling B6: everything the two players need for their game of Kings of War; the
    battle then waits for its result."""
    condition_die, scenario_die = turn.roll(), turn.roll()
    scenario = combat.scenario(scenario_die)
    battlefield = campaign.map.battlefield(battle.hex)
    battle = replace(
        _stated(campaign, battle),
        condition=combat.tile_condition(battlefield, condition_die),
        scenario=scenario.name,
        status=AWAITING,
        dice=(condition_die, scenario_die),
        extra={
            "battlefield": str(battlefield),
            "how_to_win": scenario.how_to_win,
            "condition_die": condition_die,
            "scenario_die": scenario_die,
        },
    )
    return _record(campaign, battle, turn)


def _stated(campaign: Campaign, battle: Battle) -> Battle:
    """The board by the larger side, and the defender benefit for the tile's settlement
    if one side's army there Defends (B6)."""
    largest = max(len(side.armies) for side in battle.sides)
    settlement = campaign.settlement(battle.hex)
    defended = any(side.defending for side in battle.sides)
    benefit = combat.defender_benefit(settlement and str(settlement)) if defended else None
    stated = replace(battle, board=combat.board_size(largest), defender_benefit=benefit)
    return _with_options(campaign, stated)


def _with_options(campaign: Campaign, battle: Battle) -> Battle:
    """What optional rules add to a pitched battle handed to the tabletop: each side's
    limits (option `army_limits`, OA2), and the siege (option `sieges`, OA14), whose works
    replace the defended tile's benefit (OA15)."""
    if campaign.options.on("army_limits"):
        battle = _each_side(
            battle, lambda s: replace(s, limits=limits([campaign.armies[a] for a in s.armies]))
        )
    if campaign.options.on("wizards"):
        battle = _each_side(
            battle, lambda s: replace(s, artefacts=_artefacts_on(campaign, s.armies))
        )
    if campaign.options.on("sieges"):
        siege = siege_of(campaign, battle)
        battle = replace(battle, siege=siege)
        if siege is not None:
            battle = replace(battle, defender_benefit=None)
    return battle


def _each_side(battle: Battle, change: Callable[[BattleSide], BattleSide]) -> Battle:
    first, second = battle.sides
    return replace(battle, sides=(change(first), change(second)))


def _artefacts_on(campaign: Campaign, armies: Sequence[str]) -> tuple[str, ...]:
    """The artefacts on these armies (option wizards, OA9): the card shows them to both
    sides, and from then on they are public in the file's battles."""
    return tuple(
        a.name for a in campaign.artefacts if a.holder is not None and a.holder.army in armies
    )


def _as_simple(battle: Battle) -> Battle:
    """A battle the admin settles as a simple battle: no longer a siege, and no lists to
    limit (B7's +1 counts the walls)."""
    bare = _each_side(battle, lambda s: replace(s, limits=None, artefacts=None))
    return replace(bare, kind="simple", siege=None)


def _simple(campaign: Campaign, battle: Battle, turn: Turn) -> Campaign:
    """Ruling B7: a simple land battle between the upright armies of both sides."""
    attacker, defender = battle.sides
    fought = combat.simple_land_battle(
        _defences(campaign, battle.hex, attacker),
        _defences(campaign, battle.hex, defender),
        turn.roll,
    )
    winner = _winner_of(battle, fought.winner)
    battle = replace(
        _as_simple(battle),
        status=RESOLVED,
        result="draw" if winner is None else "win",
        winner=winner,
        dice=(*battle.dice, *fought.dice),
        extra={
            **battle.extra,
            "attacker_dice": list(fought.picker_dice),
            "defender_dice": list(fought.opponent_dice),
            "attacker_hits": fought.picker_hits,
            "defender_hits": fought.opponent_hits,
        },
    )
    campaign = _record(campaign, battle, turn)
    campaign = _taken_in_a_simple_battle(campaign, battle, attacker, defender, fought, turn)
    return _apply_pitched_result(campaign, battle, turn, tabletop=False)


def _taken_in_a_simple_battle(
    campaign: Campaign,
    battle: Battle,
    attacker: BattleSide,
    defender: BattleSide,
    fought: combat.SimpleBattle,
    turn: Turn,
) -> Campaign:
    """Option wizards (OA10): every die goes to one army, the first of the lowest Defence
    on the other side; the winner takes the artefacts on the loser's army so hit."""
    if battle.winner is None:
        return campaign
    won_by_attacker = battle.winner == attacker.kingdom
    loser = defender if won_by_attacker else attacker
    hits = fought.picker_hits if won_by_attacker else fought.opponent_hits
    if not hits:
        return campaign
    defences = _defences(campaign, battle.hex, loser)
    hit = loser.armies[defences.index(min(defences))]
    return artefacts.taken(campaign, [hit], battle.winner, battle.hex, turn)


def _defences(campaign: Campaign, hex_: Hex, side: BattleSide) -> list[int]:
    kingdom = campaign.kingdom(side.kingdom)
    holding = campaign.tiles.get(hex_)
    own = holding is not None and holding.owner == side.kingdom
    return [
        combat.army_defence(
            defends=campaign.armies[army_id].defending,
            own_capital=own and kingdom.capital == hex_,
            own_fortress=own and holding is not None and holding.settlement is Settlement.FORTRESS,
        )
        for army_id in side.armies
    ]


def _winner_of(battle: Battle, side: Side | None) -> str | None:
    if side is None:
        return None
    return battle.attacker if side is Side.PICKER else battle.defender


def _loser_of(battle: Battle, winner: str | None) -> str | None:
    if winner is None:
        return None
    return battle.defender if winner == battle.attacker else battle.attacker


def _naval(campaign: Campaign, hex_: Hex, picker: str, opponent: str, turn: Turn) -> Campaign:
    """Ruling B8: rounds of dice until a side has no ships, or fewer than the other."""
    battle = _new_battle(campaign, hex_, "naval", picker, opponent)
    fleets = [
        [
            combat.NavalShip(s.id, s.carrying is not None)
            for s in _ships(campaign.units_in(hex_))
            if s.kingdom == k and s.upright
        ]
        for k in (picker, opponent)
    ]
    tile = campaign.map.tiles[hex_]
    river = tile.river or tile.terrain is Terrain.LAKE
    fought = combat.naval_battle(fleets[0], fleets[1], river=river, roll=turn.roll)
    winner = _winner_of(battle, fought.winner)
    for naval_round in fought.rounds:
        for ship_id in (*naval_round.picker_sunk, *naval_round.opponent_sunk):
            campaign = _destroy(campaign, campaign.ships[ship_id], turn, "sunk", winner)
    battle = replace(
        battle,
        result="draw" if winner is None else "win",
        winner=winner,
        dice=fought.dice,
        extra={
            "rounds": [
                {
                    "attacker_dice": list(r.picker_dice),
                    "defender_dice": list(r.opponent_dice),
                    "attacker_sunk": list(r.picker_sunk),
                    "defender_sunk": list(r.opponent_sunk),
                }
                for r in fought.rounds
            ]
        },
    )
    campaign = _record(campaign, battle, turn)
    return _apply_outcome(campaign, hex_, Outcome((picker, opponent), winner), turn)


def _land_water(campaign: Campaign, hex_: Hex, picker: str, opponent: str, turn: Turn) -> Campaign:
    """Ruling B9: one die per army or ship (a ship with an army counts 2), totals compared."""
    battle = _new_battle(campaign, hex_, "land_water", picker, opponent)
    counts = [_land_water_dice(campaign, hex_, k) for k in (picker, opponent)]
    fought = combat.land_water_battle(counts[0], counts[1], turn.roll)
    winner = _winner_of(battle, fought.winner)
    battle = replace(
        battle,
        result="draw" if winner is None else "win",
        winner=winner,
        dice=fought.dice,
        extra={"attacker_total": fought.picker_total, "defender_total": fought.opponent_total},
    )
    campaign = _record(campaign, battle, turn)
    return _apply_outcome(campaign, hex_, Outcome((picker, opponent), winner), turn)


def _land_water_dice(campaign: Campaign, hex_: Hex, kingdom_id: str) -> int:
    units = [u for u in campaign.units_in(hex_) if u.kingdom == kingdom_id and u.upright]
    return sum(2 if isinstance(u, Ship) and u.carrying else 1 for u in units)


# --- reported results (B6, B11) --------------------------------------------------------------


def _result_for(campaign: Campaign, battle: Battle) -> BattleInput | None:
    """A concession, a reported result, or the admin's switch to a simple battle, for this
    battle (not one by a third kingdom in the tile, ruling B12)."""
    for entry in _entries_for(campaign, battle.hex):
        settles = entry.concede is not None or entry.result is not None or entry.resolve
        if settles and _of_battle(battle, entry):
            return entry
    return None


def _settle_awaiting(campaign: Campaign, battle: Battle, turn: Turn) -> tuple[Campaign, bool]:
    """The earliest battle awaiting its result (B11). If a re-statement has left a side with
    fewer armies, it must concede or make a Last Stand first (B4); then a reported result
    is applied. False if it still waits. The entries for it must fit it (B12)."""
    _refuse_misfits(campaign, battle)
    weaker = _weaker_side(battle)
    if weaker is not None and battle.last_stand != weaker:
        before = _before_battle(campaign, battle, turn)
        if before is None:
            return campaign, False
        if before.last_stand is not None:
            campaign = _consume(campaign, battle.hex, lambda e: e.last_stand == weaker)
            return _replace_battle(campaign, replace(battle, last_stand=weaker)), True
        assert before.conceding is not None
        campaign = _concede(campaign, battle, before.conceding, turn, forced=before.forced)
        return _resume_after(campaign, battle), True
    entry = _result_for(campaign, battle)
    if entry is None:
        return campaign, False
    return _resume_after(_apply_reported(campaign, battle, entry, turn), battle), True


def _resume_after(campaign: Campaign, battle: Battle) -> Campaign:
    """Picking resumes with the kingdom after the one that picked the battle (B11)."""
    return replace(campaign, battle_turn=_after(campaign.player_order, battle.attacker))


def _apply_reported(campaign: Campaign, battle: Battle, entry: BattleInput, turn: Turn) -> Campaign:
    if entry.concede is not None:
        return _concede(campaign, battle, entry.concede, turn, forced=False)
    campaign = _consume_fitting(campaign, battle)
    if entry.resolve == "simple":
        return _simple(campaign, battle, turn)
    battle = replace(battle, status=RESOLVED, result=entry.result, winner=entry.winner)
    campaign = _record(campaign, battle, turn)
    if entry.captured and battle.winner is not None:  # option wizards (OA10)
        refusal = _capture_refused(battle, entry)
        if refusal is not None:
            raise refusal
        beaten = [s for s in battle.sides if s.kingdom != battle.winner]
        armies = [a for side in beaten for a in side.armies]
        campaign = artefacts.taken(
            campaign, armies, battle.winner, battle.hex, turn, names=entry.captured
        )
    return _apply_pitched_result(campaign, battle, turn, tabletop=True)


def _replace_battle(campaign: Campaign, battle: Battle) -> Campaign:
    battles = tuple(
        battle
        if (b.year, b.month, b.hex, b.status) == (battle.year, battle.month, battle.hex, AWAITING)
        else b
        for b in campaign.battles
    )
    return replace(campaign, battles=battles)


def _restate_awaiting(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling B11: a battle awaiting its result whose units a retreat has changed is
    re-stated (sides, points, strategy cards, board, defender benefit; the condition and
    scenario stand), and whatever was reported for it is set aside."""
    for battle in _this_month(campaign):
        if battle.status != AWAITING:
            continue
        sides = _sides(campaign, battle.hex, battle.attacker, battle.defender)
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
        restated = _stated(campaign, replace(battle, sides=sides))
        restated = replace(restated, extra={**battle.extra, "restated": True})
        campaign = _set_aside(_replace_battle(campaign, restated), battle)
        turn.record(
            "battle-restated",
            hex=list(battle.hex),
            sides={s.kingdom: [*s.armies, *s.ships] for s in sides},
            board=restated.board,
        )
    return campaign


# --- B12: entries that address no battle ---------------------------------------------------

NAVAL_NEEDS = (
    "a naval battle is chosen only where both sides have upright armies and ships (ruling B3)"
)
KIND_WORDS = {
    "slaughter": "a slaughter",
    "naval": "a naval battle",
    "land_water": "a land/water battle",
}


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
    awaiting = None if month_over else _awaiting_at(campaign, entry.hex)
    if awaiting is not None and not _another_battle_may_follow(campaign, awaiting):
        refusal = _misfit(campaign, awaiting, entry)
        if refusal is not None:
            raise refusal
        return
    if not month_over and entry.hex in contested(campaign):
        refusal = _unfit_for_a_battle_to_come(campaign, entry)
        if refusal is not None:
            raise refusal
        return
    raise _addressing_no_battle(campaign, entry)


def _refuse_misfits(campaign: Campaign, battle: Battle) -> None:
    """Every entry at the battle's tile must fit it, unless a third kingdom's units there
    may fight another battle in the tile this month, which the entry may be for (it is
    then judged when the engine stops, or refused when the month ends)."""
    if _another_battle_may_follow(campaign, battle):
        return
    for entry in _entries_for(campaign, battle.hex):
        refusal = _misfit(campaign, battle, entry)
        if refusal is not None:
            raise refusal


def _set_aside(campaign: Campaign, battle: Battle) -> Campaign:
    """Ruling B11: what was reported for a battle now re-stated is set aside."""
    return _consume(campaign, battle.hex, lambda entry: _of_battle(battle, entry))


def _another_battle_may_follow(campaign: Campaign, battle: Battle) -> bool:
    sides = (battle.attacker, battle.defender)
    return any(u.kingdom not in sides for u in campaign.units_in(battle.hex))


def _consume_fitting(campaign: Campaign, battle: Battle) -> Campaign:
    """The battle is settled: the entries that fit it are used up with it."""
    return _consume(campaign, battle.hex, lambda entry: _misfit(campaign, battle, entry) is None)


def _named_in(entry: BattleInput) -> str | None:
    """The kingdom whose choice the entry is (a result's winner); None for a draw or the
    admin's switch to a simple battle."""
    named = (entry.concede, entry.last_stand, entry.naval, entry.winner)
    return next((kingdom for kingdom in named if kingdom is not None), None)


def _of_battle(battle: Battle, entry: BattleInput) -> bool:
    named = _named_in(entry)
    return named is None or named in (battle.attacker, battle.defender)


def _described(entry: BattleInput) -> str:
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


def _entry_field(entry: BattleInput) -> str:
    return f"inputs.battles[{entry.position}]"


def _misfit(campaign: Campaign, battle: Battle, entry: BattleInput) -> RuleError | None:
    """Why the entry can't be for this battle, or None if it can: it must be by one of its
    sides, with a choice the rules allow in it (ruling B12)."""
    at = list(battle.hex)
    if entry.winner is not None and entry.winner not in (battle.attacker, battle.defender):
        return RuleError(
            "winner-not-in-battle",
            _entry_field(entry),
            f"{entry.winner} did not fight the battle at {at}.",
        )
    capture = _capture_refused(battle, entry)
    if capture is not None:
        return capture
    named = _named_in(entry)
    if not _of_battle(battle, entry):
        return RuleError(
            "not-in-battle",
            _entry_field(entry),
            f"{_described(entry)} addresses no battle: {named} is not a side of the battle "
            f"at {at} (ruling B12).",
        )
    why = _not_allowed(campaign, battle, entry)
    return None if why is None else _choice_refused(entry, why)


def _capture_refused(battle: Battle, entry: BattleInput) -> RuleError | None:
    """Option wizards (OA10): a win captures only what the card lists on the beaten side's
    armies (judged as soon as the result is given, not once the battle's turn comes)."""
    if not entry.captured or entry.winner is None:
        return None
    beaten = [s for s in battle.sides if s.kingdom != entry.winner]
    on_the_card = {name for side in beaten for name in side.artefacts or ()}
    strays = [name for name in entry.captured if name not in on_the_card]
    if not strays:
        return None
    return RuleError(
        "capture-not-in-battle",
        f"inputs.battles[{entry.position}].captured",
        f"{', '.join(strays)} was not on the beaten side's armies in the battle at "
        f"{list(battle.hex)}: only what its card lists can be captured (option OA10).",
    )


def _choice_refused(entry: BattleInput, why: str) -> RuleError:
    return RuleError(
        "choice-not-allowed",
        _entry_field(entry),
        f"{_described(entry)} is not a choice the rules allow: {why}.",
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
    if kingdom_id != _weaker_side(battle):
        return (
            f"{kingdom_id} is not outnumbered at {at}, and only the side with fewer upright "
            "armies may make a Last Stand (ruling B4)"
        )
    if not _may_make_last_stand(campaign, battle.hex, kingdom_id):
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
    weaker = _weaker_side(battle)
    if (
        weaker is not None
        and battle.last_stand != weaker
        and not _may_make_last_stand(campaign, battle.hex, weaker)
    ):
        return (
            f"{weaker} is outnumbered at {list(battle.hex)} and must concede, so the battle "
            "is not played (ruling B4)"
        )
    return None


def _unfit_for_a_battle_to_come(campaign: Campaign, entry: BattleInput) -> RuleError | None:
    """The entry's tile is contested (B1) and its battle still to be fought: the kingdom it
    names must have units there, and a naval battle needs armies and ships on both sides
    (B3). What else it must fit is judged when the battle is picked."""
    named = _named_in(entry)
    if named is not None and not any(u.kingdom == named for u in campaign.units_in(entry.hex)):
        return _addressing_no_battle(campaign, entry)
    if entry.naval is not None and not naval_possible(campaign, entry.hex, entry.naval):
        return _choice_refused(entry, NAVAL_NEEDS)
    return None


def _addressing_no_battle(campaign: Campaign, entry: BattleInput) -> RuleError:
    at = list(entry.hex)
    fought = [b for b in _this_month(campaign) if b.hex == entry.hex]
    named = _named_in(entry)
    sides = {kingdom for b in fought for kingdom in (b.attacker, b.defender)}
    if named is not None and named not in sides and (fought or entry.hex in contested(campaign)):
        return RuleError(
            "not-in-battle",
            _entry_field(entry),
            f"{_described(entry)} addresses no battle: {named} fights none at {at} "
            "this month (ruling B12).",
        )
    when = "the battle there is over" if fought else "none is fought there this month"
    return RuleError(
        "no-such-battle",
        _entry_field(entry),
        f"{_described(entry)} addresses no battle: {when} (ruling B12).",
    )


def _may_yet_retreat(campaign: Campaign, unit_id: str) -> bool:
    """The unit is retreating, or stands in a contested tile whose battle may send it back
    (a tile whose battle awaits its result is contested too)."""
    unit = campaign.armies.get(unit_id) or campaign.ships.get(unit_id)
    return unit is not None and (unit.retreat is not None or unit.hex in contested(campaign))


def _may_pick(campaign: Campaign, kingdom_id: str, hex_: Hex, *, month_over: bool) -> bool:
    """The kingdom fought a battle at the tile this month, or may still pick one there."""
    fought = any(
        b.hex == hex_ and kingdom_id in (b.attacker, b.defender) for b in _this_month(campaign)
    )
    return fought or (not month_over and hex_ in _pickable(campaign, kingdom_id))


# --- B10: results ----------------------------------------------------------------------


def _apply_pitched_result(
    campaign: Campaign, battle: Battle, turn: Turn, *, tabletop: bool
) -> Campaign:
    """Might for a pitched battle won on the tabletop; a strategy for its loser (B10)."""
    loser = _loser_of(battle, battle.winner)
    if battle.winner is not None and tabletop:
        winner = campaign.kingdom(battle.winner)
        campaign = campaign.with_kingdom(replace(winner, pitched_wins=winner.pitched_wins + 1))
    if loser is not None:
        beaten = campaign.kingdom(loser)
        campaign = campaign.with_kingdom(replace(beaten, pitched_losses=beaten.pitched_losses + 1))
        turn.record("strategy-learned", kingdom=loser, strategies=beaten.pitched_losses + 1)
    return _apply_outcome(
        campaign, battle.hex, Outcome((battle.attacker, battle.defender), battle.winner), turn
    )


def _apply_outcome(campaign: Campaign, hex_: Hex, outcome: Outcome, turn: Turn) -> Campaign:
    """Ruling B10. Loss: the loser's units retreat and lie down. Draw: units stay if their
    kingdom controls the tile, else retreat upright. Win: the winner takes the tile."""
    if outcome.winner is not None and outcome.loser is not None:
        campaign = _order_retreat(campaign, hex_, outcome.loser, "loss")
        if hex_ in campaign.tiles:
            campaign = take_control(campaign, hex_, outcome.winner, turn)
        return campaign
    for kingdom_id in outcome.sides:
        if campaign.owner(hex_) != kingdom_id:
            campaign = _order_retreat(campaign, hex_, kingdom_id, "draw")
    return campaign


def _order_retreat(campaign: Campaign, hex_: Hex, kingdom_id: str, why: str) -> Campaign:
    for unit in campaign.units_in(hex_):
        if unit.kingdom == kingdom_id:
            campaign = campaign.with_unit(replace(unit, retreat=why))
    return campaign


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


def _settle_retreats(campaign: Campaign, turn: Turn) -> Campaign:
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
            campaign = _destroy(campaign, unit, turn, "no retreat", winner)
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
    turn.record("retreated", unit=unit.id, **{"from": list(unit.hex)}, to=list(to), upright=upright)
    campaign = campaign.with_unit(replace(unit, hex=to, upright=upright, retreat=None))
    if isinstance(unit, Ship) and unit.carrying:
        army = campaign.armies[unit.carrying]
        campaign = campaign.with_army(replace(army, hex=to, upright=army.upright and not lies_down))
    return campaign


def _destroy(campaign: Campaign, unit: Unit, turn: Turn, why: str, winner: str | None) -> Campaign:
    """A unit is removed in a battle that `winner` won (None: nobody); an army aboard a
    sunk or destroyed ship goes down with it. The winner takes the artefacts on the other
    side's lost armies; with no winner they return to the pool (option wizards, OA10)."""
    lost = [unit.id]
    if isinstance(unit, Ship) and unit.carrying:
        lost.append(unit.carrying)
    turn.record("destroyed", units=lost, hex=list(unit.hex), why=why)
    for unit_id in lost:
        campaign = campaign.without_unit(unit_id)
    return artefacts.taken(campaign, lost, winner, unit.hex, turn)


def _victor_at(campaign: Campaign, hex_: Hex, loser: str) -> str | None:
    """The winner of this month's battle at the tile that `loser` lost, if it lost one."""
    won = [b.winner for b in _this_month(campaign) if b.hex == hex_ and b.status == RESOLVED]
    return next((w for w in reversed(won) if w is not None and w != loser), None)
