"""End-to-end tests: Debian's Chromium driven by Playwright (no browser download) against
the app served by pytest-django's live server, on a phone-sized screen. Screenshots are
saved under test-artifacts/e2e/ for people to look at."""

import os
import shutil
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from playwright.sync_api import Browser, Page
from pytest_django import Settings
from pytest_django.live_server_helper import LiveServer

from config.celery import app as celery_app
from tests.conftest import service_missing

ARTEFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "e2e"
PHONE: dict[str, Any] = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
}
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


@pytest.fixture
def demo(settings: Settings, transactional_db: None) -> Iterator[None]:
    """The demo campaign of `make run`, made by `seed_demo` (which runs only with DEBUG)."""
    settings.DEBUG = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    call_command("seed_demo", stdout=StringIO())
    settings.DEBUG = False
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
