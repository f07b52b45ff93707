"""`manage.py bench_pages [--quick]`: the throughput of the map pages under gunicorn, side by
side with a minimal view behind the same middleware, in one run.

It stores the issue's campaign through the app's import (8 kingdoms played by the bots on a
generated 1,000-hex map, two years in, at the third year's first orders; `--quick`: 2
kingdoms on 60 hexes, a year in), with a player account and a session for each kingdom, and
serves the app with gunicorn on a free port, DEBUG off, with the configured database and
cache (migrated first; `make bench` runs it on PostgreSQL and Redis). Then, in rounds
so that the machine's noise hits every page alike, threads of simulated browsers ask each
page as a browser does: the first request answered whole, then revalidations with
If-None-Match (the orders page's polls as htmx's fragment). The minimal view
(`campaign.management.bench_urls`) sets the yardstick.

One figure a line, `bench: NAME VALUE UNIT`: each page's requests a second, its ratio to the
minimal view's, its p50/p95 latencies, the share answered 304, and the median time of the
page asked whole (a first visit, alone on the server); then `bench:
target_pages_NAME_50pct met` (or `not met`) for the campaign, orders and report pages.
Everything it stored is deleted at the end, and gunicorn stopped."""

import http.client
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from argparse import ArgumentParser
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any

from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign.display import report
from campaign.management.bench_urls import MINIMAL_PATH
from campaign.models import Campaign, Snapshot
from campaign.rules.mapgen import generate_map
from campaign.rules.simulation import KINGDOMS, campaign_files, new_campaign
from campaign.rules.state import Step
from campaign.transfer.importing import campaign_import

SEED = 1
SLUG = "bench-pages"
TARGET_RATIO = 0.5
PAGES = ("minimal", "campaign", "orders", "report")
COLOURS = ("#b22222", "#1f5fbf", "#2e8b57", "#d4a017", "#333333", "#eeeeee", "#808080", "#6a3d9a")


@dataclass(frozen=True)
class Plan:
    kingdoms: int
    hexes: int
    year: int  # the campaign is stored at this year's first orders
    rounds: int
    seconds: float  # each page's share of a round
    browsers: int  # concurrent simulated browsers
    whole_pages: int  # each page asked whole, one after another, for its first-visit time


FULL = Plan(kingdoms=8, hexes=1000, year=3, rounds=6, seconds=2.0, browsers=4, whole_pages=20)
QUICK = Plan(kingdoms=2, hexes=60, year=2, rounds=1, seconds=0.4, browsers=2, whole_pages=3)


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    errors: int = 0
    not_modified: int = 0


class Command(BaseCommand):
    help = "Measure the map pages' throughput under gunicorn against a minimal view."
    requires_system_checks = []  # noqa: RUF012  (the key is its own, shared with gunicorn)
    quick = "a small map and short runs"  # what --quick does (bench_first_visits' its own)

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--quick", action="store_true", help=self.quick)

    def handle(self, *args: Any, **options: Any) -> None:
        # The sessions it signs its players in with are read by gunicorn: one key for both.
        settings.SECRET_KEY = os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50)
        call_command("migrate", verbosity=0, interactive=False, skip_checks=True)
        for line in self.measure(quick=options["quick"]):
            self.stdout.write(line)

    def measure(self, *, quick: bool) -> Iterator[str]:
        """The lines it prints, the pages measured under gunicorn on the migrated database."""
        plan = QUICK if quick else FULL
        if Campaign.objects.filter(slug=SLUG).exists():
            raise CommandError(f"A campaign {SLUG!r} exists already: a bench is running?")
        players = _players(plan.kingdoms)
        try:
            campaign = _store_campaign(plan, players)
            cookies = [_session_cookie(user) for user in players]
            with _gunicorn() as port:
                yield from bench(plan, campaign, port, cookies)
        finally:
            Campaign.objects.filter(slug=SLUG).delete()
            User.objects.filter(pk__in=[u.pk for u in players]).delete()


def _players(kingdoms: int) -> list[User]:
    return [
        User.objects.create_user(f"bench-pages-{colour}", password=secrets.token_urlsafe(16))
        for colour in KINGDOMS[:kingdoms]
    ]


def _store_campaign(plan: Plan, players: list[User]) -> Campaign:
    """The bots' campaign, stored through the import as an export of it would be."""
    hexmap = generate_map(plan.kingdoms, SEED, plan.hexes)
    start = new_campaign(plan.kingdoms, SEED, hexmap)
    files: list[dict[str, Any]] = []
    for data in campaign_files(start, random.Random(SEED), hexmap):
        files.append(data)
        clock = data["clock"]
        if clock["year"] >= plan.year and clock["step"] == Step.ORDERS:
            break
    now = timezone.now().isoformat()
    document = {
        "export": 1,
        "campaign": {
            "name": f"Bench: {plan.kingdoms} kingdoms on {plan.hexes} hexes",
            "slug": SLUG,
            "status": "running",
            "kingdoms": plan.kingdoms,
            "options": {},
            "deadlines": {},
            "map_name": "generated",
            "map": None,
        },
        "members": [
            {
                "username": user.get_username(),
                "kingdom": kingdom["id"],
                "kingdom_name": kingdom["name"],
                "colour": COLOURS[i % len(COLOURS)],
                "heraldry": "",
                "is_admin": i == 0,
            }
            for i, (user, kingdom) in enumerate(zip(players, files[-1]["kingdoms"], strict=False))
        ],
        "snapshots": [
            {
                "number": number,
                "reason": "start" if number == 1 else "advance",
                "defaults": False,
                "data": data,
                "decisions": {},
                "created_at": now,
            }
            for number, data in enumerate(files, start=1)
        ],
    }
    return campaign_import(document)


def _session_cookie(user: User) -> str:
    """A signed-in session of the user, as the sign-in form leaves it."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "accounts.backends.UsernameOrEmailBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def _free_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


class _gunicorn:
    """gunicorn serving bench_wsgi on a free port, DEBUG off, until the block ends."""

    def __enter__(self) -> int:
        self.port = _free_port()
        env = {
            **os.environ,
            "DEBUG": "0",
            "SECRET_KEY": settings.SECRET_KEY,
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",  # plain http on the loopback, as behind nginx
            "DATABASE_CONN_MAX_AGE": "60",
        }
        self.server = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "campaign.management.bench_wsgi:application",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(os.cpu_count() or 2),
                "--log-level",
                "warning",
            ],
            env=env,
            cwd=settings.BASE_DIR,
            start_new_session=True,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.server.poll() is not None:
                raise CommandError("gunicorn stopped at its start: see its messages above.")
            try:
                if _get(self.port, MINIMAL_PATH, {})[0] == 200:
                    return self.port
            except OSError:
                time.sleep(0.2)
        self.__exit__()
        raise CommandError("gunicorn did not answer within 30 seconds.")

    def __exit__(self, *exc: object) -> None:
        os.killpg(self.server.pid, signal.SIGTERM)
        try:
            self.server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.server.pid, signal.SIGKILL)
            self.server.wait()


def _get(
    port: int,
    path: str,
    headers: dict[str, str],
    connection: http.client.HTTPConnection | None = None,
    jar: SimpleCookie | None = None,
) -> tuple[int, str | None]:
    """A GET's status and ETag; the cookies it sets go into the `jar`, as a browser's."""
    conn = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    if jar is not None:
        for cookie in response.headers.get_all("Set-Cookie") or []:
            jar.load(cookie)
    return response.status, response.getheader("ETag")


def _report_number(campaign: Campaign) -> int:
    """The newest snapshot that has a report (the month that ended last)."""
    numbers = campaign.snapshots.order_by("-number").values_list("number", flat=True)
    for number in numbers:
        snapshot = Snapshot.objects.get(campaign=campaign, number=number)
        before = Snapshot.objects.filter(campaign=campaign, number=number - 1).first()
        count = len(before.data["events"]) if before is not None else None
        if report.chapters_to_report(snapshot.data["events"], count):
            return number
    raise CommandError("The campaign has no report to read.")


class Browser:
    """A browser on one page: the page whole first, then revalidations (htmx's polls on the
    orders page) with the tag of the last answer and the cookies it was given, as a player
    keeps the page open from one round to the next."""

    def __init__(self, port: int, page: tuple[str, dict[str, str]], cookie: str) -> None:
        self.port, (self.path, self.poll_headers) = port, page
        self.jar = SimpleCookie(cookie)
        self.tag: str | None = None
        self.first = True

    def browse(self, until: float, tally: Tally) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        latencies: list[float] = []
        errors = not_modified = 0
        while time.monotonic() < until:
            sent = "; ".join(f"{name}={morsel.value}" for name, morsel in self.jar.items())
            headers = {"Cookie": sent} | ({} if self.first else self.poll_headers)
            if self.tag and not self.first:
                headers["If-None-Match"] = self.tag
            began = time.perf_counter()
            try:
                status, etag = _get(self.port, self.path, headers, conn, self.jar)
            except (OSError, http.client.HTTPException):
                errors += 1
                conn.close()
                continue
            latencies.append(time.perf_counter() - began)
            if status == 200:  # the whole page's tag is not the fragment's
                self.tag = etag if not self.first or not self.poll_headers else None
            elif status == 304:
                not_modified += 1
            else:
                errors += 1
            self.first = False
        conn.close()
        with _lock:
            tally.latencies.extend(latencies)
            tally.errors += errors
            tally.not_modified += not_modified


_lock = threading.Lock()


def _whole_page_ms(port: int, path: str, cookie: str, times: int) -> float:
    """The median time of the page asked whole (as on a first visit), one at a time."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    spent = []
    for _ in range(times):
        began = time.perf_counter()
        _get(port, path, {"Cookie": cookie}, conn)
        spent.append(1000 * (time.perf_counter() - began))
    conn.close()
    return statistics.median(spent)


def bench(plan: Plan, campaign: Campaign, port: int, cookies: list[str]) -> Iterator[str]:
    slug = campaign.slug
    htmx = {"HX-Request": "true"}
    pages: dict[str, tuple[str, dict[str, str]]] = {
        "minimal": (MINIMAL_PATH, {}),
        "campaign": (reverse("campaign:campaign", args=[slug]), {}),
        "orders": (reverse("campaign:orders", args=[slug]), htmx),
        "report": (reverse("campaign:report", args=[slug, _report_number(campaign)]), {}),
    }
    for name, (path, _) in pages.items():  # each page answers, before anything is timed
        status, _ = _get(port, path, {"Cookie": cookies[0]})
        if status != 200:
            raise CommandError(f"The {name} page ({path}) answered {status}, not 200.")
    tallies = {name: Tally() for name in PAGES}
    open_pages = {
        name: [Browser(port, pages[name], cookies[i % len(cookies)]) for i in range(plan.browsers)]
        for name in PAGES
    }
    for _ in range(plan.rounds):
        for name in PAGES:
            until = time.monotonic() + plan.seconds
            began = time.perf_counter()
            browsers = [
                threading.Thread(target=browser.browse, args=(until, tallies[name]))
                for browser in open_pages[name]
            ]
            for browser in browsers:
                browser.start()
            for browser in browsers:
                browser.join()
            tallies[name].seconds += time.perf_counter() - began
    yield f"bench: pages_map_{plan.hexes}hex_{plan.kingdoms}k {len(pages)} pages"
    rates = {name: len(t.latencies) / t.seconds for name, t in tallies.items()}
    for name in PAGES:
        tally = tallies[name]
        yield f"bench: pages_{name}_rps {rates[name]:.1f} req/s"
        if name != "minimal":
            yield f"bench: pages_{name}_ratio {rates[name] / rates['minimal']:.2f} x"
        ms = sorted(1000 * s for s in tally.latencies) or [0.0]
        yield f"bench: pages_{name}_p50 {statistics.median(ms):.1f} ms"
        yield f"bench: pages_{name}_p95 {ms[int(0.95 * (len(ms) - 1))]:.1f} ms"
        yield f"bench: pages_{name}_errors {tally.errors} errors"
        share = 100 * tally.not_modified / max(len(tally.latencies), 1)
        yield f"bench: pages_{name}_not_modified {share:.0f} %"
        # What a first visit costs, alone on the server: the whole page, no tag to revalidate.
        whole = _whole_page_ms(port, pages[name][0], cookies[0], plan.whole_pages)
        yield f"bench: pages_{name}_whole_p50 {whole:.1f} ms"
    for name in PAGES[1:]:
        met = rates[name] >= TARGET_RATIO * rates["minimal"] and tallies[name].errors == 0
        yield f"bench: target_pages_{name}_50pct {'met' if met else 'not met'}"
