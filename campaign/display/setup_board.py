"""The setup board: what the setup page draws for one member at one snapshot of the
rulebook's Initial Kingdom (rulings S1 to S4): whom the campaign waits for, the kingdoms in
their turn, the tiles the engine offers the member's kingdom, its own choice on the map
(hidden from the others until all are in), and the settlement plan it is placing.

Read only: the page fetches the snapshot, the players, the kingdom's open decision, who
is ready and the partial plan its session keeps, and this turns them into the board."""

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.urls import reverse

from campaign.asks import WORDS
from campaign.display.mapsvg.geometry import direction
from campaign.display.mapsvg.orders import Pick
from campaign.display.mapsvg.render import render_map
from campaign.display.mapsvg.scene import from_capital, looks_of
from campaign.models import Campaign, Membership, Snapshot, Submission
from campaign.rules.hexmap import Hex, hex_label, neighbours
from campaign.rules.state import Step
from campaign.rules.vocabulary import RACES
from campaign.words import kingdom_names, names_of

type Json = dict[str, Any]
type Plan = dict[str, list[int]]  # settlement slot -> [q, r]


# The `inputs` key that answers each step of setup.
SETUP_KINDS: Mapping[Step, str] = {
    Step.RACES: "races",
    Step.CAPITALS: "capitals",
    Step.SETTLEMENTS: "settlements",
    Step.ARMIES: "starting_armies",
}
# The settlements a kingdom places around its capital (ruling S3), as the form names them.
SLOTS = {
    "city": "City",
    "fortress": "Fortress",
    "village-1": "First village",
    "village-2": "Second village",
}
# Where a tap on the map posts, at each step that chooses a tile.
CHOOSE_URL: Mapping[Step, str] = {
    Step.CAPITALS: "campaign:setup_capital",
    Step.SETTLEMENTS: "campaign:setup_settlement",
    Step.ARMIES: "campaign:setup_army",
}


STEP_TITLES: Mapping[Step, str] = {
    Step.RACES: "Step 1 of 4: races",
    Step.CAPITALS: "Step 2 of 4: capitals",
    Step.SETTLEMENTS: "Step 3 of 4: settlements",
    Step.ARMIES: "Step 4 of 4: first armies",
}
ORDER_WORDS: Mapping[Step, str] = {
    Step.CAPITALS: "Capitals are chosen in player order, one kingdom at a time.",
}
# The steps every kingdom takes at once, each choice hidden until all are in (S1, S4).
AT_ONCE_WORDS: Mapping[Step, str] = {
    Step.RACES: "Only you see your race until every kingdom has chosen; then all are revealed.",
    Step.SETTLEMENTS: (
        "Every kingdom places its settlements at once. Only you see yours until every "
        "kingdom is ready; then all are revealed together."
    ),
    Step.ARMIES: (
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
    step: Step | None
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
    # The digest of the kingdom's open decisions this board shows: its Ready confirms
    # those, not a choice made since in another tab (services.check_draft).
    draft: str = ""

    @property
    def races(self) -> tuple[str, ...]:
        return RACES

    @property
    def slots(self) -> dict[str, str]:
        return SLOTS

    @property
    def title(self) -> str:
        return STEP_TITLES.get(self.step, "Setup") if self.step else "Setup"

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
        if self.step in (Step.CAPITALS, Step.ARMIES) and self.choice is not None:
            return hex_label((self.choice[0], self.choice[1]))
        return ""

    @property
    def choose_url(self) -> str:
        name = CHOOSE_URL.get(self.step) if self.step else None
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


def settlement_plan(own: Submission | None, kept: Plan) -> Plan:
    """The kingdom's settlement plan: the one it has given, else the partial one kept for
    it (in its player's session) while it places them."""
    if own is not None:
        return plan_from_payload(own.payload)
    return kept


# --- what the campaign asks ---------------------------------------------------------------


def setup_kind(data: Json) -> str | None:
    """The `inputs` key that answers the file's step, while the campaign is in setup."""
    return SETUP_KINDS.get(Step(data["clock"]["step"]))


def asked_now(data: Json, kingdom: str) -> Json | None:
    """What the campaign asks of the kingdom now (its `pending` entry), if anything."""
    return next((p for p in data.get("pending", []) if kingdom and p["kingdom"] == kingdom), None)


# --- the board ------------------------------------------------------------------------


def setup_board(
    membership: Membership,
    snapshot: Snapshot,
    *,
    players: Sequence[Membership],
    own: Submission | None,
    ready: set[str],
    kept_plan: Plan,
    slot: str | None = None,
    error: str | None = None,
    notice: str | None = None,
    digest: str = "",
) -> Board:
    """The board of `membership` at `snapshot`, among the campaign's `players`: `own`, its
    kingdom's open decision for the step; `ready`, the kingdoms with every open decision
    marked ready; `kept_plan`, the partial settlement plan kept for this snapshot; `slot`,
    the settlement the next tap places; `digest`, that of the kingdom's open decisions
    (`services.draft_digest`)."""
    data, me = snapshot.data, membership.kingdom
    step = Step(data["clock"]["step"])
    names = kingdom_names(data, players)
    pending = data.get("pending", []) if step in SETUP_KINDS else []
    mine = asked_now(data, me) if step in SETUP_KINDS else None
    plan = settlement_plan(own, kept_plan) if step == Step.SETTLEMENTS else {}
    board = Board(
        campaign=membership.campaign,
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
        revealed=_revealed(data, names) if step != Step.RACES else [],
        error=error,
        notice=notice,
        draft=digest,
    )
    board = replace(board, choices=_choices(data, mine, board))
    return replace(board, map_svg=_map(data, board, players))


def not_started(membership: Membership, error: str | None) -> Board:
    """The board of a campaign that has no snapshot yet."""
    return Board(
        campaign=membership.campaign, membership=membership, snapshot=None, step=None,
        status=[], in_turn=[], order_words="", asked=False, ready=False, choice=None, plan={},
        slot="city", choices=[], revealed=[], error=error,
    )  # fmt: skip


def _map(data: Json, board: Board, players: Sequence[Membership]) -> str:
    looks = looks_of(players)
    shown = _with_own_choice(data, board)
    # Around the kingdom's own choices (its settlements', its army's), framed large enough
    # to read on a phone; the capitals' start tiles lie across the whole map.
    focus = [n for c in board.choices for n in (c.hex, *neighbours(c.hex))]
    if board.step == Step.CAPITALS:
        focus = []
    names = names_of(shown, board.campaign.gazetteer, players)
    return render_map(shown, kingdoms=looks, picks=_picks(board), focus=focus, names=names)


def _status(
    data: Json,
    step: Step,
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
    kingdoms = [k["id"] for k in data["kingdoms"]] if step == Step.RACES else list(waiting)
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


def _in_turn(data: Json, step: Step, pending: list[Json], names: dict[str, str]) -> list[InTurn]:
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
    if board.step == Step.SETTLEMENTS:
        return {(h[0], h[1]): SLOTS[slot] for slot, h in board.plan.items()}
    if board.choice is None:
        return {}
    what = "Capital" if board.step == Step.CAPITALS else "First army"
    return {(board.choice[0], board.choice[1]): what}


def _with_own_choice(data: Json, board: Board) -> Json:
    """The file as this player sees it: their own choice drawn on the map."""
    me = board.membership.kingdom
    if board.step == Step.CAPITALS and board.choice is not None:
        tile = {"hex": board.choice, "owner": me, "settlement": "city"}
        return {**data, "tiles": [*data["tiles"], tile]}
    if board.step == Step.SETTLEMENTS and board.plan:
        planned = [
            {"hex": h, "owner": me, "settlement": slot.split("-")[0]}
            for slot, h in board.plan.items()
        ]
        return {**data, "tiles": [*data["tiles"], *planned]}
    if board.step == Step.ARMIES and board.choice is not None:
        army = {"id": f"{me}-1", "kingdom": me, "hex": board.choice, "upright": True, "ally": None}
        return {**data, "armies": [*data["armies"], army]}
    return data


def _picks(board: Board) -> list[Pick]:
    """Each choice as a hex to tap. Without JavaScript the link jumps to the same choice's
    button under the map."""
    url = board.choose_url
    if not board.choices or board.ready or not url:
        return []
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
    if board.step == Step.CAPITALS:
        return f"Put your capital at {choice.words}{here}"
    if board.step == Step.SETTLEMENTS:
        return f"Put the chosen settlement at {choice.words}{here}"
    return f"Put your first army at {choice.words}{here}"
