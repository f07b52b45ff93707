"""The winter board: what the winter page draws for one kingdom at one snapshot: the step
the winter asks of it now (ruling W4 tithes, W5 purchases, W6 feeding, W7 deployment), the
list it has written so far, its ledger and the forecast of that list (campaign.display.
winter), the purchases and tiles the engine offers (`rules.winter.purchase_choices`,
`deploy_choices`), and the map of its supply lines with the tiles to tap.

Read only: the page fetches the snapshot, the kingdom's own open decisions (never another
kingdom's), the players and the decisions' digest, and this turns them into the page."""

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from campaign.display import winter as words
from campaign.display.mapcache import derived, snapshot_map
from campaign.display.mapsvg.orders import Mark, Pick
from campaign.display.mapsvg.scene import from_capital, looks_of
from campaign.display.optional import purchase_parts
from campaign.display.optional.purchases import Offered, PurchasePart
from campaign.gazetteer import Names
from campaign.models import Membership, Snapshot, Submission
from campaign.rules.fileformat import dump_purchase, parse_campaign
from campaign.rules.hexmap import Hex, neighbours
from campaign.rules.state import Campaign, PendingKind
from campaign.rules.vocabulary import EventType
from campaign.rules.winter import deploy_choices, purchase_choices, supply
from campaign.signals import Refused
from campaign.words import names_of

type Json = dict[str, Any]

# The winter's decisions (each answered by the `inputs` key of its name), and what an
# empty answer is.
NOTHING: dict[str, Any] = {
    PendingKind.TITHES: [],
    PendingKind.PURCHASES: [],
    PendingKind.FEED: {"disband": []},
    PendingKind.DEPLOY: [],
    PendingKind.SUCCESSION: {},  # option succession (OB7): see `unchanged`
}


def unchanged(data: Json, kingdom: str, kind: PendingKind) -> Any:
    """What the kingdom gives by changing nothing: the empty answer of its `kind`; for the
    army a disputed heir disbands, the default (OB7: the most recently raised), which the
    page names and Ready gives."""
    if kind is PendingKind.SUCCESSION:
        asked = next(p for p in data["pending"] if p["kind"] == kind and p["kingdom"] == kingdom)
        return {"disband": asked["armies"][-1]}
    return NOTHING[kind]


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
    """What the winter page shows of one kingdom at one snapshot."""

    membership: Membership
    snapshot: Snapshot
    data: Json
    seen: int
    kind: PendingKind | None  # the winter's decision asked of the kingdom now, if any
    draft: Any  # what the kingdom has given of it so far
    ready: bool
    names: Names
    digest: str = ""  # of the kingdom's open decisions, for Ready (services.check_draft)
    stale: Refused | None = None  # what of them an admin's correction made illegal

    @property
    def kingdom(self) -> str:
        return self.membership.kingdom

    @property
    def purse(self) -> Json:
        return next(k for k in self.data["kingdoms"] if k["id"] == self.kingdom)


def asked_kind(data: Json, kingdom: str) -> PendingKind | None:
    """The winter's decision asked of the kingdom now, if any."""
    asked = [
        PendingKind(p["kind"])
        for p in data.get("pending", [])
        if p["kingdom"] == kingdom and p["kind"] in NOTHING
    ]
    return asked[0] if asked else None


def winter_board(
    membership: Membership,
    snapshot: Snapshot,
    players: Sequence[Membership],
    *,
    own: Sequence[Submission],
    digest: str,
    stale: Refused | None = None,
) -> Board:
    """The board of the kingdom's player (`membership`) at `snapshot`, among the campaign's
    `players`: `own`, the kingdom's open decisions; `digest`, theirs; `stale`, what of them no longer
    stands (`services.stale_draft`)."""
    data, me = snapshot.data, membership.kingdom
    kind = asked_kind(data, me)
    given = next((s for s in own if s.kind == kind), None) if kind else None
    return Board(
        membership=membership,
        snapshot=snapshot,
        data=data,
        seen=snapshot.number,
        kind=kind,
        draft=given.payload if given is not None else kind and unchanged(data, me, kind),
        ready=given is not None and given.ready,
        names=names_of(snapshot.data, membership.campaign.gazetteer, players),
        digest=digest,
        stale=stale,
    )


def winter_context(
    board: Board, players: Sequence[Membership], *, everyone_ready: bool, here_at: Hex | None
) -> Json:
    """What the winter page draws: the ledger, whether everyone is ready, and for the step
    asked now, its list, choices, forecast and map. `here_at`: a tile tapped on the map at
    the purchases, whose purchases are shown under it."""
    context: Json = {
        "campaign": board.membership.campaign,
        "membership": board.membership,
        "board": board,
        "clock": board.data["clock"],
        "summer_months": board.data["options"].get("months", 6),
        "news": words.news(board.data, board.names),
        "ledger": words.ledger(board.data, board.kingdom, board.names),
        "everyone_ready": everyone_ready,
        "kinds": PendingKind.__members__,  # the kinds by name, for the template
    }
    if board.kind is not None:
        step = STEPS[board.kind](board, here_at)
        if step.get("here_at"):
            step["here_place"] = board.names.place(step["here_at"], picking=True)
        context |= step
        context["forecast"] = _forecast(board, board.kind)
        marks, cut_off = _supply_marks(board)
        context["cut_off"] = list(dict.fromkeys(board.names.place(h) for h in cut_off))
        context["map_svg"] = _winter_map(board, step, marks, players)
    return context


def _forecast(board: Board, kind: PendingKind) -> words.Forecast:
    """The forecast of the board's list, kept for the snapshot with the kingdom, the list and
    the names it says (`derived`): the page drawn again with the same list does not play
    the rest of the winter again."""
    listed = hashlib.sha256(json.dumps(board.draft, sort_keys=True).encode()).hexdigest()[:16]
    said = f"forecast:{board.kingdom}:{kind}:{listed}:{board.names.fingerprint()}"
    return derived(
        board.snapshot,
        said,
        lambda: words.forecast(board.data, board.kingdom, kind, board.draft, board.names),
    )


def _state(board: Board, inputs: Json) -> Campaign:
    """The board's campaign file read with `inputs` (`words.without_story`)."""
    return parse_campaign(words.without_story(board.data, inputs))


def _tithes(board: Board, here_at: Hex | None) -> Json:
    """The tithes (ruling W4): the kingdoms to give to, those not given to yet."""
    data, me = board.data, board.kingdom
    others = [k for k in data["player_order"] if k != me]
    given = {gift.get("to") for gift in board.draft if isinstance(gift, dict)}
    return {
        "tithe_to": [(k, board.names.get(k, k)) for k in others],
        # W4: each other kingdom at most once; the form offers those not given to yet
        "tithe_open": [(k, board.names.get(k, k)) for k in others if k not in given],
        "player_order": [board.names.get(k, k) for k in data["player_order"]],
    }


def _purchases(board: Board, here_at: Hex | None) -> Json:
    """The purchases (ruling W5): those listed, those the engine offers after them, the
    quests (option wizards); `here_at`, a tile tapped on the map: what could go there."""
    data, me = board.data, board.kingdom
    state = _state(board, {"purchases": {me: board.draft}})
    planned = state.inputs.purchases.get(me, ())
    step: Json = {
        "listed": [words.purchase_words(p, board.names) for p in board.draft],
        "quest_towers": [(t, board.names.at(t)) for t in _quest_towers(data, me)],
        "choices": [
            Choice(
                _with_place(data, me, dump_purchase(c.purchase), board.names),
                json.dumps(dump_purchase(c.purchase)),
                c.reason,
                _price_words(c.gold, c.food),
            )
            for c in purchase_choices(state, me, planned)
        ],
    }
    step["here_at"] = here_at
    step["here"] = [c for c in step["choices"] if c.hex and c.hex == here_at]
    # The options' purchases of their own (a road), each with what it offers now.
    step["purchase_parts"] = [
        (part, part.offered(state, me, board.names, here_at))
        for part in purchase_parts(data["options"])
    ]
    step["here_more"] = any(offered.ends for _, offered in step["purchase_parts"])
    return step


def _feed(board: Board, here_at: Hex | None) -> Json:
    """Feeding (ruling W6): the armies that may go hungry, and how much food is short."""
    asked = next(
        p
        for p in board.data["pending"]
        if p["kind"] == PendingKind.FEED and p["kingdom"] == board.kingdom
    )
    hungry = [(army, board.names.unit(army)) for army in asked["armies"]]
    return {"hungry": hungry, "short": asked["short"]}


def _deploy(board: Board, here_at: Hex | None) -> Json:
    """Deployment (ruling W7): the armies left to place and the room for them; the
    artefacts to place (option wizards, OA9), and at `here_at`, a tile tapped, where."""
    data, me = board.data, board.kingdom
    state = _state(board, {"deploy": {me: board.draft}})
    left = deploy_choices(state, me, state.inputs.deploy.get(me, ()))
    placed = {e["artefact"] for e in board.draft if "artefact" in e}
    held = [
        a["name"]
        for a in data.get("artefacts") or []
        if (a["holder"] or {}).get("kingdom") == me and a["name"] not in placed
    ]
    names = board.names
    step: Json = {
        "to_place": left.armies,
        "to_place_names": [names.unit(army) for army in left.armies],
        "room": left.room,
        "room_words": [
            (f"{h[0]},{h[1]}", f"{names.place(h)} ({n} left)") for h, n in left.room.items() if n
        ],
        "deployed": [_deploy_words(entry, names) for entry in board.draft],
        "artefacts_to_place": held,  # option wizards (OA9): secret to the kingdom
        "own_armies": [
            (a["id"], names.unit(a["id"])) for a in data["armies"] if a["kingdom"] == me
        ],
        "artefact_spots": _artefact_spots(data, me, board.draft) if held else {},
    }
    if here_at in step["artefact_spots"]:
        step["here_at"] = here_at
        step["here"] = [
            (army, board.names.unit(army) if army else "")
            for army in step["artefact_spots"][here_at]
        ]
    return step


def _succession(board: Board, here_at: Hex | None) -> Json:
    """Option succession (OB7): the armies the kingdom may disband for its disputed heir,
    each with what it costs (5 might, and where it stands; the artefacts it carries, with
    option wizards, go to the capital), and the default, the last raised."""
    data, me, names = board.data, board.kingdom, board.names
    asked = next(
        p for p in data["pending"] if p["kind"] == PendingKind.SUCCESSION and p["kingdom"] == me
    )
    carried = {
        a["holder"]["army"]: a["name"]
        for a in data.get("artefacts") or []
        if (a.get("holder") or {}).get("army")
    }
    where = {a["id"]: a["hex"] for a in data["armies"]}
    heir = next((k.get("heir") for k in data["kingdoms"] if k["id"] == me), None)
    died = next(
        (
            e
            for e in reversed(data["events"])
            if e["type"] == EventType.RULER_DIED and e.get("kingdom") == me
        ),
        None,
    )
    return {
        "heir": heir,
        "died": died,
        "disbandable": [
            (
                army,
                names.unit(army),
                names.at(where[army]),
                carried.get(army, ""),
            )
            for army in asked["armies"]
        ],
        "default_army": names.unit(asked["armies"][-1]),
    }


# What each of the winter's decisions needs on the page, by its kind.
STEPS: Mapping[PendingKind, Callable[[Board, Hex | None], Json]] = {
    PendingKind.TITHES: _tithes,
    PendingKind.PURCHASES: _purchases,
    PendingKind.FEED: _feed,
    PendingKind.DEPLOY: _deploy,
    PendingKind.SUCCESSION: _succession,
}


def _artefact_spots(data: Json, kingdom: str, draft: list[Json]) -> dict[Hex, list[str | None]]:
    """Option wizards (OA9): where the kingdom may place an artefact, tile by tile, once
    each of its armies is placed: the armies deployed there, and its capital (None)."""
    placed = {e["army"]: e["hex"] for e in draft if "hex" in e}
    own = [a["id"] for a in data["armies"] if a["kingdom"] == kingdom]
    if any(army not in placed for army in own):
        return {}
    spots: dict[Hex, list[str | None]] = {}
    for army in own:
        spots.setdefault((placed[army][0], placed[army][1]), []).append(army)
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == kingdom)
    if capital is not None:
        spots.setdefault((capital[0], capital[1]), []).append(None)
    return spots


def _quest_towers(data: Json, kingdom: str) -> list[Hex]:
    """Option wizards (OA6): the Wizard's towers next to a tile the kingdom controls, where
    it may send a hero while it has an army."""
    if not any(a["kingdom"] == kingdom for a in data["armies"]):
        return []
    own = {tuple(t["hex"]) for t in data["tiles"] if t["owner"] == kingdom}
    towers = sorted((t[0], t[1]) for t in data.get("towers") or [])
    return [t for t in towers if any(n in own for n in neighbours(t))]


def _deploy_words(entry: Json, names: Names) -> str:
    """A line of the deploy list: an army's place, or an artefact's (option wizards)."""
    if "artefact" in entry:
        where = f"on {names.unit(entry['army'])}" if entry.get("army") else "at the capital"
        return f"{entry['artefact']} {where}"
    return f"{names.unit(entry['army'])} to {names.place(entry['hex'])}"


def _choice_words(purchase: Json, names: Names) -> str:
    """A purchase offered; the allied army's race is named when it is added."""
    if purchase.get("ally"):
        return f"Raise the allied army {names.at(purchase['hex'])}"
    return words.purchase_words(purchase, names)


def _with_place(data: Json, kingdom: str, purchase: Json, names: Names) -> str:
    """A purchase offered, and where that is in words ("…: your fortress north-east of
    your capital"), never its coordinates."""
    said = _choice_words(purchase, names)
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
    lines = derived(
        board.snapshot, f"supply:{board.kingdom}", lambda: supply(_state(board, {}), board.kingdom)
    )
    place = board.names.place
    marks = [Mark(h, "supplied", f"{place(h)}: connected to the capital") for h in lines.connected]
    marks += [Mark(h, "cut-off", f"{place(h)}: cut off from the capital") for h in lines.cut_off]
    return marks, sorted(lines.cut_off)


def _winter_map(board: Board, step: Json, marks: list[Mark], players: Sequence[Membership]) -> str:
    """The map framed on the kingdom, its supply lines outlined; at deployment, the
    settlements with room lit for placing the next army."""
    looks = looks_of(players)
    armies, names = step.get("to_place", ()), board.names
    url = reverse("campaign:winter_change", args=[board.membership.campaign.slug, "deploy", "add"])
    picks = [
        Pick(
            hex=h,
            label=f"Deploy {names.unit(armies[0])} at {names.place(h)} ({room} left)",
            href="#deploy-form",
            attrs={
                "hx-post": url,
                "hx-vals": json.dumps(
                    {"army": armies[0], "hex": f"{h[0]},{h[1]}", "seen": board.seen}
                ),
                "hx-target": "#winter",  # the page's fragment `winter`: the winter part alone
                "hx-swap": "outerHTML show:none",
            },
        )
        for h, room in step.get("room", {}).items()
        if room > 0 and armies
    ]
    picks += _purchase_picks(
        board, step.get("choices", ()), step.get("purchase_parts", ()), step.get("here_at")
    )
    picks += _artefact_picks(step.get("artefact_spots", {}), step.get("here_at"), names)
    own = [mark.hex for mark in marks] or [pick.hex for pick in picks]
    around = [n for h in own for n in neighbours(h)]
    return snapshot_map(
        board.snapshot,
        kingdoms=looks,
        picks=picks,
        moves=[],
        focus=[*own, *around],
        marks=marks,
        names=board.names,
    )


def _artefact_picks(
    spots: dict[Hex, list[str | None]], here: Hex | None, names: Names
) -> list[Pick]:
    """Option wizards (OA9): each tile where an artefact may go, lit to tap: the tap shows,
    under the map, the armies there and the capital to choose from (`?at=q,r`)."""
    return [
        Pick(
            hex=h,
            label=f"Place an artefact at {names.place(h, picking=True)}: "
            + ", ".join(f"on {names.unit(army)}" if army else "at your capital" for army in places),
            href=f"?at={h[0]},{h[1]}#here",
            kind="chosen" if h == here else "target",
        )
        for h, places in sorted(spots.items())
    ]


def _purchase_picks(
    board: Board,
    choices: list[Choice],
    parts: Sequence[tuple[PurchasePart, Offered]],
    here: Hex | None,
) -> list[Pick]:
    """Each tile where a purchase is possible, or where an option's purchase starts (a
    road), lit to tap: the tap shows, under the map, what the kingdom could build or raise
    there (`?at=q,r`). After such a tap, the tiles where a second tap adds an option's
    purchase at once (a road's other end) are lit for that instead."""
    names = board.names
    tiles = {c.hex for c in choices if c.hex is not None and not c.reason}
    tiles |= {h for _, offered in parts for h in offered.starts}
    ends = {h: offer for _, offered in parts for h, offer in offered.ends.items()}
    url = reverse(
        "campaign:winter_change", args=[board.membership.campaign.slug, "purchases", "add"]
    )
    return [
        Pick(
            hex=h,
            label=f"{ends[h].words} ({ends[h].price})",
            href="#here",  # without JavaScript: its button under the map
            attrs={
                "hx-post": url,
                "hx-vals": json.dumps({"purchase": ends[h].value, "seen": board.seen}),
                "hx-target": "#winter",  # the page's fragment `winter`: the winter part alone
                "hx-swap": "outerHTML show:none",
            },
        )
        if h in ends
        else Pick(
            hex=h,
            label=f"What you could add {names.at(h, picking=True)}",
            href=f"?at={h[0]},{h[1]}#here",
            kind="chosen" if h == here else "target",
        )
        for h in sorted(tiles | set(ends))
    ]
