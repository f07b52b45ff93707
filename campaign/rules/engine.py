"""The one entry point: `advance(campaign_file) -> campaign_file`.

It advances a campaign as far as its inputs allow (or, with `defaults`, as far as the
deadline defaults of the rulings allow) and returns the advanced file with what it now
waits for (`pending`), the battles, the events and the scores.
"""

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from campaign.rules import battles, orders, reform, setup, winter
from campaign.rules.dice import Dice
from campaign.rules.fileformat import dump_campaign, parse_campaign
from campaign.rules.scoring import scores
from campaign.rules.state import Campaign, Clock, Season, Step
from campaign.rules.turn import Turn

type StepRule = Callable[[Campaign, Turn], Campaign]


STEP_RULES: Mapping[Step, StepRule] = {
    Step.RACES: setup.choose_races,
    Step.CAPITALS: setup.choose_capitals,
    Step.SETTLEMENTS: setup.place_settlements,
    Step.ARMIES: setup.place_starting_armies,
    Step.ORDERS: orders.give_orders,
    Step.RESOLUTION: orders.resolve_orders,
    Step.BATTLES: battles.fight_battles,
    Step.REFORM: reform.reform,
    Step.RECALL: winter.recall,
    Step.GATHER: winter.gather,
    Step.TITHE: winter.tithe,
    Step.BUILD: winter.build,
    Step.FEED: winter.feed,
    Step.DEPLOY: winter.deploy,
}


def advance(data: object, *, defaults: bool = False) -> dict[str, Any]:
    """The campaign file, advanced. Raises RuleError for a bad file or an illegal decision."""
    campaign = run(parse_campaign(data), defaults=defaults)
    return dump_campaign(campaign, scores(campaign))


def run(campaign: Campaign, *, defaults: bool) -> Campaign:
    start = campaign.clock
    turn = Turn(
        defaults=defaults,
        dice=Dice(campaign.options.seed, campaign.dice_rolled, campaign.dice),
        clock=campaign.clock,
    )
    while campaign.clock.season is not Season.ENDED:
        if defaults and _next_months_orders(start, campaign.clock):
            orders.wait_for_orders(campaign, turn)
            break
        turn.clock = campaign.clock
        campaign = STEP_RULES[campaign.clock.step](campaign, turn)
        if turn.pending:
            break
    return replace(
        campaign,
        pending=tuple(turn.pending),
        events=campaign.events + tuple(turn.events),
        dice=turn.dice.scripted,
        dice_rolled=turn.dice.rolled,
    )


def _next_months_orders(start: Clock, now: Clock) -> bool:
    """With defaults, the engine stops at the orders of the next summer month (from
    setup, month 1), not at those it started at."""
    return now.step is Step.ORDERS and now != start
