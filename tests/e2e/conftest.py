"""End-to-end tests: Debian's Chromium driven by Playwright (no browser download) against
the app served by pytest-django's live server, on a phone-sized screen. Screenshots are
saved under test-artifacts/e2e/ for people to look at."""

import fcntl
import os
import re
import shutil
from collections.abc import Callable, Iterable, Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.core import serializers
from django.core.management import call_command
from django.core.management.color import no_style
from django.core.serializers.base import DeserializedObject
from django.db import connection, transaction
from django.db.models import Model
from django.test import override_settings
from playwright.sync_api import Browser, Page, expect
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from campaign.models import Campaign
from campaign.rules.options import OPTION_ROWS
from campaign.services import members
from config.celery import app as celery_app
from tests.conftest import service_missing

ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return os.environ.get("CHROMIUM") or shutil.which("chromium")


POLL_SECONDS = 1  # the pages that wait for other players ask every second, not every 10


@pytest.fixture(autouse=True)
def quick_polls(settings: Settings) -> None:
    settings.POLL_SECONDS = POLL_SECONDS


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium, for one module's tests. Playwright's sync API runs an event loop in this
    thread while it lives, so Django is told that the tests' own database calls, plain
    synchronous ones, are safe; both end with the module, before any other test runs."""
    path = chromium_path()
    if path is None:
        service_missing("Chromium", "no `chromium` is installed (apt install chromium)")
    from playwright.sync_api import sync_playwright

    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_FLAGS)
            yield browser
            browser.close()


@pytest.fixture(autouse=True)
def pages_closed_before_the_flush(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test's phones are put away when it ends, before its database is emptied: the
    browser lives for the module, and a page left open goes on polling (every second
    here) into the next test's setup, when the database is not to be touched, or into
    the flush that empties it. The database's fixture is set up first, so that it is
    torn down after the pages are closed."""
    if "browser" not in request.fixturenames:
        yield
        return
    if "live_server" in request.fixturenames:
        request.getfixturevalue("transactional_db")
    browser: Browser = request.getfixturevalue("browser")
    yield
    for context in browser.contexts:
        context.close()


# What the demo is made of: the rows of these apps (the users, the campaigns and their
# battles); Django's own (content types, permissions) are there after any flush.
DEMO_APPS = ("accounts", "campaign", "battles")


@pytest.fixture(scope="session")
def demo_rows(
    django_db_setup: None, django_db_blocker: Any, tmp_path_factory: pytest.TempPathFactory
) -> str:
    """The demo campaigns of `make run`, made once a run by `seed_demo` (which runs only with
    DEBUG), as the JSON of their rows; the database is emptied again. The first of make
    test's worker processes to need them makes them; the others read what it wrote."""
    run = tmp_path_factory.getbasetemp()  # a worker's is in the run's (pytest-xdist)
    shared = (run.parent if os.environ.get("PYTEST_XDIST_WORKER") else run) / "demo-rows.json"
    with open(shared.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other workers wait here until it is written
        if not shared.exists():
            shared.write_text(_seeded_rows(django_db_blocker))
    return shared.read_text()


def _seeded_rows(django_db_blocker: Any) -> str:
    with django_db_blocker.unblock():
        with override_settings(DEBUG=True, PASSWORD_HASHERS=FAST_HASHERS):
            call_command("seed_demo", stdout=StringIO())
        objects = (
            row
            for app in DEMO_APPS
            for model in apps.get_app_config(app).get_models()
            for row in model._base_manager.order_by("pk")
        )
        rows: str = serializers.serialize("json", objects)
        call_command("flush", interactive=False, verbosity=0)
    return rows


@pytest.fixture
def demo(demo_rows: str, settings: Settings, transactional_db: None) -> Iterator[None]:
    """The demo campaigns of `make run`, loaded from the rows `seed_demo` made (the live
    server's thread sees them: they are committed; the database is emptied after the test)."""
    settings.PASSWORD_HASHERS = FAST_HASHERS
    with transaction.atomic(), connection.constraint_checks_disabled():
        models = _insert(serializers.deserialize("json", demo_rows))
        connection.check_constraints(table_names=sorted(m._meta.db_table for m in models))
        # The rows keep their ids: the next id of each table comes after them, as after
        # loaddata (PostgreSQL's sequences; SQLite needs nothing).
        with connection.cursor() as cursor:
            for statement in connection.ops.sequence_reset_sql(no_style(), list(models)):
                cursor.execute(statement)
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


def _insert(rows: Iterable[DeserializedObject]) -> list[type[Model]]:
    """The rows, a table at a time (one INSERT each, not one a row: a test's demo loads in
    a fifth of the time), in the order they were dumped; their many-to-many links after
    them. The models they are rows of, in that order."""
    tables: dict[type[Model], list[Model]] = {}
    linked = []
    for row in rows:
        tables.setdefault(type(row.object), []).append(row.object)
        if row.m2m_data:
            linked.append(row)
    for model, objects in tables.items():
        model._base_manager.bulk_create(objects)
    for row in linked:
        for field, ids in (row.m2m_data or {}).items():
            getattr(row.object, field).set(ids)
    return list(tables)


@pytest.fixture
def eager_tasks() -> Iterator[None]:
    """The advance a Ready queues runs at once, as the worker would."""
    celery_app.conf.task_always_eager = True
    yield
    celery_app.conf.task_always_eager = False


@pytest.fixture
def screenshot() -> Callable[[Page, str], Path]:
    ARTEFACTS.mkdir(parents=True, exist_ok=True)

    def take(page: Page, name: str) -> Path:
        path = ARTEFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


def sign_in(browser: Browser, live_server: LiveServer, username: str) -> Page:
    """A demo player signed in on a phone of their own, on the home page."""
    page = browser.new_context(**PHONE).new_page()
    page.goto(f"{live_server.url}/accounts/sign-in/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill("demo")
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("heading", name="My campaigns").wait_for()
    return page


def created_with_options(
    gm: Page, name: str, options: Iterable[str], *, race: str, seed: str = ""
) -> Campaign:
    """The gm, from the home page, creates a campaign of two kingdoms on the new-campaign
    page with these `options` ticked and the marauders' `race` chosen (and the dice's
    `seed`, if given), through the preview of its map; the campaign as stored, alice
    (Red Elves) and bob (Blue Dwarfs) joined."""
    gm.get_by_role("link", name="Start a new campaign").click()
    gm.locator("#id_name").fill(name)
    gm.locator("#id_kingdoms").fill("2")
    if seed:
        gm.locator("#id_seed").fill(seed)
    for option in options:
        gm.locator(f"input[name={option}]").check()
    gm.get_by_label(OPTION_ROWS["marauder_race"].label).select_option(race)
    gm.get_by_role("button", name="Create the campaign").click()
    expect(gm.locator("ul.messages")).to_contain_text("Here is the map these choices make")
    gm.get_by_role("button", name="Create the campaign").click()
    expect(gm.get_by_label("Invitation link")).to_have_value(re.compile(r"/join/"))
    campaign = Campaign.objects.get(name=name)
    assert campaign.options["marauder_race"] == race
    users = {u.get_username(): u for u in User.objects.filter(username__in=("alice", "bob"))}
    for player, kingdom in (("alice", "Red Elves"), ("bob", "Blue Dwarfs")):
        members.campaign_join(campaign=campaign, user=users[player], kingdom_name=kingdom)
    return campaign
