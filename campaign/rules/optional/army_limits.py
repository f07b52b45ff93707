"""Option `army_limits` (campaign-options.md, OA1 to OA3): monsters and war engines by the
terrain an army was raised in.

An army's licence is fixed when it is raised (OA1); a tabletop pitched battle's card prints
what each side may spend on Monsters and on War Engines (OA2). The engine checks no lists:
the players do, by the card."""

from collections.abc import Mapping
from dataclasses import replace

from campaign.rules.filevalues import Json, optional_field
from campaign.rules.hexmap import Hex, Terrain
from campaign.rules.optional.rule import OptionalRule, OptionRow, each_side
from campaign.rules.state import Army, Battle, BattleSide, Campaign, Licence

POINTS_PER_ARMY = 500  # OA2: per upright army of the side holding that licence


def licence(campaign: Campaign, kingdom_id: str, at: Hex) -> tuple[Licence, ...]:
    """The licence of an army `kingdom_id` raises at `at` (its fortress; the starting army
    is judged at the capital), OA1: `monsters` if the tile is mountains, or is next to a
    mountains tile the kingdom controls or to any marsh; `war_engines` if the tile is forest
    or is next to a forest tile the kingdom controls."""
    hexmap = campaign.map

    def terrain(h: Hex) -> Terrain:
        return hexmap.tiles[h].terrain

    around = hexmap.neighbours(at)
    controlled = [h for h in around if campaign.owner(h) == kingdom_id]
    monsters = (
        terrain(at) is Terrain.MOUNTAINS
        or any(terrain(h) is Terrain.MOUNTAINS for h in controlled)
        or any(terrain(h) is Terrain.MARSH for h in around)
    )
    war_engines = terrain(at) is Terrain.FOREST or any(
        terrain(h) is Terrain.FOREST for h in controlled
    )
    given = {Licence.MONSTERS: monsters, Licence.WAR_ENGINES: war_engines}
    return tuple(kind for kind in Licence if given[kind])


def limits(armies: list[Army]) -> Mapping[Licence, int]:
    """What a side of upright `armies` may spend on each kind (OA2): 500 points per army
    licensed for it."""
    return {
        kind: POINTS_PER_ARMY * sum(1 for army in armies if kind in army.licence)
        for kind in Licence
    }


def _licensed(campaign: Campaign, army: Army, judged_at: Hex) -> Army:
    """OA1: an army raised gets its licence, fixed for its life."""
    return replace(army, licence=licence(campaign, army.kingdom, judged_at))


def _card(campaign: Campaign, battle: Battle) -> Battle:
    """OA2: the card prints each side's limits."""
    return each_side(
        battle, lambda s: replace(s, limits=limits([campaign.army(a) for a in s.armies]))
    )


# --- the campaign file: an army's `licence`, a battle side's `limits` ---


def _read_licence(json: Json) -> tuple[Licence, ...]:
    """An army's licence (OA1): each of "monsters" and "war_engines" at most once, in
    that order."""
    given = {item.choice(Licence) for item in json.as_list()}
    return tuple(kind for kind in Licence if kind in given)


def _read_limits(json: Json) -> Mapping[Licence, int]:
    """A side's limits (OA2): points on Monsters and on War Engines."""
    fields = json.as_object(required=tuple(Licence))
    return {kind: fields[kind].as_int(minimum=0) for kind in Licence}


def _army_fields(fields: Mapping[str, Json]) -> Mapping[str, object]:
    unlicensed: tuple[Licence, ...] = ()
    return {"licence": optional_field(fields, "licence", _read_licence, unlicensed)}


def _side_fields(fields: Mapping[str, Json]) -> Mapping[str, object]:
    return {"limits": optional_field(fields, "limits", lambda j: j.optional(_read_limits), None)}


def _army_written(army: Army) -> Mapping[str, object]:
    return {"licence": [str(kind) for kind in army.licence]}


def _side_written(side: BattleSide) -> Mapping[str, object]:
    return {"limits": {str(k): p for k, p in side.limits.items()}} if side.limits else {}


RULE = OptionalRule(
    row=OptionRow(
        "army_limits",
        "Army limits by terrain",
        "Monsters and War Engines only from armies raised among mountains, marsh or forest, "
        "and no Kings of War magical artefacts (options OA1 to OA3).",
        default=False,
        switch=True,
    ),
    fields={"armies[]": ("licence",), "battles[].sides[]": ("limits",)},
    read={"armies[]": _army_fields, "battles[].sides[]": _side_fields},
    write={"armies[]": _army_written, "battles[].sides[]": _side_written},
    army_raised=_licensed,
    battle_card=_card,
)
