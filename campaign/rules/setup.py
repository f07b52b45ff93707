"""Setup, steps A to E of the rulebook's Initial Kingdom, with rulings S1 to S4 and D2."""

from collections.abc import Mapping
from dataclasses import replace

from campaign.rules import optional
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex
from campaign.rules.players import roll_off
from campaign.rules.state import (
    Army,
    Campaign,
    Holding,
    PendingKind,
    Season,
    Settlement,
    SettlementPlan,
    Step,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

# Chosen for a kingdom that has not named its race by the deadline (the rulebook and
# rulings are silent; the app's rules page says so).
UNDECLARED_RACE = "Undeclared"


def choose_races(campaign: Campaign, turn: Turn) -> Campaign:
    """A, ruling S1: races are chosen in secret and revealed together. B, ruling S2: then
    a roll-off among all kingdoms, in the order they joined, sets the player order."""
    missing = [
        k.id for k in campaign.kingdoms if k.race is None and k.id not in campaign.inputs.races
    ]
    asked = [k for k in missing if not turn.takes_default(PendingKind.RACE, k)]
    if asked:
        for kingdom_id in asked:
            turn.wait(PendingKind.RACE, kingdom_id)
        return campaign
    kingdoms = tuple(
        replace(k, race=campaign.inputs.races.get(k.id, k.race or UNDECLARED_RACE))
        for k in campaign.kingdoms
    )
    turn.record(EventType.RACES_REVEALED, races={k.id: k.race for k in kingdoms})
    order = roll_off([k.id for k in kingdoms], turn, "player order")
    turn.record(EventType.PLAYER_ORDER, order=order)
    inputs = replace(campaign.inputs, races={})
    return replace(campaign, kingdoms=kingdoms, player_order=tuple(order), inputs=inputs).at(
        Step.CAPITALS
    )


def choose_capitals(campaign: Campaign, turn: Turn) -> Campaign:
    """C, ruling S3: in player order, each kingdom puts its capital city on a free start tile."""
    for kingdom_id in campaign.player_order:
        if campaign.kingdom(kingdom_id).capital is not None:
            continue
        free = _free_start_tiles(campaign)
        choice = campaign.inputs.capitals.get(kingdom_id)
        if choice is None and not turn.takes_default(PendingKind.CAPITAL, kingdom_id):
            turn.wait(PendingKind.CAPITAL, kingdom_id, choices=[list(h) for h in free])
            return campaign
        capital = _check_capital(campaign, kingdom_id, choice, free)
        campaign = campaign.with_kingdom(replace(campaign.kingdom(kingdom_id), capital=capital))
        campaign = campaign.with_holding(Holding(capital, kingdom_id, Settlement.CITY))
        turn.record(EventType.CAPITAL_FOUNDED, kingdom=kingdom_id, hex=list(capital))
        campaign = optional.capital_founded(campaign, kingdom_id, capital)
        inputs = replace(campaign.inputs, capitals=_without(campaign.inputs.capitals, kingdom_id))
        campaign = replace(campaign, inputs=inputs)
    return replace(campaign, inputs=replace(campaign.inputs, capitals={})).at(Step.SETTLEMENTS)


def _without[T](decisions: Mapping[str, T], kingdom_id: str) -> dict[str, T]:
    """The decisions still to be used: a kingdom's is consumed once it is applied, even
    while the step waits for the next kingdom (the campaign file: inputs are consumed when
    used)."""
    return {k: decision for k, decision in decisions.items() if k != kingdom_id}


def _free_start_tiles(campaign: Campaign) -> list[Hex]:
    return [h for h in campaign.map.start_tiles() if h not in campaign.tiles]


def _check_capital(campaign: Campaign, kingdom_id: str, choice: Hex | None, free: list[Hex]) -> Hex:
    where = f"inputs.capitals.{kingdom_id}"
    if choice is None:  # the deadline default: the first free start tile
        if not free:
            raise RuleError("no-start-tile-left", where, "No start tile is left for a capital.")
        return free[0]
    if choice not in campaign.map.tiles or not campaign.map.tiles[choice].start:
        raise RuleError(
            "capital-not-start-tile",
            where,
            f"{list(choice)} is not a start tile (a hex outlined with a dashed line).",
        )
    if choice not in free:
        raise RuleError(
            "capital-taken", where, f"{list(choice)} is already another kingdom's capital."
        )
    return choice


def place_settlements(campaign: Campaign, turn: Turn) -> Campaign:
    """D, ruling S4: every kingdom at once puts 1 city, 1 fortress and 2 villages on four of
    its capital's enterable neighbours (hidden until all are in); every other enterable
    neighbour is controlled too. A plan is judged as soon as it is given."""
    sites = {
        k.id: _settlement_sites(campaign, k.capital)
        for k in campaign.kingdoms
        if k.capital is not None and not _has_settled(campaign, k.id)
    }
    for kingdom_id, plan in campaign.inputs.settlements.items():
        if kingdom_id in sites:
            _check_plan(kingdom_id, plan, sites[kingdom_id])
    asked = [
        k
        for k in campaign.player_order
        if k in sites
        and k not in campaign.inputs.settlements
        and not turn.takes_default(PendingKind.SETTLEMENTS, k)
    ]
    if asked:
        for kingdom_id in asked:
            turn.wait(
                PendingKind.SETTLEMENTS, kingdom_id, choices=[list(h) for h in sites[kingdom_id]]
            )
        return campaign
    for kingdom_id in reversed(campaign.player_order):
        if kingdom_id in sites:
            campaign = _settle(campaign, kingdom_id, sites[kingdom_id], turn)
    inputs = replace(campaign.inputs, settlements={})
    return replace(campaign, inputs=inputs).at(Step.ARMIES)


def _settle(campaign: Campaign, kingdom_id: str, sites: list[Hex], turn: Turn) -> Campaign:
    """The kingdom's plan, or the default (S4): the first enterable neighbours in [q, r]
    order for the city, the fortress and the two villages."""
    if len(sites) < 4:
        raise RuleError(
            "too-few-sites",
            f"inputs.settlements.{kingdom_id}",
            "The capital has fewer than four enterable neighbours (ruling M8).",
        )
    plan = campaign.inputs.settlements.get(kingdom_id) or SettlementPlan(
        sites[0], sites[1], (sites[2], sites[3])
    )
    placed = {
        plan.city: Settlement.CITY,
        plan.fortress: Settlement.FORTRESS,
        plan.villages[0]: Settlement.VILLAGE,
        plan.villages[1]: Settlement.VILLAGE,
    }
    for site in sites:
        campaign = campaign.with_holding(Holding(site, kingdom_id, placed.get(site)))
    turn.record(
        EventType.SETTLEMENTS_PLACED,
        kingdom=kingdom_id,
        settlements={str(s): [list(h) for h, t in placed.items() if t is s] for s in Settlement},
        controlled=[list(h) for h in sites if h not in placed],
    )
    return campaign


def _has_settled(campaign: Campaign, kingdom_id: str) -> bool:
    return sum(1 for h in campaign.tiles.values() if h.owner == kingdom_id) > 1


def _settlement_sites(campaign: Campaign, capital: Hex) -> list[Hex]:
    """The capital's neighbours an army may enter, in [q, r] order."""
    return sorted(h for h in campaign.map.neighbours(capital) if campaign.map.army_may_enter(h))


def _check_plan(kingdom_id: str, plan: SettlementPlan, sites: list[Hex]) -> None:
    where = f"inputs.settlements.{kingdom_id}"
    chosen = [
        ("city", plan.city),
        ("fortress", plan.fortress),
        ("villages[0]", plan.villages[0]),
        ("villages[1]", plan.villages[1]),
    ]
    seen: set[Hex] = set()
    for name, hex_ in chosen:
        if hex_ not in sites:
            raise RuleError(
                "settlement-not-beside-capital",
                f"{where}.{name}",
                f"{list(hex_)} is not a tile next to the capital that an army may enter.",
            )
        if hex_ in seen:
            raise RuleError(
                "settlement-twice", f"{where}.{name}", f"{list(hex_)} already holds a settlement."
            )
        seen.add(hex_)


def place_starting_armies(campaign: Campaign, turn: Turn) -> Campaign:
    """E, ruling S4: every kingdom at once puts its one army on a settlement it controls
    (hidden until all are in; by default on its capital). Then the first summer begins."""
    own = {
        k: sorted(h.hex for h in campaign.tiles.values() if h.owner == k and h.settlement)
        for k in campaign.player_order
        if not any(a.kingdom == k for a in campaign.armies.values())
    }
    for kingdom_id, choice in campaign.inputs.starting_armies.items():
        if kingdom_id in own and choice not in own[kingdom_id]:
            raise RuleError(
                "starting-army-not-on-settlement",
                f"inputs.starting_armies.{kingdom_id}",
                f"{list(choice)} is not a settlement of {kingdom_id}: the first army starts in one.",
            )
    asked = [
        k
        for k in own
        if k not in campaign.inputs.starting_armies
        and not turn.takes_default(PendingKind.STARTING_ARMY, k)
    ]
    if asked:
        for kingdom_id in asked:
            turn.wait(
                PendingKind.STARTING_ARMY, kingdom_id, choices=[list(h) for h in own[kingdom_id]]
            )
        return campaign
    for kingdom_id in reversed(campaign.player_order):
        if kingdom_id not in own:
            continue
        hex_ = (
            campaign.inputs.starting_armies.get(kingdom_id)
            or campaign.kingdom(kingdom_id).capital
            or own[kingdom_id][0]
        )
        judged_at = campaign.kingdom(kingdom_id).capital or hex_  # OA1: at the capital
        army = optional.army_raised(
            campaign, Army(id=f"{kingdom_id}-1", kingdom=kingdom_id, hex=hex_), judged_at
        )
        campaign = campaign.with_army(army)
        turn.record(EventType.ARMY_PLACED, kingdom=kingdom_id, army=army.id, hex=list(hex_))
    inputs = replace(campaign.inputs, starting_armies={})
    return replace(campaign, inputs=inputs).at(Step.ORDERS, month=1, season=Season.SUMMER)
