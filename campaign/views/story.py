"""The campaign's story, for its members: every kingdom's might month by month as a chart
and a table, and the territory each held; and the chronicle, the campaign month by month
in words."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path, reverse
from django.views.decorators.http import require_GET

from campaign.display import report, story
from campaign.models import Membership
from campaign.views.common import membership_for

type Json = Mapping[str, Any]


def banners_of(players: Iterable[Membership]) -> dict[str, story.Banner]:
    """How each kingdom is shown, from its player's membership."""
    return {
        p.kingdom: story.Banner(p.kingdom_name, p.colour, p.heraldry, p.user.get_username())
        for p in players
        if p.kingdom
    }


@login_required
@require_GET
def might_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Might over time: a line chart of every kingdom's might at the end of each month, the
    same numbers as a table, and the tiles each held. One query reads the whole history."""
    membership = membership_for(request, slug)
    campaign = membership.campaign
    history = list(
        campaign.snapshots.order_by("number").values_list(
            "number", "data__clock", "data__scores", "data__tiles"
        )
    )
    if not history:
        raise Http404("The campaign has not started yet.")
    players = campaign.memberships.exclude(kingdom="").select_related("user")
    told = story.story_of(history, banners=banners_of(players))
    return render(
        request,
        "campaign/might.html",
        {
            "campaign": campaign,
            "membership": membership,
            "story": told,
            "chart": story.might_chart(told),
        },
    )


# --- The chronicle ----------------------------------------------------------------------------

# What the chronicle tells: what changed the map and the kingdoms. Moves, gathering, roll-offs
# and the like are left to each snapshot's report.
CHRONICLED = frozenset(
    {
        "races-revealed",
        "capital-founded",
        "explored",
        "battle",
        "tile-taken",
        "capital-lost",
        "razed",
        "destroyed",
        "supply-lost",
        "starved",
        "built",
        "recruited",
        "ship-built",
        "capital-named",
        "eliminated",
        "campaign-ended",
    }
)
# The keys of an event that hold a kingdom's id, and those that hold a unit's (or units').
_KINGDOM_KEYS = ("kingdom", "attacker", "defender", "winner", "from", "to")
_KINGDOMS_KEYS = ("kingdoms", "order", "races", "sides")
_UNIT_KEYS = ("unit", "army", "ship", "units", "enemies")


@dataclass(frozen=True)
class ChronicleLine:
    """One event of the chronicle in words (`kind` is its event type), with the card of
    the battle it tells of, if it is a battle."""

    kind: str
    text: str
    battle_url: str | None = None


@dataclass(frozen=True)
class ChronicleMonth:
    """One part of the chronicle (the setup, a summer month, a winter, the end): its lines
    in the order they happened, the map as the month stood and the report that tells it
    in full (None where there is none)."""

    title: str
    lines: tuple[ChronicleLine, ...]
    map_url: str | None
    report_url: str | None


def names_kingdom(event: Json, kingdom: str) -> bool:
    """Whether an event names the kingdom: the kingdom itself, a unit of it, or a battle
    it fought."""
    if any(event.get(key) == kingdom for key in _KINGDOM_KEYS):
        return True
    if any(kingdom in _ids(event.get(key)) for key in _KINGDOMS_KEYS):
        return True
    units = [unit for key in _UNIT_KEYS for unit in _ids(event.get(key))]
    return any(unit.rsplit("-", 1)[0] == kingdom for unit in units)


def _ids(value: object) -> list[str]:
    """The ids a value of an event holds: one, a list of them, or a mapping's keys."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | Mapping):
        return [item for item in value if isinstance(item, str)]
    return []


def chapter_told(event: Json) -> report.Chapter:
    """The part of the chronicle an event belongs to: its chapter, but the end of the
    campaign has a part of its own."""
    chapter = report.chapter_of(event)
    if event.get("type") == "campaign-ended":
        return report.Chapter(chapter.year, "ended", 0)
    return chapter


def chapter_words(chapter: report.Chapter) -> str:
    if chapter.season == "ended":
        return "the end of the campaign"
    return report.chapter_title(chapter)


def snapshots_of_months(history: Iterable[tuple[int, Json]]) -> dict[story.MonthKey, int]:
    """The snapshot that shows each month's end (the first of the month after it; for the
    month the campaign stands in, the newest), from the snapshots' (number, clock). A
    month's events are stored by the step that leaves it, so its report is that snapshot's
    too. The months an undo took back are left out."""
    runs = story.month_runs((number, clock, None, None) for number, clock in history)
    ends = [after.first for after in runs[1:]] + [run.newest for run in runs[-1:]]
    return {run.key: end[0] for run, end in zip(runs, ends, strict=True)}


def chronicle_of(
    events: Sequence[Json],
    battles: Sequence[object],
    *,
    names: Mapping[str, str],
    months: Mapping[story.MonthKey, int],
    slug: str,
    kingdom: str = "",
) -> list[ChronicleMonth]:
    """The chronicle, newest part first: each part's chronicled events in words (only those
    naming `kingdom`, if given), from the newest file's `events` and `battles`, with its
    map and report at the snapshot numbers `months` gives."""
    told: dict[report.Chapter, list[ChronicleLine]] = {}
    for its_events in _by_chapter(events).values():
        for event, line in report.chapter_lines(its_events, battles, names):
            part = told.setdefault(chapter_told(event), [])
            if event.get("type") in CHRONICLED and (not kingdom or names_kingdom(event, kingdom)):
                part.append(_chronicle_line(event, line, slug))
    campaign_url = reverse("campaign:campaign", args=[slug])
    parts = []
    for chapter in sorted(told, key=_calendar, reverse=True):
        number = months.get(_calendar(chapter))
        parts.append(
            ChronicleMonth(
                title=chapter_words(chapter),
                lines=tuple(told[chapter]),
                map_url=None if number is None else f"{campaign_url}?at={number}",
                report_url=None
                if number is None
                else reverse("campaign:report", args=[slug, number]),
            )
        )
    return parts


def _by_chapter(events: Sequence[Json]) -> dict[report.Chapter, list[Json]]:
    chapters: dict[report.Chapter, list[Json]] = {}
    for event in events:
        if isinstance(event, Mapping):
            chapters.setdefault(report.chapter_of(event), []).append(event)
    return chapters


def _calendar(chapter: report.Chapter) -> story.MonthKey:
    return story.month_key({"year": chapter.year, "season": chapter.season, "month": chapter.month})


def _chronicle_line(event: Json, line: report.Line, slug: str) -> ChronicleLine:
    card = None if line.battle is None else reverse("battles:card", args=[slug, line.battle + 1])
    return ChronicleLine(str(event.get("type")), line.text, card)


@login_required
@require_GET
def chronicle_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The chronicle: the campaign month by month in words, newest month first (what a
    player returning to the campaign wants first), from the newest snapshot's events alone;
    `?kingdom=<id>` keeps the events that name that kingdom. Four queries of its own,
    however long the campaign and however large its map."""
    membership = membership_for(request, slug)
    campaign = membership.campaign
    newest = (
        campaign.snapshots.order_by("-number").values_list("data__events", "data__battles").first()
    )
    if newest is None:
        raise Http404("The campaign has not started yet.")
    events, battles = newest
    kingdoms = dict(
        campaign.memberships.exclude(kingdom="")
        .order_by("kingdom_name")
        .values_list("kingdom", "kingdom_name")
    )
    names = {kingdom: name or kingdom for kingdom, name in kingdoms.items()}
    chosen = request.GET.get("kingdom", "")
    chosen = chosen if chosen in names else ""
    history = campaign.snapshots.values_list("number", "data__clock")
    return render(
        request,
        "campaign/chronicle.html",
        {
            "campaign": campaign,
            "membership": membership,
            "kingdoms": names,
            "chosen": chosen,
            "chosen_name": names.get(chosen, ""),
            "chronicle": chronicle_of(
                events or [],
                battles or [],
                names=names,
                months=snapshots_of_months(history),
                slug=slug,
                kingdom=chosen,
            ),
        },
    )


@login_required
@require_GET
def end_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The end of a campaign: the podium and the final standings with the tiebreakers that
    decided them (ruling P2), each kingdom's best moments, and the whole chronicle, oldest
    first. Three queries of its own, however long the campaign."""
    membership = membership_for(request, slug)
    campaign = membership.campaign
    newest = (
        campaign.snapshots.order_by("-number")
        .values_list(
            "data__clock",
            "data__scores",
            "data__kingdoms",
            "data__events",
            "data__battles",
        )
        .first()
    )
    if newest is None or newest[0]["season"] != "ended":
        raise Http404("The campaign has not ended.")
    _, scores, kingdoms, events, battles = newest
    players = list(campaign.memberships.exclude(kingdom="").select_related("user"))
    banners = banners_of(players)
    names = {k: banner.name for k, banner in banners.items()}
    history = list(
        campaign.snapshots.order_by("number").values_list(
            "number", "data__clock", "data__scores", "data__tiles"
        )
    )
    told = story.story_of(history, banners=banners)
    months = snapshots_of_months((n, clock) for n, clock, _, _ in history)
    chronicle = chronicle_of(events, battles, names=names, months=months, slug=slug)
    standings = story.leaderboard({"scores": scores, "kingdoms": kingdoms}, banners=banners)
    return render(
        request,
        "campaign/end.html",
        {
            "campaign": campaign,
            "membership": membership,
            "standings": standings,
            "podium": [s for s in standings.standings if s.rank <= 3],
            "tiebreaks": story.tiebreaks(scores, kingdoms, names),
            "moments": story.best_moments(told, kingdoms),
            "chronicle": chronicle[::-1],  # oldest first: the story from its beginning
        },
    )


urlpatterns: list[URLPattern] = [
    path("c/<slug:slug>/story/might/", might_page, name="might"),
    path("c/<slug:slug>/story/chronicle/", chronicle_page, name="chronicle"),
    path("c/<slug:slug>/story/end/", end_page, name="end"),
]
