"""The campaign's story in numbers: the leaderboard of the campaign page, and every
kingdom's might and territory month by month, as tables and as a line chart.

Pure: no Django, no I/O, no JavaScript in the output. The views pass in parts of campaign
files (clocks, `scores`, `tiles`, `kingdoms`) and how each kingdom is shown (from the
memberships). Nothing here reads or returns a kingdom's treasury (app ruling A20). Each
month is taken as it ended (app ruling A21). The chart is one SVG built by ElementTree,
which escapes every text that comes from users (kingdom names).
"""

import math
import re
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from campaign.display import optional
from campaign.display.svg import FONTS, SVG_NS, coordinate, element, text_element
from campaign.rules.scoring import ARMY_MIGHT
from campaign.rules.state import Season

type Json = Mapping[str, Any]
type MonthKey = tuple[int, int, int]
# A snapshot as the story reads it: (number, clock, scores, tiles) of its campaign file.
type Page = tuple[int, Json, Any, Any]

# Within a year the campaign goes setup, summer (months 1-6), winter; `ended` comes last.
SEASONS: tuple[Season, ...] = tuple(Season)

_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")
MINUS = "\N{MINUS SIGN}"
NO_MONTH = "\N{EN DASH}"  # the change of might when there is no earlier month
_NEUTRAL = "#777777"
_INK = "#1d1f24"
_MUTED = "#555b66"
_GRID = "#d9d6cf"
# A dash pattern per line, so that colour is never the only sign of whose line it is.
_DASHES = ("", "7 3", "2 3", "9 3 2 3", "4 4", "1 2", "12 3", "5 2 1 2")


@dataclass(frozen=True, slots=True)
class Banner:
    """How a kingdom is shown: its name, its colour ("#rrggbb"), its heraldic letter, and
    the player who rules it ("" if nobody does)."""

    name: str
    colour: str
    heraldry: str
    player: str = ""

    @property
    def shown_colour(self) -> str:
        """The colour to draw with: grey when it is not "#rrggbb"."""
        return self.colour.lower() if _COLOUR.fullmatch(self.colour) else _NEUTRAL


# --- The calendar --------------------------------------------------------------------------


def month_key(clock: Json) -> MonthKey:
    """Where a clock stands in the campaign's calendar, for ordering: (year, season, month)."""
    season = str(clock.get("season"))
    order = SEASONS.index(season) if season in SEASONS else len(SEASONS)
    return int(clock.get("year") or 0), order, int(clock.get("month") or 0)


def month_label(clock: Json) -> str:
    """A month as the chart and the tables name it: "Y1 M3", "Y1 Winter", "Final"."""
    season, year = clock.get("season"), clock.get("year")
    if season == Season.SUMMER:
        return f"Y{year} M{clock.get('month')}"
    if season == Season.WINTER:
        return f"Y{year} Winter"
    if season == Season.ENDED:
        return "Final"
    return "Setup"


# --- The leaderboard -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """A kingdom's line on the leaderboard: its place (ruling P2: shared by tied kingdoms),
    its might and what makes it (ruling P1), and how its might changed since the previous
    month: "+3", "0", or minus 2 with a true minus sign; "new" if it had no might then; an
    en dash if there was no earlier month."""

    rank: int
    kingdom: str
    banner: Banner
    might: int
    armies: int
    cities: int
    fortresses: int
    villages: int
    pitched_wins: int
    change: str
    eliminated: int | None = None
    notes: tuple[str, ...] = ()  # what the options on add to its line (milestones held)
    sources: tuple[tuple[str, int], ...] = ()  # its might by source (`might_by_source`)


@dataclass(frozen=True, slots=True)
class Leaderboard:
    """Every kingdom's standing, highest might first, the month the change is since ("" when
    there is no earlier month), and what the options on add to might, in words (OG4)."""

    standings: tuple[Standing, ...]
    since: str
    might_terms: tuple[str, ...] = ()


def change_of_might(now: int, then: int | None, *, earlier_month: bool) -> str:
    """How might moved since the previous month, in words for the leaderboard."""
    if not earlier_month:
        return NO_MONTH
    if then is None:
        return "new"
    difference = now - then
    if difference > 0:
        return f"+{difference}"
    if difference < 0:
        return f"{MINUS}{-difference}"
    return "0"


def leaderboard(
    data: Json, *, banners: Mapping[str, Banner], previous: Json | None = None
) -> Leaderboard:
    """The standings of the campaign file `data`, in the engine's order and with its ranks
    (`scores`, ruling P2), each with its pitched battles won; and the change of might since
    `previous`: the `clock` of the month it ended and the `scores` at its end (see
    `last_month_end`; None when no month has ended)."""
    kingdoms = {str(k.get("id")): k for k in data.get("kingdoms") or []}
    options = data.get("options") or {}
    before = {str(s.get("kingdom")): int(s.get("might") or 0) for s in _scores(previous)}
    standings = []
    for score in _scores(data):
        kingdom_id = str(score.get("kingdom"))
        kingdom = kingdoms.get(kingdom_id, {})
        might = int(score.get("might") or 0)
        standings.append(
            Standing(
                rank=int(score.get("rank") or 0),
                kingdom=kingdom_id,
                banner=banner_of(kingdom_id, banners, kingdom.get("name")),
                might=might,
                armies=int(score.get("armies") or 0),
                cities=int(score.get("cities") or 0),
                fortresses=int(score.get("fortresses") or 0),
                villages=int(score.get("villages") or 0),
                pitched_wins=int(kingdom.get("pitched_wins") or 0),
                change=change_of_might(
                    might, before.get(kingdom_id), earlier_month=previous is not None
                ),
                eliminated=kingdom.get("eliminated"),
                notes=optional.standing_notes(options, kingdom),
                sources=might_by_source(score, kingdom, options),
            )
        )
    since = month_label(previous.get("clock") or {}) if previous is not None else ""
    return Leaderboard(tuple(standings), since, optional.might_words(options))


def might_by_source(
    score: Json, kingdom: Json, options: Mapping[str, object]
) -> tuple[tuple[str, int], ...]:
    """A kingdom's might by where it comes from (P1, OG4): its settlements (the capital
    3), its armies (5 each), its pitched battles won at the tabletop, then what each option
    on brings (milestones); each source with some might."""
    armies = ARMY_MIGHT * int(score.get("armies") or 0)
    wins = int(kingdom.get("pitched_wins") or 0)
    brought = optional.might_sources(options, kingdom)
    settlements = int(score.get("might") or 0) - armies - wins - sum(n for _, n in brought)
    found = (("settlements", settlements), ("armies", armies), ("tabletop wins", wins), *brought)
    return tuple((source, n) for source, n in found if n)


def banner_of(kingdom: str, banners: Mapping[str, Banner], name: object = None) -> Banner:
    """The kingdom's banner; for a kingdom no membership names, its name from the file in
    grey with its first letter."""
    if kingdom in banners:
        return banners[kingdom]
    shown = str(name or kingdom)
    return Banner(shown, _NEUTRAL, shown[:1].upper())


def _scores(data: Json | None) -> list[Json]:
    scores = (data or {}).get("scores")
    return [s for s in scores if isinstance(s, Mapping)] if isinstance(scores, list) else []


# --- Might and territory month by month ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Month:
    """A month as it ended: each kingdom's might and the number of tiles it held, in the order of `Story.kingdoms` (None for a kingdom not yet in the file)."""

    label: str
    might: tuple[int | None, ...]
    tiles: tuple[int | None, ...]


@dataclass(frozen=True, slots=True)
class Story:
    """Every kingdom's might and territory at the end of each month, kingdoms in the order
    of the newest standings."""

    kingdoms: tuple[str, ...]
    banners: tuple[Banner, ...]
    months: tuple[Month, ...]

    @property
    def columns(self) -> list[tuple[str, Banner]]:
        return list(zip(self.kingdoms, self.banners, strict=True))


@dataclass(frozen=True, slots=True)
class Run:
    """A month of the campaign (the setup, a summer month, a winter, the end) as the
    snapshots hold it: the first that stands in it and the newest."""

    key: MonthKey
    first: Page
    newest: Page


def month_runs(history: Iterable[Page]) -> list[Run]:
    """The months the snapshots stand in, in the order of the campaign's calendar. An undo
    stores an earlier month's state again as a newer snapshot: the months after it that it
    undid are left out."""
    runs: list[Run] = []
    for page in sorted(history, key=lambda page: page[0]):
        key = month_key(page[1])
        while runs and runs[-1].key > key:
            runs.pop()
        if runs and runs[-1].key == key:
            runs[-1] = Run(key, runs[-1].first, page)
        else:
            runs.append(Run(key, page, page))
    return runs


def month_ends(history: Iterable[Page]) -> list[tuple[Json, Page]]:
    """Each month that is over, with the snapshot that shows how it ended (app ruling
    A21): the first of the month after it. The month the campaign stands in is not over yet, and the end of
    the campaign is no month of its own (it shows how the last winter ended)."""
    runs = month_runs(history)
    return [(run.first[1], after.first) for run, after in pairwise(runs)]


def last_month_end(history: Iterable[Page]) -> tuple[Json, int] | None:
    """The newest month that ended before the newest snapshot, as its clock and the number
    of the snapshot that shows its end: what the leaderboard's change of might is since.
    None before any month has ended."""
    pages = list(history)
    newest = max((page[0] for page in pages), default=None)
    ended = [(clock, end[0]) for clock, end in month_ends(pages) if end[0] != newest]
    return ended[-1] if ended else None


def story_of(history: Iterable[Page], *, banners: Mapping[str, Banner]) -> Story:
    """Every kingdom's might and territory at the end of each month over, from the
    snapshots' (number, clock, scores, tiles)."""
    months = month_ends(history)
    order: dict[str, None] = {}
    for _, (_, _, scores, _) in reversed(months):
        for score in _scores({"scores": scores}):
            order.setdefault(str(score.get("kingdom")))
    kingdoms = tuple(order)
    return Story(
        kingdoms=kingdoms,
        banners=tuple(banner_of(k, banners) for k in kingdoms),
        months=tuple(
            _month(clock, scores, tiles, kingdoms) for clock, (_, _, scores, tiles) in months
        ),
    )


def _month(clock: Json, scores: Any, tiles: Any, kingdoms: Sequence[str]) -> Month:
    might = {str(s.get("kingdom")): int(s.get("might") or 0) for s in _scores({"scores": scores})}
    held = Counter(
        str(t.get("owner")) for t in tiles or [] if isinstance(t, Mapping) and t.get("owner")
    )
    return Month(
        label=month_label(clock),
        might=tuple(might.get(k) for k in kingdoms),
        tiles=tuple(held.get(k, 0) if k in might else None for k in kingdoms),
    )


# --- The chart -----------------------------------------------------------------------------

_WIDTH = 360.0
_FONT_SIZE = 12.0
_CHAR_WIDTH = 0.6 * _FONT_SIZE  # a generous average, for room between labels
_LEFT, _RIGHT, _TOP = 36.0, 32.0, 24.0  # room for "Y6 Winter" centred on the last month
_PLOT_HEIGHT = 180.0
_LEGEND_ROW = 20.0
_NUDGE = 1.5  # lines of kingdoms with equal might are drawn this far apart, so none hides


def nice_top(highest: int) -> tuple[int, int]:
    """The top of the might axis and its step: a round step (1, 2 or 5 times a power of
    ten) giving at most five grid lines above zero, and a top at or above `highest`."""
    highest, power = max(highest, 1), 1
    while True:
        for factor in (1, 2, 5):
            step = factor * power
            if math.ceil(highest / step) <= 5:
                return step * math.ceil(highest / step), step
        power *= 10


def labelled_months(count: int, room: int) -> set[int]:
    """Which months get a label under the x axis: the newest always, then every k-th month
    back from it, as many as there is `room` for."""
    if count <= 0:
        return set()
    every = max(1, math.ceil(count / max(room, 1)))
    return set(range(count - 1, -1, -every))


def might_chart(story: Story, *, title: str = "Might over time") -> str:
    """The story's might as one inline SVG line chart (no script, no external file): x the
    months in order, y might, one line per kingdom in its colour and its own dash pattern,
    a legend under it, a `<title>` and a `<desc>` for screen readers, and a title on every
    point. "" when no month has been played yet."""
    if not story.months:
        return ""
    legend_top = _TOP + _PLOT_HEIGHT + 38
    height = legend_top + _LEGEND_ROW * len(story.kingdoms) + 4
    root = ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "might-chart",
            "viewBox": f"0 0 {coordinate(_WIDTH)} {coordinate(height)}",
            "role": "img",
            "aria-labelledby": "might-chart-title might-chart-desc",
            "font-family": FONTS,
            "font-size": coordinate(_FONT_SIZE),
        },
    )
    element(root, "title", {"id": "might-chart-title"}).text = title
    element(root, "desc", {"id": "might-chart-desc"}).text = _description(story)
    top, step = nice_top(max((m for month in story.months for m in month.might if m), default=0))
    _draw_axes(root, story, top, step)
    lines = element(root, "g", {"class": "lines"})
    for index in range(len(story.kingdoms)):
        _draw_line(lines, story, index, top)
    _draw_legend(root, story, legend_top)
    return ET.tostring(root, encoding="unicode")


def _description(story: Story) -> str:
    first, last = story.months[0], story.months[-1]
    span = first.label if first is last else f"from {first.label} to {last.label}"
    now = ", ".join(
        f"{banner.name} {might}"
        for banner, might in zip(story.banners, last.might, strict=True)
        if might is not None
    )
    return (
        f"Might of each kingdom month by month, {span}: one line per kingdom. "
        f"{last.label}: {now}. The table below the chart gives every number."
    )


def _x(index: int, count: int) -> float:
    left, right = _LEFT, _WIDTH - _RIGHT
    return (left + right) / 2 if count == 1 else left + (right - left) * index / (count - 1)


def _y(might: float, top: int) -> float:
    return _TOP + _PLOT_HEIGHT * (1 - might / top)


def _draw_axes(root: ET.Element, story: Story, top: int, step: int) -> None:
    axes = element(root, "g", {"class": "axes", "aria-hidden": "true"})
    text_element(axes, "Might", {"x": "2", "y": coordinate(_TOP - 11), "fill": _MUTED})
    for value in range(0, top + 1, step):
        y = coordinate(_y(value, top))
        element(
            axes,
            "line",
            {"x1": coordinate(_LEFT), "x2": coordinate(_WIDTH - _RIGHT), "y1": y, "y2": y},
        )
        axes[-1].set("stroke", _INK if value == 0 else _GRID)
        label = {
            "x": coordinate(_LEFT - 5),
            "y": coordinate(_y(value, top) + 4),
            "text-anchor": "end",
        }
        text_element(axes, str(value), {**label, "fill": _MUTED})
    count = len(story.months)
    label_width = max(len(m.label) for m in story.months) * _CHAR_WIDTH + 8
    room = int((_WIDTH - _LEFT - _RIGHT) // label_width) + 1
    shown = labelled_months(count, room)
    baseline = _y(0, top)
    for index, month in enumerate(story.months):
        x = coordinate(_x(index, count))
        element(
            axes,
            "line",
            {"x1": x, "x2": x, "y1": coordinate(baseline), "y2": coordinate(baseline + 4)},
        )
        axes[-1].set("stroke", _INK)
        if index in shown:
            attrs = {"x": x, "y": coordinate(baseline + 18), "text-anchor": "middle", "fill": _INK}
            text_element(axes, month.label, attrs)


def _draw_line(parent: ET.Element, story: Story, index: int, top: int) -> None:
    banner = story.banners[index]
    count = len(story.months)
    nudge = (index - (len(story.kingdoms) - 1) / 2) * _NUDGE
    points = [
        (_x(i, count), _y(might, top) + nudge, month.label, might)
        for i, month in enumerate(story.months)
        if (might := month.might[index]) is not None
    ]
    group = element(parent, "g", {"class": "line", "data-kingdom": story.kingdoms[index]})
    element(group, "title").text = banner.name
    colour = banner.shown_colour
    stroke = {"fill": "none", "stroke": colour, "stroke-width": "2", "stroke-linejoin": "round"}
    dash = _DASHES[index % len(_DASHES)]
    if dash:
        stroke["stroke-dasharray"] = dash
    path = " ".join(f"{coordinate(x)},{coordinate(y)}" for x, y, _, _ in points)
    element(group, "polyline", {"points": path, **stroke})
    for x, y, label, might in points:
        dot = element(
            group, "circle", {"cx": coordinate(x), "cy": coordinate(y), "r": "2.5", "fill": colour}
        )
        element(dot, "title").text = f"{banner.name}, {label}: might {might}"


def _draw_legend(root: ET.Element, story: Story, top: float) -> None:
    legend = element(root, "g", {"class": "legend", "aria-hidden": "true"})
    for index, banner in enumerate(story.banners):
        y = top + _LEGEND_ROW * index
        stroke = {"stroke": banner.shown_colour, "stroke-width": "2.5"}
        dash = _DASHES[index % len(_DASHES)]
        if dash:
            stroke["stroke-dasharray"] = dash
        element(
            legend,
            "line",
            {
                "x1": coordinate(_LEFT),
                "x2": coordinate(_LEFT + 28),
                "y1": coordinate(y),
                "y2": coordinate(y),
            },
        )
        legend[-1].attrib.update(stroke)
        name = banner.name if len(banner.name) <= 40 else banner.name[:39] + "…"
        letter = f"{banner.heraldry} · " if banner.heraldry else ""
        text_element(
            legend,
            f"{letter}{name}",
            {"x": coordinate(_LEFT + 36), "y": coordinate(y + 4), "fill": _INK},
        )


# --- The end -------------------------------------------------------------------------------

# Ruling P2's tiebreakers after might, in order: (the score's field, the words for it).
TIEBREAKERS = (
    ("armies", "armies"),
    ("cities", "cities (the capital included)"),
    ("fortresses", "fortresses"),
    ("villages", "villages"),
)


def tiebreaks(
    scores: Sequence[Json], kingdoms: Sequence[Json], names: Mapping[str, str]
) -> list[str]:
    """For each pair of kingdoms next in the final standings with equal might, what put one
    ahead of the other (ruling P2), or that they share the place."""
    eliminated = {str(k.get("id")): k.get("eliminated") for k in kingdoms}
    lines = []
    for above, below in pairwise(scores):
        if above.get("might") != below.get("might"):
            continue
        a, b = str(above.get("kingdom")), str(below.get("kingdom"))
        first, second = names.get(a, a), names.get(b, b)
        decided = next(
            (
                f"{first} is ahead of {second} on {words}: {above.get(field)} to {below.get(field)}."
                for field, words in TIEBREAKERS
                if above.get(field) != below.get(field)
            ),
            None,
        )
        if decided is None and eliminated.get(a) != eliminated.get(b):
            decided = f"{first} is ahead of {second}: it was eliminated later, or never."
        lines.append(
            decided
            or f"{first} and {second} are level on might and every tiebreaker: they share the place."
        )
    return lines


@dataclass(frozen=True, slots=True)
class Moments:
    """A kingdom's best moments over the campaign."""

    kingdom: str
    banner: Banner
    most_tiles: int
    most_tiles_when: str
    most_might: int
    most_might_when: str
    pitched_wins: int


def best_moments(told: Story, kingdoms: Sequence[Json]) -> list[Moments]:
    """Each kingdom's widest realm and greatest might, with the month of each, and its
    pitched battles won."""
    wins = {str(k.get("id")): int(k.get("pitched_wins") or 0) for k in kingdoms}
    found = []
    for index, (kingdom, banner) in enumerate(told.columns):
        tiles = [(m.tiles[index] or 0, m.label) for m in told.months]
        might = [(m.might[index] or 0, m.label) for m in told.months]
        widest = max(tiles, key=lambda pair: pair[0], default=(0, ""))
        greatest = max(might, key=lambda pair: pair[0], default=(0, ""))
        found.append(Moments(kingdom, banner, *widest, *greatest, wins.get(kingdom, 0)))
    return found
