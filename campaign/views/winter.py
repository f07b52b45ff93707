"""The winter page: one page that walks a kingdom through what the winter asks of it
(ruling W4 tithes, W5 purchases, W6 feeding, W7 deployment), with its ledger, the list it
is writing, and a forecast of what that list would do. Every change is saved through
`submissions.submission_save`, so the engine judges it at once; the purchases and the tiles
offered are the engine's own choices (`rules.winter.purchase_choices`, `deploy_choices`).
Only the kingdom's own decisions are ever read: another kingdom's plans stay hidden.

What the page shows is campaign.display.winter_board: these handlers read the request,
fetch what the board needs, call the services and choose the answer."""

import json
from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.views.decorators.http import require_GET, require_POST

from campaign.access import newest_or_404, player_for, signed_in_user
from campaign.actions import refused
from campaign.display.winter_board import (
    Board,
    asked_kind,
    unchanged,
    winter_board,
    winter_context,
)
from campaign.forms import DECISIONS, read_hex, whole_number
from campaign.models import Membership, Snapshot, Submission
from campaign.requests import page_or_fragment
from campaign.rules.state import PendingKind
from campaign.services import common, inputs, submissions
from campaign.views.common import decision_of

type Json = dict[str, Any]


def _board(membership: Membership) -> tuple[Board, list[Membership]]:
    """The kingdom's winter board at the newest snapshot, and the campaign's players."""
    campaign = membership.campaign
    snapshot = newest_or_404(campaign)
    own = list(
        Submission.objects.filter(campaign=campaign, kingdom=membership.kingdom, consumed_by=None)
    )
    players = list(campaign.memberships.exclude(kingdom=""))
    board = winter_board(
        membership, snapshot, players, own=own, digest=submissions.draft_digest(own),
        stale=inputs.stale_draft(
            snapshot.data, snapshot.number, own, gazetteer=campaign.gazetteer
        ),
    )  # fmt: skip
    return board, players


@login_required
@require_GET
def winter_page(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, player_for(request, slug))


def _page(request: HttpRequest, membership: Membership, *, status: int = 200) -> HttpResponse:
    """The page, or for htmx its part `winter` (a change swaps it in, with the messages)."""
    board, players = _board(membership)
    everyone_ready = board.ready and inputs.everyone_ready_at(membership.campaign, board.data)
    here_at = read_hex(request.GET.get("at", ""))  # a tile tapped on the map, at the purchases
    context = winter_context(board, players, everyone_ready=everyone_ready, here_at=here_at)
    context["section"] = DECISIONS[board.kind].section if board.kind else None
    return page_or_fragment(
        request, "campaign/winter.html", context, fragment="winter", status=status
    )


# --- changing the list --------------------------------------------------------------------

MAX_PURCHASE = 500  # characters of a purchase's JSON; the page's are under a hundred
MAX_HERO = 60  # characters of a quest's hero's name (option wizards, OA6)
# Refusals of a post no page of the app sends (a forged or broken one): answered 400, the
# page drawn again with the words. An engine's refusal of a real choice goes back to the
# page with its message, like every other answer.
MALFORMED = frozenset({"no-seen", "bad-index", "bad-amount", "bad-hex", "bad-purchase"})


def _index(post: Any, length: int) -> int:
    index = whole_number(post.get("index"))
    if index is None or not 0 <= index < length:
        raise common.ServiceError("There is no such line in your list.", code="bad-index")
    return index


def _amount(post: Any, name: str) -> int:
    value = post.get(name, "0")
    if value not in ("0", "1"):
        raise common.ServiceError("A tithe gives 0 or 1 gold and 0 or 1 food.", code="bad-amount")
    return int(value)


def _hex(post: Any) -> list[int]:
    return _tile(post, "hex")


def _tile(post: Any, field: str) -> list[int]:
    found = read_hex(str(post.get(field, "")))
    if found is None:
        raise common.ServiceError("Choose a tile.", code="bad-hex")
    return list(found)


# A purchase's tiles when its form has the player choose them from lists ("q,r" each): a
# road's two ends (option OW9).
TILES = ("hex", "to")


def _purchase(post: Any) -> Json:
    text = str(post.get("purchase", ""))
    try:  # a purchase is a few dozen characters: nothing longer is parsed
        purchase = json.loads(text) if len(text) <= MAX_PURCHASE else None
    except (ValueError, RecursionError):  # not JSON, or a number of thousands of digits
        purchase = None
    if not isinstance(purchase, dict):
        raise common.ServiceError("Choose a purchase.", code="bad-purchase")
    for field in TILES:
        if field in post:
            purchase[field] = _tile(post, field)
    if "quest" in purchase:  # option wizards (OA6): the hero and his points, as typed
        return {"quest": purchase["quest"], "hero": _hero(post), "points": _points(post)}
    if "recruit" in purchase and post.get("ally"):
        purchase["ally"] = str(post["ally"]).strip()[:40]
    elif "recruit" in purchase:
        purchase.pop("ally", None)
    return purchase


def _hero(post: Any) -> str:
    hero = " ".join(str(post.get("hero", "")).split())
    if not hero or len(hero) > MAX_HERO:
        raise common.ServiceError(
            f"Name the hero you send, in at most {MAX_HERO} characters.", code="bad-purchase"
        )
    return hero


def _points(post: Any) -> int:
    points = whole_number(str(post.get("points", "")))
    if points is None or not 0 <= points <= 1000:
        raise common.ServiceError(
            "Give the hero's points as a whole number from 0 to 1000.", code="bad-purchase"
        )
    return points


def _removed(draft: Any, post: Any) -> Any:
    listed = list(draft)
    listed.pop(_index(post, len(listed)))
    return listed


def _raised(draft: Any, post: Any) -> Any:
    listed = list(draft)
    i = _index(post, len(listed))
    if i > 0:
        listed[i - 1], listed[i] = listed[i], listed[i - 1]
    return listed


def _tithe_added(draft: Any, post: Any) -> Any:
    gift = {
        "to": str(post.get("to", "")),
        "gold": _amount(post, "gold"),
        "food": _amount(post, "food"),
    }
    return [*draft, gift]


def _purchase_added(draft: Any, post: Any) -> Any:
    return [*draft, _purchase(post)]


def _deployed(draft: Any, post: Any) -> Any:
    if post.get("artefact"):  # option wizards, OA9
        army = str(post.get("army", "")) or None
        return [*draft, {"artefact": str(post["artefact"]), "army": army}]
    return [*draft, {"army": str(post.get("army", "")), "hex": _hex(post)}]


def _hungry(draft: Any, post: Any) -> Any:
    return {"disband": [str(a) for a in post.getlist("army")]}


def _disbanded(draft: Any, post: Any) -> Any:
    """Option succession (OB7): the army the disputed heir disbands."""
    return {"disband": str(post.get("army", ""))}


type Change = Callable[[Any, Any], Any]
# The changes the page makes to each of the winter's lists, by kind and action.
CHANGES: Mapping[PendingKind, Mapping[str, Change]] = {
    PendingKind.TITHES: {"remove": _removed, "up": _raised, "add": _tithe_added},
    PendingKind.PURCHASES: {"remove": _removed, "up": _raised, "add": _purchase_added},
    PendingKind.FEED: {"set": _hungry},
    PendingKind.DEPLOY: {"remove": _removed, "up": _raised, "add": _deployed},
    PendingKind.SUCCESSION: {"set": _disbanded},
}


def changed(kind: str, action: str, draft: Any, post: Any) -> Any:
    """The kingdom's list of `kind` after one change from the page; the engine judges it
    when it is saved."""
    change = CHANGES[PendingKind(kind)].get(action) if kind in CHANGES else None
    if change is None:
        raise Http404("No such change.")
    return change(draft, post)


@login_required
@require_POST
def winter_change(request: HttpRequest, slug: str, kind: str, action: str) -> HttpResponse:
    membership = player_for(request, slug)

    def change(data: Json, given: Submission | None) -> Any:
        """The list after the change, from the snapshot and the list the service read."""
        if kind != asked_kind(data, membership.kingdom):
            raise common.ServiceError("That is not asked of your kingdom now.", code="not-asked")
        unsaid = unchanged(data, membership.kingdom, PendingKind(kind))
        return changed(kind, action, given.payload if given else unsaid, request.POST)

    try:
        submissions.save(
            campaign=membership.campaign,
            user=signed_in_user(request),
            kind=kind,
            edit=change,
            seen=decision_of(request.POST).seen,
        )
    except common.ServiceError as error:
        return _refused(request, membership, error)
    return redirect("campaign:winter", slug=slug)


def _refused(
    request: HttpRequest, membership: Membership, error: common.ServiceError
) -> HttpResponse:
    """Nothing was changed, in words: a malformed post gets the page again with a 400; any
    other refusal goes back to the page."""
    refused(request, error.message)
    if error.code in MALFORMED:
        return _page(request, membership, status=400)
    return redirect("campaign:winter", slug=membership.campaign.slug)


@login_required
@require_POST
def winter_ready(request: HttpRequest, slug: str) -> HttpResponse:
    """Ready with the list as it stands (an empty one if none was written), or not."""
    membership = player_for(request, slug)
    try:
        decision = decision_of(request.POST)
        submissions.submission_set_ready(
            campaign=membership.campaign,
            user=signed_in_user(request),
            ready=decision.ready,
            seen=decision.seen,
            draft=decision.draft,
            judge=_as_shown(membership.kingdom),
        )
        messages.success(
            request,
            "Ready: the winter moves on once every kingdom is."
            if decision.ready
            else "Not ready: you may change your list.",
        )
    except common.ServiceError as error:
        return _refused(request, membership, error)
    return redirect("campaign:winter", slug=slug)


def _as_shown(kingdom: str) -> submissions.Judge:
    """Ready's check on the snapshot the service reads: a winter decision asked of the
    kingdom. What the page showed is what is made ready: a list never written is the empty
    one the page shows, given and marked ready in the same transaction."""

    def judge(snapshot: Snapshot, own: list[Submission]) -> dict[str, Any]:
        kind = asked_kind(snapshot.data, kingdom)
        if kind is None:
            raise common.ServiceError("Nothing is asked of your kingdom now.", code="not-asked")
        return {kind: unchanged(snapshot.data, kingdom, kind)}

    return judge


urlpatterns: list[URLPattern] = [
    path("c/<slug:slug>/winter/", winter_page, name="winter"),
    path("c/<slug:slug>/winter/ready/", winter_ready, name="winter_ready"),
    path("c/<slug:slug>/winter/<slug:kind>/<slug:action>/", winter_change, name="winter_change"),
]
