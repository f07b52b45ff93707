"""The optional rules (campaign-options.md), one module each, and the points of OG7's order
of play where the engine's steps call them.

A step calls the point (`optional.battle_card(campaign, battle)`), never an option by name:
each point runs the hook of every rule that is on and enters it, in the options table's
order. To add a rule: docs/adding-an-option.md."""

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any

from campaign.rules.errors import RuleError
from campaign.rules.filevalues import Json
from campaign.rules.hexmap import Hex
from campaign.rules.optional import (
    army_limits,
    common_deck,
    glory,
    marauders,
    milestones,
    roads,
    sieges,
    succession,
    wizards,
    yearly_event,
)
from campaign.rules.optional.rule import (
    DeployPlan,
    Entry,
    Gain,
    Linked,
    OptionalRule,
    PurchaseRule,
    Sides,
)
from campaign.rules.state import (
    Allocation,
    Army,
    Battle,
    BattleInput,
    Campaign,
    Kingdom,
    Options,
    Order,
    Purchase,
    PurchaseKind,
    Step,
    Unit,
)
from campaign.rules.turn import Turn

# Every optional rule, in the options table's order (the order their hooks run in).
RULES: tuple[OptionalRule, ...] = (
    army_limits.RULE,
    wizards.RULE,
    common_deck.RULE,
    sieges.RULE,
    marauders.RULE,
    roads.RULE,
    milestones.RULE,
    yearly_event.RULE,
    glory.RULE,
    succession.RULE,
)


@cache
def _switched_on(switches: frozenset[str]) -> tuple[OptionalRule, ...]:
    return tuple(rule for rule in RULES if rule.row.name in switches)


def each(options: Options) -> tuple[OptionalRule, ...]:
    """The optional rules a campaign's options turn on, in the table's order."""
    return _switched_on(options.switches)


# --- the campaign file (campaign-file.md) ---------------------------------------------------


def read(options: Options, where: str, fields: Mapping[str, Json]) -> dict[str, Any]:
    """The state's attributes that the fields of the rules that are on give at `where`,
    read from the `fields` of the object there (an absent field reads its default, OG1)."""
    attributes: dict[str, Any] = {}
    for rule in each(options):
        if where in rule.read:
            attributes.update(rule.read[where](fields))
    return attributes


def check(campaign: Campaign, *, after: str) -> None:
    """What the fields of the rules that are on must agree on, checked after the general
    checks of the file's part `after` (raises the first RuleError found)."""
    for rule in each(campaign.options):
        if after in rule.checks:
            rule.checks[after](campaign)


def written(options: Options, where: str, part: object) -> Mapping[str, object]:
    """The fields the rules that are on write for the state's `part` at `where`, in the
    table's order."""
    fields: dict[str, object] = {}
    for rule in each(options):
        if where in rule.write:
            fields.update(rule.write[where](part))
    return fields


def purchase_keys(options: Options) -> tuple[str, ...]:
    """The keys of the purchases the rules that are on add (a purchase names one action),
    bar those given by one of the file's own actions (a road is a `build`)."""
    return tuple(
        p.entry.key
        for rule in each(options)
        for p in rule.purchases.values()
        if not p.entry.rides_on
    )


def purchase_entry(options: Options, fields: Mapping[str, Json]) -> Entry[Purchase] | None:
    """The entry of a purchase a rule that is on adds, if `fields` hold its key."""
    for rule in each(options):
        for purchase in rule.purchases.values():
            if purchase.entry.key in fields:
                return purchase.entry
    return None


def purchase_written(purchase: Purchase) -> dict[str, object] | None:
    """A purchase an optional rule adds, as the file writes it; None for the file's own."""
    for rule in RULES:
        if purchase.kind in rule.purchases:
            return rule.purchases[purchase.kind].entry.write(purchase)
    return None


def deploy_entry(options: Options, fields: Mapping[str, Json]) -> Entry[Allocation] | None:
    """The deploy entry a rule that is on adds, if `fields` hold its key."""
    for rule in each(options):
        if rule.deploy_entry is not None and rule.deploy_entry.key in fields:
            return rule.deploy_entry
    return None


def deploy_written(entry: Allocation) -> dict[str, object]:
    """A deploy entry an optional rule adds, as the file writes it."""
    for rule in RULES:
        if rule.deploy_entry is not None:
            return rule.deploy_entry.write(entry)
    raise ValueError(f"No optional rule writes the deploy entry {entry!r}.")


# --- the campaign file read ------------------------------------------------------------------


def file_read(campaign: Campaign) -> Campaign:
    """What the rules that are on apply as the file is read, before anything is run (OB2:
    input honour wishes replace a kingdom's)."""
    for rule in each(campaign.options):
        if rule.file_read is not None:
            campaign = rule.file_read(campaign)
    return campaign


# --- settlements built, found and taken ----------------------------------------------------


def settlement_built(campaign: Campaign, kingdom_id: str, hex_: Hex, turn: Turn) -> Campaign:
    """A settlement built or upgraded by the kingdom in winter (W5; OB1's glory)."""
    for rule in each(campaign.options):
        if rule.settlement_built is not None:
            campaign = rule.settlement_built(campaign, kingdom_id, hex_, turn)
    return campaign


def settlement_found(campaign: Campaign, kingdom_id: str, hex_: Hex, turn: Turn) -> Campaign:
    """An exploration of the kingdom's placed a settlement (O5; OB1's glory)."""
    for rule in each(campaign.options):
        if rule.settlement_found is not None:
            campaign = rule.settlement_found(campaign, kingdom_id, hex_, turn)
    return campaign


def settlement_taken(
    campaign: Campaign, taker: str, loser: str, hex_: Hex, capital: bool, turn: Turn
) -> Campaign:
    """A settlement tile passes from `loser` to `taker` (O4, B10, R2; OB1's conquest)."""
    for rule in each(campaign.options):
        if rule.settlement_taken is not None:
            campaign = rule.settlement_taken(campaign, taker, loser, hex_, capital, turn)
    return campaign


# --- summer: a month's orders step opens (OG7) ------------------------------------------------


def step_opened(campaign: Campaign, turn: Turn) -> Campaign:
    """The clock has entered a step: what each rule that is on does as it opens, before any
    decision of it is asked (a summer month's orders: OW2's arrival, OW3's orders; the
    succession: OB5's and OB6's dice)."""
    for rule in each(campaign.options):
        opening = rule.opens.get(campaign.clock.step)
        if opening is not None:
            campaign = opening(campaign, turn)
    return campaign


def step_after(campaign: Campaign, step: Step) -> Step | None:
    """The step a rule that is on plays after `step` (the succession after the gather)."""
    for rule in each(campaign.options):
        if rule.own_step is not None and rule.own_step.after is step:
            return rule.own_step.step
    return None


def own_step(campaign: Campaign, step: Step) -> Callable[[Campaign, Turn], Campaign] | None:
    """How a rule that is on plays its own step `step`, if it is one."""
    for rule in each(campaign.options):
        if rule.own_step is not None and rule.own_step.step is step:
            return rule.own_step.play
    return None


# --- summer: orders (O3) ---------------------------------------------------------------------


def move_refused(campaign: Campaign, unit: Unit, to: Hex, where: str) -> RuleError | None:
    """Why a rule that is on refuses an order moving `unit` into `to` (OA5), or None."""
    for rule in each(campaign.options):
        if rule.move_refused is not None:
            refusal = rule.move_refused(campaign, unit, to, where)
            if refusal is not None:
                return refusal
    return None


# --- summer: resolution (O5 with OA4, OA5) ---------------------------------------------------


def move_stopped(campaign: Campaign, unit: Unit, to: Hex, turn: Turn) -> bool:
    """Whether a rule that is on stops `unit` where it is as it moves into `to` (OA5); the
    rule records why."""
    return any(
        rule.move_stopped is not None and rule.move_stopped(campaign, unit, to, turn)
        for rule in each(campaign.options)
    )


def explored(
    campaign: Campaign, unit: Unit, to: Hex, dice: list[int], turn: Turn
) -> Campaign | None:
    """A unit explores `to` with `dice`: a campaign where a rule replaces the exploration
    (and the move), else None."""
    for rule in each(campaign.options):
        if rule.explored is not None:
            instead = rule.explored(campaign, unit, to, dice, turn)
            if instead is not None:
                return instead
    return None


def horde_orders(campaign: Campaign) -> list[Order]:
    """The orders no kingdom gives (OW4: the horde's), resolved after every kingdom's."""
    return [
        order
        for rule in each(campaign.options)
        if rule.horde_orders is not None
        for order in rule.horde_orders(campaign)
    ]


# --- summer: reform (R1 with OW11) ----------------------------------------------------------


def terrain_spared(campaign: Campaign, start: Hex, end: Hex) -> bool:
    """Whether a rule that is on spares a move from `start` to `end` from lying down for
    terrain (OW11: along a road)."""
    return any(
        rule.terrain_spared is not None and rule.terrain_spared(campaign, start, end)
        for rule in each(campaign.options)
    )


# --- an army raised (S3, W5) -----------------------------------------------------------------


def army_raised(campaign: Campaign, army: Army, judged_at: Hex) -> Army:
    """The new army, with what each rule that is on gives it (OA1)."""
    for rule in each(campaign.options):
        if rule.army_raised is not None:
            army = rule.army_raised(campaign, army, judged_at)
    return army


# --- summer: battles (B3 to B12) -------------------------------------------------------------


def battle_sides(campaign: Campaign, sides: Sides) -> Sides:
    """Both sides of a battle, as the rules that are on state them (OA13)."""
    for rule in each(campaign.options):
        if rule.battle_sides is not None:
            sides = rule.battle_sides(campaign, sides)
    return sides


def battle_card(campaign: Campaign, battle: Battle) -> Battle:
    """A pitched battle handed to the tabletop, with what each rule that is on adds to its
    card (OA2, OA9, OA14, OA15)."""
    for rule in each(campaign.options):
        if rule.battle_card is not None:
            battle = rule.battle_card(campaign, battle)
    return battle


def result_refused(campaign: Campaign, battle: Battle, entry: BattleInput) -> RuleError | None:
    """Why a rule that is on refuses a result entry for this battle (OA10), or None."""
    for rule in each(campaign.options):
        if rule.result_refused is not None:
            refusal = rule.result_refused(battle, entry)
            if refusal is not None:
                return refusal
    return None


def armies_beaten(
    campaign: Campaign,
    armies: Sequence[str],
    winner: str | None,
    hex_: Hex,
    turn: Turn,
    *,
    names: Sequence[str] | None = None,
) -> Campaign:
    """The winner (None: nobody) beat these armies at `hex_`: hit, destroyed, or routed
    with what it names (OA10)."""
    for rule in each(campaign.options):
        if rule.armies_beaten is not None:
            campaign = rule.armies_beaten(campaign, armies, winner, hex_, turn, names)
    return campaign


def result_waits(campaign: Campaign, battle: Battle) -> dict[str, object]:
    """What the horde side's pending adds for a battle handed to the tabletop (OW5)."""
    detail: dict[str, object] = {}
    for rule in each(campaign.options):
        if rule.result_waits is not None:
            detail.update(rule.result_waits(campaign, battle))
    return detail


def horde_beaten(
    campaign: Campaign, winner: str, destroyed: int, hex_: Hex, turn: Turn
) -> Campaign:
    """`winner` won a battle at `hex_` in which `destroyed` of the horde's armies were
    destroyed (OW7: plunder)."""
    for rule in each(campaign.options):
        if rule.horde_beaten is not None:
            campaign = rule.horde_beaten(campaign, winner, destroyed, hex_, turn)
    return campaign


def capital_lost(
    campaign: Campaign, loser: str, taker: str | None, hex_: Hex, turn: Turn
) -> Campaign:
    """The capital of `loser` at `hex_` is taken by `taker`, or razed (None) (O7, OA10)."""
    for rule in each(campaign.options):
        if rule.capital_lost is not None:
            campaign = rule.capital_lost(campaign, loser, taker, hex_, turn)
    return campaign


# --- setup: a capital founded (S2) ------------------------------------------------------------


def capital_founded(campaign: Campaign, kingdom_id: str, hex_: Hex) -> Campaign:
    """The kingdom's capital is founded at `hex_` at the setup (OW12: its first capital)."""
    for rule in each(campaign.options):
        if rule.capital_founded is not None:
            campaign = rule.capital_founded(campaign, kingdom_id, hex_)
    return campaign


# --- winter: gather (OG7) -------------------------------------------------------------------


def gather_begins(campaign: Campaign, turn: Turn, linked: Linked) -> Campaign:
    """The gather step begins: what each rule that is on does before anything is gathered
    (OW15: the year's die, a revolt's razing)."""
    for rule in each(campaign.options):
        if rule.gather_begins is not None:
            campaign = rule.gather_begins(campaign, turn, linked)
    return campaign


def gathered(
    campaign: Campaign, kingdom_id: str, gold: int, food: int, turn: Turn
) -> tuple[int, int, list[Gain]]:
    """A kingdom's gathering (`gold` and `food` from its settlements) with what each rule
    that is on adds and takes, and those gains as they came to pass. OG7's gather sums every
    source first, then takes what is taken, never below 0 (OW15's frost takes 1 of the food
    of every source): a gain taken is the amount it took."""
    gains = [
        gain
        for rule in each(campaign.options)
        if rule.gains is not None
        for gain in rule.gains(campaign, kingdom_id, turn)
    ]
    gold += sum(g.gold for g in gains if g.gold > 0)
    food += sum(g.food for g in gains if g.food > 0)
    passed = []
    for gain in gains:
        taken = replace(gain, gold=max(gain.gold, -gold), food=max(gain.food, -food))
        if gain.gold < 0 or gain.food < 0:
            gold, food = gold + min(taken.gold, 0), food + min(taken.food, 0)
        passed.append(taken)
    return gold, food, passed


# --- winter: build (W5 with OA6, OA7) --------------------------------------------------------


def price(
    campaign: Campaign, kingdom_id: str, kind: PurchaseKind, usual: tuple[int, int]
) -> tuple[int, int]:
    """What a purchase of `kind` costs the kingdom, in gold and food (OB3's master masons)."""
    for rule in each(campaign.options):
        if rule.price is not None:
            usual = rule.price(campaign, kingdom_id, kind, usual)
    return usual


def recruits_at(
    campaign: Campaign, kingdom_id: str, hex_: Hex, made: Sequence[tuple[str, Purchase]]
) -> bool:
    """Whether a rule that is on lets the kingdom raise an army at `hex_`, no fortress (OB3's
    war college)."""
    return any(
        rule.recruits_at is not None and rule.recruits_at(campaign, kingdom_id, hex_, made)
        for rule in each(campaign.options)
    )


def defence(campaign: Campaign, kingdom_id: str) -> int:
    """What the rules that are on add to the Defence of the kingdom's armies in a simple
    battle (OB3's veterans)."""
    return sum(
        rule.defence(campaign, kingdom_id) for rule in each(campaign.options) if rule.defence
    )


def purchase_rule(campaign: Campaign, kind: PurchaseKind) -> PurchaseRule | None:
    """The rule of a purchase an optional rule that is on adds, if `kind` is one."""
    for rule in each(campaign.options):
        if kind in rule.purchases:
            return rule.purchases[kind]
    return None


# --- winter: deploy (W7 with OA9) ------------------------------------------------------------


def deploy_given(campaign: Campaign, kingdom_id: str, plan: DeployPlan) -> None:
    """A kingdom's deploy list, judged by each rule that is on as soon as given."""
    for rule in each(campaign.options):
        if rule.deploy_given is not None:
            rule.deploy_given(campaign, kingdom_id, plan)


def deployed(campaign: Campaign, kingdom_id: str, plan: DeployPlan) -> Campaign:
    """Once every army stands where it will: what each rule that is on places."""
    for rule in each(campaign.options):
        if rule.deployed is not None:
            campaign = rule.deployed(campaign, kingdom_id, plan)
    return campaign


# --- after every step ------------------------------------------------------------------------


def step_done(campaign: Campaign, turn: Turn) -> Campaign:
    """After each step of the engine, what each rule that is on keeps straight (OA10)."""
    for rule in each(campaign.options):
        if rule.step_done is not None:
            campaign = rule.step_done(campaign, turn)
    return campaign


def step_ended(campaign: Campaign, turn: Turn, step: Step) -> Campaign:
    """A step is over, every decision it asked for in: what each rule that is on checks at
    its end (OW13: the milestones at reform, gather and deploy)."""
    for rule in each(campaign.options):
        if rule.step_ended is not None:
            campaign = rule.step_ended(campaign, turn, step)
    return campaign


# --- might (OG4) ------------------------------------------------------------------------------


def might(campaign: Campaign, kingdom: Kingdom) -> int:
    """What the rules that are on add to the kingdom's might (P1, OG4: OW14's milestones)."""
    return sum(rule.might(campaign, kingdom) for rule in each(campaign.options) if rule.might)


# --- the bots ---------------------------------------------------------------------------------


def bot_inputs(campaign: Campaign, kingdom_id: str, rng: random.Random) -> dict[str, Any]:
    """What else the bot of `kingdom_id` gives with its winter's purchases, by input key,
    for each rule that is on (honour wishes, OB2)."""
    given: dict[str, Any] = {}
    for rule in each(campaign.options):
        if rule.bot_inputs is not None:
            given.update(rule.bot_inputs(campaign, kingdom_id, rng))
    return given


def bot_purchases(campaign: Campaign, kingdom_id: str, rng: random.Random) -> list[dict[str, Any]]:
    """What the bot of `kingdom_id` adds to its winter's purchases for each rule that is on
    (quests, OA6), as the file's entries."""
    purchases: list[dict[str, Any]] = []
    for rule in each(campaign.options):
        if rule.bot_purchases is not None:
            purchases += rule.bot_purchases(campaign, kingdom_id, rng)
    return purchases
