"""Every die the engine rolls (ruling D1): taken from the file's `dice` list when it has
one, else from the campaign's seeded source. Die number n of a campaign is always the
same for the same seed, so replaying a campaign file gives the same rolls."""

import random

from campaign.rules.errors import RuleError


class Dice:
    def __init__(self, seed: int, rolled: int, scripted: tuple[int, ...] | None) -> None:
        self.seed = seed
        self.rolled = rolled
        self.scripted = scripted

    def roll(self) -> int:
        """One D6."""
        if self.scripted is not None:
            if not self.scripted:
                raise RuleError(
                    "out-of-dice", "dice", "The file's dice list ran out: add more D6 results."
                )
            die, self.scripted = self.scripted[0], self.scripted[1:]
        else:
            die = random.Random(f"{self.seed}:{self.rolled}").randint(1, 6)
        self.rolled += 1
        return die
