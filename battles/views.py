"""The battle pages: the card of one battle (for its two players, the other members and
the admin; its battle reports are `battles.report_views`', its army lists
`battles.list_views`'), the campaign's list of battles with the decisions it asks before
and after them, "my battles" for the home page, and the admin's battle desk on the
dashboard. What each page draws is `battles.board`.
Each form is checked for shape here and acted on by `battles.services`; a refusal is a
message on the page the player came from, and nothing changes."""

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from battles import board
from battles.access import battle_for
from battles.board import TAKES_EFFECT, artefacts_on_the_card, cast_of
from battles.forms import (
    AcceptForm,
    AnswerForm,
    BattleForm,
    ConcedeForm,
    DecideForm,
    DisputeForm,
    ExtendForm,
    ProposeForm,
    ReportForm,
    SimpleForm,
    read_outcome,
    report_details,
)
from battles.list_views import lists_on_the_card
from battles.models import Battle, ResultReport
from battles.report_views import on_the_card
from battles.services import decisions, desk, results
from campaign.access import admin_for, membership_for, newest_or_404
from campaign.actions import carry_out, form_errors, refused
from campaign.forms import DECISIONS as MADE
from campaign.forms import DecisionForm
from campaign.models import Campaign, Membership
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.state import PendingKind
from campaign.services.battle_entries import battle_settled_meanwhile, settled_meanwhile
from campaign.services.common import ServiceError

type Json = dict[str, Any]


# --- the card --------------------------------------------------------------------------------


@login_required
@require_GET
def battle_card(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Everything two players need to set up and play the game, and to report it."""
    membership, battle = battle_for(request, slug, number)
    campaign = membership.campaign
    snapshot = newest_or_404(campaign)
    cast = cast_of(campaign)
    reports = list(battle.reports.all())
    context = board.card_context(membership, battle, snapshot, cast, reports)
    context |= on_the_card(battle, membership, cast.names)
    settled = battle.awaiting and battle_settled_meanwhile(campaign, battle.hex)
    context |= {"moving_on": settled, "seen": snapshot.number}
    context |= lists_on_the_card(
        battle, membership, cast.names, reports, result_in=settled or not battle.awaiting
    )
    mine = context["mine"]
    if mine and not settled:
        listed = [s.kingdom for s in context["side_lists"] if s.attached]
        context |= board.asked_of_player(battle, reports, mine, snapshot, cast, listed)
    return render(request, "battles/card.html", context)


def _report(battle: Battle, user: User, data: Json) -> str:
    result, winner = read_outcome(data["outcome"])
    results.battle_report(
        battle=battle, user=user, result=result, winner=winner, seen=data["seen"],
        captured=data.get("captured") or (), **report_details(data),
    )  # fmt: skip
    return "Your report is in: your opponent confirms or disputes it."


def _their_report(battle: Battle, data: Json) -> ResultReport:
    report = battle.reports.filter(pk=data["report"]).first()
    if report is None:
        raise ServiceError("There is no such report of this battle.", code="no-such-report")
    return report


def _confirm(battle: Battle, user: User, data: Json) -> str:
    results.battle_confirm(report=_their_report(battle, data), user=user, seen=data["seen"])
    return "Confirmed: the result goes to the campaign, which moves on."


def _dispute(battle: Battle, user: User, data: Json) -> str:
    results.battle_dispute(
        report=_their_report(battle, data), user=user, reason=data["reason"], seen=data["seen"]
    )
    return (
        "Disputed: the campaign's admin will decide. You may also report the result as you saw it."
    )


def _withdraw(battle: Battle, user: User, data: Json) -> str:
    results.battle_withdraw(report=_their_report(battle, data), user=user)
    return "Your report is withdrawn: you may report again."


def _concede(battle: Battle, user: User, data: Json) -> str:
    decisions.battle_concede(battle=battle, user=user, seen=data["seen"])
    return "You conceded the field: a loss, worth no might to your opponent."


def _propose(battle: Battle, user: User, data: Json) -> str:
    decisions.battle_propose_time(battle=battle, user=user, at=data["at"])
    return "Your proposed time is on the card for your opponent to accept."


def _accept(battle: Battle, user: User, data: Json) -> str:
    play_time = battle.play_times.filter(pk=data["play_time"]).first()
    if play_time is None:
        raise ServiceError("There is no such proposed time.", code="no-such-time")
    decisions.battle_accept_time(play_time=play_time, user=user)
    return "Agreed: the time is on the card."


type OnBattle = Callable[[Battle, User, Json], str]
PLAYER_ACTIONS: dict[str, tuple[type[BattleForm], OnBattle]] = {
    "report": (ReportForm, _report),
    "confirm": (AnswerForm, _confirm),
    "dispute": (DisputeForm, _dispute),
    "withdraw": (AnswerForm, _withdraw),
    "concede": (ConcedeForm, _concede),
    "propose": (ProposeForm, _propose),
    "accept": (AcceptForm, _accept),
}


@login_required
@require_POST
def battle_act(request: HttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    """A player's report, answer, concession or proposed time; back to the card with what
    happened or why not."""
    _, battle = battle_for(request, slug, number)
    user = request.user
    if action not in PLAYER_ACTIONS or not isinstance(user, User):
        raise Http404("No such action.")
    form_class, act = PLAYER_ACTIONS[action]
    kingdoms = [(k, k) for k in battle.kingdoms]
    # A report does not ask again for a list attached to the battle: the service takes it.
    listed = (
        {"listed": list(battle.attached_lists.values_list("kingdom", flat=True))}
        if form_class is ReportForm
        else {}
    )
    form = form_class(
        request.POST, kingdoms=kingdoms, artefacts=artefacts_on_the_card(battle), **listed
    )
    carry_out(request, form, lambda data: act(battle, user, data))
    return redirect("battles:card", slug=slug, number=number)


# --- the campaign's battles --------------------------------------------------------------------


@login_required
@require_GET
def battle_list(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request, slug)
    campaign = membership.campaign
    show = request.GET.get("show", "all")
    if show not in board.FILTERS:
        show = "all"
    cast = cast_of(campaign)
    rows = board.battle_rows(campaign, cast, membership, show)
    snapshot = campaign.snapshots.order_by("-number").defer("decisions").first()
    asked = (
        board.decisions(snapshot.data, membership.kingdom, snapshot.number, cast, campaign.slug)
        if snapshot is not None and membership.kingdom
        else []
    )
    answers = board.answered(campaign, membership.kingdom)
    still = [d for d in asked if not board.given(d, answers)]
    return render(
        request,
        "battles/list.html",
        {
            "campaign": campaign,
            "membership": membership,
            "rows": rows,
            "show": show,
            "filters": board.FILTERS,
            "decisions": still,
            "moving_on": bool(asked) and not still,
            "seen": snapshot.number if snapshot else None,
            "cast": cast,
        },
    )


def _last_stand(campaign: Campaign, user: User, data: Json) -> str:
    decisions.battle_last_stand(
        campaign=campaign, user=user, hex=data["hex"], stand=data["stand"], seen=data["seen"]
    )
    return "Your choice is made."


def _choose(campaign: Campaign, user: User, data: Json) -> str:
    decisions.battle_choose(
        campaign=campaign, user=user, hex=data["hex"], naval=data["naval"], seen=data["seen"]
    )
    return "Your next battle is chosen" + (": a naval battle." if data["naval"] else ".")


def _retreat(campaign: Campaign, user: User, data: Json) -> str:
    decisions.battle_retreat(
        campaign=campaign, user=user, retreats=data["retreats"], seen=data["seen"]
    )
    return "Your units retreat where you said."


type OnCampaign = Callable[[Campaign, User, Json], str]
# Each decision of the battles page by the slug of its post, its form the table's
# (campaign.forms.DECISIONS).
DECISIONS: dict[str, tuple[PendingKind, OnCampaign]] = {
    "last-stand": (PendingKind.LAST_STAND, _last_stand),
    "choose": (PendingKind.BATTLE_CHOICE, _choose),
    "retreat": (PendingKind.RETREAT, _retreat),
}


@login_required
@require_POST
def battle_decide(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """A Last Stand, the next battle's tile, or where units retreat."""
    campaign = membership_for(request, slug).campaign
    user = request.user
    if action not in DECISIONS or not isinstance(user, User):
        raise Http404("No such action.")
    kind, act = DECISIONS[action]
    form: DecisionForm = MADE[kind].form(request.POST)
    carry_out(request, form, lambda data: act(campaign, user, data))
    return redirect("battles:list", slug=slug)


# --- my battles, on the home page -------------------------------------------------------------


@login_required
@require_GET
def my_battles(request: HtmxHttpRequest) -> HttpResponse:
    """The battles waiting for their result in which the user fights, across campaigns,
    with what each waits for from them."""
    user = request.user
    if not isinstance(user, User):
        raise Http404("No such page.")
    items = board.my_battles_of(user)
    return page_or_fragment(request, "battles/mine.html", {"items": items}, fragment="mine")


# --- the admin's desk -------------------------------------------------------------------------


@login_required
@require_GET
def battle_admin(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership, _ = admin_for(request, slug)
    return _desk(request, membership)


def _desk(request: HtmxHttpRequest, membership: Membership, *, status: int = 200) -> HttpResponse:
    """The admin's battle desk (`board.desks_of`), each form carrying the snapshot the desk
    shows."""
    campaign = membership.campaign
    newest = campaign.snapshots.order_by("-number").values_list("number", flat=True).first()
    cast = cast_of(campaign)
    desks = board.desks_of(campaign, cast, settled_meanwhile(campaign), newest)
    context = {"campaign": campaign, "membership": membership, "desks": desks, "cast": cast}
    return page_or_fragment(request, "battles/admin.html", context, fragment="desk", status=status)


def _decide(battle: Battle, actor: User, data: Json) -> str:
    result, winner = read_outcome(data["outcome"])
    recorded_again = desk.battle_decide(
        battle=battle, actor=actor, result=result, winner=winner, reason=data["reason"],
        captured=data.get("captured") or (), seen=data["seen"],
    )  # fmt: skip
    again = " again, in place of the one given (both players are told)" if recorded_again else ""
    return f"The result of battle {battle.number} is recorded{again}: {TAKES_EFFECT}."


def _simple(battle: Battle, actor: User, data: Json) -> str:
    desk.battle_resolve_simply(battle=battle, actor=actor, reason=data["reason"], seen=data["seen"])
    return f"Battle {battle.number} is settled as a simple battle: its dice are on its card."


def _extend(battle: Battle, actor: User, data: Json) -> str:
    hours = data["hours"]
    desk.battle_extend(
        battle=battle, actor=actor, hours=hours, reason=data["reason"], seen=data["seen"]
    )
    return f"Battle {battle.number} has {hours} more hour{'s' if hours != 1 else ''}."


ADMIN_ACTIONS: dict[str, tuple[type[BattleForm], OnBattle]] = {
    "decide": (DecideForm, _decide),
    "simple": (SimpleForm, _simple),
    "extend": (ExtendForm, _extend),
}


@login_required
@require_POST
def battle_admin_act(request: HtmxHttpRequest, slug: str, number: int, action: str) -> HttpResponse:
    """Check the form, call the service; back to the desk with what happened or why not. A
    form in a shape no desk sends (without its `seen`, say) is answered with the desk as it
    stands and why, a 400 without htmx."""
    membership, actor = admin_for(request, slug)
    battle = get_object_or_404(Battle, campaign=membership.campaign, number=number)
    if action not in ADMIN_ACTIONS:
        raise Http404("No such action.")
    form_class, act = ADMIN_ACTIONS[action]
    kingdoms = [(k, k) for k in battle.kingdoms]
    form = form_class(request.POST, kingdoms=kingdoms, artefacts=artefacts_on_the_card(battle))
    if not form.is_valid():
        refused(request, form_errors(form))
        return _desk(request, membership, status=200 if request.htmx else 400)
    carry_out(request, form, lambda data: act(battle, actor, data))
    return redirect(reverse("battles:admin", args=[slug]))


urlpatterns: list[URLPattern] = [
    path("battles/mine/", my_battles, name="mine"),
    path("c/<slug:slug>/battles/", battle_list, name="list"),
    path("c/<slug:slug>/battles/admin/", battle_admin, name="admin"),
    path("c/<slug:slug>/battles/decide/<slug:action>/", battle_decide, name="decide"),
    path("c/<slug:slug>/battles/<int:number>/", battle_card, name="card"),
    path("c/<slug:slug>/battles/<int:number>/<slug:action>/", battle_act, name="act"),
    path(
        "c/<slug:slug>/battles/<int:number>/admin/<slug:action>/",
        battle_admin_act,
        name="admin_act",
    ),
]
