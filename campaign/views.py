import logging
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.decorators import login_required
from django.db import DatabaseError, connection
from django.db.models import OuterRef, Subquery
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from accounts.models import User
from campaign.mapsvg import KingdomLook, legend_items, render_map
from campaign.models import Campaign, Membership, Snapshot, WorkerHeartbeat
from config.celery import app as celery_app

logger = logging.getLogger(__name__)


# What a player reads for each kind of decision the campaign waits for.
ASKS = {
    "race": "choose your race",
    "capital": "choose your capital",
    "settlements": "place your settlements",
    "starting_army": "place your first army",
    "orders": "give your orders",
    "battle_choice": "choose your next battle",
    "last_stand": "decide on a Last Stand",
    "battle_result": "play your tabletop battle",
    "retreat": "choose where to retreat",
    "tithes": "give your tithes",
    "purchases": "make your winter purchases",
    "feed": "choose which armies go hungry",
    "deploy": "deploy your armies",
}


@dataclass(frozen=True)
class MyCampaign:
    """A campaign on the home page, from its player's (or admin's) side."""

    campaign: Campaign
    membership: Membership
    owed: list[str]
    deadline: datetime | None


def my_campaigns(user: Any) -> list[MyCampaign]:
    """The user's campaigns with what each waits for from them: one query, however many
    campaigns and however long they have run (only `pending` is read from the snapshot)."""
    newest_pending = Snapshot.objects.filter(campaign=OuterRef("campaign")).order_by("-number")
    memberships = (
        Membership.objects.filter(user=user)
        .select_related("campaign")
        .annotate(pending=Subquery(newest_pending.values("data__pending")[:1]))
        .order_by("-campaign__created_at")
    )
    result = []
    for membership in memberships:
        pending = membership.pending or []
        owed = [
            ASKS[p["kind"]]
            for p in pending
            if p["kingdom"] == membership.kingdom and membership.kingdom
        ]
        result.append(
            MyCampaign(
                membership.campaign, membership, sorted(set(owed)), membership.campaign.deadline
            )
        )
    return result


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    campaigns = my_campaigns(request.user) if request.user.is_authenticated else []
    return render(request, "campaign/home.html", {"campaigns": campaigns})


def _membership_for(request: HttpRequest, slug: str) -> Membership:
    """The signed-in user's membership of the campaign; 404 for anyone else, so a campaign
    one doesn't belong to stays invisible."""
    user = request.user
    membership = (
        Membership.objects.select_related("campaign").filter(campaign__slug=slug, user=user).first()
        if isinstance(user, User)
        else None
    )
    if membership is None:
        raise Http404("No such campaign.")
    return membership


@login_required
@require_GET
def campaign_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = _membership_for(request, slug)
    campaign = membership.campaign
    snapshot = campaign.snapshots.order_by("-number").first()
    data = snapshot.data if snapshot else None
    owed = [
        ASKS[p["kind"]]
        for p in (data or {}).get("pending", [])
        if p["kingdom"] == membership.kingdom
    ]
    players = list(campaign.memberships.exclude(kingdom="").select_related("user"))
    looks = {p.kingdom: KingdomLook(p.kingdom_name, p.colour, p.heraldry) for p in players}
    return render(
        request,
        "campaign/campaign.html",
        {
            "campaign": campaign,
            "membership": membership,
            "clock": data["clock"] if data else None,
            "owed": sorted(set(owed)),
            "players": players,
            "scores": data["scores"] if data else [],
            "map_svg": render_map(data, kingdoms=looks) if data else None,
            "legend": legend_items(),
        },
    )


def _database_answers() -> str | None:
    """None if the database answers, else a word for the JSON (details go to the log)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        logger.exception("healthz: the database does not answer")
        return "unavailable"
    return None


def _broker_answers() -> str | None:
    """None if the Celery broker (Redis, or the broker folder) answers, else a word for the JSON."""
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=2)
    except Exception:  # kombu raises the transport's own errors
        logger.exception("healthz: the broker does not answer")
        return "unavailable"
    return None


def _last_heartbeat() -> str | None:
    try:
        latest = WorkerHeartbeat.objects.order_by("-seen_at").first()
    except DatabaseError:
        return None
    return latest.seen_at.isoformat() if latest else None


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and the broker answer, 503 otherwise."""
    problems = {"database": _database_answers(), "broker": _broker_answers()}
    healthy = not any(problems.values())
    body = {
        "status": "ok" if healthy else "unavailable",
        **{part: problem or "ok" for part, problem in problems.items()},
        "broker_transport": celery_app.conf.broker_url.split("://", 1)[0],
        "worker_last_seen": _last_heartbeat() if problems["database"] is None else None,
    }
    return JsonResponse(body, status=200 if healthy else 503)


@login_required
@require_GET
def kingdom_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The player's own kingdom: resources, armies, ships, settlements, strategy cards,
    projected might, and what it owes by when. Nobody sees another kingdom's page."""
    membership = _membership_for(request, slug)
    if not membership.kingdom:
        raise Http404("You don't rule a kingdom in this campaign.")
    campaign = membership.campaign
    snapshot = campaign.snapshots.order_by("-number").first()
    if snapshot is None:
        raise Http404("The campaign has not started yet.")
    data, me = snapshot.data, membership.kingdom
    kingdom = next(k for k in data["kingdoms"] if k["id"] == me)
    carried = {s["carrying"] for s in data["ships"] if s["carrying"]}
    return render(
        request,
        "campaign/kingdom.html",
        {
            "campaign": campaign,
            "membership": membership,
            "kingdom": kingdom,
            "armies": [
                dict(a, aboard=a["id"] in carried) for a in data["armies"] if a["kingdom"] == me
            ],
            "ships": [s for s in data["ships"] if s["kingdom"] == me],
            "settlements": [t for t in data["tiles"] if t["owner"] == me and t["settlement"]],
            "tiles": sum(1 for t in data["tiles"] if t["owner"] == me),
            "score": next((s for s in data["scores"] if s["kingdom"] == me), None),
            "owed": sorted({ASKS[p["kind"]] for p in data["pending"] if p["kingdom"] == me}),
        },
    )
