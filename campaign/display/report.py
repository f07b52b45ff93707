"""The month report: a campaign file's events put into sentences, with every die and what it
decided, the orders once they are resolved, the battles handed off to the tabletop and the
new player order.

Pure: no database, no request (a chapter is named as campaign.words names it). It reads
only public parts of the file (`events`, `battles`, `kingdoms`' names) and the orders the
view passes in once they are resolved; never `inputs`, nor a kingdom's race outside the
event that reveals the races. Places and units are said by their names (`Names`, from the
campaign's gazetteer), never by their hexes and ids.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from campaign.asks import WORDS
from campaign.gazetteer import Names
from campaign.rules.state import BattleStatus, PendingKind
from campaign.words import capitalised, chapter_words

type Event = Mapping[str, Any]


@dataclass(frozen=True, slots=True, order=True)
class Chapter:
    """A part of the campaign with its own report: the setup, one summer month, a winter."""

    year: int
    season: str
    month: int

    @property
    def is_month(self) -> bool:
        return self.season == "summer" and self.month > 0


@dataclass(frozen=True, slots=True)
class Roll:
    """One D6 as rolled, and what it decided."""

    value: int
    meaning: str


@dataclass(frozen=True, slots=True)
class Line:
    """One event in words, with the dice that decided it; for a battle, its place in the
    file's `battles` list (None if the list has no entry for it)."""

    text: str
    rolls: tuple[Roll, ...] = ()
    battle: int | None = None


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

_STEP_TITLES = {
    "races": "Races and player order",
    "capitals": "Capitals",
    "settlements": "Settlements",
    "armies": "First armies",
    "orders": "Orders",
    "resolution": "Orders resolved",
    "battles": "Battles",
    "reform": "End of the month",
    "recall": "Recall",
    "gather": "Gathering",
    "tithe": "Tithes",
    "build": "Building and recruiting",
    "feed": "Feeding the armies",
    "deploy": "Deployment",
    "final": "The end",
}


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
    last_order = next((e for e in reversed(events) if e.get("type") == "player-order"), None)
    return ChapterReport(
        chapter=chapter,
        title=chapter_title(chapter),
        orders=_orders(orders, names) if chapter.is_month and orders is not None else None,
        sections=tuple(
            Section(_STEP_TITLES.get(step, step.capitalize() or "Events"), tuple(lines))
            for step, lines in sections.items()
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


def chapter_lines(
    events: Sequence[Event], battles: Sequence[object], names: Names
) -> list[tuple[Event, Line]]:
    """Each event of one chapter, oldest first, with its line. `events` must be every event
    of the chapter: a resolved battle is matched to its entry of `battles` (the file's
    battles list) by its place among the chapter's battles in its tile."""
    describe = _Describer(names, battles)
    return [(event, describe.line(event)) for event in events]


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
    if battle.get("kind") == "concession":
        return f"conceded by {_name(extra.get('conceded_by'), names)}"
    how = " as a simple battle" if battle.get("kind") == "simple" else ""
    if battle.get("result") == "draw":
        return f"a draw{how}"
    return f"won by {_name(battle.get('winner'), names)}{how}"


# --- Events in words --------------------------------------------------------------------------


class _Describer:
    """Puts events into sentences; knows the kingdoms' names and the battles list, so a
    battle event can say what each of its dice decided."""

    def __init__(self, names: Names, battles: Sequence[object]) -> None:
        self.names = names
        self.battles = [b for b in battles if isinstance(b, Mapping)]
        self.places = {id(b): place for place, b in enumerate(battles)}
        self.seen: dict[tuple[object, ...], int] = {}

    def k(self, kingdom_id: object) -> str:
        return _name(kingdom_id, self.names)

    def unit(self, unit_id: object) -> str:
        """A unit by its name, with its kingdom's if its player named it."""
        return self.names.unit(unit_id, whose=True)

    def units(self, unit_ids: object) -> str:
        return _words_list([self.unit(u) for u in _list(unit_ids)])

    def place(self, hex_: object) -> str:
        return self.names.place(_list(hex_))

    def at(self, hex_: object) -> str:
        return self.names.at(_list(hex_))

    def line(self, event: Event) -> Line:
        kind = str(event.get("type", ""))
        describe = _DESCRIPTIONS.get(kind, _generic_for)
        try:
            line = describe(self, event)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError):
            line = _generic(event, self.names)  # a malformed event still gets a line
        line = replace(line, text=capitalised(line.text))  # a unit's name may begin it
        dice = [die for die in _list(event.get("dice")) if isinstance(die, int)]
        if [roll.value for roll in line.rolls] != dice:  # every die is shown, whatever it did
            line = replace(line, rolls=_generic(event).rolls)
        return line

    def place_of(self, entry: Mapping[str, Any] | None) -> int | None:
        """Where a battles-list entry stands in the list."""
        return None if entry is None else self.places.get(id(entry))

    def battle_entry(self, event: Event) -> Mapping[str, Any] | None:
        """The battles-list entry an event speaks of: a hand-off by its dice, a resolved
        battle by its place among the resolved battles of its kind in that tile."""
        here = [
            b
            for b in self.battles
            if (_int(b.get("year")), _int(b.get("month")), list(b.get("hex") or []))
            == (_int(event.get("year")), _int(event.get("month")), list(event["hex"]))
        ]
        dice = list(event.get("dice") or [])
        if event.get("status") == BattleStatus.AWAITING_RESULT:
            return next((b for b in here if list(b.get("dice") or [])[: len(dice)] == dice), None)
        key = (event.get("year"), event.get("month"), tuple(event["hex"]), event.get("kind"))
        nth = self.seen.get(key, 0)
        self.seen[key] = nth + 1
        same = [b for b in here if b.get("kind") == event.get("kind")]
        return same[nth] if nth < len(same) else None


def _generic_for(d: _Describer, event: Event) -> Line:
    return _generic(event, d.names)


def _generic(event: Event, names: Names | None = None) -> Line:
    kind = str(event.get("type") or "event")
    names = names if names is not None else Names()
    details = ", ".join(
        f"{key} {_value(value, names)}"
        for key, value in event.items()
        if key not in ("year", "season", "month", "step", "type", "dice")
    )
    dice = [d for d in _list(event.get("dice")) if isinstance(d, int)]
    rolls = tuple(Roll(d, f"a die for {kind}") for d in dice)
    return Line(f"{kind.replace('-', ' ').capitalize()}{': ' + details if details else ''}.", rolls)


def _races_revealed(d: _Describer, e: Event) -> Line:
    races = e["races"]
    return Line(
        "The races are revealed: "
        + "; ".join(f"{d.k(k)}, {race}" for k, race in races.items())
        + "."
    )


def _roll_off(d: _Describer, e: Event) -> Line:
    why = str(e.get("why") or "a tie")
    pairs = list(zip(e["kingdoms"], e["dice"], strict=True))
    return Line(
        f"Roll-off for {why}: " + ", ".join(f"{d.k(k)} rolled {die}" for k, die in pairs) + ".",
        tuple(Roll(die, f"{d.k(k)}'s roll-off die for {why}") for k, die in pairs),
    )


def _player_order(d: _Describer, e: Event) -> Line:
    text = "The player order is now " + ", ".join(d.k(k) for k in e["order"])
    armies = e.get("armies")
    if isinstance(armies, Mapping) and armies:
        text += " (by armies: " + ", ".join(f"{d.k(k)} {n}" for k, n in armies.items()) + ")"
    return Line(text + ".")


def _capital_founded(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} founded its capital, {d.names.settlement(e['hex'])}.")


def _settlements_placed(d: _Describer, e: Event) -> Line:
    placed = [
        f"{kind} {_words_list([d.names.settlement(h) for h in hexes])}"
        for kind, hexes in e["settlements"].items()
        if hexes
    ]
    controlled = list(dict.fromkeys(d.at(h) for h in _list(e.get("controlled"))))
    text = f"{d.k(e['kingdom'])} placed its settlements: {'; '.join(placed) or 'none'}"
    if controlled:
        text += f", and controls land {_words_list(controlled)}"
    return Line(text + ".")


def _army_placed(d: _Describer, e: Event) -> Line:
    return Line(
        f"{d.k(e['kingdom'])} placed its first army, {d.unit(e['army'])}, {d.at(e['hex'])}."
    )


def _moved(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['unit'])} moved {d.names.route(e['from'], e['to'])}.")


def _explored(d: _Describer, e: Event) -> Line:
    first, second, *again = e["dice"]  # with option wizards, doubles roll two more (OA4)
    found = f"a {e['settlement']}" if e.get("settlement") else "no settlement"
    if e.get("settlement"):
        found += f", {d.names.settlement(e['hex'])}"
    where = d.names.region(e["hex"])
    decided = f"{d.k(e['kingdom'])} exploring {where}: {first} + {second} = "
    decided += f"{first + second}, {found}"
    text = (
        f"{d.k(e['kingdom'])} explored new land in {where}: rolled {first} + {second} = "
        f"{first + second} and found {found}"
    )
    rolls = [Roll(first, decided), Roll(second, decided)]
    if again:
        no_tower = f"{d.k(e['kingdom'])} exploring {where}: no second doubles, no tower"
        text += f" (doubles, then {again[0]} and {again[1]}: no Wizard's tower)"
        rolls += [Roll(die, no_tower) for die in again]
    return Line(f"{text}.", tuple(rolls))


def _tower_raised(d: _Describer, e: Event) -> Line:
    """Option wizards (OA4, OA5)."""
    dice = e["dice"]
    where = d.names.region(e["hex"])
    decided = f"{d.k(e['kingdom'])} exploring {where}: doubles twice, a Wizard's tower"
    return Line(
        f"{d.k(e['kingdom'])} explored new land in {where}: rolled {dice[0]} and {dice[1]}, then "
        f"{dice[2]} and {dice[3]}: doubles twice, and a Wizard's tower rose there; "
        f"{d.unit(e['unit'])} stayed where it was.",
        tuple(Roll(die, decided) for die in dice),
    )


QUEST_OUTCOMES = {
    "lost": "the hero is lost",
    "hurt": "the hero is hurt",
    "nothing": "nothing was found",
    "nothing left": "every artefact of the campaign is held: nothing was found",
}


def _quest(d: _Describer, e: Event) -> Line:
    """Option wizards (OA6, OA7): the die, the hero's points, and what was found."""
    bonus = _int(e.get("points")) // 100
    outcome = QUEST_OUTCOMES.get(e["outcome"]) or f"{e['artefact']} was found"
    who = f"{d.k(e['kingdom'])}'s {e['hero']} ({e['points']} points)"
    die, *picks = e["dice"]
    decided = f"{who} at the tower {d.at(e['tower'])}: {e['result']}, {outcome}"
    picked = f"{who}: the pick among the free artefacts, {e['artefact']}"
    return Line(
        f"{who} went on a quest to the Wizard's tower {d.at(e['tower'])}: rolled "
        f"{die} + {bonus} = {e['result']}: {outcome}.",
        (Roll(die, decided), *(Roll(pick, picked) for pick in picks)),
    )


def _artefact_taken(d: _Describer, e: Event) -> Line:
    """Option wizards (OA10)."""
    if e.get("to"):
        return Line(f"{d.k(e['to'])} took {e['artefact']} from {d.k(e['from'])} {d.at(e['hex'])}.")
    return Line(
        f"{e['artefact']}, lost by {d.k(e['from'])} {d.at(e['hex'])}, returned to the pool."
    )


def _artefact_returned(d: _Describer, e: Event) -> Line:
    return Line(f"{e['artefact']}, held by {d.k(e['kingdom'])}, returned to the pool.")


def _tile_taken(d: _Describer, e: Event) -> Line:
    before = f" from {d.k(e['from'])}" if e.get("from") else ""
    taken = d.place(e["hex"]) if d.names.is_settlement(e["hex"]) else f"land {d.at(e['hex'])}"
    return Line(f"{d.k(e['kingdom'])} took {taken}{before}.")


def _capital_lost(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} lost its capital, {d.place(e['hex'])} ({e.get('how')}).")


def _unit_at(text: str) -> Callable[[_Describer, Event], Line]:
    def describe(d: _Describer, e: Event) -> Line:
        return Line(text.format(unit=d.unit(e["unit"]), at=d.at(e["hex"])))

    return describe


def _defended(d: _Describer, e: Event) -> Line:
    if d.names.is_settlement(e["hex"]):
        return Line(f"{d.unit(e['unit'])} defends {d.place(e['hex'])}.")
    return Line(f"{d.unit(e['unit'])} holds its ground {d.at(e['hex'])}.")


def _raze_failed(d: _Describer, e: Event) -> Line:
    enemies = d.units(e.get("enemies"))
    return Line(
        f"{d.unit(e['unit'])} could not raze {d.place(e['hex'])}: enemy units there ({enemies})."
    )


def _razed(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['unit'])} razed the {e['settlement']} of {d.place(e['hex'])}.")


def _army_landed(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} landed from {d.unit(e['ship'])} {d.at(e['hex'])}.")


def _army_boarded(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} boarded {d.unit(e['ship'])} {d.at(e['hex'])}.")


def _slowed(d: _Describer, e: Event) -> Line:
    return Line(
        f"{d.unit(e['unit'])} was slowed by the terrain between {d.place(e['from'])} and "
        f"{d.place(e['to'])} and lies on its side."
    )


def _battle(d: _Describer, e: Event) -> Line:
    entry = d.battle_entry(e)
    return replace(_battle_words(d, e, entry), battle=d.place_of(entry))


def _battle_words(d: _Describer, e: Event, entry: Mapping[str, Any] | None) -> Line:
    where, kind = d.at(e["hex"]), str(e["kind"])
    attacker, defender = d.k(e["attacker"]), d.k(e["defender"])
    extra = _mapping(entry and entry.get("extra"))
    dice = [int(x) for x in _list(e.get("dice"))]
    result = _result(e, d)
    if e.get("status") == BattleStatus.AWAITING_RESULT:
        return _handed_off(where, attacker, defender, dice, entry or {})
    if kind == "simple":
        rolls = _split(dice, len(_list(extra.get("attacker_dice"))), attacker, defender, where)
        hits = f"hits {extra.get('attacker_hits', '?')} to {extra.get('defender_hits', '?')}"
        text = f"Simple battle {where}, {attacker} against {defender}: {hits}; {result}."
        return Line(text, rolls)
    if kind == "naval":
        return _naval(d, where, attacker, defender, dice, extra, result)
    if kind == "land_water":
        total = _int(extra.get("attacker_total"))
        cut = next((i for i in range(len(dice) + 1) if sum(dice[:i]) == total), len(dice))
        rolls = _split(dice, cut, attacker, defender, where)
        text = (
            f"Land/water battle {where}, {attacker} against {defender}: totals "
            f"{extra.get('attacker_total', '?')} to {extra.get('defender_total', '?')}; {result}."
        )
        return Line(text, rolls)
    if kind == "slaughter":
        removed = f": {d.unit(extra['removed'])} is removed" if extra.get("removed") else ""
        return Line(f"{attacker} slaughtered {defender}'s units {where}{removed}.")
    if kind == "concession":
        conceding = d.k(extra.get("conceded_by")) if extra.get("conceded_by") else "one side"
        forced = " (fewer upright armies: it had to)" if extra.get("forced") else ""
        return Line(f"{conceding} conceded the battle {where}{forced}; {result}.")
    if kind == "pitched":
        return Line(f"The tabletop battle {where}, {attacker} against {defender}: {result}.")
    return Line(f"Battle ({kind}) {where}, {attacker} against {defender}: {result}.")


def _result(e: Event, d: _Describer) -> str:
    if e.get("result") == "draw":
        return "a draw"
    if e.get("winner"):
        return f"{d.k(e['winner'])} won"
    return "no winner"


def _handed_off(
    where: str, attacker: str, defender: str, dice: list[int], entry: Mapping[str, Any]
) -> Line:
    condition, scenario = entry.get("condition") or "?", entry.get("scenario") or "?"
    board = f" on a {entry['board']} board" if entry.get("board") else ""
    rolls: tuple[Roll, ...] = ()
    if len(dice) == 2:
        rolls = (
            Roll(dice[0], f"the condition of the battle {where}: {condition}"),
            Roll(dice[1], f"the scenario of the battle {where}: {scenario}"),
        )
    return Line(
        f"The battle {where}, {attacker} against {defender}, is handed off to the "
        f"tabletop{board}: {scenario}, {condition}.",
        rolls,
    )


def _split(dice: list[int], cut: int, attacker: str, defender: str, where: str) -> tuple[Roll, ...]:
    return tuple(
        Roll(die, f"{attacker if i < cut else defender}'s die in the battle {where}")
        for i, die in enumerate(dice)
    )


def _naval(
    d: _Describer,
    where: str,
    attacker: str,
    defender: str,
    dice: list[int],
    extra: Mapping[str, Any],
    result: str,
) -> Line:
    rolls: list[Roll] = []
    sunk: list[str] = []
    for number, naval_round in enumerate(_list(extra.get("rounds")), start=1):
        for who, key in ((attacker, "attacker_dice"), (defender, "defender_dice")):
            for die in _list(naval_round.get(key)):
                meaning = f"{who}'s die in round {number} of the naval battle {where}"
                rolls.append(Roll(die, meaning))
        sunk += [*_list(naval_round.get("attacker_sunk")), *_list(naval_round.get("defender_sunk"))]
    if [r.value for r in rolls] != dice:  # the battles list does not match: plain dice
        rolls = [Roll(die, f"a die in the naval battle {where}") for die in dice]
    lost = f"; sunk: {d.units(sunk)}" if sunk else ""
    text = f"Naval battle {where}, {attacker} against {defender}{lost}; {result}."
    return Line(text, tuple(rolls))


def _battle_restated(d: _Describer, e: Event) -> Line:
    sides = _mapping(e.get("sides"))
    who = "; ".join(f"{d.k(k)}: {d.units(u) or 'no units'}" for k, u in sides.items())
    board = f", now on a {e['board']} board" if e.get("board") else ""
    return Line(f"The battle {d.at(e['hex'])} is restated after a retreat ({who}){board}.")


def _strategy_learned(d: _Describer, e: Event) -> Line:
    cards = _count(_int(e.get("strategies")), "strategy card")
    return Line(f"{d.k(e['kingdom'])} lost a pitched battle and now holds {cards}.")


def _retreated(d: _Describer, e: Event) -> Line:
    lying = "" if e.get("upright") else ", and lies on its side"
    return Line(f"{d.unit(e['unit'])} retreated {d.names.route(e['from'], e['to'])}{lying}.")


def _destroyed(d: _Describer, e: Event) -> Line:
    return Line(f"Destroyed {d.at(e['hex'])} ({e.get('why')}): {d.units(e.get('units'))}.")


def _recalled(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} is recalled {d.names.route(e['from'], e['to'])}.")


def _supply_lost(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} {d.at(e['hex'])} has no way home and is lost.")


def _ship_lost(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['ship'])} has no free port and is lost.")


def _ship_docked(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['ship'])} docked {d.at(e['hex'])}.")


def _eliminated(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} is eliminated.")


def _gathered(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} gathered {e['gold']} gold and {e['food']} food.")


def _tithe(d: _Describer, e: Event) -> Line:
    text = f"{d.k(e['kingdom'])} gave {e['gold']} gold and {e['food']} food to {d.k(e['to'])}"
    asked = e.get("asked")
    if isinstance(asked, Mapping) and (asked.get("gold"), asked.get("food")) != (
        e["gold"],
        e["food"],
    ):
        text += f" (of {asked.get('gold')} gold and {asked.get('food')} food promised)"
    return Line(text + ".")


def _purchase_skipped(d: _Describer, e: Event) -> Line:
    purchase = _mapping(e.get("purchase"))
    what = purchase.get("kind") or "purchase"
    where = f" {d.at(purchase['hex'])}" if "hex" in purchase else ""
    reason = d.names.said(str(e.get("reason")))
    return Line(f"{d.k(e['kingdom'])} could not buy a {what}{where}: {reason}")


def _disbanded(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} disbanded {d.unit(e['army'])}.")


def _recruited(d: _Describer, e: Event) -> Line:
    ally = f", an allied {e['ally']} army" if e.get("ally") else ""
    return Line(f"{d.k(e['kingdom'])} recruited {d.unit(e['army'])} {d.at(e['hex'])}{ally}.")


def _ship_built(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} built {d.unit(e['ship'])} {d.at(e['hex'])}.")


def _deadline_default(d: _Describer, e: Event) -> Line:
    """A kingdom's missing decision took the deadline's default (ruling A22)."""
    words = WORDS[PendingKind(str(e["kind"]))].defaulted
    took = words[0] if words else "took the deadline's default"
    return Line(f"At the deadline, {d.k(e['kingdom'])} {took}.")


def _capital_named(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} named {d.place(e['hex'])} its new capital.")


def _built(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} built a {e['settlement']} at {d.names.settlement(e['hex'])}.")


def _resources_lost(d: _Describer, e: Event) -> Line:
    return Line(
        f"{d.k(e['kingdom'])} lost what it could not keep: {e['gold']} gold and {e['food']} food."
    )


def _starved(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} went hungry and is disbanded.")


def _no_room(d: _Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} found no room to deploy and is lost.")


def _deployed(d: _Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} deployed {d.unit(e['army'])} {d.at(e['hex'])}.")


def _campaign_ended(d: _Describer, e: Event) -> Line:
    return Line("The campaign has ended.")


_DESCRIPTIONS: dict[str, Callable[[_Describer, Event], Line]] = {
    "races-revealed": _races_revealed,
    "roll-off": _roll_off,
    "player-order": _player_order,
    "capital-founded": _capital_founded,
    "settlements-placed": _settlements_placed,
    "army-placed": _army_placed,
    "moved": _moved,
    "explored": _explored,
    "tower-raised": _tower_raised,
    "tower-blocked": _unit_at("{unit} found a Wizard's tower {at} and stayed where it was."),
    "quest": _quest,
    "artefact-taken": _artefact_taken,
    "artefact-returned": _artefact_returned,
    "tile-taken": _tile_taken,
    "capital-lost": _capital_lost,
    "raze-nothing-left": _unit_at("{unit} found nothing left to raze {at}."),
    "raze-failed": _raze_failed,
    "razed": _razed,
    "defended": _defended,
    "regrouped": _unit_at("{unit} regrouped {at} and stands upright."),
    "stayed": _unit_at("{unit} stayed {at}."),
    "army-landed": _army_landed,
    "army-boarded": _army_boarded,
    "slowed-by-terrain": _slowed,
    "battle": _battle,
    "battle-restated": _battle_restated,
    "strategy-learned": _strategy_learned,
    "retreated": _retreated,
    "destroyed": _destroyed,
    "recalled": _recalled,
    "supply-lost": _supply_lost,
    "ship-lost": _ship_lost,
    "ship-docked": _ship_docked,
    "eliminated": _eliminated,
    "gathered": _gathered,
    "tithe": _tithe,
    "purchase-skipped": _purchase_skipped,
    "disbanded": _disbanded,
    "recruited": _recruited,
    "ship-built": _ship_built,
    "capital-named": _capital_named,
    "built": _built,
    "resources-lost": _resources_lost,
    "starved": _starved,
    "no-room": _no_room,
    "deployed": _deployed,
    "campaign-ended": _campaign_ended,
    "deadline-default": _deadline_default,
}
EVENT_TYPES = frozenset(_DESCRIPTIONS)


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


def _value(value: object, names: Names) -> str:
    """A value of an event in words: a hex as its place, a unit's or a kingdom's id as its
    name."""
    if isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return names.place(value)
    if isinstance(value, list):
        return _words_list([_value(v, names) for v in value])
    if isinstance(value, Mapping):
        return "; ".join(f"{names.kingdom(k)} {_value(v, names)}" for k, v in value.items())
    if isinstance(value, str) and (value in names or names.owner(value)):
        return names.kingdom(value) if value in names else names.unit(value, whose=True)
    return str(value)
