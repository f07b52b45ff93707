"""What every page of a campaign shares: who the signed-in user is in it (a 404 for
anyone else, so a campaign one does not belong to stays invisible), who may read a public
campaign's story, its newest snapshot, and what it waits for from a kingdom, with where to
give it."""

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import wraps
from typing import Any, cast

from django.contrib.auth.views import redirect_to_login
from django.db.models import QuerySet
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import reverse

from accounts.models import User
from campaign import services
from campaign.models import Campaign, Membership, Snapshot

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


# What a kingdom's missing decision of each kind becomes at a deadline (the rulings'
# defaults), said of one kingdom and of several.
DEFAULTED = {
    "race": ("takes no race (Undeclared)", "take no race (Undeclared)"),
    "capital": (
        "founds its capital on the first free start tile",
        "found their capitals on the first free start tiles",
    ),
    "settlements": (
        "places its settlements on the first tiles around its capital",
        "place their settlements on the first tiles around their capitals",
    ),
    "starting_army": ("starts its army in its capital", "start their armies in their capitals"),
    "orders": (
        "holds with every unit it has not ordered (Defend, Regroup, stay)",
        "hold with every unit they have not ordered (Defend, Regroup, stay)",
    ),
    "battle_choice": ("fights its battles in map order", "fight their battles in map order"),
    "last_stand": ("concedes (no Last Stand)", "concede (no Last Stand)"),
    "retreat": ("retreats to the first tile open", "retreat to the first tiles open"),
    "tithes": ("gives no tithes", "give no tithes"),
    "purchases": ("buys nothing", "buy nothing"),
    "feed": ("loses its newest armies to hunger", "lose their newest armies to hunger"),
    "deploy": (
        "deploys its armies to the default places",
        "deploy their armies to the default places",
    ),
}

# The step that opens when the campaign next waits for each kind.
OPENS = {
    "race": "races",
    "capital": "capitals",
    "settlements": "settlements",
    "starting_army": "starting armies",
    "orders": "orders",
    "battle_choice": "battles",
    "last_stand": "battles",
    "battle_result": "battles",
    "retreat": "retreats",
    "tithes": "tithes",
    "purchases": "purchases",
    "feed": "hungry armies",
    "deploy": "deployment",
}


# The page where a player answers each kind.
ANSWERED_ON = {
    "race": "campaign:setup",
    "capital": "campaign:setup",
    "settlements": "campaign:setup",
    "starting_army": "campaign:setup",
    "orders": "campaign:orders",
    "battle_choice": "battles:list",
    "last_stand": "battles:list",
    "battle_result": "battles:list",
    "retreat": "battles:list",
    "tithes": "campaign:winter",
    "purchases": "campaign:winter",
    "feed": "campaign:winter",
    "deploy": "campaign:winter",
}


@dataclass(frozen=True)
class Ask:
    """Something the campaign waits for from a kingdom, and where to give it."""

    words: str
    url: str | None

    def __str__(self) -> str:
        return self.words


def asks_of(
    slug: str, pending: list[dict[str, Any]] | None, kingdom: str, ready: Collection[str] = ()
) -> list[Ask]:
    """What the newest `pending` asks of this kingdom, in the campaign's order of play, bar
    what it has given and marked ready (`ready`: the kinds of its open decisions marked
    ready, `services.marked_ready`): that waits for the others, not for it. A battle entry
    answers one battle of those asked, never the ask."""
    answered = {
        kind
        for kind, given in services.ANSWERS.items()
        if given in ready and given not in services.LISTED
    }
    kinds = {
        p["kind"]
        for p in pending or []
        if kingdom and p["kingdom"] == kingdom and p["kind"] not in answered
    }
    return [
        Ask(words, reverse(ANSWERED_ON[kind], args=[slug]) if kind in ANSWERED_ON else None)
        for kind, words in ASKS.items()
        if kind in kinds
    ]


def _with_campaign() -> QuerySet[Membership]:
    """Memberships with their campaign, bar the map it was created with (read once, as it
    starts: the snapshots hold the map since)."""
    return Membership.objects.select_related("campaign").defer("campaign__map")


def membership_for(request: HttpRequest, slug: str) -> Membership:
    """The signed-in user's membership of the campaign; 404 for anyone else, so a campaign
    one doesn't belong to stays invisible."""
    user = request.user
    membership = (
        _with_campaign().filter(campaign__slug=slug, user=user).first()
        if isinstance(user, User)
        else None
    )
    return _member(membership)


def _member(membership: Membership | None) -> Membership:
    """The membership found, or a 404 that does not tell a campaign one doesn't belong to
    from one that doesn't exist."""
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def _ruler(membership: Membership) -> Membership:
    """The membership, if it rules a kingdom; a 404 for an admin who rules none."""
    if not membership.kingdom:
        raise Http404("You don't rule a kingdom in this campaign.")
    return membership


def reader_for(request: HttpRequest, slug: str) -> tuple[Campaign, Membership | None]:
    """The campaign and the signed-in user's membership of it; for a public campaign,
    anyone else reads it as a visitor (no membership). 404 for anyone else. Only the pages
    a public campaign shows everyone ask this: its map, might, chronicle and end."""
    user = request.user
    if isinstance(user, User):
        membership = _with_campaign().filter(campaign__slug=slug, user=user).first()
        if membership is not None:
            return membership.campaign, membership
    campaign = Campaign.objects.defer("map").filter(slug=slug, public=True).first()
    if campaign is None:
        raise Http404("No such campaign.")
    return campaign, None


def signed_in_unless_public[View: Callable[..., HttpResponse]](view: View) -> View:
    """`login_required`, except for a public campaign: a signed-out visitor reads it."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated and not (
            Campaign.objects.filter(slug=kwargs.get("slug"), public=True).exists()
        ):
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return cast(View, wrapped)


def player_for(request: HttpRequest, slug: str) -> Membership:
    """The signed-in user's membership, as the ruler of a kingdom: 404 for anyone else."""
    return _ruler(membership_for(request, slug))


def players_of(request: HttpRequest, slug: str) -> tuple[Membership, list[Membership]]:
    """`player_for`, with the campaign's players of kingdoms (the user's own among them), in
    one query: the pages that draw every kingdom ask for both."""
    user = request.user
    members = list(_with_campaign().filter(campaign__slug=slug)) if isinstance(user, User) else []
    membership = _ruler(_member(next((m for m in members if m.user_id == user.pk), None)))
    return membership, [m for m in members if m.kingdom]


def newest_or_404(campaign: Campaign) -> Snapshot:
    """The campaign's newest snapshot; 404 before it has started."""
    snapshot = campaign.snapshots.order_by("-number").first()
    if snapshot is None:
        raise Http404("The campaign has not started yet.")
    return snapshot
