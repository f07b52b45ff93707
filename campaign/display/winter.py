"""A winter in words, for the kingdom planning it: what recall and the harvest did
(the ledger), what each choice it has listed would do (the forecast, from a trial run
of the engine with the other kingdoms giving and buying nothing), and its purchases in
words, its places and units by their names (`Names`). Pure: campaign files in, sentences
out."""

from dataclasses import dataclass
from typing import Any

from campaign.display.describing import Voice
from campaign.display.events import EVERYONES_WORDS, OWN_WORDS, describe
from campaign.display.events import purchase_words as purchase_words  # the winter board's
from campaign.gazetteer import Names
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.state import PendingKind, Season
from campaign.rules.vocabulary import EventType

type Json = dict[str, Any]


def ledger(data: Json, kingdom: str, names: Names) -> list[str]:
    """What this winter has done to the kingdom so far: armies brought home or cut off,
    ships docked or lost, gold and food gathered, tithes given and received, purchases
    made or skipped, armies gone hungry, what was lost unspent."""
    this_winter = (Season.WINTER, data["clock"]["year"])
    return [
        event_line(event, names)
        for event in data.get("events", [])
        if (event["season"], event["year"]) == this_winter
        and event["type"] in OWN_WORDS
        and (event.get("kingdom") == kingdom or event.get("to") == kingdom)
    ]


def news(data: Json, names: Names) -> list[str]:
    """What this winter has brought every kingdom, told first on each kingdom's winter
    page (an optional rule's event of no kingdom's: the year's die, OW15)."""
    this_winter = (Season.WINTER, data["clock"]["year"])
    return [
        event_line(event, names)
        for event in data.get("events", [])
        if (event["season"], event["year"]) == this_winter and event["type"] in EVERYONES_WORDS
    ]


@dataclass(frozen=True)
class Forecast:
    """What the kingdom's list would do, as the engine plays the rest of the winter with
    the other kingdoms giving and buying nothing and the deadline defaults after."""

    lines: list[str]
    after_tithes: tuple[int, int]  # the kingdom's gold and food once the tithes are made
    gold_left: int
    food_left: int
    armies: int
    might: int
    refused: str = ""  # the engine's refusal of the list, if any


# The events of the trial run that the forecast tells, in the kingdom's own words.
FORECAST_EVENTS = frozenset(
    {
        EventType.TITHE,
        EventType.BUILT,
        EventType.RECRUITED,
        EventType.SHIP_BUILT,
        EventType.CAPITAL_NAMED,
        EventType.DISBANDED,
        EventType.PURCHASE_SKIPPED,
        EventType.STARVED,
        EventType.NO_ROOM,
        EventType.DEPLOYED,
        EventType.QUEST,
        EventType.ROAD_BUILT,
    }
)


def without_story(data: Json, inputs: Json) -> Json:
    """The campaign file with `inputs` and without its events, for a trial or a reading of
    a winter plan: the engine never reads the events a file holds (it only adds to them:
    tests/rules/test_engine_reads_no_events.py), and a long campaign's story would be most
    of what reading and writing the file costs."""
    return {**data, "events": [], "inputs": inputs}


def forecast(data: Json, kingdom: str, kind: str, payload: Any, names: Names) -> Forecast:
    inputs = {**data.get("inputs", {}), kind: {kingdom: payload}}
    try:  # the trial's events are the new ones alone
        after = advance(without_story(data, inputs), defaults=True)
    except RuleError as error:
        return Forecast([], (0, 0), 0, 0, 0, 0, refused=names.said(error.message))
    events = after["events"]
    names = names.seeing(events)  # the settlements the list would build, by their names
    lines = [
        event_line(e, names, foreseen=True)
        for e in events
        if e["type"] in FORECAST_EVENTS and (e.get("kingdom") == kingdom or e.get("to") == kingdom)
    ]
    if kind == PendingKind.DEPLOY:
        lines += placed_artefacts(after, kingdom, names)
    lost = next(
        (e for e in events if e["type"] == EventType.RESOURCES_LOST and e["kingdom"] == kingdom),
        None,
    )
    score = next((s for s in after["scores"] if s["kingdom"] == kingdom), {"might": 0, "armies": 0})
    return Forecast(
        lines=lines,
        after_tithes=_after_tithes(data, kingdom, events),
        gold_left=lost["gold"] if lost else 0,
        food_left=lost["food"] if lost else 0,
        armies=score["armies"],
        might=score["might"],
    )


def event_line(event: Json, names: Names, *, foreseen: bool = False) -> str:
    """A winter event of a kingdom's, as its forecast (`foreseen`) or its ledger tells it
    (`campaign.display.events`, in the kingdom's own words)."""
    return describe(event, names, voice=Voice.FORECAST if foreseen else Voice.LEDGER).text


def placed_artefacts(data: Json, kingdom: str, names: Names) -> list[str]:
    """Option wizards (OA9): where each of the kingdom's artefacts sits, for its own
    player's eyes only."""
    lines = []
    for artefact in data.get("artefacts") or []:
        holder = artefact["holder"] or {}
        if holder.get("kingdom") == kingdom:
            where = f"on {names.unit(holder['army'])}" if holder.get("army") else "at your capital"
            lines.append(f"{artefact['name']} {where}.")
    return lines


def _after_tithes(data: Json, kingdom: str, events: list[Json]) -> tuple[int, int]:
    """The kingdom's purse once the tithes of the trial were made."""
    purse = next(k for k in data["kingdoms"] if k["id"] == kingdom)
    gold, food = purse["gold"], purse["food"]
    for event in events:
        if event["type"] != EventType.TITHE:
            continue
        sign = -1 if event["kingdom"] == kingdom else 1 if event["to"] == kingdom else 0
        gold, food = gold + sign * event["gold"], food + sign * event["food"]
    return gold, food
