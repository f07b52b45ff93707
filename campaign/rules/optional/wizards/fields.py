"""Option `wizards` in the campaign file (campaign-file.md): the map's `towers` (OA5), the
`artefacts` pool (OA8), a battle side's `artefacts` (OA9), a purchase's `quest` (OA6), a
deploy list's `artefact` entries (OA9) and a won battle's `captured` (OA10): how each is
read, checked and written."""

from collections.abc import Mapping

from campaign.rules.errors import RuleError
from campaign.rules.filevalues import Json, optional_field
from campaign.rules.hexmap import Hex
from campaign.rules.optional.rule import Entry
from campaign.rules.optional.wizards.artefacts import kings_of_war_pool
from campaign.rules.state import (
    Allocation,
    Artefact,
    BattleInput,
    BattleSide,
    Campaign,
    Holder,
    Purchase,
    PurchaseKind,
)

# --- reading ---------------------------------------------------------------------------------


def read_top(top: Mapping[str, Json]) -> Mapping[str, object]:
    """The map's towers (OA5), and the pool (OA8): as the file lists it; none listed, Kings
    of War's forty, all free."""
    return {
        "towers": _read_towers(top["towers"]) if "towers" in top else frozenset(),
        "artefacts": _read_pool(top["artefacts"]) if "artefacts" in top else kings_of_war_pool(),
    }


def _read_towers(json: Json) -> frozenset[Hex]:
    return frozenset(item.as_hex() for item in json.as_list())


def _read_pool(json: Json) -> tuple[Artefact, ...]:
    return tuple(_artefact(item) for item in json.as_list())


def _artefact(json: Json) -> Artefact:
    fields = json.as_object(required=("name", "points"), optional=("holder",))
    return Artefact(
        name=fields["name"].as_str(),
        points=fields["points"].as_int(Artefact.LOWEST, Artefact.HIGHEST),
        holder=optional_field(fields, "holder", lambda j: j.optional(_holder), None),
    )


def _holder(json: Json) -> Holder:
    fields = json.as_object(required=("kingdom",), optional=("army",))
    army = optional_field(fields, "army", lambda j: j.optional(Json.as_str), None)
    return Holder(kingdom=fields["kingdom"].as_str(), army=army)


def read_side(fields: Mapping[str, Json]) -> Mapping[str, object]:
    """The artefacts a battle's card shows on a side's armies (OA9)."""
    return {
        "artefacts": optional_field(
            fields, "artefacts", lambda j: tuple(i.as_str() for i in j.as_list()), None
        )
    }


def read_battle_input(fields: Mapping[str, Json]) -> Mapping[str, object]:
    """A tabletop win's `captured` (OA10): names, each once."""
    if "captured" not in fields:
        return {"captured": ()}
    if "winner" not in fields:
        fields["captured"].refuse("unknown-field", "Only a win captures artefacts.")
    names = tuple(item.as_str() for item in fields["captured"].as_list())
    if len(set(names)) != len(names):
        fields["captured"].refuse("bad-battle-input", "Each artefact is captured once.")
    return {"captured": names}


def _read_quest(json: Json, fields: Mapping[str, Json]) -> Purchase:
    """A quest (OA6): `{"quest": tower, "hero": name, "points": p}`; a malformed one
    refuses the file (settled points of part A)."""
    if "hex" in fields or "ally" in fields:
        json.refuse("bad-purchase", "A quest names its tower, its hero and his points only.")
    for key in ("hero", "points"):
        if key not in fields:
            json.child(key).refuse("missing-field", f"A quest needs {key!r}.")
    hero = fields["hero"].as_str().strip()
    if not hero:
        fields["hero"].refuse("bad-purchase", "A quest's hero has a name.")
    return Purchase(
        PurchaseKind.QUEST,
        hex=fields["quest"].as_hex(),
        hero=hero,
        points=fields["points"].as_int(0, 1000),
    )


def _read_allocation(json: Json, fields: Mapping[str, Json]) -> Allocation:
    """An artefact's place in a kingdom's deploy list (OA9): on an army, or (null) at the
    capital."""
    if "hex" in fields:
        json.refuse("bad-deploy", "An artefact's entry names the artefact and its army.")
    army = fields["army"].optional(Json.as_str)
    return Allocation(artefact=fields["artefact"].as_str(), army=army)


# --- checking --------------------------------------------------------------------------------


def check_towers(campaign: Campaign) -> None:
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


def check_pool_and_quests(campaign: Campaign) -> None:
    """The pool (OA8), then the quests (OA6)."""
    _check_artefacts(campaign)
    _check_quests(campaign)


def _check_artefacts(campaign: Campaign) -> None:
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


def _check_quests(campaign: Campaign) -> None:
    """A quest (OA6) goes to one of the map's Wizard's towers."""
    for kingdom_id, purchases in campaign.inputs.purchases.items():
        for index, purchase in enumerate(purchases):
            if purchase.kind is PurchaseKind.QUEST and purchase.hex not in campaign.towers:
                raise RuleError(
                    "unknown-tower",
                    f"inputs.purchases.{kingdom_id}[{index}].quest",
                    f"No Wizard's tower stands at {list(purchase.hex or ())} (option OA6).",
                )


# --- writing ---------------------------------------------------------------------------------


def write_top(campaign: Campaign) -> Mapping[str, object]:
    return {
        "towers": [list(tower) for tower in sorted(campaign.towers)],
        "artefacts": [_artefact_written(artefact) for artefact in campaign.artefacts],
    }


def _artefact_written(artefact: Artefact) -> dict[str, object]:
    holder = artefact.holder
    return {
        "name": artefact.name,
        "points": artefact.points,
        "holder": None if holder is None else {"kingdom": holder.kingdom, "army": holder.army},
    }


def write_side(side: BattleSide) -> Mapping[str, object]:
    return {"artefacts": list(side.artefacts)} if side.artefacts is not None else {}


def write_battle_input(entry: BattleInput) -> Mapping[str, object]:
    return {"captured": list(entry.captured)} if entry.captured else {}


def _quest_written(purchase: Purchase) -> dict[str, object]:
    tower = None if purchase.hex is None else list(purchase.hex)
    return {"quest": tower, "hero": purchase.hero, "points": purchase.points}


def _allocation_written(entry: Allocation) -> dict[str, object]:
    return {"artefact": entry.artefact, "army": entry.army}


QUEST = Entry("quest", _read_quest, _quest_written)
ALLOCATION = Entry("artefact", _read_allocation, _allocation_written)
