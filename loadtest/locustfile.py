"""The load test's players (locust, run by loadtest/run): one locust user per player of the
campaigns seed_load made.

Each signs in, opens its orders page, and polls every LOADTEST_POLL_SECONDS (10) as the
page's htmx does (with the HX-Request header, and If-None-Match once the server gives an
ETag, as the browser's cache would): the board's status while the board waits for others
(which answers with the whole board once the month moves on), else the board itself,
whether or not the page would poll at that moment. When the board asks for its orders, the player,
at a random time within LOADTEST_DECIDE_SECONDS (600) of the month's opening, taps each unit
still without an order and presses one of the order buttons the page offers (the form's
own fields: the unit, the order, `to`, `seen` and the CSRF token), changes one of its
orders, and marks them ready; the campaign advances when all its players are ready (the
Celery worker). A browser polls only the page it shows (static/js/polls-when-shown.js), so
each poll is of one page: the board while it asks for orders; once they are ready, one look
in LOADTEST_READ_ONE_IN (3) is at the campaign's letters instead (issue 28): the herald's
letters, polled with their ETag as their page does, or, while the player knows of none, the
page listing them. One player in LOADTEST_LETTER_ONE_IN (8) writes a letter through the
herald as it marks its orders ready, and is shown it (the answer's redirect), so every
page of its campaign is drawn again.

Every request is timed into LOADTEST_OUT/samples-PID.tsv. Every order is written to
LOADTEST_OUT/acks-PID.jsonl as it is sent, and again as the server acknowledges it (a 2xx
board without a refusal) or refuses it; readiness as it is acknowledged. loadtest/check.py
finds them in the database afterwards. Which player a locust user
plays comes from a counter in Redis (REDIS_URL), so several locust processes share out
LOADTEST_PLAYERS (seed_load's JSON lines) without overlap."""

import json
import os
import random
import re
import time
from html import unescape
from http.cookiejar import Cookie
from pathlib import Path
from typing import Any, TextIO

import redis
from locust import FastHttpUser, events, task
from locust.env import Environment

type Json = dict[str, Any]

POLL = float(os.environ.get("LOADTEST_POLL_SECONDS", "10"))
DECIDE = float(os.environ.get("LOADTEST_DECIDE_SECONDS", "600"))  # a month's orders, within
THINK = (1.0, 3.0)  # seconds between a player's taps
LETTER_ONE_IN = int(os.environ.get("LOADTEST_LETTER_ONE_IN", "8"))  # players writing a letter
READ_ONE_IN = int(os.environ.get("LOADTEST_READ_ONE_IN", "3"))  # waiting looks at the letters
PASSWORD = os.environ.get("LOADTEST_PASSWORD", "")
SIGN_IN = os.environ.get("LOADTEST_SIGN_IN", "") == "1"
OUT = Path(os.environ.get("LOADTEST_OUT", "."))
PLAYERS = [
    json.loads(line)
    for line in Path(os.environ.get("LOADTEST_PLAYERS", "players.jsonl")).read_text().splitlines()
    if line.strip()
]
COUNTER = f"loadtest:{os.environ.get('LOADTEST_RUN', 'run')}:next-player"
# As nginx in front of gunicorn would say: the visitor came over https.
PROXY = {"X-Forwarded-Proto": "https"}

FORM = re.compile(
    r'<form method="post" action="(?P<action>[^"]+)"(?P<attrs>[^>]*)>(?P<body>.*?)</form>', re.S
)
INPUT = re.compile(r'<input type="hidden" name="(?P<name>[^"]+)" value="(?P<value>[^"]*)"')
NOT_YET_ORDERED = re.compile(r"<h3>Not yet ordered</h3>(.*?)</ul>", re.S)
UNIT_LINK = re.compile(r"\?unit=([^\"&]+)\"")
SEEN = re.compile(r'<input type="hidden" name="seen" value="(\d+)">')  # the board's snapshot
STATUS = re.compile(r'hx-get="(?P<url>[^"]+/orders/status/[^"]*)" hx-trigger="every')
REFUSED = 'role="alert"'
HERALD = re.compile(r'<a href="(?P<url>/c/[^"]+/letters/\d+/)">The herald: everyone</a>')

_samples: TextIO | None = None
_acks: TextIO | None = None


@events.init.add_listener
def open_records(environment: Environment, **_: Any) -> None:
    global _samples, _acks
    OUT.mkdir(parents=True, exist_ok=True)
    _samples = (OUT / f"samples-{os.getpid()}.tsv").open("a")
    _acks = (OUT / f"acks-{os.getpid()}.jsonl").open("a")


@events.request.add_listener
def record_sample(
    name: str, response_time: float, response: Any, exception: Any, context: Json, **_: Any
) -> None:
    status = getattr(response, "status_code", 0) or 0
    if _samples is not None:
        _samples.write(
            f"{time.time():.3f}\t{name}\t{response_time:.1f}\t{status}\t{int(bool(exception))}"
            f"\t{context.get('player', '')}\n"
        )


@events.quitting.add_listener
def close_records(**_: Any) -> None:
    for kept in (_samples, _acks):
        if kept is not None:
            kept.flush()
    used = os.times()
    (OUT / f"cpu-locust-{os.getpid()}.txt").write_text(f"{used.user + used.system:.1f}\n")


def record(entry: Json) -> None:
    """An order sent, acknowledged or refused, or a readiness acknowledged."""
    if _acks is not None:
        _acks.write(json.dumps({"t": time.time(), **entry}) + "\n")
        _acks.flush()


def give_forms(board: str) -> list[Json]:
    """The order buttons of the chosen unit: each form's fields, as the page posts them."""
    forms = []
    for form in FORM.finditer(board):
        if form["action"].endswith("/orders/give/"):
            fields = {m["name"]: unescape(m["value"]) for m in INPUT.finditer(form["body"])}
            if "#carry-choice" in form["attrs"]:
                fields["carry"] = ""  # the ship's select, left at "no army"
            forms.append({"action": form["action"], "fields": fields})
    return forms


def ready_form(board: str) -> Json | None:
    for form in FORM.finditer(board):
        if form["action"].endswith("/orders/ready/"):
            fields = {m["name"]: unescape(m["value"]) for m in INPUT.finditer(form["body"])}
            return {"action": form["action"], "fields": fields}
    return None


def not_yet_ordered(board: str) -> list[str]:
    found = NOT_YET_ORDERED.search(board)
    return list(dict.fromkeys(UNIT_LINK.findall(found.group(1)))) if found else []


def as_stored(fields: dict[str, str]) -> Json:
    """The order a give form posts, as the campaign file holds it."""
    order: Json = {"unit": fields["unit"], "order": fields["order"]}
    if fields.get("to"):
        order["to"] = [int(n) for n in fields["to"].split(",")]
    if fields.get("carry"):
        order["carry"] = fields["carry"]
    return order


class Player(FastHttpUser):
    """One player of one kingdom."""

    def wait_time(self) -> float:
        return max(0.0, self.next_poll - time.monotonic())

    def context(self) -> Json:
        player = getattr(self, "player", None)
        return {"player": player["username"] if player else ""}

    def on_start(self) -> None:
        index = int(redis.Redis.from_url(os.environ["REDIS_URL"]).incr(COUNTER)) - 1
        if index >= len(PLAYERS):
            self.stop()  # more locust users than players: nobody left to play
            return
        self.player: Json = PLAYERS[index]
        self.address = f"10.{index // 65536 % 256}.{index // 256 % 256}.{index % 256}"
        self.orders_url = f"/c/{self.player['campaign']}/orders/"
        self.letters_url = f"/c/{self.player['campaign']}/letters/"
        self.herald_url = ""  # the herald's letters, once the player knows of them
        self.board = ""
        self.etags: dict[str, str] = {}  # by URL, as the browser's cache keeps them
        self.month = ""
        self.decide_at = 0.0
        self.sent = 0
        self.unanswered = False  # the last post got no answer (a timeout) or a 5xx
        self.next_poll = time.monotonic()
        self.signed_in = self.resume_session() or self.sign_in()
        if self.signed_in:
            self.board = self.page(self.orders_url, name="orders page")
        self.next_poll = time.monotonic() + random.uniform(0, POLL)

    # --- requests ---------------------------------------------------------------------

    def headers(self, *, htmx: bool, name: str) -> dict[str, str]:
        # The site marks its cookies Secure (it is served over https behind its proxy);
        # this client speaks plain http to gunicorn, as the proxy would, so it sends them.
        for cookie in self.client.cookiejar:
            cookie.secure = False
        origin = f"https://{str(self.host).split('://', 1)[1]}"
        headers = {
            **PROXY,
            "X-Forwarded-For": self.address,
            "Origin": origin,
            "Referer": origin + self.orders_url,
            "X-Loadtest-Request": name,  # the server writes down its CPU by kind (timed_wsgi)
        }
        if htmx:
            headers |= {"HX-Request": "true", "HX-Target": "orders-board"}
            token = self.csrf_token()
            if token:
                headers["X-CSRFToken"] = token
        return headers

    def csrf_token(self) -> str:
        for cookie in self.client.cookiejar:
            if cookie.name == "csrftoken" and cookie.value:
                return cookie.value
        return ""

    def page(self, url: str, *, name: str, htmx: bool = False) -> str:
        headers = self.headers(htmx=htmx, name=name)
        with self.client.get(
            url, headers=headers, name=name, catch_response=True, allow_redirects=False
        ) as response:
            if response.status_code != 200:
                self.failed(response, name)
                return self.board
            return response.text or ""

    def failed(self, response: Any, name: str) -> None:
        """A failed request; a redirect (to the sign-in page) means signed out."""
        response.failure(f"{name}: HTTP {response.status_code}")
        if response.status_code == 302:
            self.signed_in = False

    def post(self, url: str, fields: dict[str, str], *, name: str) -> str | None:
        """The board the server answers with, or None if it refused (a message) or failed."""
        self.unanswered = False
        with self.client.post(
            url, data=fields, headers=self.headers(htmx=True, name=name), name=name,
            catch_response=True, allow_redirects=False,
        ) as response:  # fmt: skip
            if response.status_code != 200:
                self.unanswered = not response.status_code or response.status_code >= 500
                self.failed(response, name)
                return None
            board = response.text or ""
            return None if REFUSED in board else board

    def resume_session(self) -> bool:
        """Players stay signed in between months: the session seed_load made for this one
        (LOADTEST_SIGN_IN=1 signs every player in through the form instead)."""
        if SIGN_IN or not self.player.get("session"):
            return False
        host = str(self.host).split("://", 1)[1].split(":")[0]
        self.client.cookiejar.set_cookie(
            Cookie(
                version=0, name="sessionid", value=self.player["session"], port=None,
                port_specified=False, domain=host, domain_specified=False,
                domain_initial_dot=False, path="/", path_specified=True, secure=False,
                expires=None, discard=True, comment=None, comment_url=None, rest={},
            )
        )  # fmt: skip
        return True

    def sign_in(self) -> bool:
        """Sign in as a person does: the page, then the form. Whether it worked."""
        page = self.page("/accounts/sign-in/", name="sign-in page")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)
        if token is None:
            return False
        fields = {
            "csrfmiddlewaretoken": token.group(1),
            "username": self.player["username"],
            "password": PASSWORD,
        }
        with self.client.post(
            "/accounts/sign-in/", data=fields, headers=self.headers(htmx=False, name="sign in"),
            name="sign in", catch_response=True, allow_redirects=False,
        ) as response:  # fmt: skip
            if response.status_code != 302:
                response.failure(f"sign in: HTTP {response.status_code}, not signed in")
                return False
            return True

    # --- the player -------------------------------------------------------------------

    @task
    def poll_and_play(self) -> None:
        self.next_poll = time.monotonic() + POLL
        if not self.signed_in:  # a failed sign-in is tried again, as a person would
            self.signed_in = self.sign_in()
            return
        self.look()
        seen = SEEN.search(self.board)
        if seen is None or 'name="ready" value="yes"' not in self.board:
            return
        if seen.group(1) != self.month:  # a new month: decide within DECIDE seconds
            self.month = seen.group(1)
            self.decide_at = time.monotonic() + random.uniform(0, DECIDE)
        if time.monotonic() >= self.decide_at:
            self.give_orders()

    def look(self) -> None:
        """The page the player's browser shows polls: the board while it asks for orders;
        once they are ready, the letters one look in READ_ONE_IN, else the board."""
        if STATUS.search(self.board) and random.randrange(READ_ONE_IN) == 0:
            self.read_letters()
        else:
            self.poll()

    def poll(self) -> None:
        """The board's status while it waits for others, else the board."""
        status = STATUS.search(self.board)
        url = unescape(status["url"]) if status else self.orders_url
        name = "orders status" if status else "orders poll"
        answer = self.revalidate(url, name=name, htmx=True)
        if answer is None:
            return
        if status is None or answer.headers.get("HX-Retarget") == "#orders-board":
            self.board = answer.text or ""

    def read_letters(self) -> None:
        """The herald's letters, as their page polls them (304 while nothing changed); while
        the player knows of none, the page listing the campaign's letters (revalidated as
        the browser does), which names the herald's once there are some."""
        if self.herald_url:
            self.revalidate(self.herald_url, name="letters poll", htmx=True)
            return
        listed = self.revalidate(self.letters_url, name="letters page", htmx=False)
        herald = HERALD.search(listed.text or "") if listed is not None else None
        if herald:
            self.herald_url = unescape(herald["url"])

    def revalidate(self, url: str, *, name: str, htmx: bool) -> Any:
        """The page asked with its ETag, as the browser's cache asks: the answer if it was
        drawn (200), None when answered 304 or refused."""
        headers = self.headers(htmx=htmx, name=name)
        if self.etags.get(url):
            headers["If-None-Match"] = self.etags[url]
        with self.client.get(
            url, headers=headers, name=name, catch_response=True, allow_redirects=False
        ) as response:
            if response.status_code == 304:
                response.success()
                return None
            if response.status_code != 200:
                self.failed(response, name)
                return None
            self.etags[url] = response.headers.get("ETag", "") or ""
            return response

    def write_letter(self) -> None:
        """A letter through the herald: sent, the letter's page is the answer's redirect."""
        fields = {"to": "@herald", "text": f"Hear ye! {self.player['username']} has given orders."}
        with self.client.post(
            f"{self.letters_url}write/", data={**fields, "csrfmiddlewaretoken": self.csrf_token()},
            headers=self.headers(htmx=False, name="write letter"), name="write letter", catch_response=True,
            allow_redirects=False,
        ) as response:  # fmt: skip
            if response.status_code != 302:
                self.failed(response, "write letter")
                return
            self.herald_url = response.headers.get("Location", "")
        if self.herald_url:  # the browser follows the redirect: the herald's letters
            self.revalidate(self.herald_url, name="letter page", htmx=False)

    def think(self) -> None:
        time.sleep(random.uniform(*THINK))  # cooperative: locust patches time with gevent

    def give_orders(self) -> None:
        """Order every unit, change one order, mark ready: the page's taps and buttons."""
        seen = SEEN.search(self.board)
        if seen is None:
            return
        given: list[str] = []
        for unit in not_yet_ordered(self.board):
            self.think()
            if self.order_unit(unit, int(seen.group(1))):
                given.append(unit)
        if given:
            self.think()
            self.order_unit(random.choice(given), int(seen.group(1)), name="change order")
        ready = ready_form(self.board)
        if ready is None or ready["fields"].get("ready") != "yes":
            return
        self.think()
        board = self.post(ready["action"], ready["fields"], name="mark ready")
        if board is not None:
            self.board = board
            record({**self.player, "seen": int(ready["fields"]["seen"]), "ready": 1, "ack": 1})
        if random.randrange(LETTER_ONE_IN) == 0:
            self.think()
            self.write_letter()

    def order_unit(self, unit: str, seen: int, *, name: str = "give order") -> bool:
        """Tap the unit, then one of its order buttons (another if the engine refuses)."""
        board = self.page(f"{self.orders_url}?unit={unit}", name="orders unit", htmx=True)
        forms = [f for f in give_forms(board) if f["fields"].get("unit") == unit]
        random.shuffle(forms)
        for form in forms[:3]:
            self.think()
            # Written before it is sent: if no answer comes (a timeout, the end of the run),
            # the server may have kept it all the same.
            self.sent += 1
            given = {**self.player, "seen": int(form["fields"]["seen"]), "seq": self.sent}
            record({**given, "order": as_stored(form["fields"]), "sent": 1})
            answer = self.post(form["action"], form["fields"], name=name)
            if answer is not None:
                self.board = answer
                record({**given, "order": as_stored(form["fields"]), "ack": 1})
                return True
            if not self.unanswered:  # refused in words, or a 4xx: not kept
                record({**given, "refused": 1})
        self.board = board
        return False
