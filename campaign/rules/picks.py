"""Rule OG2 of campaign-options.md: a random pick among n candidates, listed in the order a
rule gives, with the file's dice."""

from collections.abc import Callable, Sequence


def random_pick[T](candidates: Sequence[T], roll: Callable[[], int]) -> T:
    """OG2: one candidate of `candidates` (never empty). n = 1: no dice. Else k dice, k the
    least with 6**k >= n; v = 1 + sum((die_i - 1) * 6**(i - 1)), the first die lowest; if
    v > n all k are rolled again; the v-th is taken."""
    n = len(candidates)
    if n == 1:
        return candidates[0]
    k = 1
    while 6**k < n:
        k += 1
    while True:
        v: int = 1 + sum((roll() - 1) * 6**i for i in range(k))
        if v <= n:
            return candidates[v - 1]
