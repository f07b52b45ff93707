"""The month report: a campaign file's events put into sentences (`campaign.display.events`),
with every die and what it decided, the orders once they are resolved, the battles handed off to the tabletop and the
new player order.

Pure: no database, no request (a chapter is named as campaign.words names it). It reads
only public parts of the file (`events`, `battles`, `kingdoms`' names) and the orders the
view passes in once they are resolved; never `inputs`, nor a kingdom's race outside the
event that reveals the races. Places and units are said by their names (`Names`, from the
campaign's gazetteer), never by their hexes and ids.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.display.describing import Line, Roll
from campaign.display.events import chapter_lines
from campaign.gazetteer import Names
from campaign.rules.state import BattleStatus, Season, Step
from campaign.rules.vocabulary import BattleKind, EventType
from campaign.words import chapter_words

type Event = Mapping[str, Any]


@dataclass(frozen=True, slots=True, order=True)
class Chapter:
    """A part of the campaign with its own report: the setup, one summer month, a winter."""

    year: int
    season: str
    month: int

    @property
    def is_month(self) -> bool:
        return self.season == Season.SUMMER and self.month > 0


@dataclass(frozen=True, slots=True)
class Section:
    """The events of one step (orders resolved, battles, …), in the order they happened."""

    title: str
    lines: tuple[Line, ...]


@dataclass(frozen=True, slots=True)
class KingdomOrders:
    kingdom: str
    orders: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Handoff:
    """A pitched battle handed off to the tabletop: what its two players need."""

    hex: str
    sides: tuple[str, ...]
    board: str
    condition: str
    scenario: str
    how_to_win: str
    defender_benefit: str
    last_stand: str
    outcome: str


@dataclass(frozen=True, slots=True)
class ChapterReport:
    chapter: Chapter
    title: str
    orders: tuple[KingdomOrders, ...] | None  # None: not a month, or its orders unknown
    sections: tuple[Section, ...]
    handoffs: tuple[Handoff, ...]
    player_order: tuple[str, ...]

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """Every die of the chapter, in the order rolled."""
        lines = (line for section in self.sections for line in section.lines)
        return tuple(roll for line in lines for roll in line.rolls)


# --- Chapters ---------------------------------------------------------------------------------


def chapter_of(event: Event) -> Chapter:
    return Chapter(_int(event.get("year")), str(event.get("season", "")), _int(event.get("month")))


def chapters_to_report(events: Sequence[Event], previous_count: int | None) -> list[Chapter]:
    """The chapters a snapshot's report covers: those its step added events to (the events
    after the previous snapshot's `previous_count`), else the newest one with events."""
    fresh = events[previous_count:] if previous_count is not None else []
    return list(dict.fromkeys(chapter_of(event) for event in fresh or events[-1:]))


def chapter_title(chapter: Chapter) -> str:
    return chapter_words({"year": chapter.year, "season": chapter.season, "month": chapter.month})


# --- The report -------------------------------------------------------------------------------

STEP_TITLES: Mapping[Step, str] = {
    Step.RACES: "Races and player order",
    Step.CAPITALS: "Capitals",
    Step.SETTLEMENTS: "Settlements",
    Step.ARMIES: "First armies",
    Step.ORDERS: "Orders",
    Step.RESOLUTION: "Orders resolved",
    Step.BATTLES: "Battles",
    Step.REFORM: "End of the month",
    Step.RECALL: "Recall",
    Step.GATHER: "Gathering",
    Step.SUCCESSION: "The rulers' deaths",
    Step.TITHE: "Tithes",
    Step.BUILD: "Building and recruiting",
    Step.FEED: "Feeding the armies",
    Step.DEPLOY: "Deployment",
    Step.FINAL: "The end",
}


def _step_title(step: str) -> str:
    return STEP_TITLES[Step(step)] if step in Step else step.capitalize() or "Events"


def month_report(
    data: Mapping[str, Any],
    chapter: Chapter,
    *,
    orders: Mapping[str, Any] | None = None,
    names: Names | None = None,
) -> ChapterReport:
    """The report of one chapter of the campaign file `data`. `orders` are the month's
    orders (the `inputs.orders` they were resolved from), passed only once resolved.
    `names`: the campaign's (`campaign.words.names_of`); without them, the kingdoms' names
    from the file, and hexes and ids for the rest."""
    names = names if names is not None else Names.of(data, None, file_names(data))
    events = [e for e in _list(data.get("events")) if chapter_of(e) == chapter]
    battles = [b for b in _list(data.get("battles")) if isinstance(b, Mapping)]
    sections: dict[str, list[Line]] = {}
    for event, line in chapter_lines(events, _list(data.get("battles")), names):
        sections.setdefault(str(event.get("step", "")), []).append(line)
    last_order = next(
        (e for e in reversed(events) if e.get("type") == EventType.PLAYER_ORDER), None
    )
    return ChapterReport(
        chapter=chapter,
        title=chapter_title(chapter),
        orders=_orders(orders, names) if chapter.is_month and orders is not None else None,
        sections=tuple(
            Section(_step_title(step), tuple(lines)) for step, lines in sections.items()
        ),
        handoffs=tuple(
            _handoff(b, names)
            for b in battles
            if chapter.is_month
            and (_int(b.get("year")), _int(b.get("month"))) == (chapter.year, chapter.month)
            and b.get("condition")
        ),
        player_order=tuple(_name(k, names) for k in _list(last_order and last_order.get("order"))),
    )


def file_names(data: Mapping[str, Any]) -> dict[str, str]:
    """Each kingdom's name from the file (its id if it has none)."""
    return {
        str(k.get("id")): str(k.get("name") or k.get("id"))
        for k in _list(data.get("kingdoms"))
        if isinstance(k, Mapping)
    }


def _orders(orders: Mapping[str, Any], names: Names) -> tuple[KingdomOrders, ...]:
    return tuple(
        KingdomOrders(_name(kingdom, names), tuple(order_words(o, names) for o in _list(given)))
        for kingdom, given in orders.items()
    )


def order_words(order: Mapping[str, Any], names: Names) -> str:
    """One order as a player would read it: "Aldermark's 1st army: move to Harrowby,
    carrying Aldermark's 5th army"."""
    unit, kind = order.get("unit", "?"), str(order.get("order", "?"))
    words = f"{names.unit(unit)}: {kind}"
    if order.get("to") is not None:
        words += f" to {names.place(order['to'])}"
    if order.get("carry"):
        words += f", carrying {names.unit(order['carry'])}"
    return words


def _handoff(battle: Mapping[str, Any], names: Names) -> Handoff:
    sides = []
    for side in _list(battle.get("sides")):
        units = [*_list(side.get("armies")), *_list(side.get("ships"))]
        cards = _int(side.get("strategy_cards"))
        sides.append(
            f"{_name(side.get('kingdom'), names)}: {_words_list([names.short(u) for u in units]) or 'no units'}, "
            f"{side.get('points', 0)} points, "
            f"{_count(cards, 'strategy card')}{', defending' if side.get('defending') else ''}"
        )
    extra = _mapping(battle.get("extra"))
    stand = battle.get("last_stand")
    return Handoff(
        hex=names.place(battle.get("hex") or ()),
        sides=tuple(sides),
        board=str(battle.get("board") or ""),
        condition=str(battle.get("condition") or ""),
        scenario=str(battle.get("scenario") or ""),
        how_to_win=str(extra.get("how_to_win") or ""),
        defender_benefit=str(battle.get("defender_benefit") or ""),
        last_stand=f"{_name(stand, names)} makes a Last Stand" if stand else "",
        outcome=_outcome(battle, names),
    )


def _outcome(battle: Mapping[str, Any], names: Names) -> str:
    if battle.get("status") != BattleStatus.RESOLVED:
        return "awaiting its result"
    extra = _mapping(battle.get("extra"))
    if battle.get("kind") == BattleKind.CONCESSION:
        return f"conceded by {_name(extra.get('conceded_by'), names)}"
    how = " as a simple battle" if battle.get("kind") == BattleKind.SIMPLE else ""
    if battle.get("result") == "draw":
        return f"a draw{how}"
    return f"won by {_name(battle.get('winner'), names)}{how}"


# --- Small helpers ----------------------------------------------------------------------------


def _list(value: object) -> list[Any]:
    return list(value) if isinstance(value, list | tuple) else []


def _mapping(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _int(value: object) -> int:
    return value if isinstance(value, int) else 0


def _name(kingdom_id: object, names: Names) -> str:
    return names.get(str(kingdom_id), str(kingdom_id))


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _words_list(items: Sequence[str]) -> str:
    return ", ".join(str(item) for item in items)
