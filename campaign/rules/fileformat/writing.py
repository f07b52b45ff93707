"""Writing the engine's state back as the campaign file (format 1)."""

from collections.abc import Collection
from enum import StrEnum

from campaign.rules import optional
from campaign.rules.combat import natural_key
from campaign.rules.fileformat.reading import FORMAT
from campaign.rules.hexmap import Hex, map_to_json
from campaign.rules.options import OPTIONS
from campaign.rules.state import (
    Allocation,
    Army,
    Battle,
    BattleInput,
    Campaign,
    Inputs,
    Kingdom,
    Options,
    Order,
    Pending,
    Placement,
    Purchase,
    PurchaseKind,
    Ship,
)


def _hex(hex_: Hex | None) -> list[int] | None:
    return None if hex_ is None else [hex_[0], hex_[1]]


def _options_json(options: Options) -> dict[str, object]:
    """Every option by its row; an optional rule (a switch) only when it is on: absent means
    off (campaign-file.md)."""
    written: dict[str, object] = {}
    for row in OPTIONS:
        if row.switch:
            if options.on(row.name):
                written[row.name] = True
            continue
        if row.needs and not options.on(row.needs):
            continue
        value = getattr(options, row.name)
        written[row.name] = str(value) if isinstance(value, StrEnum) else value
    return written


def dump_campaign(campaign: Campaign, scores: list[dict[str, object]]) -> dict[str, object]:
    """The campaign file for this state, with the given live scores."""
    data: dict[str, object] = {
        "format": FORMAT,
        "name": campaign.name,
        "options": _options_json(campaign.options),
        "map": map_to_json(campaign.map),
        "clock": {
            "year": campaign.clock.year,
            "season": str(campaign.clock.season),
            "month": campaign.clock.month,
            "step": str(campaign.clock.step),
        },
        "player_order": list(campaign.player_order),
        "kingdoms": [_dump_kingdom(kingdom, campaign.options) for kingdom in campaign.kingdoms],
        "tiles": [
            {"hex": _hex(h.hex), "owner": h.owner, "settlement": _str(h.settlement)}
            for h in sorted(campaign.tiles.values(), key=lambda h: h.hex)
        ],
        "armies": [
            _dump_army(army, campaign.options) for army in sort_units(campaign.armies.values())
        ],
        "ships": [_dump_ship(ship) for ship in sort_units(campaign.ships.values())],
        "inputs": _dump_inputs(campaign.inputs, campaign.options),
    }
    if campaign.dice is not None:
        data["dice"] = list(campaign.dice)
    data["dice_rolled"] = campaign.dice_rolled
    if campaign.battle_turn is not None:
        data["battle_turn"] = campaign.battle_turn
    data["pending"] = [_dump_pending(p) for p in campaign.pending]
    data["battles"] = [dump_battle(battle, campaign.options) for battle in campaign.battles]
    data["events"] = [dict(event) for event in campaign.events]
    data.update(optional.written(campaign.options, "", campaign))
    data["scores"] = scores
    return data


def _str(value: str | None) -> str | None:
    return None if value is None else str(value)


def sort_units[U: (Army, Ship)](units: Collection[U]) -> list[U]:
    return sorted(units, key=lambda unit: natural_key(unit.id))


def _dump_kingdom(kingdom: Kingdom, options: Options) -> dict[str, object]:
    return {
        "id": kingdom.id,
        "name": kingdom.name,
        "race": kingdom.race,
        "capital": _hex(kingdom.capital),
        "gold": kingdom.gold,
        "food": kingdom.food,
        "pitched_wins": kingdom.pitched_wins,
        "pitched_losses": kingdom.pitched_losses,
        "eliminated": kingdom.eliminated,
        "armies_raised": kingdom.armies_raised,
        "ships_built": kingdom.ships_built,
        **optional.written(options, "kingdoms[]", kingdom),
    }


def _dump_army(army: Army, options: Options) -> dict[str, object]:
    data: dict[str, object] = {
        "id": army.id,
        "kingdom": army.kingdom,
        "hex": _hex(army.hex),
        "upright": army.upright,
        "ally": army.ally,
    }
    if army.defending:
        data["defending"] = True
    if army.moved is not None:
        data["moved"] = [_hex(army.moved[0]), _hex(army.moved[1])]
    if army.retreat is not None:
        data["retreat"] = army.retreat
    data.update(optional.written(options, "armies[]", army))
    return data


def _dump_ship(ship: Ship) -> dict[str, object]:
    data: dict[str, object] = {
        "id": ship.id,
        "kingdom": ship.kingdom,
        "hex": _hex(ship.hex),
        "upright": ship.upright,
        "carrying": ship.carrying,
    }
    if ship.retreat is not None:
        data["retreat"] = ship.retreat
    return data


def _dump_order(order: Order) -> dict[str, object]:
    data: dict[str, object] = {"unit": order.unit, "order": str(order.order)}
    if order.to is not None:
        data["to"] = _hex(order.to)
    if order.carry is not None:
        data["carry"] = order.carry
    return data


def _dump_inputs(inputs: Inputs, options: Options) -> dict[str, object]:
    data: dict[str, object] = {}
    if inputs.races:
        data["races"] = dict(inputs.races)
    if inputs.capitals:
        data["capitals"] = {k: _hex(h) for k, h in inputs.capitals.items()}
    if inputs.settlements:
        data["settlements"] = {
            k: {
                "city": _hex(p.city),
                "fortress": _hex(p.fortress),
                "villages": [_hex(v) for v in p.villages],
            }
            for k, p in inputs.settlements.items()
        }
    if inputs.starting_armies:
        data["starting_armies"] = {k: _hex(h) for k, h in inputs.starting_armies.items()}
    if inputs.orders:
        data["orders"] = {
            k: [_dump_order(o) for o in orders] for k, orders in inputs.orders.items()
        }
    if inputs.battle_choices:
        data["battle_choices"] = {
            k: [_hex(h) for h in hexes] for k, hexes in inputs.battle_choices.items()
        }
    if inputs.battles:
        data["battles"] = [_dump_battle_input(entry, options) for entry in inputs.battles]
    if inputs.retreats:
        data["retreats"] = {unit: _hex(h) for unit, h in inputs.retreats.items()}
    if inputs.tithes:
        data["tithes"] = {
            k: [{"to": t.to, "gold": t.gold, "food": t.food} for t in gifts]
            for k, gifts in inputs.tithes.items()
        }
    if inputs.purchases:
        data["purchases"] = {
            k: [dump_purchase(p) for p in purchases] for k, purchases in inputs.purchases.items()
        }
    if inputs.feed:
        data["feed"] = {k: {"disband": list(ids)} for k, ids in inputs.feed.items()}
    if inputs.deploy:
        data["deploy"] = {
            k: [_dump_deploy_entry(p) for p in placements]
            for k, placements in inputs.deploy.items()
        }
    data.update(optional.written(options, "inputs", inputs))
    return data


def _dump_deploy_entry(entry: Placement | Allocation) -> dict[str, object]:
    if isinstance(entry, Placement):
        return {"army": entry.army, "hex": _hex(entry.hex)}
    return optional.deploy_written(entry)


def dump_purchase(purchase: Purchase) -> dict[str, object]:
    if purchase.kind is PurchaseKind.DISBAND:
        return {"disband": purchase.army}
    own = optional.purchase_written(purchase)
    if own is not None:
        return own
    if purchase.kind is PurchaseKind.ARMY:
        data: dict[str, object] = {"recruit": "army", "hex": _hex(purchase.hex)}
        if purchase.ally is not None:
            data["ally"] = purchase.ally
        return data
    return {"build": str(purchase.kind), "hex": _hex(purchase.hex)}


def _dump_battle_input(entry: BattleInput, options: Options) -> dict[str, object]:
    data: dict[str, object] = {"hex": _hex(entry.hex)}
    for key in ("concede", "last_stand", "naval", "result", "winner", "resolve"):
        value = getattr(entry, key)
        if value is not None:
            data[key] = value
    data.update(optional.written(options, "inputs.battles[]", entry))
    return data


def _dump_pending(pending: Pending) -> dict[str, object]:
    return {"kind": pending.kind, "kingdom": pending.kingdom, **pending.detail}


def dump_battle(battle: Battle, options: Options) -> dict[str, object]:
    data: dict[str, object] = {
        "year": battle.year,
        "month": battle.month,
        "hex": _hex(battle.hex),
        "kind": battle.kind,
        "attacker": battle.attacker,
        "defender": battle.defender,
        "sides": [
            {
                "kingdom": s.kingdom,
                "armies": list(s.armies),
                "ships": list(s.ships),
                "points": s.points,
                "strategy_cards": s.strategy_cards,
                "defending": s.defending,
                **optional.written(options, "battles[].sides[]", s),
            }
            for s in battle.sides
        ],
        "board": battle.board,
        "condition": battle.condition,
        "scenario": battle.scenario,
        "defender_benefit": battle.defender_benefit,
        "last_stand": battle.last_stand,
        "status": battle.status,
        "result": battle.result,
        "winner": battle.winner,
        "dice": list(battle.dice),
    }
    data.update(optional.written(options, "battles[]", battle))
    if battle.extra:
        data["extra"] = dict(battle.extra)
    return data
