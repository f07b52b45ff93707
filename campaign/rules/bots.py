"""Bot players: random legal decisions for whatever a campaign file waits for.

Used by the simulator and the property tests. A bot only reads the campaign file and
writes `inputs`; the engine's entry point does everything else. The bots are random but
not aimless: armies lean towards unexplored and enemy tiles, purchases stay within the
kingdom's gold and food, and every answer is one the engine accepts. All their
randomness comes from the `random.Random` they are given.
"""

import copy
import random
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.rules import decisions, optional
from campaign.rules.battles.kinds import naval_possible
from campaign.rules.filevalues import Json
from campaign.rules.hexmap import Hex, HexMap, Terrain, cached_map_from_json, connected
from campaign.rules.state import (
    HORDE,
    MAX_ARMIES,
    Army,
    Campaign,
    Clock,
    Holding,
    Kingdom,
    Options,
    PendingKind,
    PurchaseKind,
    Season,
    Settlement,
    Ship,
    Step,
)
from campaign.rules.vocabulary import RACES
from campaign.rules.winter import BUILDS, CAPITAL_LIMIT, DEPLOYMENT_LIMIT, home

type JsonDict = dict[str, Any]
type Pending = Mapping[str, Any]

# How much an army wants to step into a neighbouring tile, by what is there.
WANT_ENEMY_UNITS = 5
WANT_ENEMY_TILE = 4
WANT_UNEXPLORED = 3
WANT_OWN_TILE = 1
# The battle entries that settle a battle awaiting its result (ruling B6).
SETTLING = frozenset({"result", "concede", "resolve"})
SEARCH_LIMIT = 300  # tiles looked at when an army inside its borders seeks the frontier


@dataclass(frozen=True, slots=True)
class Desk:
    """What a bot has in front of it: the state, the tabletop battles awaiting a result
    (their two kingdoms by tile), the inputs it writes, and its dice."""

    campaign: Campaign
    awaiting: Mapping[Hex, tuple[str, str]]
    inputs: JsonDict
    rng: random.Random


def decide(data: Mapping[str, Any], rng: random.Random, hexmap: HexMap | None = None) -> JsonDict:
    """The campaign file with bot decisions for everything in its `pending`. `hexmap` is
    the file's map already read (the map never changes), to save reading it again."""
    desk = Desk(
        campaign=_read_state(data, hexmap or cached_map_from_json(data["map"])),
        awaiting=_awaiting(data),
        inputs=copy.deepcopy(dict(data.get("inputs") or {})),
        rng=rng,
    )
    for pending in data.get("pending") or []:
        answer = ANSWERS.get(pending["kind"])
        if answer is None:
            raise ValueError(f"A bot has no answer for a pending {pending['kind']!r}.")
        answer(desk, pending)
    return {**data, "inputs": desk.inputs}


# --- reading the file ---------------------------------------------------------------------


def _read_state(data: Mapping[str, Any], hexmap: HexMap) -> Campaign:
    """The parts of the state a bot looks at, read without the engine's checks: the file
    is the engine's own output. Of the options, the optional rules that are on, whose own
    fields their rules read."""
    clock = data["clock"]
    switches = frozenset(name for name, on in (data.get("options") or {}).items() if on is True)
    options = Options(switches=switches)
    return Campaign(
        name=data["name"],
        options=options,
        map=hexmap,
        clock=Clock(clock["year"], Season(clock["season"]), clock["month"], Step(clock["step"])),
        player_order=tuple(data.get("player_order") or ()),
        kingdoms=tuple(_kingdom(k) for k in data["kingdoms"]),
        tiles={_hex(t["hex"]): _holding(t) for t in data.get("tiles") or ()},
        armies={a["id"]: _army(a) for a in data.get("armies") or ()},
        ships={s["id"]: _ship(s) for s in data.get("ships") or ()},
        **optional.read(options, "", {key: Json(value, key) for key, value in data.items()}),
    )


def _hex(value: Sequence[int]) -> Hex:
    return (value[0], value[1])


def _kingdom(data: Mapping[str, Any]) -> Kingdom:
    capital = data.get("capital")
    return Kingdom(
        id=data["id"],
        name=data["name"],
        race=data.get("race"),
        capital=None if capital is None else _hex(capital),
        gold=data.get("gold", 0),
        food=data.get("food", 0),
    )


def _holding(data: Mapping[str, Any]) -> Holding:
    settlement = data.get("settlement")
    return Holding(_hex(data["hex"]), data["owner"], settlement and Settlement(settlement))


def _army(data: Mapping[str, Any]) -> Army:
    return Army(data["id"], data["kingdom"], _hex(data["hex"]), data["upright"], data["ally"])


def _ship(data: Mapping[str, Any]) -> Ship:
    return Ship(data["id"], data["kingdom"], _hex(data["hex"]), data["upright"], data["carrying"])


def _awaiting(data: Mapping[str, Any]) -> dict[Hex, tuple[str, str]]:
    return {
        _hex(b["hex"]): (b["attacker"], b["defender"])
        for b in data.get("battles") or ()
        if b["status"] == "awaiting_result"
    }


# --- setup ----------------------------------------------------------------------------------


def _race(desk: Desk, pending: Pending) -> None:
    desk.inputs.setdefault("races", {})[pending["kingdom"]] = desk.rng.choice(RACES)


def _capital(desk: Desk, pending: Pending) -> None:
    desk.inputs.setdefault("capitals", {})[pending["kingdom"]] = desk.rng.choice(pending["choices"])


def _settlements(desk: Desk, pending: Pending) -> None:
    city, fortress, *villages = desk.rng.sample(pending["choices"], 4)
    plan = {"city": city, "fortress": fortress, "villages": villages}
    desk.inputs.setdefault("settlements", {})[pending["kingdom"]] = plan


def _starting_army(desk: Desk, pending: Pending) -> None:
    desk.inputs.setdefault("starting_armies", {})[pending["kingdom"]] = desk.rng.choice(
        pending["choices"]
    )


# --- summer: orders -------------------------------------------------------------------------


def _orders(desk: Desk, pending: Pending) -> None:
    """Orders for the units still waiting for one, in a random resolution sequence."""
    orders = _unit_orders(desk.campaign, pending["units"], desk.rng)
    given = desk.inputs.setdefault("orders", {}).setdefault(pending["kingdom"], [])
    given.extend(orders)


def _unit_orders(campaign: Campaign, unit_ids: Sequence[str], rng: random.Random) -> list[JsonDict]:
    """An order for each of the units: ships first decide whom they carry, and an army
    that boards has no order of its own (ruling O8)."""
    waiting = [campaign.armies[u] for u in unit_ids if u in campaign.armies]
    ashore = {army.id for army in waiting}
    orders = [
        _ship_order(campaign, campaign.ships[u], ashore, rng)
        for u in unit_ids
        if u in campaign.ships
    ]
    orders += [_army_order(campaign, army, rng) for army in waiting if army.id in ashore]
    rng.shuffle(orders)
    return orders


def _army_order(campaign: Campaign, army: Army, rng: random.Random) -> JsonDict:
    if not army.upright:
        return {"unit": army.id, "order": "regroup"}
    choices = ["defend"]
    if _enemy_settlement(campaign, army):
        choices.append("raze")
    step = _army_step(campaign, army, rng)
    if step is not None:
        choices += ["move"] * 6
    kind = rng.choice(choices)
    if kind == "move" and step is not None:
        return {"unit": army.id, "order": "move", "to": list(step)}
    return {"unit": army.id, "order": kind}


def _enemy_settlement(campaign: Campaign, unit: Army | Ship) -> bool:
    holding = campaign.tiles.get(unit.hex)
    return holding is not None and holding.settlement is not None and holding.owner != unit.kingdom


def _army_step(campaign: Campaign, army: Army, rng: random.Random) -> Hex | None:
    """A tile next to the army, picked at random but leaning towards enemies and the
    unexplored; an army deep inside its own lands heads for the nearest border."""
    hexmap = campaign.map
    steps = [h for h in hexmap.neighbours(army.hex) if _may_march(campaign, army, army.hex, h)]
    if not steps:
        return None
    wants = [_want(campaign, army.kingdom, h) for h in steps]
    if max(wants) == WANT_OWN_TILE:
        towards = _towards_border(campaign, army)
        if towards is not None and rng.random() < 0.8:
            return towards
    return rng.choices(steps, wants)[0]


def _may_march(campaign: Campaign, army: Army, here: Hex, there: Hex) -> bool:
    """The army may move from `here` to `there`: the map allows it, and no optional rule
    refuses it (OA5)."""
    return campaign.map.army_may_move(here, there) and _may_enter(campaign, army, there)


def _may_enter(campaign: Campaign, unit: Army | Ship, there: Hex) -> bool:
    """No optional rule that is on refuses the unit a move into `there` (OA5)."""
    return optional.move_refused(campaign, unit, there, "") is None


def _want(campaign: Campaign, kingdom_id: str, hex_: Hex) -> int:
    if any(unit.kingdom != kingdom_id for unit in campaign.units_in(hex_)):
        return WANT_ENEMY_UNITS
    owner = campaign.owner(hex_)
    if owner is None:
        return WANT_UNEXPLORED
    return WANT_OWN_TILE if owner == kingdom_id else WANT_ENEMY_TILE


def _towards_border(campaign: Campaign, army: Army) -> Hex | None:
    """The first step of a shortest walk through the kingdom's own tiles to one it does
    not hold; None if there is none near."""
    hexmap = campaign.map
    first_step: dict[Hex, Hex | None] = {army.hex: None}
    frontier = deque([army.hex])
    while frontier and len(first_step) < SEARCH_LIMIT:
        here = frontier.popleft()
        for there in hexmap.neighbours(here):
            if there in first_step or not _may_march(campaign, army, here, there):
                continue
            first_step[there] = first_step[here] or there
            if campaign.owner(there) != army.kingdom:
                return first_step[there]
            frontier.append(there)
    return None


def _ship_order(campaign: Campaign, ship: Ship, ashore: set[str], rng: random.Random) -> JsonDict:
    """Regroup, stay, raze or move; it keeps, lands or takes aboard an army."""
    order: JsonDict = {"unit": ship.id, "order": "regroup"}
    carry = _carried(campaign, ship, ashore, rng)
    if carry is not None:
        order["carry"] = carry
    if not ship.upright:
        return order
    hexmap = campaign.map
    moves = [
        h
        for h in hexmap.neighbours(ship.hex)
        if hexmap.ship_may_move(ship.hex, h) and _may_enter(campaign, ship, h)
    ]
    choices = ["stay"]
    if moves:
        choices += ["move"] * 3
    if _enemy_settlement(campaign, ship):
        choices.append("raze")
    order["order"] = rng.choice(choices)
    if order["order"] == "move":
        order["to"] = list(rng.choice(moves))
    return order


def _carried(campaign: Campaign, ship: Ship, ashore: set[str], rng: random.Random) -> str | None:
    """The army the ship's order carries: the one aboard, unless it lands (never at sea);
    else, now and then, an upright army of its kingdom waiting on its tile boards."""
    at_sea = campaign.map.tiles[ship.hex].terrain is Terrain.OCEAN
    if ship.carrying is not None:
        keeps = at_sea or not ship.upright or rng.random() < 0.6
        return ship.carrying if keeps else None
    if not ship.upright:
        return None
    boarders = sorted(
        a for a in ashore if campaign.armies[a].hex == ship.hex and campaign.armies[a].upright
    )
    if not boarders or rng.random() < 0.5:
        return None
    army_id = rng.choice(boarders)
    ashore.discard(army_id)
    return army_id


# --- summer: battles ------------------------------------------------------------------------


def _battle_choice(desk: Desk, pending: Pending) -> None:
    """Any of the contested tiles; where both sides have ships and armies, sometimes a
    naval battle instead of a pitched one (ruling B3)."""
    kingdom_id = pending["kingdom"]
    choice = desk.rng.choice(pending["choices"])
    desk.inputs.setdefault("battle_choices", {})[kingdom_id] = [choice]
    if naval_possible(desk.campaign, _hex(choice), kingdom_id) and desk.rng.random() < 0.5:
        desk.inputs.setdefault("battles", []).append({"hex": choice, "naval": kingdom_id})


def _last_stand(desk: Desk, pending: Pending) -> None:
    choice = "last_stand" if desk.rng.random() < 0.5 else "concede"
    desk.inputs.setdefault("battles", []).append(
        {"hex": pending["hex"], choice: pending["kingdom"]}
    )


def _battle_result(desk: Desk, pending: Pending) -> None:
    """A result drawn at random for a tabletop battle, once for its two players (the horde's
    general reporting for it): mostly a win for either side, sometimes a draw, a concession
    (never the horde's, OW5) or the admin's simple battle."""
    battles = desk.inputs.setdefault("battles", [])
    hex_ = pending["hex"]
    if any(entry["hex"] == hex_ and entry.keys() & SETTLING for entry in battles):
        return
    sides = desk.awaiting[_hex(hex_)]
    roll = desk.rng.random()
    if roll < 0.7:
        battles.append({"hex": hex_, "result": "win", "winner": desk.rng.choice(sides)})
    elif roll < 0.85:
        battles.append({"hex": hex_, "result": "draw"})
    elif roll < 0.92:
        kingdoms = [side for side in sides if side != HORDE]
        battles.append({"hex": hex_, "concede": desk.rng.choice(kingdoms)})
    else:
        battles.append({"hex": hex_, "resolve": "simple"})


def _retreat(desk: Desk, pending: Pending) -> None:
    desk.inputs.setdefault("retreats", {})[pending["unit"]] = desk.rng.choice(pending["choices"])


# --- winter ---------------------------------------------------------------------------------


def _tithes(desk: Desk, pending: Pending) -> None:
    """Now and then a gift of a gold, a food or both to another kingdom still standing."""
    kingdom_id = pending["kingdom"]
    others = [k for k in desk.campaign.player_order if k != kingdom_id]
    gifts: list[JsonDict] = []
    if others and desk.rng.random() < 0.3:
        gold, food = desk.rng.choice([(1, 0), (0, 1), (1, 1)])
        gifts.append({"to": desk.rng.choice(others), "gold": gold, "food": food})
    desk.inputs.setdefault("tithes", {})[kingdom_id] = gifts


def _purchases(desk: Desk, pending: Pending) -> None:
    kingdom = desk.campaign.kingdom(pending["kingdom"])
    wishes = _wishes(desk.campaign, kingdom, desk.rng)
    desk.rng.shuffle(wishes)
    affordable = _within_means(desk.campaign, kingdom, wishes)
    added = optional.bot_purchases(desk.campaign, kingdom.id, desk.rng)
    desk.inputs.setdefault("purchases", {})[kingdom.id] = affordable + added
    for key, value in optional.bot_inputs(desk.campaign, kingdom.id, desk.rng).items():
        desk.inputs.setdefault(key, {})[kingdom.id] = value


def _wishes(campaign: Campaign, kingdom: Kingdom, rng: random.Random) -> list[JsonDict]:
    """One thing the kingdom might buy on each of its tiles, and a new capital if it has
    lost its own."""
    own = sorted((h for h in campaign.tiles.values() if h.owner == kingdom.id), key=lambda h: h.hex)
    cities = [h.hex for h in own if h.settlement is Settlement.CITY]
    docked = {ship.hex for ship in campaign.ships.values()}
    wishes: list[JsonDict] = []
    if kingdom.capital is None and cities:
        wishes.append({"build": "capital", "hex": list(rng.choice(cities))})
    for holding in own:
        at = list(holding.hex)
        if holding.settlement is None:
            wishes.append({"build": "village", "hex": at})
        elif holding.settlement is Settlement.VILLAGE:
            wishes.append({"build": rng.choice(["city", "fortress"]), "hex": at})
        elif holding.settlement is Settlement.FORTRESS:
            wishes.append({"recruit": "army", "hex": at, **_ally(campaign, kingdom, rng)})
        elif _is_port(campaign, holding.hex) and holding.hex not in docked and rng.random() < 0.3:
            wishes.append({"build": "ship", "hex": at})
    return wishes


def _ally(campaign: Campaign, kingdom: Kingdom, rng: random.Random) -> JsonDict:
    """Sometimes an allied army, for a kingdom with 3 armies of its own race and no ally."""
    armies = [a for a in campaign.armies.values() if a.kingdom == kingdom.id]
    if any(a.ally for a in armies) or len(armies) < 3 or rng.random() < 0.8:
        return {}
    return {"ally": rng.choice([race for race in RACES if race != kingdom.race])}


def _is_port(campaign: Campaign, hex_: Hex) -> bool:
    tile = campaign.map.tiles[hex_]
    return tile.coast or tile.river


def _within_means(campaign: Campaign, kingdom: Kingdom, wishes: list[JsonDict]) -> list[JsonDict]:
    """The wishes the kingdom can pay for, one after another, keeping food enough to feed
    its armies (ruling W6) and within the limits of recruiting (W5)."""
    armies = [a for a in campaign.armies.values() if a.kingdom == kingdom.id]
    purse = _Purse(kingdom.gold, kingdom.food, len(armies), any(a.ally for a in armies))
    return [wish for wish in wishes if purse.pays_for(wish)]


@dataclass
class _Purse:
    """What a kingdom has left to spend as a bot goes down its wish list."""

    gold: int
    food: int
    armies: int
    allied: bool = False

    def pays_for(self, wish: Mapping[str, Any]) -> bool:
        kind = PurchaseKind(wish.get("build") or wish["recruit"])
        _, gold, food = BUILDS[kind]
        recruit = int(kind is PurchaseKind.ARMY)
        ally = bool(wish.get("ally"))
        if self.gold < gold or self.food < food:
            return False
        if (food or recruit) and self.food - food < self.armies + recruit:
            return False  # the armies must still be fed
        if recruit and self.armies >= MAX_ARMIES:
            return False
        if ally and (self.allied or self.armies < 3):
            return False
        self.gold -= gold
        self.food -= food
        self.armies += recruit
        self.allied = self.allied or ally
        return True


def _feed(desk: Desk, pending: Pending) -> None:
    armies, short = pending["armies"], pending["short"]
    desk.inputs.setdefault("feed", {})[pending["kingdom"]] = {
        "disband": desk.rng.sample(armies, min(len(armies), short))
    }


def _deploy(desk: Desk, pending: Pending) -> None:
    """Each army to a random settlement connected to the capital with room left (ruling
    W7); one that finds none is left to the default."""
    kingdom_id = pending["kingdom"]
    room = _deployment_room(desk.campaign, kingdom_id)
    armies = list(pending["armies"])
    desk.rng.shuffle(armies)
    placements: list[JsonDict] = []
    for army_id in armies:
        free = [h for h, places in room.items() if places > 0]
        if not free:
            break
        hex_ = desk.rng.choice(free)
        room[hex_] -= 1
        placements.append({"army": army_id, "hex": list(hex_)})
    desk.inputs.setdefault("deploy", {})[kingdom_id] = placements


def _deployment_room(campaign: Campaign, kingdom_id: str) -> dict[Hex, int]:
    base = home(campaign, kingdom_id)
    if base is None:
        return {}
    owned = {h for h, holding in campaign.tiles.items() if holding.owner == kingdom_id}
    capital = campaign.kingdom(kingdom_id).capital
    room: dict[Hex, int] = {}
    for hex_ in sorted(connected(base, owned, campaign.map)):
        settlement = campaign.settlement(hex_)
        if settlement is not None:
            room[hex_] = CAPITAL_LIMIT if hex_ == capital else DEPLOYMENT_LIMIT[settlement]
    return room


def _succession(desk: Desk, pending: Pending) -> None:
    """Any of the kingdom's armies, to disband for a disputed heir (OB7)."""
    army = desk.rng.choice(pending["armies"])
    owed = decisions.ANSWERS[PendingKind.SUCCESSION]
    desk.inputs.setdefault(owed, {})[pending["kingdom"]] = {"disband": army}


ANSWERS: Mapping[PendingKind, Callable[[Desk, Pending], None]] = {
    PendingKind.RACE: _race,
    PendingKind.CAPITAL: _capital,
    PendingKind.SETTLEMENTS: _settlements,
    PendingKind.STARTING_ARMY: _starting_army,
    PendingKind.ORDERS: _orders,
    PendingKind.BATTLE_CHOICE: _battle_choice,
    PendingKind.LAST_STAND: _last_stand,
    PendingKind.BATTLE_RESULT: _battle_result,
    PendingKind.RETREAT: _retreat,
    PendingKind.TITHES: _tithes,
    PendingKind.PURCHASES: _purchases,
    PendingKind.FEED: _feed,
    PendingKind.DEPLOY: _deploy,
    PendingKind.SUCCESSION: _succession,
}
