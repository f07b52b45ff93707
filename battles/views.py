"""The battle pages: the card of one battle (for its two players, the other members and
the admin; its battle reports are `battles.report_views`', its army lists
`battles.list_views`'), the campaign's list of battles with the decisions it asks before
and after them, "my battles" for the home page, and the admin's battle desk on the
dashboard.
Each form is checked for shape here and acted on by `battles.services`; a refusal is a
message on the page the player came from, and nothing changes."""

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from battles import card, services
from battles.access import battle_for
from battles.forms import (
    AcceptForm,
    AnswerForm,
    BattleForm,
    ChooseForm,
    DecideForm,
    DisputeForm,
    ExtendForm,
    LastStandForm,
    ProposeForm,
    ReportForm,
    RetreatForm,
    SeenForm,
    SimpleForm,
    read_outcome,
    report_details,
)
from battles.list_views import lists_on_the_card
from battles.models import Battle, ResultReport
from battles.report_views import on_the_card
from campaign.access import admin_for, membership_for, newest_or_404
from campaign.actions import carry_out, form_errors, refused
from campaign.display.mapcache import snapshot_map
from campaign.display.mapsvg.orders import Pick
from campaign.display.mapsvg.render import render_map
from campaign.display.mapsvg.scene import KingdomLook, looks_of
from campaign.gazetteer import Names
from campaign.models import Campaign, Membership, Submission
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.battles.kinds import naval_possible
from campaign.rules.decisions import ANSWERS
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import neighbours
from campaign.services import ServiceError, battle_settled_meanwhile, settled_meanwhile

type Json = dict[str, Any]


# --- what a battle stands at ------------------------------------------------------------------


@dataclass(frozen=True)
class Cast:
    """The campaign's kingdoms as people read them."""

    names: Names
    players: dict[str, str]
    looks: dict[str, KingdomLook]

    def name(self, kingdom: str) -> str:
        return self.names.get(kingdom, kingdom)


def cast_of(campaign: Campaign) -> Cast:
    players = list(campaign.memberships.exclude(kingdom="").select_related("user"))
    return Cast(
        names=Names({p.kingdom: p.kingdom_name for p in players}, campaign.gazetteer),
        players={p.kingdom: p.user.get_username() for p in players},
        looks=looks_of(players),
    )


# A result given goes into the campaign once the battles step has every battle's result.
TAKES_EFFECT = "it takes effect once every battle of the month has its result"


def state_words(battle: Battle, reports: list[ResultReport], cast: Cast) -> str:
    """Where the battle stands, in a sentence."""
    if not battle.awaiting:
        return resolved_words(battle, cast)
    by_status = {r.status: r for r in reports}
    if ResultReport.Status.CONFIRMED in by_status:
        return f"Result confirmed: {TAKES_EFFECT}."
    if ResultReport.Status.DISPUTED in by_status:
        return "Disputed: the campaign's admin decides."
    if ResultReport.Status.REPORTED in by_status:
        reporter = cast.name(by_status[ResultReport.Status.REPORTED].kingdom)
        return f"Reported by {reporter}: waiting for the opponent to confirm."
    return "Waiting for the game to be played and reported."


def resolved_words(battle: Battle, cast: Cast) -> str:
    if battle.kind == "concession":
        return f"Conceded by {cast.name(battle.details.get('conceded_by', ''))}: {cast.name(battle.winner)} wins."
    if battle.result == "draw" or not battle.winner:
        return "A draw."
    return f"{cast.name(battle.winner)} won."


TO_CONFIRM = "confirm or dispute your opponent's report"
TO_REPORT = "play the game and report the result"


def asks_of_me(battle: Battle, reports: list[ResultReport], kingdom: str) -> str:
    """What the battle waits for from this side, or "" if nothing (it waits for the other
    side, or for the admin after a dispute)."""
    if not battle.awaiting or kingdom not in battle.kingdoms:
        return ""
    if any(r.status == ResultReport.Status.CONFIRMED for r in reports):
        return ""
    if any(r.status == ResultReport.Status.REPORTED and r.kingdom != kingdom for r in reports):
        return TO_CONFIRM
    if any(r.is_open for r in reports):  # your own report, or a dispute for the admin
        return ""
    return TO_REPORT


# --- the card --------------------------------------------------------------------------------


def _asked_of_player(
    battle: Battle,
    reports: list[ResultReport],
    mine: str,
    data: Json,
    seen: int,
    cast: Cast,
    listed: list[str],
) -> Json:
    """What the card asks of one of the battle's two players, with the forms to answer:
    a report to make or answer (which does not ask again for the lists attached: the
    kingdoms `listed`), a Last Stand to decide, retreats to choose."""
    asked = asks_of_me(battle, reports, mine)
    found: Json = {"asked": asked, "seen": seen}
    if asked:
        found["asked_anchor"] = "report-title" if asked == TO_REPORT else "reports-title"
    if battle.awaiting:
        found["propose_form"] = ProposeForm()
        # Report unless your own report is open or your opponent's waits for your answer.
        reported = ResultReport.Status.REPORTED
        if not any(r.status == reported or (r.kingdom == mine and r.is_open) for r in reports):
            kingdoms = [(k, cast.name(k)) for k in battle.kingdoms]
            found["report_form"] = ReportForm(
                initial={"seen": seen},
                kingdoms=kingdoms,
                artefacts=_on_the_card(battle),
                listed=listed,
            )
            found["report_listed"] = [cast.name(k) for k in battle.kingdoms if k in listed]
    units = {u for side in battle.sides for u in (*side["armies"], *side["ships"])}
    pending = [p for p in data.get("pending", []) if p["kingdom"] == mine]
    found["retreat_asked"] = [
        cast.names.unit(p["unit"])
        for p in pending
        if p["kind"] == "retreat" and p.get("unit") in units
    ]
    if any(p["kind"] == "last_stand" and p["hex"] == battle.hex for p in pending):
        found["last_stand_form"] = LastStandForm(
            initial={"seen": seen, "hex": f"{battle.hex[0]},{battle.hex[1]}"}
        )
    return found


@login_required
@require_GET
def battle_card(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """Everything two players need to set up and play the game, and to report it."""
    membership, battle = battle_for(request, slug, number)
    campaign = membership.campaign
    snapshot = newest_or_404(campaign)
    cast = cast_of(campaign)
    mine = membership.kingdom if membership.kingdom in battle.kingdoms else ""
    insider = bool(mine) or membership.is_admin
    reports = list(battle.reports.all())
    shown = [r for r in reports if insider or r.status == ResultReport.Status.CONFIRMED]
    hex_ = (battle.hex[0], battle.hex[1])
    context: Json = {
        "campaign": campaign,
        "membership": membership,
        "battle": battle,
        "cast": cast,
        "sides": card.sides(battle, cast.names, cast.players),
        "where": cast.names.at(battle.hex),
        "kind": card.KINDS.get(battle.kind, battle.kind),
        "state": state_words(battle, reports, cast),
        "mine": mine,
        "insider": insider,
        "reports": shown,
        "game_size": card.game_size(battle),
        "margin": card.margin(battle),
        "steps": card.setup_steps(battle, cast.names),
        "siege": card.siege_words(battle, cast.names),
        "outcomes": card.outcomes(snapshot.data, battle, cast.names),
        "map_svg": snapshot_map(
            snapshot, kingdoms=cast.looks, focus=[hex_, *neighbours(hex_)], names=cast.names
        ),
        "play_times": list(battle.play_times.all()),
        "now": timezone.now(),
    }
    if battle.resolved_in is not None:
        context["changes"] = card.changes(battle.resolved_in.data, battle, cast.names)
    context |= on_the_card(battle, membership, cast.names)
    settled = battle.awaiting and battle_settled_meanwhile(campaign, battle.hex)
    context |= {"moving_on": settled, "seen": snapshot.number}
    context |= lists_on_the_card(
        battle, membership, cast.names, reports, result_in=settled or not battle.awaiting
    )
    if mine and not settled:
        listed = [s.kingdom for s in context["side_lists"] if s.attached]
        context |= _asked_of_player(
            battle, reports, mine, snapshot.data, snapshot.number, cast, listed
        )
    return render(request, "battles/card.html", context)


def _on_the_card(battle: Battle) -> list[str]:
    """The magical artefacts the card lists on the two sides' armies (option wizards)."""
    return [name for side in battle.sides for name in side.get("artefacts") or ()]


def _report(battle: Battle, user: User, data: Json) -> str:
    result, winner = read_outcome(data["outcome"])
    services.battle_report(
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
    services.battle_confirm(report=_their_report(battle, data), user=user, seen=data["seen"])
    return "Confirmed: the result goes to the campaign, which moves on."


def _dispute(battle: Battle, user: User, data: Json) -> str:
    services.battle_dispute(
        report=_their_report(battle, data), user=user, reason=data["reason"], seen=data["seen"]
    )
    return (
        "Disputed: the campaign's admin will decide. You may also report the result as you saw it."
    )


def _withdraw(battle: Battle, user: User, data: Json) -> str:
    services.battle_withdraw(report=_their_report(battle, data), user=user)
    return "Your report is withdrawn: you may report again."


def _concede(battle: Battle, user: User, data: Json) -> str:
    services.battle_concede(battle=battle, user=user, seen=data["seen"])
    return "You conceded the field: a loss, worth no might to your opponent."


def _propose(battle: Battle, user: User, data: Json) -> str:
    services.battle_propose_time(battle=battle, user=user, at=data["at"])
    return "Your proposed time is on the card for your opponent to accept."


def _accept(battle: Battle, user: User, data: Json) -> str:
    play_time = battle.play_times.filter(pk=data["play_time"]).first()
    if play_time is None:
        raise ServiceError("There is no such proposed time.", code="no-such-time")
    services.battle_accept_time(play_time=play_time, user=user)
    return "Agreed: the time is on the card."


type OnBattle = Callable[[Battle, User, Json], str]
PLAYER_ACTIONS: dict[str, tuple[type[BattleForm], OnBattle]] = {
    "report": (ReportForm, _report),
    "confirm": (AnswerForm, _confirm),
    "dispute": (DisputeForm, _dispute),
    "withdraw": (AnswerForm, _withdraw),
    "concede": (SeenForm, _concede),
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
    form = form_class(request.POST, kingdoms=kingdoms, artefacts=_on_the_card(battle), **listed)
    carry_out(request, form, lambda data: act(battle, user, data))
    return redirect("battles:card", slug=slug, number=number)


# --- the campaign's battles --------------------------------------------------------------------

FILTERS = {
    "all": "All",
    "awaiting": "Waiting for a result",
    "disputed": "Disputed",
    "resolved": "Resolved",
    "mine": "Mine",
}


@dataclass(frozen=True)
class Row:
    battle: Battle
    where: str
    fighters: str  # "Aldermark against Brightwater"
    state: str
    asked: str  # what it waits for from the viewer
    disputed: bool
    overdue: bool


def rows_of(battles: list[Battle], cast: Cast, kingdom: str) -> list[Row]:
    now = timezone.now()
    rows = []
    for battle in battles:
        reports = list(battle.reports.all())
        rows.append(
            Row(
                battle=battle,
                where=cast.names.at(battle.hex),
                fighters=f"{cast.name(battle.attacker)} against {cast.name(battle.defender)}",
                state=state_words(battle, reports, cast),
                asked=asks_of_me(battle, reports, kingdom),
                disputed=battle.awaiting
                and any(r.status == ResultReport.Status.DISPUTED for r in reports),
                overdue=battle.awaiting and battle.deadline is not None and battle.deadline < now,
            )
        )
    return rows


def _shown(row: Row, show: str, kingdom: str) -> bool:
    return {
        "all": True,
        "awaiting": row.battle.awaiting,
        "disputed": row.disputed,
        "resolved": not row.battle.awaiting,
        "mine": kingdom in row.battle.kingdoms,
    }[show]


@dataclass(frozen=True)
class Decision:
    """A choice the campaign asks of the viewer's kingdom around its battles."""

    kind: str
    where: str
    form: forms.Form
    facts: Json


def answered(campaign: Campaign, kingdom: str) -> dict[str, Any]:
    """What the kingdom has given and marked ready, not yet used, by kind."""
    if not kingdom:
        return {}
    ready = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, consumed_by=None, ready=True
    )
    return dict(ready.values_list("kind", "payload"))


def _given(decision: "Decision", given: dict[str, Any]) -> bool:
    """The decision is answered: its kind given, and for a retreat, its own unit's."""
    kind = ANSWERS[decision.kind]
    if decision.kind == "retreat":
        return decision.facts["unit"] in given.get(kind, {})
    return kind in given


def decisions(data: Json, kingdom: str, seen: int, cast: Cast, slug: str) -> list[Decision]:
    """The Last Stand, next battle and retreat choices the newest snapshot asks of the
    kingdom, each with its form."""
    found = []
    for n, asked in enumerate(p for p in data.get("pending", []) if p["kingdom"] == kingdom):
        if asked["kind"] == "last_stand":
            form: forms.Form = LastStandForm(
                initial={"seen": seen, "hex": f"{asked['hex'][0]},{asked['hex'][1]}"},
                auto_id=f"stand-{n}-%s",
            )
            found.append(Decision("last_stand", cast.names.at(asked["hex"]), form, asked))
        elif asked["kind"] == "battle_choice":
            state = parse_campaign(data)
            tiles = [
                (
                    cast.names.at(h, picking=True),
                    ChooseForm(initial={"seen": seen, "hex": f"{h[0]},{h[1]}"}),
                    naval_possible(state, (h[0], h[1]), kingdom),
                )
                for h in asked["choices"]
            ]
            naval = any(at_sea for _, _, at_sea in tiles)
            on_map = _tap_to_choose(
                data, cast, slug, asked["choices"], "choose", "Fight at", "hex", seen
            )
            facts = {"choices": tiles, "naval": naval, "map_svg": on_map}
            found.append(Decision("battle_choice", "", SeenForm(), facts))
        elif asked["kind"] == "retreat":
            unit = asked["unit"]
            choices = [
                (f"{h[0]},{h[1]}", card.tile_words(data, h, cast.names)) for h in asked["choices"]
            ]
            named = cast.names.unit(unit)
            on_map = _tap_to_choose(
                data, cast, slug, asked["choices"], "retreat", f"{named} retreats to",
                f"retreat-{unit}", seen,
            )  # fmt: skip
            facts = {**asked, "unit_name": named, "choices": choices, "map_svg": on_map}
            found.append(Decision("retreat", "", SeenForm(initial={"seen": seen}), facts))
    return found


def _tap_to_choose(
    data: Json,
    cast: Cast,
    slug: str,
    choices: list[list[int]],
    action: str,
    verb: str,
    field: str,
    seen: int,
) -> str:
    """The map around the tiles offered, each lit to tap: tapping posts the same choice as
    the form's button for it (the list stays as the accessible way)."""
    url = reverse("battles:decide", args=[slug, action])
    picks = [
        Pick(
            hex=(h[0], h[1]),
            label=f"{verb} {card.tile_words(data, h, cast.names)}",
            href="#decisions-title",
            attrs={
                "hx-post": url,
                "hx-vals": json.dumps({"seen": seen, field: f"{h[0]},{h[1]}"}),
                "hx-target": "body",
                "hx-swap": "innerHTML",
            },
        )
        for h in choices
    ]
    around = [n for p in picks for n in (p.hex, *neighbours(p.hex))]
    return render_map(data, kingdoms=cast.looks, picks=picks, focus=around, names=cast.names)


@login_required
@require_GET
def battle_list(request: HttpRequest, slug: str) -> HttpResponse:
    membership = membership_for(request, slug)
    campaign = membership.campaign
    show = request.GET.get("show", "all")
    if show not in FILTERS:
        show = "all"
    cast = cast_of(campaign)
    battles = list(
        Battle.objects.filter(campaign=campaign).prefetch_related("reports").order_by("-number")
    )
    rows = [
        r for r in rows_of(battles, cast, membership.kingdom) if _shown(r, show, membership.kingdom)
    ]
    snapshot = campaign.snapshots.order_by("-number").defer("decisions").first()
    asked = (
        decisions(snapshot.data, membership.kingdom, snapshot.number, cast, campaign.slug)
        if snapshot is not None and membership.kingdom
        else []
    )
    given = answered(campaign, membership.kingdom)
    still = [d for d in asked if not _given(d, given)]
    return render(
        request,
        "battles/list.html",
        {
            "campaign": campaign,
            "membership": membership,
            "rows": rows,
            "show": show,
            "filters": FILTERS,
            "decisions": still,
            "moving_on": bool(asked) and not still,
            "seen": snapshot.number if snapshot else None,
            "cast": cast,
        },
    )


def _last_stand(campaign: Campaign, user: User, data: Json) -> str:
    services.battle_last_stand(
        campaign=campaign, user=user, hex=data["hex"], stand=data["stand"], seen=data["seen"]
    )
    return "Your choice is made."


def _choose(campaign: Campaign, user: User, data: Json) -> str:
    services.battle_choose(
        campaign=campaign, user=user, hex=data["hex"], naval=data["naval"], seen=data["seen"]
    )
    return "Your next battle is chosen" + (": a naval battle." if data["naval"] else ".")


def _retreat(campaign: Campaign, user: User, data: Json) -> str:
    services.battle_retreat(
        campaign=campaign, user=user, retreats=data["retreats"], seen=data["seen"]
    )
    return "Your units retreat where you said."


type OnCampaign = Callable[[Campaign, User, Json], str]
DECISIONS: dict[str, tuple[type[BattleForm], OnCampaign]] = {
    "last-stand": (LastStandForm, _last_stand),
    "choose": (ChooseForm, _choose),
    "retreat": (RetreatForm, _retreat),
}


@login_required
@require_POST
def battle_decide(request: HttpRequest, slug: str, action: str) -> HttpResponse:
    """A Last Stand, the next battle's tile, or where units retreat."""
    campaign = membership_for(request, slug).campaign
    user = request.user
    if action not in DECISIONS or not isinstance(user, User):
        raise Http404("No such action.")
    form_class, act = DECISIONS[action]
    carry_out(request, form_class(request.POST), lambda data: act(campaign, user, data))
    return redirect("battles:list", slug=slug)


# --- my battles, on the home page -------------------------------------------------------------


@dataclass(frozen=True)
class MyBattle:
    battle: Battle
    where: str
    against: str  # the opponent's kingdom name
    asked: str  # what it waits for from me, "" if nothing
    state: str


@login_required
@require_GET
def my_battles(request: HtmxHttpRequest) -> HttpResponse:
    """The battles waiting for their result in which the user fights, across campaigns,
    with what each waits for from them."""
    user = request.user
    if not isinstance(user, User):
        raise Http404("No such page.")
    playing = {m.campaign_id: m for m in Membership.objects.filter(user=user).exclude(kingdom="")}
    where = Q(pk__in=[])
    for m in playing.values():
        where |= Q(campaign=m.campaign_id) & (Q(attacker=m.kingdom) | Q(defender=m.kingdom))
    battles = (
        Battle.objects.filter(where, status=Battle.Status.AWAITING)
        .select_related("campaign")
        .prefetch_related("reports")
        .order_by("deadline", "pk")
    )
    kingdom_names = {
        (m.campaign_id, m.kingdom): m.kingdom_name
        for m in Membership.objects.filter(campaign__in=list(playing)).exclude(kingdom="")
    }
    items = []
    for battle in battles:
        me = playing[battle.campaign_id].kingdom
        against = battle.opponent_of(me)
        reports = list(battle.reports.all())
        names = {k: v for (c, k), v in kingdom_names.items() if c == battle.campaign_id}
        named = Names(names, battle.campaign.gazetteer)
        items.append(
            MyBattle(
                battle=battle,
                where=named.at(battle.hex),
                against=names.get(against, against),
                asked=asks_of_me(battle, reports, me),
                state=state_words(battle, reports, Cast(named, {}, {})),
            )
        )
    return page_or_fragment(request, "battles/mine.html", {"items": items}, fragment="mine")


# --- the admin's desk -------------------------------------------------------------------------


@login_required
@require_GET
def battle_admin(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership, _ = admin_for(request, slug)
    return _desk(request, membership)


def _desk(request: HtmxHttpRequest, membership: Membership, *, status: int = 200) -> HttpResponse:
    """Every battle's state for the admin, those that need a decision first (disputed,
    overdue), with the reports side by side and the admin's forms, each carrying the
    snapshot the desk shows (`seen`)."""
    campaign = membership.campaign
    newest = campaign.snapshots.order_by("-number").values_list("number", flat=True).first()
    seen = {"seen": newest}  # none before the start, when the desk has no battle
    cast = cast_of(campaign)
    battles = list(
        Battle.objects.filter(campaign=campaign).prefetch_related("reports").order_by("-number")
    )
    rows = rows_of(battles, cast, "")
    rows.sort(key=lambda r: (not r.disputed and not r.overdue, not r.battle.awaiting))
    settled = settled_meanwhile(campaign)
    desks = [
        {
            "row": row,
            "result_in": row.battle.awaiting and row.battle.hex in settled,
            "reports": [
                r for r in row.battle.reports.all() if r.is_open or r.status == "confirmed"
            ],
            "decide": DecideForm(
                initial=seen,
                kingdoms=[(k, cast.name(k)) for k in row.battle.kingdoms],
                artefacts=_on_the_card(row.battle),
                auto_id=f"decide-{row.battle.number}-%s",
            ),
            "simple": SimpleForm(initial=seen, auto_id=f"simple-{row.battle.number}-%s"),
            "extend": ExtendForm(initial=seen, auto_id=f"extend-{row.battle.number}-%s"),
        }
        for row in rows
    ]
    context = {"campaign": campaign, "membership": membership, "desks": desks, "cast": cast}
    return page_or_fragment(request, "battles/admin.html", context, fragment="desk", status=status)


def _decide(battle: Battle, actor: User, data: Json) -> str:
    result, winner = read_outcome(data["outcome"])
    recorded_again = services.battle_decide(
        battle=battle, actor=actor, result=result, winner=winner, reason=data["reason"],
        captured=data.get("captured") or (), seen=data["seen"],
    )  # fmt: skip
    again = " again, in place of the one given (both players are told)" if recorded_again else ""
    return f"The result of battle {battle.number} is recorded{again}: {TAKES_EFFECT}."


def _simple(battle: Battle, actor: User, data: Json) -> str:
    services.battle_resolve_simply(
        battle=battle, actor=actor, reason=data["reason"], seen=data["seen"]
    )
    return f"Battle {battle.number} is settled as a simple battle: its dice are on its card."


def _extend(battle: Battle, actor: User, data: Json) -> str:
    hours = data["hours"]
    services.battle_extend(
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
    form = form_class(request.POST, kingdoms=kingdoms, artefacts=_on_the_card(battle))
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
