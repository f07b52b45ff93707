"""Bot players: random legal decisions for whatever a campaign file waits for.

Used by the simulator and the property tests. A bot only reads the campaign file and
writes `inputs`; the engine's entry point does everything else.
"""

import random
from collections.abc import Mapping
from typing import Any

from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import Hex, Terrain
from campaign.rules.state import Army, Campaign, Ship, Unit

type JsonDict = dict[str, Any]


def decide(data: Mapping[str, Any], rng: random.Random) -> JsonDict:
    """The campaign file with bot decisions for everything in its `pending`."""
    campaign = parse_campaign(data)
    inputs: JsonDict = dict(data.get("inputs") or {})
    for pending in data.get("pending") or []:
        kind, kingdom = pending["kind"], pending["kingdom"]
        if kind == "orders":
            orders = _orders(campaign, kingdom, pending["units"], rng)
            given = list(inputs.get("orders", {}).get(kingdom, []))
            inputs.setdefault("orders", {})[kingdom] = given + orders
        elif kind in ("race", "capital", "settlements", "starting_army", "battle_choice"):
            _choose(inputs, kind, kingdom, pending, rng)
        elif kind == "battle_result":
            _report(inputs, pending["hex"], kingdom, campaign, rng)
        elif kind == "last_stand":
            entry = {
                "hex": pending["hex"],
                "last_stand" if rng.random() < 0.5 else "concede": kingdom,
            }
            inputs.setdefault("battles", []).append(entry)
        elif kind == "retreat":
            inputs.setdefault("retreats", {})[pending["unit"]] = rng.choice(pending["choices"])
    return {**data, "inputs": inputs}


def _choose(
    inputs: JsonDict, kind: str, kingdom: str, pending: Mapping[str, Any], rng: random.Random
) -> None:
    choices = list(pending.get("choices", []))
    if kind == "race":
        inputs.setdefault("races", {})[kingdom] = rng.choice(
            ["Elves", "Dwarfs", "Orcs", "Undead", "Basileans"]
        )
    elif kind == "capital":
        inputs.setdefault("capitals", {})[kingdom] = rng.choice(choices)
    elif kind == "settlements":
        sites = rng.sample(choices, 4)
        plan = {"city": sites[0], "fortress": sites[1], "villages": sites[2:]}
        inputs.setdefault("settlements", {})[kingdom] = plan
    elif kind == "starting_army":
        inputs.setdefault("starting_armies", {})[kingdom] = rng.choice(choices)
    elif kind == "battle_choice":
        inputs.setdefault("battle_choices", {})[kingdom] = [rng.choice(choices)]


def _report(
    inputs: JsonDict, hex_: object, kingdom: str, campaign: Campaign, rng: random.Random
) -> None:
    battles = inputs.setdefault("battles", [])
    if any(entry["hex"] == hex_ for entry in battles):
        return
    roll = rng.random()
    if roll < 0.15:
        battles.append({"hex": hex_, "result": "draw"})
    elif roll < 0.9:
        battle = next(b for b in reversed(campaign.battles) if list(b.hex) == hex_)
        winner = rng.choice([battle.attacker, battle.defender])
        battles.append({"hex": hex_, "result": "win", "winner": winner})
    else:
        battles.append({"hex": hex_, "resolve": "simple"})


def _orders(
    campaign: Campaign, kingdom: str, units: list[str], rng: random.Random
) -> list[JsonDict]:
    orders: list[JsonDict] = []
    boarded: set[str] = set()
    for unit_id in units:
        if unit_id in boarded:
            continue
        unit: Unit = campaign.armies.get(unit_id) or campaign.ships[unit_id]
        order = _order_for(campaign, unit, boarded, rng)
        orders.append(order)
    # An army that boards has no order of its own.
    return [o for o in orders if o["unit"] not in boarded]


def _order_for(campaign: Campaign, unit: Unit, boarded: set[str], rng: random.Random) -> JsonDict:
    if not unit.upright:
        order: JsonDict = {"unit": unit.id, "order": "regroup"}
        if isinstance(unit, Ship) and unit.carrying:
            order["carry"] = unit.carrying
        return order
    moves = _moves(campaign, unit)
    options = ["move"] * 4 if moves else []
    if campaign.settlement(unit.hex) is not None and rng.random() < 0.1:
        options.append("raze")
    if isinstance(unit, Army):
        options.append("defend")
        kind = rng.choice(options)
    else:
        kind = rng.choice([*options, "stay"])
    order = {"unit": unit.id, "order": kind}
    if kind == "move":
        order["to"] = list(rng.choice(moves))
    if isinstance(unit, Ship):
        carry = unit.carrying or _boarder(campaign, unit, boarded)
        on_ocean = campaign.map.tiles[unit.hex].terrain is Terrain.OCEAN
        if carry and (on_ocean or rng.random() < 0.8):
            order["carry"] = carry
            boarded.add(carry)
    return order


def _moves(campaign: Campaign, unit: Unit) -> list[Hex]:
    hexmap = campaign.map
    if isinstance(unit, Ship):
        return [h for h in hexmap.neighbours(unit.hex) if hexmap.ship_may_move(unit.hex, h)]
    return [h for h in hexmap.neighbours(unit.hex) if hexmap.army_may_move(unit.hex, h)]


def _boarder(campaign: Campaign, ship: Ship, boarded: set[str]) -> str | None:
    for army in campaign.armies.values():
        if (
            army.kingdom == ship.kingdom
            and army.hex == ship.hex
            and army.upright
            and army.id not in boarded
            and campaign.carrier_of(army.id) is None
        ):
            return army.id
    return None
