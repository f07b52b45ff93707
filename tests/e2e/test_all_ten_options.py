"""On phones, a campaign played with all ten optional rules (issue 39): the gm creates it
from the home page, every option offered ticked and the marauders' race chosen, and starts
it once alice and bob have joined. The bots play it into its second winter, where a
correction makes alice's ruler die with a disputed heir. Alice, from the home page, orders
two secret honour wishes on her kingdom page, then on her winter page chooses the army her
heir disbands and marks ready; bob is asked nothing, and the winter moves on to the tithes
with her choice carried out.

The players join, the bots play and the death is forced through the services; the gm and
the players click in Chromium."""

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect
from pytest_django import Settings

from accounts.models import User
from campaign.models import Campaign, Submission
from campaign.rules.options import OPTION_ROWS
from campaign.services import admin, advancing, common
from tests.campaign.helpers import kingdom_of, make_cast, play_until
from tests.e2e.conftest import created_with_options, sign_in

pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Ten Rules League"
SWITCHES = [row.name for row in OPTION_ROWS.values() if row.switch and row.offered]


@pytest.fixture
def cast(settings: Settings) -> dict[str, User]:
    """gm, alice and bob; each with the password `demo`."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return make_cast(("gm", "alice", "bob"), password="demo")


def newest(campaign: Campaign) -> dict[str, Any]:
    data: dict[str, Any] = common.latest_snapshot(campaign).data
    return data


def before_the_second_winter(months: int) -> Callable[[dict[str, Any]], bool]:
    """The orders of year 2's last summer month."""

    def reached(data: dict[str, Any]) -> bool:
        now = data["clock"]
        return bool(now == {"year": 2, "season": "summer", "month": months, "step": "orders"})

    return reached


def a_disputed_heir(campaign: Campaign, cast: dict[str, User]) -> tuple[str, list[str]]:
    """The gm corrects the last orders of year 2 to the start of its winter (the recall,
    before the gather): alice's kingdom with two armies at least, all at its capital; the
    dice, the year's event first (3: a quiet year), then in player order each ruler's die,
    alice's 1 (her ruler dies) followed by her heir's 2 (+1 for the capital: 3, disputed),
    the others' 6 (they live), and some to spare for the rest of the winter. Returns her
    kingdom and the armies she is asked to choose among."""
    red = kingdom_of(campaign, cast["alice"])
    data = copy.deepcopy(newest(campaign))
    kingdom = next(k for k in data["kingdoms"] if k["id"] == red)
    capital = kingdom["capital"]
    assert capital is not None, "alice's kingdom lost its capital: another seed is needed"
    kingdom["honour_wishes"] = []
    for marauder in data.get("marauder_armies", []):  # their month's orders, as at a reform
        marauder["order"] = None
    mine = [a for a in data["armies"] if a["kingdom"] == red]
    for army in mine:  # at home, none lost to the recall
        army["hex"] = capital
    taken = {a["id"] for a in data["armies"]}
    number = 9
    while len(mine) < 2:
        while f"{red}-{number}" in taken:
            number += 1
        raised = {"id": f"{red}-{number}", "kingdom": red, "hex": capital, "upright": True}
        raised["ally"] = None
        data["armies"].append(raised)
        taken.add(raised["id"])
        mine.append(raised)
    dice = [3]
    for kingdom_id in data["player_order"]:
        dice += [1, 2] if kingdom_id == red else [6]
    data["dice"] = [*dice, *[4] * 40]
    data["clock"] = {"year": 2, "season": "winter", "month": 0, "step": "recall"}
    data["inputs"], data["pending"] = {}, []
    fixed = admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="a death", data=data, what="test"
    )
    advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=fixed.number)
    after = newest(campaign)
    assert after["clock"]["step"] == "succession", after["clock"]
    (asked,) = [p for p in after["pending"] if p["kind"] == "succession"]
    assert asked["kingdom"] == red
    assert len(asked["armies"]) >= 2
    died = [e for e in after["events"] if e["type"] == "ruler-died" and e["year"] == 2]
    assert [(e["kingdom"], e["heir"]) for e in died] == [(red, "disputed")]
    return red, asked["armies"]


def test_a_campaign_with_all_ten_options_and_alices_disputed_heir(
    browser, live_server, cast, screenshot, eager_tasks
):
    # The gm creates the campaign with every option offered, and starts it
    assert len(SWITCHES) == 10, SWITCHES
    gm = sign_in(browser, live_server, "gm")
    campaign = created_with_options(gm, NAME, SWITCHES, race="Orcs", seed="7")
    assert all(campaign.options[name] is True for name in SWITCHES), campaign.options
    gm.reload()
    gm.get_by_role("button", name="Start the campaign").click()
    expect(gm.locator("ul.messages")).to_contain_text("The campaign has started")

    # The bots play into the second winter; alice's ruler dies there, her heir disputed
    months = int(campaign.options.get("months", OPTION_ROWS["months"].default))
    play_until(campaign, cast, before_the_second_winter(months), limit=300)
    red, armies = a_disputed_heir(campaign, cast)
    default, chosen = armies[-1], armies[0]

    # Alice, from the home page, orders two secret wishes on her kingdom page
    alice = sign_in(browser, live_server, "alice")
    alice.get_by_role("link", name=NAME, exact=True).first.click()
    alice.get_by_role("link", name=re.compile("^My kingdom: ")).click()
    honours = alice.locator("#honours")
    expect(honours).to_contain_text("No wishes yet")
    wishes = honours.locator("ol.wish-list .wish-name")
    added: list[tuple[str, str]] = []  # (id, name) in the order she adds them
    for count in (1, 2):
        offered = honours.get_by_role("button", name=re.compile(r"^\+ ")).first
        added.append((offered.get_attribute("value") or "", offered.inner_text()[2:]))
        offered.click()
        expect(wishes).to_have_count(count)
    expect(alice.locator("ul.messages")).to_contain_text(
        "Your wishes are kept, in this order, and seen by you alone."
    )
    (first, first_name), (second, second_name) = added
    assert first != second
    expect(wishes).to_contain_text([first_name, second_name])
    honours.get_by_role("button", name=f"Wish for {second_name} sooner").click()
    expect(wishes).to_contain_text([second_name, first_name])
    screenshot(alice, "all-ten-options-wishes")
    saved = Submission.objects.get(
        campaign=campaign, kingdom=red, kind="honour_wishes", consumed_by=None
    )
    assert saved.payload == [second, first]

    # Bob, on his phone, finds nothing asked of him while alice's heir is disputed
    bob = sign_in(browser, live_server, "bob")
    bob.get_by_role("link", name=NAME, exact=True).first.click()
    expect(bob.locator("main")).to_contain_text("Nothing is waiting for Blue Dwarfs.")

    # Alice, from the campaign page, goes to the winter's: her ruler has died
    alice.get_by_role("link", name=f"← {NAME}").click()
    expect(alice.locator("main")).to_contain_text("Waiting for Red Elves")
    alice.locator("nav.campaign-nav").get_by_role("link", name="Winter", exact=True).click()
    expect(alice.get_by_role("heading", name="Your ruler has died")).to_be_visible()
    main = alice.locator("main")
    expect(main).to_contain_text("The heir's claim is disputed.")
    expect(main).to_contain_text("your most recently raised, goes")
    expect(alice.locator("input[name=army]")).to_have_count(len(armies))
    expect(alice.locator(f"input[name=army][value='{chosen}']")).not_to_be_checked()
    # She keeps the army the heir would disband by default, and gives up another
    alice.locator(f"input[name=army][value='{chosen}']").check()
    with alice.expect_navigation():
        alice.get_by_role("button", name="Save the choice").click()
    expect(alice.locator(f"input[name=army][value='{chosen}']")).to_be_checked()
    expect(alice.locator(f"input[name=army][value='{default}']")).not_to_be_checked()
    saved = Submission.objects.get(
        campaign=campaign, kingdom=red, kind="succession", consumed_by=None
    )
    assert saved.payload == {"disband": chosen}
    screenshot(alice, "all-ten-options-succession")
    alice.get_by_role("button", name="Ready", exact=True).click()
    expect(alice.locator("ul.messages")).to_contain_text("Ready")

    # Every army owed is chosen: the winter moves on to the tithes, alice's choice carried out
    after = newest(campaign)
    assert after["clock"] == {"year": 2, "season": "winter", "month": 0, "step": "tithe"}
    left = [a["id"] for a in after["armies"] if a["kingdom"] == red]
    assert chosen not in left
    assert default in left
    assert {"kind": "tithes", "kingdom": kingdom_of(campaign, cast["bob"])} in [
        {"kind": p["kind"], "kingdom": p["kingdom"]} for p in after["pending"]
    ]
    bob.reload()
    expect(bob.locator("main")).to_contain_text("Waiting for Blue Dwarfs")
