"""The campaign page (map, history slider, leaderboard), the home page, a month's report
and the player's own kingdom."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_GET, require_POST
from django_htmx.http import HttpResponseClientRefresh

from accounts.models import User
from campaign.access import (
    membership_for,
    newest_or_404,
    page_read,
    player_for,
    reader_for,
    signed_in_unless_public,
)
from campaign.actions import refused
from campaign.display import history, report, story
from campaign.display.mapcache import snapshot_map
from campaign.display.mapsvg.legend import legend_list
from campaign.display.mapsvg.scene import capital_of, looks_of
from campaign.display.optional import glory, standing_notes
from campaign.forms import MAX_SNAPSHOT, whole_number
from campaign.models import Campaign, Membership, Snapshot, Submission
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.options import switched_on
from campaign.rules.state import Season, Step
from campaign.services import common, inputs, letters, members, submissions
from campaign.services import names as names_services
from campaign.views.common import Ask, asks_of
from campaign.views.freshness import revalidated
from campaign.views.story import banners_of
from campaign.words import chapter_words, kingdom_names, licence_words, names_of


@dataclass(frozen=True)
class MyCampaign:
    """A campaign on the home page, from its player's (or admin's) side."""

    campaign: Campaign
    membership: Membership
    owed: list[Ask]
    deadline: datetime | None
    unread: int = 0  # letters its kingdom has not read


def my_campaigns(user: Any, *, archived: bool = False) -> list[MyCampaign]:
    """The user's campaigns (or those archived) with what each waits for from them: one
    query, however many campaigns and however long they have run (only `pending` is read
    from the snapshot)."""
    newest_pending = Snapshot.objects.filter(campaign=OuterRef("campaign")).order_by("-number")
    memberships = (
        Membership.objects.filter(user=user, campaign__archived_at__isnull=not archived)
        .select_related("campaign")
        .defer("campaign__map")
        .annotate(pending=Subquery(newest_pending.values("state__pending")[:1]))
        .order_by("-campaign__created_at")
    )
    ready = common.marked_ready(user)
    unread = letters.unread_letters(Membership.objects.filter(user=user))
    listed = [
        MyCampaign(
            membership.campaign,
            membership,
            asks_of(
                membership.campaign.slug,
                membership.pending,
                membership.kingdom,
                ready[membership.campaign_id],
            ),
            membership.campaign.deadline,
            unread.get(membership.campaign_id, 0),
        )
        for membership in memberships
    ]
    # Those waiting for the user first, the ended ones last; the newest first within each.
    return sorted(listed, key=lambda c: (c.campaign.status == Campaign.Status.ENDED, not c.owed))


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """The user's campaigns; `?archived=1` those archived."""
    archived = request.GET.get("archived") == "1"
    signed_in = request.user.is_authenticated
    campaigns = my_campaigns(request.user, archived=archived) if signed_in else []
    offers = members.offers_to(cast(User, request.user)) if signed_in and not archived else []
    context = {"campaigns": campaigns, "archived": archived, "offers": offers}
    return render(request, "campaign/home.html", context)


@login_required
@require_POST
def offer_answer(request: HttpRequest, offer: int, answer: str) -> HttpResponse:
    """The person a kingdom is offered to accepts it (and rules it from now on) or declines
    it; an offer made to anyone else is not found."""
    answered = {"accept": _accepted, "decline": _declined}.get(answer)
    if answered is None:
        raise Http404
    try:
        return answered(request, offer, cast(User, request.user))
    except common.ServiceError as error:
        if error.code == "not-yours":
            raise Http404 from None
        refused(request, error.message)
        return redirect("campaign:home")


def _accepted(request: HttpRequest, offer: int, user: User) -> HttpResponse:
    membership = members.offer_accept(offer_id=offer, user=user)
    messages.success(request, f"You rule {membership.kingdom_name} from now on.")
    return redirect("campaign:campaign", membership.campaign.slug)


def _declined(request: HttpRequest, offer: int, user: User) -> HttpResponse:
    declined = members.offer_decline(offer_id=offer, user=user)
    name = members.name_of_kingdom(declined.campaign, declined.kingdom)
    messages.success(request, f"You declined {name} in {declined.campaign.name}.")
    return redirect("campaign:home")


@signed_in_unless_public
@require_GET
@revalidated
def campaign_page(request: HtmxHttpRequest, slug: str) -> HttpResponse:
    """The campaign's map, legend and leaderboard; with `?at=N` the map as it stood at
    snapshot N (its clock, tiles and units, never its decisions). The leaderboard is always
    the newest standings. A public campaign's visitor (no membership) is asked nothing."""
    campaign, membership = reader_for(request, slug)
    snapshot = Snapshot.objects.newest(campaign)
    data = snapshot.data if snapshot else None
    players = list(campaign.memberships.exclude(kingdom="").select_related("user"))
    own = _own_open(campaign, membership)
    context: dict[str, Any] = {
        "campaign": campaign,
        "membership": membership,
        "clock": data["clock"] if data else None,
        "owed": asks_of(
            slug,
            (data or {}).get("pending"),
            membership.kingdom if membership else "",
            {decision.kind for decision in own if decision.ready},
        ),
        "players": players,
        "legend": legend_list(campaign.options),
        "home": _home(data, membership),
        "optional_rules": switched_on(campaign.options),
        "artefacts_held": _artefacts_held(data),
        "stale": _stale_draft(snapshot, campaign, own),
        "unread": _unread(request, membership),
    }
    # The slider swaps in the map section alone; a history restore needs the whole page.
    fragment = request.htmx and not request.htmx.history_restore_request
    if snapshot is not None:
        shown = _snapshot_at(campaign, request.GET.get("at"), newest=snapshot)
        context["history"] = _history(campaign, shown, newest=snapshot, players=players)
        if not fragment:
            context["leaderboard"] = story.leaderboard(
                snapshot.data,
                banners=banners_of(players),
                previous=history.previous_month(snapshot),
            )
    return page_or_fragment(request, "campaign/campaign.html", context, fragment="map-section")


def _unread(request: HttpRequest, membership: Membership | None) -> int:
    """The letters the viewer's kingdom has not read (issue 28), kept for what its letters
    stood at when the page's tag read them."""
    if membership is None:
        return 0
    campaign = membership.campaign
    read = page_read(request, campaign.slug)
    seen = read.letters if read else ""
    return letters.unread_of(campaign, membership.kingdom, letters_seen=seen)


def _artefacts_held(data: dict[str, Any] | None) -> list[tuple[str, str]]:
    """Option wizards (OA9): each magical artefact held, with the kingdom holding it (never
    where: that is its kingdom's secret)."""
    names = kingdom_names(data) if data else {}
    return [
        (a["name"], names.get(a["holder"]["kingdom"], a["holder"]["kingdom"]))
        for a in (data or {}).get("artefacts") or []
        if a.get("holder")
    ]


def _own_open(campaign: Campaign, membership: Membership | None) -> list[Submission]:
    """The open decisions of the viewer's kingdom (none for a visitor or the admin alone)."""
    if membership is None or not membership.kingdom:
        return []
    return Submission.open_in(campaign, membership.kingdom)


def _stale_draft(
    snapshot: Snapshot | None, campaign: Campaign, own: list[Submission]
) -> inputs.Refused | None:
    """What of the viewer's kingdom's draft (`own`) an admin's correction made illegal, if
    any."""
    if snapshot is None or not own:
        return None
    return inputs.stale_draft(snapshot.data, snapshot.number, own, gazetteer=campaign.gazetteer)


def _home(data: dict[str, Any] | None, membership: Membership | None) -> str:
    """The viewer's capital as "q,r", where the map opens on a phone ("" for none)."""
    capital = capital_of(data, membership.kingdom) if data and membership else None
    return f"{capital[0]},{capital[1]}" if capital else ""


def _snapshot_at(campaign: Campaign, at: str | None, *, newest: Snapshot) -> Snapshot:
    """The snapshot `?at=` asks for (the newest without it); 404 for anything else."""
    if at is None or at == str(newest.number):
        return newest
    number = whole_number(at)
    if number is None or not 0 < number <= MAX_SNAPSHOT:
        raise Http404("No such snapshot.")
    shown = campaign.snapshots.defer("decisions").filter(number=number).first()
    if shown is None:
        raise Http404("No such snapshot.")
    return shown


@dataclass(frozen=True)
class History:
    """The map at one snapshot, and where it stands in the campaign's history."""

    number: int
    newest: int
    clock: str
    map_svg: str
    report_title: str  # what the snapshot's report tells of, "" if nothing happened yet

    @property
    def looking_back(self) -> bool:
        return self.number != self.newest

    @property
    def earlier(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def later(self) -> int | None:
        return self.number + 1 if self.number < self.newest else None


def _history(
    campaign: Campaign, shown: Snapshot, *, newest: Snapshot, players: list[Membership]
) -> History:
    looks = looks_of(players)
    data = shown.data
    chapters = report.chapters_to_report(data["events"], history.events_before(shown))
    names = names_of(data, campaign.gazetteer, players)
    return History(
        number=shown.number,
        newest=newest.number,
        clock=chapter_words(data["clock"]),
        map_svg=snapshot_map(shown, kingdoms=looks, names=names),
        report_title=" and ".join(report.chapter_title(c) for c in chapters),
    )


@login_required
@require_GET
@revalidated
def report_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """What happened in the month (or setup, or winter) that snapshot `number` moved on:
    every event in words, every die with what it decided, the battles handed off to the
    tabletop, the new player order, the month's orders once they are resolved, and after a
    winter every kingdom's armies and might."""
    membership = membership_for(request, slug)
    campaign = membership.campaign
    snapshot = campaign.snapshots.defer("decisions").filter(number=number).first()
    if snapshot is None:
        raise Http404("No such snapshot.")
    data = snapshot.data
    chapters = report.chapters_to_report(data["events"], history.events_before(snapshot))
    if not chapters:
        raise Http404("Nothing has happened yet.")
    players = list(campaign.memberships.exclude(kingdom="").select_related("user"))
    names = names_of(data, campaign.gazetteer, players)
    reports = [
        report.month_report(
            data,
            chapter,
            orders=_resolved_orders(campaign, number, chapter) if chapter.is_month else None,
            names=names,
        )
        for chapter in chapters
    ]
    return render(
        request,
        "campaign/report.html",
        {
            "campaign": campaign,
            "membership": membership,
            "number": number,
            "newest": campaign.snapshots.order_by("-number").values_list("number", flat=True)[0],
            "reports": reports,
            "title": " and ".join(r.title for r in reports),
            # After a winter, where every kingdom stands: its armies and its new might.
            "standings": story.leaderboard(data, banners=banners_of(players))
            if any(chapter.season == "winter" for chapter in chapters)
            else None,
        },
    )


def _resolved_orders(
    campaign: Campaign, number: int, chapter: report.Chapter
) -> dict[str, Any] | None:
    """The orders the month was resolved from: the decisions of the snapshot that left the
    month's orders step, provided it is no later than `number` (so orders are shown only
    once resolved). None if there is no such snapshot; {} if every unit took its default."""
    waiting = (
        campaign.snapshots.filter(
            number__lte=number,
            clock__year=chapter.year,
            clock__season=Season.SUMMER,
            clock__month=chapter.month,
            clock__step=Step.ORDERS,
        )
        .order_by("-number")
        .values("number")[:1]
    )
    row = (
        campaign.snapshots.filter(number=Subquery(waiting) + 1, number__lte=number)
        .values_list("number", "decisions__orders")
        .first()
    )
    if row is None:
        return None
    orders = row[1]
    return orders if isinstance(orders, dict) else {}


@login_required
@require_GET
def kingdom_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's own kingdom: resources, armies, ships, settlements, strategy cards,
    projected might, and what it owes by when. Nobody sees another kingdom's page."""
    membership = player_for(request, slug)
    snapshot = newest_or_404(membership.campaign)
    data, me = snapshot.data, membership.kingdom
    kingdom = next(k for k in data["kingdoms"] if k["id"] == me)
    carried = {s["carrying"] for s in data["ships"] if s["carrying"]}
    names = names_of(data, membership.campaign.gazetteer, [membership])
    score = next((s for s in data["scores"] if s["kingdom"] == me), None)
    return render(
        request,
        "campaign/kingdom.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "seen": snapshot.number,
            "kingdom": kingdom,
            "armies": [
                dict(
                    a,
                    name=names.unit(a["id"]),
                    named=a["id"] in names.given,
                    where=names.at(a["hex"]),
                    aboard=a["id"] in carried,
                    licence_words=licence_words(a.get("licence")),
                )
                for a in data["armies"]
                if a["kingdom"] == me
            ],
            "licensing": bool(data["options"].get("army_limits")),
            "wizards": bool(data["options"].get("wizards")),
            "artefacts": [
                dict(a, on=names.unit(a["holder"]["army"]) if a["holder"].get("army") else "")
                for a in data.get("artefacts", [])
                if (a["holder"] or {}).get("kingdom") == me
            ],
            "ships": [
                dict(
                    s,
                    name=names.unit(s["id"]),
                    named=s["id"] in names.given,
                    where=names.at(s["hex"]),
                    carrying_name=names.unit(s["carrying"]) if s["carrying"] else "",
                )
                for s in data["ships"]
                if s["kingdom"] == me
            ],
            "settlements": [
                dict(t, name=names.place(t["hex"]), region=names.region(t["hex"]))
                for t in data["tiles"]
                if t["owner"] == me and t["settlement"]
            ],
            "tiles": sum(1 for t in data["tiles"] if t["owner"] == me),
            "score": score,
            "might_sources": story.might_by_source(score or {}, kingdom, data["options"]),
            "held": standing_notes(data["options"], kingdom),
            "honours": _honours(membership, data) if data["options"].get("glory") else None,
            "owed": asks_of(
                slug,
                data["pending"],
                me,
                common.marked_ready(membership.user_id, membership.campaign)[
                    membership.campaign_id
                ],
            ),
        },
    )


def _honours(membership: Membership, data: dict[str, Any]) -> glory.Honours:
    """Option glory: the kingdom's honours, and its secret wishes as it last gave them, for
    its own player's page alone."""
    campaign, kingdom = membership.campaign, membership.kingdom
    wishes = submissions.wishes_now(campaign, kingdom, data)
    names = names_of(data, campaign.gazetteer, list(campaign.memberships.exclude(kingdom="")))
    return glory.kingdom_honours(data, kingdom, wishes, names.kingdom)


def wishes_as_posted(post: QueryDict) -> list[str]:
    """The wish list as the page posted it (its hidden `wish` fields, in order, after a
    drag), with the one change a button asks: `add`, `drop`, `raise` or `lower` an honour."""
    wishes = post.getlist("wish")
    add, drop = post.get("add", ""), post.get("drop", "")
    if add:
        wishes.append(add)
    if drop in wishes:
        wishes.remove(drop)
    for step, key in ((-1, "raise"), (1, "lower")):
        moved = post.get(key, "")
        if moved in wishes:
            i = wishes.index(moved)
            j = min(max(i + step, 0), len(wishes) - 1)
            wishes[i], wishes[j] = wishes[j], wishes[i]
    return wishes


@login_required
@require_POST
def honour_wishes(request: HttpRequest, slug: str) -> HttpResponse:
    """Option glory (OB2): the player's kingdom's secret wish list, the whole of it, as its
    page posted it; judged by the engine at once, refused in words, nothing changed."""
    membership = player_for(request, slug)
    try:
        submissions.wishes_save(
            campaign=membership.campaign,
            user=membership.user,
            wishes=wishes_as_posted(request.POST),
            seen=whole_number(request.POST.get("seen")),
            drawn=request.POST.get("drawn", "").split(),
        )
    except common.ServiceError as error:
        refused(request, error.message)
    else:
        messages.success(request, "Your wishes are kept, in this order, and seen by you alone.")
    return redirect(reverse("campaign:kingdom", args=[slug]) + "#honours")


@login_required
@require_POST
def unit_name(request: HttpRequest, slug: str) -> HttpResponse:
    """The player names one of their kingdom's armies or ships (an empty name gives it back
    its own); a unit of another kingdom is not found."""
    membership = player_for(request, slug)
    unit = request.POST.get("unit", "")
    try:
        named = names_services.unit_rename(
            campaign=membership.campaign,
            user=membership.user,
            unit=unit,
            name=request.POST.get("name", ""),
            seen=whole_number(request.POST.get("seen")),
        )
    except common.ServiceError as error:
        if error.code == "not-yours":
            raise Http404("No such unit.") from None
        refused(request, error.message)
    else:
        messages.success(request, f"It is called {named} from now on.")
    return redirect("campaign:kingdom", slug)


@login_required
@require_GET
def moved_on(request: HttpRequest, slug: str) -> HttpResponse:
    """What a page polls once its player has done their part and the campaign is moving on
    (after a Ready, a confirmed result, a retreat chosen): nothing (204) while the newest
    snapshot is still `seen`; once the advance has landed, htmx reloads the page, which
    then shows the campaign as it now stands. For the campaign's members only."""
    campaign = membership_for(request, slug).campaign
    newest = campaign.snapshots.order_by("-number").values_list("number", flat=True).first()
    seen = whole_number(request.GET.get("seen"))
    if newest is None or newest == seen:
        return HttpResponse(status=204)
    return HttpResponseClientRefresh()


urlpatterns: list[URLPattern] = [
    path("", home, name="home"),
    path("offers/<int:offer>/<slug:answer>/", offer_answer, name="offer_answer"),
    path("c/<slug:slug>/moved-on/", moved_on, name="moved_on"),
    path("c/<slug:slug>/", campaign_page, name="campaign"),
    path("c/<slug:slug>/kingdom/", kingdom_page, name="kingdom"),
    path("c/<slug:slug>/kingdom/name/", unit_name, name="unit_name"),
    path("c/<slug:slug>/kingdom/wishes/", honour_wishes, name="honour_wishes"),
    path("c/<slug:slug>/report/<int:number>/", report_page, name="report"),
]
