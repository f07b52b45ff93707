"""A winter in words, for the kingdom planning it: what recall and the harvest did
(the ledger), what each choice it has listed would do (the forecast, from a trial run
of the engine with the other kingdoms giving and buying nothing), and its purchases in
words, its places and units by their names (`Names`). Pure: campaign files in, sentences
out."""

from dataclasses import dataclass
from typing import Any

from campaign.display.report import QUEST_OUTCOMES
from campaign.gazetteer import Names
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.words import capitalised

type Json = dict[str, Any]


def purchase_words(purchase: Json, names: Names) -> str:
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
    if purchase["build"] == "capital":
        return f"Name {names.place(purchase['hex'])} the new capital"
    if purchase["build"] == "ship":
        return f"Build a ship {at}"
    if purchase["build"] == "village":
        return f"Build a village, {names.settlement(purchase['hex'])}, {at}"
    return f"Build a {purchase['build']} {at}"


def ledger(data: Json, kingdom: str, names: Names) -> list[str]:
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
            came = names.route(event["from"], event["to"])
            lines.append(f"{names.unit(event['army'])} came home {came}.")
        elif kind == "supply-lost" and mine:
            lines.append(
                f"{names.unit(event['army'])} {names.at(event['hex'])} was cut off from the "
                "capital and lost."
            )
        elif kind == "ship-docked" and mine:
            lines.append(f"{names.unit(event['ship'])} docked {names.at(event['hex'])}.")
        elif kind == "ship-lost" and mine:
            lines.append(f"{names.unit(event['ship'])} found no port and was lost.")
        elif kind == "gathered" and mine:
            tiles = _tile_by_tile(event, names)
            lines.append(f"Gathered {event['gold']} gold and {event['food']} food{tiles}.")
        elif kind == "resources-lost" and mine:
            lines.append(
                f"{event['gold']} gold and {event['food']} food were left unspent, and lost."
            )
        elif kind in FORECAST_EVENTS and (mine or event.get("to") == kingdom):
            lines.append(event_line(event, names))
    return [capitalised(line) for line in lines]  # a unit's name may begin it


def _tile_by_tile(gathered: Json, names: Names) -> str:
    """Where a harvest came from ("" for an event recorded before the engine told it)."""
    parts = [
        f"{names.place(y['hex'])} {y['gold']} gold"
        if y["gold"]
        else f"{names.place(y['hex'])} {y['food']} food"
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


def forecast(data: Json, kingdom: str, kind: str, payload: Any, names: Names) -> Forecast:
    trial = {**data, "inputs": {**data.get("inputs", {}), kind: {kingdom: payload}}}
    try:
        after = advance(trial, defaults=True)
    except RuleError as error:
        return Forecast([], (0, 0), 0, 0, 0, 0, refused=names.said(error.message))
    events = after["events"][len(data.get("events", [])) :]
    names = names.seeing(events)  # the settlements the list would build, by their names
    lines = [
        capitalised(event_line(e, names, foreseen=True))
        for e in events
        if e["type"] in FORECAST_EVENTS and (e.get("kingdom") == kingdom or e.get("to") == kingdom)
    ]
    if kind == "deploy":
        lines += placed_artefacts(after, kingdom, names)
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


def event_line(event: Json, names: Names, *, foreseen: bool = False) -> str:
    """A winter event of a kingdom's, as a forecast (`foreseen`) or a ledger tells it. A
    forecast never tells a die that is still to be rolled: a quest's outcome is its die's."""
    kind = event["type"]
    if kind == "quest":
        went = f"{event['hero']} goes on a quest to the Wizard's tower {names.at(event['tower'])}"
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
        return f"A {event['settlement']} is built at {names.settlement(event['hex'])}."
    if kind == "recruited":
        return f"{names.unit(event['army'])} is raised {names.at(event['hex'])}."
    if kind == "ship-built":
        return f"{names.unit(event['ship'])} is built {names.at(event['hex'])}."
    if kind == "capital-named":
        return f"{names.place(event['hex'])} becomes the capital."
    if kind == "disbanded":
        return f"{names.unit(event['army'])} is disbanded."
    if kind == "purchase-skipped":
        said = purchase_words(_as_input(event["purchase"]), names)
        return f"Skipped: {said}: {names.said(str(event['reason']))}"
    if kind == "starved":
        return f"{names.unit(event['army'])} goes hungry and is lost."
    if kind == "no-room":
        return f"{names.unit(event['army'])} finds no room to deploy and is lost."
    return f"{names.unit(event['army'])} deploys {names.at(event['hex'])}."


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
