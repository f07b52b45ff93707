"""Option `yearly_event` (campaign-options.md, OW15): as each winter's gather step begins,
before anything is gathered, one public die whose result holds for every kingdom not
eliminated: 1 a hard frost (the food gathered is 1 less, not below 0), 2 a revolt (every
settlement not connected to its kingdom's capital, else to W1's stand-in, is razed), 3 or 4
a quiet year, 5 a good harvest (+1 food), 6 a trade fair (+1 gold). Might changes only
through the settlements lost. Decided: War of Kings' secret event cards become one public
roll."""

from collections.abc import Sequence
from dataclasses import replace
from enum import StrEnum

from campaign.rules.optional.rule import Gain, Linked, OptionalRule, OptionRow
from campaign.rules.state import Campaign
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType


class YearEvent(StrEnum):
    """What the year's die brings (the `event` of its `yearly_event` event)."""

    FROST = "frost"
    REVOLT = "revolt"
    QUIET = "quiet"
    HARVEST = "harvest"
    FAIR = "fair"


BY_DIE = {
    1: YearEvent.FROST,
    2: YearEvent.REVOLT,
    3: YearEvent.QUIET,
    4: YearEvent.QUIET,
    5: YearEvent.HARVEST,
    6: YearEvent.FAIR,
}

# What each event adds to or takes from every kingdom's gathering (OG7's gather).
GAINS: dict[YearEvent, tuple[Gain, ...]] = {
    YearEvent.FROST: (Gain(YearEvent.FROST, food=-1),),
    YearEvent.HARVEST: (Gain(YearEvent.HARVEST, food=1),),
    YearEvent.FAIR: (Gain(YearEvent.FAIR, gold=1),),
}


def _year_begins(campaign: Campaign, turn: Turn, linked: Linked) -> Campaign:
    """OW15: the die, first in the gather step (one for every kingdom, with or without a
    capital); on a revolt, the settlements that rise are razed before anything is
    gathered."""
    die = turn.roll()
    event = BY_DIE[die]
    turn.record(EventType.YEARLY_EVENT, dice=[die], event=event.value)
    if event is YearEvent.REVOLT:
        campaign = _revolt(campaign, turn, linked)
    return campaign


def _revolt(campaign: Campaign, turn: Turn, linked: Linked) -> Campaign:
    """Every settlement of a kingdom not eliminated that is not connected (M7) to its
    capital, else to the settlement W1 recalled its armies to, is razed: the capital and the
    stand-in stand; a kingdom with neither loses every settlement. Marauders and other
    kingdoms' units break no connection: only the tiles a kingdom controls count."""
    for kingdom_id in campaign.player_order:
        joined = linked(campaign, kingdom_id)
        rising = sorted(
            (
                holding
                for holding in campaign.tiles.values()
                if holding.owner == kingdom_id
                and holding.settlement is not None
                and (joined is None or holding.hex not in joined)
            ),
            key=lambda holding: holding.hex,
        )
        for holding in rising:
            turn.record(
                EventType.REVOLTED,
                kingdom=kingdom_id,
                hex=list(holding.hex),
                settlement=str(holding.settlement),
            )
            campaign = campaign.with_holding(replace(holding, settlement=None))
    return campaign


def _gains(campaign: Campaign, kingdom_id: str, turn: Turn) -> Sequence[Gain]:
    """What this winter's die adds to or takes from every kingdom's gathering."""
    rolled = [e for e in turn.events if e["type"] == EventType.YEARLY_EVENT.value]
    if not rolled:
        return ()
    return GAINS.get(YearEvent(str(rolled[-1]["event"])), ())


RULE = OptionalRule(
    row=OptionRow(
        "yearly_event",
        "The yearly event",
        "Each winter, before anything is gathered, one die for every kingdom: a hard "
        "frost, a revolt of the settlements cut off from the capital, a quiet year, a good "
        "harvest or a trade fair (option OW15).",
        default=False,
        switch=True,
    ),
    gather_begins=_year_begins,
    gains=_gains,
)
