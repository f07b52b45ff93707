"""Battles: fighting each kind (rulings B4 to B9): slaughter, concession, pitched (handed
to the tabletop, or simple), naval and land/water."""

from dataclasses import dataclass, replace

from campaign.rules import combat, optional
from campaign.rules.battles.kinds import (
    as_simple,
    may_make_last_stand,
    new_battle,
    stated,
    weaker_side,
)
from campaign.rules.battles.ledger import (
    AWAITING,
    RESOLVED,
    Outcome,
    consume,
    entries_for,
    record,
    ships_among,
    winner_of,
)
from campaign.rules.battles.results import apply_outcome, apply_pitched_result, consume_fitting
from campaign.rules.battles.retreats import destroy
from campaign.rules.combat import natural_key
from campaign.rules.hexmap import Hex, Terrain
from campaign.rules.state import (
    HORDE,
    Battle,
    BattleSide,
    BattlesMode,
    Campaign,
    PendingKind,
    Settlement,
    Ship,
)
from campaign.rules.turn import Turn


def slaughter(campaign: Campaign, hex_: Hex, picker: str, victim: str, turn: Turn) -> Campaign:
    """Ruling B5: one of the victim's units is removed (the highest id), the rest retreat."""
    battle = new_battle(campaign, hex_, "slaughter", picker, victim)
    units = [u for u in campaign.units_in(hex_) if u.kingdom == victim]
    removed = max(units, key=lambda u: natural_key(u.id))
    campaign = destroy(campaign, removed, turn, "slaughtered", picker)
    battle = replace(battle, result="win", winner=picker, extra={"removed": removed.id})
    campaign = record(campaign, battle, turn)
    return apply_outcome(campaign, hex_, Outcome((picker, victim), picker), turn)


@dataclass(frozen=True, slots=True)
class BeforeBattle:
    """What ruling B4 settles before a pitched battle is played."""

    conceding: str | None = None
    forced: bool = False
    last_stand: str | None = None


def pitched(campaign: Campaign, hex_: Hex, picker: str, opponent: str, turn: Turn) -> Campaign:
    """Rulings B4 and B6: a concession, else a pitched battle (handed off, or simple)."""
    battle = new_battle(campaign, hex_, "pitched", picker, opponent)
    before = before_battle(campaign, battle, turn)
    if before is None:
        return campaign
    if before.conceding is not None:
        return concede(campaign, battle, before.conceding, turn, forced=before.forced)
    if before.last_stand is not None:
        battle = replace(battle, last_stand=before.last_stand)
        campaign = consume(campaign, hex_, lambda e: e.last_stand == before.last_stand)
    if campaign.options.battles is BattlesMode.SIMPLE:
        return simple(campaign, battle, turn)
    return _hand_off(campaign, battle, turn)


def before_battle(campaign: Campaign, battle: Battle, turn: Turn) -> BeforeBattle | None:
    """Ruling B4: either side may concede; a side with fewer upright armies must, unless it
    may make a Last Stand and chooses to. None while such a side has not said (with
    defaults it doesn't make one)."""
    entries = entries_for(campaign, battle.hex)
    sides = (battle.attacker, battle.defender)
    weaker = weaker_side(battle)
    conceding = next((e.concede for e in entries if e.concede in sides), None)
    if conceding is not None:
        return BeforeBattle(conceding=conceding, forced=conceding == weaker)
    if weaker is None:
        return BeforeBattle()
    if weaker == HORDE:  # outnumbered, the horde scatters: no Last Stand (OW5)
        return BeforeBattle(conceding=HORDE, forced=True)
    if may_make_last_stand(campaign, battle.hex, weaker):
        if any(e.last_stand == weaker for e in entries):
            return BeforeBattle(last_stand=weaker)
        if not turn.takes_default(PendingKind.LAST_STAND, weaker):
            turn.wait(PendingKind.LAST_STAND, weaker, hex=list(battle.hex))
            return None
    return BeforeBattle(conceding=weaker, forced=True)


def concede(
    campaign: Campaign, battle: Battle, conceding: str, turn: Turn, *, forced: bool
) -> Campaign:
    """Ruling B4: a loss for the side that concedes, worth no might and no strategy."""
    campaign = consume_fitting(campaign, battle)
    winner = battle.defender if conceding == battle.attacker else battle.attacker
    battle = replace(
        battle,
        kind="concession",
        status=RESOLVED,
        result="win",
        winner=winner,
        extra={"conceded_by": conceding, "forced": forced},
    )
    campaign = record(campaign, battle, turn)
    return apply_outcome(
        campaign, battle.hex, Outcome((battle.attacker, battle.defender), winner), turn
    )


def _hand_off(campaign: Campaign, battle: Battle, turn: Turn) -> Campaign:
    """Ruling B6: everything the two players need for their game of Kings of War; the
    battle then waits for its result."""
    condition_die, scenario_die = turn.roll(), turn.roll()
    scenario = combat.scenario(scenario_die)
    battlefield = campaign.map.battlefield(battle.hex)
    battle = replace(
        stated(campaign, battle),
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
    return record(campaign, battle, turn)


def simple(campaign: Campaign, battle: Battle, turn: Turn) -> Campaign:
    """Ruling B7: a simple land battle between the upright armies of both sides."""
    attacker, defender = battle.sides
    fought = combat.simple_land_battle(
        _defences(campaign, battle.hex, attacker),
        _defences(campaign, battle.hex, defender),
        turn.roll,
    )
    winner = winner_of(battle, fought.winner)
    battle = replace(
        as_simple(battle),
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
    campaign = record(campaign, battle, turn)
    campaign = _taken_in_a_simple_battle(campaign, battle, attacker, defender, fought, turn)
    return apply_pitched_result(campaign, battle, turn, tabletop=False)


def _taken_in_a_simple_battle(
    campaign: Campaign,
    battle: Battle,
    attacker: BattleSide,
    defender: BattleSide,
    fought: combat.SimpleBattle,
    turn: Turn,
) -> Campaign:
    """The army a simple battle's winner hit (OA10: every die goes to one army, the first of
    the lowest Defence on the other side), beaten at the optional rules' point."""
    if battle.winner is None:
        return campaign
    won_by_attacker = battle.winner == attacker.kingdom
    loser = defender if won_by_attacker else attacker
    hits = fought.picker_hits if won_by_attacker else fought.opponent_hits
    if not hits:
        return campaign
    # Not mutated: the tile's +1 is the same for each army of a side; the lowest stays.
    defences = _defences(campaign, battle.hex, loser)  # pragma: no mutate
    hit = loser.armies[defences.index(min(defences))]
    return optional.armies_beaten(campaign, [hit], battle.winner, battle.hex, turn)


def _defences(campaign: Campaign, hex_: Hex, side: BattleSide) -> list[int]:
    """B7's Defence of each army of the side (the horde's: 4 each, OW5)."""
    capital = None if side.kingdom == HORDE else campaign.kingdom(side.kingdom).capital
    holding = campaign.tiles.get(hex_)
    own = holding is not None and holding.owner == side.kingdom
    more = optional.defence(campaign, side.kingdom)  # OB3's veterans
    return [
        more
        + combat.army_defence(
            defends=campaign.army(army_id).defending,
            own_capital=own and capital == hex_,
            own_fortress=own and holding is not None and holding.settlement is Settlement.FORTRESS,
        )
        for army_id in side.armies
    ]


def naval(campaign: Campaign, hex_: Hex, picker: str, opponent: str, turn: Turn) -> Campaign:
    """Ruling B8: rounds of dice until a side has no ships, or fewer than the other."""
    battle = new_battle(campaign, hex_, "naval", picker, opponent)
    fleets = [
        [
            combat.NavalShip(s.id, s.carrying is not None)
            for s in ships_among(campaign.units_in(hex_))
            if s.kingdom == k and s.upright
        ]
        for k in (picker, opponent)
    ]
    tile = campaign.map.tiles[hex_]
    river = tile.river or tile.terrain is Terrain.LAKE
    fought = combat.naval_battle(fleets[0], fleets[1], river=river, roll=turn.roll)
    winner = winner_of(battle, fought.winner)
    for naval_round in fought.rounds:
        for ship_id in (*naval_round.picker_sunk, *naval_round.opponent_sunk):
            campaign = destroy(campaign, campaign.ships[ship_id], turn, "sunk", winner)
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
    campaign = record(campaign, battle, turn)
    return apply_outcome(campaign, hex_, Outcome((picker, opponent), winner), turn)


def land_water(campaign: Campaign, hex_: Hex, picker: str, opponent: str, turn: Turn) -> Campaign:
    """Ruling B9: one die per army or ship (a ship with an army counts 2), totals compared."""
    battle = new_battle(campaign, hex_, "land_water", picker, opponent)
    counts = [_land_water_dice(campaign, hex_, k) for k in (picker, opponent)]
    fought = combat.land_water_battle(counts[0], counts[1], turn.roll)
    winner = winner_of(battle, fought.winner)
    battle = replace(
        battle,
        result="draw" if winner is None else "win",
        winner=winner,
        dice=fought.dice,
        extra={"attacker_total": fought.picker_total, "defender_total": fought.opponent_total},
    )
    campaign = record(campaign, battle, turn)
    return apply_outcome(campaign, hex_, Outcome((picker, opponent), winner), turn)


def _land_water_dice(campaign: Campaign, hex_: Hex, kingdom_id: str) -> int:
    units = [u for u in campaign.units_in(hex_) if u.kingdom == kingdom_id and u.upright]
    return sum(2 if isinstance(u, Ship) and u.carrying else 1 for u in units)
