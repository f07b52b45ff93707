"""The one entry point: `advance(campaign_file) -> campaign_file`.

It advances a campaign as far as its inputs allow (with `defaults`, as far as the deadline
defaults of the rulings allow; with `defaults_now`, past the decisions pending now) and
returns the advanced file with what it now waits for (`pending`), the battles, the events
and the scores.
"""

from collections import Counter
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any

from campaign.rules import optional, orders, reform, setup, winter
from campaign.rules.battles import picking
from campaign.rules.dice import Dice
from campaign.rules.errors import RuleError
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
    Step.BATTLES: picking.fight_battles,
    Step.REFORM: reform.reform,
    Step.RECALL: winter.recall,
    Step.GATHER: winter.gather,
    Step.TITHE: winter.tithe,
    Step.BUILD: winter.build,
    Step.FEED: winter.feed,
    Step.DEPLOY: winter.deploy,
}


def advance(
    data: object,
    *,
    defaults: bool = False,
    defaults_now: bool = False,
    due: Collection[tuple[str, str]] | None = None,
) -> dict[str, Any]:
    """The campaign file, advanced. Raises RuleError for a bad file or an illegal decision.

    `defaults`: run to the next summer month's orders on the deadline defaults.
    `defaults_now`: a step's deadline has passed. Only what the engine would wait for now
    takes its default; the engine then stops at the next decision it needs, which opens
    with a deadline of its own. With `due` (what the deadline was set for: the (kind,
    kingdom) decisions the file's own step waited for), only those among `due`, and only
    if the engine still stands at the file's own step: a step whose decisions all came in
    before its deadline moves on without taking anyone's defaults for the next one."""
    campaign = parse_campaign(data)
    if defaults_now and not defaults:
        dry = run(campaign, defaults=False)
        asked: Counter[tuple[str, str]] = Counter((p.kind, p.kingdom) for p in dry.pending)
        if due is not None:
            asked = asked & Counter(due) if dry.clock == campaign.clock else Counter()
        campaign = run(campaign, defaults=False, due=asked)
    else:
        campaign = run(campaign, defaults=defaults)
    return dump_campaign(campaign, scores(campaign))


def run(
    campaign: Campaign, *, defaults: bool, due: Counter[tuple[str, str]] | None = None
) -> Campaign:
    picking.refuse_entries_out_of_month(campaign)
    start = campaign.clock
    turn = Turn(
        defaults=defaults,
        dice=Dice(campaign.options.seed, campaign.dice_rolled, campaign.dice),
        clock=campaign.clock,
        due=due or Counter(),
    )
    while campaign.clock.season is not Season.ENDED:
        if defaults and _next_months_orders(start, campaign.clock):
            orders.wait_for_orders(campaign, turn)
            break
        turn.clock = campaign.clock
        step = campaign.clock.step
        campaign = _step_rule(campaign, step)(campaign, turn)
        if not turn.pending:
            campaign = optional.step_ended(campaign, turn, step)
        if campaign.clock != turn.clock:  # a step opens once, as the clock enters it
            turn.clock = campaign.clock
            campaign = optional.step_opened(campaign, turn)
        campaign = optional.step_done(campaign, turn)
        if turn.pending:
            break
    return replace(
        campaign,
        pending=tuple(turn.pending),
        events=campaign.events + tuple(turn.events),
        dice=turn.dice.scripted,
        dice_rolled=turn.dice.rolled,
    )


def _step_rule(campaign: Campaign, step: Step) -> StepRule:
    """The rule of the step the clock stands at: the engine's, or an optional rule's own
    (OB5's step of the rulers' deaths); refused for a step of a rule that is off."""
    rule = STEP_RULES.get(step) or optional.own_step(campaign, step)
    if rule is None:
        raise RuleError(
            "bad-clock", "clock.step", f"Step {step} belongs to an option that is off (rule OG1)."
        )
    return rule


def _next_months_orders(start: Clock, now: Clock) -> bool:
    """With defaults, the engine stops at the orders of the next summer month (from
    setup, month 1), not at those it started at."""
    return now.step is Step.ORDERS and now != start
