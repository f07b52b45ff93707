"""alice and bob settle the pitched battle of the `demo-battle` campaign on their phones,
from the home page alone: alice reports a win, bob disputes it, alice withdraws her report
and reports again, bob confirms, the campaign moves on (bob chooses where his beaten army
retreats if it is asked), and both see on the map that bob's army has left the tile. Then
the battle card, printed by Chromium, fits one A4 page."""

import re
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect

from battles.models import Battle
from campaign.models import Campaign, Membership
from campaign.services import common
from campaign.words import names_of
from tests.e2e.conftest import ARTEFACTS, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "demo-battle"
CAMPAIGN = "Demo battle"
DISPUTE = "We called it a draw at the end of turn 12: count the objectives again."
# A page object of a PDF ("/Type /Page"), not the page tree ("/Type /Pages").
PDF_PAGE = re.compile(rb"/Type\s*/Page(?![a-zA-Z])")


def go_home(page: Page) -> None:
    page.get_by_role("link", name="Mighty Kingdoms").click()
    page.get_by_role("heading", name="My campaigns").wait_for()
    my_battles(page)


def my_battles(page: Page) -> Locator:
    """The home page's "My battles", once htmx has loaded it."""
    section = page.get_by_role("region", name="My battles")
    section.wait_for()
    return section


def open_battle(page: Page, against: str) -> None:
    """From the home page, the card of the battle against `against` under My battles, in
    this campaign (another demo has a battle between the same kingdoms)."""
    link = my_battles(page).get_by_role(
        "link", name=re.compile(rf"^Battle (at|in) [^\[\]]+ against {against}$")
    )
    link.and_(page.locator(f'[href^="/c/{SLUG}/"]')).click()
    page.get_by_role("heading", level=1, name=re.compile(r"^Battle (at|in) ")).wait_for()


def reports(page: Page) -> Locator:
    return page.get_by_role("region", name="Reports", exact=True)


def messages(page: Page) -> Locator:
    return page.locator("ul.messages")


def report_win(page: Page, kingdom_name: str) -> None:
    form = page.get_by_role("region", name="Report the result")
    form.get_by_label(f"{kingdom_name} won").check()
    form.get_by_role("button", name="Report", exact=True).click()
    expect(messages(page)).to_contain_text("Your report is in")


def open_campaign(page: Page) -> None:
    """From a battle card, back to the campaign page by the crumbs at its top."""
    page.get_by_role("navigation", name="Where you are").get_by_role(
        "link", name=CAMPAIGN, exact=True
    ).click()
    page.get_by_role("heading", level=1, name=CAMPAIGN, exact=True).wait_for()


def tokens(page: Page, unit: str, hex_: list[int] | None = None) -> Locator:
    """The unit's token on the campaign page's map, in that hex if given."""
    within = f'g.hex-units[data-hex="{hex_[0]},{hex_[1]}"] ' if hex_ else ""
    return page.locator(f'svg.campaign-map {within}g.unit[data-unit="{unit}"]')


def label(hex_: list[int]) -> str:
    return f"[{hex_[0]}, {hex_[1]}]"


def zoom_in_on(page: Page, target: Locator) -> None:
    """Zoom the campaign map in around the target, as Ctrl + wheel (or a pinch) does."""
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.keyboard.down("Control")
    for _ in range(12):
        page.mouse.wheel(0, -100)
    page.keyboard.up("Control")


def newest(campaign: Campaign) -> dict[str, Any]:
    data: dict[str, Any] = common.latest_snapshot(campaign).data
    return data


def test_two_players_report_dispute_report_again_confirm_and_see_the_retreat(
    browser, live_server, demo, screenshot
):
    campaign = Campaign.objects.get(slug=SLUG)
    battle = Battle.objects.get(campaign=campaign, status=Battle.Status.AWAITING)
    tile = list(battle.hex)
    alice_side = Membership.objects.get(campaign=campaign, user__username="alice")
    bob_side = Membership.objects.get(campaign=campaign, user__username="bob")
    assert {alice_side.kingdom, bob_side.kingdom} == set(battle.kingdoms)
    aldermark, brightwater = alice_side.kingdom_name, bob_side.kingdom_name
    bob_armies = next(s["armies"] for s in battle.sides if s["kingdom"] == bob_side.kingdom)
    assert bob_armies, "bob's side of the battle has no army"

    # alice finds her battle on the home page and reports that she won
    alice = sign_in(browser, live_server, "alice")
    expect(my_battles(alice)).to_contain_text("play the game and report the result")
    screenshot(alice, "battle-alice-home")
    open_battle(alice, brightwater)
    expect(alice.locator("p.owed")).to_contain_text("report the result")
    screenshot(alice, "battle-alice-card")
    report_win(alice, aldermark)
    expect(reports(alice)).to_contain_text(f"{aldermark} reported: {aldermark} won")
    expect(alice.get_by_role("button", name="Withdraw my report")).to_be_visible()
    screenshot(alice, "battle-alice-reported")

    # bob is asked to answer it, and disputes it
    bob = sign_in(browser, live_server, "bob")
    expect(my_battles(bob)).to_contain_text("confirm or dispute your opponent's report")
    open_battle(bob, aldermark)
    expect(reports(bob)).to_contain_text(f"{aldermark} reported: {aldermark} won")
    reports(bob).get_by_text("Dispute it…").click()
    reports(bob).get_by_label("Why you dispute it").fill(DISPUTE)
    screenshot(bob, "battle-bob-disputing")
    reports(bob).get_by_role("button", name="Dispute", exact=True).click()
    expect(messages(bob)).to_contain_text("Disputed: the campaign's admin will decide.")
    expect(reports(bob)).to_contain_text(DISPUTE)
    expect(bob.locator("header p.state")).to_contain_text("Disputed: the campaign's admin decides.")
    screenshot(bob, "battle-bob-disputed")

    # alice reads the dispute, withdraws her report and reports again
    go_home(alice)
    screenshot(alice, "battle-alice-home-disputed")
    open_battle(alice, brightwater)
    expect(reports(alice)).to_contain_text(DISPUTE)
    reports(alice).get_by_role("button", name="Withdraw my report").click()
    expect(messages(alice)).to_contain_text("Your report is withdrawn")
    expect(reports(alice).get_by_role("button", name="Withdraw my report")).to_have_count(0)
    report_win(alice, aldermark)
    screenshot(alice, "battle-alice-reported-again")

    # bob, back on the home page, confirms the new report
    go_home(bob)
    expect(my_battles(bob)).to_contain_text("confirm or dispute your opponent's report")
    open_battle(bob, aldermark)
    confirm = reports(bob).get_by_role("button", name="Confirm this result")
    expect(confirm).to_have_count(1)  # the withdrawn report is not answerable
    screenshot(bob, "battle-bob-to-confirm")
    confirm.click()
    expect(messages(bob)).to_contain_text("Confirmed")
    expect(bob.locator("header p.state")).to_contain_text(f"{aldermark} won.")
    screenshot(bob, "battle-bob-confirmed")

    # the campaign moved on: the battle is won by alice's kingdom
    battle.refresh_from_db()
    assert battle.status == Battle.Status.RESOLVED
    assert (battle.result, battle.winner) == ("win", alice_side.kingdom)
    data = newest(campaign)
    entry = next(
        b
        for b in data["battles"]
        if (b["year"], b["month"], b["hex"]) == (battle.year, battle.month, tile)
    )
    assert (entry["status"], entry["result"], entry["winner"]) == (
        "resolved",
        "win",
        alice_side.kingdom,
    )

    # bob's beaten army retreats: where bob says if it may go to more than one tile
    asked = [
        p
        for p in data.get("pending", [])
        if p["kind"] == "retreat" and p["kingdom"] == bob_side.kingdom
    ]
    open_campaign(bob)
    chosen: dict[str, list[int]] = {}
    if asked:
        expect(bob.locator("p.owed")).to_contain_text("choose where to retreat")
        screenshot(bob, "battle-bob-campaign-asked")
        bob.get_by_role("navigation", name="This campaign").get_by_role(
            "link", name="Battles", exact=True
        ).click()
        decisions = bob.get_by_role("region", name="Waiting for your decision")
        for ask in asked:
            named = names_of(data, campaign.gazetteer).unit(ask["unit"])
            group = decisions.get_by_role("group", name=f"Where does {named} retreat?")
            radios = group.get_by_role("radio")
            expect(radios).to_have_count(len(ask["choices"]))  # the page has come
            offered = [radios.nth(i).get_attribute("value") for i in range(radios.count())]
            assert offered == [f"{h[0]},{h[1]}" for h in ask["choices"]]
            radios.last.check()
            chosen[ask["unit"]] = ask["choices"][-1]
        screenshot(bob, "battle-bob-retreat-choice")
        decisions.get_by_role("button", name="Retreat there").click()
        expect(messages(bob)).to_contain_text("Your units retreat where you said.")
        expect(bob.get_by_role("region", name="Waiting for your decision")).to_have_count(0)
        screenshot(bob, "battle-bob-retreated")
        data = newest(campaign)
        assert not [
            p
            for p in data.get("pending", [])
            if p["kind"] == "retreat" and p["kingdom"] == bob_side.kingdom
        ]

    # in the campaign file, bob's armies have left the tile, lying on their side
    armies = {a["id"]: a for a in data["armies"]}
    moved: dict[str, list[int]] = {}
    for unit in bob_armies:
        if unit not in armies:
            continue  # destroyed: nowhere to retreat
        army = armies[unit]
        assert army["hex"] != tile
        assert army["upright"] is False
        if unit in chosen:
            assert army["hex"] == chosen[unit]
        moved[unit] = army["hex"]

    # alice and bob both see it on the campaign's map
    open_campaign(alice)
    if asked:
        bob.get_by_role("link", name=f"← {CAMPAIGN}").click()
        bob.get_by_role("heading", level=1, name=CAMPAIGN, exact=True).wait_for()
    else:
        bob.reload()
    for page, name in ((alice, "alice"), (bob, "bob")):
        for unit in bob_armies:
            expect(tokens(page, unit, tile)).to_have_count(0)
            if unit not in moved:
                expect(tokens(page, unit)).to_have_count(0)
                continue
            token = tokens(page, unit, moved[unit])
            expect(token).to_have_count(1)
            expect(token).to_have_class(re.compile(r"\blying\b"))
            expect(token.locator("title")).to_contain_text("on its side")
        details = page.locator("p.hex-details")
        said = names_of(data, campaign.gazetteer)
        for unit, there in moved.items():  # as on a phone: zoom in on it, tap it, read
            zoom_in_on(page, tokens(page, unit, there))
            tokens(page, unit, there).tap()
            expect(details).to_contain_text(f"{said.place(there)} {label(there)} ")
            expect(details).to_contain_text(f"{said.unit(unit, whose=True)} (on its side")
            screenshot(page, f"battle-map-{name}-{unit}")
        page.locator(f'svg.campaign-map g.hex[data-hex="{tile[0]},{tile[1]}"]').tap(force=True)
        expect(details).to_contain_text(f"{label(tile)} ")
        for unit in bob_armies:
            expect(details).not_to_contain_text(said.unit(unit, whose=True))
        screenshot(page, f"battle-map-{name}-battle-tile")


def test_the_battle_card_prints_on_one_a4_page(browser, live_server, demo, screenshot):
    alice = sign_in(browser, live_server, "alice")
    open_battle(alice, "Brightwater")
    alice.emulate_media(media="print")
    # what the table needs is printed; the forms and the site around the card are not
    for heading in ("Who fights", "The game", "Setting up, step by step"):
        expect(alice.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    expect(alice.get_by_role("heading", name="Report the result")).to_be_hidden()
    expect(alice.locator("header.site-header")).to_be_hidden()
    screenshot(alice, "battle-card-print")
    pdf = alice.pdf(format="A4")
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    (ARTEFACTS / "battle-card.pdf").write_bytes(pdf)
    assert pdf.startswith(b"%PDF")
    pages = len(PDF_PAGE.findall(pdf))
    assert pages == 1, f"the printed battle card takes {pages} A4 pages"
