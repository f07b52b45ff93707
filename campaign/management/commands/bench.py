"""`manage.py bench [--quick] [--profile]`: how fast the engine plays whole campaigns, one
month, and the winter page's forecast.

One figure a line, `bench: NAME VALUE UNIT`, then a line per target of the issue,
`bench: target_NAME met` (or `not met`). Every campaign is the simulator's (bots, tabletop
battles, sealed orders) on a generated map; the engine's time is that of its `advance`
calls alone, the bots' time is the rest. `--profile` prints to standard error where the
time of the issue's campaign (8 kingdoms, 1,000 hexes) goes. No database is touched."""

import cProfile
import io
import math
import pstats
import random
import statistics
import sys
import time
import tracemalloc
from argparse import ArgumentParser
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.core.management.base import BaseCommand

from campaign.display.winter import forecast
from campaign.gazetteer import Names
from campaign.rules.bots import decide
from campaign.rules.engine import advance
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import HexMap
from campaign.rules.mapgen import generate_map
from campaign.rules.options import OPTIONS
from campaign.rules.simulation import campaign_files, new_campaign, play_campaign
from campaign.rules.state import PendingKind
from campaign.rules.winter import purchase_choices

SEED = 1
MONTH = (3, 4)  # the month timed, mid-campaign: year 3, month 4
MONTH_RUNS = 9
# Targets of the issue (on a 2-core machine).
CAMPAIGN_ENGINE_TARGET_S = 0.4  # the engine's time in a whole 8-kingdom campaign, 1,000 hexes
OPTIONS_CAMPAIGN_TARGET_S = 0.5  # issue 27: the engine's time in it, every optional rule on
MONTH_TARGET_MS = 5.0
# A cost growing linearly has a growth exponent of 1; what a run's noise may add.
LINEAR_EXPONENT = 1.15


@dataclass(frozen=True)
class Plan:
    kingdoms: tuple[int, ...]
    sizes: tuple[int, ...]
    runs: int  # each campaign is timed this many times; the median counts
    # The kingdoms and size of the campaign whose month, memory and winter page are timed
    # (and which --profile profiles): the issue's, 8 kingdoms on 1,000 hexes.
    reference: tuple[int, int]


FULL = Plan(kingdoms=(2, 4, 8), sizes=(250, 1000, 4000), runs=3, reference=(8, 1000))
QUICK = Plan(kingdoms=(2, 3), sizes=(60, 120), runs=1, reference=(3, 120))


@dataclass(frozen=True)
class Timing:
    total: float
    engine: float
    calls: int


class Command(BaseCommand):
    help = "Time whole campaigns and one month of the rules engine; print the figures."
    requires_system_checks = []  # noqa: RUF012  (it needs no database, key or server)

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--quick", action="store_true", help="small maps only, one run each")
        parser.add_argument(
            "--profile", action="store_true", help="profile the reference campaign (standard error)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        plan = QUICK if options["quick"] else FULL
        for line in bench(plan):
            self.stdout.write(line)
        if options["profile"]:
            sys.stderr.write(profile(*plan.reference))


def name(kingdoms: int, size: int) -> str:
    return f"{kingdoms}k_{size}hex"


def bench(plan: Plan) -> Iterator[str]:
    """Every figure of the plan, then the targets, one line each."""
    engine: dict[tuple[int, int], float] = {}
    hexes: dict[tuple[int, int], int] = {}
    figures: dict[str, float] = {}
    for kingdoms in plan.kingdoms:
        for size in plan.sizes:
            hexmap = generate_map(kingdoms, SEED, size)
            timing = time_campaign(kingdoms, hexmap, plan.runs)
            label = name(kingdoms, size)
            engine[kingdoms, size], hexes[kingdoms, size] = timing.engine, len(hexmap.tiles)
            figures[f"campaign_{label}"] = timing.total
            figures[f"campaign_{label}_engine"] = timing.engine
            yield f"bench: campaign_{label} {timing.total:.3f} s"
            yield f"bench: campaign_{label}_engine {timing.engine:.3f} s"
            yield f"bench: campaign_{label}_calls {timing.calls} calls"
            yield f"bench: map_{label} {len(hexmap.tiles)} hexes"
    kingdoms, size = plan.reference
    hexmap = generate_map(kingdoms, SEED, size)
    every = tuple(row.name for row in OPTIONS if row.switch)
    optioned = time_campaign(kingdoms, hexmap, plan.runs, switches=every)
    figures[f"campaign_{name(kingdoms, size)}_all_options_engine"] = optioned.engine
    yield f"bench: campaign_{name(kingdoms, size)}_all_options {optioned.total:.3f} s"
    yield f"bench: campaign_{name(kingdoms, size)}_all_options_engine {optioned.engine:.3f} s"
    made = time_map_generation(kingdoms, size)
    yield f"bench: mapgen_{name(kingdoms, size)} {made:.1f} ms"
    figures[f"month_{name(kingdoms, size)}"] = month = time_month(kingdoms, hexmap)
    yield f"bench: month_{name(kingdoms, size)} {month:.2f} ms"
    yield f"bench: peak_memory_{name(kingdoms, size)} {peak_memory(kingdoms, hexmap):.1f} MB"
    winter = time_winter_choices(kingdoms, hexmap)
    yield f"bench: winter_choices_{name(kingdoms, size)} {winter:.2f} ms"
    by_hexes = _growth_by_hexes(plan, engine, hexes)
    by_kingdoms = _growth_by_kingdoms(plan, engine)
    yield f"bench: growth_engine_by_hexes {by_hexes:.2f} exponent"
    yield f"bench: growth_engine_by_kingdoms {by_kingdoms:.2f} exponent"
    yield from targets(figures, by_hexes, by_kingdoms)


def targets(figures: dict[str, float], by_hexes: float, by_kingdoms: float) -> Iterator[str]:
    """The issue's targets, those measured here: met or not met."""
    campaign = figures.get("campaign_8k_1000hex_engine")
    if campaign is not None:
        yield _target("campaign_8k_1000hex_engine_under_400ms", campaign < CAMPAIGN_ENGINE_TARGET_S)
    optioned = figures.get("campaign_8k_1000hex_all_options_engine")
    if optioned is not None:
        met = optioned < OPTIONS_CAMPAIGN_TARGET_S
        switched = sum(1 for row in OPTIONS if row.switch)  # issue 38: eight; issue 39: ten
        yield _target(f"campaign_8k_1000hex_all_{switched}_options_engine_under_500ms", met)
    month = figures.get("month_8k_1000hex")
    if month is not None:
        yield _target("month_8k_1000hex_under_5ms", month < MONTH_TARGET_MS)
    yield _target("engine_at_most_linear_in_hexes", by_hexes <= LINEAR_EXPONENT)
    yield _target("engine_at_most_linear_in_kingdoms", by_kingdoms <= LINEAR_EXPONENT)


def _target(label: str, met: bool) -> str:
    return f"bench: target_{label} {'met' if met else 'not met'}"


def time_map_generation(kingdoms: int, size: int) -> float:
    """Milliseconds to generate a new map, the median of five seeds."""
    took = []
    for seed in range(SEED, SEED + 5):
        began = time.perf_counter()
        generate_map(kingdoms, seed, size)
        took.append((time.perf_counter() - began) * 1000)
    return statistics.median(took)


def time_campaign(
    kingdoms: int, hexmap: HexMap, runs: int, *, switches: tuple[str, ...] = ()
) -> Timing:
    """The median of `runs` plays of the same campaign (with the optional rules `switches`
    on): all of it, and its engine calls."""
    timings = [_play_timed(kingdoms, hexmap, switches) for _ in range(runs)]
    return Timing(
        total=statistics.median(t.total for t in timings),
        engine=statistics.median(t.engine for t in timings),
        calls=timings[0].calls,
    )


def _play_timed(kingdoms: int, hexmap: HexMap, switches: tuple[str, ...]) -> Timing:
    spent = [0.0]
    calls = [0]

    def timed_advance(data: object) -> dict[str, Any]:
        start = time.perf_counter()
        try:
            return advance(data)
        finally:
            spent[0] += time.perf_counter() - start
            calls[0] += 1

    start = time.perf_counter()
    play_campaign(kingdoms, SEED, hexmap, switches=switches, advance=timed_advance)
    return Timing(total=time.perf_counter() - start, engine=spent[0], calls=calls[0])


def time_month(kingdoms: int, hexmap: HexMap) -> float:
    """Milliseconds for `advance` to resolve one summer month mid-campaign, every order
    given by the bots (with defaults for any later decision, so that it runs on to the
    next month's orders): the median of several runs."""
    new = new_campaign(kingdoms, SEED, hexmap, battles="simple")
    rng = random.Random(SEED)
    for data in campaign_files(new, rng, hexmap):
        clock = data["clock"]
        if (clock["year"], clock["month"], clock["step"]) == (*MONTH, "orders"):
            break
    else:
        raise RuntimeError("The campaign ended before the month to time.")
    ordered = decide(data, rng, hexmap)
    times = []
    for _ in range(MONTH_RUNS):
        start = time.perf_counter()
        advance(ordered, defaults=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def time_winter_choices(kingdoms: int, hexmap: HexMap) -> float:
    """Milliseconds of engine work the winter page does each time a kingdom changes its
    list of purchases in year 2: the forecast (a trial run of the rest of the winter) and
    the purchases it could add next. The median of several runs."""
    new = new_campaign(kingdoms, SEED, hexmap)
    for data in campaign_files(new, random.Random(SEED), hexmap):
        asked = [
            p["kingdom"] for p in data.get("pending", []) if p["kind"] == PendingKind.PURCHASES
        ]
        if data["clock"]["year"] == 2 and asked:
            break
    else:
        raise RuntimeError("The campaign ended before its second winter's purchases.")
    kingdom = asked[0]
    times = []
    for _ in range(MONTH_RUNS):
        start = time.perf_counter()
        forecast(data, kingdom, "purchases", [], Names())
        state = parse_campaign({**data, "inputs": {}})
        purchase_choices(state, kingdom, ())
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def peak_memory(kingdoms: int, hexmap: HexMap) -> float:
    """The peak of memory allocated while a whole campaign is played, in MB."""
    tracemalloc.start()
    try:
        play_campaign(kingdoms, SEED, hexmap)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return peak / 1_000_000


def _growth_by_hexes(
    plan: Plan, engine: dict[tuple[int, int], float], hexes: dict[tuple[int, int], int]
) -> float:
    """How the engine's time grows with the map's hexes, smallest to largest map: the
    exponent `e` in time ~ hexes^e (1 is linear); the largest over the kingdom counts."""
    small, large = plan.sizes[0], plan.sizes[-1]
    return max(
        _exponent(engine[k, small], engine[k, large], hexes[k, small], hexes[k, large])
        for k in plan.kingdoms
    )


def _growth_by_kingdoms(plan: Plan, engine: dict[tuple[int, int], float]) -> float:
    """The same exponent for the number of kingdoms (and so of armies), on the largest map."""
    few, many, size = plan.kingdoms[0], plan.kingdoms[-1], plan.sizes[-1]
    return _exponent(engine[few, size], engine[many, size], few, many)


def _exponent(cost: float, larger_cost: float, size: float, larger_size: float) -> float:
    if larger_size == size:
        return 0.0
    return math.log(larger_cost / cost) / math.log(larger_size / size)


def profile(kingdoms: int, size: int, lines: int = 25) -> str:
    """Where the time of a campaign goes: cProfile's top functions."""
    hexmap = generate_map(kingdoms, SEED, size)
    profiler = cProfile.Profile()
    profiler.runcall(play_campaign, kingdoms, SEED, hexmap)
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out)
    stats.sort_stats("cumulative").print_stats(lines)
    return out.getvalue()
