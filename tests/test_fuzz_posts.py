"""Every form and every POST endpoint of the project, fed bodies made up by Hypothesis: the
URLs of the permission matrix (tests/test_permissions.py), as each kind of visitor who may
post there and one who may not, with field names from the project's real forms and junk,
values of every sort (unicode, huge, empty, numbers, digits of other scripts, "q,r" hexes,
JSON, the words the app keeps beside kingdom ids), repeated keys,
with and without htmx. Nothing may answer 5xx or raise; a visitor who may not post there
changes nothing that is stored. Every GET URL is also asked with made-up query strings.

The league (tests/battles/conftest.py: alice's and bob's battle), and the same league at
the setup, at a month's orders and at the winter's tithes, are built once for the module in a transaction rolled back at its end, and each example runs in a savepoint
rolled back after it, so examples cost only their request.

The Hypothesis profile (tests/conftest.py) sets the bodies made per POST URL, shared out
between the four kinds of step and each sent by every visitor of the URL, and half as many
query strings per GET URL, each asked by every visitor who may; tests/test_fuzz_files.py
makes 10 times as many files. The "ci" profile of `make test` makes 24 (6 at each step: 42
URLs, about 3,900 bodies sent), the same ones on every run, so CI passes or fails on the
code alone. `make fuzz-long` runs the "long" profile, a nightly-size run (1,500 a URL, about
half an hour) that explores new ones:

    HYPOTHESIS_PROFILE=long .venv/bin/pytest -q tests/test_fuzz_posts.py tests/test_fuzz_files.py
"""

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import urlencode

import pytest
from django import forms
from django.conf import settings as django_settings
from django.core.cache import caches
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django.test import Client, override_settings
from django.test.utils import CaptureQueriesContext
from django.urls import NoReverseMatch, reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from accounts.models import User
from accounts.sessions import SessionStore
from battles.models import (
    ArmyList,
    AttachedList,
    Battle,
    BattlePhoto,
    BattleReport,
    ResultReport,
)
from battles.report_views import HIDING, PHOTO_POST_LIMIT, SIZES
from battles.views import ADMIN_ACTIONS, DECISIONS, PLAYER_ACTIONS
from campaign.models import (
    RESERVED_KINGDOM_IDS,
    AuditEntry,
    Campaign,
    Correspondence,
    Letter,
    Membership,
    Snapshot,
    Submission,
)
from campaign.services import members, setup
from campaign.views.dashboard import ACTIONS as DASHBOARD_ACTIONS
from notifications.views import DESK_ACTIONS
from tests.battles.conftest import KINGDOMS, make_league
from tests.campaign.helpers import at_step, play_until
from tests.conftest import BASE_DIR
from tests.test_permissions import MATRIX, OPEN, ROLES, Door, seated_league

# Asks pytest-django for the test database; each test's own savepoint sits inside the
# module's transaction.
pytestmark = pytest.mark.django_db

POST_EXAMPLES = settings().max_examples  # the profile's (tests/conftest.py), a POST URL's
GET_EXAMPLES = max(POST_EXAMPLES // 2, 10)
# The kinds of step a form is posted at (the leagues fixture), each with its share of a
# URL's examples: every form is posted to at every one, however few the examples.
STEPS = ("battle", "setup", "orders", "winter")

type League = tuple[Campaign, Battle, dict[str, Client]]


# --- what is sent ---------------------------------------------------------------------


def form_fields() -> list[str]:
    """The names of every field of the project's forms and of the templates' inputs."""
    import config.urls  # noqa: F401  (every view module, and so every form class, loaded)

    names: set[str] = set()
    classes: list[type] = [forms.BaseForm]
    while classes:
        cls = classes.pop()
        classes.extend(cls.__subclasses__())
        names.update(getattr(cls, "base_fields", {}))
    for template in (BASE_DIR / "templates").rglob("*.html"):
        names.update(re.findall(r'name="([A-Za-z_][\w-]*)"', template.read_text()))
    return sorted(names)


FIELDS = form_fields()

# The other values of a URL's last arguments: each action the view knows, and junk.
ACTIONS: dict[str, list[str]] = {
    "campaign:dashboard_action": sorted(DASHBOARD_ACTIONS),
    "notifications:desk_action": sorted(DESK_ACTIONS),
    "battles:act": sorted(PLAYER_ACTIONS),
    "battles:admin_act": sorted(ADMIN_ACTIONS),
    "battles:decide": sorted(DECISIONS),
    "battles:battle_report_hide": sorted(HIDING),
    "battles:battle_photo": list(SIZES),
}
WINTER_CHANGES = [
    (kind, action)
    for kind in ("tithes", "purchases", "deploy", "feed")
    for action in ("add", "remove", "up", "set")
]

numbers = st.one_of(
    st.integers(-(10**6), 10**6),
    st.integers(),
    st.sampled_from([10**30, -(10**30), 2**63, 2**31, -1, 0]),
).map(str)
floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(str),
    st.sampled_from(["nan", "NaN", "inf", "-Infinity", "1e309", "1.5", "0x10", "1_000", "١٢"]),
)
# Digits that are not 0 to 9 (issue 34: `int("²")` was a 500, `int("٣")` is 3): alone, in
# numbers, in hexes; every number a form reads is the digits 0 to 9 or refused in words.
ODD_DIGITS = "² ³ ¹ ½ ٣ ١٦٠ ۵ ० ௧ ① Ⅻ 𝟙 １２ 1² -٣".split()  # noqa: RUF001, SIM905 (look-alikes)
unicode_digits = st.one_of(
    st.sampled_from(ODD_DIGITS),
    st.text(st.characters(categories=["Nd", "No", "Nl"]), min_size=1, max_size=6),
    st.tuples(st.sampled_from(["²", "٣", "①"]), st.integers(-5, 5)).map(lambda p: f"{p[0]},{p[1]}"),
)
# The words the app keeps beside kingdom ids (issue 34: a kingdom "Herald"), as a kingdom's
# name, an addressee, a winner, and the herald's own choice.
reserved = st.sampled_from(
    [*sorted(RESERVED_KINGDOM_IDS), "Herald", "HERALD", "Draw", "@herald", "herald2"]
)
hexes = st.tuples(st.integers(-50, 50), st.integers(-50, 50)).map(lambda h: f"{h[0]},{h[1]}")
odd_hexes = st.sampled_from(
    ["", ",", "1,", ",1", "1,2,3", "a,b", " 1 , 2 ", "1;2", "99999999999,0"]
)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
).map(json.dumps)
json_ish = st.sampled_from(
    ['{"recruit": "spearmen"}', '{"recruit": 1}', '{"build": "town"}', "[]", "{}", "{", "null",
     '"x"', "[" * 200, '{"a":' * 50, '{"build": "road"}', '{"build": "road", "to": [0, 0]}',
     '{"build": "road", "hex": [0, 0], "to": [0, 0]}', '{"build": "road", "hex": [0], "to": 1}',
     '{"build": "village", "hex": [0, 0], "to": [1, 0]}', '{"quest": [0, 0], "to": [1, 0]}']
)  # fmt: skip
texts = st.one_of(
    st.text(max_size=40),
    st.text(st.characters(codec="utf-8"), max_size=200),
    st.sampled_from(["", " ", "\x00", "\u202e", "😀" * 30, "<script>", "' OR 1=1 --", "../.."]),
    st.integers(1000, 20_000).map(lambda n: "x" * n),
)
values = st.one_of(
    texts, numbers, unicode_digits, reserved, floats, hexes, odd_hexes, json_values, json_ish
)
keys = st.one_of(st.sampled_from(FIELDS), st.text(max_size=20))
bodies = st.lists(st.tuples(keys, values), max_size=12)


# --- where it is sent -----------------------------------------------------------------


def posters(door: Door) -> list[str]:
    """Who may post there, and one who may not (one turned away rather than sent to sign
    in, if there is one)."""
    allowed = [role for role in ROLES if door.post[role] == OPEN]
    refused = [role for role in ROLES if door.post[role] != OPEN]
    refused.sort(key=lambda role: role == "anonymous")
    return allowed + refused[:1]


POSTED = sorted(name for name, door in MATRIX.items() if any(v == OPEN for v in door.post.values()))
GOTTEN = sorted(name for name, door in MATRIX.items() if any(v == OPEN for v in door.get.values()))


def urls(name: str, campaign: Campaign, battle: Battle) -> st.SearchStrategy[str]:
    """The URL itself, or the same view with other action arguments (each one the view
    knows, or junk), another battle's number, another campaign."""
    args = MATRIX[name].args(campaign, battle)
    choices = [st.just(args)]
    slugs = st.from_regex(r"\A[a-z0-9_-]{1,30}\Z")
    if name in ACTIONS:
        choices.append(st.sampled_from(ACTIONS[name]).map(lambda a: [*args[:-1], a]))
        choices.append(slugs.map(lambda a: [*args[:-1], a]))
    if name == "campaign:winter_change":
        choices.append(st.sampled_from(WINTER_CHANGES).map(lambda ka: [args[0], *ka]))
    if name.startswith("battles:") and len(args) == 3:
        choices.append(st.integers(0, 10**12).map(lambda n: [args[0], n, args[2]]))
    if args and args[0] == campaign.slug:
        choices.append(slugs.map(lambda s: [s, *args[1:]]))

    def build(args: list[Any]) -> str:
        try:
            return reverse(name, args=args)
        except NoReverseMatch:
            return reverse(name, args=MATRIX[name].args(campaign, battle))

    return st.one_of(choices).map(build)


# --- the league, once for the module --------------------------------------------------


@pytest.fixture(scope="module")
def league(django_db_setup: None, django_db_blocker: Any) -> Iterator[League]:
    """The campaign at alice's and bob's battle and a browser for each kind of visitor,
    made in a transaction that is rolled back once the module is done."""
    with django_db_blocker.unblock(), transaction.atomic():
        # The production hasher is slow on purpose (tests/conftest.py's fixture is
        # function-scoped).
        with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
            yield seated_league()
        transaction.set_rollback(True)


@contextmanager
def rolled_back(clients: dict[str, Client]) -> Iterator[None]:
    """One example, in a savepoint rolled back after it, with the browsers' cookies put
    back as they were (signing out or changing a password changes them), and their
    sessions' copies in the cache forgotten: the cache is not rolled back with the database
    (accounts.sessions reads the database again)."""
    cookies = {role: {k: m.value for k, m in c.cookies.items()} for role, c in clients.items()}
    try:
        with transaction.atomic():
            yield
            transaction.set_rollback(True)
    finally:
        for role, client in clients.items():
            client.cookies = SimpleCookie(cookies[role])
        keys = [c["sessionid"] for c in cookies.values() if "sessionid" in c]
        caches[django_settings.SESSION_CACHE_ALIAS].delete_many(
            [SessionStore.cache_key_prefix + key for key in keys]
        )


@pytest.fixture(scope="module")
def leagues(league: League) -> dict[str, Campaign]:
    """The campaign at each kind of step, so that each form is read where it is asked:
    at the battle, at the setup's races, at a summer month's orders and at the winter's
    tithes. Made inside the league's transaction."""
    campaign, _, _ = league
    cast = {user.get_username(): user for user in User.objects.all()}
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        at = {"battle": campaign}
        for state, step in (
            ("setup", None), ("orders", "orders"), ("winter", "tithe"), ("purchases", "build"),
        ):  # fmt: skip
            at[state] = make_league(cast)
            if step is not None:
                play_until(at[state], cast, at_step(step))
        at["roads"] = roads_league(cast)
        return at


def roads_league(cast: dict[str, User]) -> Campaign:
    """The league with option roads on, at its first winter's purchases (the road's form:
    a purchase and its two tiles)."""
    campaign = setup.campaign_create(
        name="Road League", admin=cast["gm"], kingdoms=3, map_name="borderlands",
        options={"roads": True},
    )  # fmt: skip
    for name, kingdom in KINGDOMS.items():
        members.campaign_join(campaign=campaign, user=cast[name], kingdom_name=kingdom)
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
    play_until(campaign, cast, at_step("build"))
    return campaign


# What a visitor who may not post must leave as it is: no row of these tables is written.
KEPT = (
    Campaign, Snapshot, Submission, ResultReport, BattleReport, BattlePhoto, Battle,
    Membership, AuditEntry, Letter, Correspondence, ArmyList, AttachedList,
)  # fmt: skip
WRITES = re.compile(
    r"^\s*(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?P<table>\"[^\"]+\")", re.IGNORECASE
)


@contextmanager
def nothing_kept_is_written(who: str) -> Iterator[None]:
    """The block asks the database to insert, update or delete no row of a table of KEPT
    (what the database was asked, not what it holds after: a write of the same values is
    a write, and reading every table before and after cost a third of this module's time)."""
    kept = {f'"{model._meta.db_table}"' for model in KEPT}
    with CaptureQueriesContext(connection) as asked:
        yield
    written = [
        query["sql"]
        for query in asked.captured_queries
        if (match := WRITES.match(query["sql"])) and match["table"] in kept
    ]
    assert not written, f"{who} changed what is stored: {written[0][:300]}"


def test_the_check_of_what_is_kept_sees_a_write_of_the_same_values(league):
    campaign, _, clients = league
    refused = pytest.raises(AssertionError, match="gm changed what is stored")
    with rolled_back(clients), refused, nothing_kept_is_written("gm"):
        campaign.save()


def answered(response: Any) -> None:
    status = response.status_code
    assert 200 <= status < 500, f"{response.request['PATH_INFO']} answered {status}"


# --- the fuzzing ----------------------------------------------------------------------

# The profile's examples, derandomized or not (tests/conftest.py).
FUZZ = settings(
    deadline=None,
    max_examples=POST_EXAMPLES,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
    ],
    database=None,
)


@pytest.mark.parametrize("step", STEPS)
@pytest.mark.parametrize("name", POSTED)
def test_no_post_body_makes_a_server_error_or_lets_in_who_may_not_post(name, step, league, leagues):
    _, battle, clients = league
    roles = posters(MATRIX[name])
    campaign = leagues[step]

    @settings(FUZZ, max_examples=max(POST_EXAMPLES // len(STEPS), 1))
    @given(url=urls(name, campaign, battle), body=bodies, htmx=st.booleans())
    def post(url, body, htmx):
        # The same body from each visitor, htmx for every other one: a body is cheap to
        # send, dear to make.
        for i, role in enumerate(roles):
            refused = MATRIX[name].post[role] != OPEN
            with rolled_back(clients), nothing_kept_is_written(role) if refused else nullcontext():
                response = clients[role].post(
                    url,
                    urlencode(body),
                    content_type="application/x-www-form-urlencoded",
                    headers={"HX-Request": "true"} if htmx ^ (i % 2 == 1) else {},
                )
                answered(response)

    post()


# Shapes no page sends, each in every field that a form reads as a number, a hex, a choice
# or JSON (issue 26: a purchase nested 20,000 deep, a 5,000-digit integer and a 5,000-digit
# `seen` were server errors on the winter's posts).
HOSTILE = {
    "nested 20,000 deep": "[" * 20_000 + "]" * 20_000,
    "objects nested 2,000 deep": '{"a": ' * 2_000 + "1" + "}" * 2_000,
    "5,000 digits": "9" * 5_000,
    "-5,000 digits": "-" + "9" * 5_000,
    "JSON with 5,000 digits": '{"build": "village", "hex": [' + "9" * 5_000 + ", 0]}",
    "not a number": "abc",
    "a float": "1e309",
}
READ_FIELDS = (
    "seen", "index", "gold", "food", "purchase", "hex", "hours", "army", "unit", "order",
    "ready", "draft", "to", "kingdom", "carry", "raise", "lower", "naval", "next", "at",
    "report", "settlement", "race", "play_time", "code", "member", "points", "army_list",
)  # fmt: skip


def step_of(name: str) -> str:
    """The kind of step at which a URL's form is asked."""
    for step in ("setup", "orders", "winter"):
        if name.startswith(f"campaign:{step}"):
            return step
    return "battle"


@pytest.mark.parametrize("name", POSTED)
def test_no_nested_huge_or_non_numeric_value_makes_a_server_error(name, league, leagues):
    """Every POST endpoint, at the step that asks its form, from the first visitor who may
    post there: each shape in every field a form reads (once with the page's real `seen`, so
    that what comes after the stale-page check is read too). A 4xx, or a page in words;
    never a 5xx. The nested values go only in the fields read as JSON, to stay below
    the size limit."""
    _, battle, clients = league
    campaign = leagues[step_of(name)]
    targets = [(campaign, reverse(name, args=MATRIX[name].args(campaign, battle)))]
    if name == "campaign:winter_change":  # a purchase, read as JSON, at the purchases step
        for bought in (leagues["purchases"], leagues["roads"]):
            targets.append((bought, reverse(name, args=[bought.slug, "purchases", "add"])))
    role = posters(MATRIX[name])[0]
    for at, url in targets:
        newest = Snapshot.objects.filter(campaign=at).order_by("-number").first()
        for shape, value in HOSTILE.items():
            fields = ("purchase", "order", "draft") if "nested" in shape else READ_FIELDS
            body = dict.fromkeys(fields, value)
            for sent in (body, {**body, "seen": str(newest.number if newest else 1)}):
                with rolled_back(clients):
                    answered(clients[role].post(url, sent))


@pytest.mark.parametrize("name", GOTTEN)
def test_no_query_string_makes_a_server_error(name, league, leagues):
    _, battle, clients = league
    door = MATRIX[name]
    roles = [role for role in ROLES if door.get[role] == OPEN]

    @settings(FUZZ, max_examples=GET_EXAMPLES)
    @given(
        url=st.sampled_from([leagues[step] for step in STEPS]).flatmap(
            lambda c: urls(name, c, battle)
        ),
        query=bodies,
        htmx=st.booleans(),
    )
    def get(url, query, htmx):
        # The same query string from every visitor who may read the URL, htmx for every
        # other one.
        for i, role in enumerate(roles):
            with rolled_back(clients):
                response = clients[role].get(
                    f"{url}?{urlencode(query)}",
                    headers={"HX-Request": "true"} if htmx ^ (i % 2 == 1) else {},
                )
                answered(response)

    get()


# --- size limits ----------------------------------------------------------------------

LIMITED = [
    ("accounts:sign_in", "anonymous"),
    ("accounts:sign_up", "anonymous"),
    ("campaign:new", "member"),
    ("campaign:orders_give", "player"),
    ("campaign:winter_ready", "player"),
    ("battles:act", "player"),
    # Its own limit is a photograph's (the last tests here); its fields keep this one.
    ("battles:battle_photo_add", "player"),
    ("campaign:dashboard_action", "admin"),
]


@pytest.mark.parametrize(("name", "role"), LIMITED)
@pytest.mark.parametrize("htmx", [False, True])
def test_a_post_bigger_than_the_limit_is_refused_with_a_400(name, role, htmx, league):
    campaign, battle, clients = league
    url = reverse(name, args=MATRIX[name].args(campaign, battle))
    body = urlencode({"seen": "1", "unit": "x" * django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE})
    with rolled_back(clients), nothing_kept_is_written(role):
        response = clients[role].post(
            url,
            body,
            content_type="application/x-www-form-urlencoded",
            headers={"HX-Request": "true"} if htmx else {},
        )
        assert response.status_code == 400


@pytest.mark.parametrize(("name", "role"), LIMITED)
def test_a_post_with_too_many_fields_is_refused_with_a_400(name, role, league):
    campaign, battle, clients = league
    url = reverse(name, args=MATRIX[name].args(campaign, battle))
    fields = [("unit", str(i)) for i in range(django_settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1)]
    with rolled_back(clients), nothing_kept_is_written(role):
        response = clients[role].post(
            url, urlencode(fields), content_type="application/x-www-form-urlencoded"
        )
        assert response.status_code == 400


def test_an_oversized_post_is_refused_before_the_csrf_check_reads_it(league):
    """In production the CSRF check reads the body first: still a 400, not a 500."""
    browser = Client(enforce_csrf_checks=True)
    browser.get(reverse("accounts:sign_in"))  # the CSRF cookie
    body = "a=" + "x" * django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = browser.post(
        reverse("accounts:sign_in"), body, content_type="application/x-www-form-urlencoded"
    )
    assert response.status_code == 400


def test_a_multipart_post_bigger_than_the_limit_is_refused_with_a_400(league):
    campaign, _, clients = league
    url = reverse("campaign:orders_give", args=[campaign.slug])
    with rolled_back(clients):
        response = clients["player"].post(
            url, {"unit": "x" * django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
        )
        assert response.status_code == 400


def test_a_file_is_taken_only_on_the_photograph_url_and_no_bigger_than_it_takes(league):
    """A battle report's photograph, up to 12 MB, is posted to its own URL, which takes a
    body of up to PHOTO_POST_LIMIT (a 400 page in words past it); every other URL keeps
    its limit, a file in the body included."""
    campaign, battle, clients = league
    photo_url = reverse("battles:battle_photo_add", args=[campaign.slug, battle.number])
    other = reverse("battles:act", args=[campaign.slug, battle.number, "confirm"])
    nearly = SimpleUploadedFile("photo.jpg", b"x" * (PHOTO_POST_LIMIT - 64 * 1024))
    with rolled_back(clients), nothing_kept_is_written("player"):
        # Read by the view, and refused in words: the battle waits for its result.
        assert clients["player"].post(photo_url, {"photo": nearly}).status_code == 302
        nearly.seek(0)
        assert clients["player"].post(other, {"photo": nearly}).status_code == 400
        over = SimpleUploadedFile("photo.jpg", b"x" * PHOTO_POST_LIMIT)
        response = clients["player"].post(photo_url, {"photo": over})
        assert response.status_code == 400
        assert "A photograph may be at most 12 MB." in response.text


def test_the_limits_are_set_for_this_app():
    assert django_settings.DATA_UPLOAD_MAX_MEMORY_SIZE == 256 * 1024
    assert django_settings.DATA_UPLOAD_MAX_NUMBER_FIELDS == 400
    assert django_settings.FILE_UPLOAD_MAX_MEMORY_SIZE == 256 * 1024


# A road's two tiles (option OW9): hexes on the map and off it, next to each other or not,
# the same tile twice, and shapes no form sends.
road_tiles = st.one_of(hexes, odd_hexes, unicode_digits, texts, st.sampled_from(["0,0", "1,0"]))


def test_no_road_posted_makes_a_server_error_and_one_refused_changes_nothing(league, leagues):
    """The winter's road purchase, with option roads on (issue 38): the purchase and its two
    tiles made up (forged: off the map, not adjacent, across water, another kingdom's,
    built or listed already), from two of its players, with and without htmx: a 4xx or a
    page in words, never a 5xx; a post answered with "Nothing was changed." changes no
    kingdom's list."""
    _, _, clients = league
    campaign = leagues["roads"]
    url = reverse("campaign:winter_change", args=[campaign.slug, "purchases", "add"])
    seen = Snapshot.objects.filter(campaign=campaign).order_by("-number").first()
    assert seen is not None

    @settings(FUZZ)
    @given(
        purchase=st.one_of(json_ish, json_values, st.just('{"build": "road"}')),
        ends=st.fixed_dictionaries({}, optional={"hex": road_tiles, "to": road_tiles}),
        htmx=st.booleans(),
        role=st.sampled_from(["player", "member"]),
    )
    def post(purchase, ends, htmx, role):
        with rolled_back(clients):
            before = list(Submission.objects.filter(campaign=campaign).values_list("payload"))
            response = clients[role].post(
                url,
                {"purchase": purchase, **ends, "seen": str(seen.number)},
                headers={"HX-Request": "true"} if htmx else {},
                follow=not htmx,
            )
            answered(response)
            if "Nothing was changed." in response.text:
                after = list(Submission.objects.filter(campaign=campaign).values_list("payload"))
                assert after == before

    post()
