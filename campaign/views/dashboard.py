"""The campaign admin's dashboard: where the campaign stands, the invitations and who plays
(removing a player before the start, handing a kingdom over after it, more admins), who it
waits for, the deadline controls, the battles (served by the battles app), corrections,
the notifications (the Discord webhook and how the messages stand, served by the
notifications app) and the audit log. Every change goes through a service; a form only
checks the shape of what was typed."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.validators import validate_email
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRedirect

from accounts.models import User
from campaign import services
from campaign.access import admin_for
from campaign.asks import WORDS
from campaign.forms import (
    AdminActionForm,
    ArmyForm,
    CampaignForm,
    Choices,
    ExtendForm,
    ResourcesForm,
    StartForm,
    TileForm,
    UndoForm,
    reason_field,
)
from campaign.models import AuditEntry, Campaign, Membership, Snapshot, Submission
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules import decisions
from campaign.services import ServiceError
from campaign.views.deadlines import after_the_advance, at_the_deadline
from campaign.words import when

type Json = dict[str, Any]
type Action = Callable[[Campaign, User, dict[str, Any]], str]

AUDIT_SHOWN = 50
TEMPLATE = "campaign/dashboard.html"


# --- what the page shows ----------------------------------------------------------------


@dataclass(frozen=True)
class Waiting:
    """A decision the newest snapshot waits for, and how far its kingdom has got with it."""

    kingdom: str
    player: str
    asked: str
    given: str


def _given(ready: bool | None) -> str:
    if ready is None:
        return "Nothing yet"
    return "Ready" if ready else "Draft, not ready"


def ready_of(campaign: Campaign) -> dict[tuple[str, str], bool]:
    """Whether each open decision, by kingdom and kind, is ready or a draft. Only those two
    facts are read from the submissions, never their payloads: orders are sealed."""
    open_ = Submission.objects.filter(campaign=campaign, consumed_by=None)
    return {(k, kind): r for k, kind, r in open_.values_list("kingdom", "kind", "ready")}


def waiting_for(
    data: Json, ready: dict[tuple[str, str], bool], names: dict[str, str], players: dict[str, str]
) -> list[Waiting]:
    """Each decision asked, with whether its kingdom has a draft or is ready."""
    asked = sorted({(p["kingdom"], p["kind"]) for p in data.get("pending", [])})
    return [
        Waiting(
            kingdom=names.get(kingdom, kingdom),
            player=players.get(kingdom, "nobody"),
            asked=WORDS[kind].ask,
            given="Reports: see Battles below"
            if kind == "battle_result"
            else _given(ready.get((kingdom, decisions.ANSWERS.get(kind, kind)))),
        )
        for kingdom, kind in asked
    ]


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


@dataclass(frozen=True)
class AuditLine:
    entry: AuditEntry
    who: str
    what: str


def audit_log(campaign: Campaign) -> list[AuditLine]:
    entries = campaign.audit.select_related("actor")[:AUDIT_SHOWN]
    return [
        AuditLine(
            entry=entry,
            who=entry.actor.get_username() if entry.actor else "automatic",
            what=entry.get_action_display()
            + "".join(f"; {key}: {_shown(value)}" for key, value in _in_order(entry.details)),
        )
        for entry in entries
    ]


def _in_order(details: Json) -> list[tuple[str, Any]]:
    """An entry's details, shortest key first (then alphabetically): the order PostgreSQL
    keeps a JSON object's keys in, so that every database shows them alike."""
    return sorted(details.items(), key=lambda item: (len(item[0]), item[0]))


def _choices(data: Json | None) -> dict[str, Choices]:
    data = data or {}
    names = {k["id"]: k["name"] for k in data.get("kingdoms", [])}
    return {
        "kingdoms": list(names.items()),
        "armies": [
            (a["id"], f"{a['id']} ({names.get(a['kingdom'], a['kingdom'])}) at "
             f"[{a['hex'][0]}, {a['hex'][1]}]{'' if a['upright'] else ', on its side'}")
            for a in data.get("armies", [])
        ],
    }  # fmt: skip


# --- the forms of the page ------------------------------------------------------------------

MAX_INVITATIONS = 30


@dataclass(frozen=True)
class People:
    """The campaign's members, as the forms that change who plays offer them."""

    players: Choices  # members ruling a kingdom
    others: Choices  # members who are not admins
    free: Choices  # members without a kingdom


def people_of(members: list[Membership]) -> People:
    def name(m: Membership) -> str:
        return m.user.get_username()

    return People(
        players=[(name(m), f"{m.kingdom_name} ({name(m)})") for m in members if m.kingdom],
        others=[(name(m), name(m)) for m in members if not m.is_admin],
        free=[(name(m), name(m)) for m in members if not m.kingdom],
    )


class PeopleForm(forms.Form):
    """A form whose choices are the campaign's members (and, for a hand-over, kingdoms)."""

    def __init__(
        self, *args: Any, people: People, kingdoms: Choices | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.setup_choices(people, kingdoms or [])

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        """Fill the choice fields; each form knows which it has."""

    def set_choices(self, field: str, choices: Choices) -> None:
        choice_field = self.fields[field]
        assert isinstance(choice_field, forms.ChoiceField)
        choice_field.choices = choices


class InviteForm(forms.Form):
    emails = forms.CharField(
        label="E-mail addresses, one a line",
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off", "spellcheck": "false"}),
        max_length=5000,
        help_text="Each gets the invitation link by e-mail.",
    )

    def clean_emails(self) -> list[str]:
        lines = [line.strip() for line in self.cleaned_data["emails"].splitlines()]
        addresses = list(dict.fromkeys(line for line in lines if line))
        if len(addresses) > MAX_INVITATIONS:
            raise forms.ValidationError(f"At most {MAX_INVITATIONS} addresses at a time.")
        bad = []
        for address in addresses:
            try:
                validate_email(address)
            except forms.ValidationError:
                bad.append(address)
        if bad:
            raise forms.ValidationError(f"Not an e-mail address: {', '.join(bad)}.")
        return addresses


class RemovePlayerForm(PeopleForm):
    player = forms.ChoiceField(label="Player")
    reason = reason_field(required=False)

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        self.set_choices("player", people.players)


class MakeAdminForm(PeopleForm):
    member = forms.ChoiceField(label="Member")

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        self.set_choices("member", people.others)


class HandOverForm(PeopleForm):
    kingdom = forms.ChoiceField(label="Kingdom")
    member = forms.ChoiceField(label="To a member without a kingdom", required=False)
    username = forms.CharField(
        label="Or to a user, by username", required=False, max_length=150, strip=True
    )
    reason = reason_field(required=True)

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        self.set_choices("kingdom", kingdoms)
        self.set_choices("member", [("", "Nobody chosen"), *people.free])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        member, username = cleaned.get("member"), cleaned.get("username")
        if member and username:
            self.add_error("username", "Choose a member or type a username, not both.")
        elif not member and not username and "member" not in self.errors:
            self.add_error("username", "Say who rules the kingdom from now on.")
        cleaned["to"] = member or username
        return cleaned


FORMS: dict[str, type[forms.Form]] = {
    "start": StartForm,
    "pause": AdminActionForm,
    "resume": AdminActionForm,
    "extend": ExtendForm,
    "advance": AdminActionForm,
    "undo": UndoForm,
    "tile": TileForm,
    "army": ArmyForm,
    "resources": ResourcesForm,
    "invite": InviteForm,
    "new-code": StartForm,
    "remove": RemovePlayerForm,
    "make-admin": MakeAdminForm,
    "step-down": StartForm,
    "hand-over": HandOverForm,
    "archive": StartForm,
    "unarchive": StartForm,
    "delete": StartForm,
}


def _form(action: str, data: Json | None, people: People, post: Any = None) -> forms.Form:
    form_class = FORMS[action]
    if issubclass(form_class, CampaignForm):
        return form_class(post, auto_id=f"{action}-%s", **_choices(data))
    if issubclass(form_class, PeopleForm):
        kingdoms = _choices(data)["kingdoms"]
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
    snapshot: Snapshot | None = campaign.snapshots.order_by("-number").first()
    data = snapshot.data if snapshot else None
    members = list(campaign.memberships.select_related("user"))
    players = [m for m in members if m.kingdom]
    names = {k["id"]: k["name"] for k in (data or {}).get("kingdoms", [])}
    names |= {p.kingdom: p.kingdom_name for p in players}
    people = people_of(members)
    page_forms = {action: _form(action, data, people) for action in FORMS}
    page_forms["undo"].initial["seen"] = snapshot.number if snapshot else None
    if bound is not None and bound[0] in page_forms:
        page_forms[bound[0]] = bound[1]
    waiting: list[Waiting] = []
    at_deadline = ""
    if data:
        usernames = {p.kingdom: p.user.get_username() for p in players}
        ready = ready_of(campaign)
        waiting = waiting_for(data, ready, names, usernames)
        zone = getattr(request.user, "time_zone", "UTC")
        at_deadline = at_the_deadline(campaign, data, ready, names, zone)
    paused_until = None
    if campaign.status == Campaign.Status.PAUSED and campaign.paused_with:
        paused_until = timezone.now() + campaign.paused_with
    context = {
        "campaign": campaign,
        "membership": membership,
        "snapshot": snapshot,
        "clock": data["clock"] if data else None,
        "now": timezone.now(),
        "paused_until": paused_until,
        "players": players,
        "members": members,
        "admins": sum(1 for m in members if m.is_admin),
        "to_join": campaign.kingdoms - len(players),
        "invitation": invitation_link(request, campaign),
        "waiting": waiting,
        "at_deadline": at_deadline,
        "kingdoms": (data or {}).get("kingdoms", []),
        "audit": audit_log(campaign),
        "forms": {action.replace("-", "_"): form for action, form in page_forms.items()},
    }
    return page_or_fragment(request, TEMPLATE, context, fragment="board", status=status)


@login_required
@require_GET
def dashboard(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    membership, _ = admin_for(request, slug)
    return _render(request, membership)


# --- what the page does -------------------------------------------------------------------


def _start(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_start(campaign=campaign, actor=actor)
    return "The campaign has started: the kingdoms choose their races."


def _pause(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_pause(campaign=campaign, actor=actor, reason=form["reason"])
    return "The campaign is paused: its deadline stands still until you resume it."


def _resume(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_resume(campaign=campaign, actor=actor, reason=form["reason"])
    return "The campaign runs again, with the time that was left."


def _extend(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    hours = form["hours"]
    services.campaign_extend(campaign=campaign, actor=actor, hours=hours, reason=form["reason"])
    return f"The deadline is {hours} hour{'s' if hours != 1 else ''} later."


def _advance(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    snapshot = services.campaign_advance_now(campaign=campaign, actor=actor, reason=form["reason"])
    if snapshot is None:
        return "The campaign had already moved on: nothing was advanced."
    before = campaign.snapshots.get(number=snapshot.number - 1).data
    names = {k["id"]: k["name"] for k in snapshot.data["kingdoms"]}
    campaign.refresh_from_db()
    deadline = when(campaign.deadline, actor.time_zone) if campaign.deadline else ""
    return after_the_advance(before, snapshot.data, names, deadline)


def _undo(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    snapshot = services.campaign_undo(
        campaign=campaign, actor=actor, reason=form["reason"], seen=form["seen"]
    )
    clock = snapshot.data["clock"]
    return f"Undone: back to year {clock['year']}, {clock['season']}, {clock['step']}."


def _tile(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.correct_tile(
        campaign=campaign,
        actor=actor,
        reason=form["reason"],
        hex=form["hex"],
        owner=form["owner"] or None,
        settlement=form["settlement"] or None,
    )
    return f"The tile at {form['hex']} is corrected."


def _army(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.correct_army(
        campaign=campaign,
        actor=actor,
        reason=form["reason"],
        army=form["army"],
        hex=None if form["remove"] else form["hex"],
        upright=form["upright"],
    )
    return f"The army {form['army']} is {'removed' if form['remove'] else 'corrected'}."


def _resources(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.correct_resources(
        campaign=campaign,
        actor=actor,
        reason=form["reason"],
        kingdom=form["kingdom"],
        gold=form["gold"],
        food=form["food"],
    )
    return "The treasury is corrected."


def _invite(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    """Queued, not sent: the outbox sends each e-mail once the change commits, and the
    Notifications section below says how they stand (a mail server's refusal included)."""
    asked = list(dict.fromkeys(e.strip().lower() for e in form["emails"]))
    queued = services.campaign_invite_by_email(
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
    services.campaign_new_code(campaign=campaign, actor=actor)
    return "A new invitation link is made: the old one no longer works."


def _remove(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_remove_player(
        campaign=campaign, actor=actor, username=form["player"], reason=form["reason"]
    )
    return f"{form['player']} is removed: their kingdom is free for someone else."


def _make_admin(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_make_admin(campaign=campaign, actor=actor, username=form["member"])
    return f"{form['member']} runs the campaign with you now."


def _step_down(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_step_down(campaign=campaign, actor=actor)
    return "You no longer run this campaign: its other admins do."


def _hand_over(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    membership = services.campaign_hand_over(
        campaign=campaign,
        actor=actor,
        kingdom=form["kingdom"],
        username=form["to"],
        reason=form["reason"],
    )
    return f"{membership.kingdom_name} is ruled by {membership.user.get_username()} from now on."


def _archive(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_archive(campaign=campaign, actor=actor)
    return "Archived: it is off its players' home pages, and everything in it stays readable."


def _unarchive(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_archive(campaign=campaign, actor=actor, archived=False)
    return "Back on its players' home pages."


def _delete(campaign: Campaign, actor: User, form: dict[str, Any]) -> str:
    services.campaign_delete(campaign=campaign, actor=actor)
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
    "resources": _resources,
    "invite": _invite,
    "new-code": _new_code,
    "remove": _remove,
    "make-admin": _make_admin,
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


def _form_errors(form: forms.Form) -> str:
    return " ".join(str(error) for errors in form.errors.values() for error in errors)


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
    form = _form(action, newest.data if newest else None, people, request.POST)
    if not form.is_valid():
        messages.error(request, f"Nothing was changed. {_form_errors(form)}")
        return _render(
            request, membership, bound=(action, form), status=200 if request.htmx else 400
        )
    given = {**form.cleaned_data, "invitation": invitation_link(request, campaign)}
    try:
        messages.success(request, ACTIONS[action](campaign, actor, given))
    except ServiceError as error:
        messages.error(request, f"Nothing was changed. {error.message}")
    else:
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
