"""`manage.py bench_first_visits [--quick]`: what a first visit to each page a player opens
costs, under gunicorn, against `/healthz`, side by side in one run (issue 37 point 2).

It makes the demo of `make run` on the configured database (`seed_demo`, run here with
DEBUG on; a demo there already is used as it is, and left), signs in its players (a
session each, as the sign-in form leaves it), and serves the app with gunicorn as
`bench_pages` does (DEBUG off, the configured database and cache; `make bench` runs it on
PostgreSQL and Redis). Then, in rounds, each asking `/healthz` (as a monitor does, with no
session) and every page once in turn, so that the machine's noise hits them all alike, it
asks each page as the player who would open it, as a browser with nothing cached does: a
new connection, no If-None-Match, no cookie but the session, compression accepted as a
browser accepts it (Zstandard among the rest), the page read whole. The server's cache is
warm (every page is asked before the timing starts): a first visitor comes after other
players have seen the month, whose map the server then keeps.

One figure a line, `bench: NAME VALUE UNIT`: the median of `/healthz`
(`first_visit_healthz_ms`), then for each page its median (`first_visit_PAGE_ms`), its ratio
to `/healthz` (`first_visit_PAGE_ratio`) and `bench: target_first_visit_PAGE_2x met` (or
`not met`): at most twice `/healthz` for the campaign map and the orders, three times for
the others (`_3x`). What it made (the demo, its accounts) is deleted at the end, and
gunicorn stopped."""

import http.client
import statistics
import time
from collections.abc import Iterator
from dataclasses import dataclass
from io import StringIO

from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import override_settings
from django.urls import reverse

from accounts.models import User
from campaign.management.commands import bench_pages
from campaign.management.commands.bench_pages import _gunicorn, _session_cookie
from campaign.management.commands.seed_demo import ADMIN, DEMOS, PLAYERS
from campaign.models import Campaign
from campaign.services import common

DEMO_USERS = (ADMIN, *(player for player, _, _ in PLAYERS))
PLAYER = "alice"  # who opens the players' pages (she plays in every demo)
# What a browser with nothing cached sends besides its session (Chromium's and Firefox's
# Accept-Encoding).
BROWSER = {"Accept": "text/html", "Accept-Encoding": "gzip, deflate, br, zstd"}


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    cookie: str  # the session of the player who opens it ("": none, as a monitor asks)
    target: int  # at most this many times /healthz


@dataclass(frozen=True)
class Plan:
    rounds: int  # timed: each page asked once a round
    warm: int  # untimed rounds first, which fill the server's cache and its workers'


FULL = Plan(rounds=40, warm=2)
QUICK = Plan(rounds=1, warm=0)


class Command(bench_pages.Command):
    """bench_pages' command (its database migrated, its key shared with gunicorn), measuring
    first visits to the demo's pages."""

    help = "Measure a first visit to each page a player opens against /healthz under gunicorn."
    quick = "a round only"

    def measure(self, *, quick: bool) -> Iterator[str]:
        plan = QUICK if quick else FULL
        before = set(User.objects.values_list("pk", flat=True))
        made = not Campaign.objects.filter(slug__in=DEMOS).exists()
        try:
            if made:
                _seed_demo()
            pages = demo_pages()
            with _gunicorn() as port:
                yield from first_visits(plan, port, pages)
        finally:
            if made:
                Campaign.objects.filter(slug__in=DEMOS).delete()
                User.objects.filter(username__in=DEMO_USERS).exclude(pk__in=before).delete()


def _seed_demo() -> None:
    """The demo, as `make run` makes it (seed_demo runs only with DEBUG: its accounts have a
    known password; its e-mails stay here)."""
    email = "django.core.mail.backends.locmem.EmailBackend"
    with override_settings(DEBUG=True, EMAIL_BACKEND=email):
        call_command("seed_demo", stdout=StringIO())


def demo_pages() -> list[Page]:
    """`/healthz` and each page a player opens in the demo, as the player who opens it."""
    users = {user.username: user for user in User.objects.filter(username__in=DEMO_USERS)}
    player, admin = _session_cookie(users[PLAYER]), _session_cookie(users[ADMIN])

    def page(name: str, view: str, slug: str, *args: int, target: int = 3, as_: str = "") -> Page:
        return Page(name, reverse(view, args=[slug, *args]), as_ or player, target)

    return [
        Page("healthz", reverse("campaign:healthz"), "", 1),
        page("campaign", "campaign:campaign", "demo", target=2),
        page("orders", "campaign:orders", "demo", target=2),
        page("battle", "battles:card", "demo-battle", _battle_of(users[PLAYER], "demo-battle")),
        page("winter", "campaign:winter", "demo-winter"),
        page("end", "campaign:end", "demo-ended"),
        page("letters", "campaign:letters", "demo"),
        page("kingdom", "campaign:kingdom", "demo"),
        page("chronicle", "campaign:chronicle", "demo"),
        page("dashboard", "campaign:dashboard", "demo", as_=admin),
    ]


def _battle_of(user: User, slug: str) -> int:
    """The number of the newest battle of the user's kingdom in the campaign (the card of
    the battle it is to play, in demo-battle)."""
    campaign = Campaign.objects.get(slug=slug)
    kingdom = common.kingdom_of(campaign, user)
    battles = common.latest_snapshot(campaign).data["battles"]
    fought = [
        n for n, b in enumerate(battles, start=1) if kingdom in (b["attacker"], b["defender"])
    ]
    if not fought:
        raise CommandError(f"{user.username} has no battle in {slug!r}.")
    return fought[-1]


def _first_visit(port: int, page: Page) -> tuple[int, float]:
    """The page's status and the milliseconds it took, from connecting to its last byte."""
    began = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        session = {"Cookie": page.cookie} if page.cookie else {}
        connection.request("GET", page.path, headers=BROWSER | session)
        response = connection.getresponse()
        response.read()
    finally:
        connection.close()
    return response.status, 1000 * (time.perf_counter() - began)


def first_visits(plan: Plan, port: int, pages: list[Page]) -> Iterator[str]:
    """Each page's median time over the rounds, its ratio to /healthz's (the first page),
    and its target met or not."""
    spent: dict[str, list[float]] = {page.name: [] for page in pages}
    for number in range(plan.warm + plan.rounds):
        for page in pages:
            status, ms = _first_visit(port, page)
            if status != 200:
                raise CommandError(f"The {page.name} page ({page.path}) answered {status}.")
            if number >= plan.warm:
                spent[page.name].append(ms)
    floor, *asked = pages
    healthz = statistics.median(spent[floor.name])
    yield f"bench: first_visit_{floor.name}_ms {healthz:.1f} ms"
    for page in asked:
        median = statistics.median(spent[page.name])
        ratio = median / healthz
        yield f"bench: first_visit_{page.name}_ms {median:.1f} ms"
        yield f"bench: first_visit_{page.name}_ratio {ratio:.2f} x"
        met = "met" if ratio <= page.target else "not met"
        yield f"bench: target_first_visit_{page.name}_{page.target}x {met}"
