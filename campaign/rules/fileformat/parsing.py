"""Parsing the campaign file (format 1) into the engine's state, or a RuleError naming what
is wrong."""

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any

from campaign.rules import optional
from campaign.rules.fileformat.reading import FORMAT, TOP_LEVEL
from campaign.rules.fileformat.validating import validate_state
from campaign.rules.filevalues import Json, optional_field
from campaign.rules.hexmap import Hex, cached_map_from_json
from campaign.rules.optional.rule import OptionRow
from campaign.rules.options import OPTION_FIELDS, OPTION_ROWS
from campaign.rules.state import (
    HORDE,
    STEPS,
    Allocation,
    Army,
    Battle,
    BattleInput,
    BattleSide,
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


def parse_campaign(data: object) -> Campaign:
    """The campaign in a parsed JSON document, or a RuleError naming what is wrong."""
    document = Json(data, "")
    if not isinstance(data, dict):
        document.refuse("wrong-type", "The file must be a JSON object.")
    options = _options(document.child("options")) if "options" in data else Options()
    top = _fields(
        document, "", options, required=("format", "map", "clock", "kingdoms"), optional=TOP_LEVEL
    )
    if top["format"].as_int() != FORMAT:
        top["format"].refuse("unknown-format", f"This engine reads campaign file format {FORMAT}.")
    hexmap = cached_map_from_json(top["map"].value, "map")
    kingdoms = tuple(_kingdom(item, options) for item in top["kingdoms"].as_list())
    known = {kingdom.id for kingdom in kingdoms}
    campaign = Campaign(
        name=optional_field(top, "name", Json.as_str, ""),
        options=options,
        map=hexmap,
        clock=_clock(top["clock"]),
        player_order=tuple(item.as_str() for item in top["player_order"].as_list())
        if "player_order" in top
        else (),
        kingdoms=kingdoms,
        tiles=_tiles(top["tiles"]) if "tiles" in top else {},
        armies=_by_id(top["armies"], lambda item: _army(item, options)) if "armies" in top else {},
        ships=_by_id(top["ships"], _ship) if "ships" in top else {},
        inputs=_inputs(top["inputs"], known, options) if "inputs" in top else Inputs(),
        dice=_dice(top["dice"]) if "dice" in top and not top["dice"].is_null() else None,
        dice_rolled=optional_field(top, "dice_rolled", lambda j: j.as_int(minimum=0), 0),
        battle_turn=top["battle_turn"].optional(Json.as_str) if "battle_turn" in top else None,
        battles=tuple(_battle(item, options) for item in top["battles"].as_list())
        if "battles" in top
        else (),
        events=_events(top["events"]) if "events" in top else (),
        **optional.read(options, "", top),
    )
    validate_state(campaign)
    counted = tuple(
        _with_counters(k, campaign.armies.values(), campaign.ships.values()) for k in kingdoms
    )
    return optional.file_read(replace(campaign, kingdoms=counted))


def _options(json: Json) -> Options:
    fields = json.as_object(optional=tuple(OPTION_ROWS))
    values: dict[str, Any] = {
        key: _option(value, OPTION_ROWS[key])
        for key, value in fields.items()
        if not OPTION_ROWS[key].switch
    }
    switches = {key for key, value in fields.items() if OPTION_ROWS[key].switch and value.as_bool()}
    for row in OPTION_ROWS.values():
        if row.needs and (row.needs in switches) != (row.name in values):
            if row.name in values:
                fields[row.name].refuse(
                    "option-off", f"options.{row.name} is set, but option {row.needs} is off."
                )
            json.refuse("missing-field", f"options.{row.name} is required while {row.needs} is on.")
    return Options(**values, switches=frozenset(switches))


def _option(json: Json, row: OptionRow) -> object:
    """One option's value, read and checked by its row of the options table."""
    if row.enum is not None:
        text = json.as_str()
        if text not in row.choices:
            allowed = ", ".join(row.choices)
            json.refuse("unknown-value", f"{json.path} must be one of {allowed}, not {text!r}.")
        return row.enum(text)
    if row.choices or row.text:
        text = json.as_str()
        if row.choices and text not in row.choices:
            allowed = ", ".join(row.choices)
            json.refuse("unknown-value", f"{json.path} must be one of {allowed}, not {text!r}.")
        return text
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


def _kingdom(json: Json, options: Options) -> Kingdom:
    fields = _fields(
        json, "kingdoms[]", options,
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
    )  # fmt: skip
    kingdom_id = fields["id"].as_str()
    return Kingdom(
        id=kingdom_id,
        name=optional_field(fields, "name", Json.as_str, kingdom_id),
        race=optional_field(fields, "race", lambda j: j.optional(Json.as_str), None),
        capital=optional_field(fields, "capital", lambda j: j.optional(Json.as_hex), None),
        gold=optional_field(fields, "gold", lambda j: j.as_int(minimum=0), 0),
        food=optional_field(fields, "food", lambda j: j.as_int(minimum=0), 0),
        pitched_wins=optional_field(fields, "pitched_wins", lambda j: j.as_int(minimum=0), 0),
        pitched_losses=optional_field(fields, "pitched_losses", lambda j: j.as_int(minimum=0), 0),
        eliminated=optional_field(
            fields, "eliminated", lambda j: j.optional(lambda y: y.as_int(minimum=1)), None
        ),
        armies_raised=optional_field(fields, "armies_raised", lambda j: j.as_int(minimum=0), 0),
        ships_built=optional_field(fields, "ships_built", lambda j: j.as_int(minimum=0), 0),
        **optional.read(options, "kingdoms[]", fields),
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
    settlement = optional_field(
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


def _fields(
    json: Json, where: str, options: Options, required: Collection[str], optional: Collection[str]
) -> dict[str, Json]:
    """`json.as_object`, with the fields the optional rules that are on add `where` (an
    entry of OPTION_FIELDS); a field of a rule that is off is refused by name (OG1)."""
    added = []
    for option, key in OPTION_FIELDS.get(where, ()):
        if options.on(option):
            added.append(key)
        elif isinstance(json.value, dict) and key in json.value:
            json.child(key).refuse(
                "option-off",
                f"{key!r} belongs to the option {option}, which is off in this campaign "
                "(rule OG1).",
            )
    return json.as_object(required=required, optional=(*optional, *added))


def _army(json: Json, options: Options) -> Army:
    fields = _fields(
        json, "armies[]", options,
        required=("id", "kingdom", "hex"),
        optional=("upright", "ally", "defending", "moved", "retreat"),
    )  # fmt: skip
    return Army(
        id=fields["id"].as_str(),
        kingdom=fields["kingdom"].as_str(),
        hex=fields["hex"].as_hex(),
        upright=optional_field(fields, "upright", Json.as_bool, True),
        ally=optional_field(fields, "ally", lambda j: j.optional(Json.as_str), None),
        defending=optional_field(fields, "defending", Json.as_bool, False),
        moved=optional_field(fields, "moved", lambda j: j.optional(_move), None),
        retreat=optional_field(fields, "retreat", lambda j: j.optional(_retreat_kind), None),
        **optional.read(options, "armies[]", fields),
    )


def _ship(json: Json) -> Ship:
    fields = json.as_object(
        required=("id", "kingdom", "hex"), optional=("upright", "carrying", "retreat")
    )
    return Ship(
        id=fields["id"].as_str(),
        kingdom=fields["kingdom"].as_str(),
        hex=fields["hex"].as_hex(),
        upright=optional_field(fields, "upright", Json.as_bool, True),
        carrying=optional_field(fields, "carrying", lambda j: j.optional(Json.as_str), None),
        retreat=optional_field(fields, "retreat", lambda j: j.optional(_retreat_kind), None),
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


def _battle(json: Json, options: Options) -> Battle:
    fields = _fields(
        json, "battles[]", options,
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
    )  # fmt: skip
    sides = tuple(_battle_side(item, options) for item in fields["sides"].as_list())
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
        board=optional_field(fields, "board", optional_str, None),
        condition=optional_field(fields, "condition", optional_str, None),
        scenario=optional_field(fields, "scenario", optional_str, None),
        defender_benefit=optional_field(fields, "defender_benefit", optional_str, None),
        last_stand=optional_field(fields, "last_stand", optional_str, None),
        **optional.read(options, "battles[]", fields),
        status=BattleStatus(status),
        result=optional_field(fields, "result", optional_str, None),
        winner=optional_field(fields, "winner", optional_str, None),
        dice=optional_field(fields, "dice", _dice, ()),
        extra=optional_field(fields, "extra", _event, {}),
    )


def _battle_side(json: Json, options: Options) -> BattleSide:
    fields = _fields(
        json, "battles[].sides[]", options,
        required=("kingdom", "armies", "ships"),
        optional=("points", "strategy_cards", "defending"),
    )  # fmt: skip
    return BattleSide(
        kingdom=fields["kingdom"].as_str(),
        armies=tuple(item.as_str() for item in fields["armies"].as_list()),
        ships=tuple(item.as_str() for item in fields["ships"].as_list()),
        points=optional_field(fields, "points", lambda j: j.as_int(minimum=0), 0),
        strategy_cards=optional_field(fields, "strategy_cards", lambda j: j.as_int(minimum=0), 0),
        defending=optional_field(fields, "defending", Json.as_bool, False),
        **optional.read(options, "battles[].sides[]", fields),
    )


def _inputs(json: Json, known: Collection[str], options: Options) -> Inputs:
    # Who may be named in a battle's entries: the kingdoms, and the horde while there is one.
    sides = {*known, HORDE} if options.marauder_general is not None else known
    fields = _fields(
        json, "inputs", options,
        required=(),
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
    )  # fmt: skip

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
            _battle_input(item, sides, position, options)
            for position, item in enumerate(fields["battles"].as_list())
        )
        if "battles" in fields
        else (),
        retreats={unit: value.as_hex() for unit, value in fields["retreats"].as_mapping().items()}
        if "retreats" in fields
        else {},
        tithes=per_kingdom("tithes", lambda j: tuple(_tithe(item) for item in j.as_list())),
        purchases=per_kingdom(
            "purchases", lambda j: tuple(_purchase(i, options) for i in j.as_list())
        ),
        feed=per_kingdom("feed", _feed),
        deploy=per_kingdom("deploy", lambda j: tuple(_placement(i, options) for i in j.as_list())),
        **optional.read(options, "inputs", fields),
    )


def _tithe(json: Json) -> Tithe:
    fields = json.as_object(required=("to",), optional=("gold", "food"))
    return Tithe(
        to=fields["to"].as_str(),
        gold=optional_field(fields, "gold", lambda j: j.as_int(0, 1), 0),
        food=optional_field(fields, "food", lambda j: j.as_int(0, 1), 0),
    )


# What the file's own `build` makes (an optional rule's builds are its entries: a road).
OWN_BUILDS = frozenset(
    {
        PurchaseKind.VILLAGE,
        PurchaseKind.CITY,
        PurchaseKind.FORTRESS,
        PurchaseKind.CAPITAL,
        PurchaseKind.SHIP,
    }
)


def _purchase(json: Json, options: Options) -> Purchase:
    fields = _fields(
        json, "inputs.purchases[]", options,
        required=(), optional=("build", "recruit", "disband", "hex", "ally"),
    )  # fmt: skip
    own = ("build", "recruit", "disband")
    actions = [key for key in (*own, *optional.purchase_keys(options)) if key in fields]
    if len(actions) != 1:
        json.refuse("bad-purchase", "Each purchase is one of: build, recruit or disband.")
    entry = optional.purchase_entry(options, fields)
    if entry is not None:
        return entry.read(json, fields)
    if "disband" in fields:
        if "hex" in fields or "ally" in fields:
            json.refuse("bad-purchase", "A disband names only the army.")
        return Purchase(PurchaseKind.DISBAND, army=fields["disband"].as_str())
    if "hex" not in fields:
        json.child("hex").refuse("missing-field", "A build or a recruit needs 'hex'.")
    if "build" in fields:
        kind = fields["build"].choice(PurchaseKind)
        if kind not in OWN_BUILDS or "ally" in fields:
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
        ally=optional_field(fields, "ally", lambda j: j.optional(Json.as_str), None),
    )


def _feed(json: Json) -> tuple[str, ...]:
    fields = json.as_object(optional=("disband",))
    return (
        tuple(item.as_str() for item in fields["disband"].as_list()) if "disband" in fields else ()
    )


def _placement(json: Json, options: Options) -> Placement | Allocation:
    """An army's place (W7), or an entry an optional rule adds (OA9)."""
    fields = _fields(json, "inputs.deploy[]", options, required=("army",), optional=("hex",))
    entry = optional.deploy_entry(options, fields)
    if entry is not None:
        return entry.read(json, fields)
    if "hex" not in fields:
        json.child("hex").refuse("missing-field", "'hex' is missing.")
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
    to = optional_field(fields, "to", lambda j: j.optional(Json.as_hex), None)
    if kind is OrderKind.MOVE and to is None:
        json.child("to").refuse("missing-field", "A move order needs 'to', the tile to move into.")
    if kind is not OrderKind.MOVE and to is not None:
        fields["to"].refuse("unknown-field", f"Only a move order has 'to', not {kind}.")
    return Order(
        unit=fields["unit"].as_str(),
        order=kind,
        to=to,
        carry=optional_field(fields, "carry", lambda j: j.optional(Json.as_str), None),
    )


def _battle_input(
    json: Json, known: Collection[str], position: int, options: Options
) -> BattleInput:
    fields = _fields(
        json, "inputs.battles[]", options,
        required=("hex",),
        optional=("concede", "last_stand", "naval", "result", "winner", "resolve"),
    )  # fmt: skip
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
        **optional.read(options, "inputs.battles[]", fields),
        position=position,
    )
