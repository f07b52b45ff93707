"""What the battle card shows: the two sides, the table, the scenario and how it is won,
the Battlefields condition, the defender's benefit, the strategy cards, the set-up steps,
and what each result would do to the campaign. The last is asked of the rules engine (a
trial advance with that result), never worked out again here."""

import copy
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from battles.models import Battle
from campaign.display.optional import card_parts
from campaign.display.optional.card import CardPart, Fact, Fought, Note
from campaign.gazetteer import Names
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.state import HORDE, BattleStatus, PendingKind
from campaign.rules.vocabulary import EventType
from campaign.words import capitalised, joined

type Json = dict[str, Any]


def tile_words(data: Json, hex_: list[int], names: Names) -> str:
    """A tile as a player picking a retreat reads it: `Harrowby: forest, a village of
    Brightwater`, `the Greywood: forest, held by Brightwater`."""
    terrain: Json = next((t for t in data["map"]["tiles"] if t["hex"] == hex_), {})
    held = next((t for t in data["tiles"] if t["hex"] == hex_), None)
    words = [terrain.get("terrain", "unknown")]
    words += [flag for flag in ("river", "coast") if terrain.get(flag)]
    if held is not None:
        owner = names.get(held["owner"], held["owner"])
        words.append(
            f"a {held['settlement']} of {owner}" if held["settlement"] else f"held by {owner}"
        )
    return f"{names.place(hex_, picking=True)}: {', '.join(words)}"


KINDS = {
    "pitched": "a pitched battle, played at the tabletop",
    "simple": "a simple land battle, settled by dice (ruling B7)",
    "slaughter": "a slaughter of disordered troops (ruling B5)",
    "naval": "a naval battle (ruling B8)",
    "land_water": "a land/water battle (ruling B9)",
    "concession": "conceded (ruling B4)",
}

# Scenarios won on points by a margin of 10% of the game size (kings-of-war.md).
MARGIN_SCENARIOS = {"Kill!", "Invade!", "Dominate!", "Kill and Pillage!"}


@dataclass(frozen=True)
class SideView:
    kingdom: str
    name: str
    player: str
    role: str  # "attacker" or "defender"
    stance: str  # how the card names its part: "picked this battle", "besieged in its fortress"
    armies: list[str]
    ships: list[str]
    points: int
    strategy_cards: int
    defending: bool
    notes: tuple[Note, ...] = ()  # the options' lines under it, each citing its rulings
    reckoning: Note | None = None  # how an option counted its strategy cards


@dataclass(frozen=True)
class Outcome:
    """What one result would do: its title and a line for each change."""

    title: str
    changes: list[str]


def parts_of(battle: Battle) -> list[CardPart]:
    """The parts of the card the optional rules of the battle's campaign add to it."""
    return card_parts(battle.campaign.options)


def fought(battle: Battle, names: Mapping[str, str]) -> Fought:
    """The battle as the options' parts of the card read it."""
    return Fought(battle.sides, battle.details, tabletop=bool(battle.board), names=names)


def sides(battle: Battle, names: Names, players: dict[str, str]) -> list[SideView]:
    parts, seen = parts_of(battle), fought(battle, names)
    return [
        SideView(
            kingdom=side["kingdom"],
            name=names.get(side["kingdom"], side["kingdom"]),
            player=players.get(side["kingdom"], "nobody"),
            role="attacker" if side["kingdom"] == battle.attacker else "defender",
            stance=stance_of(battle, side["kingdom"]),
            armies=[names.short(army) for army in side["armies"]],
            ships=[names.short(ship) for ship in side["ships"]],
            points=side["points"],
            strategy_cards=side["strategy_cards"],
            defending=side["defending"],
            notes=tuple(
                note for part in parts if part.side_note and (note := part.side_note(seen, side))
            ),
            reckoning=next(
                (r for part in parts if part.reckoning and (r := part.reckoning(seen, side))),
                None,
            ),
        )
        for side in battle.sides
    ]


def stance_of(battle: Battle, kingdom: str) -> str:
    """A side's part, as the card names it: as an option turned on names it (a siege's
    besieged and the side assaulting its walls, whichever of them picked the battle, B2);
    otherwise the side that picked it."""
    seen = fought(battle, {})
    for part in parts_of(battle):
        stance = part.stance(seen, kingdom) if part.stance else None
        if stance is not None:
            return stance
    return "picked this battle" if kingdom == battle.attacker else ""


def in_place_of_benefit(battle: Battle, names: Mapping[str, str]) -> Fact | None:
    """What stands in place of the defender's benefit, if an option turned on puts
    something there for this battle (a siege's works)."""
    seen = fought(battle, names)
    return next(
        (
            fact
            for part in parts_of(battle)
            if part.instead_of_benefit and (fact := part.instead_of_benefit(seen))
        ),
        None,
    )


def game_size(battle: Battle) -> int:
    """The points of the larger side: they size the table and a scenario's margin. Each
    side's list is of at most its own points (kings-of-war.md: a side brings 500 for each of
    its upright armies)."""
    return max((side["points"] for side in battle.sides), default=0)


def _lists_step(battle: Battle, names: Mapping[str, str]) -> str:
    """Picking the lists: each side's of at most its own points."""
    points = {side["points"] for side in battle.sides}
    if len(points) == 1:
        return (
            f"Both players pick lists of up to {game_size(battle):,} points (a list may cost less)."
        )
    each = ", ".join(
        f"{names.get(side['kingdom'], side['kingdom'])} up to {side['points']:,}"
        for side in battle.sides
    )
    return (
        f"Each player picks a list of at most their side's points: {each} (a list may cost less)."
    )


def margin(battle: Battle) -> int | None:
    """The lead a side needs to win this scenario (10% of the game size), if it has one."""
    return game_size(battle) // 10 if battle.scenario in MARGIN_SCENARIOS else None


def setup_steps(battle: Battle, names: Mapping[str, str]) -> list[str]:
    """Setting up the game, in order (kings-of-war.md), with this battle's own facts; none
    for a battle not played at the tabletop."""
    if not battle.board:
        return []
    defending = [names.get(s["kingdom"], s["kingdom"]) for s in battle.sides if s["defending"]]
    parts = parts_of(battle)
    steps = [
        *(step for part in parts for step in part.first_steps),
        _lists_step(battle, names),
        "Set up a table {} feet by {} feet.".format(*battle.board.split("x")),
        f"The scenario is {battle.scenario}: place its objectives or loot when the rules say.",
        "Place terrain together: blocking, difficult, obstacles, decorative; agree heights.",
    ]
    if battle.condition and battle.condition != "Clear Conditions":
        drawn = (
            ""
            if all(p.draws_condition for p in parts)
            else " (the tile's roll chose it: it is not drawn)"
        )
        steps.append(f"Put the Battlefields condition card {battle.condition} in play{drawn}.")
    strategies = [
        f"{names.get(s['kingdom'], s['kingdom'])} draws {s['strategy_cards']}"
        for s in battle.sides
        if s["strategy_cards"]
    ]
    if strategies:
        steps.append("Draw Battlefields strategy cards: " + "; ".join(strategies) + ".")
    steps.append("Roll off: the winner picks a long table edge.")
    instead = in_place_of_benefit(battle, names)
    if instead:
        steps.append(f"Before the first unit is deployed: {instead.note.text}")
    elif defending and battle.defender_benefit:
        steps.append(
            f"Before the first unit is deployed, {', '.join(defending)} (defending) adjusts "
            "the table: see the defender's benefit."
        )
    steps += [step for part in parts for step in part.before_deployment]
    steps += [
        'Deploy alternately, more than 12" from the centre line.',
        "Vanguard moves, then roll off for the first turn.",
        "Play 12 turns (6 each); at the end of turn 12 roll a die: on 4, 5 or 6, one more turn each.",
        "Report the result here; your opponent confirms it.",
    ]
    return steps


def outcomes(data: Json, battle: Battle, names: Names) -> list[Outcome]:
    """What a win for each side, and a draw, would do to the campaign, as the engine
    would apply it now. Empty for a battle that is settled."""
    if not battle.awaiting:
        return []
    results = [("win", k, f"If {names.get(k, k)} wins") for k in battle.kingdoms]
    return [
        Outcome(title, _changes(data, battle, result, winner, names))
        for result, winner, title in [*results, ("draw", "", "If it is a draw")]
    ]


def _changes(data: Json, battle: Battle, result: str, winner: str, names: Names) -> list[str]:
    entry: Json = {"hex": battle.hex, "result": result, **({"winner": winner} if winner else {})}
    earlier = _awaiting_before(data, battle)
    units = {u for side in battle.sides for u in (*side["armies"], *side["ships"])}
    after = _tried(data, [*({"hex": h, "result": "draw"} for h in earlier), entry], units)
    if isinstance(after, RuleError) and earlier:
        after = _tried(data, [entry], units)  # the earlier can't end in a draw: as it stands
    if isinstance(after, RuleError):
        return [f"The rules would refuse it: {names.said(after.message)}"]
    own = _resolved_in(after, data, battle)
    if own is None:
        return ["It is applied once the battles picked before it are settled (ruling B11)."]
    events = after["events"][len(data["events"]) :]
    following = events[events.index(own) + 1 :]
    said = _describe(following, after, battle, winner, names)
    if earlier:
        said.insert(0, f"Once the battles picked before it are settled ({B11}), as they leave it:")
    return said


B11 = "ruling B11"


def _awaiting_before(data: Json, battle: Battle) -> list[list[int]]:
    """The tiles of the battles of its month awaiting their results that were picked before
    it (ruling B11: results are applied in picking order)."""
    awaiting = [
        b["hex"]
        for b in data.get("battles", [])
        if b["status"] == BattleStatus.AWAITING_RESULT
        and (b["year"], b["month"]) == (battle.year, battle.month)
    ]
    return awaiting[: awaiting.index(battle.hex)] if battle.hex in awaiting else []


def _tried(data: Json, entries: list[Json], own: set[str]) -> Json | RuleError:
    """The engine's answer to the file with these results added, or its refusal; a retreat
    an earlier battle asks of a unit not among `own` is taken to the first tile offered, so
    the trial goes on to the results after it (at most as many times as there are
    battles)."""
    # The engine reads the file without changing it (the services hand it theirs so): only
    # the inputs, which the trial adds to, are copied, not the file's months of events.
    inputs: Json = copy.deepcopy(data.get("inputs", {}))
    inputs.setdefault("battles", []).extend(entries)
    trial = {**data, "inputs": inputs}
    for _ in range(len(data.get("battles", [])) + 1):
        try:
            after: Json = advance(trial)
        except RuleError as error:
            return error
        asked = [
            p
            for p in after.get("pending", [])
            if p["kind"] == PendingKind.RETREAT and p["unit"] not in own
        ]
        if not asked or any(p["unit"] in inputs.get("retreats", {}) for p in asked):
            return after
        inputs.setdefault("retreats", {}).update({p["unit"]: p["choices"][0] for p in asked})
    return after


def _resolved_in(after: Json, data: Json, battle: Battle) -> Json | None:
    """The event of the battle's result among those the engine added to `data`."""
    return next(
        (
            e
            for e in after["events"][len(data["events"]) :]
            if e["type"] == EventType.BATTLE
            and e["hex"] == battle.hex
            and e.get("status") == BattleStatus.RESOLVED
        ),
        None,
    )


def changes(data: Json, battle: Battle, names: Names) -> list[str]:
    """What the battle did to the campaign, from the events that followed it in the file
    of the snapshot that resolved it (`data`); empty if it is not there."""
    events = data.get("events", [])
    mine = [
        i
        for i, e in enumerate(events)
        if e["type"] == EventType.BATTLE and e["hex"] == battle.hex and e.get("status") == BattleStatus.RESOLVED
        and (e["year"], e["month"]) == (battle.year, battle.month)
    ]  # fmt: skip
    if not mine:
        return []
    following = []
    for event in events[mine[-1] + 1 :]:
        if event["type"] in (EventType.BATTLE, EventType.BATTLE_RESTATED):
            break
        following.append(event)
    return _describe(following, data, battle, battle.winner, names)


def _said_by_parts(parts: list[CardPart], event: Json, hex_: list[int], names: Names) -> list[str]:
    """What the options say of an event of their own that follows a battle at `hex_`."""
    said = (part.after_battle(event, hex_, names) for part in parts if part.after_battle)
    return [line for line in said if line]


def _describe(
    events: list[Json], after: Json, battle: Battle, winner: str, names: Names
) -> list[str]:
    """The events that follow a battle's result, in words: the tile, might, retreats,
    losses, strategies; and the retreats still to be chosen in `after`."""
    names = names.seeing(events)
    hex_ = battle.hex
    where = names.place(hex_) if names.is_settlement(hex_) else f"the tile {names.at(hex_)}"
    lines = []
    units = {u for side in battle.sides for u in (*side["armies"], *side["ships"])}
    for event in events:
        if event["type"] == EventType.TILE_TAKEN and event["hex"] == battle.hex:
            lines.append(f"{names.get(event['kingdom'], event['kingdom'])} takes {where}.")
        elif event["type"] == EventType.CAPITAL_LOST and event["hex"] == battle.hex:
            lines.append(f"{names.get(event['kingdom'], event['kingdom'])} loses its capital.")
        elif event["type"] == EventType.RETREATED and event["unit"] in units:
            lying = "" if event["upright"] else ", and lies on its side"
            lines.append(
                f"{names.unit(event['unit'])} retreats to {names.place(event['to'])}{lying}."
            )
        elif event["type"] == EventType.DESTROYED and units & set(event["units"]):
            lost = joined(names.units(event["units"]))
            how = (
                "nowhere to retreat, destroyed" if event.get("why") == "no retreat" else "destroyed"
            )
            lines.append(f"{lost}: {how}.")
        elif said := _said_by_parts(parts_of(battle), event, battle.hex, names):
            lines.extend(said)
        elif event["type"] == EventType.STRATEGY_LEARNED and event["kingdom"] in battle.kingdoms:
            lines.append(f"{names.get(event['kingdom'], event['kingdom'])} learns a new strategy.")
        elif event["type"] == EventType.ARTEFACT_TAKEN and event.get("hex") == battle.hex:
            taker, taken_from = event.get("to"), event["from"]
            lines.append(
                f"{names.get(taker, taker)} takes {event['artefact']} from "
                f"{names.get(taken_from, taken_from)} (option OA10)."
                if taker
                else f"{event['artefact']} goes back to the pool (option OA10)."
            )
    for asked in after.get("pending", []):
        if asked["kind"] == PendingKind.RETREAT and asked.get("unit") in units:
            choices = ", ".join(names.place(h) for h in asked["choices"])
            lines.append(
                f"{names.unit(asked['unit'])} retreats to a tile its player chooses: {choices}."
            )
    if winner and winner != HORDE and battle.kind == "pitched":
        lines.append(
            f"{names.get(winner, winner)} gains 1 might (a pitched battle won on the tabletop)."
        )
    if not winner:
        lines.append("Nobody takes the tile; armies in a tile their kingdom does not hold retreat.")
    return [capitalised(line) for line in lines]  # a unit's name may begin it
