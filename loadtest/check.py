"""After the load test's players have stopped: the figures, and the checks against the
database (run by loadtest/run while the web, the workers and beat still run).

    python loadtest/check.py OUT_DIR PLAYERS_FILE

Reads the locust processes' samples-*.tsv and acks-*.jsonl in OUT_DIR (loadtest/locustfile.py)
and checks, for every load campaign (seed_load):
- it advanced exactly once per month: consecutive snapshot numbers, each month's orders
  step once, no month skipped or doubled, every kingdom's orders in each advance; and no
  campaign is left with every kingdom ready but not advanced (after the queue drains);
- no lost submission: every order and readiness the server acknowledged is that kingdom's
  submission for that month (the last order given to each unit), or used by the advance;
- no error: no 5xx, no failed or refused-by-the-server request.
Prints `bench: NAME VALUE [UNIT]` lines and `bench: target_NAME met|not met`; exits 1 if a
check of correctness fails (errors, months, lost submissions)."""

import json
import math
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from campaign.models import Campaign, Snapshot, Submission  # noqa: E402
from campaign.rules.decisions import ANSWERS  # noqa: E402
from campaign.rules.state import PendingKind, Step  # noqa: E402
from campaign.services import common, inputs  # noqa: E402

type Json = dict[str, Any]

PAGES = {
    "orders page", "orders poll", "orders status", "orders unit",
    "letters poll", "letters page", "letter page",
}  # fmt: skip
POSTS = {"give order", "change order", "mark ready", "write letter"}
SIGN_IN = {"sign-in page", "sign in"}
ORDERS_PAGES = {"orders page", "orders poll", "orders status"}
TARGET_PAGES_MS, TARGET_POSTS_MS = 100, 200
# The web processes' CPU per request (every request of the run, the ramp's too): at most
# this, the two cores stay well below saturation with the load test's players (issue 37).
TARGET_WEB_CPU_MS = 4.0
SEASONS = {"setup": 0, "summer": 1, "winter": 2}
DRAIN_SECONDS = 120  # at most, for the advances queued at the end to be done


def p95(values: list[float]) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(0, math.ceil(0.95 * len(ordered)) - 1)]


def bench(name: str, value: object, unit: str = "") -> None:
    print(f"bench: {name} {value}{' ' + unit if unit else ''}", flush=True)


def target(name: str, met: bool) -> None:
    print(f"bench: target_{name} {'met' if met else 'not met'}", flush=True)


def load_campaigns(slugs: set[str]) -> list[Campaign]:
    return list(Campaign.objects.filter(slug__in=slugs).order_by("slug"))


def waiting_advance(campaign: Campaign) -> bool:
    """Every kingdom is ready but the campaign has not advanced (yet)."""
    campaign.refresh_from_db()
    snapshot = common.latest_snapshot(campaign)
    return campaign.status == Campaign.Status.RUNNING and inputs.everyone_ready(campaign, snapshot)


def drain(campaigns: list[Campaign]) -> list[str]:
    """Wait for the advances still queued; the campaigns still waiting after that."""
    deadline = time.monotonic() + DRAIN_SECONDS
    waiting = [c for c in campaigns if waiting_advance(c)]
    while waiting and time.monotonic() < deadline:
        time.sleep(1)
        waiting = [c for c in waiting if waiting_advance(c)]
    return [c.slug for c in waiting]


def months_of(campaign: Campaign, problems: list[str]) -> int:
    """The months the campaign resolved in the run; each problem with its advances added."""
    snapshots = list(Snapshot.objects.filter(campaign=campaign).order_by("number"))
    numbers = [s.number for s in snapshots]
    if numbers != list(range(1, len(numbers) + 1)):
        problems.append(f"{campaign.slug}: snapshot numbers {numbers} are not consecutive")
    kingdoms = set(campaign.memberships.exclude(kingdom="").values_list("kingdom", flat=True))
    months: list[tuple[int, int, int]] = []
    resolved = 0
    started = False
    for at, snapshot in enumerate(snapshots):
        clock = snapshot.data["clock"]
        if clock["step"] != Step.ORDERS:
            continue
        month = (clock["year"], SEASONS.get(clock["season"], 9), clock["month"])
        started = started or month == (1, 1, 1)
        if not started:
            continue
        if months and month in months:
            problems.append(f"{campaign.slug}: the orders of {month} are asked twice")
        elif months and month[:2] == months[-1][:2] and month[2] != months[-1][2] + 1:
            problems.append(f"{campaign.slug}: month {months[-1]} is followed by {month}")
        months.append(month)
        if at + 1 < len(snapshots):
            decided = set(snapshots[at + 1].decisions.get("orders", {}))
            if decided != kingdoms:
                problems.append(
                    f"{campaign.slug}: the advance of {month} had the orders of "
                    f"{sorted(decided)}, not of every kingdom"
                )
            resolved += 1
    return resolved


def read_acks(out: Path) -> list[Json]:
    acks = []
    for path in sorted(out.glob("acks-*.jsonl")):
        acks += [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return sorted(acks, key=lambda a: a["t"])


def lost_submissions(acks: list[Json], problems: list[str]) -> int:
    """Acknowledged orders and readiness not found in the database. A unit's order in the
    database must be the last one acknowledged for it that month, or one sent that got no
    answer (a timeout, or the end of the run): the server may have kept that one, before or
    after the acknowledged one."""
    allowed: dict[tuple[str, str, int], dict[str, list[Json]]] = defaultdict(dict)
    ready: set[tuple[str, str, int]] = set()
    sent: dict[tuple[str, int], Json] = {}
    answered: set[tuple[str, int]] = set()
    for ack in sorted(acks, key=lambda a: a["t"]):
        key = (ack["campaign"], ack["kingdom"], ack["seen"])
        if ack.get("ready"):
            ready.add(key)
        elif ack.get("sent"):
            sent[ack["username"], ack["seq"]] = ack
        else:
            answered.add((ack["username"], ack["seq"]))
            if ack.get("ack"):
                allowed[key][ack["order"]["unit"]] = [ack["order"]]
    for post, ack in sent.items():
        key = (ack["campaign"], ack["kingdom"], ack["seen"])
        if post not in answered and ack["order"]["unit"] in allowed[key]:
            allowed[key][ack["order"]["unit"]].append(ack["order"])
    lost = 0
    for key in sorted(set(allowed) | ready):
        slug, kingdom, seen = key
        row = (
            Submission.objects.filter(
                campaign__slug=slug,
                kingdom=kingdom,
                kind=ANSWERS[PendingKind.ORDERS],
                snapshot=seen,
            )
            .select_related("consumed_by")
            .first()
        )
        stored = {o["unit"]: o for o in (row.payload if row else [])}
        used = None
        if row and row.consumed_by:
            used = {
                o["unit"]: o for o in row.consumed_by.decisions.get("orders", {}).get(kingdom, [])
            }
        for unit, orders in allowed.get(key, {}).items():
            if stored.get(unit) not in orders or (
                used is not None and used.get(unit) not in orders
            ):
                lost += 1
                problems.append(
                    f"{slug} {kingdom} month of snapshot {seen}: {orders[0]} was acknowledged, "
                    f"the database holds {stored.get(unit)}"
                )
        if key in ready and not (row and (row.ready or row.consumed_by)):
            lost += 1
            problems.append(f"{slug} {kingdom} snapshot {seen}: ready was acknowledged, not kept")
    return lost


type Sample = tuple[float, str, float, int, bool, str]  # time, request, ms, status, failed, who


def read_samples(out: Path) -> list[Sample]:
    samples = []
    for path in sorted(out.glob("samples-*.tsv")):
        for line in path.read_text().splitlines():
            t, name, ms, status, failed, player = line.split("\t")
            samples.append((float(t), name, float(ms), int(status), failed == "1", player))
    return samples


def cpu_seconds(out: Path) -> dict[str, float]:
    """CPU time used so far by each server process (LOADTEST_PIDS, with its children) and by
    the locust processes (their own account, written as they quit)."""
    import psutil

    used: dict[str, float] = {}
    for item in os.environ.get("LOADTEST_PIDS", "").split():
        name, pid = item.split("=")
        try:
            process = psutil.Process(int(pid))
            tree = [process, *process.children(recursive=True)]
            used[name] = sum(sum(p.cpu_times()[:2]) for p in tree)
        except psutil.Error:
            used[name] = math.nan
    used["locust"] = sum(float(p.read_text()) for p in out.glob("cpu-locust-*.txt"))
    return used


def kind_of(name: str, status: object) -> str:
    """A kind of request in the figures' names: what locust named it and how it was
    answered (`orders_poll_304`), the same for its p95 and its CPU."""
    return f"{name.replace(' ', '_')}_{status}"


def cpu_by_kind(out: Path) -> dict[str, list[float]]:
    """The CPU (ms) each request cost its web thread, by what was asked and how it was
    answered, as loadtest/timed_wsgi.py wrote them down (the ramp's too)."""
    kinds: dict[str, list[float]] = defaultdict(list)
    for path in sorted(out.glob("cpu-web-*.tsv")):
        for line in path.read_text().splitlines():
            name, status, ms = line.split("\t")
            kinds[kind_of(name, status)].append(float(ms))
    return kinds


def by_kind(samples: list[Sample], steady: float) -> dict[str, list[float]]:
    """The times of the pages and posts after the ramp by what was asked and how it was
    answered (`orders_poll_304`, `orders_poll_200`, `give_order_200`...): where the time goes."""
    kinds: dict[str, list[float]] = defaultdict(list)
    for t, name, ms, status, *_ in samples:
        if t >= steady and (name in PAGES or name in POSTS):
            kinds[kind_of(name, status)].append(ms)
    return kinds


def main(out: Path, players_file: Path) -> int:
    players = [json.loads(line) for line in players_file.read_text().splitlines() if line]
    campaigns = load_campaigns({p["campaign"] for p in players})
    problems: list[str] = []
    stuck = drain(campaigns)
    problems += [f"{slug}: every kingdom is ready but it did not advance" for slug in stuck]

    samples = read_samples(out)
    # Who played: saw their orders page (signed in through the form or with their session).
    playing = {s[5] for s in samples if s[1] in ORDERS_PAGES and s[3] in (200, 304)}
    # The ramp (every player starting) is left out of the page and post figures.
    start = min((s[0] for s in samples), default=0.0)
    steady = start + float(os.environ.get("LOADTEST_RAMP_SECONDS", "0"))
    pages = [ms for t, name, ms, *_ in samples if name in PAGES and t >= steady]
    posts = [ms for t, name, ms, *_ in samples if name in POSTS and t >= steady]
    failed = [(s[1], s[3]) for s in samples if s[4]]
    server_errors = sum(1 for s in samples if s[3] >= 500)
    span = (max(t for t, *_ in samples) - min(t for t, *_ in samples)) if samples else 0.0
    acks = read_acks(out)
    months = sum(months_of(c, problems) for c in campaigns)
    lost = lost_submissions(acks, problems)

    bench("loadtest_cores", os.cpu_count())
    bench("loadtest_load_average", "/".join(f"{n:.2f}" for n in os.getloadavg()), "(1/5/15 min)")
    used = cpu_seconds(out)
    for name, seconds in used.items():
        bench(f"loadtest_cpu_{name}", f"{seconds:.0f}", "s")
    web_cpu_ms = used.get("web", math.nan) * 1000 / len(samples) if samples else math.nan
    bench("loadtest_web_cpu_per_request", f"{web_cpu_ms:.2f}", f"ms (target {TARGET_WEB_CPU_MS:g})")
    spent = cpu_by_kind(out)
    in_requests = sum(sum(times) for times in spent.values()) / 1000
    share = f"{100 * in_requests / used['web']:.0f} %" if used.get("web") else "?"
    bench("loadtest_web_cpu_in_requests", f"{in_requests:.0f}", f"s ({share} of the web's)")
    for kind, times in sorted(spent.items(), key=lambda kind: -sum(kind[1])):
        bench(
            f"loadtest_request_cpu_{kind}",
            f"{sum(times) / len(times):.2f}",
            f"ms a request, {sum(times) / 1000:.1f} s in all ({len(times)} requests)",
        )
    bench("loadtest_players", len(playing))
    bench("loadtest_campaigns", len(campaigns))
    bench("loadtest_requests", len(samples))
    bench("loadtest_requests_per_second", f"{len(samples) / span:.1f}" if span else 0, "req/s")
    bench(
        "loadtest_steady_seconds",
        f"{max(t for t, *_ in samples) - steady:.0f}" if samples else 0,
        "s",
    )
    sign_ins = [ms for _, n, ms, *_ in samples if n == "sign in"]
    if sign_ins:  # LOADTEST_SIGN_IN=1, or a session that had expired
        bench("loadtest_sign_in_p95", f"{p95(sign_ins):.0f}", "ms")
    bench("loadtest_pages_p95", f"{p95(pages):.0f}", "ms")
    bench("loadtest_order_posts_p95", f"{p95(posts):.0f}", "ms")
    every_page = [s[2] for s in samples if s[1] in PAGES]
    every_post = [s[2] for s in samples if s[1] in POSTS]
    bench("loadtest_pages_p95_with_ramp", f"{p95(every_page):.0f}", "ms")
    bench("loadtest_order_posts_p95_with_ramp", f"{p95(every_post):.0f}", "ms")
    for kind, times in sorted(by_kind(samples, steady).items()):
        bench(f"loadtest_p95_{kind}", f"{p95(times):.0f}", f"ms ({len(times)} requests)")
    bench("loadtest_page_requests", len(pages))
    bench("loadtest_order_posts", len(posts))
    bench("loadtest_acknowledged", sum(1 for a in acks if a.get("ack")))
    bench("loadtest_errors", len(failed))
    bench("loadtest_unanswered", sum(1 for s in samples if s[4] and s[3] == 0), "(timed out)")
    bench("loadtest_server_errors", server_errors)
    bench("loadtest_months_advanced", months)
    bench("loadtest_lost_submissions", lost)
    month_problems = [p for p in problems if "acknowledged" not in p]
    target(
        f"loadtest_web_cpu_per_request_at_most_{TARGET_WEB_CPU_MS:g}ms",
        web_cpu_ms <= TARGET_WEB_CPU_MS,  # NaN (no figure) is not met
    )
    target(
        f"loadtest_pages_p95_at_most_{TARGET_PAGES_MS}ms",
        bool(pages) and p95(pages) <= TARGET_PAGES_MS,
    )
    target(
        f"loadtest_order_posts_p95_at_most_{TARGET_POSTS_MS}ms",
        bool(posts) and p95(posts) <= TARGET_POSTS_MS,
    )
    target("loadtest_no_errors", not failed)
    target("loadtest_advanced_exactly_once_per_month", months > 0 and not month_problems)
    target("loadtest_no_lost_submission", any(a.get("ack") for a in acks) and lost == 0)
    for name, status in sorted(set(failed))[:20]:
        print(f"loadtest: failed: {name} (HTTP {status})", file=sys.stderr)
    for problem in problems[:50]:
        print(f"loadtest: {problem}", file=sys.stderr)
    correct = not failed and not problems and months > 0 and any(a.get("ack") for a in acks)
    return 0 if correct else 1


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
