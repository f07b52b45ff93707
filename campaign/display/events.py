"""Every event of the campaign file in words, declared once, keyed by its type
(`EventType`): the report and the chronicle tell it to everyone, with every die and what
it decided; a kingdom's own winter page (its ledger and its forecast) tells it the
kingdom's winter in its own words. `describe` words one event; `chapter_lines` words a
chapter's events, matching each battle to its entry of the file's battles list.

Pure: no database, no request. Places and units are said by their names (`Names`, from
the campaign's gazetteer), never by their hexes and ids; a kingdom's race only in the
event that reveals the races.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

from campaign.asks import WORDS
from campaign.display.describing import (
    Describer,
    Event,
    Line,
    Roll,
    Voice,
    Wording,
    as_int,
    as_list,
    as_mapping,
    counted,
    unit_at,
    words_list,
)
from campaign.display.optional import EVENT_WORDINGS as OPTIONS_WORDINGS
from campaign.display.optional import GAIN_NAMES
from campaign.gazetteer import Names
from campaign.rules.state import BattleStatus, PendingKind, PurchaseKind
from campaign.rules.vocabulary import BattleKind, EventType


def _races_revealed(d: Describer, e: Event) -> Line:
    races = e["races"]
    return Line(
        "The races are revealed: "
        + "; ".join(f"{d.k(k)}, {race}" for k, race in races.items())
        + "."
    )


def _roll_off(d: Describer, e: Event) -> Line:
    why = str(e.get("why") or "a tie")
    pairs = list(zip(e["kingdoms"], e["dice"], strict=True))
    return Line(
        f"Roll-off for {why}: " + ", ".join(f"{d.k(k)} rolled {die}" for k, die in pairs) + ".",
        tuple(Roll(die, f"{d.k(k)}'s roll-off die for {why}") for k, die in pairs),
    )


def _player_order(d: Describer, e: Event) -> Line:
    text = "The player order is now " + ", ".join(d.k(k) for k in e["order"])
    armies = e.get("armies")
    if isinstance(armies, Mapping) and armies:
        text += " (by armies: " + ", ".join(f"{d.k(k)} {n}" for k, n in armies.items()) + ")"
    return Line(text + ".")


def _capital_founded(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} founded its capital, {d.names.settlement(e['hex'])}.")


def _settlements_placed(d: Describer, e: Event) -> Line:
    placed = [
        f"{kind} {words_list([d.names.settlement(h) for h in hexes])}"
        for kind, hexes in e["settlements"].items()
        if hexes
    ]
    controlled = list(dict.fromkeys(d.at(h) for h in as_list(e.get("controlled"))))
    text = f"{d.k(e['kingdom'])} placed its settlements: {'; '.join(placed) or 'none'}"
    if controlled:
        text += f", and controls land {words_list(controlled)}"
    return Line(text + ".")


def _army_placed(d: Describer, e: Event) -> Line:
    return Line(
        f"{d.k(e['kingdom'])} placed its first army, {d.unit(e['army'])}, {d.at(e['hex'])}."
    )


def _moved(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['unit'])} moved {d.names.route(e['from'], e['to'])}.")


def _explored(d: Describer, e: Event) -> Line:
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


def _tile_taken(d: Describer, e: Event) -> Line:
    before = f" from {d.k(e['from'])}" if e.get("from") else ""
    taken = d.place(e["hex"]) if d.names.is_settlement(e["hex"]) else f"land {d.at(e['hex'])}"
    return Line(f"{d.k(e['kingdom'])} took {taken}{before}.")


def _capital_lost(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} lost its capital, {d.place(e['hex'])} ({e.get('how')}).")


def _defended(d: Describer, e: Event) -> Line:
    if d.names.is_settlement(e["hex"]):
        return Line(f"{d.unit(e['unit'])} defends {d.place(e['hex'])}.")
    return Line(f"{d.unit(e['unit'])} holds its ground {d.at(e['hex'])}.")


def _raze_failed(d: Describer, e: Event) -> Line:
    enemies = d.units(e.get("enemies"))
    return Line(
        f"{d.unit(e['unit'])} could not raze {d.place(e['hex'])}: enemy units there ({enemies})."
    )


def _razed(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['unit'])} razed the {e['settlement']} of {d.place(e['hex'])}.")


def _army_landed(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} landed from {d.unit(e['ship'])} {d.at(e['hex'])}.")


def _army_boarded(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} boarded {d.unit(e['ship'])} {d.at(e['hex'])}.")


def _slowed(d: Describer, e: Event) -> Line:
    return Line(
        f"{d.unit(e['unit'])} was slowed by the terrain between {d.place(e['from'])} and "
        f"{d.place(e['to'])} and lies on its side."
    )


def _battle(d: Describer, e: Event) -> Line:
    entry = d.battle_entry(e)
    return replace(_battle_words(d, e, entry), battle=d.place_of(entry))


def _battle_words(d: Describer, e: Event, entry: Mapping[str, Any] | None) -> Line:
    where, kind = d.at(e["hex"]), str(e["kind"])
    attacker, defender = d.k(e["attacker"]), d.k(e["defender"])
    extra = as_mapping(entry and entry.get("extra"))
    dice = [int(x) for x in as_list(e.get("dice"))]
    result = _result(e, d)
    if e.get("status") == BattleStatus.AWAITING_RESULT:
        return _handed_off(where, attacker, defender, dice, entry or {})
    if kind == BattleKind.SIMPLE:
        rolls = _split(dice, len(as_list(extra.get("attacker_dice"))), attacker, defender, where)
        hits = f"hits {extra.get('attacker_hits', '?')} to {extra.get('defender_hits', '?')}"
        text = f"Simple battle {where}, {attacker} against {defender}: {hits}; {result}."
        return Line(text, rolls)
    if kind == BattleKind.NAVAL:
        return _naval(d, where, attacker, defender, dice, extra, result)
    if kind == BattleKind.LAND_WATER:
        total = as_int(extra.get("attacker_total"))
        cut = next((i for i in range(len(dice) + 1) if sum(dice[:i]) == total), len(dice))
        rolls = _split(dice, cut, attacker, defender, where)
        text = (
            f"Land/water battle {where}, {attacker} against {defender}: totals "
            f"{extra.get('attacker_total', '?')} to {extra.get('defender_total', '?')}; {result}."
        )
        return Line(text, rolls)
    if kind == BattleKind.SLAUGHTER:
        removed = f": {d.unit(extra['removed'])} is removed" if extra.get("removed") else ""
        return Line(f"{attacker} slaughtered {defender}'s units {where}{removed}.")
    if kind == BattleKind.CONCESSION:
        conceding = d.k(extra.get("conceded_by")) if extra.get("conceded_by") else "one side"
        forced = " (fewer upright armies: it had to)" if extra.get("forced") else ""
        return Line(f"{conceding} conceded the battle {where}{forced}; {result}.")
    if kind == BattleKind.PITCHED:
        return Line(f"The tabletop battle {where}, {attacker} against {defender}: {result}.")
    return Line(f"Battle ({kind}) {where}, {attacker} against {defender}: {result}.")


def _result(e: Event, d: Describer) -> str:
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
    d: Describer,
    where: str,
    attacker: str,
    defender: str,
    dice: list[int],
    extra: Mapping[str, Any],
    result: str,
) -> Line:
    rolls: list[Roll] = []
    sunk: list[str] = []
    for number, naval_round in enumerate(as_list(extra.get("rounds")), start=1):
        for who, key in ((attacker, "attacker_dice"), (defender, "defender_dice")):
            for die in as_list(naval_round.get(key)):
                meaning = f"{who}'s die in round {number} of the naval battle {where}"
                rolls.append(Roll(die, meaning))
        sunk += [
            *as_list(naval_round.get("attacker_sunk")),
            *as_list(naval_round.get("defender_sunk")),
        ]
    if [r.value for r in rolls] != dice:  # the battles list does not match: plain dice
        rolls = [Roll(die, f"a die in the naval battle {where}") for die in dice]
    lost = f"; sunk: {d.units(sunk)}" if sunk else ""
    text = f"Naval battle {where}, {attacker} against {defender}{lost}; {result}."
    return Line(text, tuple(rolls))


def _battle_restated(d: Describer, e: Event) -> Line:
    sides = as_mapping(e.get("sides"))
    who = "; ".join(f"{d.k(k)}: {d.units(u) or 'no units'}" for k, u in sides.items())
    board = f", now on a {e['board']} board" if e.get("board") else ""
    return Line(f"The battle {d.at(e['hex'])} is restated after a retreat ({who}){board}.")


def _strategy_learned(d: Describer, e: Event) -> Line:
    cards = counted(as_int(e.get("strategies")), "strategy card")
    return Line(f"{d.k(e['kingdom'])} lost a pitched battle and now holds {cards}.")


def _retreated(d: Describer, e: Event) -> Line:
    lying = "" if e.get("upright") else ", and lies on its side"
    return Line(f"{d.unit(e['unit'])} retreated {d.names.route(e['from'], e['to'])}{lying}.")


def _destroyed(d: Describer, e: Event) -> Line:
    return Line(f"Destroyed {d.at(e['hex'])} ({e.get('why')}): {d.units(e.get('units'))}.")


def _recalled(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} is recalled {d.names.route(e['from'], e['to'])}.")


def _supply_lost(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} {d.at(e['hex'])} has no way home and is lost.")


def _ship_lost(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['ship'])} has no free port and is lost.")


def _ship_docked(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['ship'])} docked {d.at(e['hex'])}.")


def _eliminated(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} is eliminated.")


def _gathered(d: Describer, e: Event) -> Line:
    told = f"{d.k(e['kingdom'])} gathered {e['gold']} gold and {e['food']} food"
    return Line(f"{told}{_with_gains(e, d.names)}.")


def _tithe(d: Describer, e: Event) -> Line:
    text = f"{d.k(e['kingdom'])} gave {e['gold']} gold and {e['food']} food to {d.k(e['to'])}"
    asked = e.get("asked")
    if isinstance(asked, Mapping) and (asked.get("gold"), asked.get("food")) != (
        e["gold"],
        e["food"],
    ):
        text += f" (of {asked.get('gold')} gold and {asked.get('food')} food promised)"
    return Line(text + ".")


def _purchase_skipped(d: Describer, e: Event) -> Line:
    purchase = as_mapping(e.get("purchase"))
    what = purchase.get("kind") or "purchase"
    where = f" {d.at(purchase['hex'])}" if "hex" in purchase else ""
    if "hex" in purchase and "to" in purchase:  # between two tiles: a road (option OW9)
        where = f" {d.names.route(purchase['hex'], purchase['to'])}"
    reason = d.names.said(str(e.get("reason")))
    return Line(f"{d.k(e['kingdom'])} could not buy a {what}{where}: {reason}")


def _disbanded(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} disbanded {d.unit(e['army'])}.")


def _recruited(d: Describer, e: Event) -> Line:
    ally = f", an allied {e['ally']} army" if e.get("ally") else ""
    return Line(f"{d.k(e['kingdom'])} recruited {d.unit(e['army'])} {d.at(e['hex'])}{ally}.")


def _ship_built(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} built {d.unit(e['ship'])} {d.at(e['hex'])}.")


def _deadline_default(d: Describer, e: Event) -> Line:
    """A kingdom's missing decision took the deadline's default (ruling A22)."""
    words = WORDS[PendingKind(str(e["kind"]))].defaulted
    took = words[0] if words else "took the deadline's default"
    return Line(f"At the deadline, {d.k(e['kingdom'])} {took}.")


def _capital_named(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} named {d.place(e['hex'])} its new capital.")


def _built(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} built a {e['settlement']} at {d.names.settlement(e['hex'])}.")


def _resources_lost(d: Describer, e: Event) -> Line:
    return Line(
        f"{d.k(e['kingdom'])} lost what it could not keep: {e['gold']} gold and {e['food']} food."
    )


def _starved(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} went hungry and is disbanded.")


def _no_room(d: Describer, e: Event) -> Line:
    return Line(f"{d.unit(e['army'])} found no room to deploy and is lost.")


def _deployed(d: Describer, e: Event) -> Line:
    return Line(f"{d.k(e['kingdom'])} deployed {d.unit(e['army'])} {d.at(e['hex'])}.")


def _campaign_ended(d: Describer, e: Event) -> Line:
    return Line("The campaign has ended.")


# --- A kingdom's own winter, in its words ------------------------------------------------------
# Its ledger (what the winter has done to it) and its forecast (what its list would do):
# the units by their names alone, the deeds in the present tense of a plan.


def _came_home(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['army'])} came home {d.names.route(e['from'], e['to'])}."


def _cut_off(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['army'])} {d.at(e['hex'])} was cut off from the capital and lost."


def _docked(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['ship'])} docked {d.at(e['hex'])}."


def _found_no_port(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['ship'])} found no port and was lost."


def _gathered_own(d: Describer, e: Event) -> str:
    told = f"Gathered {e['gold']} gold and {e['food']} food{_tile_by_tile(e, d.names)}"
    return f"{told}{_with_gains(e, d.names)}."


def _with_gains(gathered: Event, names: Names) -> str:
    """What the optional rules added or took (OG7's gather): "; the trade fair 1 gold",
    "; the hard frost took 1 food", "; the hard frost took nothing", "; trade along the
    roads 1 gold (from Harrowby, Stonewick)" ("" for none)."""
    parts = []
    for gain in as_list(gathered.get("gains")):
        source = GAIN_NAMES.get(str(gain.get("source")), str(gain.get("source")))
        amounts = [(as_int(gain.get(what)), what) for what in ("gold", "food")]
        said = [
            f"{source} {n} {what}" if n > 0 else f"{source} took {-n} {what}"
            for n, what in amounts
            if n
        ]
        brought = [names.place(h) for h in as_list(gain.get("tiles"))]
        if said and brought:
            said[-1] += f" (from {words_list(brought)})"
        parts += said or [f"{source} took nothing"]
    return f"; {', '.join(parts)}" if parts else ""


def _tile_by_tile(gathered: Event, names: Names) -> str:
    """Where a harvest came from ("" for an event recorded before the engine told it)."""
    parts = [
        f"{names.place(y['hex'])} {y['gold']} gold"
        if y["gold"]
        else f"{names.place(y['hex'])} {y['food']} food"
        for y in gathered.get("tiles", [])
    ]
    return f": {', '.join(parts)}" if parts else ""


def _left_unspent(d: Describer, e: Event) -> str:
    return f"{e['gold']} gold and {e['food']} food were left unspent, and lost."


def _gives(d: Describer, e: Event) -> str:
    return f"{d.k(e['kingdom'])} gives {d.k(e['to'])} {e['gold']} gold and {e['food']} food."


def _is_built(d: Describer, e: Event) -> str:
    return f"A {e['settlement']} is built at {d.names.settlement(e['hex'])}."


def _is_raised(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['army'])} is raised {d.at(e['hex'])}."


def _ship_is_built(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['ship'])} is built {d.at(e['hex'])}."


def _becomes_capital(d: Describer, e: Event) -> str:
    return f"{d.place(e['hex'])} becomes the capital."


def _is_disbanded(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['army'])} is disbanded."


def _skipped(d: Describer, e: Event) -> str:
    said = purchase_words(_as_input(e["purchase"]), d.names)
    return f"Skipped: {said}: {d.names.said(str(e['reason']))}"


def _goes_hungry(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['army'])} goes hungry and is lost."


def _finds_no_room(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['army'])} finds no room to deploy and is lost."


def _deploys(d: Describer, e: Event) -> str:
    return f"{d.names.unit(e['army'])} deploys {d.at(e['hex'])}."


def purchase_words(purchase: Mapping[str, Any], names: Names) -> str:
    """A purchase of the campaign file, as a player reads it."""
    if "disband" in purchase:
        return f"Disband {names.unit(purchase['disband'])}"
    if "quest" in purchase:  # option wizards (OA6)
        return (
            f"Send {purchase['hero']} ({purchase['points']} points) on a quest to the Wizard's "
            f"tower {names.at(purchase['quest'])}"
        )
    at = names.at(purchase["hex"])
    if "recruit" in purchase:
        ally = f" (allied: {purchase['ally']})" if purchase.get("ally") else ""
        return f"Raise an army{ally} {at}"
    if purchase["build"] == PurchaseKind.CAPITAL:
        return f"Name {names.place(purchase['hex'])} the new capital"
    if purchase["build"] == PurchaseKind.SHIP:
        return f"Build a ship {at}"
    if purchase["build"] == PurchaseKind.VILLAGE:
        return f"Build a village, {names.settlement(purchase['hex'])}, {at}"
    if purchase.get("to") is not None:  # a build between two tiles: a road (option OW9)
        ends = (names.place(purchase[k], picking=True) for k in ("hex", "to"))
        return f"Build a {purchase['build']} from {next(ends)} to {next(ends)}"
    return f"Build a {purchase['build']} {at}"


def _as_input(described: Mapping[str, Any]) -> Mapping[str, Any]:
    """A skipped purchase as the event describes it, in the shape of an input."""
    kind = described["kind"]
    if kind == PurchaseKind.DISBAND:
        return {"disband": described.get("army")}
    if kind == PurchaseKind.QUEST:
        return {"quest": described["hex"], "hero": described["hero"], "points": described["points"]}
    if kind == PurchaseKind.ARMY:
        return {"recruit": "army", "hex": described["hex"], "ally": described.get("ally")}
    return {"build": kind, **{k: described[k] for k in ("hex", "to") if k in described}}


# --- The table: every event type's words --------------------------------------------------------

CORE_WORDINGS: Mapping[EventType, Wording] = {
    EventType.RACES_REVEALED: Wording(_races_revealed),
    EventType.ROLL_OFF: Wording(_roll_off),
    EventType.PLAYER_ORDER: Wording(_player_order),
    EventType.CAPITAL_FOUNDED: Wording(_capital_founded),
    EventType.SETTLEMENTS_PLACED: Wording(_settlements_placed),
    EventType.ARMY_PLACED: Wording(_army_placed),
    EventType.MOVED: Wording(_moved),
    EventType.EXPLORED: Wording(_explored),
    EventType.TILE_TAKEN: Wording(_tile_taken),
    EventType.CAPITAL_LOST: Wording(_capital_lost),
    EventType.RAZE_NOTHING_LEFT: Wording(unit_at("{unit} found nothing left to raze {at}.")),
    EventType.RAZE_FAILED: Wording(_raze_failed),
    EventType.RAZED: Wording(_razed),
    EventType.DEFENDED: Wording(_defended),
    EventType.REGROUPED: Wording(unit_at("{unit} regrouped {at} and stands upright.")),
    EventType.STAYED: Wording(unit_at("{unit} stayed {at}.")),
    EventType.ARMY_LANDED: Wording(_army_landed),
    EventType.ARMY_BOARDED: Wording(_army_boarded),
    EventType.SLOWED_BY_TERRAIN: Wording(_slowed),
    EventType.BATTLE: Wording(_battle),
    EventType.BATTLE_RESTATED: Wording(_battle_restated),
    EventType.STRATEGY_LEARNED: Wording(_strategy_learned),
    EventType.RETREATED: Wording(_retreated),
    EventType.DESTROYED: Wording(_destroyed),
    EventType.RECALLED: Wording(_recalled, own=_came_home),
    EventType.SUPPLY_LOST: Wording(_supply_lost, own=_cut_off),
    EventType.SHIP_LOST: Wording(_ship_lost, own=_found_no_port),
    EventType.SHIP_DOCKED: Wording(_ship_docked, own=_docked),
    EventType.ELIMINATED: Wording(_eliminated),
    EventType.GATHERED: Wording(_gathered, own=_gathered_own),
    EventType.TITHE: Wording(_tithe, own=_gives),
    EventType.PURCHASE_SKIPPED: Wording(_purchase_skipped, own=_skipped),
    EventType.DISBANDED: Wording(_disbanded, own=_is_disbanded),
    EventType.RECRUITED: Wording(_recruited, own=_is_raised),
    EventType.SHIP_BUILT: Wording(_ship_built, own=_ship_is_built),
    EventType.CAPITAL_NAMED: Wording(_capital_named, own=_becomes_capital),
    EventType.BUILT: Wording(_built, own=_is_built),
    EventType.RESOURCES_LOST: Wording(_resources_lost, own=_left_unspent),
    EventType.STARVED: Wording(_starved, own=_goes_hungry),
    EventType.NO_ROOM: Wording(_no_room, own=_finds_no_room),
    EventType.DEPLOYED: Wording(_deployed, own=_deploys),
    EventType.CAMPAIGN_ENDED: Wording(_campaign_ended),
    EventType.DEADLINE_DEFAULT: Wording(_deadline_default),
}
# Each optional rule words its own events (campaign.display.optional).
WORDINGS: Mapping[EventType, Wording] = {**CORE_WORDINGS, **OPTIONS_WORDINGS}
# The types a kingdom's winter page tells in its own words.
OWN_WORDS = frozenset(t for t, wording in WORDINGS.items() if wording.own is not None)
# The types of no kingdom's that every kingdom's winter page tells (the year's die).
EVERYONES_WORDS = frozenset(t for t, wording in WORDINGS.items() if wording.everyone)


def describe(event: Event, names: Names, *, voice: Voice = Voice.TOLD) -> Line:
    """One event in words, as `voice` tells it. A battle told alone is not matched to its
    entry of the battles list: the report and the chronicle word a chapter at a time
    (`chapter_lines`)."""
    return Describer(names, (), WORDINGS, voice).line(event)


def chapter_lines(
    events: Sequence[Event],
    battles: Sequence[object],
    names: Names,
    *,
    types: Collection[str] | None = None,
) -> list[tuple[Event, Line]]:
    """Each event of one chapter, oldest first, with its line as told to everyone (with
    `types`, only the events of those types: the chronicle words only what it tells).
    `events` must be every event of the chapter: a resolved battle is matched to its entry
    of `battles` (the file's battles list) by its place among the chapter's battles in its
    tile, so battles are worded all or none."""
    describer = Describer(names, battles, WORDINGS)
    return [
        (event, describer.line(event))
        for event in events
        if types is None or event.get("type") in types
    ]
