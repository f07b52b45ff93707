"""Where a web process's time goes, request by request: the load test's hot requests
(loadtest/locustfile.py) driven through Django's test client in this one process, each
kind many times, with the CPU and the queries each costs.

    scripts/with-servers .venv/bin/python loadtest/profile_requests.py [--repeat N]
        [--profile KIND] [--top N] [--only KIND,KIND]

Seeds a few campaigns on the empty database DATABASE_URL names (seed_load, as the load
test does), served as loadtest/run serves them (DEBUG off, sessions read from REDIS_URL),
then asks, as two players of one campaign (one drafting orders, one ready and waiting for
the others): the orders poll (its ETag answered 304, and drawn), the orders status (304 and
drawn), the herald's letters (304), the letters page, a unit tapped, an order given, and
orders marked ready. Prints for each kind the CPU per request (ms) and the queries it
made; `--profile KIND` prints cProfile's busiest functions for that kind."""

import argparse
import cProfile
import gzip
import os
import pstats
import re
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# As loadtest/run serves the app (the test client's host is "testserver").
os.environ.update(
    DEBUG="0", BEHIND_TLS_PROXY="1", TRUSTED_PROXY_COUNT="1", DATABASE_CONN_MAX_AGE="60",
    POST_RATE_LIMIT="off", ANONYMOUS_POST_RATE_LIMIT="off", LOG_LEVEL="WARNING",
    ALLOWED_HOSTS="testserver", SITE_URL="https://testserver",
)  # fmt: skip
os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402
from django.db import connection  # noqa: E402
from django.test import Client  # noqa: E402
from django.urls import reverse  # noqa: E402

from campaign.management.commands.seed_load import players_of, renamed  # noqa: E402
from campaign.models import Campaign  # noqa: E402
from campaign.transfer.exporting import campaign_export  # noqa: E402
from campaign.transfer.importing import campaign_import  # noqa: E402

SEEN = re.compile(r'<input type="hidden" name="seen" value="(\d+)">')
STATUS = re.compile(r'hx-get="(?P<url>[^"]+/orders/status/[^"]*)" hx-trigger="every')
GIVE = re.compile(
    r'<form method="post" action="[^"]+/orders/give/"[^>]*>(?P<body>.*?)</form>', re.S
)
INPUT = re.compile(r'<input type="hidden" name="(?P<name>[^"]+)" value="(?P<value>[^"]*)"')
UNIT = re.compile(r"\?unit=([^\"&]+)\"")
HTMX = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "orders-board"}


def player(session: str) -> Client:
    # As locust's client asks: pages compressed (GZipMiddleware's work is a web process's).
    client = Client(
        enforce_csrf_checks=False, HTTP_X_FORWARDED_PROTO="https", HTTP_ACCEPT_ENCODING="gzip"
    )
    client.cookies["sessionid"] = session
    return client


def get(client: Client, url: str, *, etag: str = "", htmx: bool = True) -> Any:
    headers: dict[str, str] = dict(HTMX) if htmx else {}
    if etag:
        headers["HTTP_IF_NONE_MATCH"] = etag
    return client.get(url, secure=True, **headers)  # type: ignore[arg-type]


def text(response: Any) -> str:
    """A page's text, compressed or not."""
    body: bytes = response.content
    return (gzip.decompress(body) if response.get("Content-Encoding") == "gzip" else body).decode()


def post(client: Client, url: str, fields: dict[str, str]) -> Any:
    return client.post(url, fields, secure=True, **HTMX)  # type: ignore[arg-type]


def measure(name: str, ask: Callable[[], Any], repeat: int, profile: str | None, top: int) -> None:
    """Ask `repeat` times: the CPU per request, the queries of one, and the status."""
    ask()  # warm: the first request of a kind compiles its templates
    queries: list[str] = []

    def count(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        queries.append(sql)  # each request starts by emptying Django's own log of queries
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        answer = ask()
    profiler = cProfile.Profile(time.process_time) if profile == name else None
    if profiler:
        profiler.enable()
    batches = []  # the least of five batches: the machine's other work makes the rest noisy
    for _ in range(5):
        started = time.process_time()
        for _ in range(max(1, repeat // 5)):
            ask()
        batches.append((time.process_time() - started) / max(1, repeat // 5) * 1000)
    if profiler:
        profiler.disable()
    cpu = min(batches)
    print(f"{name:24} {answer.status_code}  {cpu:6.2f} ms CPU  {len(queries):3} queries")
    if profiler:
        profiler.dump_stats(Path(tempfile.gettempdir()) / f"mk-profile-{name}.prof")
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(top)
    if os.environ.get("PROFILE_SQL") and profile == name:
        for query in queries:
            print("   ", query[:300])


def fresh_campaign() -> Campaign:
    """A new copy of the first load campaign, waiting for its first summer orders."""
    number = Campaign.objects.filter(slug__startswith="load-").count() + 1
    export = campaign_export(Campaign.objects.get(slug="load-001"))
    return campaign_import(renamed(export, number), slug=f"load-{number:03d}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=200)
    parser.add_argument("--profile", help="a kind of request to profile (its name below)")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--only", help="the kinds of request to ask, comma-separated (all)")
    options = parser.parse_args()

    call_command("migrate", verbosity=0)
    if not Campaign.objects.filter(slug="load-001").exists():
        out = Path(tempfile.mkdtemp(prefix="mk-profile-")) / "players.jsonl"
        call_command(
            "seed_load", campaigns=2, password=secrets.token_hex(12), out=out
        )  # hex: a dash first would read as an option
    # A campaign of its own each run, so that a database seeded once serves many runs.
    players = players_of(fresh_campaign())
    drafting, waiting = player(players[0]["session"]), player(players[1]["session"])
    slug = players[0]["campaign"]
    orders = reverse("campaign:orders", args=[slug])

    # The waiting player orders every unit and marks them ready.
    board = text(get(waiting, orders))
    for unit in dict.fromkeys(UNIT.findall(board)):
        tapped = text(get(waiting, f"{orders}?unit={unit}"))
        for form in GIVE.finditer(tapped):
            fields = dict(INPUT.findall(form["body"]))
            if fields.get("unit") == unit and fields.get("order") != "move":
                post(waiting, f"{orders}give/", fields)
                break
    seen = SEEN.search(board)
    assert seen is not None
    ready = text(post(waiting, f"{orders}ready/", {"seen": seen[1], "ready": "yes"}))
    status = STATUS.search(ready)
    assert status is not None, "the waiting player's board does not poll its status"
    status_url = status["url"].replace("&amp;", "&")
    waiting.post(
        reverse("campaign:letter_write", args=[slug]),
        {"to": "@herald", "text": "Hear ye!"}, secure=True,
    )  # fmt: skip
    herald = get(waiting, reverse("campaign:letters", args=[slug]), htmx=False)
    herald_url = re.search(r'href="(/c/[^"]+/letters/\d+/)"', text(herald))
    assert herald_url is not None
    get(waiting, herald_url[1], htmx=False)  # the message of the letter sent, shown once

    def tag(client: Client, url: str, htmx: bool = True) -> str:
        return str(get(client, url, htmx=htmx)["ETag"])

    poll_tag = tag(drafting, orders)
    status_tag = tag(waiting, status_url)
    letters_tag = tag(waiting, herald_url[1])
    unit = UNIT.findall(text(get(drafting, orders)))[0]
    tapped = text(get(drafting, f"{orders}?unit={unit}"))
    give = next(
        dict(INPUT.findall(f["body"]))
        for f in GIVE.finditer(tapped)
        if dict(INPUT.findall(f["body"])).get("unit") == unit
    )

    letters = reverse("campaign:letters", args=[slug])
    campaign_page = reverse("campaign:campaign", args=[slug])
    run: list[tuple[str, Callable[[], Any]]] = [
        ("orders_poll_304", lambda: get(drafting, orders, etag=poll_tag)),
        ("orders_poll_200", lambda: get(drafting, orders)),
        ("orders_status_304", lambda: get(waiting, status_url, etag=status_tag)),
        ("orders_status_200", lambda: get(waiting, status_url)),
        ("letters_poll_304", lambda: get(waiting, herald_url[1], etag=letters_tag)),
        ("letters_poll_200", lambda: get(waiting, herald_url[1])),
        ("letters_page_200", lambda: get(waiting, letters, htmx=False)),
        ("orders_page_200", lambda: get(drafting, orders, htmx=False)),
        ("campaign_page_200", lambda: get(drafting, campaign_page, htmx=False)),
        ("orders_unit_200", lambda: get(drafting, f"{orders}?unit={unit}")),
        ("give_order_200", lambda: post(drafting, f"{orders}give/", give)),
        ("healthz_200", lambda: drafting.get("/healthz", secure=True)),
    ]
    print(f"{len(players)} players; {options.repeat} requests of each kind, in this process")
    only = set(options.only.split(",")) if options.only else {name for name, _ in run}
    for name, ask in run:
        if name not in only:
            continue
        measure(name, ask, options.repeat, options.profile, options.top)


if __name__ == "__main__":
    main()
