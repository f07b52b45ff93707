"""The orders page: a player taps one of their units on the map, the tiles it may move to
light up, and a tap gives the order; buttons give Defend, Raze, Regroup and Stay, and a ship
may carry an army. Each order is checked by the engine as it is given (through
`services.submission_save`), and a refusal is shown beside the unit in the game's words.

Sealed mode (ruling O1): the orders are a draft, in the kingdom's resolution sequence (O2),
editable until the player marks them ready. Cycle mode: one order at a time in the order
cycle, final once given, and everyone's orders of the month shown as they come (the board
polls while it is not the player's turn)."""

import json
from dataclasses import dataclass, replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from accounts.models import User
from campaign import services
from campaign.access import newest_or_404, players_of
from campaign.display.mapcache import snapshot_map
from campaign.display.mapsvg import KingdomLook, Move, Pick
from campaign.forms import read_hex
from campaign.models import Campaign, Membership, Snapshot, Submission
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import Hex, hex_label
from campaign.rules.orders import OrderChoices, order_choices, unordered
from campaign.rules.state import OrderKind
from campaign.views.common import decision_of
from campaign.views.freshness import revalidated_orders

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
    where: str
    upright: bool
    carrying: str | None
    order: Json | None
    aboard: str | None = None  # the ship whose order takes this army aboard (ruling O8)

    @property
    def order_words(self) -> str:
        if self.order:
            return order_words(self.order)
        if self.aboard:
            return f"Aboard {self.aboard}: the ship's order is its order"
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
    carry: list[str]
    error: str | None
    given: list[tuple[str, str]]  # cycle mode: (kingdom name, order) given this month
    map_svg: str
    draft: str = ""  # the digest of the kingdom's open decisions this board shows
    moved_on: str = ""  # the board moved on by itself from the one drawn: what ended

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


def order_words(order: Json) -> str:
    words = ORDER_WORDS.get(order.get("order", ""), str(order.get("order")))
    if order.get("to") is not None:
        words += f" to {hex_label(tuple(order['to']))}"
    if order.get("carry"):
        words += f", carrying {order['carry']}"
    return words


def _draft(campaign: Campaign, kingdom: str) -> Submission | None:
    return Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, kind="orders", consumed_by=None
    ).first()


def _drafted(draft: Submission | None, data: Json, kingdom: str) -> list[Json]:
    """The kingdom's sealed orders as they stand: its draft; without one, those the newest
    snapshot already holds (given before the campaign asked again, for an army a ship's
    order put ashore). Nothing in the order cycle, where each order is final once given."""
    if data["options"].get("orders") == "cycle":
        return []
    if draft is not None:
        return list(draft.payload)
    if data["clock"]["step"] != "orders":
        return []
    return list((data.get("inputs") or {}).get("orders", {}).get(kingdom, []))


def _orders_of(membership: Membership) -> list[Json]:
    data = newest_or_404(membership.campaign).data
    return _drafted(_draft(membership.campaign, membership.kingdom), data, membership.kingdom)


# --- the board ------------------------------------------------------------------------


def _read_board(
    membership: Membership,
    players: list[Membership],
    *,
    selected: str | None = None,
    error: str | None = None,
    next_after: str | None = None,
) -> tuple[Board, Snapshot]:
    """The board of the kingdom's player (`membership`), among the campaign's `players`,
    without its map (the waiting board's status shows none), and the snapshot it shows.
    `next_after`: the unit just ordered; the unit still without an order that comes next is
    chosen, so a player taps through their units (none in the order cycle)."""
    campaign = membership.campaign
    snapshot = newest_or_404(campaign)
    data, me = snapshot.data, membership.kingdom
    cycle = data["options"].get("orders") == "cycle"
    summer_orders = data["clock"]["step"] == "orders"
    mine = [p for p in data.get("pending", []) if p["kind"] == "orders" and p["kingdom"] == me]
    # One read of the open decisions: the kingdom's draft, and who is ready.
    decisions = list(Submission.objects.filter(campaign=campaign, consumed_by=None))
    draft = next((d for d in decisions if d.kingdom == me and d.kind == "orders"), None)
    drafted = _drafted(draft, data, me)
    units = _unit_rows(data, me, drafted, missing=_still_to_order(data, me, drafted))
    if next_after is not None and not cycle:
        selected = next((u.id for u in units if not u.settled and u.id != next_after), None)
    chosen = next((u for u in units if u.id == selected), None)
    choices = _choices(data, chosen.id) if chosen and mine else None
    names = {p.kingdom: p.kingdom_name for p in players}
    pending_orders = [p for p in data.get("pending", []) if p["kind"] == "orders"]
    ready = services.ready_among((d.kingdom, d.ready) for d in decisions if d.kingdom)
    board = Board(
        campaign=campaign,
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
        moves=[Target(h, _hex_words(data, h)) for h in choices.moves] if choices else [],
        orders=[kind.value for kind in choices.orders] if choices else [],
        carry=list(choices.carry) if choices else [],
        error=error,
        given=_given_in_cycle(data, names) if cycle and summer_orders else [],
        map_svg="",
        draft=services.draft_digest(d for d in decisions if d.kingdom == me),
    )
    return board, snapshot


def what_ended(clock: Json) -> str:
    """What came to an end for a board to stand at `clock`, as players say it."""
    if clock["season"] == "winter":
        return "The summer is over"
    if clock["step"] == "battles":
        return f"Month {clock['month']}'s orders are resolved"
    if clock["month"] > 1:
        return f"Month {clock['month'] - 1} is over"
    return "The winter is over" if clock["year"] > 1 else "The setup is over"


def _drawn(
    request: HtmxHttpRequest, board: Board, snapshot: Snapshot, players: list[Membership]
) -> Board:
    """The board with its map: the snapshot's, the player's planned moves and picks on it."""
    looks = {p.kingdom: KingdomLook(p.kingdom_name, p.colour, p.heraldry) for p in players}
    planned = [
        Move(unit.id, board.membership.kingdom, unit.hex, tuple(unit.order["to"]), planned=True)
        for unit in board.units
        if unit.order and unit.order.get("to")
    ]
    svg = snapshot_map(snapshot, kingdoms=looks, picks=_picks(request, board), moves=planned)
    return replace(board, map_svg=svg)


def _asked_units(data: Json, kingdom: str) -> list[str]:
    """The kingdom's units the campaign waits for an order for."""
    return [
        unit
        for p in data.get("pending", [])
        if p["kind"] == "orders" and p["kingdom"] == kingdom
        for unit in p.get("units", [])
    ]


def _still_to_order(data: Json, kingdom: str, drafted: list[Json]) -> list[str]:
    """The kingdom's units that need an order besides those `drafted`, as the engine counts
    them (an army aboard a ship needs none, one put ashore does: ruling O8); in the order
    cycle, those the campaign asks for now."""
    if data["options"].get("orders") == "cycle" or not _asked_units(data, kingdom):
        return _asked_units(data, kingdom)
    try:
        state = parse_campaign({**data, "inputs": {"orders": {kingdom: drafted}}})
    except RuleError:
        return _asked_units(data, kingdom)
    return unordered(state, kingdom, state.inputs.orders.get(kingdom, ()))


def _unit_rows(data: Json, kingdom: str, drafted: list[Json], missing: list[str]) -> list[UnitRow]:
    """The kingdom's units to order: those ordered first, in their sequence, then the
    armies aboard a ship by its order, then those still without one."""
    tiles = {tuple(t["hex"]): t for t in data["map"]["tiles"]}
    units = {u["id"]: (u, "Army") for u in data["armies"] if u["kingdom"] == kingdom}
    units |= {u["id"]: (u, "Ship") for u in data["ships"] if u["kingdom"] == kingdom}
    orders = {o["unit"]: o for o in drafted}
    carried = _carried(drafted)
    in_sequence = [o["unit"] for o in drafted if o["unit"] in units]
    aboard = [u for u in carried if u in units and u not in orders]
    rows = []
    for unit_id in [*in_sequence, *aboard, *(u for u in missing if u not in orders)]:
        unit, noun = units[unit_id]
        where = tuple(unit["hex"])
        rows.append(
            UnitRow(
                id=unit_id,
                noun=noun,
                hex=where,
                where=f"{hex_label(where)} {tiles[where]['terrain']}",
                upright=unit["upright"],
                carrying=unit.get("carrying"),
                order=orders.get(unit_id),
                aboard=carried.get(unit_id),
            )
        )
    return rows


def _carried(drafted: list[Json]) -> dict[str, str]:
    """The armies the drafted ship orders take aboard, and their ships (ruling O8)."""
    return {o["carry"]: o["unit"] for o in drafted if o.get("carry")}


def _choices(data: Json, unit_id: str) -> OrderChoices | None:
    try:
        return order_choices(parse_campaign(data), unit_id)
    except (RuleError, KeyError):
        return None


def _hex_words(data: Json, h: Hex) -> str:
    terrain = next(t for t in data["map"]["tiles"] if tuple(t["hex"]) == h)["terrain"]
    explored = next((t for t in data["tiles"] if tuple(t["hex"]) == h), None)
    return f"{hex_label(h)} {terrain}" + ("" if explored or terrain == "ocean" else ", unexplored")


def _given_in_cycle(data: Json, names: dict[str, str]) -> list[tuple[str, str]]:
    """Cycle mode: the orders given so far this month, public as soon as given (O1)."""
    given = (data.get("inputs") or {}).get("orders", {})
    return [
        (names.get(kingdom, kingdom), f"{order['unit']}: {order_words(order)}")
        for kingdom in data["player_order"]
        for order in given.get(kingdom, [])
    ]


def _picks(request: HtmxHttpRequest, board: Board) -> list[Pick]:
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
                label=f"Choose {unit.noun.lower()} {unit.id} at {hex_label(h)}",
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
            label=f"{chosen.noun} {chosen.id} is here: tap to choose another unit",
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
                label=f"Move {chosen.id} to {target.label}",
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


def _respond(
    request: HtmxHttpRequest, board: Board, *, confirm: Target | None = None
) -> HttpResponse:
    context = {"board": board, "confirm": confirm}
    return page_or_fragment(request, "campaign/orders.html", context, fragment="board")


def _after_post(
    request: HtmxHttpRequest,
    membership: Membership,
    players: list[Membership],
    *,
    selected: str | None,
    error: str | None,
    next_after: str | None = None,
) -> HttpResponse:
    """htmx gets the refreshed board; a plain form post is sent back to the page (with the
    refusal as a message), so reloading never posts again. `next_after`: as `_read_board`."""
    board, snapshot = _read_board(
        membership, players, selected=selected, error=error, next_after=next_after
    )
    if request.htmx:
        return _respond(request, _drawn(request, board, snapshot, players))
    selected = board.selected.id if board.selected else None
    if error:
        messages.error(request, error)
    url = reverse("campaign:orders", args=[membership.campaign.slug])
    return redirect(f"{url}?unit={selected}" if selected else url)


# --- views ----------------------------------------------------------------------------


@login_required
@require_GET
@revalidated_orders
def orders_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership, players = players_of(request, slug)
    read, snapshot = _read_board(membership, players, selected=request.GET.get("unit"))
    board = _drawn(request, read, snapshot, players)
    confirm = None
    to = read_hex(request.GET.get("to", ""))
    if board.selected and to is not None:
        confirm = next((t for t in board.moves if t.hex == to), None)
    return _respond(request, board, confirm=confirm)


@login_required
@require_GET
@revalidated_orders
def orders_status(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """What the board polls while it waits for others (its player is ready, or not asked):
    the status alone, whom the campaign waits for, without the map. Once the board would
    show more than that (the month moved on from the snapshot it was drawn at, `seen`, or
    the player may order again), the answer is the whole board, in the old one's place."""
    membership, players = players_of(request, slug)
    board, snapshot = _read_board(membership, players)
    seen = _read_int(request.GET.get("seen"))
    if board.polls and board.snapshot == seen:
        return render(request, "campaign/orders.html#status", {"board": board})
    if seen is not None and board.snapshot != seen:
        board = replace(board, moved_on=what_ended(board.clock))
    whole = _respond(request, _drawn(request, board, snapshot, players))
    return retarget(reswap(whole, "outerHTML"), "#orders-board")


@login_required
@require_POST
def orders_give(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Give (or change) one unit's order."""
    membership, players = players_of(request, slug)
    unit = request.POST.get("unit", "")
    order = _read_order(request.POST)
    if order is None:
        return _after_post(
            request,
            membership,
            players,
            selected=unit or None,
            error="That order could not be read.",
        )
    campaign = membership.campaign
    cycle = campaign.options.get("orders") == "cycle"
    drafted = _orders_of(membership)
    # A ship that takes an army aboard gives it its order: the army's own order goes (O8).
    others = [o for o in drafted if o["unit"] not in (unit, order.get("carry"))]
    at = next((i for i, o in enumerate(drafted) if o["unit"] == unit), None)
    payload = [order] if cycle else _placed(others, order, at)
    try:
        services.submission_save(
            campaign=campaign,
            user=_user(request),
            kind="orders",
            payload=payload,
            seen=decision_of(request.POST).seen,
        )
    except services.ServiceError as refusal:
        return _after_post(request, membership, players, selected=unit, error=refusal.message)
    return _after_post(request, membership, players, selected=None, error=None, next_after=unit)


@login_required
@require_POST
def orders_withdraw(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Take one unit's order out of the draft (sealed mode)."""
    membership, players = players_of(request, slug)
    unit = request.POST.get("unit", "")
    payload = [o for o in _orders_of(membership) if o["unit"] != unit]
    error = _save_draft(request, membership, payload)
    return _after_post(request, membership, players, selected=unit or None, error=error)


@login_required
@require_POST
def orders_sequence(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Set the resolution sequence (ruling O2): the units in their new order, from a drag,
    or one unit moved up or down by its buttons."""
    membership, players = players_of(request, slug)
    orders = {o["unit"]: o for o in _orders_of(membership)}
    units = request.POST.getlist("unit")
    if sorted(units) != sorted(orders):
        return _after_post(
            request,
            membership,
            players,
            selected=None,
            error="Your orders changed while you were sorting them: here they are as they stand.",
        )
    for step, key in ((-1, "raise"), (1, "lower")):
        if request.POST.get(key) in units:
            i = units.index(request.POST[key])
            j = min(max(i + step, 0), len(units) - 1)
            units[i], units[j] = units[j], units[i]
    error = _save_draft(request, membership, [orders[u] for u in units])
    return _after_post(request, membership, players, selected=None, error=error)


@login_required
@require_POST
def orders_ready(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Mark the orders ready (the month resolves once every kingdom is), or withdraw that."""
    membership, players = players_of(request, slug)
    board, _ = _read_board(membership, players)
    try:
        decision = decision_of(request.POST)
        if not board.asked:
            raise services.ServiceError("Your orders are not asked for now.")
        if decision.ready and board.ordered < len(board.units):
            raise services.ServiceError(
                f"Give every unit an order first: {board.ordered} of {len(board.units)} units "
                "ordered."
            )
        services.submission_set_ready(
            campaign=membership.campaign,
            user=_user(request),
            ready=decision.ready,
            seen=decision.seen,
            draft=decision.draft,
        )
        error = None
    except services.ServiceError as refusal:
        error = refusal.message
    return _after_post(request, membership, players, selected=None, error=error)


# --- reading the forms ------------------------------------------------------------------


def _user(request: HtmxHttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required
    return request.user


def _read_int(value: str | None) -> int | None:
    try:
        return int(value) if value else None
    except ValueError:
        return None


def _read_order(form: Any) -> Json | None:
    """The order a form gives, in the campaign file's words, or None if it makes no sense."""
    unit, kind = form.get("unit", ""), form.get("order", "")
    if not unit or kind not in {k.value for k in OrderKind}:
        return None
    order: Json = {"unit": unit, "order": kind}
    if kind == "move":
        to = read_hex(form.get("to", ""))
        if to is None:
            return None
        order["to"] = list(to)
    if form.get("carry"):
        order["carry"] = form["carry"]
    return order


def _placed(others: list[Json], order: Json, at: int | None) -> list[Json]:
    """The draft with the order in its unit's old place in the sequence, or last."""
    if at is None:
        return [*others, order]
    return [*others[:at], order, *others[at:]]


def _save_draft(
    request: HtmxHttpRequest, membership: Membership, payload: list[Json]
) -> str | None:
    try:
        services.submission_save(
            campaign=membership.campaign,
            user=_user(request),
            kind="orders",
            payload=payload,
            seen=decision_of(request.POST).seen,
        )
    except services.ServiceError as refusal:
        return refusal.message
    return None


urlpatterns = [
    path("c/<slug:slug>/orders/", orders_page, name="orders"),
    path("c/<slug:slug>/orders/status/", orders_status, name="orders_status"),
    path("c/<slug:slug>/orders/give/", orders_give, name="orders_give"),
    path("c/<slug:slug>/orders/withdraw/", orders_withdraw, name="orders_withdraw"),
    path("c/<slug:slug>/orders/sequence/", orders_sequence, name="orders_sequence"),
    path("c/<slug:slug>/orders/ready/", orders_ready, name="orders_ready"),
]
