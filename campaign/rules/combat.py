"""Battle arithmetic and tables: the pitched battle hand-off (ruling B6), simple land
battles (B7), naval battles (B8) and land/water battles (B9).

Which battles happen, and what their results do to the campaign, is decided elsewhere.
Every function that rolls takes a `roll` returning one D6 per call and returns each die
it rolled, in the order rolled, so the caller can record it (ruling D1).
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum

from campaign.rules.hexmap import Battlefield

type Roll = Callable[[], int]
type NaturalKey = tuple[tuple[str | int, ...], str]
type Fleet = tuple[NavalShip, ...]

ARMY_POINTS = 500
BASE_DEFENCE = 4
NAVAL_HIT = 4

BOGGY = "Boggy Ground"
UNSTABLE = "Unstable Ground"
REDUCED_VISIBILITY = "Reduced Visibility"
PASSING_ENGAGEMENT = "Passing Engagement"
SCOUTING_FAILURE = "Scouting Failure"
CLEAR = "Clear Conditions"

# The tile terrain table, one condition per die face 1..6.
CONDITIONS: dict[Battlefield, tuple[str, ...]] = {
    Battlefield.RIVER_VALLEY: (BOGGY,) * 3 + (CLEAR,) * 3,
    Battlefield.MOUNTAINS: (UNSTABLE,) * 3 + (CLEAR,) * 3,
    Battlefield.COASTAL: (REDUCED_VISIBILITY,) * 3 + (CLEAR,) * 3,
    Battlefield.LOWLAND_FORESTS: (REDUCED_VISIBILITY,) * 3 + (CLEAR,) * 3,
    Battlefield.LOWLAND_PLAINS: (PASSING_ENGAGEMENT,) + (CLEAR,) * 4 + (SCOUTING_FAILURE,),
}

# The rulebook's "Defended tiles" table, Benefit column, word for word.
DEFENDER_BENEFITS: dict[str | None, str] = {
    None: (
        "Add, remove, or move 1 piece of terrain on the table to represent the defenders "
        "choosing the battle ground."
    ),
    "village": (
        "May add up to 1 blocking or difficult ground terrain pieces (village buildings, "
        "fields, etc) and up to 2 obstacles anywhere on the board."
    ),
    "city": (
        "May add up to 2 blocking or difficult ground terrain pieces (city buildings, "
        "vineyards, ponds, etc) and up to 2 obstacles anywhere on the board. In addition, "
        "the defender places 1 objective marker on their half of the board which is worth "
        "1 Victory Point for the side that controls it at the end of the game, in addition "
        "to the normal scenario scoring."
    ),
    "fortress": (
        "May add up to 2 blocking or difficult ground terrain pieces (fortifications or "
        "other defences) and up to 4 obstacles anywhere on the board. In addition, the "
        "defender places 2 objective markers on their half of the board which are worth "
        "1 Victory Point each for the side that controls either or both of them at the end "
        "of the game, in addition to the normal scenario scoring."
    ),
}


class Side(StrEnum):
    """The picker chose the battle (ruling B2); the opponent is the kingdom it chose."""

    PICKER = "picker"
    OPPONENT = "opponent"


@dataclass(frozen=True, slots=True)
class Scenario:
    name: str
    how_to_win: str


MARGIN = (
    " The higher score wins only if it leads by at least 10% of the game size "
    "(100 points in a 1,000-point game, 200 in a 2,000-point game); otherwise the game "
    "is a draw."
)

SCENARIOS = (
    Scenario(
        "Kill!",
        "Each side scores the total points of enemy units it has Routed." + MARGIN,
    ),
    Scenario(
        "Invade!",
        "Each side scores the total points of its own units entirely in the enemy half "
        "of the table." + MARGIN,
    ),
    Scenario(
        "Dominate!",
        'Each side scores the total points of its own units entirely within 12" of the '
        "centre of the table." + MARGIN,
    ),
    Scenario(
        "Pillage!",
        'D3+4 objectives are placed alternately, more than 12" apart. A side controls an '
        'objective if it has a unit within 3" of it and the enemy has none within 3". '
        "The side controlling more objectives wins; equal is a draw.",
    ),
    Scenario(
        "Loot!",
        "3 loot tokens are placed on the centre line. The side holding more loot tokens "
        "at the end wins (tokens carried off the table count); equal is a draw.",
    ),
    Scenario(
        "Kill and Pillage!",
        "Each side scores the total points of enemy units it has Routed, plus 10% of the "
        "game size for each objective it controls." + MARGIN,
    ),
)


@dataclass(frozen=True, slots=True)
class SimpleBattle:
    picker_dice: tuple[int, ...]
    opponent_dice: tuple[int, ...]
    picker_hits: int
    opponent_hits: int
    winner: Side | None

    @property
    def dice(self) -> tuple[int, ...]:
        """Every die, in the order rolled."""
        return self.picker_dice + self.opponent_dice


@dataclass(frozen=True, slots=True)
class NavalShip:
    id: str
    carrying: bool


@dataclass(frozen=True, slots=True)
class NavalRound:
    """One round: each side's dice, rolled for its ships in id order (`natural_key`),
    and the ids of each side's ships sunk in it."""

    picker_dice: tuple[int, ...]
    opponent_dice: tuple[int, ...]
    picker_sunk: tuple[str, ...]
    opponent_sunk: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class NavalBattle:
    """Survivors are listed in id order (`natural_key`)."""

    rounds: tuple[NavalRound, ...]
    winner: Side | None
    picker_survivors: tuple[NavalShip, ...]
    opponent_survivors: tuple[NavalShip, ...]

    @property
    def dice(self) -> tuple[int, ...]:
        """Every die, in the order rolled."""
        return tuple(d for r in self.rounds for d in r.picker_dice + r.opponent_dice)


@dataclass(frozen=True, slots=True)
class LandWaterBattle:
    picker_dice: tuple[int, ...]
    opponent_dice: tuple[int, ...]
    picker_total: int
    opponent_total: int
    winner: Side | None

    @property
    def dice(self) -> tuple[int, ...]:
        """Every die, in the order rolled."""
        return self.picker_dice + self.opponent_dice


def natural_key(unit_id: str) -> NaturalKey:
    """Sort key for unit ids with numbers in natural order: "red-s9" < "red-s10".

    Text and number runs alternate from a text run, so two keys only ever compare
    text with text and numbers with numbers; the id itself breaks ties ("s01", "s1").
    """
    runs = re.split(r"(\d+)", unit_id)
    parts = tuple(int(run) if i % 2 else run for i, run in enumerate(runs))
    return parts, unit_id


def board_size(largest_side_armies: int) -> str:
    """Ruling B6: the board for the side with more armies."""
    if largest_side_armies < 1:
        raise ValueError(f"a pitched battle needs at least one army, not {largest_side_armies}")
    if largest_side_armies <= 2:
        return "4x4"
    if largest_side_armies == 3:
        return "5x4"
    if largest_side_armies <= 5:
        return "6x4"
    return "8x4"


def battle_points(armies: int) -> int:
    """Ruling B6: 500 points per upright army."""
    if armies < 0:
        raise ValueError(f"a side can't have {armies} armies")
    return ARMY_POINTS * armies


def tile_condition(battlefield: Battlefield, die: int) -> str:
    """The Battlefields condition card for one D6 on the tile terrain table (B6, M6)."""
    _check_die(die)
    return CONDITIONS[battlefield][die - 1]


def scenario(die: int) -> Scenario:
    """The Kings of War scenario for one D6 (ruling B6)."""
    _check_die(die)
    return SCENARIOS[die - 1]


def defender_benefit(settlement: str | None) -> str:
    """What a defending side may do to the table (B6). A capital is a "city"."""
    if settlement not in DEFENDER_BENEFITS:
        raise ValueError(f"no defended-tile benefit for settlement {settlement!r}")
    return DEFENDER_BENEFITS[settlement]


def army_defence(*, defends: bool, own_capital: bool, own_fortress: bool) -> int:
    """Ruling B7: Defence 4, +1 for each that applies."""
    return BASE_DEFENCE + defends + own_capital + own_fortress


def simple_land_battle(
    picker_defences: Sequence[int], opponent_defences: Sequence[int], roll: Roll
) -> SimpleBattle:
    """Ruling B7: one Defence per upright army; the picker rolls, then the opponent."""
    if not picker_defences or not opponent_defences:
        raise ValueError("a simple land battle needs an upright army on each side")
    picker_dice = _roll_dice(roll, len(picker_defences))
    opponent_dice = _roll_dice(roll, len(opponent_defences))
    # Every die goes to the opposing army with the lowest Defence.
    picker_hits = _hits(picker_dice, min(opponent_defences))
    opponent_hits = _hits(opponent_dice, min(picker_defences))
    return SimpleBattle(
        picker_dice=picker_dice,
        opponent_dice=opponent_dice,
        picker_hits=picker_hits,
        opponent_hits=opponent_hits,
        winner=_higher(picker_hits, opponent_hits),
    )


def naval_battle(
    picker_ships: Sequence[NavalShip],
    opponent_ships: Sequence[NavalShip],
    *,
    river: bool,
    roll: Roll,
) -> NavalBattle:
    """Ruling B8: rounds of dice until a side has no ships or fewer than the other.

    Each round the picker rolls one die per ship, then the opponent; dice go to ships in
    id order (`natural_key`). Sinking is simultaneous and takes the highest ids first.
    """
    picker = _fleet(picker_ships)
    opponent = _fleet(opponent_ships)
    rounds: list[NavalRound] = []
    # At least one round, even between unequal fleets: the test comes after a round.
    while not rounds or (len(picker) == len(opponent) and picker):
        picker_dice = _roll_dice(roll, len(picker))
        opponent_dice = _roll_dice(roll, len(opponent))
        # Simultaneous: both sides' dice count, from the ships afloat at the round's start.
        picker_hits = _sinkings(picker, picker_dice, river)
        opponent_hits = _sinkings(opponent, opponent_dice, river)
        picker, picker_sunk = _sink(picker, opponent_hits)
        opponent, opponent_sunk = _sink(opponent, picker_hits)
        rounds.append(NavalRound(picker_dice, opponent_dice, picker_sunk, opponent_sunk))
    return NavalBattle(
        rounds=tuple(rounds),
        winner=_higher(len(picker), len(opponent)),
        picker_survivors=picker,
        opponent_survivors=opponent,
    )


def land_water_battle(
    picker_dice_count: int, opponent_dice_count: int, roll: Roll
) -> LandWaterBattle:
    """Ruling B9: the caller counts 1 die per army or ship, 2 for a ship with an army."""
    if picker_dice_count < 1 or opponent_dice_count < 1:
        raise ValueError("a land/water battle needs at least one die on each side")
    picker_dice = _roll_dice(roll, picker_dice_count)
    opponent_dice = _roll_dice(roll, opponent_dice_count)
    picker_total = sum(picker_dice)
    opponent_total = sum(opponent_dice)
    return LandWaterBattle(
        picker_dice=picker_dice,
        opponent_dice=opponent_dice,
        picker_total=picker_total,
        opponent_total=opponent_total,
        winner=_higher(picker_total, opponent_total),
    )


def _check_die(die: int) -> None:
    if not 1 <= die <= 6:
        raise ValueError(f"a D6 shows 1 to 6, not {die}")


def _roll_dice(roll: Roll, count: int) -> tuple[int, ...]:
    dice = tuple(roll() for _ in range(count))
    for die in dice:
        _check_die(die)
    return dice


def _hits(dice: tuple[int, ...], defence: int) -> int:
    return sum(die >= defence for die in dice)


def _higher(picker_score: int, opponent_score: int) -> Side | None:
    if picker_score > opponent_score:
        return Side.PICKER
    if opponent_score > picker_score:
        return Side.OPPONENT
    return None


def _fleet(ships: Sequence[NavalShip]) -> Fleet:
    ids = [ship.id for ship in ships]
    if len(set(ids)) != len(ids):
        raise ValueError(f"a ship appears twice in a naval battle: {ids}")
    if not ships:
        raise ValueError("a naval battle needs ships on both sides")
    return tuple(sorted(ships, key=lambda ship: natural_key(ship.id)))


def _sinkings(ships: Fleet, dice: tuple[int, ...], river: bool) -> int:
    """How many enemy ships these dice sink: +1 carrying an army, -1 on a river or lake."""
    rolled = zip(ships, dice, strict=True)  # pragma: no mutate: a die per ship, never fewer
    return sum(die + ship.carrying - river >= NAVAL_HIT for ship, die in rolled)


def _sink(
    ships: tuple[NavalShip, ...], count: int
) -> tuple[tuple[NavalShip, ...], tuple[str, ...]]:
    """The fleet afloat and the ids sunk, highest id first (ruling B8's default pick)."""
    afloat = max(len(ships) - count, 0)
    return ships[:afloat], tuple(ship.id for ship in reversed(ships[afloat:]))
