"""Option `marauders` (campaign-options.md, OW1 to OW8): a horde of 500-point armies of one
race that belongs to no kingdom. A band may arrive as each summer month's orders step opens
(a 6 on a die, fewer than 6 armies out); the engine fixes each army's order at that opening
(Regroup on its side, Raze on an unguarded settlement, Hold beside a kingdom's unit, else a
step toward the nearest settlement) and resolves them after the kingdoms' orders. The horde
is a side of its own in battle (`state.HORDE`, its general reporting for it), never
concedes, scatters when outnumbered, and a kingdom that beats it plunders a gold per army
destroyed, added at the next gather. Fields: `options.marauder_race` and
`options.marauder_general`, `marauder_armies`, `marauders_arrived`, `kingdoms[].plunder`."""

import re
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from campaign.rules.errors import RuleError
from campaign.rules.filevalues import Json, optional_field
from campaign.rules.hexmap import Hex, HexMap
from campaign.rules.optional.rule import Gain, OptionalRule, OptionRow
from campaign.rules.picks import random_pick
from campaign.rules.state import (
    HORDE,
    Army,
    Battle,
    Campaign,
    Kingdom,
    Order,
    OrderKind,
    Raid,
    Season,
    Settlement,
    Step,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import RACES, EventType

MOST = 6  # OW2: never more marauder armies on the map
ARRIVAL_FACE = 6
PLUNDER = "plunder"  # the source of a gathering's plunder gold (OW7)
ADMIN = "admin"  # OW5: the general who is no kingdom's player

MOVE, RAZE, HOLD, REGROUP = "move", "raze", "hold", "regroup"
ORDERS = (MOVE, RAZE, HOLD, REGROUP)
# OW3's ties between settlements as near: a village, then a city, then a fortress.
_RANK = {Settlement.VILLAGE: 0, Settlement.CITY: 1, Settlement.FORTRESS: 2}
_ID = re.compile(r"m-([1-9][0-9]*)")


def band_size(year: int) -> int:
    """OW2: 1 army in years 1 and 2, 2 in years 3 and 4, 3 from year 5."""
    return 1 if year <= 2 else 2 if year <= 4 else 3


def number(marauder_id: str) -> int:
    """The N of `m-N`: id order is by it (part B's settled points)."""
    return int(marauder_id.removeprefix("m-"))


def in_id_order(campaign: Campaign) -> list[Army]:
    return sorted(campaign.horde.values(), key=lambda a: number(a.id))


# --- steps (OG3) --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Ground:
    """What OW3's steps and targets read: the map, the towers (never entered) and the
    settlements standing."""

    map: HexMap
    towers: frozenset[Hex]
    settlements: Mapping[Hex, Settlement]

    @classmethod
    def of(cls, campaign: Campaign) -> "Ground":
        standing = {h: t.settlement for h, t in campaign.tiles.items() if t.settlement is not None}
        return cls(campaign.map, campaign.towers, standing)

    def one_step(self, a: Hex, b: Hex) -> bool:
        """OG3: armies may enter `b` from `a`, no water edge, no tower."""
        return self.map.army_may_move(a, b) and b not in self.towers

    def rings(self, start: Hex) -> Iterator[list[Hex]]:
        """The tiles 0, 1, 2... steps from `start` (OG3), ring by ring."""
        seen, ring = {start}, [start]
        while ring:
            yield ring
            following: list[Hex] = []
            for h in ring:
                for n in self.map.neighbours(h):
                    if n not in seen and self.one_step(h, n):
                        seen.add(n)
                        following.append(n)
            ring = following


def target(ground: Ground, start: Hex) -> tuple[Hex, int] | None:
    """OW3: the nearest settlement by steps (ties: village, city, fortress, then [q, r]
    order), and its steps; None if no settlement can be reached."""
    for steps, ring in enumerate(ground.rings(start)):
        found = [h for h in ring if h in ground.settlements]
        if found:
            return min(found, key=lambda h: (_RANK[ground.settlements[h]], h)), steps
    return None


def _step_toward(ground: Ground, start: Hex, goal: Hex, steps: int) -> Hex:
    """OW3: the tile one step away on a shortest path to `goal`, first in [q, r] order."""
    for distance, ring in enumerate(ground.rings(goal)):
        if distance == steps - 1:
            near = set(ring)
            return min(
                n for n in ground.map.neighbours(start) if n in near and ground.one_step(start, n)
            )
    raise AssertionError("a settlement reached is reached back")


# --- orders (OW3) --------------------------------------------------------------------------------


def _kingdom_unit_in(campaign: Campaign, hex_: Hex) -> bool:
    return any(u.kingdom != HORDE for u in campaign.units_in(hex_))


def raid(campaign: Campaign, army: Army) -> Raid:
    """OW3: the order the engine gives a marauder army at the month's opening."""
    if not army.upright:
        return Raid(REGROUP)
    guarded = _kingdom_unit_in(campaign, army.hex)
    if campaign.settlement(army.hex) is not None and not guarded:
        return Raid(RAZE)
    if guarded:
        return Raid(HOLD)
    ground = Ground.of(campaign)
    found = target(ground, army.hex)
    if found is None:
        return Raid(HOLD)
    goal, steps = found
    return Raid(MOVE, _step_toward(ground, army.hex, goal, steps))


def _orders_fixed(campaign: Campaign, turn: Turn) -> Campaign:
    orders = {army.id: raid(campaign, army) for army in in_id_order(campaign)}
    if orders:
        turn.record(
            EventType.MARAUDER_ORDERS, orders={k: raid_written(o) for k, o in orders.items()}
        )
    return replace(campaign, raids=orders)


# --- arrival (OW2) -------------------------------------------------------------------------------


def _landing_tiles(campaign: Campaign) -> list[Hex]:
    """OW2: unexplored tiles armies may enter with no unit and no tower; none: controlled
    tiles with no settlement and no unit; in [q, r] order."""
    occupied = {u.hex for u in campaign.units()}
    open_ = [
        h
        for h in sorted(campaign.map.tiles)
        if h not in campaign.tiles
        and campaign.map.army_may_enter(h)
        and h not in occupied
        and h not in campaign.towers
    ]
    if open_:
        return open_
    return sorted(
        h
        for h, holding in campaign.tiles.items()
        if holding.settlement is None and h not in occupied
    )


def _arrival(campaign: Campaign, turn: Turn) -> Campaign:
    out = len(campaign.horde)
    if out >= MOST:
        return campaign
    die = turn.roll()
    candidates = _landing_tiles(campaign) if die == ARRIVAL_FACE else []
    if not candidates:
        turn.record(EventType.NO_MARAUDERS, dice=[die])
        return campaign
    picks: list[int] = []

    def roll() -> int:
        picks.append(turn.roll())
        return picks[-1]

    hex_ = random_pick(candidates, roll)
    size = min(band_size(campaign.clock.year), MOST - out)
    first = campaign.marauders_arrived + 1
    band = [Army(f"m-{n}", HORDE, hex_) for n in range(first, first + size)]
    turn.record(
        EventType.MARAUDERS_ARRIVED,
        armies=[a.id for a in band],
        hex=list(hex_),
        dice=[die, *picks],
    )
    for army in band:
        campaign = campaign.with_army(army)
    return replace(campaign, marauders_arrived=first + size - 1)


def _month_opened(campaign: Campaign, turn: Turn) -> Campaign:
    """As a summer month's orders step opens: the arrival (OW2), then every order (OW3)."""
    return _orders_fixed(_arrival(campaign, turn), turn)


# --- resolution (OW4) ----------------------------------------------------------------------------


def _horde_orders(campaign: Campaign) -> list[Order]:
    """OW4: the marauders' orders as the engine resolves them after every kingdom's, in id
    order (Hold does nothing)."""
    kinds = {MOVE: OrderKind.MOVE, RAZE: OrderKind.RAZE, REGROUP: OrderKind.REGROUP}
    orders = []
    for army in in_id_order(campaign):
        raid_ = campaign.raids.get(army.id) or raid(campaign, army)
        if raid_.order in kinds:
            orders.append(Order(army.id, kinds[raid_.order], raid_.to))
    return orders


# --- battles (OW5 to OW7) --------------------------------------------------------------------------


def general_for(general: str | None, sides: Collection[str]) -> str:
    """OW5: who reports for the horde in a battle between `sides`: its general (`"admin"` or
    a kingdom), or the admin where the general's kingdom is the battle's other side."""
    chosen = general or ADMIN
    return ADMIN if chosen in sides else chosen


def _general(campaign: Campaign, battle: Battle) -> Mapping[str, object]:
    sides = (battle.attacker, battle.defender)
    return {"general": general_for(campaign.options.marauder_general, sides)}


def _plundered(campaign: Campaign, winner: str, destroyed: int, hex_: Hex, turn: Turn) -> Campaign:
    """OW7: a gold per marauder army destroyed in a battle the kingdom won, at the next gather."""
    kingdom = campaign.kingdom(winner)
    turn.record(EventType.PLUNDERED, kingdom=winner, hex=list(hex_), gold=destroyed)
    return campaign.with_kingdom(replace(kingdom, plunder=kingdom.plunder + destroyed))


def _gains(campaign: Campaign, kingdom_id: str, turn: Turn) -> Sequence[Gain]:
    plunder = campaign.kingdom(kingdom_id).plunder
    return (Gain(PLUNDER, gold=plunder),) if plunder else ()


# --- the season's turns ----------------------------------------------------------------------


def _step_ended(campaign: Campaign, turn: Turn, step: Step) -> Campaign:
    """Reform: the month's orders are its record no longer. Recall: the horde stands up
    and stays (OW1). Gather: plunder gathered is spent."""
    if step is Step.REFORM:
        return replace(campaign, raids={})
    if step is Step.RECALL:
        stood = {k: replace(a, upright=True) for k, a in campaign.horde.items()}
        return replace(campaign, horde=stood)
    if step is Step.GATHER:
        kingdoms = tuple(replace(k, plunder=0) for k in campaign.kingdoms)
        return replace(campaign, kingdoms=kingdoms)
    return campaign


def _step_done(campaign: Campaign, turn: Turn) -> Campaign:
    """An order absent from a file at the orders or resolution step is filled in (part B's
    settled points: OW3 in the file)."""
    if not _before_resolving(campaign):
        return campaign
    orders = {a.id: campaign.raids.get(a.id) or raid(campaign, a) for a in in_id_order(campaign)}
    return replace(campaign, raids=orders)


def _before_resolving(campaign: Campaign) -> bool:
    clock = campaign.clock
    return clock.season is Season.SUMMER and clock.step in (Step.ORDERS, Step.RESOLUTION)


# --- the campaign file -----------------------------------------------------------------------------


def raid_written(order: Raid) -> dict[str, object]:
    if order.to is None:
        return {"order": order.order}
    return {"order": order.order, "to": list(order.to)}


def _read_raid(json: Json) -> Raid:
    fields = json.as_object(required=("order",), optional=("to",))
    kind = fields["order"].as_str()
    if kind not in ORDERS:
        fields["order"].refuse("unknown-value", f"{json.path}.order is one of {', '.join(ORDERS)}.")
    if (kind == MOVE) != ("to" in fields):
        json.refuse("bad-order", "A marauder's move names its tile, 'to'; no other order does.")
    return Raid(kind, fields["to"].as_hex() if "to" in fields else None)


def _read_army(json: Json) -> tuple[Army, Raid | None]:
    fields = json.as_object(required=("id", "hex"), optional=("upright", "order", "moved"))
    marauder_id = fields["id"].as_str()
    if not _ID.fullmatch(marauder_id):
        fields["id"].refuse(
            "bad-marauder-id", f"A marauder's id is m-N, N from 1: not {marauder_id!r}."
        )
    moved = None
    if "moved" in fields and not fields["moved"].is_null():
        ends = fields["moved"].as_list()
        if len(ends) != 2:
            fields["moved"].refuse("wrong-type", "'moved' is [from, to].")
        moved = (ends[0].as_hex(), ends[1].as_hex())
    army = Army(
        marauder_id,
        HORDE,
        fields["hex"].as_hex(),
        upright=optional_field(fields, "upright", Json.as_bool, True),
        moved=moved,
    )
    order = fields["order"].optional(_read_raid) if "order" in fields else None
    return army, order


def _read_top(top: Mapping[str, Json]) -> Mapping[str, object]:
    """Absent fields read as OG1 says: no marauders; `marauders_arrived` the highest N."""
    marauders: dict[str, Army] = {}
    orders: dict[str, Raid] = {}
    if "marauder_armies" in top:
        for item in top["marauder_armies"].as_list():
            army, order = _read_army(item)
            if army.id in marauders:
                item.refuse("duplicate-id", f"Marauder {army.id} is listed twice.")
            marauders[army.id] = army
            if order is not None:
                orders[army.id] = order
    highest = max((number(k) for k in marauders), default=0)
    arrived = optional_field(top, "marauders_arrived", lambda j: j.as_int(minimum=0), highest)
    if arrived < highest:
        top["marauders_arrived"].refuse(
            "bad-marauders-arrived",
            f"marauders_arrived is {arrived}, below marauder m-{highest} on the map.",
        )
    return {"horde": marauders, "raids": orders, "marauders_arrived": arrived}


def _written_top(campaign: Campaign) -> Mapping[str, object]:
    armies: list[dict[str, object]] = []
    for army in in_id_order(campaign):
        order = campaign.raids.get(army.id)
        written: dict[str, object] = {
            "id": army.id,
            "hex": list(army.hex),
            "upright": army.upright,
            "order": None if order is None else raid_written(order),
        }
        if army.moved is not None:
            written["moved"] = [list(army.moved[0]), list(army.moved[1])]
        armies.append(written)
    return {"marauder_armies": armies, "marauders_arrived": campaign.marauders_arrived}


def _read_kingdom(fields: Mapping[str, Json]) -> Mapping[str, Any]:
    return {"plunder": optional_field(fields, "plunder", lambda j: j.as_int(minimum=0), 0)}


def _written_kingdom(kingdom: Kingdom) -> Mapping[str, object]:
    return {"plunder": kingdom.plunder}


def _checked(campaign: Campaign) -> None:
    """The general is the admin or a kingdom (OW5); each marauder stands on a map tile
    armies may enter; the orders agree with OW3 while nothing has resolved, are null in
    winter (part B's settled points)."""
    general = campaign.options.marauder_general
    if general != ADMIN and general not in {k.id for k in campaign.kingdoms}:
        raise RuleError(
            "bad-marauder-general",
            "options.marauder_general",
            f'The marauders\' general is "admin" or a kingdom of the campaign, not {general!r}.',
        )
    for index, army in enumerate(in_id_order(campaign)):
        where = f"marauder_armies[{index}]"
        if army.hex not in campaign.map.tiles or not campaign.map.army_may_enter(army.hex):
            raise RuleError(
                "bad-hex", f"{where}.hex", f"Marauder {army.id} stands where no army may."
            )
        _order_checked(campaign, army, f"{where}.order")


def _order_checked(campaign: Campaign, army: Army, where: str) -> None:
    order = campaign.raids.get(army.id)
    if order is None:
        return
    if campaign.clock.season is not Season.SUMMER:
        raise RuleError(
            "order-out-of-season", where, f"Marauder {army.id} has no order in winter.", army.id
        )
    if _before_resolving(campaign) and order != raid(campaign, army):
        expected = raid_written(raid(campaign, army))
        raise RuleError(
            "bad-marauder-order",
            where,
            f"Marauder {army.id}'s order this month is {expected} (option OW3), not {raid_written(order)}.",
            army.id,
        )


RULE = OptionalRule(
    row=OptionRow(
        "marauders",
        "Marauders",
        "A horde that belongs to nobody arrives on the dice and raids the nearest "
        "settlements; beat it for plunder (options OW1 to OW8).",
        default=False,
        switch=True,
    ),
    settings=(
        OptionRow(
            "marauder_race",
            "The marauders' race",
            "The Kings of War race of every marauder army (option OW1).",
            default=RACES[0],
            choices={race: race for race in RACES},
            needs="marauders",
        ),
        OptionRow(
            "marauder_general",
            "The marauders' general",
            "Who plays and reports the horde's tabletop battles: the admin, or a kingdom's "
            "player, named on the campaign's admin page before it starts (option OW5).",
            default=ADMIN,
            text=True,
            needs="marauders",
            offered=False,
        ),
    ),
    fields={"": ("marauder_armies", "marauders_arrived"), "kingdoms[]": ("plunder",)},
    read={"": _read_top, "kingdoms[]": _read_kingdom},
    write={"": _written_top, "kingdoms[]": _written_kingdom},
    checks={"units": _checked},
    opens={Step.ORDERS: _month_opened},
    horde_orders=_horde_orders,
    result_waits=_general,
    horde_beaten=_plundered,
    gains=_gains,
    step_ended=_step_ended,
    step_done=_step_done,
)
