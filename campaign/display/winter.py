"""A winter in words, for the kingdom planning it: what recall and the harvest did
(the ledger), what each choice it has listed would do (the forecast, from a trial run
of the engine with the other kingdoms giving and buying nothing), and its purchases in
words. Pure: campaign files in, sentences out."""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from campaign.display.report import QUEST_OUTCOMES
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import hex_label

type Json = dict[str, Any]


def at(hex_: list[int]) -> str:
    return hex_label((hex_[0], hex_[1]))


def purchase_words(purchase: Json) -> str:
    """A purchase of the campaign file, as a player reads it."""
    if "disband" in purchase:
        return f"Disband {purchase['disband']}"
    if "quest" in purchase:  # option wizards (OA6)
        return (
            f"Send {purchase['hero']} ({purchase['points']} points) on a quest to the Wizard's "
            f"tower at {at(purchase['quest'])}"
        )
    if "recruit" in purchase:
        ally = f" (allied: {purchase['ally']})" if purchase.get("ally") else ""
        return f"Raise an army{ally} at {at(purchase['hex'])}"
    if purchase["build"] == "capital":
        return f"Name {at(purchase['hex'])} the new capital"
    if purchase["build"] == "ship":
        return f"Build a ship at {at(purchase['hex'])}"
    return f"Build a {purchase['build']} at {at(purchase['hex'])}"


def ledger(data: Json, kingdom: str, names: Mapping[str, str]) -> list[str]:
    """What this winter has done to the kingdom so far: armies brought home or cut off,
    ships docked or lost, gold and food gathered, tithes given and received, purchases
    made or skipped, armies gone hungry, what was lost unspent."""
    clock = data["clock"]
    lines = []
    for event in data.get("events", []):
        if (event["season"], event["year"]) != ("winter", clock["year"]):
            continue
        mine = event.get("kingdom") == kingdom
        kind = event["type"]
        if kind == "recalled" and mine:
            lines.append(
                f"{event['army']} came home from {at(event['from'])} to {at(event['to'])}."
            )
        elif kind == "supply-lost" and mine:
            lines.append(
                f"{event['army']} at {at(event['hex'])} was cut off from the capital and lost."
            )
        elif kind == "ship-docked" and mine:
            lines.append(f"{event['ship']} docked at {at(event['hex'])}.")
        elif kind == "ship-lost" and mine:
            lines.append(f"{event['ship']} found no port and was lost.")
        elif kind == "gathered" and mine:
            lines.append(
                f"Gathered {event['gold']} gold and {event['food']} food{_tile_by_tile(event)}."
            )
        elif kind == "resources-lost" and mine:
            lines.append(
                f"{event['gold']} gold and {event['food']} food were left unspent, and lost."
            )
        elif kind in FORECAST_EVENTS and (mine or event.get("to") == kingdom):
            lines.append(event_line(event, names))
    return lines


def _tile_by_tile(gathered: Json) -> str:
    """Where a harvest came from ("" for an event recorded before the engine told it)."""
    parts = [
        f"{at(y['hex'])} {y['gold']} gold" if y["gold"] else f"{at(y['hex'])} {y['food']} food"
        for y in gathered.get("tiles", [])
    ]
    return f": {', '.join(parts)}" if parts else ""


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


FORECAST_EVENTS = {
    "tithe", "built", "recruited", "ship-built", "capital-named", "disbanded",
    "purchase-skipped", "starved", "no-room", "deployed", "quest",
}  # fmt: skip


def forecast(
    data: Json, kingdom: str, kind: str, payload: Any, names: Mapping[str, str]
) -> Forecast:
    trial = {**data, "inputs": {**data.get("inputs", {}), kind: {kingdom: payload}}}
    try:
        after = advance(trial, defaults=True)
    except RuleError as error:
        return Forecast([], (0, 0), 0, 0, 0, 0, refused=error.message)
    events = after["events"][len(data.get("events", [])) :]
    lines = [
        event_line(e, names, foreseen=True)
        for e in events
        if e["type"] in FORECAST_EVENTS and (e.get("kingdom") == kingdom or e.get("to") == kingdom)
    ]
    if kind == "deploy":
        lines += placed_artefacts(after, kingdom)
    lost = next(
        (e for e in events if e["type"] == "resources-lost" and e["kingdom"] == kingdom), None
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


def event_line(event: Json, names: Mapping[str, str], *, foreseen: bool = False) -> str:
    """A winter event of a kingdom's, as a forecast (`foreseen`) or a ledger tells it. A
    forecast never tells a die that is still to be rolled: a quest's outcome is its die's."""
    kind = event["type"]
    if kind == "quest":
        went = f"{event['hero']} goes on a quest to the Wizard's tower at {at(event['tower'])}"
        if foreseen:
            return f"{went}: a die decides what he finds."
        found = (
            f"finds {event['artefact']}"
            if event.get("artefact")
            else QUEST_OUTCOMES[event["outcome"]]
        )
        return f"{went}: {event['result']}, {found}."
    if kind == "tithe":
        giver, to = (
            names.get(event["kingdom"], event["kingdom"]),
            names.get(event["to"], event["to"]),
        )
        return f"{giver} gives {to} {event['gold']} gold and {event['food']} food."
    if kind == "built":
        return f"A {event['settlement']} is built at {at(event['hex'])}."
    if kind == "recruited":
        return f"{event['army']} is raised at {at(event['hex'])}."
    if kind == "ship-built":
        return f"{event['ship']} is built at {at(event['hex'])}."
    if kind == "capital-named":
        return f"{at(event['hex'])} becomes the capital."
    if kind == "disbanded":
        return f"{event['army']} is disbanded."
    if kind == "purchase-skipped":
        return f"Skipped: {purchase_words(_as_input(event['purchase']))}: {event['reason']}"
    if kind == "starved":
        return f"{event['army']} goes hungry and is lost."
    if kind == "no-room":
        return f"{event['army']} finds no room to deploy and is lost."
    return f"{event['army']} deploys at {at(event['hex'])}."


def placed_artefacts(data: Json, kingdom: str) -> list[str]:
    """Option wizards (OA9): where each of the kingdom's artefacts sits, for its own
    player's eyes only."""
    lines = []
    for artefact in data.get("artefacts") or []:
        holder = artefact["holder"] or {}
        if holder.get("kingdom") == kingdom:
            where = f"on army {holder['army']}" if holder.get("army") else "at your capital"
            lines.append(f"{artefact['name']} {where}.")
    return lines


def _as_input(described: Json) -> Json:
    """A skipped purchase as the event describes it, in the shape of an input."""
    kind = described["kind"]
    if kind == "disband":
        return {"disband": described.get("army")}
    if kind == "quest":
        return {"quest": described["hex"], "hero": described["hero"], "points": described["points"]}
    if kind == "army":
        return {"recruit": "army", "hex": described["hex"], "ally": described.get("ally")}
    return {"build": kind, "hex": described["hex"]}


def _after_tithes(data: Json, kingdom: str, events: list[Json]) -> tuple[int, int]:
    """The kingdom's purse once the tithes of the trial were made."""
    purse = next(k for k in data["kingdoms"] if k["id"] == kingdom)
    gold, food = purse["gold"], purse["food"]
    for event in events:
        if event["type"] != "tithe":
            continue
        sign = -1 if event["kingdom"] == kingdom else 1 if event["to"] == kingdom else 0
        gold, food = gold + sign * event["gold"], food + sign * event["food"]
    return gold, food
