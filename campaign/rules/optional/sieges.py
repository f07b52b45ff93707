"""Option `sieges` (campaign-options.md, OA14 and OA15): a pitched battle handed to the
tabletop at a defended fortress or capital is a siege assault, and its card gives the
defender's works in place of the defended tile's benefit (B6)."""

from collections.abc import Mapping
from dataclasses import replace

from campaign.rules.filevalues import Json, optional_field
from campaign.rules.optional.rule import OptionalRule, OptionRow
from campaign.rules.state import Battle, Campaign, Settlement, Siege, Works


def siege_of(campaign: Campaign, battle: Battle) -> Siege | None:
    """OA14: the siege at a battle's tile, if a side's kingdom controls it, it holds that
    kingdom's fortress (stone works) or capital (wooden works; a plain city is no siege),
    and one of that kingdom's armies there Defends this month (a Last Stand's included)."""
    for side in battle.sides:
        kingdom_id = side.kingdom
        if campaign.owner(battle.hex) != kingdom_id:
            continue
        defends = any(
            army.defending
            for army in campaign.armies.values()
            if army.hex == battle.hex and army.kingdom == kingdom_id
        )
        if not defends:
            continue
        if campaign.settlement(battle.hex) is Settlement.FORTRESS:
            return Siege(kingdom_id, Works.STONE)
        if campaign.kingdom(kingdom_id).capital == battle.hex:
            return Siege(kingdom_id, Works.WOOD)
    return None


def _card(campaign: Campaign, battle: Battle) -> Battle:
    """OA14, OA15: the card says whether the battle is a siege; a siege's works replace the
    defended tile's benefit."""
    siege = siege_of(campaign, battle)
    if siege is None:
        return replace(battle, siege=None)
    return replace(battle, siege=siege, defender_benefit=None)


# --- the campaign file: a battle's `siege` ---


def _read_siege(json: Json) -> Siege:
    fields = json.as_object(required=("side", "works"))
    return Siege(side=fields["side"].as_str(), works=fields["works"].choice(Works))


def _battle_fields(fields: Mapping[str, Json]) -> Mapping[str, object]:
    return {"siege": optional_field(fields, "siege", lambda j: j.optional(_read_siege), None)}


def _battle_written(battle: Battle) -> Mapping[str, object]:
    """A battle handed to the tabletop says whether it is a siege (null: it is not)."""
    if battle.kind != "pitched" or battle.scenario is None:
        return {}
    siege = battle.siege
    return {"siege": {"side": siege.side, "works": str(siege.works)} if siege else None}


RULE = OptionalRule(
    row=OptionRow(
        "sieges",
        "Siege assaults",
        "A fortress or capital defended by its own kingdom's army is assaulted over towers "
        "and walls at the tabletop (options OA14 and OA15).",
        default=False,
        switch=True,
    ),
    fields={"battles[]": ("siege",)},
    read={"battles[]": _battle_fields},
    write={"battles[]": _battle_written},
    battle_card=_card,
)
