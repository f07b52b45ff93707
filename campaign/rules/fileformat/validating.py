"""Validating a parsed state: what the file's parts must agree on (kingdoms, tiles, units,
battles), each refused with a code and the field."""

from collections import Counter
from collections.abc import Collection

from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex
from campaign.rules.state import (
    MAX_ARMIES,
    Campaign,
    PurchaseKind,
    Settlement,
    Ship,
)


def validate_state(campaign: Campaign) -> None:
    """Refuse a state the rules can't produce: units where they may not stand, unknown
    kingdoms, two capitals, more than six armies (the first problem found)."""
    _validate_kingdoms(campaign)
    _validate_tiles(campaign)
    _validate_towers(campaign)
    _validate_units(campaign)
    _validate_artefacts(campaign)
    _validate_quests(campaign)
    _validate_battles(campaign)


def _validate_artefacts(campaign: Campaign) -> None:
    """The artefacts' pool (OA8): each artefact once; a holder is a kingdom, and the army it
    names is one of that kingdom's."""
    names: set[str] = set()
    known = {kingdom.id for kingdom in campaign.kingdoms}
    for index, artefact in enumerate(campaign.artefacts):
        where = f"artefacts[{index}]"
        if artefact.name in names:
            raise RuleError(
                "duplicate-artefact",
                f"{where}.name",
                f"The artefact {artefact.name!r} is listed twice: each exists once (option OA8).",
            )
        names.add(artefact.name)
        holder = artefact.holder
        if holder is None:
            continue
        if holder.kingdom not in known:
            raise RuleError(
                "unknown-kingdom",
                f"{where}.holder.kingdom",
                f"There is no kingdom {holder.kingdom!r}.",
            )
        army = campaign.armies.get(holder.army or "")
        if holder.army is not None and (army is None or army.kingdom != holder.kingdom):
            raise RuleError(
                "unknown-unit",
                f"{where}.holder.army",
                f"{holder.kingdom} has no army {holder.army!r} to hold {artefact.name}.",
            )


def _validate_quests(campaign: Campaign) -> None:
    """A quest (OA6) goes to one of the map's Wizard's towers."""
    for kingdom_id, purchases in campaign.inputs.purchases.items():
        for index, purchase in enumerate(purchases):
            if purchase.kind is PurchaseKind.QUEST and purchase.hex not in campaign.towers:
                raise RuleError(
                    "unknown-tower",
                    f"inputs.purchases.{kingdom_id}[{index}].quest",
                    f"No Wizard's tower stands at {list(purchase.hex or ())} (option OA6).",
                )


def _validate_towers(campaign: Campaign) -> None:
    """A Wizard's tower (OA5) stands on the map's land, is never explored (never in
    `tiles`) and no unit stands in it."""
    occupied = {unit.hex for unit in campaign.units()}
    for index, tower in enumerate(sorted(campaign.towers)):
        where = f"towers[{index}]"
        tile = campaign.map.tiles.get(tower)
        if tile is None or tile.terrain == "ocean":
            raise RuleError("off-map", where, f"A tower stands on land: {list(tower)} is not.")
        if tower in campaign.tiles:
            raise RuleError(
                "tower-explored",
                where,
                f"{list(tower)} is a Wizard's tower: it is never explored (option OA5).",
            )
        if tower in occupied:
            raise RuleError(
                "unit-in-tower",
                where,
                f"A unit stands in the Wizard's tower {list(tower)}: none ever enters one "
                "(option OA5).",
            )


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
