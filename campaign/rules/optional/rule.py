"""What an optional rule declares (campaign-options.md, OG1 to OG7): its row of the options
table, the fields it adds to the campaign file, and the functions the engine's steps call at
the points OG7 names. The steps call those points through `campaign.rules.optional`; none
of them names an option."""

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from campaign.rules.errors import RuleError
from campaign.rules.filevalues import Json
from campaign.rules.hexmap import Hex
from campaign.rules.state import (
    Allocation,
    Army,
    Battle,
    BattleInput,
    BattleSide,
    Campaign,
    Kingdom,
    Order,
    Placement,
    Purchase,
    PurchaseKind,
    Step,
    Unit,
)
from campaign.rules.turn import Turn

type OptionValue = int | str | bool
# A kingdom's tiles joined to its capital, else to W1's stand-in (None: it has neither).
type Linked = Callable[[Campaign, str], frozenset[Hex] | None]
type Sides = tuple[BattleSide, BattleSide]
type DeployPlan = Sequence[Placement | Allocation]
# Reading the rule's fields at a place of the file: from the fields of the object there,
# the state's attributes they give (what an absent field reads included, OG1).
type ReadFields = Callable[[Mapping[str, Json]], Mapping[str, Any]]
# Writing them: from the state's object at that place, its fields the rule writes, in order.
type WriteFields = Callable[[Any], Mapping[str, object]]


@dataclass(frozen=True)
class OptionRow:
    """One option: an int within `low`..`high`, one of `choices` (value -> words), or with
    `switch` a rule turned on or off."""

    name: str
    label: str
    words: str
    default: OptionValue
    low: int | None = None
    high: int | None = None
    choices: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    enum: type[StrEnum] | None = None  # the engine's type of a choice
    switch: bool = False
    text: bool = False  # any string, judged by the rule that reads it
    # A setting of the optional rule of this name (OW1: the horde's race): required while
    # that rule is on, refused while it is off (OG1), never a default of its own.
    needs: str = ""
    # Offered to a group creating a campaign: an optional rule whose pages are not all
    # built yet is played by the engine (and its casebook) but not offered.
    offered: bool = True

    def refusal(self, value: object) -> str | None:
        """What is wrong with `value` for this option, in words; None if it stands."""
        if self.switch:
            return None if type(value) is bool else f"{self.label} is true or false."
        if self.choices:
            allowed = " or ".join(self.choices)
            return None if value in self.choices else f"{self.label} is {allowed}."
        if self.text:
            return None if isinstance(value, str) and value else f"{self.label} is a name."
        if type(value) is not int:
            return f"{self.label} is a whole number."
        if self.low is not None and value < self.low:
            return f"{self.label} is {self._range()}."
        if self.high is not None and value > self.high:
            return f"{self.label} is {self._range()}."
        return None

    def _range(self) -> str:
        if self.high is None:
            return f"{self.low} or more"
        return f"{self.low} to {self.high}"


@dataclass(frozen=True, slots=True)
class Entry[T]:
    """An entry an optional rule adds to a list of the file's inputs, told apart by its
    field `key` (a purchase's `quest`): how it is read (the entry, and its fields already
    checked against the place's) and how it is written."""

    key: str
    read: Callable[[Json, Mapping[str, Json]], T]
    write: Callable[[T], dict[str, object]]
    # The file's own action the entry is given by, when its key is none ("build" for a
    # road's `to`): that action counts as the purchase's one action.
    rides_on: str = ""


@dataclass(frozen=True, slots=True)
class Gain:
    """Gold and food an optional rule adds to a kingdom's gathering (OG7's gather), or takes
    from it (a negative amount), where it comes from ("fair", "frost"), and the tiles that
    brought it, if any (trade's cities and villages)."""

    source: str
    gold: int = 0
    food: int = 0
    tiles: tuple[Hex, ...] = ()


@dataclass(frozen=True, slots=True)
class PurchaseRule:
    """A winter purchase an optional rule adds (W5): why it can't be made now (None if it
    can; `made` is this winter's purchases so far), what making it does, and its entry in
    the file's purchases."""

    refusal: Callable[[Campaign, str, Purchase, list[tuple[str, Purchase]]], str | None]
    make: Callable[[Campaign, str, Purchase, Turn], Campaign]
    entry: Entry[Purchase]


@dataclass(frozen=True, slots=True)
class OwnStep:
    """A step an optional rule adds to the year (OB5: the winter's heirs), played
    after the step `after`, by `play` (as the engine's steps are: it moves the clock on
    when it is over)."""

    after: Step
    step: Step
    play: Callable[[Campaign, Turn], Campaign]


@dataclass(frozen=True, slots=True)
class OptionalRule:
    """One optional rule: its row, the state fields it adds to the campaign file by where
    they stand (`""` the top level, `"armies[]"`, `"battles[].sides[]"`...; a field of a
    rule that is off is refused, OG1), how it reads, checks and writes them, and its hooks.
    Each is called only while the rule is on, at its place in the file or its point of
    OG7's order of play; a rule leaves the places and points it does not enter as they
    are."""

    row: OptionRow
    # The options the rule asks for while it is on (each row's `needs` is the rule's name).
    settings: tuple[OptionRow, ...] = ()
    fields: Mapping[str, tuple[str, ...]] = field(default_factory=lambda: MappingProxyType({}))
    # --- the campaign file: its fields, by the places of `fields` ---
    read: Mapping[str, ReadFields] = field(default_factory=lambda: MappingProxyType({}))
    # What its fields must agree on with the rest of the state, checked after the general
    # checks of a part of the file (`"tiles"`, `"units"`): raises a RuleError naming the field.
    checks: Mapping[str, Callable[[Campaign], None]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    write: Mapping[str, WriteFields] = field(default_factory=lambda: MappingProxyType({}))
    # An entry of its own in a kingdom's deploy list (`inputs.deploy`).
    deploy_entry: Entry[Allocation] | None = None
    # --- a step opens, as the clock enters it (OG7; part B's and C's settled points): what
    # the rule does then, by step (OW2, OW3 at a summer month's orders; OB5, OB6 at the
    # ruler's death, OB5) ---
    opens: Mapping[Step, Callable[[Campaign, Turn], Campaign]] = field(
        default_factory=lambda: MappingProxyType({})
    )
    # --- a step of its own (OB5's), played after the step `after` ---
    own_step: "OwnStep | None" = None
    # --- summer: orders and resolution ---
    # The orders of armies no kingdom gives, resolved after every kingdom's (OW4).
    horde_orders: Callable[[Campaign], Sequence[Order]] | None = None
    # Why no unit may be ordered to move into `to` (a RuleError naming `where`), or None.
    move_refused: Callable[[Campaign, Unit, Hex, str], RuleError | None] | None = None
    # A unit about to move into `to` is stopped where it is, the rule recording why: True.
    move_stopped: Callable[[Campaign, Unit, Hex, Turn], bool] | None = None
    # A unit explores `to` (O5) with `dice`, its two dice, to which a rule may add: None
    # goes on as usual; a campaign replaces the move and the exploration.
    explored: Callable[[Campaign, Unit, Hex, list[int], Turn], Campaign | None] | None = None
    # --- summer: reform (R1) ---
    # A move from `start` to `end` the rule spares from lying down for terrain (OW11).
    terrain_spared: Callable[[Campaign, Hex, Hex], bool] | None = None
    # --- an army raised (setup's starting army, a winter's recruit) ---
    # The new army, with what the rule gives it; `judged_at` is where it is raised.
    army_raised: Callable[[Campaign, Army, Hex], Army] | None = None
    # --- summer: battles ---
    # Both sides of any battle, as they are stated (and re-stated).
    battle_sides: Callable[[Campaign, Sides], Sides] | None = None
    # A pitched battle handed to the tabletop: what its card adds.
    battle_card: Callable[[Campaign, Battle], Battle] | None = None
    # An entry reporting a battle's result: why it does not fit the battle, or None.
    result_refused: Callable[[Battle, BattleInput], RuleError | None] | None = None
    # A battle handed to the tabletop: what the horde side's pending adds (OW5: its general).
    result_waits: Callable[[Campaign, Battle], Mapping[str, object]] | None = None
    # A kingdom won a battle in which `n` of the horde's armies were destroyed at `hex` (OW7).
    horde_beaten: Callable[[Campaign, str, int, Hex, Turn], Campaign] | None = None
    # The winner (None: nobody) has beaten these armies of the other side at `hex`
    # (hit, routed with `names`, or destroyed).
    armies_beaten: (
        Callable[[Campaign, Sequence[str], str | None, Hex, Turn, Sequence[str] | None], Campaign]
        | None
    ) = None
    # A capital taken by `taker` or razed (`taker` None).
    capital_lost: Callable[[Campaign, str, str | None, Hex, Turn], Campaign] | None = None
    # --- the campaign file read: what the rule applies before anything is run (OB2's wishes)
    file_read: Callable[[Campaign], Campaign] | None = None
    # --- settlements: built or upgraded in winter (W5), found exploring (O5), or passing
    # from one kingdom (`loser`) to another (`taker`; `capital`: it was the loser's) ---
    settlement_built: Callable[[Campaign, str, Hex, Turn], Campaign] | None = None
    settlement_found: Callable[[Campaign, str, Hex, Turn], Campaign] | None = None
    settlement_taken: Callable[[Campaign, str, str, Hex, bool, Turn], Campaign] | None = None
    # --- winter: build (W5) ---
    # What a purchase of this kind costs the kingdom (gold, food), from its usual price.
    price: Callable[[Campaign, str, PurchaseKind, tuple[int, int]], tuple[int, int]] | None = None
    # Whether the kingdom may raise an army at `hex` though it is no fortress (`made`: this
    # winter's purchases so far).
    recruits_at: Callable[[Campaign, str, Hex, Sequence[tuple[str, Purchase]]], bool] | None = None
    # --- battles: what a rule adds to the Defence of a kingdom's armies in a simple battle
    defence: Callable[[Campaign, str], int] | None = None
    # --- setup: a capital founded (S2) ---
    capital_founded: Callable[[Campaign, str, Hex], Campaign] | None = None
    # --- winter: gather ---
    # As the gather step begins, before anything is gathered: what the rule does to every
    # kingdom (a die, a revolt's razing; `Linked` tells each kingdom's connected tiles).
    gather_begins: Callable[[Campaign, Turn, Linked], Campaign] | None = None
    # What the rule adds to a kingdom's gathering, or takes from it.
    gains: Callable[[Campaign, str, Turn], Sequence[Gain]] | None = None
    # --- winter: build ---
    purchases: Mapping[PurchaseKind, PurchaseRule] = field(
        default_factory=lambda: MappingProxyType({})
    )
    # --- winter: deploy ---
    # A kingdom's deploy list, judged as soon as given (raises a RuleError).
    deploy_given: Callable[[Campaign, str, DeployPlan], None] | None = None
    # Once every army stands where it will: what the rule places.
    deployed: Callable[[Campaign, str, DeployPlan], Campaign] | None = None
    # --- after every step of the engine ---
    step_done: Callable[[Campaign, Turn], Campaign] | None = None
    # A step over, all its decisions in (the step it was: OW13's checks at reform, gather
    # and deploy); the turn's clock is still the step's.
    step_ended: Callable[[Campaign, Turn, Step], Campaign] | None = None
    # --- might (OG4): what the rule adds to a kingdom's might (P1), live and final ---
    might: Callable[[Campaign, Kingdom], int] | None = None
    # --- the bots (campaign.rules.bots), deciding at random with `rng` ---
    # The purchases a kingdom's bot adds to its winter's list, as the file's entries.
    bot_purchases: Callable[[Campaign, str, random.Random], list[dict[str, Any]]] | None = None
    # What else a kingdom's bot gives with its winter's purchases, by the input's key (OB2:
    # its honour wishes).
    bot_inputs: Callable[[Campaign, str, random.Random], Mapping[str, Any]] | None = None


def kingdoms_known(campaign: Campaign, given: Iterable[str], where: str) -> None:
    """Refuse an input of a rule given for a kingdom the campaign has not (naming
    `<where>.<kingdom>`)."""
    known = {k.id for k in campaign.kingdoms}
    for kingdom_id in given:
        if kingdom_id not in known:
            raise RuleError(
                "unknown-kingdom", f"{where}.{kingdom_id}", f"There is no kingdom {kingdom_id!r}."
            )


def each_side(battle: Battle, change: Callable[[BattleSide], BattleSide]) -> Battle:
    """The battle with `change` made to both its sides."""
    first, second = battle.sides
    return replace(battle, sides=(change(first), change(second)))
