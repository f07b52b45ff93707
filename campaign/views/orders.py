"""The orders page: a player taps one of their units on the map, the tiles it may move to
light up, and a tap gives the order; buttons give Defend, Raze, Regroup and Stay, and a ship
may carry an army. Each order is checked by the engine as it is given (through
`submissions.submission_save`), and a refusal is shown beside the unit in the game's words.

Sealed mode (ruling O1): the orders are a draft, in the kingdom's resolution sequence (O2),
editable until the player marks them ready. Cycle mode: one order at a time in the order
cycle, final once given, and everyone's orders of the month shown as they come (the board
polls while it is not the player's turn).

What the board shows is campaign.display.orders_board: these handlers read the request,
fetch what the board needs, call the services and choose the answer."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import reswap, retarget

from campaign.access import newest_or_404, players_of, signed_in_user
from campaign.display.orders_board import (
    Board,
    Target,
    drafted,
    drawn,
    move_to_confirm,
    orders_board,
    with_what_ended,
)
from campaign.forms import read_hex, whole_number
from campaign.models import Membership, Snapshot, Submission
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.decisions import STANDING
from campaign.rules.options import orders_in_cycle
from campaign.rules.state import OrderKind, PendingKind
from campaign.services import common, inputs, submissions
from campaign.views.common import decision_of
from campaign.views.freshness import revalidated_orders

type Json = dict[str, Any]


# --- reading the board ------------------------------------------------------------------


def _read_board(
    membership: Membership,
    players: list[Membership],
    *,
    selected: str | None = None,
    error: str | None = None,
    next_after: str | None = None,
    snapshot: Snapshot | None = None,
) -> tuple[Board, Snapshot]:
    """The board of the kingdom's player (`membership`), among the campaign's `players`,
    without its map, and the snapshot it shows (`orders_board`): the newest, or
    `snapshot`, the newest a post has just read."""
    campaign, me = membership.campaign, membership.kingdom
    snapshot = snapshot or newest_or_404(campaign)
    # One read of the open decisions: the kingdom's draft, and who is ready.
    decisions = Submission.open_in(campaign)
    own = [d for d in decisions if d.kingdom == me]
    board = orders_board(
        membership,
        snapshot,
        players,
        draft=next(
            (d for d in decisions if d.kingdom == me and d.kind == PendingKind.ORDERS), None
        ),
        ready=common.ready_among(
            (d.kingdom, d.ready) for d in decisions if d.kingdom and d.kind not in STANDING
        ),
        digest=submissions.draft_digest(own),
        stale=inputs.stale_draft(snapshot.data, snapshot.number, own, gazetteer=campaign.gazetteer),
        selected=selected,
        error=error,
        next_after=next_after,
    )
    return board, snapshot


# --- answering ------------------------------------------------------------------------


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
    written: submissions.Written | None = None,
) -> HttpResponse:
    """htmx gets the refreshed board; a plain form post is sent back to the page (with the
    refusal as a message), so reloading never posts again. `next_after`: as `_read_board`;
    `written`: what the post wrote, whose snapshot the board shows unless the campaign may
    have moved on since."""
    board, snapshot = _read_board(
        membership, players, selected=selected, error=error, next_after=next_after,
        snapshot=written.unmoved if written is not None else None,
    )  # fmt: skip
    if request.htmx:
        return _respond(request, drawn(board, snapshot, players))
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
    board = drawn(read, snapshot, players)
    confirm = move_to_confirm(board, read_hex(request.GET.get("to", "")))
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
    seen = whole_number(request.GET.get("seen"))
    if board.polls and board.snapshot == seen:
        return render(request, "campaign/orders.html#status", {"board": board})
    if seen is not None and board.snapshot != seen:
        board = with_what_ended(board)
    whole = _respond(request, drawn(board, snapshot, players))
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
    cycle = orders_in_cycle(membership.campaign.options)

    def given(orders: list[Json]) -> list[Json]:
        # A ship that takes an army aboard gives it its order: the army's own order goes (O8).
        others = [o for o in orders if o["unit"] not in (unit, order.get("carry"))]
        at = next((i for i, o in enumerate(orders) if o["unit"] == unit), None)
        return [order] if cycle else _placed(others, order, at)

    saved, error = _save_draft(request, membership, given)
    if error is not None:
        return _after_post(request, membership, players, selected=unit, error=error)
    return _after_post(
        request, membership, players, selected=None, error=None, next_after=unit, written=saved
    )


@login_required
@require_POST
def orders_withdraw(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Take one unit's order out of the draft (sealed mode)."""
    membership, players = players_of(request, slug)
    unit = request.POST.get("unit", "")
    saved, error = _save_draft(
        request, membership, lambda orders: [o for o in orders if o["unit"] != unit]
    )
    return _after_post(
        request, membership, players, selected=unit or None, error=error, written=saved
    )


@login_required
@require_POST
def orders_sequence(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Set the resolution sequence (ruling O2): the units in their new order, from a drag,
    or one unit moved up or down by its buttons."""
    membership, players = players_of(request, slug)
    try:
        decision_of(request.POST)  # a page the campaign has moved past is refused first
    except common.ServiceError as refusal:
        return _after_post(request, membership, players, selected=None, error=refusal.message)
    units = request.POST.getlist("unit")
    for step, key in ((-1, "raise"), (1, "lower")):
        if request.POST.get(key) in units:
            i = units.index(request.POST[key])
            j = min(max(i + step, 0), len(units) - 1)
            units[i], units[j] = units[j], units[i]

    def sorted_as_posted(orders: list[Json]) -> list[Json]:
        by_unit = {o["unit"]: o for o in orders}
        if sorted(units) != sorted(by_unit):
            raise common.ServiceError(
                "Your orders changed while you were sorting them: here they are as they stand.",
                code="orders-changed",
            )
        return [by_unit[u] for u in units]

    saved, error = _save_draft(request, membership, sorted_as_posted)
    return _after_post(request, membership, players, selected=None, error=error, written=saved)


@login_required
@require_POST
def orders_ready(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Mark the orders ready (the month resolves once every kingdom is), or withdraw that."""
    membership, players = players_of(request, slug)
    try:
        decision = decision_of(request.POST)
        readied = submissions.submission_set_ready(
            campaign=membership.campaign,
            user=signed_in_user(request),
            ready=decision.ready,
            seen=decision.seen,
            draft=decision.draft,
            judge=_every_unit_ordered(membership, players, ready=decision.ready),
        )
    except common.ServiceError as refusal:
        return _after_post(request, membership, players, selected=None, error=refusal.message)
    return _after_post(request, membership, players, selected=None, error=None, written=readied)


def _every_unit_ordered(
    membership: Membership, players: list[Membership], *, ready: bool
) -> submissions.Judge:
    """Ready's check, on the snapshot and the draft the service reads: orders asked of the
    kingdom, and (to mark them ready) one for every unit."""

    def judge(snapshot: Snapshot, own: list[Submission]) -> dict[str, Any]:
        draft = next((d for d in own if d.kind == PendingKind.ORDERS), None)
        board = orders_board(membership, snapshot, players, draft=draft, ready=set(), digest="")
        if not board.asked:
            raise common.ServiceError("Your orders are not asked for now.")
        if ready and board.ordered < len(board.units):
            raise common.ServiceError(
                f"Give every unit an order first: {board.ordered} of {len(board.units)} units "
                "ordered."
            )
        return {}

    return judge


# --- reading the forms ------------------------------------------------------------------


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
    request: HtmxHttpRequest, membership: Membership, change: Callable[[list[Json]], list[Json]]
) -> tuple[submissions.Saved | None, str | None]:
    """The kingdom's orders after `change` to those it has given (`drafted`), saved: what
    was saved, or why not. The newest snapshot is read once, by the service."""
    kingdom = membership.kingdom
    try:
        saved = submissions.save(
            campaign=membership.campaign,
            user=signed_in_user(request),
            kind=PendingKind.ORDERS,
            edit=lambda data, draft: change(drafted(draft, data, kingdom)),
            seen=decision_of(request.POST).seen,
        )
    except common.ServiceError as refusal:
        return None, refusal.message
    return saved, None


urlpatterns = [
    path("c/<slug:slug>/orders/", orders_page, name="orders"),
    path("c/<slug:slug>/orders/status/", orders_status, name="orders_status"),
    path("c/<slug:slug>/orders/give/", orders_give, name="orders_give"),
    path("c/<slug:slug>/orders/withdraw/", orders_withdraw, name="orders_withdraw"),
    path("c/<slug:slug>/orders/sequence/", orders_sequence, name="orders_sequence"),
    path("c/<slug:slug>/orders/ready/", orders_ready, name="orders_ready"),
]
