"""alice plays a winter of `demo-winter` on her phone, from the home page: she reads her
ledger, passes on the tithes, raises an army at her fortress, deploys by tapping a lit
settlement and marks ready; the gm advances; the winter's report and the campaign's
leaderboard show her new army and might. The other kingdoms answer through the services,
as their players would on their own pages."""

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from accounts.models import User
from campaign.display.winter_board import NOTHING
from campaign.models import Campaign
from campaign.rules import decisions
from campaign.services import common, submissions
from campaign.words import names_of
from tests.e2e.conftest import sign_in

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "demo-winter"


def newest(campaign: Campaign) -> dict[str, Any]:
    data: dict[str, Any] = common.latest_snapshot(campaign).data
    return data


def others_answer(campaign: Campaign, *, leave_out: str = "") -> None:
    """Every kingdom but alice's (and `leave_out`'s) gives nothing, or the defaults, and
    marks ready, as on its own winter page."""
    players = {m.kingdom: m.user for m in campaign.memberships.exclude(kingdom="")}
    alice = common.kingdom_of(campaign, User.objects.get(username="alice"))
    for asked in newest(campaign)["pending"]:
        kingdom = asked["kingdom"]
        if kingdom in (alice, leave_out):
            continue
        kind = decisions.ANSWERS[asked["kind"]]
        submissions.submission_save(
            campaign=campaign, user=players[kingdom], kind=kind, payload=NOTHING[kind]
        )
        submissions.submission_set_ready(campaign=campaign, user=players[kingdom])


def press_ready(page: Page) -> None:
    page.get_by_role("button", name="Ready", exact=True).click()
    expect(page.locator("ul.messages")).to_contain_text("Ready")


def test_alice_raises_an_army_deploys_it_and_sees_her_new_might(
    browser, live_server, demo, screenshot
):
    campaign = Campaign.objects.get(slug=SLUG)
    alice_kingdom = common.kingdom_of(campaign, User.objects.get(username="alice"))
    armies_before = sum(1 for a in newest(campaign)["armies"] if a["kingdom"] == alice_kingdom)

    # From the home page to her winter page; she reads the ledger and passes on the tithes
    alice = sign_in(browser, live_server, "alice")
    alice.get_by_role("link", name="Demo winter", exact=True).click()
    alice.get_by_role("link", name="Give your tithes").click()
    expect(alice.get_by_role("heading", name="Tithes")).to_be_visible()
    expect(alice.get_by_role("region", name=re.compile("ledger"))).to_contain_text("Gathered")
    screenshot(alice, "winter-alice-ledger")
    press_ready(alice)
    others_answer(campaign)
    assert newest(campaign)["clock"]["step"] == "build"

    # Her page follows the campaign to the purchases by itself (a reload of her own could
    # be cut short by the page's): she raises an army at her fortress, listed and forecast
    expect(alice.get_by_role("heading", name="Build and recruit")).to_be_visible(timeout=10_000)
    alice.get_by_role("button", name=re.compile(r"^Raise an army at ")).first.click()
    expect(alice.locator("ol.listed")).to_contain_text("Raise an army at")
    expect(alice.locator(".forecast")).to_contain_text("is raised at")
    # the list and forecast changed where she is on the page: no jump to its top
    assert alice.evaluate("window.scrollY") > 0
    screenshot(alice, "winter-alice-purchase")
    press_ready(alice)
    others_answer(campaign)
    while newest(campaign)["clock"]["step"] == "feed":  # another kingdom goes hungry
        others_answer(campaign)
    assert newest(campaign)["clock"]["step"] == "deploy"
    year = newest(campaign)["clock"]["year"]
    recruited = [
        e["army"]
        for e in newest(campaign)["events"]
        if e["type"] == "recruited" and e["kingdom"] == alice_kingdom and e["year"] == year
    ]
    assert len(recruited) == 1

    # Her page follows the campaign to the deployment; she deploys by tapping a lit
    # settlement, then marks ready
    expect(alice.get_by_role("heading", name="Deploy your armies")).to_be_visible(timeout=10_000)
    first = alice.locator("text=/Tap a lit settlement to deploy/").inner_text()
    army = re.search(r"deploy (.+)\.", first)
    assert army is not None
    lit = alice.locator("svg.campaign-map a[hx-post]")
    assert lit.count() >= 1
    lit.first.tap()
    expect(alice.locator("ol.listed")).to_contain_text(f"{army.group(1)} to ")
    screenshot(alice, "winter-alice-deployed")
    press_ready(alice)
    dave_kingdom = common.kingdom_of(campaign, User.objects.get(username="dave"))
    others_answer(campaign, leave_out=dave_kingdom)  # dave has not decided: the gm moves on
    assert newest(campaign)["clock"]["season"] == "winter"

    # The gm advances; alice reads the winter's report and the leaderboard
    gm = sign_in(browser, live_server, "gm")
    gm.goto(f"{live_server.url}/c/{SLUG}/dashboard/")
    gm.get_by_text("Advance now…").click()
    gm.get_by_role("button", name="Yes, advance now").click()
    gm.get_by_text(re.compile(r"^Advanced\. ")).wait_for()
    after = newest(campaign)
    assert (after["clock"]["season"], after["clock"]["month"]) == ("summer", 1)
    armies_now = sum(1 for a in after["armies"] if a["kingdom"] == alice_kingdom)
    assert armies_now == armies_before + 1
    score = next(s for s in after["scores"] if s["kingdom"] == alice_kingdom)

    # Her winter page reloads itself once the advance has landed (it polls every
    # POLL_SECONDS), at any moment now: she reads the campaign page in a tab of its own.
    alice = alice.context.new_page()
    alice.goto(f"{live_server.url}/c/{SLUG}/")
    row = alice.locator(f'.leaderboard tr[data-kingdom="{alice_kingdom}"]')
    expect(row).to_contain_text(str(score["might"]))
    expect(row).to_contain_text(str(armies_now))
    screenshot(alice, "winter-alice-leaderboard")
    alice.get_by_role("link", name=re.compile("What happened in .*winter")).click()
    standings = alice.get_by_role("region", name="Where the kingdoms stand")
    expect(standings).to_contain_text(str(score["might"]))
    report = alice.locator("main").inner_text()
    said = names_of(after, campaign.gazetteer)
    assert f"Aldermark recruited {said.unit(recruited[0], whose=True)} " in report
    assert recruited[0] not in report
    screenshot(alice, "winter-alice-report")
