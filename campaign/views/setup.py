"""The setup page: each kingdom chooses its race in secret (ruling S1), then in player
order its capital, one kingdom at a time (S3), then every kingdom at once its settlements
and the place of its first army, each hidden until all are in (S4): the rulebook's Initial
Kingdom, steps A to E. The page always says whom the campaign waits for.

Every choice goes through `services.submission_save`, so the engine checks it and a stale
page is refused. The settlements are placed one at a time, but the campaign file only
takes all four at once: until the fourth is placed, the partial plan is kept in the
player's session (for the snapshot it was made on) and saved once complete."""

import json
from dataclasses import dataclass, replace
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import path, reverse
from django.views.decorators.http import require_GET, require_POST

from accounts.models import User
from campaign import services
from campaign.access import membership_for
from campaign.asks import WORDS
from campaign.display.mapsvg import KingdomLook, Pick, direction, from_capital, render_map
from campaign.forms import read_hex
from campaign.models import Campaign, Membership, Submission
from campaign.requests import HtmxHttpRequest, page_or_fragment
from campaign.rules.hexmap import Hex, hex_label, neighbours
from campaign.rules.setup import RACES
from campaign.services import ServiceError
from campaign.views.common import decision_of
from campaign.views.freshness import revalidated

type Json = dict[str, Any]
type Plan = dict[str, list[int]]  # settlement slot -> [q, r]


# The `inputs` key that answers each step of setup.
SETUP_KINDS = {
    "races": "races",
    "capitals": "capitals",
    "settlements": "settlements",
    "armies": "starting_armies",
}
# The settlements a kingdom places around its capital (ruling S3), as the form names them.
SLOTS = {
    "city": "City",
    "fortress": "Fortress",
    "village-1": "First village",
    "village-2": "Second village",
}
# Where a tap on the map posts, at each step that chooses a tile.
CHOOSE_URL = {
    "capitals": "campaign:setup_capital",
    "settlements": "campaign:setup_settlement",
    "armies": "campaign:setup_army",
}


STEP_TITLES = {
    "races": "Step 1 of 4: races",
    "capitals": "Step 2 of 4: capitals",
    "settlements": "Step 3 of 4: settlements",
    "armies": "Step 4 of 4: first armies",
}
ORDER_WORDS = {
    "capitals": "Capitals are chosen in player order, one kingdom at a time.",
}
# The steps every kingdom takes at once, each choice hidden until all are in (S1, S4).
AT_ONCE_WORDS = {
    "races": "Only you see your race until every kingdom has chosen; then all are revealed.",
    "settlements": (
        "Every kingdom places its settlements at once. Only you see yours until every "
        "kingdom is ready; then all are revealed together."
    ),
    "armies": (
        "Every kingdom places its first army at once. Only you see yours until every "
        "kingdom is ready; then all are revealed together."
    ),
}


@dataclass(frozen=True)
class Choice:
    """A tile the player may choose, for the map's picks and the list of buttons."""

    hex: Hex
    words: str  # "[2, 1] forest"
    holds: str  # what the player's choice puts there now ("Capital", "City"…), or ""

    @property
    def value(self) -> str:
        return f"{self.hex[0]},{self.hex[1]}"

    @property
    def anchor(self) -> str:
        return f"choice-{self.hex[0]}_{self.hex[1]}"


@dataclass(frozen=True)
class InTurn:
    """A kingdom in the order the step goes through kingdoms."""

    name: str
    state: str  # "done", "now" or "to come"


@dataclass(frozen=True)
class Board:
    """Everything the setup board shows, for one member at one snapshot."""

    campaign: Campaign
    membership: Membership
    snapshot: int | None
    step: str | None
    status: list[str]  # who the campaign waits for, and who has chosen
    in_turn: list[InTurn]
    order_words: str
    asked: bool  # the campaign waits for this member's kingdom now
    ready: bool
    choice: Any  # the kingdom's own open decision for this step, or None
    plan: Plan  # settlements: the slots placed so far
    slot: str  # settlements: the slot the next tap places
    choices: list[Choice]
    revealed: list[tuple[str, str]]  # (kingdom, race), once the races are revealed
    error: str | None = None
    notice: str | None = None
    map_svg: str = ""

    @property
    def races(self) -> tuple[str, ...]:
        return RACES

    @property
    def slots(self) -> dict[str, str]:
        return SLOTS

    @property
    def title(self) -> str:
        return STEP_TITLES.get(self.step or "", "Setup")

    @property
    def in_setup(self) -> bool:
        return self.step in SETUP_KINDS

    @property
    def polls(self) -> bool:
        """The board refreshes itself while it waits for someone else."""
        return self.in_setup and (not self.asked or self.ready)

    @property
    def plan_rows(self) -> list[tuple[str, str, str]]:
        """(slot, its name, where it is placed or "") for each settlement."""
        return [
            (
                slot,
                name,
                hex_label((self.plan[slot][0], self.plan[slot][1])) if slot in self.plan else "",
            )
            for slot, name in SLOTS.items()
        ]

    @property
    def chosen_tile(self) -> str:
        """The tile of the kingdom's capital or first army, as players read it."""
        if self.step in ("capitals", "armies") and self.choice is not None:
            return hex_label((self.choice[0], self.choice[1]))
        return ""

    @property
    def choose_url(self) -> str:
        name = CHOOSE_URL.get(self.step or "")
        return reverse(name, args=[self.campaign.slug]) if name else ""


# --- settlement plans -----------------------------------------------------------------


def plan_with(plan: Plan, slot: str, hex_: list[int]) -> Plan:
    """The plan with `slot` put on `hex_`. A settlement already there takes the place
    `slot` leaves, or leaves the plan if `slot` was not placed yet."""
    moved = dict(plan)
    for other, where in plan.items():
        if where == hex_ and other != slot:
            if slot in plan:
                moved[other] = plan[slot]
            else:
                del moved[other]
    moved[slot] = hex_
    return moved


def plan_payload(plan: Plan) -> Json:
    """The campaign file's `inputs.settlements` entry for a complete plan."""
    return {
        "city": plan["city"],
        "fortress": plan["fortress"],
        "villages": [plan["village-1"], plan["village-2"]],
    }


def plan_from_payload(payload: Json) -> Plan:
    return {
        "city": payload["city"],
        "fortress": payload["fortress"],
        "village-1": payload["villages"][0],
        "village-2": payload["villages"][1],
    }


def _draft_key(campaign: Campaign) -> str:
    return f"setup-settlements-{campaign.pk}"


def _session_plan(request: HttpRequest, campaign: Campaign, snapshot: int) -> Plan:
    """The partial plan kept for this snapshot; none once the campaign has moved on."""
    draft = request.session.get(_draft_key(campaign))
    return dict(draft["plan"]) if draft and draft.get("snapshot") == snapshot else {}


# --- the board ------------------------------------------------------------------------


def _board(
    request: HttpRequest,
    membership: Membership,
    *,
    slot: str | None = None,
    error: str | None = None,
    notice: str | None = None,
) -> Board:
    campaign, me = membership.campaign, membership.kingdom
    snapshot = campaign.snapshots.order_by("-number").first()
    players = list(campaign.memberships.exclude(kingdom=""))
    names = {p.kingdom: p.kingdom_name for p in players}
    if snapshot is None:
        return _not_started(campaign, membership, error)
    data = snapshot.data
    step = data["clock"]["step"]
    kind = SETUP_KINDS.get(step)
    own = (
        Submission.objects.filter(
            campaign=campaign, kingdom=me, kind=kind, consumed_by=None
        ).first()
        if me and kind
        else None
    )
    ready = services.ready_kingdoms(campaign)
    pending = data.get("pending", []) if step in SETUP_KINDS else []
    mine = _asked(data, me) if step in SETUP_KINDS else None
    plan = _plan(request, campaign, snapshot.number, own) if step == "settlements" else {}
    board = Board(
        campaign=campaign,
        membership=membership,
        snapshot=snapshot.number,
        step=step,
        status=_status(data, step, pending, ready, names, me),
        in_turn=_in_turn(data, step, pending, names),
        order_words=ORDER_WORDS.get(step, AT_ONCE_WORDS.get(step, "")),
        asked=mine is not None,
        ready=me in ready and own is not None,
        choice=own.payload if own else None,
        plan=plan,
        slot=slot if slot in SLOTS else next((s for s in SLOTS if s not in plan), "city"),
        choices=[],
        revealed=_revealed(data, names) if step != "races" else [],
        error=error,
        notice=notice,
    )
    board = replace(board, choices=_choices(data, mine, board))
    looks = {p.kingdom: KingdomLook(p.kingdom_name, p.colour, p.heraldry) for p in players}
    shown = _with_own_choice(data, board)
    # Around the kingdom's own choices (its settlements', its army's), framed large enough
    # to read on a phone; the capitals' start tiles lie across the whole map.
    focus = [n for c in board.choices for n in (c.hex, *neighbours(c.hex))]
    if board.step == "capitals":
        focus = []
    svg = render_map(shown, kingdoms=looks, picks=_picks(board), focus=focus)
    return replace(board, map_svg=svg)


def _asked(data: Json, kingdom: str) -> Json | None:
    """What the campaign asks of the kingdom now (its `pending` entry), if anything."""
    return next((p for p in data.get("pending", []) if kingdom and p["kingdom"] == kingdom), None)


def _not_started(campaign: Campaign, membership: Membership, error: str | None) -> Board:
    return Board(
        campaign=campaign, membership=membership, snapshot=None, step=None, status=[],
        in_turn=[], order_words="", asked=False, ready=False, choice=None, plan={},
        slot="city", choices=[], revealed=[], error=error,
    )  # fmt: skip


def _plan(request: HttpRequest, campaign: Campaign, snapshot: int, own: Submission | None) -> Plan:
    if own is not None:
        return plan_from_payload(own.payload)
    return _session_plan(request, campaign, snapshot)


def _status(
    data: Json,
    step: str,
    pending: list[Json],
    ready: set[str],
    names: dict[str, str],
    me: str,
) -> list[str]:
    """Whom the campaign waits for. At the races step every kingdom is listed, and the
    others' only as chosen or not (ruling S1: never what they chose)."""
    if step not in SETUP_KINDS:
        return ["Setup is over."]
    waiting = {p["kingdom"]: p["kind"] for p in pending}
    kingdoms = [k["id"] for k in data["kingdoms"]] if step == "races" else list(waiting)
    lines = []
    for kingdom in kingdoms:
        ask = WORDS[waiting.get(kingdom, "race")].ask
        name = names.get(kingdom, kingdom)
        if kingdom == me:
            lines.append(
                f"Your turn: {ask}." if kingdom in waiting and kingdom not in ready
                else "You are ready: the campaign moves on when every kingdom it asks is."
            )  # fmt: skip
        elif kingdom in waiting and kingdom not in ready:
            lines.append(f"Waiting for {name} to {ask.replace('your ', 'their ')}.")
        else:
            lines.append(f"{name} has chosen.")
    return lines


def _in_turn(data: Json, step: str, pending: list[Json], names: dict[str, str]) -> list[InTurn]:
    """The kingdoms in the order a one-at-a-time step takes them; those before the one
    asked now are done (the engine asks the first that has not chosen)."""
    if step not in ORDER_WORDS:
        return []
    order = list(data.get("player_order", []))
    now = pending[0]["kingdom"] if pending else None
    at = order.index(now) if now in order else len(order)
    return [
        InTurn(names.get(k, k), "done" if i < at else "now" if i == at else "to come")
        for i, k in enumerate(order)
    ]


def _revealed(data: Json, names: dict[str, str]) -> list[tuple[str, str]]:
    return [(names.get(k["id"], k["name"]), k.get("race") or "") for k in data["kingdoms"]]


def _choices(data: Json, mine: Json | None, board: Board) -> list[Choice]:
    """The tiles the engine offers the kingdom now (its `pending` entry's choices)."""
    if mine is None or "choices" not in mine:
        return []
    offered: list[Hex] = [(h[0], h[1]) for h in mine["choices"]]
    terrain = {
        (t["hex"][0], t["hex"][1]): t["terrain"]
        for t in data["map"]["tiles"]
        if tuple(t["hex"]) in offered
    }
    held = _held(board)
    return [
        Choice(
            h,
            f"{hex_label(h)}, {_tile_words(data, board, h, terrain.get(h, 'tile'))}",
            held.get(h, ""),
        )
        for h in offered
    ]


def _tile_words(data: Json, board: Board, h: Hex, terrain: str) -> str:
    """A tile as players say it: "the plains north-west of your capital", or for a capital
    to choose, "the forest in the north-west of the map"."""
    way = from_capital(data, board.membership.kingdom, h)
    if way:
        return f"the {terrain} {way} of your capital"
    if way is not None:
        return f"your capital, {terrain}"
    tiles = [t["hex"] for t in data["map"]["tiles"]]
    middle = (
        round(sum(t[0] for t in tiles) / len(tiles)),
        round(sum(t[1] for t in tiles) / len(tiles)),
    )
    if middle == h:
        return f"the {terrain} in the middle of the map"
    return f"the {terrain} in the {direction(middle, h)} of the map"


def _held(board: Board) -> dict[Hex, str]:
    """What the kingdom's own choice puts on each tile."""
    if board.step == "settlements":
        return {(h[0], h[1]): SLOTS[slot] for slot, h in board.plan.items()}
    if board.choice is None:
        return {}
    what = "Capital" if board.step == "capitals" else "First army"
    return {(board.choice[0], board.choice[1]): what}


def _with_own_choice(data: Json, board: Board) -> Json:
    """The file as this player sees it: their own choice drawn on the map."""
    me = board.membership.kingdom
    if board.step == "capitals" and board.choice is not None:
        tile = {"hex": board.choice, "owner": me, "settlement": "city"}
        return {**data, "tiles": [*data["tiles"], tile]}
    if board.step == "settlements" and board.plan:
        planned = [
            {"hex": h, "owner": me, "settlement": slot.split("-")[0]}
            for slot, h in board.plan.items()
        ]
        return {**data, "tiles": [*data["tiles"], *planned]}
    if board.step == "armies" and board.choice is not None:
        army = {"id": f"{me}-1", "kingdom": me, "hex": board.choice, "upright": True, "ally": None}
        return {**data, "armies": [*data["armies"], army]}
    return data


def _picks(board: Board) -> list[Pick]:
    """Each choice as a hex to tap. Without JavaScript the link jumps to the same choice's
    button under the map."""
    if not board.choices or board.ready or board.step not in CHOOSE_URL:
        return []
    url = reverse(CHOOSE_URL[board.step], args=[board.campaign.slug])
    return [
        Pick(
            hex=choice.hex,
            label=_pick_label(board, choice),
            href=f"#{choice.anchor}",
            kind="chosen" if choice.holds else "target",
            attrs={
                "hx-post": url,
                "hx-vals": json.dumps({"hex": choice.value}),
                "hx-include": "#setup-choice-form",
                "hx-target": "#setup-board",
                "hx-swap": "outerHTML",
            },
        )
        for choice in board.choices
    ]


def _pick_label(board: Board, choice: Choice) -> str:
    here = f" (now: {choice.holds})" if choice.holds else ""
    if board.step == "capitals":
        return f"Put your capital at {choice.words}{here}"
    if board.step == "settlements":
        return f"Put the chosen settlement at {choice.words}{here}"
    return f"Put your first army at {choice.words}{here}"


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
) -> HttpResponse:
    """htmx gets the refreshed board. A plain form post that worked is sent back to the
    page with a message, so reloading never posts again; a refusal is shown beside the
    choice, with what was saved before unchanged."""
    if request.htmx:
        return _respond(request, _board(request, membership, notice=notice, error=error))
    if error:
        return _respond(request, _board(request, membership, error=error), status=400)
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
        services.submission_save(
            campaign=membership.campaign,
            user=request.user,
            kind=kind,
            payload=payload,
            seen=decision_of(request.POST).seen,
        )
    except ServiceError as refusal:
        return _answer(request, membership, error=refusal.message)
    return _answer(request, membership, notice=notice)


# --- views ----------------------------------------------------------------------------


@login_required
@require_GET
@revalidated
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
    snapshot = services.latest_snapshot(campaign)
    _check_site(snapshot.data, membership.kingdom, hex_, seen=seen, number=snapshot.number)
    own = Submission.objects.filter(
        campaign=campaign, kingdom=membership.kingdom, kind="settlements", consumed_by=None
    ).first()
    plan = plan_with(_plan(request, campaign, snapshot.number, own), slot, hex_)
    if len(plan) < len(SLOTS):
        request.session[_draft_key(campaign)] = {"snapshot": snapshot.number, "plan": plan}
        return plan, False
    assert isinstance(request.user, User)  # login_required
    services.submission_save(
        campaign=campaign, user=request.user, kind="settlements", payload=plan_payload(plan),
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
    mine = _asked(data, kingdom)
    if mine is None or mine["kind"] != "settlements":
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
    """Mark the kingdom's choice ready (or, with ready=0, take that back)."""
    membership = membership_for(request, slug)
    assert isinstance(request.user, User)  # login_required
    try:
        decision = decision_of(request.POST)
        ready = decision.ready
        count = services.submission_set_ready(
            campaign=membership.campaign,
            user=request.user,
            ready=ready,
            seen=decision.seen,
        )
    except ServiceError as refusal:
        return _answer(request, membership, error=refusal.message)
    if not count:
        return _answer(request, membership, error="Make your choice first, then mark it ready.")
    notice = (
        "Ready. The campaign moves on when every kingdom it asks is ready."
        if ready
        else "Not ready: you may change your choice."
    )
    return _answer(request, membership, notice=notice)


urlpatterns = [
    path("c/<slug:slug>/setup/", setup_page, name="setup"),
    path("c/<slug:slug>/setup/race/", choose_race, name="setup_race"),
    path("c/<slug:slug>/setup/capital/", choose_capital, name="setup_capital"),
    path("c/<slug:slug>/setup/settlement/", place_settlement, name="setup_settlement"),
    path("c/<slug:slug>/setup/army/", choose_army, name="setup_army"),
    path("c/<slug:slug>/setup/ready/", set_ready, name="setup_ready"),
]
