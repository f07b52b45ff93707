"""The campaign admin's dashboard: where the campaign stands, the invitations and who plays
(removing a player before the start, handing a kingdom over after it, more admins), who it
waits for, the deadline controls, the battles (served by the battles app), corrections,
the notifications (the Discord webhook and how the messages stand, served by the
notifications app) and the audit log. Every change goes through a service; a form only
checks the shape of what was typed. Each form that changes the campaign carries the
snapshot its page was drawn at (`seen`, campaign.forms.DrawnAt): a post from a page the
campaign has moved on from since (a second tab) is refused, and answered with the page as
it stands now."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from campaign.access import admin_for
from campaign.actions import carry_out, form_errors, refused
from campaign.display.dashboard_board import (
    AUDIT_SHOWN,
    Readiness,
    dashboard_board,
)
from campaign.forms import (
    AdminActionForm,
    ArmyForm,
    ArtefactsForm,
    CampaignForm,
    Choices,
    ExtendForm,
    GeneralForm,
    HandOverForm,
    InviteForm,
    MakeAdminForm,
    People,
    PeopleForm,
    PlaceForm,
    RemovePlayerForm,
    ResourcesForm,
    StartForm,
    TileForm,
    UndoForm,
    correction_choices,
    people_of,
)
from campaign.models import Campaign, KingdomOffer, Membership, Snapshot, Submission
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.optional.marauders import ADMIN
from campaign.services import admin, battle_entries, inputs, setup
from campaign.services import members as members_services
from campaign.services import names as names_services
from campaign.views.deadlines import after_the_advance, at_the_deadline
from campaign.words import capitalised, chapter_words, kingdom_names, names_of, when

type Json = dict[str, Any]
type Action = Callable[[Campaign, User, dict[str, Any]], str]

TEMPLATE = "campaign/dashboard.html"


# --- the forms of the page ------------------------------------------------------------------


FORMS: dict[str, type[forms.Form]] = {
    "start": StartForm,
    "pause": AdminActionForm,
    "resume": AdminActionForm,
    "extend": ExtendForm,
    "advance": AdminActionForm,
    "undo": UndoForm,
    "tile": TileForm,
    "army": ArmyForm,
    "place": PlaceForm,
    "resources": ResourcesForm,
    "artefacts": ArtefactsForm,
    "invite": InviteForm,
    "new-code": StartForm,
    "remove": RemovePlayerForm,
    "make-admin": MakeAdminForm,
    "step-down": StartForm,
    "hand-over": HandOverForm,
    "general": GeneralForm,
    "archive": StartForm,
    "unarchive": StartForm,
    "delete": StartForm,
}


def _form(action: str, choices: dict[str, Choices], people: People, post: Any = None) -> forms.Form:
    """The action's form, its choices the campaign's (`correction_choices`, made once for
    all the page's forms) and its members (`people`)."""
    form_class = FORMS[action]
    if issubclass(form_class, CampaignForm):
        return form_class(post, auto_id=f"{action}-%s", **choices)
    if issubclass(form_class, PeopleForm):
        kingdoms = choices["kingdoms"]
        return form_class(post, auto_id=f"{action}-%s", people=people, kingdoms=kingdoms)
    return form_class(post, auto_id=f"{action}-%s")


def invitation_link(request: HttpRequest, campaign: Campaign) -> str:
    """The invitation to share: the join page's whole address."""
    return request.build_absolute_uri(reverse("campaign:join", args=[campaign.join_code]))


def _render(
    request: HtmxHttpRequest,
    membership: Membership,
    *,
    bound: tuple[str, forms.Form] | None = None,
    status: int = 200,
) -> HttpResponse:
    campaign = membership.campaign
    snapshot = Snapshot.objects.newest(campaign)
    data = snapshot.data if snapshot else None
    members = list(campaign.memberships.select_related("user"))
    ready = ready_of(campaign)
    audit = list(campaign.audit.select_related("actor")[:AUDIT_SHOWN])
    settled = battle_entries.settled_meanwhile(campaign)
    context = dashboard_board(campaign, snapshot, members, ready, audit, timezone.now(), settled)
    choices, people = correction_choices(data, campaign.gazetteer), people_of(members)
    page_forms = {action: _form(action, choices, people) for action in FORMS}
    pool = (data or {}).get("artefacts") or []
    page_forms["artefacts"].initial["artefacts"] = "\n".join(
        f"{a['name']}, {a['points']}" for a in pool
    )
    if bound is not None and bound[0] in page_forms:
        page_forms[bound[0]] = bound[1]
    for form in page_forms.values():
        _drawn_at(form, snapshot)
    names = kingdom_names(data, context["players"])
    zone = getattr(request.user, "time_zone", "UTC")
    context |= {
        "membership": membership,
        "invitation": invitation_link(request, campaign),
        "at_deadline": at_the_deadline(campaign, data, ready, names, zone) if data else "",
        "forms": {action.replace("-", "_"): form for action, form in page_forms.items()},
        "wizards": bool((data["options"] if data else campaign.options).get("wizards")),
        "pool_waits": data is None,  # the pool is written out when the campaign starts
        "pool_editable": bool(data and data["clock"]["season"] == "setup"),
        "pool_held": sum(1 for a in pool if a.get("holder")),
        "offers": [
            (offer, names.get(offer.kingdom, offer.kingdom))
            for offer in campaign.offers.filter(status=KingdomOffer.Status.OPEN)
        ],
    }
    return page_or_fragment(request, TEMPLATE, context, fragment="board", status=status)


def _drawn_at(form: forms.Form, snapshot: Snapshot | None) -> None:
    """A form that changes the campaign carries the snapshot this page shows, a form sent
    back with its errors included: the page it is on is drawn as the campaign stands now."""
    if "seen" not in form.fields or snapshot is None:
        return
    if form.is_bound:
        form.data = {**form.data, "seen": str(snapshot.number)}
    else:
        form.initial["seen"] = snapshot.number


def ready_of(campaign: Campaign) -> Readiness:
    """Whether each open decision, by kingdom and kind, is ready or a draft. Only those two
    facts are read from the submissions, never their payloads: orders are sealed."""
    open_ = Submission.objects.filter(campaign=campaign, consumed_by=None)
    return {(k, kind): r for k, kind, r in open_.values_list("kingdom", "kind", "ready")}


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership, _ = admin_for(request, slug)
    return _render(request, membership)


# --- what the page does -------------------------------------------------------------------


def _start(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    setup.campaign_start(campaign=campaign, actor=actor)
    return "The campaign has started: the kingdoms choose their races."


def _pause(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    admin.campaign_pause(campaign=campaign, actor=actor, reason=form["reason"], seen=form["seen"])
    return "The campaign is paused: its deadline stands still until you resume it."


def _resume(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    admin.campaign_resume(campaign=campaign, actor=actor, reason=form["reason"], seen=form["seen"])
    return "The campaign runs again, with the time that was left."


def _extend(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    hours = -form["hours"] if form.get("direction") == "earlier" else form["hours"]
    admin.campaign_extend(
        campaign=campaign, actor=actor, hours=hours, reason=form["reason"], seen=form["seen"]
    )
    said = "later" if hours > 0 else "earlier"
    return f"The deadline is {abs(hours)} hour{'s' if abs(hours) != 1 else ''} {said}."


def _advance(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    snapshot = admin.campaign_advance_now(
        campaign=campaign, actor=actor, reason=form["reason"], seen=form["seen"]
    )
    assert snapshot is not None  # with `seen`, a step moved on from is refused
    before = campaign.snapshots.get(number=snapshot.number - 1).data
    names = kingdom_names(snapshot.data)
    campaign.refresh_from_db()
    deadline = when(campaign.deadline, actor.time_zone) if campaign.deadline else ""
    return after_the_advance(before, snapshot.data, names, deadline)


def _undo(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    snapshot = admin.campaign_undo(
        campaign=campaign, actor=actor, reason=form["reason"], seen=form["seen"]
    )
    clock = snapshot.data["clock"]
    undone = f"Undone: back to {chapter_words(clock)}, step {clock['step']}."
    return undone + _drafts_that_no_longer_stand(campaign, snapshot)


def _tile(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    snapshot = admin.correct_tile(
        campaign=campaign,
        actor=actor,
        reason=form["reason"],
        hex=form["hex"],
        owner=form["owner"] or None,
        settlement=form["settlement"] or None,
        seen=form["seen"],
    )
    where = names_of(snapshot.data, campaign.gazetteer).place(form["hex"], picking=True)
    return f"The tile {where} is corrected." + _drafts_that_no_longer_stand(campaign, snapshot)


def _army(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    snapshot = admin.correct_army(
        campaign=campaign,
        actor=actor,
        reason=form["reason"],
        army=form["army"],
        hex=None if form["remove"] else form["hex"],
        upright=form["upright"],
        seen=form["seen"],
    )
    done = "removed" if form["remove"] else "corrected"
    army = names_of(snapshot.data, campaign.gazetteer).unit(form["army"], whose=True)
    return f"{capitalised(army)} is {done}." + _drafts_that_no_longer_stand(campaign, snapshot)


def _place(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    new = names_services.place_rename(
        campaign=campaign,
        actor=actor,
        place=form["place"],
        name=form["name"],
        reason=form["reason"],
        seen=form["seen"],
    )
    return f"{capitalised(form['place'])} is called {new} from now on."


def _resources(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    snapshot = admin.correct_resources(
        campaign=campaign,
        actor=actor,
        reason=form["reason"],
        kingdom=form["kingdom"],
        gold=form["gold"],
        food=form["food"],
        seen=form["seen"],
    )
    return "The treasury is corrected." + _drafts_that_no_longer_stand(campaign, snapshot)


def _artefacts(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    pool = form["artefacts"]
    admin.campaign_set_artefacts(
        campaign=campaign, actor=actor, reason=form["reason"], pool=pool, seen=form["seen"]
    )
    return f"The campaign's magical artefacts are set: {len(pool)}, all free."


def _drafts_that_no_longer_stand(campaign: Campaign, snapshot: Snapshot) -> str:
    """After a correction or an undo: whose drafts it made illegal, in words (their players
    are told by the services, and must decide again)."""
    names = kingdom_names(snapshot.data)
    return "".join(
        f" {names.get(r.kingdom, r.kingdom)}'s "
        f"{f'order for {r.unit_name or r.unit}' if r.unit else 'decision'} no longer stands ({r.why}): "
        "its player is told, and must decide again."
        for r in inputs.drafts_no_longer_standing(campaign, snapshot.data)
    )


def _invite(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    """Queued, not sent: the outbox sends each e-mail once the change commits, and the
    Notifications section below says how they stand (a mail server's refusal included)."""
    asked = list(dict.fromkeys(e.strip().lower() for e in form["emails"]))
    queued = members_services.campaign_invite_by_email(
        campaign=campaign, actor=actor, emails=asked, link=form["invitation"]
    )
    told = (
        f"The invitation to {', '.join(queued)} is queued: it goes out by e-mail in a moment "
        "(see Notifications below)."
        if queued
        else ""
    )
    left = [address for address in asked if address not in queued]
    if left:
        told += f" Nothing can send it to {', '.join(left)}: send them the link."
    return told.strip()


def _new_code(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    members_services.campaign_new_code(campaign=campaign, actor=actor)
    return "A new invitation link is made: the old one no longer works."


def _remove(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    members_services.campaign_remove_player(
        campaign=campaign, actor=actor, username=form["player"], reason=form["reason"]
    )
    return f"{form['player']} is removed: their kingdom is free for someone else."


def _make_admin(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    members_services.campaign_make_admin(campaign=campaign, actor=actor, username=form["member"])
    return f"{form['member']} runs the campaign with you now."


def _general(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    general = setup.campaign_marauder_general(
        campaign=campaign, actor=actor, general=form["general"]
    )
    if general == ADMIN:
        return "You play the marauders' battles yourself."
    ruler = campaign.memberships.select_related("user").get(kingdom=general)
    return f"{ruler.kingdom_name} ({ruler.user.get_username()}) plays the marauders' battles."


def _step_down(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    members_services.campaign_step_down(campaign=campaign, actor=actor)
    return "You no longer run this campaign: its other admins do."


def _hand_over(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    """An offer, unless the admin takes the kingdom themself: the words are the same whether
    or not anyone has the username typed, so that the page tells nobody which exist."""
    offer = members_services.campaign_hand_over(
        campaign=campaign,
        actor=actor,
        kingdom=form["kingdom"],
        username=form["to"],
        reason=form["reason"],
    )
    name = members_services.name_of_kingdom(campaign, offer.kingdom)
    if offer.status == KingdomOffer.Status.ACCEPTED:
        return f"You rule {name} from now on."
    return (
        f"{name} is offered to {offer.username}: if they have an account here, the offer waits "
        "on their home page and they are told by e-mail. It changes hands when they accept it."
    )


def _archive(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    setup.campaign_archive(campaign=campaign, actor=actor)
    return "Archived: it is off its players' home pages, and everything in it stays readable."


def _unarchive(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    setup.campaign_archive(campaign=campaign, actor=actor, archived=False)
    return "Back on its players' home pages."


def _delete(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    setup.campaign_delete(campaign=campaign, actor=actor)
    return f"{campaign.name} is deleted."


ACTIONS: dict[str, Action] = {
    "start": _start,
    "pause": _pause,
    "resume": _resume,
    "extend": _extend,
    "advance": _advance,
    "undo": _undo,
    "tile": _tile,
    "army": _army,
    "place": _place,
    "resources": _resources,
    "artefacts": _artefacts,
    "invite": _invite,
    "new-code": _new_code,
    "remove": _remove,
    "make-admin": _make_admin,
    "general": _general,
    "step-down": _step_down,
    "hand-over": _hand_over,
    "archive": _archive,
    "unarchive": _unarchive,
    "delete": _delete,
}


def _away_after(action: str, slug: str) -> str | None:
    if action == "step-down":
        return reverse("campaign:campaign", args=[slug])
    if action == "delete":
        return reverse("campaign:home")
    return None


@login_required
@require_POST
def dashboard_action(request: HtmxHttpRequest, slug: str, action: str) -> HttpResponse:
    """Check the form, call the service; tell the admin what happened or why not. Without
    htmx, back to the page (or the page with the form's errors); with htmx, the board."""
    membership, actor = admin_for(request, slug)
    if action not in ACTIONS:
        raise Http404("No such action.")
    campaign = membership.campaign
    newest = campaign.snapshots.defer("decisions").order_by("-number").first()
    people = people_of(list(campaign.memberships.select_related("user")))
    choices = correction_choices(newest.data if newest else None, campaign.gazetteer)
    form = _form(action, choices, people, request.POST)
    if not form.is_valid():
        refused(request, form_errors(form))
        # A post that carries no page's `seen` was never on this page: the page, afresh.
        shown = None if "seen" in form.errors else (action, form)
        return _render(request, membership, bound=shown, status=200 if request.htmx else 400)
    invitation = invitation_link(request, campaign)
    act = ACTIONS[action]
    if carry_out(
        request, form, lambda given: act(campaign, actor, {**given, "invitation": invitation})
    ):
        away = _away_after(action, slug)
        if away:  # the dashboard is no longer theirs, or no longer there
            return HttpResponseClientRedirect(away) if request.htmx else redirect(away)
    if request.htmx:
        membership.campaign.refresh_from_db()
        return _render(request, membership)
    return redirect("campaign:dashboard", slug=slug)


urlpatterns: list[URLPattern] = [
    path("c/<slug:slug>/dashboard/", dashboard, name="dashboard"),
    path("c/<slug:slug>/dashboard/<slug:action>/", dashboard_action, name="dashboard_action"),
]
