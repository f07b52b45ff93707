"""The campaign's state as frozen dataclasses: what the campaign file holds, inside the engine.

The JSON shape lives only in `fileformat` (parse, validate, serialise).
"""

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import ClassVar

from campaign.rules.combat import natural_key
from campaign.rules.hexmap import Hex, HexMap

type JsonObject = Mapping[str, object]

MAX_ARMIES = 6  # rulebook, Winter: at most 6 armies in a kingdom
# optional.marauders (OW1, OW5): the side of no kingdom, its armies' `kingdom` in the state and
# its name in battles, results and pending. It never picks a battle, controls a tile, gathers,
# eats or scores; the battles treat it as the last side in player order.
HORDE = "marauders"


class Season(StrEnum):
    SETUP = "setup"
    SUMMER = "summer"
    WINTER = "winter"
    ENDED = "ended"


class Step(StrEnum):
    RACES = "races"
    CAPITALS = "capitals"
    SETTLEMENTS = "settlements"
    ARMIES = "armies"
    ORDERS = "orders"
    RESOLUTION = "resolution"
    BATTLES = "battles"
    REFORM = "reform"
    RECALL = "recall"
    GATHER = "gather"
    SUCCESSION = "succession"  # optional.succession (OB5): only while the rule is on
    TITHE = "tithe"
    BUILD = "build"
    FEED = "feed"
    DEPLOY = "deploy"
    FINAL = "final"


class PendingKind(StrEnum):
    """The kinds of decision the campaign file's `pending` waits for (campaign-file.md)."""

    RACE = "race"
    CAPITAL = "capital"
    SETTLEMENTS = "settlements"
    STARTING_ARMY = "starting_army"
    ORDERS = "orders"
    BATTLE_CHOICE = "battle_choice"
    LAST_STAND = "last_stand"
    BATTLE_RESULT = "battle_result"
    RETREAT = "retreat"
    TITHES = "tithes"
    PURCHASES = "purchases"
    FEED = "feed"
    DEPLOY = "deploy"
    SUCCESSION = "succession"  # optional.succession (OB7): the army a kingdom disbands


class BattleStatus(StrEnum):
    """A battle's `status` in the campaign file."""

    AWAITING_RESULT = "awaiting_result"
    RESOLVED = "resolved"


STEPS: Mapping[Season, tuple[Step, ...]] = {
    Season.SETUP: (Step.RACES, Step.CAPITALS, Step.SETTLEMENTS, Step.ARMIES),
    Season.SUMMER: (Step.ORDERS, Step.RESOLUTION, Step.BATTLES, Step.REFORM),
    Season.WINTER: (
        Step.RECALL,
        Step.GATHER,
        Step.SUCCESSION,
        Step.TITHE,
        Step.BUILD,
        Step.FEED,
        Step.DEPLOY,
    ),
    Season.ENDED: (Step.FINAL,),
}


class OrdersMode(StrEnum):
    """Ruling O1."""

    SEALED = "sealed"
    CYCLE = "cycle"


class BattlesMode(StrEnum):
    """Ruling B6."""

    TABLETOP = "tabletop"
    SIMPLE = "simple"


class Settlement(StrEnum):
    VILLAGE = "village"
    CITY = "city"
    FORTRESS = "fortress"


class Licence(StrEnum):
    """What an army's lists may field beyond the usual (`optional.army_limits`, OA1)."""

    MONSTERS = "monsters"
    WAR_ENGINES = "war_engines"


class Works(StrEnum):
    """The siege works a side sets up (`optional.sieges`, OA15)."""

    STONE = "stone"  # a fortress: 2 stone towers, 2 stone walls, a gate, 2 objectives
    WOOD = "wood"  # a capital: 1 wooden tower, 2 wooden walls, a gate, 1 objective


class OrderKind(StrEnum):
    MOVE = "move"
    DEFEND = "defend"
    RAZE = "raze"
    REGROUP = "regroup"
    STAY = "stay"  # ruling O3: the default for an upright ship, the one order the rulebook lacks


@dataclass(frozen=True, slots=True)
class Options:
    """The campaign file's options (their table: campaign.rules.options). The optional
    rules a campaign has turned on are `switches`, each by its option's name."""

    years: int = 6
    months: int = 6
    orders: OrdersMode = OrdersMode.SEALED
    battles: BattlesMode = BattlesMode.TABLETOP
    seed: int = 0
    switches: frozenset[str] = frozenset()
    # optional.marauders (OW1, OW5): the horde's race, and who reports for it ("admin" or a
    # kingdom id); set exactly when the rule is on.
    marauder_race: str | None = None
    marauder_general: str | None = None

    def on(self, name: str) -> bool:
        """Whether the optional rule `name` is on."""
        return name in self.switches


@dataclass(frozen=True, slots=True)
class Clock:
    year: int
    season: Season
    month: int
    step: Step


@dataclass(frozen=True, slots=True)
class Kingdom:
    id: str
    name: str
    race: str | None = None
    capital: Hex | None = None
    gold: int = 0
    food: int = 0
    pitched_wins: int = 0
    pitched_losses: int = 0
    eliminated: int | None = None
    # How many armies and ships the kingdom has ever had, so a new one never takes the
    # id of one that was lost.
    armies_raised: int = 0
    ships_built: int = 0
    milestones: tuple[str, ...] = ()  # optional.milestones (OW12): held, in OW12's order
    plunder: int = 0  # optional.marauders (OW7): gold won from the horde, added at the gather
    # optional.glory (OB1, OB2): glory (0 to 4 while an honour is unclaimed), the honours held
    # (in OB3's order) and the kingdom's secret wishes, in its order.
    glory: int = 0
    honours: tuple[str, ...] = ()
    honour_wishes: tuple[str, ...] = ()
    # optional.succession (OB5, OB6): the ruler's years, and this winter's heir while the
    # clock stands at the succession step ("peaceful", "disputed", "civil_war").
    reign: int = 0
    heir: str | None = None
    first_capital: Hex | None = None  # optional.milestones (OW12): the capital set up first


@dataclass(frozen=True, slots=True)
class Holding:
    """An explored tile: its owner and settlement (the file's `tiles[]`)."""

    hex: Hex
    owner: str
    settlement: Settlement | None = None


@dataclass(frozen=True, slots=True)
class Army:
    id: str
    kingdom: str
    hex: Hex
    upright: bool = True
    ally: str | None = None
    # This month only (cleared at Reform): a Defend marker (B4, B6, B7) and the Move it
    # made, from and to (R1).
    defending: bool = False
    moved: tuple[Hex, Hex] | None = None
    # Set when the army must leave the tile after a lost or drawn battle (B10) and its
    # player has not yet said where to.
    retreat: str | None = None
    licence: tuple[Licence, ...] = ()  # optional.army_limits (OA1), fixed when raised


@dataclass(frozen=True, slots=True)
class Ship:
    id: str
    kingdom: str
    hex: Hex
    upright: bool = True
    carrying: str | None = None
    retreat: str | None = None


type Unit = Army | Ship


@dataclass(frozen=True, slots=True)
class Order:
    unit: str
    order: OrderKind
    to: Hex | None = None
    carry: str | None = None


@dataclass(frozen=True, slots=True)
class Raid:
    """`optional.marauders` (OW3): a horde army's order for the month, fixed by the engine:
    `move` (to `to`), `raze`, `hold` or `regroup`."""

    order: str
    to: Hex | None = None


@dataclass(frozen=True, slots=True)
class SettlementPlan:
    """Setup step D: where a kingdom puts its first city, fortress and two villages."""

    city: Hex
    fortress: Hex
    villages: tuple[Hex, Hex]


@dataclass(frozen=True, slots=True)
class BattleInput:
    """One entry of `inputs.battles`: a concession, a Last Stand choice, a picker's choice
    of a naval battle (ruling B3), a reported result, or the admin's switch to a simple
    battle. `position`: its index in the file's `inputs.battles`, so that a refusal names
    it (ruling B12) however many entries before it were used meanwhile."""

    hex: Hex
    concede: str | None = None
    last_stand: str | None = None
    naval: str | None = None
    result: str | None = None
    winner: str | None = None
    resolve: str | None = None
    captured: tuple[str, ...] = ()  # optional.wizards (OA10): artefacts the winner took
    position: int = field(default=0, compare=False)


@dataclass(frozen=True, slots=True)
class Tithe:
    """A gift to another kingdom (ruling W4): up to 1 gold and up to 1 food."""

    to: str
    gold: int = 0
    food: int = 0


class PurchaseKind(StrEnum):
    VILLAGE = "village"
    CITY = "city"
    FORTRESS = "fortress"
    CAPITAL = "capital"
    SHIP = "ship"
    ARMY = "army"
    DISBAND = "disband"
    QUEST = "quest"  # optional.wizards (OA6): a hero sent to a Wizard's tower
    ROAD = "road"  # optional.roads (OW9): a road between two tiles of the kingdom's


@dataclass(frozen=True, slots=True)
class Purchase:
    """One purchase of a winter (ruling W5): a build, a recruit, or a disband."""

    kind: PurchaseKind
    hex: Hex | None = None  # a quest's: its tower
    ally: str | None = None
    army: str | None = None
    hero: str | None = None  # a quest's hero (OA6), and his points
    points: int | None = None
    to: Hex | None = None  # a road's other end (optional.roads, OW9)


@dataclass(frozen=True, slots=True)
class Placement:
    """Where an army is deployed (ruling W7)."""

    army: str
    hex: Hex


@dataclass(frozen=True, slots=True)
class Allocation:
    """`optional.wizards` (OA9): an entry of a kingdom's deploy list placing an artefact it
    holds on one of its armies, or at its capital (`army` None). Secret to its kingdom."""

    artefact: str
    army: str | None


@dataclass(frozen=True, slots=True)
class Inputs:
    races: Mapping[str, str] = field(default_factory=dict)
    capitals: Mapping[str, Hex] = field(default_factory=dict)
    settlements: Mapping[str, SettlementPlan] = field(default_factory=dict)
    starting_armies: Mapping[str, Hex] = field(default_factory=dict)
    orders: Mapping[str, tuple[Order, ...]] = field(default_factory=dict)
    battle_choices: Mapping[str, tuple[Hex, ...]] = field(default_factory=dict)
    battles: tuple[BattleInput, ...] = ()
    retreats: Mapping[str, Hex] = field(default_factory=dict)
    tithes: Mapping[str, tuple[Tithe, ...]] = field(default_factory=dict)
    purchases: Mapping[str, tuple[Purchase, ...]] = field(default_factory=dict)
    feed: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    deploy: Mapping[str, tuple[Placement | Allocation, ...]] = field(default_factory=dict)
    # optional.glory (OB2): each kingdom's new wishes, applied as the file is read
    honour_wishes: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # optional.succession (OB7): the army each kingdom disbands if it owes one
    succession: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class BattleSide:
    kingdom: str
    armies: tuple[str, ...]
    ships: tuple[str, ...]
    points: int
    strategy_cards: int
    defending: bool
    # optional.army_limits (OA2): points a side may spend on Monsters and on War Engines; on
    # the sides of pitched battles handed to the tabletop only.
    limits: Mapping[Licence, int] | None = None
    # optional.wizards (OA9): the artefacts on the side's armies, shown on the card.
    artefacts: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Holder:
    """Who holds an artefact (`optional.wizards`, OA8): a kingdom, on one of its armies, or
    at its capital (`army` None)."""

    kingdom: str
    army: str | None = None


@dataclass(frozen=True, slots=True)
class Artefact:
    """A magical artefact of the campaign's pool (OA8): free (`holder` None) or held.
    Option module: `optional.wizards`."""

    LOWEST: ClassVar[int] = 5  # its points (OA8)
    HIGHEST: ClassVar[int] = 50

    name: str
    points: int
    holder: Holder | None = None


@dataclass(frozen=True, slots=True)
class Siege:
    """`optional.sieges` (OA14, OA15): the side whose fortress or capital is assaulted, and its
    works."""

    side: str
    works: Works


@dataclass(frozen=True, slots=True)
class Battle:
    year: int
    month: int
    hex: Hex
    kind: str
    attacker: str
    defender: str
    sides: tuple[BattleSide, BattleSide]
    board: str | None = None
    condition: str | None = None
    scenario: str | None = None
    defender_benefit: str | None = None
    last_stand: str | None = None
    siege: Siege | None = None  # optional.sieges, on pitched battles handed to the tabletop
    status: BattleStatus = BattleStatus.RESOLVED
    result: str | None = None
    winner: str | None = None
    dice: tuple[int, ...] = ()
    extra: JsonObject = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Pending:
    kind: PendingKind
    kingdom: str
    detail: JsonObject = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Campaign:
    name: str
    options: Options
    map: HexMap
    clock: Clock
    player_order: tuple[str, ...]
    kingdoms: tuple[Kingdom, ...]
    tiles: Mapping[Hex, Holding]
    armies: Mapping[str, Army]
    ships: Mapping[str, Ship]
    inputs: Inputs = Inputs()
    dice: tuple[int, ...] | None = None
    dice_rolled: int = 0
    battle_turn: str | None = None
    pending: tuple[Pending, ...] = ()
    battles: tuple[Battle, ...] = ()
    events: tuple[JsonObject, ...] = ()
    extra: JsonObject = field(default_factory=dict)
    towers: frozenset[Hex] = frozenset()  # optional.wizards (OA5): never explored or entered
    artefacts: tuple[Artefact, ...] = ()  # optional.wizards (OA8): the pool, in its order
    roads: frozenset[tuple[Hex, Hex]] = frozenset()  # optional.roads (OW9): each pair in order
    # optional.marauders (OW1 to OW3): the horde's armies (each of kingdom HORDE, by id), this
    # month's order of each (fixed at the month's opening, cleared at reform), and how many
    # have ever arrived.
    horde: Mapping[str, Army] = field(default_factory=dict)
    raids: Mapping[str, Raid] = field(default_factory=dict)
    marauders_arrived: int = 0

    def kingdom(self, kingdom_id: str) -> Kingdom:
        for kingdom in self.kingdoms:
            if kingdom.id == kingdom_id:
                return kingdom
        raise KeyError(kingdom_id)

    def owner(self, hex_: Hex) -> str | None:
        holding = self.tiles.get(hex_)
        return holding.owner if holding else None

    def settlement(self, hex_: Hex) -> Settlement | None:
        holding = self.tiles.get(hex_)
        return holding.settlement if holding else None

    def units(self) -> list[Unit]:
        """Every army and ship, the horde's armies last."""
        return [*self.armies.values(), *self.ships.values(), *self.horde.values()]

    def units_in(self, hex_: Hex) -> list[Unit]:
        """Armies (not those aboard ships) and ships in a tile, in id order, then the horde's."""
        carried = {ship.carrying for ship in self.ships.values() if ship.carrying}
        units: list[Unit] = [
            army for army in self.armies.values() if army.hex == hex_ and army.id not in carried
        ]
        units.extend(ship for ship in self.ships.values() if ship.hex == hex_)
        units.extend(army for army in self.horde.values() if army.hex == hex_)
        return units

    def army(self, army_id: str) -> Army:
        """A kingdom's army or the horde's, by id."""
        return self.armies.get(army_id) or self.horde[army_id]

    def sides(self) -> frozenset[str]:
        """Who may fight a battle: the kingdoms, and the horde while there is one (OW5)."""
        kingdoms = frozenset(k.id for k in self.kingdoms)
        return kingdoms | {HORDE} if self.options.marauder_general is not None else kingdoms

    def one_step(self, a: Hex, b: Hex) -> bool:
        """OG3: from `a` to the adjacent `b`, which armies may enter, not across a water
        edge nor into a Wizard's tower."""
        return self.map.army_may_move(a, b) and b not in self.towers

    def stand_in(self, kingdom_id: str) -> Hex | None:
        """W1's stand-in, in a winter after the recall: the city or village where the
        kingdom's recalled armies stand (its recruits stand in fortresses), its first army
        there in id order; None if none is left."""
        for army in sorted(
            (a for a in self.armies.values() if a.kingdom == kingdom_id),
            key=lambda a: natural_key(a.id),
        ):
            holding = self.tiles.get(army.hex)
            if (
                holding is not None
                and holding.owner == kingdom_id
                and holding.settlement
                in (
                    Settlement.CITY,
                    Settlement.VILLAGE,
                )
            ):
                return army.hex
        return None

    def carrier_of(self, army_id: str) -> Ship | None:
        for ship in self.ships.values():
            if ship.carrying == army_id:
                return ship
        return None

    # --- the same campaign with one thing changed ---------------------------------

    def with_kingdom(self, kingdom: Kingdom) -> "Campaign":
        kingdoms = tuple(kingdom if k.id == kingdom.id else k for k in self.kingdoms)
        return replace(self, kingdoms=kingdoms)

    def with_holding(self, holding: Holding) -> "Campaign":
        return replace(self, tiles={**self.tiles, holding.hex: holding})

    def with_army(self, army: Army) -> "Campaign":
        if army.kingdom == HORDE:
            return replace(self, horde={**self.horde, army.id: army})
        return replace(self, armies={**self.armies, army.id: army})

    def with_ship(self, ship: Ship) -> "Campaign":
        return replace(self, ships={**self.ships, ship.id: ship})

    def with_unit(self, unit: Unit) -> "Campaign":
        return self.with_army(unit) if isinstance(unit, Army) else self.with_ship(unit)

    def without_unit(self, unit_id: str) -> "Campaign":
        armies = {k: a for k, a in self.armies.items() if k != unit_id}
        ships = {
            k: replace(s, carrying=None) if s.carrying == unit_id else s
            for k, s in self.ships.items()
            if k != unit_id
        }
        if unit_id in self.horde:
            marauders = {k: a for k, a in self.horde.items() if k != unit_id}
            orders = {k: o for k, o in self.raids.items() if k != unit_id}
            return replace(self, horde=marauders, raids=orders)
        return replace(self, armies=armies, ships=ships)

    def at(
        self, step: Step, *, month: int | None = None, season: Season | None = None
    ) -> "Campaign":
        clock = replace(
            self.clock,
            step=step,
            month=self.clock.month if month is None else month,
            season=self.clock.season if season is None else season,
        )
        return replace(self, clock=clock)
