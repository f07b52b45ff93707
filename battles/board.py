"""What the battle pages draw, read only: where a battle stands and what it asks of whom,
the card of one battle, the campaign's list of battles with the decisions the campaign asks
around them (each shown by its section of the table of decisions, campaign.forms.DECISIONS),
"my battles" for the home page, and the rows of the admin's battle desk. The pages
(`battles.views`) fetch the battle and its campaign, and render what this makes."""

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from battles import card
from battles.access import side_for
from battles.forms import DecideForm, ExtendForm, ProposeForm, ReportForm, SimpleForm
from battles.models import Battle, ResultReport
from campaign.display.mapcache import derived, snapshot_map
from campaign.display.mapsvg.orders import Pick
from campaign.display.mapsvg.render import render_map
from campaign.display.mapsvg.scene import KingdomLook, looks_of
from campaign.forms import DECISIONS
from campaign.gazetteer import Names
from campaign.models import Campaign, Membership, Snapshot, Submission
from campaign.rules.battles.kinds import naval_possible
from campaign.rules.decisions import ANSWERS
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import neighbours
from campaign.rules.state import HORDE, PendingKind

type Json = dict[str, Any]


# --- what a battle stands at ------------------------------------------------------------------


@dataclass(frozen=True)
class Cast:
    """The campaign's kingdoms as people read them."""

    names: Names
    players: dict[str, str]
    looks: dict[str, KingdomLook]

    def name(self, kingdom: str) -> str:
        return self.names.get(kingdom, kingdom)


def cast_of(campaign: Campaign) -> Cast:
    """The kingdoms' names, players and looks; with option marauders, the horde too, its
    player its general (OW5)."""
    players = list(campaign.memberships.exclude(kingdom="").select_related("user"))
    names = {p.kingdom: p.kingdom_name for p in players}
    who = {p.kingdom: p.user.get_username() for p in players}
    general = campaign.options.get("marauder_general")
    if general:
        names[HORDE] = f"the marauding {campaign.options.get('marauder_race', '')}"
        who[HORDE] = f"{who[general]}, their general" if general in who else "the admin"
    return Cast(names=Names(names, campaign.gazetteer), players=who, looks=looks_of(players))


# A result given goes into the campaign once the battles step has every battle's result.
TAKES_EFFECT = "it takes effect once every battle of the month has its result"


def state_words(battle: Battle, reports: list[ResultReport], cast: Cast) -> str:
    """Where the battle stands, in a sentence."""
    if not battle.awaiting:
        return resolved_words(battle, cast)
    by_status = {r.status: r for r in reports}
    if ResultReport.Status.CONFIRMED in by_status:
        return f"Result confirmed: {TAKES_EFFECT}."
    if ResultReport.Status.DISPUTED in by_status:
        return "Disputed: the campaign's admin decides."
    if ResultReport.Status.REPORTED in by_status:
        reporter = cast.name(by_status[ResultReport.Status.REPORTED].kingdom)
        return f"Reported by {reporter}: waiting for the opponent to confirm."
    return "Waiting for the game to be played and reported."


def resolved_words(battle: Battle, cast: Cast) -> str:
    if battle.kind == "concession":
        return f"Conceded by {cast.name(battle.details.get('conceded_by', ''))}: {cast.name(battle.winner)} wins."
    if battle.result == "draw" or not battle.winner:
        return "A draw."
    return f"{cast.name(battle.winner)} won."


TO_CONFIRM = "confirm or dispute your opponent's report"
TO_REPORT = "play the game and report the result"


def asks_of_me(battle: Battle, reports: list[ResultReport], kingdom: str) -> str:
    """What the battle waits for from this side, or "" if nothing (it waits for the other
    side, or for the admin after a dispute)."""
    if not battle.awaiting or kingdom not in battle.kingdoms:
        return ""
    if any(r.status == ResultReport.Status.CONFIRMED for r in reports):
        return ""
    if any(r.status == ResultReport.Status.REPORTED and r.kingdom != kingdom for r in reports):
        return TO_CONFIRM
    if any(r.is_open for r in reports):  # your own report, or a dispute for the admin
        return ""
    return TO_REPORT


def artefacts_on_the_card(battle: Battle) -> list[str]:
    """The magical artefacts the card lists on the two sides' armies (option wizards)."""
    return [name for side in battle.sides for name in side.get("artefacts") or ()]


# --- the card --------------------------------------------------------------------------------


def card_context(
    membership: Membership,
    battle: Battle,
    snapshot: Snapshot,
    cast: Cast,
    reports: list[ResultReport],
) -> Json:
    """The card as every viewer sees it: the sides, where, the setup, what each outcome
    would do, the map around the tile; the reports the viewer may see (the two players and
    the admin see them all, the others the confirmed one)."""
    campaign = membership.campaign
    mine = side_for(battle, membership)
    insider = bool(mine) or membership.is_admin
    hex_ = (battle.hex[0], battle.hex[1])
    context: Json = {
        "campaign": campaign,
        "membership": membership,
        "battle": battle,
        "cast": cast,
        "sides": card.sides(battle, cast.names, cast.players),
        "where": cast.names.at(battle.hex),
        "kind": card.KINDS.get(battle.kind, battle.kind),
        "state": state_words(battle, reports, cast),
        "mine": mine,
        "insider": insider,
        "reports": [r for r in reports if insider or r.status == ResultReport.Status.CONFIRMED],
        "game_size": card.game_size(battle),
        "margin": card.margin(battle),
        "steps": card.setup_steps(battle, cast.names),
        "in_place_of_benefit": card.in_place_of_benefit(battle, cast.names),
        "outcomes": _outcomes(snapshot, battle, cast.names),
        "map_svg": snapshot_map(
            snapshot, kingdoms=cast.looks, focus=[hex_, *neighbours(hex_)], names=cast.names
        ),
        "play_times": list(battle.play_times.all()),
        "now": timezone.now(),
    }
    if battle.resolved_in is not None:
        context["changes"] = card.changes(battle.resolved_in.data, battle, cast.names)
    return context


def _outcomes(snapshot: Snapshot, battle: Battle, names: Names) -> list[card.Outcome]:
    """What each result would do (`card.outcomes`: an engine trial a result), worked out
    once for the snapshot, the battle as it stands and the names it is said with: every
    viewer of the card asks the same."""
    said = f"outcomes:{battle.pk}:{battle.status}:{names.fingerprint()}"
    return derived(snapshot, said, lambda: card.outcomes(snapshot.data, battle, names))


def asked_of_player(
    battle: Battle,
    reports: list[ResultReport],
    mine: str,
    snapshot: Snapshot,
    cast: Cast,
    listed: list[str],
) -> Json:
    """What the card asks of one of the battle's two players, with the forms to answer:
    a report to make or answer (which does not ask again for the lists attached: the
    kingdoms `listed`), a Last Stand to decide, retreats to choose."""
    seen = snapshot.number
    asked = asks_of_me(battle, reports, mine)
    found: Json = {"asked": asked, "seen": seen}
    if asked:
        found["asked_anchor"] = "report-title" if asked == TO_REPORT else "reports-title"
    if battle.awaiting:
        found["propose_form"] = ProposeForm()
        # Report unless your own report is open or your opponent's waits for your answer.
        reported = ResultReport.Status.REPORTED
        if not any(r.status == reported or (r.kingdom == mine and r.is_open) for r in reports):
            kingdoms = [(k, cast.name(k)) for k in battle.kingdoms]
            found["report_form"] = ReportForm(
                initial={"seen": seen},
                kingdoms=kingdoms,
                artefacts=artefacts_on_the_card(battle),
                listed=listed,
            )
            found["report_listed"] = [cast.name(k) for k in battle.kingdoms if k in listed]
    units = {u for side in battle.sides for u in (*side["armies"], *side["ships"])}
    pending = [p for p in snapshot.data.get("pending", []) if p["kingdom"] == mine]
    found["retreat_asked"] = [
        cast.names.unit(p["unit"])
        for p in pending
        if p["kind"] == PendingKind.RETREAT and p.get("unit") in units
    ]
    if any(p["kind"] == PendingKind.LAST_STAND and p["hex"] == battle.hex for p in pending):
        found["last_stand_form"] = DECISIONS[PendingKind.LAST_STAND].form(
            initial={"seen": seen, "hex": f"{battle.hex[0]},{battle.hex[1]}"}
        )
    return found


# --- the campaign's battles --------------------------------------------------------------------

FILTERS = {
    "all": "All",
    "awaiting": "Waiting for a result",
    "disputed": "Disputed",
    "resolved": "Resolved",
    "mine": "Mine",
}


@dataclass(frozen=True)
class Row:
    battle: Battle
    where: str
    fighters: str  # "Aldermark against Brightwater"
    state: str
    asked: str  # what it waits for from the viewer
    disputed: bool
    overdue: bool
    mine: bool = False  # the viewer speaks for one of its sides


def rows_of(battles: list[Battle], cast: Cast, membership: Membership | None) -> list[Row]:
    """Each battle as the list shows it to the member (None: as anyone sees it); what it
    asks of the side they speak for (their kingdom's, or the horde's as its general)."""
    now = timezone.now()
    rows = []
    for battle in battles:
        reports = list(battle.reports.all())
        kingdom = side_for(battle, membership)
        rows.append(
            Row(
                battle=battle,
                where=cast.names.at(battle.hex),
                fighters=f"{cast.name(battle.attacker)} against {cast.name(battle.defender)}",
                state=state_words(battle, reports, cast),
                asked=asks_of_me(battle, reports, kingdom),
                mine=bool(kingdom),
                disputed=battle.awaiting
                and any(r.status == ResultReport.Status.DISPUTED for r in reports),
                overdue=battle.awaiting and battle.deadline is not None and battle.deadline < now,
            )
        )
    return rows


def shown(row: Row, show: str) -> bool:
    """The row is one the filter `show` (of FILTERS) keeps."""
    return {
        "all": True,
        "awaiting": row.battle.awaiting,
        "disputed": row.disputed,
        "resolved": not row.battle.awaiting,
        "mine": row.mine,
    }[show]


def battle_rows(campaign: Campaign, cast: Cast, membership: Membership, show: str) -> list[Row]:
    """The campaign's battles, newest first, that the filter `show` keeps."""
    battles = list(
        Battle.objects.filter(campaign=campaign).prefetch_related("reports").order_by("-number")
    )
    for battle in battles:
        battle.campaign = campaign  # read once: a battle against the horde asks its general
    return [r for r in rows_of(battles, cast, membership) if shown(r, show)]


@dataclass(frozen=True)
class Decision:
    """A choice the campaign asks of the viewer's kingdom around its battles, shown by the
    `section` of its kind (campaign.forms.DECISIONS)."""

    kind: PendingKind
    section: str
    where: str
    form: forms.Form
    facts: Json


def answered(campaign: Campaign, kingdom: str) -> dict[str, Any]:
    """What the kingdom has given and marked ready, not yet used, by kind."""
    if not kingdom:
        return {}
    ready = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, consumed_by=None, ready=True
    )
    return dict(ready.values_list("kind", "payload"))


def given(decision: Decision, answers: dict[str, Any]) -> bool:
    """The decision is answered: its kind given, and for a retreat, its own unit's."""
    kind = ANSWERS[decision.kind]
    if decision.kind == PendingKind.RETREAT:
        return decision.facts["unit"] in answers.get(kind, {})
    return kind in answers


@dataclass(frozen=True)
class Asking:
    """What every decision's section is drawn from: the newest snapshot's `data` and
    number (`seen`), the viewer's kingdom, the cast, the campaign's slug."""

    data: Json
    kingdom: str
    seen: int
    cast: Cast
    slug: str


def _last_stand(at: Asking, asked: Json, n: int) -> Decision:
    made = DECISIONS[PendingKind.LAST_STAND]
    form = made.form(
        initial={"seen": at.seen, "hex": f"{asked['hex'][0]},{asked['hex'][1]}"},
        auto_id=f"stand-{n}-%s",
    )
    return Decision(
        PendingKind.LAST_STAND, made.section, at.cast.names.at(asked["hex"]), form, asked
    )


def _battle_choice(at: Asking, asked: Json, n: int) -> Decision:
    made = DECISIONS[PendingKind.BATTLE_CHOICE]
    state = parse_campaign(at.data)
    tiles = [
        (
            at.cast.names.at(h, picking=True),
            made.form(initial={"seen": at.seen, "hex": f"{h[0]},{h[1]}"}),
            naval_possible(state, (h[0], h[1]), at.kingdom),
        )
        for h in asked["choices"]
    ]
    naval = any(at_sea for _, _, at_sea in tiles)
    on_map = _tap_to_choose(at, asked["choices"], "choose", "Fight at", "hex")
    facts = {"choices": tiles, "naval": naval, "map_svg": on_map}
    return Decision(PendingKind.BATTLE_CHOICE, made.section, "", made.form(), facts)


def _retreat(at: Asking, asked: Json, n: int) -> Decision:
    made = DECISIONS[PendingKind.RETREAT]
    unit = asked["unit"]
    choices = [
        (f"{h[0]},{h[1]}", card.tile_words(at.data, h, at.cast.names)) for h in asked["choices"]
    ]
    named = at.cast.names.unit(unit)
    on_map = _tap_to_choose(
        at, asked["choices"], "retreat", f"{named} retreats to", f"retreat-{unit}"
    )
    facts = {**asked, "unit_name": named, "choices": choices, "map_svg": on_map}
    form = made.form(initial={"seen": at.seen})
    return Decision(PendingKind.RETREAT, made.section, "", form, facts)


# The decisions the battles page shows, each by its kind's section.
SECTIONS: Mapping[PendingKind, Callable[[Asking, Json, int], Decision]] = {
    PendingKind.LAST_STAND: _last_stand,
    PendingKind.BATTLE_CHOICE: _battle_choice,
    PendingKind.RETREAT: _retreat,
}


def decisions(data: Json, kingdom: str, seen: int, cast: Cast, slug: str) -> list[Decision]:
    """The Last Stand, next battle and retreat choices the newest snapshot asks of the
    kingdom, each with its form."""
    at = Asking(data, kingdom, seen, cast, slug)
    asked = [p for p in data.get("pending", []) if p["kingdom"] == kingdom]
    return [
        SECTIONS[PendingKind(p["kind"])](at, p, n)
        for n, p in enumerate(asked)
        if PendingKind(p["kind"]) in SECTIONS
    ]


def _tap_to_choose(at: Asking, choices: list[list[int]], action: str, verb: str, field: str) -> str:
    """The map around the tiles offered, each lit to tap: tapping posts the same choice as
    the form's button for it (the list stays as the accessible way)."""
    url = reverse("battles:decide", args=[at.slug, action])
    picks = [
        Pick(
            hex=(h[0], h[1]),
            label=f"{verb} {card.tile_words(at.data, h, at.cast.names)}",
            href="#decisions-title",
            attrs={
                "hx-post": url,
                "hx-vals": json.dumps({"seen": at.seen, field: f"{h[0]},{h[1]}"}),
                "hx-target": "body",
                "hx-swap": "innerHTML",
            },
        )
        for h in choices
    ]
    around = [n for p in picks for n in (p.hex, *neighbours(p.hex))]
    return render_map(
        at.data, kingdoms=at.cast.looks, picks=picks, focus=around, names=at.cast.names
    )


# --- my battles, on the home page -------------------------------------------------------------


@dataclass(frozen=True)
class MyBattle:
    battle: Battle
    where: str
    against: str  # the opponent's kingdom name
    asked: str  # what it waits for from me, "" if nothing
    state: str


def my_battles_of(user: User) -> list[MyBattle]:
    """The battles waiting for their result in which the user fights, across campaigns,
    with what each waits for from them."""
    playing = {m.campaign_id: m for m in Membership.objects.filter(user=user).exclude(kingdom="")}
    where = Q(pk__in=[])
    for m in playing.values():
        where |= Q(campaign=m.campaign_id) & (Q(attacker=m.kingdom) | Q(defender=m.kingdom))
    battles = (
        Battle.objects.filter(where, status=Battle.Status.AWAITING)
        .select_related("campaign")
        .defer("campaign__map")
        .prefetch_related("reports")
        .order_by("deadline", "pk")
    )
    kingdom_names = {
        (m.campaign_id, m.kingdom): m.kingdom_name
        for m in Membership.objects.filter(campaign__in=list(playing)).exclude(kingdom="")
    }
    items = []
    for battle in battles:
        me = playing[battle.campaign_id].kingdom
        against = battle.opponent_of(me)
        reports = list(battle.reports.all())
        names = {k: v for (c, k), v in kingdom_names.items() if c == battle.campaign_id}
        named = Names(names, battle.campaign.gazetteer)
        items.append(
            MyBattle(
                battle=battle,
                where=named.at(battle.hex),
                against=names.get(against, against),
                asked=asks_of_me(battle, reports, me),
                state=state_words(battle, reports, Cast(named, {}, {})),
            )
        )
    return items


# --- the admin's desk -------------------------------------------------------------------------


def desks_of(
    campaign: Campaign, cast: Cast, settled: list[list[int]], seen: int | None
) -> list[Json]:
    """Every battle's state for the admin, those that need a decision first (disputed,
    overdue), with the reports side by side and the admin's forms, each carrying the
    snapshot the desk shows (`seen`: none before the start, when the desk has no battle).
    `settled`: the tiles whose battles have their result in, the month not advanced."""
    battles = list(
        Battle.objects.filter(campaign=campaign).prefetch_related("reports").order_by("-number")
    )
    rows = rows_of(battles, cast, None)
    rows.sort(key=lambda r: (not r.disputed and not r.overdue, not r.battle.awaiting))
    drawn_at = {"seen": seen}
    return [
        {
            "row": row,
            "result_in": row.battle.awaiting and row.battle.hex in settled,
            "reports": [
                r
                for r in row.battle.reports.all()
                if r.is_open or r.status == ResultReport.Status.CONFIRMED
            ],
            "decide": DecideForm(
                initial=drawn_at,
                kingdoms=[(k, cast.name(k)) for k in row.battle.kingdoms],
                artefacts=artefacts_on_the_card(row.battle),
                auto_id=f"decide-{row.battle.number}-%s",
            ),
            "simple": SimpleForm(initial=drawn_at, auto_id=f"simple-{row.battle.number}-%s"),
            "extend": ExtendForm(initial=drawn_at, auto_id=f"extend-{row.battle.number}-%s"),
        }
        for row in rows
    ]
