"""Option `succession` (campaign-options.md, OB5 to OB7): a winter step after the gather, in
which each kingdom's ruler may die (a die: 1, or 1 to 2 without a capital; else the reign
grows). On a death the heir's die (+1 with a capital, +1 after a reign of 3 or more) says
how the crown passes: 6 or more peacefully; 3 to 5 disputed, an army disbanded; 2 or less
civil war, an army disbanded and the settlement farthest from the capital razed. The
kingdom picks the army (default: the last raised). Every die is rolled as the step opens;
the step closes once every army owed is chosen. Fields: `kingdoms[].reign`,
`kingdoms[].heir`, input `succession: {k: {"disband": army}}`; pending `succession`."""

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from campaign.rules.errors import RuleError
from campaign.rules.filevalues import Json, optional_field
from campaign.rules.hexmap import Hex, distance
from campaign.rules.optional.rule import OptionalRule, OptionRow, OwnStep, kingdoms_known
from campaign.rules.state import Campaign, Kingdom, PendingKind, Step
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

PEACEFUL, DISPUTED, CIVIL_WAR = "peaceful", "disputed", "civil_war"
HEIRS = (PEACEFUL, DISPUTED, CIVIL_WAR)
LONG_REIGN = 3  # OB6: +1 to the heir's die after a reign this long


def dies(die: int, kingdom: Kingdom) -> bool:
    """OB5: on a 1, or on 1 or 2 without a capital (W1's stand-in is none)."""
    return die <= (1 if kingdom.capital is not None else 2)


def heir_of(die: int, kingdom: Kingdom) -> str:
    """OB6: the heir's die, +1 with a capital, +1 after a reign of 3 or more."""
    total = die + (kingdom.capital is not None) + (kingdom.reign >= LONG_REIGN)
    return PEACEFUL if total >= 6 else DISPUTED if total >= 3 else CIVIL_WAR


def _armies(campaign: Campaign, kingdom_id: str) -> list[str]:
    """The kingdom's armies in the file's order: the last is the most recently raised
    (OB7's settled point)."""
    return [a.id for a in campaign.armies.values() if a.kingdom == kingdom_id]


# --- the step opens: the dice (OB5, OB6) ----------------------------------------------------------


def _deaths(campaign: Campaign, turn: Turn) -> Campaign:
    """Every kingdom's dice, in player order (the death die; on a death at once the heir's);
    then, in player order, the reigns, a civil war's razing, and the heirs."""
    rolled: list[tuple[str, list[int]]] = []
    for kingdom_id in campaign.player_order:
        kingdom = campaign.kingdom(kingdom_id)
        die = turn.roll()
        rolled.append((kingdom_id, [die, turn.roll()] if dies(die, kingdom) else [die]))
    for kingdom_id, dice in rolled:
        kingdom = campaign.kingdom(kingdom_id)
        if len(dice) == 1:
            turn.record(
                EventType.RULER_LIVED, kingdom=kingdom_id, dice=dice, reign=kingdom.reign + 1
            )
            campaign = campaign.with_kingdom(replace(kingdom, reign=kingdom.reign + 1))
            continue
        heir = heir_of(dice[1], kingdom)
        turn.record(
            EventType.RULER_DIED, kingdom=kingdom_id, dice=dice, heir=heir, reign=kingdom.reign
        )
        campaign = campaign.with_kingdom(replace(kingdom, reign=0, heir=heir))
        if heir == CIVIL_WAR:
            campaign = _civil_war(campaign, kingdom_id, turn)
    return campaign


def _civil_war(campaign: Campaign, kingdom_id: str, turn: Turn) -> Campaign:
    """OB6: the kingdom's settlement farthest by hex distance from its capital, else from
    W1's stand-in (never that tile; ties in [q, r] order) is razed; with neither, none."""
    centre = campaign.kingdom(kingdom_id).capital or campaign.stand_in(kingdom_id)
    if centre is None:
        return campaign
    others = [
        h
        for h, held in campaign.tiles.items()
        if held.owner == kingdom_id and held.settlement is not None and h != centre
    ]
    if not others:
        return campaign
    farthest: Hex = min(others, key=lambda h: (-distance(centre, h), h))
    holding = campaign.tiles[farthest]
    turn.record(
        EventType.CIVIL_WAR_RAZED,
        kingdom=kingdom_id,
        hex=list(farthest),
        settlement=str(holding.settlement),
    )
    return campaign.with_holding(replace(holding, settlement=None))


# --- the step: the armies owed (OB7) ----------------------------------------------------------------


def owes(kingdom: Kingdom) -> bool:
    return kingdom.heir in (DISPUTED, CIVIL_WAR)


def _succession(campaign: Campaign, turn: Turn) -> Campaign:
    """The armies owed: a kingdom with two or more is asked which (every such kingdom at
    once), unless it has said or its default is taken; once every army owed is chosen, in
    player order each owing kingdom disbands it, the heirs are cleared and the clock moves
    to the tithe."""
    chosen: dict[str, str] = {}
    for kingdom_id in campaign.player_order:
        kingdom = campaign.kingdom(kingdom_id)
        armies = _armies(campaign, kingdom_id)
        if not owes(kingdom) or not armies:
            continue
        given = campaign.inputs.succession.get(kingdom_id)
        if given is not None and given not in armies:
            raise RuleError(
                "not-your-army",
                f"inputs.succession.{kingdom_id}.disband",
                f"{given} is not an army of {kingdom_id}.",
                given,
            )
        if given is not None or len(armies) == 1:
            chosen[kingdom_id] = given or armies[0]
        elif turn.takes_default(PendingKind.SUCCESSION, kingdom_id):
            chosen[kingdom_id] = armies[-1]
        else:
            turn.wait(PendingKind.SUCCESSION, kingdom_id, armies=armies)
    if turn.pending:
        return campaign
    for kingdom_id, army in chosen.items():
        turn.record(EventType.DISBANDED, kingdom=kingdom_id, army=army, why="succession")
        campaign = campaign.without_unit(army)
    kingdoms = tuple(replace(k, heir=None) for k in campaign.kingdoms)
    inputs = replace(campaign.inputs, succession={})
    return replace(campaign, kingdoms=kingdoms, inputs=inputs).at(Step.TITHE)


# --- the campaign file ------------------------------------------------------------------------------


def _heir(json: Json) -> str | None:
    if json.is_null():
        return None
    heir = json.as_str()
    if heir not in HEIRS:
        json.refuse("unknown-value", f"An heir is {', '.join(HEIRS)} or null, not {heir!r}.")
    return heir


def _read_kingdom(fields: Mapping[str, Json]) -> Mapping[str, Any]:
    return {
        "reign": optional_field(fields, "reign", lambda j: j.as_int(minimum=0), 0),
        "heir": optional_field(fields, "heir", _heir, None),
    }


def _written_kingdom(kingdom: Kingdom) -> Mapping[str, object]:
    return {"reign": kingdom.reign, "heir": kingdom.heir}


def _read_inputs(fields: Mapping[str, Json]) -> Mapping[str, Any]:
    if "succession" not in fields:
        return {}
    given: dict[str, str] = {}
    for kingdom_id, entry in fields["succession"].as_mapping().items():
        given[kingdom_id] = entry.as_object(required=("disband",))["disband"].as_str()
    return {"succession": given}


def _written_inputs(inputs: Any) -> Mapping[str, object]:
    given = inputs.succession
    return {"succession": {k: {"disband": a} for k, a in given.items()}} if given else {}


def _checked(campaign: Campaign) -> None:
    """An entry's kingdom is the campaign's (OB7's settled point); an heir stands only at the
    succession step."""
    kingdoms_known(campaign, campaign.inputs.succession, "inputs.succession")
    if campaign.clock.step is not Step.SUCCESSION:
        for index, kingdom in enumerate(campaign.kingdoms):
            if kingdom.heir is not None:
                raise RuleError(
                    "heir-out-of-step",
                    f"kingdoms[{index}].heir",
                    f"{kingdom.id}'s heir is told only at the succession step.",
                )


RULE = OptionalRule(
    row=OptionRow(
        "succession",
        "The ruler's death",
        "Each winter a ruler may die; a disputed heir costs an army, a civil war a "
        "settlement too (options OB5 to OB7).",
        default=False,
        switch=True,
    ),
    fields={"kingdoms[]": ("reign", "heir"), "inputs": ("succession",)},
    read={"kingdoms[]": _read_kingdom, "inputs": _read_inputs},
    write={"kingdoms[]": _written_kingdom, "inputs": _written_inputs},
    checks={"units": _checked},
    opens={Step.SUCCESSION: _deaths},
    own_step=OwnStep(Step.GATHER, Step.SUCCESSION, _succession),
)
