"""The orders board: what the orders page draws for one player at one snapshot: the
kingdom's units asked for an order, each with the order drafted for it and in its
resolution sequence (ruling O2), the chosen unit's moves and orders as the engine allows
them, whom the campaign waits for, the orders given so far in the order cycle (O1), and
the map with the player's planned moves and the hexes to tap.

Read only: the page fetches the snapshot, the players, the kingdom's draft, who is ready
and the draft's digest, and this turns them into the board."""

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from django.urls import reverse

from campaign.display.mapcache import derived, snapshot_map
from campaign.display.mapsvg.orders import Move, Pick
from campaign.display.mapsvg.scene import capital_of, looks_of
from campaign.display.optional import march_notes, orders_news
from campaign.gazetteer import Names
from campaign.models import Campaign, Membership, Snapshot, Submission
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import Hex
from campaign.rules.options import orders_in_cycle
from campaign.rules.orders import OrderChoices, order_choices, unordered
from campaign.rules.state import PendingKind, Season, Step
from campaign.signals import Refused
from campaign.words import names_of

type Json = dict[str, Any]

ORDER_WORDS = {
    "move": "Move",
    "defend": "Defend",
    "raze": "Raze",
    "regroup": "Regroup",
    "stay": "Stay",
}


@dataclass(frozen=True)
class UnitRow:
    """One of the player's units asked for an order, with the order drafted for it."""

    id: str
    noun: str  # "Army" or "Ship"
    hex: Hex
    upright: bool
    carrying: str | None
    order: Json | None
    aboard: str | None = None  # the ship whose order takes this army aboard (ruling O8)
    notes: tuple[str, ...] = ()  # what the options say of its move (a march along a road)
    names: Names = field(default_factory=Names, compare=False, repr=False)

    @property
    def name(self) -> str:
        """ "Aldermark's 1st army", or the name its player gave it."""
        return self.names.unit(self.id)

    @property
    def where(self) -> str:
        """ "at Harrowby", "in the Greywood": said only where a page shows it (a status that
        counts the units names no place)."""
        return self.names.at(self.hex)

    @property
    def carrying_name(self) -> str:
        return self.names.unit(self.carrying) if self.carrying else ""

    @property
    def order_words(self) -> str:
        if self.order:
            return ", ".join((order_words(self.order, self.names), *self.notes))
        if self.aboard:
            return f"Aboard {self.names.unit(self.aboard)}: the ship's order is its order"
        return "No order yet"

    @property
    def settled(self) -> bool:
        """Whether the unit needs no more: it has an order, or goes aboard a ship."""
        return bool(self.order or self.aboard)


@dataclass(frozen=True)
class Target:
    hex: Hex
    label: str


@dataclass(frozen=True)
class Board:
    """Everything the orders board shows, for one player at one snapshot."""

    campaign: Campaign
    membership: Membership
    snapshot: int
    clock: Json
    cycle: bool
    asked: bool  # the campaign waits for this kingdom's orders now
    waiting_for: list[str]  # kingdom names the campaign waits for
    brakes: bool  # ruling O1: the first player orders all its units first
    units: list[UnitRow]  # in resolution sequence: ordered ones first
    ready: bool
    selected: UnitRow | None
    moves: list[Target]
    orders: list[str]
    carry: list[tuple[str, str]]  # the armies a ship may take aboard: (id, name)
    error: str | None
    given: list[tuple[str, str]]  # cycle mode: (kingdom name, order) given this month
    map_svg: str
    draft: str = ""  # the digest of the kingdom's open decisions this board shows
    stale: Refused | None = None  # what of the draft an admin's correction made illegal
    moved_on: str = ""  # the board moved on by itself from the one drawn: what ended
    # Where the map opens on a phone, "q,r", when nothing on it is lit to tap (static/js/
    # map.js opens it on the unit chosen, else the first to tap): the player's units.
    opens_on: str = ""
    # What the options tell a player planning this month's orders (the marauders' moves).
    news: tuple[str, ...] = ()
    names: Names = field(default_factory=Names, compare=False, repr=False)  # the board's

    @property
    def ordered(self) -> int:
        return sum(1 for unit in self.units if unit.settled)

    @property
    def editable(self) -> bool:
        return self.asked and not self.ready

    @property
    def sequence(self) -> list[UnitRow]:
        return [unit for unit in self.units if unit.order]

    @property
    def aboard(self) -> list[UnitRow]:
        """Armies with no order of their own, aboard a ship by the ship's order (O8)."""
        return [unit for unit in self.units if unit.aboard and not unit.order]

    @property
    def unit_panel(self) -> bool:
        """Whether the chosen unit's panel has something to show: the unit, a refusal, or
        the hint to tap one (not once the orders are ready and nothing is chosen)."""
        return self.asked and bool(self.selected or self.error or self.editable)

    @property
    def polls(self) -> bool:
        """Whether the board refreshes itself: while it waits for someone else."""
        return not self.asked or self.ready


def order_words(order: Json, names: Names) -> str:
    words = ORDER_WORDS.get(order.get("order", ""), str(order.get("order")))
    if order.get("to") is not None:
        words += f" to {names.place(order['to'])}"
    if order.get("carry"):
        words += f", carrying {names.unit(order['carry'])}"
    return words


def drafted(draft: Submission | None, data: Json, kingdom: str) -> list[Json]:
    """The kingdom's sealed orders as they stand: its draft; without one, those the newest
    snapshot already holds (given before the campaign asked again, for an army a ship's
    order put ashore). Nothing in the order cycle, where each order is final once given."""
    if orders_in_cycle(data["options"]):
        return []
    if draft is not None:
        return list(draft.payload)
    if data["clock"]["step"] != Step.ORDERS:
        return []
    return list((data.get("inputs") or {}).get("orders", {}).get(kingdom, []))


# --- the board ------------------------------------------------------------------------


def orders_board(
    membership: Membership,
    snapshot: Snapshot,
    players: Sequence[Membership],
    *,
    draft: Submission | None,
    ready: set[str],
    digest: str,
    stale: Refused | None = None,
    selected: str | None = None,
    error: str | None = None,
    next_after: str | None = None,
) -> Board:
    """The board of the kingdom's player (`membership`) at `snapshot`, among the campaign's
    `players`, without its map (the waiting board's status shows none): `draft`, the
    kingdom's open orders; `ready`, the kingdoms with every open decision marked ready;
    `digest`, that of the kingdom's open decisions; `stale`, what of them no longer stands
    (`services.stale_draft`). `selected`: the unit chosen;
    `next_after`: the unit just ordered, and the unit still without an order that comes
    next is chosen, so a player taps through their units (none in the order cycle)."""
    data, me = snapshot.data, membership.kingdom
    cycle = orders_in_cycle(data["options"])
    summer_orders = data["clock"]["step"] == Step.ORDERS
    mine = [
        p for p in data.get("pending", []) if p["kind"] == PendingKind.ORDERS and p["kingdom"] == me
    ]
    given = drafted(draft, data, me)
    names = names_of(data, membership.campaign.gazetteer, players)
    units = _unit_rows(data, me, given, _still_to_order(snapshot, me, given), names)
    if next_after is not None and not cycle:
        selected = next((u.id for u in units if not u.settled and u.id != next_after), None)
    chosen = next((u for u in units if u.id == selected), None)
    choices = _choices(snapshot, chosen.id) if chosen and mine else None
    pending_orders = [p for p in data.get("pending", []) if p["kind"] == PendingKind.ORDERS]
    return Board(
        campaign=membership.campaign,
        membership=membership,
        snapshot=snapshot.number,
        clock=data["clock"],
        cycle=cycle,
        asked=bool(mine),
        waiting_for=[
            names.get(p["kingdom"], p["kingdom"])
            for p in pending_orders
            if p["kingdom"] not in ready
        ],
        brakes=any(p.get("first_player_brakes") for p in pending_orders),
        units=units,
        ready=bool(draft and draft.ready and not cycle),
        selected=chosen,
        moves=[_target(data, chosen.hex, h, names) for h in choices.moves]
        if chosen and choices
        else [],
        orders=[kind.value for kind in choices.orders] if choices else [],
        carry=[(army, names.unit(army)) for army in choices.carry] if choices else [],
        error=error,
        given=_given_in_cycle(data, names) if cycle and summer_orders else [],
        map_svg="",
        draft=digest,
        stale=stale,
        opens_on=_opens_on(data, me, units),
        news=orders_news(data, names) if summer_orders else (),
        names=names,
    )


def _opens_on(data: Json, kingdom: str, units: list[UnitRow]) -> str:
    """The hex the map opens on, "q,r": the first of the kingdom's units to order (those
    without an order first, as their picks are), else any of its units, else its capital;
    "" for none."""
    unordered_first = sorted(units, key=lambda u: u.order is not None)
    found: Hex | None = unordered_first[0].hex if unordered_first else None
    if found is None:
        own = [u["hex"] for u in (*data["armies"], *data["ships"]) if u["kingdom"] == kingdom]
        found = (own[0][0], own[0][1]) if own else capital_of(data, kingdom)
    return f"{found[0]},{found[1]}" if found else ""


def drawn(board: Board, snapshot: Snapshot, players: Sequence[Membership]) -> Board:
    """The board with its map: the snapshot's, the player's planned moves and picks on it."""
    looks = looks_of(players)
    planned = [
        Move(unit.id, board.membership.kingdom, unit.hex, tuple(unit.order["to"]), planned=True)
        for unit in board.units
        if unit.order and unit.order.get("to")
    ]
    svg = snapshot_map(
        snapshot, kingdoms=looks, picks=_picks(board), moves=planned, names=board.names
    )
    return replace(board, map_svg=svg)


def move_to_confirm(board: Board, to: Hex | None) -> Target | None:
    """Without JavaScript, a tapped tile (`?to=`) the chosen unit may move to: the page
    asks to confirm the move there."""
    if board.selected is None or to is None:
        return None
    return next((t for t in board.moves if t.hex == to), None)


def with_what_ended(board: Board) -> Board:
    """The board, saying what ended since the one drawn before it (its `seen`)."""
    return replace(board, moved_on=what_ended(board.clock))


def what_ended(clock: Json) -> str:
    """What came to an end for a board to stand at `clock`, as players say it."""
    if clock["season"] == Season.WINTER:
        return "The summer is over"
    if clock["step"] == Step.BATTLES:
        return f"Month {clock['month']}'s orders are resolved"
    if clock["month"] > 1:
        return f"Month {clock['month'] - 1} is over"
    return "The winter is over" if clock["year"] > 1 else "The setup is over"


def _asked_units(data: Json, kingdom: str) -> list[str]:
    """The kingdom's units the campaign waits for an order for."""
    return [
        unit
        for p in data.get("pending", [])
        if p["kind"] == PendingKind.ORDERS and p["kingdom"] == kingdom
        for unit in p.get("units", [])
    ]


def _still_to_order(snapshot: Snapshot, kingdom: str, drafted: list[Json]) -> list[str]:
    """The kingdom's units that need an order besides those `drafted`, as the engine
    counts them (an army aboard a ship needs none, one put ashore does: ruling O8); in the
    order cycle, those the campaign asks for now. Kept for the snapshot (`derived`)."""
    given = json.dumps(drafted, sort_keys=True)
    digest = hashlib.sha256(f"{kingdom}:{given}".encode()).hexdigest()[:32]
    return derived(
        snapshot, f"unordered:{digest}", lambda: _unordered(snapshot.data, kingdom, drafted)
    )


def _unordered(data: Json, kingdom: str, drafted: list[Json]) -> list[str]:
    if orders_in_cycle(data["options"]) or not _asked_units(data, kingdom):
        return _asked_units(data, kingdom)
    try:
        state = parse_campaign({**data, "inputs": {"orders": {kingdom: drafted}}})
    except RuleError:
        return _asked_units(data, kingdom)
    return unordered(state, kingdom, state.inputs.orders.get(kingdom, ()))


def _unit_rows(
    data: Json, kingdom: str, drafted: list[Json], missing: list[str], names: Names
) -> list[UnitRow]:
    """The kingdom's units to order: those ordered first, in their sequence, then the
    armies aboard a ship by its order, then those still without one."""
    units = {u["id"]: (u, "Army") for u in data["armies"] if u["kingdom"] == kingdom}
    units |= {u["id"]: (u, "Ship") for u in data["ships"] if u["kingdom"] == kingdom}
    orders = {o["unit"]: o for o in drafted}
    carried = _carried(drafted)
    in_sequence = [o["unit"] for o in drafted if o["unit"] in units]
    aboard = [u for u in carried if u in units and u not in orders]
    rows = []
    for unit_id in [*in_sequence, *aboard, *(u for u in missing if u not in orders)]:
        unit, noun = units[unit_id]
        order, start = orders.get(unit_id), (unit["hex"][0], unit["hex"][1])
        to = order.get("to") if order else None
        rows.append(
            UnitRow(
                id=unit_id,
                noun=noun,
                hex=tuple(unit["hex"]),
                upright=unit["upright"],
                carrying=unit.get("carrying"),
                order=order,
                aboard=carried.get(unit_id),
                notes=march_notes(data, start, (to[0], to[1])) if to else (),
                names=names,
            )
        )
    return rows


def _carried(drafted: list[Json]) -> dict[str, str]:
    """The armies the drafted ship orders take aboard, and their ships (ruling O8)."""
    return {o["carry"]: o["unit"] for o in drafted if o.get("carry")}


def _choices(snapshot: Snapshot, unit_id: str) -> OrderChoices | None:
    """What the unit may be ordered to do at the snapshot, kept for it (`derived`)."""
    return derived(snapshot, f"choices:{unit_id}", lambda: _choices_at(snapshot.data, unit_id))


def _choices_at(data: Json, unit_id: str) -> OrderChoices | None:
    try:
        return order_choices(parse_campaign(data), unit_id)
    except (RuleError, KeyError):
        return None


def _target(data: Json, start: Hex, h: Hex, names: Names) -> Target:
    """A tile the chosen unit may move to, with what the options say of that move."""
    return Target(h, ", ".join((_hex_words(data, h, names), *march_notes(data, start, h))))


def _hex_words(data: Json, h: Hex, names: Names) -> str:
    """A tile a unit may move to, as the player picking it reads it: "Harrowby, plains",
    "the Greywood [2, 1], forest, unexplored"."""
    terrain = next(t for t in data["map"]["tiles"] if tuple(t["hex"]) == h)["terrain"]
    explored = next((t for t in data["tiles"] if tuple(t["hex"]) == h), None)
    unexplored = "" if explored or terrain == "ocean" else ", unexplored"
    return f"{names.place(h, picking=True)}, {terrain}{unexplored}"


def _given_in_cycle(data: Json, names: Names) -> list[tuple[str, str]]:
    """Cycle mode: the orders given so far this month, public as soon as given (O1)."""
    given = (data.get("inputs") or {}).get("orders", {})
    return [
        (names.get(kingdom, kingdom), f"{names.unit(order['unit'])}: {order_words(order, names)}")
        for kingdom in data["player_order"]
        for order in given.get(kingdom, [])
    ]


def _picks(board: Board) -> list[Pick]:
    """The hexes the player may tap: their units, or where the chosen unit may move."""
    if not board.editable:
        return []
    url = reverse("campaign:orders", args=[board.campaign.slug])
    swap = {"hx-target": "#orders-board", "hx-swap": "outerHTML", "hx-push-url": "true"}
    chosen = board.selected
    if chosen is None:
        first_here: dict[Hex, UnitRow] = {}
        for unit in sorted(board.units, key=lambda u: u.order is not None):
            first_here.setdefault(unit.hex, unit)
        return [
            Pick(
                hex=h,
                label=f"Choose {unit.name} {unit.where}",
                href=f"{url}?unit={unit.id}",
                kind="unit",
                attrs={**swap, "hx-get": f"{url}?unit={unit.id}"},
            )
            for h, unit in first_here.items()
        ]
    give = reverse("campaign:orders_give", args=[board.campaign.slug])
    picks = [
        Pick(
            hex=chosen.hex,
            label=f"{chosen.name} is here: tap to choose another unit",
            href=url,
            kind="chosen",
            attrs={**swap, "hx-get": url},
        )
    ]
    for target in board.moves:
        to = f"{target.hex[0]},{target.hex[1]}"
        values = {"unit": chosen.id, "order": "move", "to": to, "seen": board.snapshot}
        picks.append(
            Pick(
                hex=target.hex,
                label=f"Move {chosen.name} to {target.label}",
                href=f"{url}?unit={chosen.id}&to={to}",
                attrs={
                    **swap,
                    "hx-post": give,
                    "hx-vals": json.dumps(values),
                    "hx-push-url": "false",
                    **({"hx-include": "#carry-choice"} if chosen.noun == "Ship" else {}),
                },
            )
        )
    return picks
