"""Option `glory` (campaign-options.md, OB1 to OB4): a kingdom earns glory, one at a time,
for settlements built or upgraded in winter, explorations that place a settlement, battles
won against the horde, and conquest (a settlement tile taken takes 1 glory from its
loser, 3 for a capital, as far as it has any). The gain that brings glory to 5 drops it to
0 and claims an honour, the first unclaimed of the kingdom's secret wishes, else of OB3's
order; each honour has one holder and works from that moment (granaries, royal_mint,
war_college, veterans, strategists, master_masons, chroniclers). Might: 2 per honour (the
chroniclers 4); once every honour is claimed, 2 per full 5 glory. Fields:
`kingdoms[].glory`, `kingdoms[].honours`, `kingdoms[].honour_wishes`, and input
`honour_wishes`."""

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from campaign.rules.errors import RuleError
from campaign.rules.filevalues import Json, optional_field
from campaign.rules.hexmap import Hex
from campaign.rules.optional.rule import Gain, OptionalRule, OptionRow, each_side, kingdoms_known
from campaign.rules.state import Battle, Campaign, Kingdom, Purchase, PurchaseKind
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

GRANARIES = "granaries"
ROYAL_MINT = "royal_mint"
WAR_COLLEGE = "war_college"
VETERANS = "veterans"
STRATEGISTS = "strategists"
MASTER_MASONS = "master_masons"
CHRONICLERS = "chroniclers"
# OB3's order: the order honours are claimed in without wishes, and written in.
HONOURS = (GRANARIES, ROYAL_MINT, WAR_COLLEGE, VETERANS, STRATEGISTS, MASTER_MASONS, CHRONICLERS)
TO_CLAIM = 5  # OB2: the fifth glory claims an honour
HONOUR_MIGHT = 2  # OB4
CHRONICLERS_MIGHT = 4
CAPITAL_GLORY = 3  # OB1: a capital taken
MASONS_FORTRESS = (1, 0)  # OB3: village to fortress, in gold and food


def holds(kingdom: Kingdom, honour: str) -> bool:
    return honour in kingdom.honours


def _unclaimed(campaign: Campaign) -> list[str]:
    claimed = {h for k in campaign.kingdoms for h in k.honours}
    return [h for h in HONOURS if h not in claimed]


# --- glory, one at a time (OB1, OB2) -----------------------------------------------------------


def gain(
    campaign: Campaign, kingdom_id: str, count: int, why: str, turn: Turn, **detail: Any
) -> Campaign:
    """`count` glory for the kingdom, one at a time: the one that makes 5 drops its glory to
    0 and claims an honour while any is unclaimed (OB2)."""
    for _ in range(count):
        kingdom = campaign.kingdom(kingdom_id)
        glory = kingdom.glory + 1
        turn.record(EventType.GLORY_GAINED, kingdom=kingdom_id, why=why, glory=glory, **detail)
        unclaimed = _unclaimed(campaign)
        if glory >= TO_CLAIM and unclaimed:
            honour = next((w for w in kingdom.honour_wishes if w in unclaimed), unclaimed[0])
            turn.record(EventType.HONOUR_CLAIMED, kingdom=kingdom_id, honour=honour)
            honours = tuple(h for h in HONOURS if h in {*kingdom.honours, honour})
            kingdom = replace(kingdom, glory=0, honours=honours)
        else:
            kingdom = replace(kingdom, glory=glory)
        campaign = campaign.with_kingdom(kingdom)
    return campaign


def _built(campaign: Campaign, kingdom_id: str, hex_: Hex, turn: Turn) -> Campaign:
    return gain(campaign, kingdom_id, 1, "built", turn, hex=list(hex_))


def _found(campaign: Campaign, kingdom_id: str, hex_: Hex, turn: Turn) -> Campaign:
    return gain(campaign, kingdom_id, 1, "explored", turn, hex=list(hex_))


def _horde_beaten(
    campaign: Campaign, winner: str, destroyed: int, hex_: Hex, turn: Turn
) -> Campaign:
    """One glory a battle won against the horde, however many armies it destroys."""
    return gain(campaign, winner, 1, "horde", turn, hex=list(hex_))


def _taken(
    campaign: Campaign, taker: str, loser: str, hex_: Hex, capital: bool, turn: Turn
) -> Campaign:
    """OB1 conquest: 1 glory (3 for a capital) taken from the loser as far as it has any,
    the rest from the pool, each a gain of the taker's."""
    owed = CAPITAL_GLORY if capital else 1
    had = campaign.kingdom(loser).glory
    taken = min(owed, had)
    if taken:
        beaten = campaign.kingdom(loser)
        campaign = campaign.with_kingdom(replace(beaten, glory=had - taken))
        turn.record(
            EventType.GLORY_LOST, kingdom=loser, to=taker, glory=had - taken, hex=list(hex_)
        )
    return gain(campaign, taker, owed, "conquest", turn, hex=list(hex_), **{"from": loser})


# --- what each honour does (OB3) -----------------------------------------------------------------


def _gains(campaign: Campaign, kingdom_id: str, turn: Turn) -> Sequence[Gain]:
    kingdom = campaign.kingdom(kingdom_id)
    gains = []
    if holds(kingdom, GRANARIES):
        gains.append(Gain(GRANARIES, food=1))
    if holds(kingdom, ROYAL_MINT):
        gains.append(Gain(ROYAL_MINT, gold=1))
    return gains


def _price(
    campaign: Campaign, kingdom_id: str, kind: PurchaseKind, price: tuple[int, int]
) -> tuple[int, int]:
    """Master masons: a fortress (built on a village) costs 1 gold."""
    if kind is PurchaseKind.FORTRESS and holds(campaign.kingdom(kingdom_id), MASTER_MASONS):
        return MASONS_FORTRESS
    return price


def _recruits_at(
    campaign: Campaign, kingdom_id: str, hex_: Hex, made: Sequence[tuple[str, Purchase]]
) -> bool:
    """War college: one army a winter raised in the capital, as in a fortress."""
    kingdom = campaign.kingdom(kingdom_id)
    if not holds(kingdom, WAR_COLLEGE) or kingdom.capital != hex_:
        return False
    return not any(
        k == kingdom_id and p.kind is PurchaseKind.ARMY and p.hex == hex_ for k, p in made
    )


def _defence(campaign: Campaign, kingdom_id: str) -> int:
    """Veterans: Defence +1 in simple land battles (B7)."""
    kingdom = next((k for k in campaign.kingdoms if k.id == kingdom_id), None)
    return 1 if kingdom is not None and holds(kingdom, VETERANS) else 0


def _card(campaign: Campaign, battle: Battle) -> Battle:
    """Strategists: 1 strategy card more in a tabletop pitched battle."""
    holders = {k.id for k in campaign.kingdoms if holds(k, STRATEGISTS)}
    return each_side(
        battle,
        lambda s: replace(s, strategy_cards=s.strategy_cards + 1) if s.kingdom in holders else s,
    )


def worth(honours: Sequence[str], full_fives: int) -> int:
    """OB4: 2 per honour (the chroniclers 4), and 2 per full 5 glory counted."""
    held = sum(CHRONICLERS_MIGHT if h == CHRONICLERS else HONOUR_MIGHT for h in honours)
    return held + HONOUR_MIGHT * full_fives


def might(campaign: Campaign, kingdom: Kingdom) -> int:
    """OB4: glory counts only once every honour is claimed."""
    counted = kingdom.glory // TO_CLAIM if not _unclaimed(campaign) else 0
    return worth(kingdom.honours, counted)


# --- the campaign file ------------------------------------------------------------------------------


def _wishes(json: Json) -> tuple[str, ...]:
    """Honour names of OB3, each once (OB2's settled point)."""
    wishes: list[str] = []
    for item in json.as_list():
        name = item.as_str()
        if name not in HONOURS:
            item.refuse(
                "unknown-honour",
                f"There is no honour {name!r}: the honours are {', '.join(HONOURS)}.",
            )
        if name in wishes:
            item.refuse("honour-twice", f"The honour {name} is wished for twice.")
        wishes.append(name)
    return tuple(wishes)


def _honours(json: Json) -> tuple[str, ...]:
    held = _wishes(json)
    return tuple(h for h in HONOURS if h in held)


NONE: tuple[str, ...] = ()


def _read_kingdom(fields: Mapping[str, Json]) -> Mapping[str, Any]:
    return {
        "glory": optional_field(fields, "glory", lambda j: j.as_int(minimum=0), 0),
        "honours": optional_field(fields, "honours", _honours, NONE),
        "honour_wishes": optional_field(fields, "honour_wishes", _wishes, NONE),
    }


def _written_kingdom(kingdom: Kingdom) -> Mapping[str, object]:
    return {
        "glory": kingdom.glory,
        "honours": list(kingdom.honours),
        "honour_wishes": list(kingdom.honour_wishes),
    }


def _read_inputs(fields: Mapping[str, Json]) -> Mapping[str, Any]:
    if "honour_wishes" not in fields:
        return {}
    given = {k: _wishes(v) for k, v in fields["honour_wishes"].as_mapping().items()}
    return {"honour_wishes": given}


def _written_inputs(inputs: Any) -> Mapping[str, object]:
    wishes = inputs.honour_wishes
    return {"honour_wishes": {k: list(v) for k, v in wishes.items()}} if wishes else {}


def _checked(campaign: Campaign) -> None:
    """One holder an honour; glory 0 to 4 while an honour is unclaimed (OB2's settled
    point); wishes given for a kingdom of the campaign."""
    held: dict[str, str] = {}
    for index, kingdom in enumerate(campaign.kingdoms):
        for honour in kingdom.honours:
            if honour in held:
                raise RuleError(
                    "honour-twice",
                    f"kingdoms[{index}].honours",
                    f"The honour {honour} is held by {held[honour]} and {kingdom.id}: it has one holder.",
                )
            held[honour] = kingdom.id
    if len(held) < len(HONOURS):
        for index, kingdom in enumerate(campaign.kingdoms):
            if kingdom.glory >= TO_CLAIM:
                raise RuleError(
                    "bad-glory",
                    f"kingdoms[{index}].glory",
                    f"{kingdom.id} has {kingdom.glory} glory: while an honour is unclaimed the fifth claims it (OB2).",
                )
    kingdoms_known(campaign, campaign.inputs.honour_wishes, "inputs.honour_wishes")


def _wishes_applied(campaign: Campaign) -> Campaign:
    """Input `honour_wishes` replace each kingdom's whole list as the file is read (OB2)."""
    given = campaign.inputs.honour_wishes
    if not given:
        return campaign
    kingdoms = tuple(
        replace(k, honour_wishes=given[k.id]) if k.id in given else k for k in campaign.kingdoms
    )
    inputs = replace(campaign.inputs, honour_wishes={})
    return replace(campaign, kingdoms=kingdoms, inputs=inputs)


def _bot_wishes(campaign: Campaign, kingdom_id: str, rng: random.Random) -> Mapping[str, Any]:
    """Half the winters, a new list of two or three honours wished for, in random order."""
    if rng.random() < 0.5:
        return {}
    return {"honour_wishes": rng.sample(HONOURS, rng.randint(2, 3))}


RULE = OptionalRule(
    row=OptionRow(
        "glory",
        "Glory and honours",
        "Deeds earn glory; each fifth glory claims an honour that changes how a kingdom "
        "plays (options OB1 to OB4).",
        default=False,
        switch=True,
    ),
    fields={"kingdoms[]": ("glory", "honours", "honour_wishes"), "inputs": ("honour_wishes",)},
    read={"kingdoms[]": _read_kingdom, "inputs": _read_inputs},
    write={"kingdoms[]": _written_kingdom, "inputs": _written_inputs},
    checks={"units": _checked},
    file_read=_wishes_applied,
    settlement_built=_built,
    settlement_found=_found,
    settlement_taken=_taken,
    horde_beaten=_horde_beaten,
    gains=_gains,
    price=_price,
    recruits_at=_recruits_at,
    defence=_defence,
    battle_card=_card,
    might=might,
    bot_inputs=_bot_wishes,
)
