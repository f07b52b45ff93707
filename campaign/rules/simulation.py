"""Whole campaigns played by bot players, through the engine's one entry point only.

`play_campaign` writes a new campaign file, calls `advance`, lets the bots answer what
the returned file's `pending` asks, and calls `advance` again, until the clock's season
is "ended". Everything random comes from the seed: the engine's dice (the file's
`options.seed`) and the bots' own `random.Random(seed)`. Nothing reads a clock, so the
same arguments give the same campaign, byte for byte.
"""

import random
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from campaign.rules import engine
from campaign.rules.bots import decide
from campaign.rules.hexmap import HexMap, map_to_json
from campaign.rules.mapgen import MAX_KINGDOMS, MIN_KINGDOMS
from campaign.rules.options import OPTIONS

type JsonDict = dict[str, Any]
type Advance = Callable[[object], JsonDict]

BATTLES = ("tabletop", "simple")
ORDERS = ("sealed", "cycle")
KINGDOMS = ("red", "blue", "green", "gold", "black", "white", "grey", "purple")
HEXES_PER_KINGDOM = 45  # about what the built-in maps give each kingdom
MAX_CALLS = 10_000  # a 6-year campaign takes a few hundred calls at most


class SimulationError(RuntimeError):
    """The engine stopped before the end with nothing to ask, or never reached the end."""


def default_size(kingdoms: int) -> int:
    """The size of a generated map for that many kingdoms."""
    return HEXES_PER_KINGDOM * kingdoms


def new_campaign(
    kingdoms: int,
    seed: int,
    hexmap: HexMap,
    *,
    battles: str = "tabletop",
    orders: str = "sealed",
    switches: Sequence[str] = (),
) -> JsonDict:
    """A campaign file at the start of setup, with the optional rules named in `switches`
    on (and their settings at their defaults). Raises ValueError for a bad argument."""
    if not MIN_KINGDOMS <= kingdoms <= MAX_KINGDOMS:
        raise ValueError(
            f"A campaign has {MIN_KINGDOMS} to {MAX_KINGDOMS} kingdoms, not {kingdoms}."
        )
    if battles not in BATTLES:
        raise ValueError(f"Battles are {' or '.join(BATTLES)}, not {battles!r}.")
    if orders not in ORDERS:
        raise ValueError(f"Orders are {' or '.join(ORDERS)}, not {orders!r}.")
    return {
        "format": 1,
        "name": f"Simulation: {kingdoms} kingdoms, seed {seed}",
        "options": {
            "orders": orders,
            "battles": battles,
            "seed": seed,
            **dict.fromkeys(switches, True),
            **{row.name: row.default for row in OPTIONS if row.needs in switches},
        },
        "map": map_to_json(hexmap),
        "clock": {"year": 1, "season": "setup", "month": 0, "step": "races"},
        "kingdoms": [
            {"id": colour, "name": f"The {colour.title()} Kingdom"}
            for colour in KINGDOMS[:kingdoms]
        ],
    }


def campaign_files(
    data: Mapping[str, Any],
    rng: random.Random,
    hexmap: HexMap,
    *,
    advance: Advance = engine.advance,
) -> Iterator[JsonDict]:
    """Every file `advance` returns from `data` on, the bots answering each one's
    `pending` before the next call, up to the one whose season is "ended"."""
    for _ in range(MAX_CALLS):
        after = advance(data)
        yield after
        if after["clock"]["season"] == "ended":
            return
        if not after["pending"]:
            raise SimulationError(f"The engine stopped at {after['clock']} asking for nothing.")
        data = decide(after, rng, hexmap)
    raise SimulationError(f"The campaign did not end within {MAX_CALLS} calls of the engine.")


def play_campaign(
    kingdoms: int,
    seed: int,
    hexmap: HexMap,
    battles: str = "tabletop",
    orders: str = "sealed",
    *,
    switches: Sequence[str] = (),
    advance: Advance = engine.advance,
) -> JsonDict:
    """The final campaign file of a whole campaign played by bots, with the optional rules
    `switches` on. `advance` is the engine's entry point, or a stand-in that calls it (the
    bench times the calls)."""
    data = new_campaign(kingdoms, seed, hexmap, battles=battles, orders=orders, switches=switches)
    files = campaign_files(data, random.Random(seed), hexmap, advance=advance)
    return deque(files, maxlen=1)[0]
