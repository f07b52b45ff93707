"""The winter page: one page that walks a kingdom through what the winter asks of it
(ruling W4 tithes, W5 purchases, W6 feeding, W7 deployment), with its ledger, the list it
is writing, and a forecast of what that list would do. Every change is saved through
`services.submission_save`, so the engine judges it at once; the purchases and the tiles
offered are the engine's own choices (`rules.winter.purchase_choices`, `deploy_choices`).
Only the kingdom's own decisions are ever read: another kingdom's plans stay hidden."""

import json
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from campaign import services
from campaign.access import newest_or_404, player_for
from campaign.display import winter as words
from campaign.display.mapsvg import KingdomLook, Mark, Pick, from_capital, render_map
from campaign.forms import read_hex
from campaign.models import Membership, Submission
from campaign.rules import decisions
from campaign.rules.fileformat import dump_purchase, parse_campaign
from campaign.rules.hexmap import Hex, neighbours
from campaign.rules.winter import deploy_choices, purchase_choices, supply
from campaign.views.common import decision_of

type Json = dict[str, Any]

# The `inputs` keys of the winter's decisions, and what an empty answer is.
NOTHING: dict[str, Any] = {"tithes": [], "purchases": [], "feed": {"disband": []}, "deploy": []}


@dataclass(frozen=True)
class Choice:
    """A purchase the kingdom could add, as the engine judges it after its list."""

    words: str
    value: str  # the purchase as the campaign file writes it, in JSON
    reason: str | None
    price: str  # "1 gold and 1 food", "free"

    @property
    def hex(self) -> Hex | None:
        where = json.loads(self.value).get("hex")
        return (where[0], where[1]) if where else None


@dataclass(frozen=True)
class Board:
    membership: Membership
    data: Json
    seen: int
    kind: str | None  # the `inputs` key asked of the kingdom now, if any
    draft: Any  # what the kingdom has given of it so far
    ready: bool
    names: dict[str, str]
    digest: str = ""  # of the kingdom's open decisions, for Ready (services.check_draft)

    @property
    def kingdom(self) -> str:
        return self.membership.kingdom

    @property
    def purse(self) -> Json:
        return next(k for k in self.data["kingdoms"] if k["id"] == self.kingdom)


def _board(membership: Membership) -> Board:
    campaign = membership.campaign
    snapshot = newest_or_404(campaign)
    data, me = snapshot.data, membership.kingdom
    asked = [
        decisions.ANSWERS[p["kind"]]
        for p in data.get("pending", [])
        if p["kingdom"] == me and decisions.ANSWERS[p["kind"]] in NOTHING
    ]
    kind = asked[0] if asked else None
    own = list(Submission.objects.filter(campaign=campaign, kingdom=me, consumed_by=None))
    given = next((s for s in own if s.kind == kind), None) if kind else None
    names = {
        m.kingdom: m.kingdom_name
        for m in campaign.memberships.exclude(kingdom="")
        if m.kingdom_name
    }
    return Board(
        membership=membership,
        data=data,
        seen=snapshot.number,
        kind=kind,
        draft=given.payload if given is not None else NOTHING.get(kind or ""),
        ready=given is not None and given.ready,
        names=names,
        digest=services.draft_digest(own),
    )


def _step_context(board: Board) -> Json:
    """What the step asked now needs on the page."""
    data, me, kind = board.data, board.kingdom, board.kind
    if kind == "tithes":
        others = [k for k in data["player_order"] if k != me]
        return {
            "tithe_to": [(k, board.names.get(k, k)) for k in others],
            "player_order": [board.names.get(k, k) for k in data["player_order"]],
        }
    if kind == "purchases":
        state = parse_campaign({**data, "inputs": {"purchases": {me: board.draft}}})
        planned = state.inputs.purchases.get(me, ())
        return {
            "listed": [words.purchase_words(p) for p in board.draft],
            "choices": [
                Choice(
                    _with_place(data, me, dump_purchase(c.purchase)),
                    json.dumps(dump_purchase(c.purchase)),
                    c.reason,
                    _price_words(c.gold, c.food),
                )
                for c in purchase_choices(state, me, planned)
            ],
        }
    if kind == "feed":
        asked = next(p for p in data["pending"] if p["kind"] == "feed" and p["kingdom"] == me)
        return {"hungry": asked["armies"], "short": asked["short"]}
    if kind == "deploy":
        state = parse_campaign({**data, "inputs": {"deploy": {me: board.draft}}})
        left = deploy_choices(state, me, state.inputs.deploy.get(me, ()))
        return {"to_place": left.armies, "room": left.room}
    return {}


def _choice_words(purchase: Json) -> str:
    """A purchase offered; the allied army's race is named when it is added."""
    if purchase.get("ally"):
        return f"Raise the allied army at {words.at(purchase['hex'])}"
    return words.purchase_words(purchase)


def _with_place(data: Json, kingdom: str, purchase: Json) -> str:
    """A purchase offered, and where that is in words ("…: your fortress north-east of
    your capital"), never its coordinates alone."""
    said = _choice_words(purchase)
    if purchase.get("hex") is None:
        return said
    h = (purchase["hex"][0], purchase["hex"][1])
    held = next((t for t in data["tiles"] if tuple(t["hex"]) == h), None)
    what = f"your {held['settlement']}" if held and held.get("settlement") else "your tile"
    way = from_capital(data, kingdom, h)
    if way is None:
        return f"{said}: {what}"
    return f"{said}: {what} {way} of your capital" if way else f"{said}: your capital"


def _price_words(gold: int, food: int) -> str:
    paid = [f"{n} {what}" for n, what in ((gold, "gold"), (food, "food")) if n]
    return " and ".join(paid) or "free"


def _supply_marks(board: Board) -> tuple[list[Mark], list[Hex]]:
    """The kingdom's tiles outlined as connected to its capital or cut off (M7, W1), and
    the cut-off ones."""
    lines = supply(parse_campaign({**board.data, "inputs": {}}), board.kingdom)
    marks = [
        Mark(h, "supplied", f"[{h[0]}, {h[1]}]: connected to the capital") for h in lines.connected
    ]
    marks += [
        Mark(h, "cut-off", f"[{h[0]}, {h[1]}]: cut off from the capital") for h in lines.cut_off
    ]
    return marks, sorted(lines.cut_off)


def _winter_map(board: Board, step: Json, marks: list[Mark]) -> str:
    """The map framed on the kingdom, its supply lines outlined; at deployment, the
    settlements with room lit for placing the next army."""
    players = board.membership.campaign.memberships.exclude(kingdom="")
    looks = {m.kingdom: KingdomLook(m.kingdom_name, m.colour, m.heraldry) for m in players}
    armies = step.get("to_place", ())
    url = reverse("campaign:winter_change", args=[board.membership.campaign.slug, "deploy", "add"])
    picks = [
        Pick(
            hex=h,
            label=f"Deploy {armies[0]} at [{h[0]}, {h[1]}] ({room} left)",
            href="#deploy-form",
            attrs={
                "hx-post": url,
                "hx-vals": json.dumps(
                    {"army": armies[0], "hex": f"{h[0]},{h[1]}", "seen": board.seen}
                ),
                "hx-target": "#winter",  # with the page's hx-select: the winter part alone
                "hx-swap": "outerHTML show:none",
            },
        )
        for h, room in step.get("room", {}).items()
        if room > 0 and armies
    ]
    picks += _purchase_picks(step.get("choices", ()), step.get("here_at"))
    own = [mark.hex for mark in marks] or [pick.hex for pick in picks]
    around = [n for h in own for n in neighbours(h)]
    return render_map(
        board.data, kingdoms=looks, picks=picks, moves=[], focus=[*own, *around], marks=marks
    )


def _purchase_picks(choices: list[Choice], here: Hex | None) -> list[Pick]:
    """Each tile where a purchase is possible, lit to tap: the tap shows, under the map,
    what the kingdom could build or raise there (`?at=q,r`)."""
    tiles = sorted({c.hex for c in choices if c.hex is not None and not c.reason})
    return [
        Pick(
            hex=h,
            label=f"What you could add at [{h[0]}, {h[1]}]",
            href=f"?at={h[0]},{h[1]}#here",
            kind="chosen" if h == here else "target",
        )
        for h in tiles
    ]


@login_required
@require_GET
def winter_page(request: HttpRequest, slug: str) -> HttpResponse:
    membership = player_for(request, slug)
    board = _board(membership)
    context: Json = {
        "campaign": membership.campaign,
        "membership": membership,
        "board": board,
        "clock": board.data["clock"],
        "ledger": words.ledger(board.data, board.kingdom, board.names),
        "everyone_ready": board.ready
        and services.everyone_ready_at(membership.campaign, board.data),
    }
    if board.kind is not None:
        step = _step_context(board)
        if board.kind == "purchases":  # a tile tapped on the map: what could go there
            step["here_at"] = read_hex(request.GET.get("at", ""))
            step["here"] = [c for c in step["choices"] if c.hex and c.hex == step["here_at"]]
        context |= step
        context["forecast"] = words.forecast(
            board.data, board.kingdom, board.kind, board.draft, board.names
        )
        marks, context["cut_off"] = _supply_marks(board)
        context["map_svg"] = _winter_map(board, step, marks)
    return render(request, "campaign/winter.html", context)


# --- changing the list --------------------------------------------------------------------


def _index(post: Any, length: int) -> int:
    try:
        index = int(post.get("index", ""))
    except ValueError:
        index = -1
    if not 0 <= index < length:
        raise services.ServiceError("There is no such line in your list.", code="bad-index")
    return index


def _amount(post: Any, name: str) -> int:
    value = post.get(name, "0")
    if value not in ("0", "1"):
        raise services.ServiceError("A tithe gives 0 or 1 gold and 0 or 1 food.", code="bad-amount")
    return int(value)


def _hex(post: Any) -> list[int]:
    found = read_hex(str(post.get("hex", "")))
    if found is None:
        raise services.ServiceError("Choose a tile.", code="bad-hex")
    return list(found)


def _purchase(post: Any) -> Json:
    try:
        purchase = json.loads(post.get("purchase", ""))
    except json.JSONDecodeError:
        purchase = None
    if not isinstance(purchase, dict):
        raise services.ServiceError("Choose a purchase.", code="bad-purchase")
    if "recruit" in purchase and post.get("ally"):
        purchase["ally"] = str(post["ally"]).strip()[:40]
    elif "recruit" in purchase:
        purchase.pop("ally", None)
    return purchase


def changed(kind: str, action: str, draft: Any, post: Any) -> Any:
    """The kingdom's list of `kind` after one change from the page; the engine judges it
    when it is saved."""
    if kind == "feed" and action == "set":
        return {"disband": [str(a) for a in post.getlist("army")]}
    if kind not in ("tithes", "purchases", "deploy"):
        raise Http404("No such change.")
    listed = list(draft)
    if action == "remove":
        listed.pop(_index(post, len(listed)))
    elif action == "up":
        i = _index(post, len(listed))
        if i > 0:
            listed[i - 1], listed[i] = listed[i], listed[i - 1]
    elif action == "add" and kind == "tithes":
        listed.append(
            {
                "to": str(post.get("to", "")),
                "gold": _amount(post, "gold"),
                "food": _amount(post, "food"),
            }
        )
    elif action == "add" and kind == "purchases":
        listed.append(_purchase(post))
    elif action == "add" and kind == "deploy":
        listed.append({"army": str(post.get("army", "")), "hex": _hex(post)})
    else:
        raise Http404("No such change.")
    return listed


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)  # login_required
    return request.user


@login_required
@require_POST
def winter_change(request: HttpRequest, slug: str, kind: str, action: str) -> HttpResponse:
    membership = player_for(request, slug)
    board = _board(membership)
    try:
        if kind != board.kind:
            raise services.ServiceError("That is not asked of your kingdom now.", code="not-asked")
        services.submission_save(
            campaign=membership.campaign,
            user=_user(request),
            kind=kind,
            payload=changed(kind, action, board.draft, request.POST),
            seen=decision_of(request.POST).seen,
        )
    except services.ServiceError as error:
        messages.error(request, f"Nothing was changed. {error.message}")
    return redirect("campaign:winter", slug=slug)


@login_required
@require_POST
def winter_ready(request: HttpRequest, slug: str) -> HttpResponse:
    """Ready with the list as it stands (an empty one if none was written), or not."""
    membership = player_for(request, slug)
    board = _board(membership)
    try:
        decision = decision_of(request.POST)
        if board.kind is None:
            raise services.ServiceError("Nothing is asked of your kingdom now.", code="not-asked")
        services.submission_set_ready(
            campaign=membership.campaign,
            user=_user(request),
            ready=decision.ready,
            seen=decision.seen,
            draft=decision.draft,
            # What the page showed is what is made ready: a list never written is the
            # empty one the page shows, given and marked ready in the same transaction.
            unsaved={board.kind: board.draft},
        )
        messages.success(
            request,
            "Ready: the winter moves on once every kingdom is."
            if decision.ready
            else "Not ready: you may change your list.",
        )
    except services.ServiceError as error:
        messages.error(request, f"Nothing was changed. {error.message}")
    return redirect("campaign:winter", slug=slug)


urlpatterns: list[URLPattern] = [
    path("c/<slug:slug>/winter/", winter_page, name="winter"),
    path("c/<slug:slug>/winter/ready/", winter_ready, name="winter_ready"),
    path("c/<slug:slug>/winter/<slug:kind>/<slug:action>/", winter_change, name="winter_change"),
]
