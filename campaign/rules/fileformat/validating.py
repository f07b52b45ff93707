"""Validating a parsed state: what the file's parts must agree on (kingdoms, tiles, units,
battles), each refused with a code and the field."""

from collections import Counter
from collections.abc import Collection

from campaign.rules import optional
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex
from campaign.rules.state import (
    MAX_ARMIES,
    Campaign,
    Settlement,
    Ship,
)


def validate_state(campaign: Campaign) -> None:
    """Refuse a state the rules can't produce: units where they may not stand, unknown
    kingdoms, two capitals, more than six armies (the first problem found)."""
    _validate_kingdoms(campaign)
    _validate_tiles(campaign)
    optional.check(campaign, after="tiles")
    _validate_units(campaign)
    optional.check(campaign, after="units")
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
    """Every battle is between kingdoms of the file (or one and the horde, OW5)."""
    known = campaign.sides()
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
