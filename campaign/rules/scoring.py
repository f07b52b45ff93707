"""Might and the ranking (rulings P1, P2): a live projection until the campaign ends."""

from collections import Counter
from dataclasses import dataclass

from campaign.rules import optional
from campaign.rules.state import Campaign, Kingdom, Settlement

ARMY_MIGHT = 5
SETTLEMENT_MIGHT = {Settlement.VILLAGE: 1, Settlement.CITY: 2, Settlement.FORTRESS: 2}
CAPITAL_MIGHT = 3  # the capital counts 3, not 2 + 3 (ruling P1)
NEVER_ELIMINATED = 10**6  # later than any year a kingdom can be eliminated in (P2)


@dataclass(frozen=True, slots=True)
class Score:
    kingdom: str
    might: int
    armies: int
    cities: int
    fortresses: int
    villages: int
    eliminated: int | None

    def tiebreak(self) -> tuple[int, ...]:
        """Ruling P2: might, then armies, cities (capital included), fortresses, villages,
        then eliminated latest (never eliminated is best)."""
        survived = NEVER_ELIMINATED if self.eliminated is None else self.eliminated
        return (self.might, self.armies, self.cities, self.fortresses, self.villages, survived)


def score(campaign: Campaign, kingdom: Kingdom) -> Score:
    settlements = Counter(
        h.settlement for h in campaign.tiles.values() if h.owner == kingdom.id and h.settlement
    )
    armies = sum(1 for a in campaign.armies.values() if a.kingdom == kingdom.id)
    # Not mutated: `and` -> `or` is equivalent, as a capital is always its own kingdom's (a
    # file where it is not is refused; lost, it is None).
    home = kingdom.capital
    holds_capital = home is not None and campaign.owner(home) == kingdom.id  # pragma: no mutate
    might = (
        kingdom.pitched_wins
        + sum(SETTLEMENT_MIGHT[s] * n for s, n in settlements.items())
        + (CAPITAL_MIGHT - SETTLEMENT_MIGHT[Settlement.CITY] if holds_capital else 0)
        + ARMY_MIGHT * armies
        + optional.might(campaign, kingdom)
    )
    return Score(
        kingdom=kingdom.id,
        might=might,
        armies=armies,
        cities=settlements[Settlement.CITY],
        fortresses=settlements[Settlement.FORTRESS],
        villages=settlements[Settlement.VILLAGE],
        eliminated=kingdom.eliminated,
    )


def scores(campaign: Campaign) -> list[dict[str, object]]:
    """Every kingdom's might, highest first, with equal rank for a shared place."""
    ranked = sorted(
        (score(campaign, k) for k in campaign.kingdoms),
        key=lambda s: (tuple(-v for v in s.tiebreak()), s.kingdom),
    )
    table: list[dict[str, object]] = []
    for index, entry in enumerate(ranked):
        shared = index > 0 and ranked[index - 1].tiebreak() == entry.tiebreak()
        rank = table[-1]["rank"] if shared else index + 1
        table.append(
            {
                "kingdom": entry.kingdom,
                "might": entry.might,
                "rank": rank,
                "armies": entry.armies,
                "cities": entry.cities,
                "fortresses": entry.fortresses,
                "villages": entry.villages,
            }
        )
    return table
