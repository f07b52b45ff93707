"""The chronicle: the campaign month by month in words, from the newest campaign file's
`events` and `battles`, each month with the snapshot that shows its end (for its map and
its report) and each battle with its card's number; optionally only what names one kingdom.

Pure: no Django, no I/O. The views pass in the events, the battles, the campaign's names
(its kingdoms', places' and units') and the snapshots' (number, clock); the templates turn
the numbers into links.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.display import report, story
from campaign.display.describing import Line
from campaign.display.events import chapter_lines
from campaign.gazetteer import Names
from campaign.rules.state import BattleStatus, Season
from campaign.rules.vocabulary import EventType

type Json = Mapping[str, Any]

# What the chronicle tells: what changed the map and the kingdoms. Moves, gathering, roll-offs
# and the like are left to each snapshot's report.
CHRONICLED = frozenset(
    {
        EventType.RACES_REVEALED,
        EventType.CAPITAL_FOUNDED,
        EventType.EXPLORED,
        EventType.TOWER_RAISED,
        EventType.QUEST,
        EventType.BATTLE,
        EventType.ARTEFACT_TAKEN,
        EventType.TILE_TAKEN,
        EventType.CAPITAL_LOST,
        EventType.RAZED,
        EventType.DESTROYED,
        EventType.SUPPLY_LOST,
        EventType.STARVED,
        EventType.BUILT,
        EventType.ROAD_BUILT,
        EventType.RECRUITED,
        EventType.SHIP_BUILT,
        EventType.CAPITAL_NAMED,
        EventType.ELIMINATED,
        EventType.MARAUDERS_ARRIVED,
        EventType.MARAUDERS_MOVED_OFF,
        EventType.PLUNDERED,
        EventType.YEARLY_EVENT,
        EventType.REVOLTED,
        EventType.GLORY_GAINED,
        EventType.GLORY_LOST,
        EventType.HONOUR_CLAIMED,
        EventType.RULER_DIED,
        EventType.CIVIL_WAR_RAZED,
        EventType.MILESTONE_GAINED,
        EventType.MILESTONE_LOST,
        EventType.CAMPAIGN_ENDED,
    }
)
# The keys of an event that hold a kingdom's id, and those that hold a unit's (or units').
_KINGDOM_KEYS = ("kingdom", "attacker", "defender", "winner", "from", "to")
_KINGDOMS_KEYS = ("kingdoms", "order", "races", "sides")
_UNIT_KEYS = ("unit", "army", "ship", "units", "enemies")


@dataclass(frozen=True)
class ChronicleLine:
    """One event of the chronicle in words (`kind` is its event type), with the number of
    the battle it tells of (its card's, counting from 1), if it is a battle, and whether it
    tells how that battle ended (where the battle's reports are linked), not its hand-off."""

    kind: str
    text: str
    battle: int | None = None
    settles: bool = False


@dataclass(frozen=True)
class ChronicleMonth:
    """One part of the chronicle (the setup, a summer month, a winter, the end): its lines
    in the order they happened, and the number of the snapshot that shows its end, whose
    map shows the month as it stood and whose report tells it in full (None where there
    is none)."""

    title: str
    lines: tuple[ChronicleLine, ...]
    snapshot: int | None


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
    if event.get("type") == EventType.CAMPAIGN_ENDED:
        return report.Chapter(chapter.year, Season.ENDED, 0)
    return chapter


def chapter_words(chapter: report.Chapter) -> str:
    if chapter.season == Season.ENDED:
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
    names: Names,
    months: Mapping[story.MonthKey, int],
    kingdom: str = "",
) -> list[ChronicleMonth]:
    """The chronicle, newest part first: each part's chronicled events in words (only those
    naming `kingdom`, if given), from the newest file's `events` and `battles`, with the
    snapshot number `months` gives for its end."""
    told: dict[report.Chapter, list[ChronicleLine]] = {}
    for its_events in _by_chapter(events).values():
        for event in its_events:  # a month with nothing chronicled is still a part
            told.setdefault(chapter_told(event), [])
        for event, line in chapter_lines(its_events, battles, names, types=CHRONICLED):
            if not kingdom or names_kingdom(event, kingdom):
                told[chapter_told(event)].append(_chronicle_line(event, line))
    return [
        ChronicleMonth(
            title=chapter_words(chapter),
            lines=tuple(told[chapter]),
            snapshot=months.get(_calendar(chapter)),
        )
        for chapter in sorted(told, key=_calendar, reverse=True)
    ]


def _by_chapter(events: Sequence[Json]) -> dict[report.Chapter, list[Json]]:
    chapters: dict[report.Chapter, list[Json]] = {}
    for event in events:
        if isinstance(event, Mapping):
            chapters.setdefault(report.chapter_of(event), []).append(event)
    return chapters


def _calendar(chapter: report.Chapter) -> story.MonthKey:
    return story.month_key({"year": chapter.year, "season": chapter.season, "month": chapter.month})


def _chronicle_line(event: Json, line: Line) -> ChronicleLine:
    card = None if line.battle is None else line.battle + 1
    settles = card is not None and event.get("status") != BattleStatus.AWAITING_RESULT
    return ChronicleLine(str(event.get("type")), line.text, card, settles)
