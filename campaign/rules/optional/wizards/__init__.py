"""Option `wizards` (campaign-options.md, OA4 to OA11): Wizard's towers (`towers`: OA4,
OA5), quests at them (OA6, OA7), and the campaign-wide pool of magical artefacts
(`artefacts`: OA8 to OA10), each at its point of OG7's order of play."""

from collections.abc import Sequence
from dataclasses import replace

from campaign.rules.hexmap import Hex
from campaign.rules.optional.rule import OptionalRule, OptionRow, PurchaseRule, each_side
from campaign.rules.optional.wizards import artefacts, fields
from campaign.rules.optional.wizards.towers import (
    bot_quests,
    move_into_tower,
    quest_refusal,
    tower_blocks,
    tower_rises,
)
from campaign.rules.state import Battle, Campaign, PurchaseKind
from campaign.rules.turn import Turn


def _card(campaign: Campaign, battle: Battle) -> Battle:
    """OA9: the card shows both sides the artefacts on the armies in the battle, and from
    then on they are public in the file's battles."""
    return each_side(
        battle, lambda s: replace(s, artefacts=artefacts.on_armies(campaign, s.armies))
    )


def _beaten(
    campaign: Campaign,
    armies: Sequence[str],
    winner: str | None,
    hex_: Hex,
    turn: Turn,
    names: Sequence[str] | None,
) -> Campaign:
    """OA10: what the winner takes from the armies it beat."""
    return artefacts.taken(campaign, armies, winner, hex_, turn, names=names)


RULE = OptionalRule(
    row=OptionRow(
        "wizards",
        "Wizard's towers",
        "Towers rise where an exploration rolls doubles twice; heroes quest at them for "
        "magical artefacts (options OA4 to OA11).",
        default=False,
        switch=True,
    ),
    fields={
        "": ("towers", "artefacts"),
        "inputs.purchases[]": ("quest", "hero", "points"),
        "battles[].sides[]": ("artefacts",),
        "inputs.deploy[]": ("artefact",),
        "inputs.battles[]": ("captured",),
    },
    read={
        "": fields.read_top,
        "battles[].sides[]": fields.read_side,
        "inputs.battles[]": fields.read_battle_input,
    },
    checks={"tiles": fields.check_towers, "units": fields.check_pool_and_quests},
    write={
        "": fields.write_top,
        "battles[].sides[]": fields.write_side,
        "inputs.battles[]": fields.write_battle_input,
    },
    deploy_entry=fields.ALLOCATION,
    move_refused=move_into_tower,
    move_stopped=tower_blocks,
    explored=tower_rises,
    battle_card=_card,
    result_refused=artefacts.capture_refused,
    armies_beaten=_beaten,
    capital_lost=artefacts.capital_fallen,
    purchases={PurchaseKind.QUEST: PurchaseRule(quest_refusal, artefacts.quest, fields.QUEST)},
    deploy_given=artefacts.check_allocations,
    deployed=artefacts.allocate,
    step_done=artefacts.left_behind,
    bot_purchases=bot_quests,
)
