"""The campaign file (format 1, ../shared/design/campaign-file.md): parse, validate, serialise.

Everything that reads JSON goes through `Json`, which knows where in the file it is, so a
refusal names the field ("armies[2].hex") and carries a stable code.
"""

from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from enum import StrEnum
from typing import Any, NoReturn

from campaign.rules.combat import natural_key
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex, cached_map_from_json, map_to_json
from campaign.rules.options import OPTION_ROWS, OPTIONS, OptionRow
from campaign.rules.state import (
    MAX_ARMIES,
    STEPS,
    Army,
    Battle,
    BattleInput,
    BattleSide,
    BattlesMode,
    BattleStatus,
    Campaign,
    Clock,
    Holding,
    Inputs,
    JsonObject,
    Kingdom,
    Options,
    Order,
    OrderKind,
    OrdersMode,
    Pending,
    Placement,
    Purchase,
    PurchaseKind,
    Season,
    Settlement,
    SettlementPlan,
    Ship,
    Step,
    Tithe,
)

FORMAT = 1

TOP_LEVEL = (
    "format",
    "name",
    "options",
    "map",
    "clock",
    "player_order",
    "kingdoms",
    "tiles",
    "armies",
    "ships",
    "inputs",
    "dice",
    "dice_rolled",
    "battle_turn",
    "pending",
    "battles",
    "events",
    "scores",
)


class Json:
    """A JSON value and its path in the campaign file."""

    __slots__ = ("path", "value")

    def __init__(self, value: object, path: str) -> None:
        self.value = value
        self.path = path

    def refuse(self, code: str, message: str, unit: str | None = None) -> NoReturn:
        raise RuleError(code, self.path or "(file)", message, unit)

    def child(self, key: str) -> "Json":
        value = self.value.get(key) if isinstance(self.value, dict) else None
        return Json(value, f"{self.path}.{key}" if self.path else key)

    def as_object(
        self, required: Collection[str] = (), optional: Collection[str] = ()
    ) -> dict[str, "Json"]:
        if not isinstance(self.value, dict):
            self.refuse("wrong-type", f"{self.path or 'The file'} must be a JSON object.")
        for key in self.value:
            if key not in required and key not in optional:
                self.child(key).refuse(
                    "unknown-field", f"{key!r} is not a field of the campaign file here."
                )
        for key in required:
            if key not in self.value:
                self.child(key).refuse("missing-field", f"{key!r} is missing.")
        return {key: self.child(key) for key in self.value}

    def as_mapping(self) -> dict[str, "Json"]:
        """An object whose keys are ids (kingdoms, units) rather than field names."""
        if not isinstance(self.value, dict):
            self.refuse("wrong-type", f"{self.path} must be a JSON object.")
        return {key: self.child(key) for key in self.value}

    def as_list(self) -> list["Json"]:
        return [self.item(index) for index in range(len(self.as_values()))]

    def as_values(self) -> list[object]:
        """The list's items as they are, for a shortcut that reads plain ones directly."""
        if not isinstance(self.value, list):
            self.refuse("wrong-type", f"{self.path} must be a list.")
        return self.value

    def item(self, index: int) -> "Json":
        """The list's item at `index`, with its path."""
        assert isinstance(self.value, list)
        return Json(self.value[index], f"{self.path}[{index}]")

    def as_int(self, minimum: int | None = None, maximum: int | None = None) -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse("wrong-type", f"{self.path} must be a whole number.")
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            low = "" if minimum is None else f" from {minimum}"
            high = "" if maximum is None else f" to {maximum}"
            self.refuse(
                "out-of-range", f"{self.path} must be a whole number{low}{high}, not {value}."
            )
        return value

    def as_bool(self) -> bool:
        if not isinstance(self.value, bool):
            self.refuse("wrong-type", f"{self.path} must be true or false.")
        return self.value

    def as_str(self) -> str:
        if not isinstance(self.value, str) or not self.value:
            self.refuse("wrong-type", f"{self.path} must be a non-empty string.")
        return self.value

    def as_hex(self) -> Hex:
        value = self.value
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(c, bool) or not isinstance(c, int) for c in value)
        ):
            self.refuse(
                "bad-hex", f"{self.path} must be a hex: a list of two whole numbers [q, r]."
            )
        return (value[0], value[1])

    def is_null(self) -> bool:
        return self.value is None

    def optional[T](self, read: Callable[["Json"], T]) -> T | None:
        return None if self.value is None else read(self)

    def choice[E: (Season, Step, OrdersMode, BattlesMode, Settlement, OrderKind, PurchaseKind)](
        self, enum: type[E]
    ) -> E:
        text = self.as_str()
        try:
            return enum(text)
        except ValueError:
            allowed = ", ".join(member.value for member in enum)
            self.refuse("unknown-value", f"{self.path} must be one of {allowed}, not {text!r}.")


def _get[T](fields: Mapping[str, Json], key: str, read: Callable[[Json], T], default: T) -> T:
    return read(fields[key]) if key in fields else default


# --- parse -------------------------------------------------------------------------


def parse_campaign(data: object) -> Campaign:
    """The campaign in a parsed JSON document, or a RuleError naming what is wrong."""
    top = Json(data, "").as_object(
        required=("format", "map", "clock", "kingdoms"), optional=TOP_LEVEL
    )
    if top["format"].as_int() != FORMAT:
        top["format"].refuse("unknown-format", f"This engine reads campaign file format {FORMAT}.")
    hexmap = cached_map_from_json(top["map"].value, "map")
    kingdoms = tuple(_kingdom(item) for item in top["kingdoms"].as_list())
    known = {kingdom.id for kingdom in kingdoms}
    campaign = Campaign(
        name=_get(top, "name", Json.as_str, ""),
        options=_options(top["options"]) if "options" in top else Options(),
        map=hexmap,
        clock=_clock(top["clock"]),
        player_order=tuple(item.as_str() for item in top["player_order"].as_list())
        if "player_order" in top
        else (),
        kingdoms=kingdoms,
        tiles=_tiles(top["tiles"]) if "tiles" in top else {},
        armies=_by_id(top["armies"], _army) if "armies" in top else {},
        ships=_by_id(top["ships"], _ship) if "ships" in top else {},
        inputs=_inputs(top["inputs"], known) if "inputs" in top else Inputs(),
        dice=_dice(top["dice"]) if "dice" in top and not top["dice"].is_null() else None,
        dice_rolled=_get(top, "dice_rolled", lambda j: j.as_int(minimum=0), 0),
        battle_turn=top["battle_turn"].optional(Json.as_str) if "battle_turn" in top else None,
        battles=tuple(_battle(item) for item in top["battles"].as_list())
        if "battles" in top
        else (),
        events=_events(top["events"]) if "events" in top else (),
    )
    validate_state(campaign)
    counted = tuple(
        _with_counters(k, campaign.armies.values(), campaign.ships.values()) for k in kingdoms
    )
    return replace(campaign, kingdoms=counted)


def _options(json: Json) -> Options:
    fields = json.as_object(optional=tuple(OPTION_ROWS))
    values: dict[str, Any] = {
        key: _option(value, OPTION_ROWS[key])
        for key, value in fields.items()
        if not OPTION_ROWS[key].switch
    }
    switches = {key for key, value in fields.items() if OPTION_ROWS[key].switch and value.as_bool()}
    return Options(**values, switches=frozenset(switches))


def _option(json: Json, row: OptionRow) -> object:
    """One option's value, read and checked by its row of the options table."""
    if row.enum is not None:
        text = json.as_str()
        if text not in row.choices:
            allowed = ", ".join(row.choices)
            json.refuse("unknown-value", f"{json.path} must be one of {allowed}, not {text!r}.")
        return row.enum(text)
    return json.as_int(row.low, row.high)


def _clock(json: Json) -> Clock:
    fields = json.as_object(required=("year", "season", "month", "step"))
    clock = Clock(
        year=fields["year"].as_int(minimum=1),
        season=fields["season"].choice(Season),
        month=fields["month"].as_int(0, 12),
        step=fields["step"].choice(Step),
    )
    if clock.step not in STEPS[clock.season]:
        fields["step"].refuse("bad-clock", f"Step {clock.step} is not a step of {clock.season}.")
    if (clock.season is Season.SUMMER) != (clock.month > 0):
        fields["month"].refuse("bad-clock", "The month is 1 to 6 in summer and 0 otherwise.")
    return clock


def _kingdom(json: Json) -> Kingdom:
    fields = json.as_object(
        required=("id",),
        optional=(
            "name",
            "race",
            "capital",
            "gold",
            "food",
            "pitched_wins",
            "pitched_losses",
            "eliminated",
            "armies_raised",
            "ships_built",
        ),
    )
    kingdom_id = fields["id"].as_str()
    return Kingdom(
        id=kingdom_id,
        name=_get(fields, "name", Json.as_str, kingdom_id),
        race=_get(fields, "race", lambda j: j.optional(Json.as_str), None),
        capital=_get(fields, "capital", lambda j: j.optional(Json.as_hex), None),
        gold=_get(fields, "gold", lambda j: j.as_int(minimum=0), 0),
        food=_get(fields, "food", lambda j: j.as_int(minimum=0), 0),
        pitched_wins=_get(fields, "pitched_wins", lambda j: j.as_int(minimum=0), 0),
        pitched_losses=_get(fields, "pitched_losses", lambda j: j.as_int(minimum=0), 0),
        eliminated=_get(
            fields, "eliminated", lambda j: j.optional(lambda y: y.as_int(minimum=1)), None
        ),
        armies_raised=_get(fields, "armies_raised", lambda j: j.as_int(minimum=0), 0),
        ships_built=_get(fields, "ships_built", lambda j: j.as_int(minimum=0), 0),
    )


def _with_counters(kingdom: Kingdom, armies: Collection[Army], ships: Collection[Ship]) -> Kingdom:
    """At least as many raised and built as the highest number among its units' ids, so a
    hand-written file without the counters never gets a repeated id."""

    def highest(ids: list[str], prefix: str) -> int:
        numbers = [i.removeprefix(prefix) for i in ids if i.startswith(prefix)]
        return max((int(n) for n in numbers if n.isdigit()), default=0)

    own_armies = [a.id for a in armies if a.kingdom == kingdom.id]
    own_ships = [s.id for s in ships if s.kingdom == kingdom.id]
    return replace(
        kingdom,
        armies_raised=max(kingdom.armies_raised, highest(own_armies, f"{kingdom.id}-")),
        ships_built=max(kingdom.ships_built, highest(own_ships, f"{kingdom.id}-s")),
    )


def _tiles(json: Json) -> dict[Hex, Holding]:
    tiles: dict[Hex, Holding] = {}
    for index, value in enumerate(json.as_values()):
        holding = _plain_holding(value)
        if holding is None or holding.hex in tiles:
            holding = _holding(json.item(index), tiles)
        tiles[holding.hex] = holding
    return tiles


_HOLDING_FIELDS = {"hex": None, "owner": None, "settlement": None}.keys()
_SETTLEMENTS: dict[object, Settlement | None] = {None: None} | {s.value: s for s in Settlement}


def _plain_holding(value: object) -> Holding | None:
    """The holding in `value` if it is written exactly as the engine writes one, else None
    (to be read field by field, with a refusal for what is wrong): a shortcut for the
    thousand tiles of a large map, which reads what it accepts as `_holding` would."""
    if type(value) is not dict or value.keys() != _HOLDING_FIELDS:
        return None
    hex_, owner, settlement = value["hex"], value["owner"], value["settlement"]
    if (
        type(hex_) is not list
        or len(hex_) != 2
        or type(hex_[0]) is not int
        or type(hex_[1]) is not int
        or type(owner) is not str
        or not owner
        or not (settlement is None or type(settlement) is str)
        or settlement not in _SETTLEMENTS
    ):
        return None
    return Holding((hex_[0], hex_[1]), owner, _SETTLEMENTS[settlement])


def _holding(json: Json, tiles: Mapping[Hex, Holding]) -> Holding:
    fields = json.as_object(required=("hex", "owner"), optional=("settlement",))
    hex_ = fields["hex"].as_hex()
    if hex_ in tiles:
        fields["hex"].refuse("duplicate-hex", f"Tile {list(hex_)} is listed twice.")
    settlement = _get(
        fields, "settlement", lambda j: j.optional(lambda s: s.choice(Settlement)), None
    )
    return Holding(hex_, fields["owner"].as_str(), settlement)


def _by_id[U: (Army, Ship)](json: Json, read: Callable[[Json], U]) -> dict[str, U]:
    units: dict[str, U] = {}
    for item in json.as_list():
        unit = read(item)
        if unit.id in units:
            item.refuse("duplicate-id", f"Unit id {unit.id!r} is used twice.", unit.id)
        units[unit.id] = unit
    return units


def _army(json: Json) -> Army:
    fields = json.as_object(
        required=("id", "kingdom", "hex"),
        optional=("upright", "ally", "defending", "moved", "retreat"),
    )
    return Army(
        id=fields["id"].as_str(),
        kingdom=fields["kingdom"].as_str(),
        hex=fields["hex"].as_hex(),
        upright=_get(fields, "upright", Json.as_bool, True),
        ally=_get(fields, "ally", lambda j: j.optional(Json.as_str), None),
        defending=_get(fields, "defending", Json.as_bool, False),
        moved=_get(fields, "moved", lambda j: j.optional(_move), None),
        retreat=_get(fields, "retreat", lambda j: j.optional(_retreat_kind), None),
    )


def _ship(json: Json) -> Ship:
    fields = json.as_object(
        required=("id", "kingdom", "hex"), optional=("upright", "carrying", "retreat")
    )
    return Ship(
        id=fields["id"].as_str(),
        kingdom=fields["kingdom"].as_str(),
        hex=fields["hex"].as_hex(),
        upright=_get(fields, "upright", Json.as_bool, True),
        carrying=_get(fields, "carrying", lambda j: j.optional(Json.as_str), None),
        retreat=_get(fields, "retreat", lambda j: j.optional(_retreat_kind), None),
    )


def _move(json: Json) -> tuple[Hex, Hex]:
    ends = json.as_list()
    if len(ends) != 2:
        json.refuse("wrong-type", f"{json.path} must be [from, to], two hexes.")
    return (ends[0].as_hex(), ends[1].as_hex())


def _retreat_kind(json: Json) -> str:
    text = json.as_str()
    if text not in ("loss", "draw"):
        json.refuse("unknown-value", f"{json.path} must be 'loss' or 'draw'.")
    return text


def _dice(json: Json) -> tuple[int, ...]:
    return tuple(item.as_int(1, 6) for item in json.as_list())


def _events(json: Json) -> tuple[JsonObject, ...]:
    values = json.as_values()
    events = tuple(value for value in values if isinstance(value, dict))  # as `_event` reads
    if len(events) == len(values):
        return events
    return tuple(_event(item) for item in json.as_list())


def _event(json: Json) -> JsonObject:
    if not isinstance(json.value, dict):
        json.refuse("wrong-type", f"{json.path} must be a JSON object.")
    return json.value


def _battle(json: Json) -> Battle:
    fields = json.as_object(
        required=("year", "month", "hex", "kind", "attacker", "defender", "sides", "status"),
        optional=(
            "board",
            "condition",
            "scenario",
            "defender_benefit",
            "last_stand",
            "result",
            "winner",
            "dice",
            "extra",
        ),
    )
    sides = tuple(_battle_side(item) for item in fields["sides"].as_list())
    if len(sides) != 2:
        fields["sides"].refuse("wrong-type", "A battle has exactly two sides.")
    status = fields["status"].as_str()
    if status not in tuple(BattleStatus):
        fields["status"].refuse("unknown-value", "status must be awaiting_result or resolved.")
    optional_str: Callable[[Json], str | None] = lambda j: j.optional(Json.as_str)  # noqa: E731
    return Battle(
        year=fields["year"].as_int(minimum=1),
        month=fields["month"].as_int(0, 12),
        hex=fields["hex"].as_hex(),
        kind=fields["kind"].as_str(),
        attacker=fields["attacker"].as_str(),
        defender=fields["defender"].as_str(),
        sides=(sides[0], sides[1]),
        board=_get(fields, "board", optional_str, None),
        condition=_get(fields, "condition", optional_str, None),
        scenario=_get(fields, "scenario", optional_str, None),
        defender_benefit=_get(fields, "defender_benefit", optional_str, None),
        last_stand=_get(fields, "last_stand", optional_str, None),
        status=BattleStatus(status),
        result=_get(fields, "result", optional_str, None),
        winner=_get(fields, "winner", optional_str, None),
        dice=_get(fields, "dice", _dice, ()),
        extra=_get(fields, "extra", _event, {}),
    )


def _battle_side(json: Json) -> BattleSide:
    fields = json.as_object(
        required=("kingdom", "armies", "ships"),
        optional=("points", "strategy_cards", "defending"),
    )
    return BattleSide(
        kingdom=fields["kingdom"].as_str(),
        armies=tuple(item.as_str() for item in fields["armies"].as_list()),
        ships=tuple(item.as_str() for item in fields["ships"].as_list()),
        points=_get(fields, "points", lambda j: j.as_int(minimum=0), 0),
        strategy_cards=_get(fields, "strategy_cards", lambda j: j.as_int(minimum=0), 0),
        defending=_get(fields, "defending", Json.as_bool, False),
    )


def _inputs(json: Json, known: Collection[str]) -> Inputs:
    fields = json.as_object(
        optional=(
            "races",
            "capitals",
            "settlements",
            "starting_armies",
            "orders",
            "battle_choices",
            "battles",
            "retreats",
            "tithes",
            "purchases",
            "feed",
            "deploy",
        ),
    )

    def per_kingdom[T](key: str, read: Callable[[Json], T]) -> dict[str, T]:
        if key not in fields:
            return {}
        result: dict[str, T] = {}
        for kingdom_id, value in fields[key].as_mapping().items():
            if kingdom_id not in known:
                value.refuse("unknown-kingdom", f"There is no kingdom {kingdom_id!r}.")
            result[kingdom_id] = read(value)
        return result

    return Inputs(
        races=per_kingdom("races", Json.as_str),
        capitals=per_kingdom("capitals", Json.as_hex),
        settlements=per_kingdom("settlements", _settlement_plan),
        starting_armies=per_kingdom("starting_armies", Json.as_hex),
        orders=per_kingdom("orders", lambda j: tuple(_order(item) for item in j.as_list())),
        battle_choices=per_kingdom(
            "battle_choices", lambda j: tuple(i.as_hex() for i in j.as_list())
        ),
        battles=tuple(
            _battle_input(item, known, position)
            for position, item in enumerate(fields["battles"].as_list())
        )
        if "battles" in fields
        else (),
        retreats={unit: value.as_hex() for unit, value in fields["retreats"].as_mapping().items()}
        if "retreats" in fields
        else {},
        tithes=per_kingdom("tithes", lambda j: tuple(_tithe(item) for item in j.as_list())),
        purchases=per_kingdom("purchases", lambda j: tuple(_purchase(i) for i in j.as_list())),
        feed=per_kingdom("feed", _feed),
        deploy=per_kingdom("deploy", lambda j: tuple(_placement(i) for i in j.as_list())),
    )


def _tithe(json: Json) -> Tithe:
    fields = json.as_object(required=("to",), optional=("gold", "food"))
    return Tithe(
        to=fields["to"].as_str(),
        gold=_get(fields, "gold", lambda j: j.as_int(0, 1), 0),
        food=_get(fields, "food", lambda j: j.as_int(0, 1), 0),
    )


def _purchase(json: Json) -> Purchase:
    fields = json.as_object(optional=("build", "recruit", "disband", "hex", "ally"))
    actions = [key for key in ("build", "recruit", "disband") if key in fields]
    if len(actions) != 1:
        json.refuse("bad-purchase", "Each purchase is one of: build, recruit or disband.")
    if "disband" in fields:
        if "hex" in fields or "ally" in fields:
            json.refuse("bad-purchase", "A disband names only the army.")
        return Purchase(PurchaseKind.DISBAND, army=fields["disband"].as_str())
    if "hex" not in fields:
        json.child("hex").refuse("missing-field", "A build or a recruit needs 'hex'.")
    if "build" in fields:
        kind = fields["build"].choice(PurchaseKind)
        if kind in (PurchaseKind.ARMY, PurchaseKind.DISBAND) or "ally" in fields:
            fields["build"].refuse(
                "unknown-value", "Build a village, city, fortress, capital or ship."
            )
    else:
        if fields["recruit"].as_str() != "army":
            fields["recruit"].refuse("unknown-value", "The only thing to recruit is an army.")
        kind = PurchaseKind.ARMY
    return Purchase(
        kind,
        hex=fields["hex"].as_hex(),
        ally=_get(fields, "ally", lambda j: j.optional(Json.as_str), None),
    )


def _feed(json: Json) -> tuple[str, ...]:
    fields = json.as_object(optional=("disband",))
    return (
        tuple(item.as_str() for item in fields["disband"].as_list()) if "disband" in fields else ()
    )


def _placement(json: Json) -> Placement:
    fields = json.as_object(required=("army", "hex"))
    return Placement(army=fields["army"].as_str(), hex=fields["hex"].as_hex())


def _settlement_plan(json: Json) -> SettlementPlan:
    fields = json.as_object(required=("city", "fortress", "villages"))
    villages = fields["villages"].as_list()
    if len(villages) != 2:
        fields["villages"].refuse("wrong-count", "Place exactly two villages.")
    return SettlementPlan(
        city=fields["city"].as_hex(),
        fortress=fields["fortress"].as_hex(),
        villages=(villages[0].as_hex(), villages[1].as_hex()),
    )


def _order(json: Json) -> Order:
    fields = json.as_object(required=("unit", "order"), optional=("to", "carry"))
    kind = fields["order"].choice(OrderKind)
    to = _get(fields, "to", lambda j: j.optional(Json.as_hex), None)
    if kind is OrderKind.MOVE and to is None:
        json.child("to").refuse("missing-field", "A move order needs 'to', the tile to move into.")
    if kind is not OrderKind.MOVE and to is not None:
        fields["to"].refuse("unknown-field", f"Only a move order has 'to', not {kind}.")
    return Order(
        unit=fields["unit"].as_str(),
        order=kind,
        to=to,
        carry=_get(fields, "carry", lambda j: j.optional(Json.as_str), None),
    )


def _battle_input(json: Json, known: Collection[str], position: int) -> BattleInput:
    fields = json.as_object(
        required=("hex",),
        optional=("concede", "last_stand", "naval", "result", "winner", "resolve"),
    )
    actions = [k for k in ("concede", "last_stand", "naval", "result", "resolve") if k in fields]
    if len(actions) != 1:
        json.refuse(
            "bad-battle-input",
            "Each battle entry is one of: a concession, a Last Stand, a naval battle, a result, or 'resolve'.",
        )

    def kingdom(key: str) -> str | None:
        if key not in fields:
            return None
        kingdom_id = fields[key].as_str()
        if kingdom_id not in known:
            fields[key].refuse("unknown-kingdom", f"There is no kingdom {kingdom_id!r}.")
        return kingdom_id

    result = fields["result"].as_str() if "result" in fields else None
    if result not in (None, "win", "draw"):
        fields["result"].refuse("unknown-value", "A result is 'win' or 'draw'.")
    winner = kingdom("winner")
    if result == "win" and winner is None:
        json.child("winner").refuse("missing-field", "A win needs its winner.")
    if result != "win" and winner is not None:
        fields["winner"].refuse("unknown-field", "Only a win has a winner.")
    resolve = fields["resolve"].as_str() if "resolve" in fields else None
    if resolve not in (None, "simple"):
        fields["resolve"].refuse(
            "unknown-value", "The only way to resolve a battle here is 'simple'."
        )
    return BattleInput(
        hex=fields["hex"].as_hex(),
        concede=kingdom("concede"),
        last_stand=kingdom("last_stand"),
        naval=kingdom("naval"),
        result=result,
        winner=winner,
        resolve=resolve,
        position=position,
    )


# --- validate the state --------------------------------------------------------------


def validate_state(campaign: Campaign) -> None:
    """Refuse a state the rules can't produce: units where they may not stand, unknown
    kingdoms, two capitals, more than six armies (the first problem found)."""
    _validate_kingdoms(campaign)
    _validate_tiles(campaign)
    _validate_units(campaign)
    _validate_battles(campaign)


def _validate_kingdoms(campaign: Campaign) -> None:
    ids = [kingdom.id for kingdom in campaign.kingdoms]
    for index, kingdom_id in enumerate(ids):
        if ids.index(kingdom_id) != index:
            raise RuleError(
                "duplicate-id", f"kingdoms[{index}].id", f"Kingdom {kingdom_id!r} is listed twice."
            )
    if not 2 <= len(ids) <= 8:
        raise RuleError("kingdom-count", "kingdoms", "A campaign has 2 to 8 kingdoms.")
    standing = [k.id for k in campaign.kingdoms if k.eliminated is None]
    if campaign.player_order and sorted(campaign.player_order) != sorted(standing):
        raise RuleError(
            "bad-player-order",
            "player_order",
            "The player order must name every kingdom still in the game exactly once.",
        )
    capitals: dict[Hex, str] = {}
    for index, kingdom in enumerate(campaign.kingdoms):
        if kingdom.capital is None:
            continue
        where = f"kingdoms[{index}].capital"
        if kingdom.capital in capitals:
            raise RuleError(
                "two-capitals",
                where,
                f"{list(kingdom.capital)} is already the capital of {capitals[kingdom.capital]}.",
            )
        capitals[kingdom.capital] = kingdom.id
        holding = campaign.tiles.get(kingdom.capital)
        if (
            holding is None
            or holding.owner != kingdom.id
            or holding.settlement is not Settlement.CITY
        ):
            raise RuleError(
                "capital-not-city",
                where,
                f"The capital of {kingdom.id} must be a city it controls.",
            )


def _validate_tiles(campaign: Campaign) -> None:
    known = {kingdom.id for kingdom in campaign.kingdoms}
    for index, holding in enumerate(campaign.tiles.values()):
        where = f"tiles[{index}]"
        tile = campaign.map.tiles.get(holding.hex)
        if tile is None:
            raise RuleError("off-map", f"{where}.hex", f"{list(holding.hex)} is not on the map.")
        if tile.terrain == "ocean":
            raise RuleError(
                "ocean-owned",
                f"{where}.hex",
                f"{list(holding.hex)} is open water: it is never controlled (ruling M4).",
            )
        if not campaign.map.army_may_enter(holding.hex) and holding.settlement is not None:
            raise RuleError(
                "settlement-on-marsh",
                f"{where}.settlement",
                f"No settlement can stand on {list(holding.hex)}.",
            )
        if holding.owner not in known:
            raise RuleError(
                "unknown-kingdom", f"{where}.owner", f"There is no kingdom {holding.owner!r}."
            )


def _validate_units(campaign: Campaign) -> None:
    known = {kingdom.id for kingdom in campaign.kingdoms}
    carried: dict[str, Ship] = {}
    for index, ship in enumerate(campaign.ships.values()):
        where = f"ships[{index}]"
        _check_unit_place(campaign, ship.id, ship.kingdom, ship.hex, where, known)
        if not campaign.map.ship_may_enter(ship.hex):
            raise RuleError(
                "cannot-stand-here",
                f"{where}.hex",
                f"Ship {ship.id} can't be on {list(ship.hex)}: ships sail on sea, coast, rivers and lakes (ruling M3).",
                ship.id,
            )
        if ship.id in campaign.armies:
            raise RuleError(
                "duplicate-id", f"{where}.id", f"{ship.id!r} is both an army and a ship.", ship.id
            )
        if ship.carrying is None:
            continue
        army = campaign.armies.get(ship.carrying)
        if army is None or army.kingdom != ship.kingdom:
            raise RuleError(
                "bad-carrying",
                f"{where}.carrying",
                f"Ship {ship.id} can only carry an army of its own kingdom.",
                ship.id,
            )
        if ship.carrying in carried:
            raise RuleError(
                "bad-carrying",
                f"{where}.carrying",
                f"Army {ship.carrying} is aboard two ships.",
                ship.id,
            )
        if army.hex != ship.hex:
            raise RuleError(
                "bad-carrying",
                f"{where}.carrying",
                f"Army {army.id} is aboard ship {ship.id}, so it must be in the ship's tile.",
                army.id,
            )
        carried[army.id] = ship
    for index, army in enumerate(campaign.armies.values()):
        where = f"armies[{index}]"
        _check_unit_place(campaign, army.id, army.kingdom, army.hex, where, known)
        if army.id not in carried and not campaign.map.army_may_enter(army.hex):
            raise RuleError(
                "cannot-stand-here",
                f"{where}.hex",
                f"Army {army.id} can't stand on {list(army.hex)}: armies never enter marsh or open water (ruling M3).",
                army.id,
            )
    for kingdom_id, count in Counter(army.kingdom for army in campaign.armies.values()).items():
        if count > MAX_ARMIES:
            raise RuleError(
                "too-many-armies",
                "armies",
                f"{kingdom_id} has {count} armies; a kingdom has at most {MAX_ARMIES}.",
            )


def _validate_battles(campaign: Campaign) -> None:
    """Every battle is between kingdoms of the file."""
    known = {kingdom.id for kingdom in campaign.kingdoms}
    for index, battle in enumerate(campaign.battles):
        named = [("attacker", battle.attacker), ("defender", battle.defender)]
        named += [(f"sides[{n}].kingdom", side.kingdom) for n, side in enumerate(battle.sides)]
        for key, kingdom in named:
            if kingdom not in known:
                raise RuleError(
                    "unknown-kingdom",
                    f"battles[{index}].{key}",
                    f"There is no kingdom {kingdom!r}.",
                )


def _check_unit_place(
    campaign: Campaign, unit: str, kingdom: str, hex_: Hex, where: str, known: Collection[str]
) -> None:
    if kingdom not in known:
        raise RuleError(
            "unknown-kingdom", f"{where}.kingdom", f"There is no kingdom {kingdom!r}.", unit
        )
    if hex_ not in campaign.map.tiles:
        raise RuleError(
            "off-map", f"{where}.hex", f"{unit} is at {list(hex_)}, which is not on the map.", unit
        )


# --- serialise -----------------------------------------------------------------------


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
        "kingdoms": [_dump_kingdom(kingdom) for kingdom in campaign.kingdoms],
        "tiles": [
            {"hex": _hex(h.hex), "owner": h.owner, "settlement": _str(h.settlement)}
            for h in sorted(campaign.tiles.values(), key=lambda h: h.hex)
        ],
        "armies": [_dump_army(army) for army in sort_units(campaign.armies.values())],
        "ships": [_dump_ship(ship) for ship in sort_units(campaign.ships.values())],
        "inputs": _dump_inputs(campaign.inputs),
    }
    if campaign.dice is not None:
        data["dice"] = list(campaign.dice)
    data["dice_rolled"] = campaign.dice_rolled
    if campaign.battle_turn is not None:
        data["battle_turn"] = campaign.battle_turn
    data["pending"] = [_dump_pending(p) for p in campaign.pending]
    data["battles"] = [dump_battle(battle) for battle in campaign.battles]
    data["events"] = [dict(event) for event in campaign.events]
    data["scores"] = scores
    return data


def _str(value: str | None) -> str | None:
    return None if value is None else str(value)


def sort_units[U: (Army, Ship)](units: Collection[U]) -> list[U]:
    return sorted(units, key=lambda unit: natural_key(unit.id))


def _dump_kingdom(kingdom: Kingdom) -> dict[str, object]:
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
    }


def _dump_army(army: Army) -> dict[str, object]:
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


def _dump_inputs(inputs: Inputs) -> dict[str, object]:
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
        data["battles"] = [_dump_battle_input(entry) for entry in inputs.battles]
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
            k: [{"army": p.army, "hex": _hex(p.hex)} for p in placements]
            for k, placements in inputs.deploy.items()
        }
    return data


def dump_purchase(purchase: Purchase) -> dict[str, object]:
    if purchase.kind is PurchaseKind.DISBAND:
        return {"disband": purchase.army}
    if purchase.kind is PurchaseKind.ARMY:
        data: dict[str, object] = {"recruit": "army", "hex": _hex(purchase.hex)}
        if purchase.ally is not None:
            data["ally"] = purchase.ally
        return data
    return {"build": str(purchase.kind), "hex": _hex(purchase.hex)}


def _dump_battle_input(entry: BattleInput) -> dict[str, object]:
    data: dict[str, object] = {"hex": _hex(entry.hex)}
    for key in ("concede", "last_stand", "naval", "result", "winner", "resolve"):
        value = getattr(entry, key)
        if value is not None:
            data[key] = value
    return data


def _dump_pending(pending: Pending) -> dict[str, object]:
    return {"kind": pending.kind, "kingdom": pending.kingdom, **pending.detail}


def dump_battle(battle: Battle) -> dict[str, object]:
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
    if battle.extra:
        data["extra"] = dict(battle.extra)
    return data
