"""Summer phases A and B: giving orders (rulings O1, O3, O8) and resolving them (O2, O4 to O7)."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial

from campaign.rules import optional
from campaign.rules.combat import natural_key
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex, Terrain
from campaign.rules.state import (
    HORDE,
    Army,
    Campaign,
    Holding,
    Order,
    OrderKind,
    OrdersMode,
    PendingKind,
    Settlement,
    Ship,
    Step,
    Unit,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

# The rulebook's exploration table (2D6): 2-7 empty, 8-9 village, 10 city, 11-12 fortress.
EXPLORATION: Mapping[int, Settlement | None] = {
    **dict.fromkeys(range(2, 8), None),
    8: Settlement.VILLAGE,
    9: Settlement.VILLAGE,
    10: Settlement.CITY,
    11: Settlement.FORTRESS,
    12: Settlement.FORTRESS,
}


# --- A) Give orders -----------------------------------------------------------------------


def give_orders(campaign: Campaign, turn: Turn) -> Campaign:
    """Check every kingdom's orders; wait for missing ones, or give them their deadline
    defaults (O3). In `cycle` mode the orders are taken one at a time in the order cycle,
    with first player brakes (O1); while the cycle waits, the orders it has taken (a late
    kingdom's defaults among them) are kept in `inputs`, in the cycle's order."""
    takes_default = partial(turn.takes_default, PendingKind.ORDERS)
    if campaign.options.orders is OrdersMode.CYCLE:
        orders = _order_cycle(campaign, turn, takes_default)
        if turn.pending:
            return replace(campaign, inputs=replace(campaign.inputs, orders=orders))
    else:
        orders = _sealed_orders(campaign, turn, takes_default)
        if turn.pending:
            return campaign
    inputs = replace(campaign.inputs, orders=orders)
    return replace(campaign, inputs=inputs).at(Step.RESOLUTION)


def wait_for_orders(campaign: Campaign, turn: Turn) -> None:
    """Add to `turn.pending` the kingdoms whose orders are still missing."""
    if campaign.options.orders is OrdersMode.CYCLE:
        _order_cycle(campaign, turn, _never)
        return
    for kingdom_id in campaign.player_order:
        given = campaign.inputs.orders.get(kingdom_id, ())
        missing = unordered(campaign, kingdom_id, given)
        if missing:
            turn.wait(PendingKind.ORDERS, kingdom_id, units=missing)


def _never(kingdom_id: str) -> bool:
    return False


def _sealed_orders(
    campaign: Campaign, turn: Turn, takes_default: Callable[[str], bool]
) -> dict[str, tuple[Order, ...]]:
    """Ruling O1, sealed: every kingdom gives all its orders at once."""
    complete: dict[str, tuple[Order, ...]] = {}
    for kingdom_id in campaign.player_order:
        given = campaign.inputs.orders.get(kingdom_id, ())
        check_orders(campaign, kingdom_id, given)
        missing = unordered(campaign, kingdom_id, given)
        if missing and not takes_default(kingdom_id):
            turn.wait(PendingKind.ORDERS, kingdom_id, units=missing)
        complete[kingdom_id] = given + _default_orders(campaign, missing)
    return complete


def _order_cycle(
    campaign: Campaign, turn: Turn, takes_default: Callable[[str], bool]
) -> dict[str, tuple[Order, ...]]:
    """Ruling O1, cycle: in player order each kingdom gives one order, round and round; if
    the first player has more armies than the second, it orders all its units first.
    While it waits, each kingdom's orders taken so far and then those not yet reached."""
    lists = {k: list(campaign.inputs.orders.get(k, ())) for k in campaign.player_order}
    for kingdom_id, given in lists.items():
        check_orders(campaign, kingdom_id, given)
    taken: dict[str, list[Order]] = {k: [] for k in campaign.player_order}
    cycle = list(campaign.player_order)
    if _first_player_brakes(campaign):
        first = cycle.pop(0)
        if not _take_all(campaign, first, lists[first], taken[first], turn, takes_default):
            return _so_far(campaign, taken, lists)
    while any(unordered(campaign, k, tuple(taken[k])) for k in cycle):
        for kingdom_id in cycle:
            missing = unordered(campaign, kingdom_id, tuple(taken[kingdom_id]))
            if not missing:
                continue  # a kingdom with nothing left to order passes
            if lists[kingdom_id]:
                taken[kingdom_id].append(lists[kingdom_id].pop(0))
            elif takes_default(kingdom_id):
                taken[kingdom_id].extend(_default_orders(campaign, missing[:1]))
            else:
                turn.wait(PendingKind.ORDERS, kingdom_id, units=missing, cycle=True)
                return _so_far(campaign, taken, lists)
    return {k: tuple(orders) for k, orders in taken.items()}


def _so_far(
    campaign: Campaign, taken: dict[str, list[Order]], lists: dict[str, list[Order]]
) -> dict[str, tuple[Order, ...]]:
    return {
        k: (*orders, *lists[k])
        for k, orders in taken.items()
        if orders or k in campaign.inputs.orders
    }


def _take_all(
    campaign: Campaign,
    kingdom_id: str,
    given: list[Order],
    taken: list[Order],
    turn: Turn,
    takes_default: Callable[[str], bool],
) -> bool:
    taken.extend(given)
    given.clear()
    missing = unordered(campaign, kingdom_id, tuple(taken))
    if missing and not takes_default(kingdom_id):
        turn.wait(
            PendingKind.ORDERS, kingdom_id, units=missing, cycle=True, first_player_brakes=True
        )
        return False
    taken.extend(_default_orders(campaign, missing))
    return True


def _first_player_brakes(campaign: Campaign) -> bool:
    """The first player has more armies than the second (rulebook, First player brakes)."""
    if len(campaign.player_order) < 2:
        return False
    first, second = campaign.player_order[:2]
    return army_count(campaign, first) > army_count(campaign, second)


def army_count(campaign: Campaign, kingdom_id: str) -> int:
    """Armies of a kingdom, those aboard ships included (ruling R3)."""
    return sum(1 for army in campaign.armies.values() if army.kingdom == kingdom_id)


def unordered(campaign: Campaign, kingdom_id: str, given: Sequence[Order]) -> list[str]:
    """The kingdom's units that still need an order, in id order. An army that stays
    aboard a ship has no order of its own (ruling O3)."""
    ordered = {order.unit for order in given}
    aboard = _aboard(campaign, given)
    units = [
        unit.id
        for unit in campaign.units()
        if unit.kingdom == kingdom_id and unit.id not in ordered and unit.id not in aboard
    ]
    return sorted(units, key=natural_key)


def _aboard(campaign: Campaign, given: Sequence[Order]) -> set[str]:
    """Armies aboard a ship this month: those carried whose ship has no order yet or keeps
    them, and those a ship's order takes aboard (ruling O8)."""
    orders = {order.unit: order for order in given}
    aboard: set[str] = set()
    for ship in campaign.ships.values():
        order = orders.get(ship.id)
        if order is None:
            if ship.carrying:
                aboard.add(ship.carrying)
        elif order.carry:
            aboard.add(order.carry)
    return aboard


def _default_orders(campaign: Campaign, unit_ids: Sequence[str]) -> tuple[Order, ...]:
    """Ruling O3: Defend for an upright army, Regroup for a unit on its side, and stay for
    an upright ship; a ship's default order keeps its army aboard."""
    orders: list[Order] = []
    for unit_id in unit_ids:
        unit = unit_of(campaign, unit_id)
        if not unit.upright:
            kind = OrderKind.REGROUP
        elif isinstance(unit, Army):
            kind = OrderKind.DEFEND
        else:
            kind = OrderKind.STAY
        carry = unit.carrying if isinstance(unit, Ship) else None
        orders.append(Order(unit=unit_id, order=kind, carry=carry))
    return tuple(orders)


def _every_unit(campaign: Campaign) -> set[str]:
    return {*campaign.armies, *campaign.ships, *campaign.horde}


def unit_of(campaign: Campaign, unit_id: str) -> Unit:
    return campaign.armies.get(unit_id) or campaign.horde.get(unit_id) or campaign.ships[unit_id]


# --- the legality of orders ------------------------------------------------------------


def check_orders(campaign: Campaign, kingdom_id: str, orders: Sequence[Order]) -> None:
    """Refuse the first illegal order of a kingdom's list (RuleError with the order's field)."""
    seen: set[str] = set()
    aboard = _aboard(campaign, orders)
    carriers: dict[str, str] = {}  # army -> the ship whose order carries it
    for index, order in enumerate(orders):
        where = f"inputs.orders.{kingdom_id}[{index}]"
        unit = _own_unit(campaign, kingdom_id, order, where)
        if order.unit in seen:
            raise RuleError(
                "unit-ordered-twice", where, f"{order.unit} has two orders this month.", order.unit
            )
        seen.add(order.unit)
        if order.unit in aboard:
            raise RuleError(
                "order-for-carried-army",
                where,
                f"Army {order.unit} is aboard a ship: the ship's order is its order (ruling O8).",
                order.unit,
            )
        _check_order_kind(campaign, unit, order, where)
        if isinstance(unit, Ship):
            _check_ship_pairing(campaign, unit, order, where)
            if order.carry is not None and order.carry in carriers:
                # rulebook: each ship pairs with only one army, and an army with one ship
                raise RuleError(
                    "army-on-two-ships",
                    f"{where}.carry",
                    f"Army {order.carry} already sails with ship {carriers[order.carry]}: an army pairs with one ship (ruling O8).",
                    order.carry,
                )
            if order.carry is not None:
                carriers[order.carry] = unit.id
        elif order.carry is not None:
            raise RuleError(
                "carry-by-army",
                f"{where}.carry",
                "Only a ship's order can carry an army.",
                order.unit,
            )


@dataclass(frozen=True, slots=True)
class OrderChoices:
    """What one unit may be ordered to do now (ruling O3), each checked by the same rules
    that judge a given order: the tiles it may move to, its other orders, and for a ship
    the armies it may carry (ruling O8)."""

    moves: tuple[Hex, ...]
    orders: tuple[OrderKind, ...]
    carry: tuple[str, ...]


def order_choices(campaign: Campaign, unit_id: str) -> OrderChoices:
    """The legal orders of one unit, for a player choosing them."""
    unit = unit_of(campaign, unit_id)

    def legal(order: Order) -> bool:
        try:
            _check_order_kind(campaign, unit, order, "")
            if isinstance(unit, Ship) and order.carry is not None:
                _check_ship_pairing(campaign, unit, order, "")
        except RuleError:
            return False
        return True

    moves = tuple(
        h for h in campaign.map.neighbours(unit.hex) if legal(Order(unit.id, OrderKind.MOVE, h))
    )
    orders = tuple(
        kind for kind in OrderKind if kind is not OrderKind.MOVE and legal(Order(unit.id, kind))
    )
    carry: tuple[str, ...] = ()
    if isinstance(unit, Ship):
        carry = tuple(
            army.id
            for army in campaign.armies.values()
            if army.kingdom == unit.kingdom and legal(Order(unit.id, OrderKind.STAY, carry=army.id))
        )
    return OrderChoices(moves, orders, carry)


def _own_unit(campaign: Campaign, kingdom_id: str, order: Order, where: str) -> Unit:
    unit = unit_of(campaign, order.unit) if order.unit in _every_unit(campaign) else None
    if unit is None:
        raise RuleError(
            "unknown-unit", f"{where}.unit", f"There is no army or ship {order.unit!r}.", order.unit
        )
    if unit.kingdom != kingdom_id:
        raise RuleError(
            "not-your-unit",
            f"{where}.unit",
            f"{order.unit} belongs to {unit.kingdom}, not {kingdom_id}.",
            order.unit,
        )
    return unit


def _check_order_kind(campaign: Campaign, unit: Unit, order: Order, where: str) -> None:
    is_ship = isinstance(unit, Ship)
    noun = "Ship" if is_ship else "Army"
    if not unit.upright and order.order is not OrderKind.REGROUP:
        raise RuleError(
            "must-regroup",
            f"{where}.order",
            f"{noun} {unit.id} is on its side: its only order is Regroup.",
            unit.id,
        )
    if unit.upright and order.order is OrderKind.REGROUP:
        raise RuleError(
            "regroup-upright",
            f"{where}.order",
            f"{noun} {unit.id} is upright: Regroup is only for a unit on its side.",
            unit.id,
        )
    if order.order is OrderKind.DEFEND and is_ship:
        raise RuleError(
            "ship-cannot-defend",
            f"{where}.order",
            f"Ship {unit.id} can't Defend: ships and the armies they carry never do.",
            unit.id,
        )
    if order.order is OrderKind.STAY and not is_ship:
        raise RuleError(
            "army-cannot-stay",
            f"{where}.order",
            f"Army {unit.id} can't just stay: it may Defend instead.",
            unit.id,
        )
    if order.order is OrderKind.RAZE and campaign.settlement(unit.hex) is None:
        raise RuleError(
            "raze-off-settlement",
            f"{where}.order",
            f"{noun} {unit.id} is not on a settlement, so there is nothing to Raze.",
            unit.id,
        )
    if order.order is OrderKind.MOVE and order.to is not None:
        _check_move(campaign, unit, order.to, f"{where}.to")


def _check_move(campaign: Campaign, unit: Unit, to: Hex, where: str) -> None:
    hexmap = campaign.map
    if to not in hexmap.tiles:
        raise RuleError("move-off-map", where, f"{list(to)} is not on the map.", unit.id)
    if to not in hexmap.neighbours(unit.hex):
        raise RuleError(
            "move-not-adjacent",
            where,
            f"{unit.id} can only move to a tile next to {list(unit.hex)}.",
            unit.id,
        )
    refusal = optional.move_refused(campaign, unit, to, where)
    if refusal is not None:
        raise refusal
    if isinstance(unit, Ship):
        if not hexmap.ship_may_enter(to):
            raise RuleError(
                "move-not-enterable",
                where,
                f"Ship {unit.id} can't sail into {list(to)}: ships keep to sea, coast, rivers and lakes (ruling M3).",
                unit.id,
            )
        return
    if not hexmap.army_may_enter(to):
        raise RuleError(
            "move-not-enterable",
            where,
            f"Army {unit.id} can't enter {list(to)}: armies never enter marsh or open water (ruling M3).",
            unit.id,
        )
    if hexmap.is_water_edge(unit.hex, to):
        raise RuleError(
            "move-across-water",
            where,
            f"Army {unit.id} can't cross the water between {list(unit.hex)} and {list(to)} (ruling M3).",
            unit.id,
        )


def _check_ship_pairing(campaign: Campaign, ship: Ship, order: Order, where: str) -> None:
    """Ruling O8: an army on the ship's tile may board when orders are given; one aboard
    lands when the ship's order does not carry it, never on open water."""
    if order.carry is None:
        if ship.carrying and campaign.map.tiles[ship.hex].terrain is Terrain.OCEAN:
            raise RuleError(
                "landing-at-sea",
                f"{where}.carry",
                f"Ship {ship.id} is on open water: army {ship.carrying} can't land here (ruling O8).",
                ship.id,
            )
        return
    army = campaign.armies.get(order.carry)
    if army is None or army.kingdom != ship.kingdom:
        raise RuleError(
            "carry-unknown-army",
            f"{where}.carry",
            f"Ship {ship.id} can only carry an army of its own kingdom.",
            ship.id,
        )
    if order.carry == ship.carrying:
        return
    if campaign.carrier_of(army.id) is not None:
        raise RuleError(
            "carry-army-aboard",
            f"{where}.carry",
            f"Army {army.id} is aboard another ship.",
            army.id,
        )
    if army.hex != ship.hex:
        raise RuleError(
            "carry-not-here",
            f"{where}.carry",
            f"Army {army.id} is not in ship {ship.id}'s tile, so it can't board.",
            army.id,
        )
    if not army.upright:
        raise RuleError(
            "carry-army-on-its-side",
            f"{where}.carry",
            f"Army {army.id} is on its side: it must Regroup before it can board.",
            army.id,
        )
    if not ship.upright:
        raise RuleError(
            "carry-ship-on-its-side",
            f"{where}.carry",
            f"Ship {ship.id} is on its side: no army can board it until it regroups.",
            ship.id,
        )


# --- B) Order resolution -------------------------------------------------------------------


def resolve_orders(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling O2: the first unresolved order of each kingdom in player order, round and
    round, until none is left."""
    campaign = _pair_ships(campaign, turn)
    queues = {k: list(campaign.inputs.orders.get(k, ())) for k in campaign.player_order}
    while any(queues.values()):
        for kingdom_id in campaign.player_order:
            if queues[kingdom_id]:
                campaign = _resolve(campaign, queues[kingdom_id].pop(0), turn)
    for order in optional.horde_orders(campaign):  # after every kingdom's (OW4)
        campaign = _resolve(campaign, order, turn)
    inputs = replace(campaign.inputs, orders={})
    return replace(campaign, inputs=inputs).at(Step.BATTLES)


def _pair_ships(campaign: Campaign, turn: Turn) -> Campaign:
    """Armies board and land as the ships' orders say (ruling O8)."""
    for orders in campaign.inputs.orders.values():
        for order in orders:
            ship = campaign.ships.get(order.unit)
            if ship is None or ship.carrying == order.carry:
                continue
            if ship.carrying:
                turn.record(
                    EventType.ARMY_LANDED, army=ship.carrying, ship=ship.id, hex=list(ship.hex)
                )
            if order.carry:
                turn.record(
                    EventType.ARMY_BOARDED, army=order.carry, ship=ship.id, hex=list(ship.hex)
                )
            campaign = campaign.with_ship(replace(ship, carrying=order.carry))
    return campaign


def _resolve(campaign: Campaign, order: Order, turn: Turn) -> Campaign:
    unit = unit_of(campaign, order.unit)
    if order.order is OrderKind.MOVE and order.to is not None:
        return _move(campaign, unit, order.to, turn)
    if order.order is OrderKind.RAZE:
        return _raze(campaign, unit, turn)
    if order.order is OrderKind.DEFEND and isinstance(unit, Army):
        turn.record(EventType.DEFENDED, unit=unit.id, hex=list(unit.hex))
        return campaign.with_army(replace(unit, defending=True))
    if order.order is OrderKind.REGROUP:
        turn.record(EventType.REGROUPED, unit=unit.id, hex=list(unit.hex))
        campaign = campaign.with_unit(replace(unit, upright=True))
        if isinstance(unit, Ship) and unit.carrying:
            # ruling O8: the pair has one order, so the army aboard stands up with its ship
            army = campaign.armies[unit.carrying]
            campaign = campaign.with_army(replace(army, upright=True))
        return campaign
    turn.record(EventType.STAYED, unit=unit.id, hex=list(unit.hex))
    return campaign


def enemies_in(campaign: Campaign, hex_: Hex, kingdom_id: str) -> list[Unit]:
    return [unit for unit in campaign.units_in(hex_) if unit.kingdom != kingdom_id]


def _move(campaign: Campaign, unit: Unit, to: Hex, turn: Turn) -> Campaign:
    """Rulings O4, O5: the unit enters; an unexplored tile is explored (2D6), a controlled
    one is taken if no enemy army or ship is in it at this moment. An optional rule may stop
    the unit where it is (OA5: a tower that rose earlier this month) or replace an
    exploration (OA4)."""
    if optional.move_stopped(campaign, unit, to, turn):
        return campaign
    unexplored = to not in campaign.tiles and campaign.map.tiles[to].terrain is not Terrain.OCEAN
    # The horde never explores or takes a tile, and a kingdom's unit explores no tile where
    # the horde stands (OW1, part B's settled points).
    if unit.kingdom == HORDE or (unexplored and enemies_in(campaign, to, unit.kingdom)):
        return _entered(campaign, unit, to, turn)
    dice = [turn.roll(), turn.roll()] if unexplored else []
    instead = optional.explored(campaign, unit, to, dice, turn) if dice else None
    if instead is not None:
        return instead
    campaign = _entered(campaign, unit, to, turn)
    if campaign.map.tiles[to].terrain is Terrain.OCEAN:
        return campaign  # ruling M4: open water is never explored or controlled
    if unexplored:
        return _explore(campaign, unit.kingdom, to, dice, turn)
    if enemies_in(campaign, to, unit.kingdom):
        return campaign
    return take_control(campaign, to, unit.kingdom, turn)


def _entered(campaign: Campaign, unit: Unit, to: Hex, turn: Turn) -> Campaign:
    """The unit stands in `to` (a ship with the army it carries), having moved there."""
    start = unit.hex
    if isinstance(unit, Army):
        campaign = campaign.with_army(replace(unit, hex=to, moved=(start, to)))
    else:
        campaign = campaign.with_ship(replace(unit, hex=to))
        if unit.carrying:
            campaign = campaign.with_army(replace(campaign.armies[unit.carrying], hex=to))
    turn.record(
        EventType.MOVED, unit=unit.id, kingdom=unit.kingdom, **{"from": list(start)}, to=list(to)
    )
    return campaign


def _explore(
    campaign: Campaign, kingdom_id: str, hex_: Hex, dice: list[int], turn: Turn
) -> Campaign:
    """Ruling O5: the tile's result on the exploration table (its first two `dice`); more
    dice an optional rule rolled and did not use are recorded with them (OA4)."""
    settlement = EXPLORATION[dice[0] + dice[1]]
    turn.record(
        EventType.EXPLORED,
        kingdom=kingdom_id,
        hex=list(hex_),
        dice=dice,
        settlement=None if settlement is None else str(settlement),
    )
    campaign = campaign.with_holding(Holding(hex_, kingdom_id, settlement))
    if settlement is None:
        return campaign
    return optional.settlement_found(campaign, kingdom_id, hex_, turn)


def claim_unexplored(campaign: Campaign, hex_: Hex, kingdom_id: str, turn: Turn) -> Campaign:
    """An unexplored tile where the horde stood becomes the kingdom's with no settlement
    and no dice: by a battle won there (B10) or at reform (R2) (part B's settled points)."""
    turn.record(EventType.TILE_TAKEN, kingdom=kingdom_id, hex=list(hex_), **{"from": None})
    return campaign.with_holding(Holding(hex_, kingdom_id, None))


def take_control(campaign: Campaign, hex_: Hex, kingdom_id: str, turn: Turn) -> Campaign:
    """The tile, with its settlement, becomes the kingdom's. A capital taken by another
    kingdom is no longer anyone's capital (ruling O7)."""
    holding = campaign.tiles[hex_]
    if holding.owner == kingdom_id:
        return campaign
    turn.record(EventType.TILE_TAKEN, kingdom=kingdom_id, hex=list(hex_), **{"from": holding.owner})
    campaign = campaign.with_holding(replace(holding, owner=kingdom_id))
    if holding.settlement is not None:
        capital = campaign.kingdom(holding.owner).capital == hex_
        campaign = optional.settlement_taken(
            campaign, kingdom_id, holding.owner, hex_, capital, turn
        )
    return _lose_capital_at(campaign, hex_, turn, "taken", taker=kingdom_id)


def _lose_capital_at(
    campaign: Campaign, hex_: Hex, turn: Turn, how: str, taker: str | None = None
) -> Campaign:
    """Ruling O7: the capital at `hex_`, taken (by `taker`) or razed, is no longer its
    kingdom's; then the optional rules' point of a capital lost (OA10: what it held)."""
    for kingdom in campaign.kingdoms:
        if kingdom.capital == hex_:
            turn.record(EventType.CAPITAL_LOST, kingdom=kingdom.id, hex=list(hex_), how=how)
            campaign = campaign.with_kingdom(replace(kingdom, capital=None))
            return optional.capital_lost(campaign, kingdom.id, taker, hex_, turn)
    return campaign


def _raze(campaign: Campaign, unit: Unit, turn: Turn) -> Campaign:
    """Ruling O6: fails if an enemy army or ship is in the tile when it resolves."""
    holding = campaign.tiles.get(unit.hex)
    if holding is None or holding.settlement is None:
        turn.record(EventType.RAZE_NOTHING_LEFT, unit=unit.id, hex=list(unit.hex))
        return campaign
    enemies = enemies_in(campaign, unit.hex, unit.kingdom)
    if enemies:
        turn.record(
            EventType.RAZE_FAILED, unit=unit.id, hex=list(unit.hex), enemies=[e.id for e in enemies]
        )
        return campaign
    turn.record(
        EventType.RAZED, unit=unit.id, hex=list(unit.hex), settlement=str(holding.settlement)
    )
    campaign = campaign.with_holding(replace(holding, settlement=None))
    return _lose_capital_at(campaign, unit.hex, turn, "razed")
