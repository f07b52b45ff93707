"""The setup page: each kingdom chooses its race in secret (ruling S1), then in player
order its capital, one kingdom at a time (S3), then every kingdom at once its settlements
and the place of its first army, each hidden until all are in (S4): the rulebook's Initial
Kingdom, steps A to E. The page always says whom the campaign waits for.

Every choice goes through `submissions.submission_save`, so the engine checks it and a stale
page is refused. The settlements are placed one at a time, but the campaign file only
takes all four at once: until the fourth is placed, the partial plan is kept in the
player's session (for the snapshot it was made on) and saved once complete.

What the board shows is campaign.display.setup_board: these handlers read the request,
fetch what the board needs, call the services and choose the answer."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from campaign.access import membership_for
from campaign.display.setup_board import (
    SLOTS,
    Board,
    Plan,
    asked_now,
    not_started,
    plan_payload,
    plan_with,
    settlement_plan,
    setup_board,
    setup_kind,
)
from campaign.forms import read_hex
from campaign.models import Campaign, Membership, Snapshot, Submission
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.decisions import ANSWERS
from campaign.rules.hexmap import hex_label
from campaign.rules.state import PendingKind
from campaign.rules.vocabulary import RACES
from campaign.services import common, submissions
from campaign.services.common import ServiceError
from campaign.views.common import decision_of
from campaign.views.freshness import revalidated_setup

type Json = dict[str, Any]


# --- reading the board ------------------------------------------------------------------


def _draft_key(campaign: Campaign) -> str:
    return f"setup-settlements-{campaign.pk}"


def _kept_plan(request: HttpRequest, campaign: Campaign, snapshot: int) -> Plan:
    """The partial plan kept for this snapshot; none once the campaign has moved on."""
    draft = request.session.get(_draft_key(campaign))
    return dict(draft["plan"]) if draft and draft.get("snapshot") == snapshot else {}


def _open_decisions(membership: Membership) -> list[Submission]:
    """The open decisions of the member's kingdom, if it rules one."""
    if not membership.kingdom:
        return []
    return list(
        Submission.objects.filter(
            campaign=membership.campaign, kingdom=membership.kingdom, consumed_by=None
        )
    )


def _own(membership: Membership, kind: str | None) -> Submission | None:
    """The kingdom's open decision of `kind`, if it rules one and has given it."""
    return next((d for d in _open_decisions(membership) if kind and d.kind == kind), None)


def _board(
    request: HttpRequest,
    membership: Membership,
    *,
    slot: str | None = None,
    error: str | None = None,
    notice: str | None = None,
    written: submissions.Written | None = None,
) -> Board:
    """The member's board at the newest snapshot, with what it needs fetched: the one a
    post has just `written` against, unless the campaign may have moved on since."""
    campaign = membership.campaign
    snapshot = (written and written.unmoved) or Snapshot.objects.newest(campaign)
    players = list(campaign.memberships.exclude(kingdom=""))
    if snapshot is None:
        return not_started(membership, error)
    kind, given = setup_kind(snapshot.data), _open_decisions(membership)
    return setup_board(
        membership,
        snapshot,
        players=players,
        own=next((d for d in given if kind and d.kind == kind), None),
        digest=submissions.draft_digest(given),
        ready=common.ready_kingdoms(campaign),
        kept_plan=_kept_plan(request, campaign, snapshot.number),
        slot=slot,
        error=error,
        notice=notice,
    )


# --- answering ------------------------------------------------------------------------


def _respond(request: HtmxHttpRequest, board: Board, *, status: int = 200) -> HttpResponse:
    context = {"board": board}
    return page_or_fragment(
        request, "campaign/setup.html", context, fragment="board", status=status
    )


def _answer(
    request: HtmxHttpRequest,
    membership: Membership,
    *,
    notice: str = "",
    error: str = "",
    written: submissions.Written | None = None,
) -> HttpResponse:
    """htmx gets the refreshed board (drawn from what the post `written`, if it wrote). A
    plain form post that worked is sent back to the page with a message, so reloading
    never posts again; a refusal is shown beside the choice, with what was saved before
    unchanged."""
    if request.htmx:
        board = _board(request, membership, notice=notice, error=error, written=written)
        return _respond(request, board)
    if error:
        return _respond(
            request, _board(request, membership, error=error, written=written), status=400
        )
    messages.success(request, notice)
    return redirect("campaign:setup", membership.campaign.slug)


def _hex(request: HttpRequest) -> list[int]:
    hex_ = read_hex(request.POST.get("hex", ""))
    if hex_ is None:
        raise ServiceError("Choose a tile on the map or in the list.", code="bad-hex")
    return list(hex_)


def _save(
    request: HtmxHttpRequest, membership: Membership, kind: str, payload: Any, notice: str
) -> HttpResponse:
    assert isinstance(request.user, User)  # login_required
    try:
        saved = submissions.save(
            campaign=membership.campaign,
            user=request.user,
            kind=kind,
            payload=payload,
            seen=decision_of(request.POST).seen,
        )
    except ServiceError as refusal:
        return _answer(request, membership, error=refusal.message)
    return _answer(request, membership, notice=notice, written=saved)


# --- views ----------------------------------------------------------------------------


@login_required
@require_GET
@revalidated_setup
def setup_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request, slug)
    return _respond(request, _board(request, membership, slot=request.GET.get("settlement")))


@login_required
@require_POST
def choose_race(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request, slug)
    race = request.POST.get("race", "")
    if race not in RACES:
        return _answer(request, membership, error="Choose one of the races in the list.")
    notice = f"Your race: {race}. Only you see it until every kingdom has chosen."
    return _save(request, membership, "races", race, notice)


@login_required
@require_POST
def choose_capital(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request, slug)
    try:
        hex_ = _hex(request)
    except ServiceError as refusal:
        return _answer(request, membership, error=refusal.message)
    notice = f"Your capital: {hex_label((hex_[0], hex_[1]))}. Mark it ready when you are sure."
    return _save(request, membership, "capitals", hex_, notice)


@login_required
@require_POST
def choose_army(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request, slug)
    try:
        hex_ = _hex(request)
    except ServiceError as refusal:
        return _answer(request, membership, error=refusal.message)
    notice = f"Your first army: {hex_label((hex_[0], hex_[1]))}. Mark it ready when you are sure."
    return _save(request, membership, "starting_armies", hex_, notice)


@login_required
@require_POST
def place_settlement(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Put one settlement on one of the capital's neighbours; the plan is saved through the
    engine once all four are placed, and every change after that is saved at once."""
    membership = membership_for(request, slug)
    try:
        plan, complete = _placed(request, membership)
    except ServiceError as refusal:
        return _answer(request, membership, error=refusal.message)
    slot = request.POST["settlement"]
    where = hex_label((plan[slot][0], plan[slot][1]))
    notice = f"{SLOTS[slot]} placed at {where}." + (
        " Mark your settlements ready when you are happy with them." if complete else ""
    )
    return _answer(request, membership, notice=notice)


def _placed(request: HttpRequest, membership: Membership) -> tuple[Plan, bool]:
    """The kingdom's settlement plan with the posted placement: kept in the session while
    partial, saved as the kingdom's decision once complete."""
    slot, hex_, seen = (
        request.POST.get("settlement", ""),
        _hex(request),
        decision_of(request.POST).seen,
    )
    if slot not in SLOTS:
        raise ServiceError("Choose which settlement to place: the city, the fortress or a village.")
    campaign = membership.campaign
    snapshot = common.latest_snapshot(campaign)
    _check_site(snapshot.data, membership.kingdom, hex_, seen=seen, number=snapshot.number)
    kept = _kept_plan(request, campaign, snapshot.number)
    plan = plan_with(settlement_plan(_own(membership, PendingKind.SETTLEMENTS), kept), slot, hex_)
    if len(plan) < len(SLOTS):
        request.session[_draft_key(campaign)] = {"snapshot": snapshot.number, "plan": plan}
        return plan, False
    assert isinstance(request.user, User)  # login_required
    submissions.submission_save(
        campaign=campaign, user=request.user, kind=ANSWERS[PendingKind.SETTLEMENTS], payload=plan_payload(plan),
        seen=seen,
    )  # fmt: skip
    request.session.pop(_draft_key(campaign), None)
    return plan, True


def _check_site(data: Json, kingdom: str, hex_: list[int], *, seen: int, number: int) -> None:
    """A partial plan is not given to the engine (it takes all four settlements at once),
    so each placement is checked against the sites the engine offers in `pending`, with
    the same refusals `submission_save` gives."""
    if seen != number:
        raise ServiceError(
            "The campaign has moved on since you looked: check the new state and decide again.",
            code="moved-on",
        )
    mine = asked_now(data, kingdom)
    if mine is None or mine["kind"] != PendingKind.SETTLEMENTS:
        raise ServiceError("Nothing of that kind is asked of your kingdom now.", code="not-asked")
    if hex_ not in mine["choices"]:
        raise ServiceError(
            f"{hex_label((hex_[0], hex_[1]))} is not a tile next to your capital that an army "
            "may enter.",
            code="settlement-not-beside-capital",
        )


@login_required
@require_POST
def set_ready(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """Mark the kingdom's choice ready (or, with ready=no, take that back). Ready confirms
    the choice its page showed (`draft`, its digest): one changed since in another tab is
    refused, and the board shows the choice as it stands."""
    membership = membership_for(request, slug)
    assert isinstance(request.user, User)  # login_required
    try:
        decision = decision_of(request.POST)
        ready = decision.ready
        readied = submissions.submission_set_ready(
            campaign=membership.campaign,
            user=request.user,
            ready=ready,
            seen=decision.seen,
            draft=decision.draft,
        )
    except ServiceError as refusal:
        return _answer(request, membership, error=refusal.message)
    if not readied.count:
        return _answer(
            request,
            membership,
            error="Make your choice first, then mark it ready.",
            written=readied,
        )
    notice = (
        "Ready. The campaign moves on when every kingdom it asks is ready."
        if ready
        else "Not ready: you may change your choice."
    )
    return _answer(request, membership, notice=notice, written=readied)


urlpatterns = [
    path("c/<slug:slug>/setup/", setup_page, name="setup"),
    path("c/<slug:slug>/setup/race/", choose_race, name="setup_race"),
    path("c/<slug:slug>/setup/capital/", choose_capital, name="setup_capital"),
    path("c/<slug:slug>/setup/settlement/", place_settlement, name="setup_settlement"),
    path("c/<slug:slug>/setup/army/", choose_army, name="setup_army"),
    path("c/<slug:slug>/setup/ready/", set_ready, name="setup_ready"),
]
