"""The campaign options of part A in the app (issue 27): offered on the new-campaign page,
each with its rules linked; the rules page holds their rules; the campaign page lists those
a campaign has on; a battle card prints each side's limits (OA2) and a siege's works
(OA14, OA15), the same for both players."""

import copy
import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from campaign.gazetteer import Names
from campaign.models import Campaign
from campaign.rules.hexmap import neighbours
from campaign.rules.optional.wizards.artefacts import ARTEFACTS
from campaign.rules.options import OPTION_ROWS
from campaign.services import admin, common
from campaign.words import names_of
from tests.campaign.helpers import (
    at_step,
    hand_off_a_battle,
    kingdom_of,
    new_campaign,
    play_from,
    play_until,
    seen_now,
    signed_in,
)
from tests.campaign.views.test_new_campaign import NEW, choices

pytestmark = pytest.mark.django_db

PART_A = ("army_limits", "wizards", "common_deck", "sieges")
# Every campaign option the new-campaign page offers: parts A, B and C, ten (issue 39).
OFFERED = tuple(name for name, row in OPTION_ROWS.items() if row.switch and row.offered)


def test_the_new_campaign_page_offers_each_option_with_a_link_to_its_rules(client, cast):
    assert len(OFFERED) == 10
    page = signed_in(client, cast["gm"]).get(NEW).text
    for name in OFFERED:
        row = OPTION_ROWS[name]
        assert f'name="{name}"' in page
        assert html.escape(row.words) in page
        assert f'<a href="/rules/#option-{name}">Its rules</a>' in page


def test_a_campaign_is_created_with_the_options_ticked_and_lists_them(client, cast):
    signed_in(client, cast["gm"])
    response = client.post(NEW, choices(army_limits="on", sieges="on"))
    assert response.status_code == 302
    campaign = Campaign.objects.get()
    assert campaign.options["army_limits"] is True
    assert campaign.options["sieges"] is True
    assert "common_deck" not in campaign.options  # an optional rule off is absent (OG1)
    page = client.get(reverse("campaign:campaign", args=[campaign.slug])).text
    assert (
        'Optional rules: <a href="/rules/#option-army_limits">Army limits by terrain</a>, '
        '<a href="/rules/#option-sieges">Siege assaults</a>.'
    ) in page


def test_a_campaign_without_options_lists_none(client, cast):
    campaign = new_campaign(cast)
    page = signed_in(client, cast["alice"]).get(reverse("campaign:campaign", args=[campaign.slug]))
    assert page.status_code == 200
    assert f"<h1>{campaign.name}</h1>" in page.text
    assert '<h2 id="leaderboard-title">Leaderboard</h2>' in page.text
    assert "Optional rules:" not in page.text


def test_the_rules_page_holds_each_options_rules_with_their_anchors(client):
    page = client.get(reverse("campaign:rules")).text
    for name in OFFERED:
        assert f'id="option-{name}"' in page
    for rule in (
        "OA1 Licence.",
        "OA2 Lists.",
        "OA7 Quest roll.",
        "OA9 Placement, secret.",
        "OA15 The works.",
        "OB1 Earning.",
        "OB2 Honours.",
        "OB3 The honours,",
        "OB4 Might.",
        "OB5 Death.",
        "OB6 The heir.",
        "OB7 The army disbanded.",
    ):
        rule_id = rule.split()[0].lower()
        assert f'<li id="ruling-{rule_id}"><strong>{rule}</strong>' in page


def siege_at_the_tabletop(
    campaign: Campaign, cast: dict[str, Any], *, licensed: bool = True
) -> Battle:
    """Blue Dwarfs' army Defends its fortress, Red Elves' army has moved in: the battle is
    handed to the tabletop. With `licensed`, red's army is licensed for monsters, blue's
    for war engines."""
    red: dict[str, Any] = {"licence": ["monsters"]} if licensed else {}
    blue: dict[str, Any] = {"defending": True, **({"licence": ["war_engines"]} if licensed else {})}
    hand_off_a_battle(campaign, cast, held=("blue-dwarfs", "fortress"), red=red, blue=blue)
    return Battle.objects.get(campaign=campaign)


def test_a_siege_card_prints_the_works_and_each_sides_limits_to_both_players(cast):
    campaign = new_campaign(cast, options={name: True for name in PART_A})
    battle = siege_at_the_tabletop(campaign, cast)
    url = reverse("battles:card", args=[campaign.slug, battle.number])
    pages = [
        html.unescape(signed_in(Client(), cast[name]).get(url).text) for name in ("alice", "bob")
    ]
    for page in pages:
        assert "Siege assault" in page
        assert '<h3>Blue Dwarfs <span class="muted">(bob, besieged in its fortress)' in page
        assert '<h3>Red Elves <span class="muted">(alice, assaulting its walls)' in page
        assert (
            "Blue Dwarfs is besieged in its fortress: instead of the defender's benefit it sets "
            "up, wholly in its own half before the first unit deploys, 2 stone towers, 2 stone "
            "walls, a gate in one wall, and 2 objective markers on sections"
        ) in page
        assert "Defender's benefit" not in page
        assert (
            "Its list: Monsters up to 500 points, War Engines up to 0 points, and no Kings of "
            "War magical artefacts"
        ) in page
        assert "Monsters up to 0 points, War Engines up to 500 points" in page
        # OA13: one army on the other side, no losses; OA12: the shared deck's steps
        for enemy in ("Blue Dwarfs", "Red Elves"):
            assert (
                f"Strategy cards: 1 (1 for the army of {enemy}, 0 learned from pitched battles "
                'lost: <a href="/rules/#ruling-oa13"'
            ) in page
        assert "Both players use one Battlefield deck, without the Thunderclouds" in page
        assert "Deal each player 2 Objective cards from the deck" in page


def test_the_same_battle_without_the_options_has_the_defenders_benefit_and_no_limits(cast):
    campaign = new_campaign(cast)
    battle = siege_at_the_tabletop(campaign, cast, licensed=False)
    url = reverse("battles:card", args=[campaign.slug, battle.number])
    page = html.unescape(signed_in(Client(), cast["alice"]).get(url).text)
    assert "Defender's benefit" in page
    assert "Siege assault" not in page
    assert "Its list:" not in page
    assert "Strategy cards: 0" in page
    assert "learned from pitched battles lost" not in page
    assert "one Battlefield deck" not in page


def test_the_kingdom_page_shows_each_armys_licence_to_its_player(cast):
    campaign = new_campaign(cast, options={"army_limits": True})
    siege_at_the_tabletop(campaign, cast)
    url = reverse("campaign:kingdom", args=[campaign.slug])
    page = html.unescape(signed_in(Client(), cast["alice"]).get(url).text)
    assert "option OA1" in page
    assert "<td>Red Elves' 1st army</td>" in page
    assert "<td>Monsters</td>" in page
    without = new_campaign(cast, "Winter League")
    plain = signed_in(Client(), cast["alice"]).get(reverse("campaign:kingdom", args=[without.slug]))
    assert "Licence" not in plain.text


def said(campaign: Campaign) -> Names:
    return names_of(common.latest_snapshot(campaign).data, campaign.gazetteer)


def on(campaign: Campaign, army: str) -> str:
    """Where an artefact on an army is, in words: "on Red Elves' 1st army"."""
    return f"on {said(campaign).unit(army)}"


def holding(campaign: Campaign, cast: dict[str, Any], artefacts: list[Any]) -> None:
    """The gm corrects the newest snapshot so that the campaign's pool is `artefacts`."""
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    data["artefacts"] = artefacts
    admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="artefacts", data=data, what="test"
    )


def test_the_kingdom_page_shows_where_its_artefacts_are_to_its_player_alone(cast):
    """Option wizards (OA9): alice's page lists her artefacts and where each is; bob's
    lists his, never hers; the campaign page shows nobody where they are."""
    campaign = new_campaign(cast, options={"wizards": True})
    holding(campaign, cast, [
        {"name": "Ring of Secrets", "points": 25, "holder": {"kingdom": "red-elves", "army": None}},
        {"name": "Bobs Boots", "points": 30, "holder": {"kingdom": "blue-dwarfs", "army": None}},
    ])  # fmt: skip
    url = reverse("campaign:kingdom", args=[campaign.slug])
    alice = html.unescape(signed_in(Client(), cast["alice"]).get(url).text)
    assert "Ring of Secrets (25 points): at the capital" in alice
    assert "Bobs Boots" not in alice
    bob = html.unescape(signed_in(Client(), cast["bob"]).get(url).text)
    assert "Bobs Boots (30 points): at the capital" in bob
    assert "Ring of Secrets" not in bob


def test_the_card_shows_both_players_the_artefacts_on_the_armies_that_fight(cast):
    """Option wizards (OA9): a battle's card shows each side the artefacts on the other's
    armies in it; one kept at a capital is not shown."""
    campaign = new_campaign(cast, options={"wizards": True})
    artefacts = [
        {"name": "Red Blade", "points": 25, "holder": {"kingdom": "red-elves", "army": "red-elves-1"}},
        {"name": "Home Ring", "points": 20, "holder": {"kingdom": "red-elves", "army": None}},
    ]  # fmt: skip
    hand_off_a_battle(campaign, cast, artefacts=artefacts)
    battle = Battle.objects.get(campaign=campaign)
    url = reverse("battles:card", args=[campaign.slug, battle.number])
    # Public once on a card (app ruling A24): the admin, a member in no side, reads them too.
    for name in ("alice", "bob", "gm"):
        page = html.unescape(signed_in(Client(), cast[name]).get(url).text)
        assert "Magical artefacts on its armies: Red Blade (" in page
        assert "Magical artefacts on its armies: none (" in page  # blue's side
        assert re.search(r"public once on a card, <a [^>]*>ruling A24</a>", page)
        assert "Home Ring" not in page
    assert signed_in(Client(), cast["eve"]).get(url).status_code == 404
    rules = html.unescape(Client().get(reverse("campaign:rules")).text)
    assert "A24 Artefacts on a battle card are public." in rules


def test_a_report_names_the_artefacts_taken_and_the_confirmed_result_moves_them(
    cast, eager_celery, django_capture_on_commit_callbacks
):
    """Option wizards (OA10): alice reports her win and that she took Blue Boots from
    bob's routed units; bob confirms; the artefact is now hers, on her army in the tile.
    A report naming an artefact that was not on bob's side is refused, nothing saved."""
    campaign = new_campaign(cast, options={"wizards": True})
    artefacts = [
        {"name": "Blue Boots", "points": 30, "holder": {"kingdom": "blue-dwarfs", "army": "blue-dwarfs-1"}},
        {"name": "Red Blade", "points": 25, "holder": {"kingdom": "red-elves", "army": "red-elves-1"}},
    ]  # fmt: skip
    hand_off_a_battle(campaign, cast, artefacts=artefacts)
    battle = Battle.objects.get(campaign=campaign)
    card = reverse("battles:card", args=[campaign.slug, battle.number])
    act = reverse("battles:act", args=[campaign.slug, battle.number, "report"])
    seen = common.latest_snapshot(campaign).number
    alice = signed_in(Client(), cast["alice"])
    page = alice.get(card).text
    assert 'name="captured" value="Blue Boots"' in page
    post = {"seen": seen, "outcome": "red-elves", "captured": ["Red Blade"]}
    refused = html.unescape(alice.post(act, post, follow=True).text)
    assert "Nothing was changed." in refused
    assert "Red Blade was not on the beaten side's armies" in refused
    assert not battle.reports.exists()
    alice.post(act, {**post, "captured": ["Blue Boots"]})
    (report,) = battle.reports.all()
    assert report.captured == ["Blue Boots"]
    bob = signed_in(Client(), cast["bob"])
    assert "Magical artefacts taken: Blue Boots" in html.unescape(bob.get(card).text)
    confirm = reverse("battles:act", args=[campaign.slug, battle.number, "confirm"])
    with django_capture_on_commit_callbacks(execute=True):
        bob.post(confirm, {"seen": seen, "report": report.pk})
    holders = {a["name"]: a["holder"] for a in common.latest_snapshot(campaign).data["artefacts"]}
    assert holders["Blue Boots"] == {"kingdom": "red-elves", "army": "red-elves-1"}
    # Issue 35: the card's "What it did" tells the capture
    assert "Red Elves takes Blue Boots from Blue Dwarfs (option OA10)." in html.unescape(
        bob.get(card).text
    )


def test_a_capture_of_ones_own_artefact_is_refused_as_it_is_reported_in_a_later_battle(cast):
    """Issue 35: two battles handed off in one month (B11); on the second's card alice ticks
    her own artefact as taken. It was accepted, and stopped the campaign once the first
    battle's result came in; it is refused when reported, in words, and nothing is kept."""
    campaign = new_campaign(cast, options={"wizards": True})
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    plains = [t["hex"] for t in data["map"]["tiles"] if t["terrain"] == "plains" and not t["river"]]
    first, second = (
        plains[0],
        next(h for h in plains[1:] if tuple(h) not in neighbours(tuple(plains[0]))),
    )
    data.update(
        clock={"year": 1, "season": "summer", "month": 1, "step": "battles"},
        player_order=["red-elves", "blue-dwarfs"],
        tiles=[{"hex": h, "owner": "red-elves", "settlement": None} for h in (first, second)],
        armies=[
            {"id": f"{k}-{n}", "kingdom": k, "hex": h, "upright": True, "ally": None}
            for n, h in ((1, first), (2, second))
            for k in ("red-elves", "blue-dwarfs")
        ],
        artefacts=[
            {"name": "Red Blade", "points": 25, "holder": {"kingdom": "red-elves", "army": "red-elves-2"}},
            {"name": "Blue Boots", "points": 30, "holder": {"kingdom": "blue-dwarfs", "army": "blue-dwarfs-2"}},
        ],
        inputs={"battle_choices": {"red-elves": [first]}},
        pending=[],
    )  # fmt: skip
    play_from(campaign, cast["gm"], data, "two battles")
    assert Battle.objects.filter(campaign=campaign, status="awaiting_result").count() == 2
    later = Battle.objects.get(campaign=campaign, hex=second)
    act = reverse("battles:act", args=[campaign.slug, later.number, "report"])
    seen = common.latest_snapshot(campaign).number
    alice = signed_in(Client(), cast["alice"])
    post = {"seen": seen, "outcome": "red-elves", "captured": ["Red Blade"]}
    refused = html.unescape(alice.post(act, post, follow=True).text)
    assert "Red Blade was not on the beaten side's armies" in refused
    assert not later.reports.exists()
    alice.post(act, {**post, "captured": ["Blue Boots"]})
    assert later.reports.get().captured == ["Blue Boots"]
    # What each result would do is told even while the earlier battle waits (B11)
    card = html.unescape(
        alice.get(reverse("battles:card", args=[campaign.slug, later.number])).text
    )
    assert "Once the battles picked before it are settled (ruling B11), as they leave it:" in card
    assert "It is applied once the battles picked before it are settled" not in card


def test_the_admins_decision_on_the_battle_desk_names_the_artefacts_taken(
    cast, eager_celery, django_capture_on_commit_callbacks
):
    """Option wizards (OA10): the gm records bob's win from the battle desk, ticking Red
    Blade, which was on alice's army; an artefact not on the card is refused in words and
    nothing is saved; the recorded result moves Red Blade to bob's army in the tile."""
    campaign = new_campaign(cast, options={"wizards": True})
    artefacts = [
        {"name": "Red Blade", "points": 25, "holder": {"kingdom": "red-elves", "army": "red-elves-1"}},
        {"name": "Home Ring", "points": 20, "holder": {"kingdom": "red-elves", "army": None}},
    ]  # fmt: skip
    hand_off_a_battle(campaign, cast, artefacts=artefacts)
    battle = Battle.objects.get(campaign=campaign)
    gm = signed_in(Client(), cast["gm"])
    desk = html.unescape(gm.get(reverse("battles:admin", args=[campaign.slug])).text)
    assert 'name="captured" value="Red Blade"' in desk
    assert 'value="Home Ring"' not in desk  # kept at the capital: not in the battle
    decide = reverse("battles:admin_act", args=[campaign.slug, battle.number, "decide"])
    before = common.latest_snapshot(campaign).number
    forged = {"outcome": "blue-dwarfs", "captured": ["Home Ring"], "reason": "disputed"}
    forged |= seen_now(campaign)
    refused = html.unescape(gm.post(decide, forged, follow=True).text)
    assert "Nothing was changed." in refused
    assert common.latest_snapshot(campaign).number == before
    with django_capture_on_commit_callbacks(execute=True):
        gm.post(decide, {**forged, "captured": ["Red Blade"]})
    holders = {a["name"]: a["holder"] for a in common.latest_snapshot(campaign).data["artefacts"]}
    assert holders["Red Blade"] == {"kingdom": "blue-dwarfs", "army": "blue-dwarfs-1"}
    assert holders["Home Ring"] == {"kingdom": "red-elves", "army": None}


def test_the_winter_page_offers_a_quest_at_each_tower_beside_the_kingdom(cast):
    """Option wizards (OA6): at the purchases, alice's page offers a quest to the tower
    next to her tiles, with the die's table; her hero and points go to her list. A post
    with no hero, or points that are no number from 0 to 1000, is refused with words."""
    campaign = new_campaign(cast, options={"wizards": True})
    data = copy.deepcopy(play_until(campaign, cast, at_step("build")))
    red = kingdom_of(campaign, cast["alice"])
    own = {tuple(t["hex"]) for t in data["tiles"] if t["owner"] == red}
    taken = own | {tuple(t["hex"]) for t in data["tiles"]}
    tower = next(
        t["hex"]
        for t in data["map"]["tiles"]
        if tuple(t["hex"]) not in taken
        and t["terrain"] not in ("ocean", "lake", "marsh")
        and any(n in own for n in neighbours(tuple(t["hex"])))
        and not any(a["hex"] == t["hex"] for a in data["armies"])
    )
    data["towers"] = [tower]
    admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="a tower", data=data, what="test"
    )
    alice = signed_in(Client(), cast["alice"])
    url = reverse("campaign:winter", args=[campaign.slug])
    page = html.unescape(alice.get(url).text)
    assert f"Hero sent to the tower {said(campaign).at(tower)}" in page
    assert "1 the hero is lost, 2 hurt, 3 nothing found" in page
    add = reverse("campaign:winter_change", args=[campaign.slug, "purchases", "add"])
    seen = common.latest_snapshot(campaign).number
    purchase = json.dumps({"quest": tower})
    for bad in (
        {"hero": "", "points": "100"},
        {"hero": "Ser Brand", "points": "lots"},
        {"hero": "Ser Brand", "points": "1001"},
        {"hero": "Ser Brand", "points": "²"},
        {"hero": "Ser Brand", "points": "١٦٠"},
    ):  # fmt: skip  (issue 34: ² was a 500)
        response = alice.post(add, {"seen": seen, "purchase": purchase, **bad})
        assert response.status_code == 400
    far = next(
        t["hex"]
        for t in data["map"]["tiles"]
        if not any(n in own for n in neighbours(tuple(t["hex"])))
    )
    refused = alice.post(
        add, {"seen": seen, "purchase": json.dumps({"quest": far}), "hero": "X", "points": "0"},
        follow=True,
    )  # fmt: skip
    assert "a hero goes only to a Wizard's tower beside your lands" in html.unescape(refused.text)
    alice.post(add, {"seen": seen, "purchase": purchase, "hero": " Ser  Brand ", "points": "160"})
    page = html.unescape(alice.get(url).text)
    assert (
        f"Send Ser Brand (160 points) on a quest to the Wizard's tower {said(campaign).at(tower)}"
        in page
    )
    # The forecast tells the quest, never its outcome: that is a die still to be rolled.
    assert "Ser Brand goes on a quest to the Wizard's tower " in page
    assert "a die decides what he finds." in page
    assert not any(name in page for name, _ in ARTEFACTS)


def test_the_winter_page_places_artefacts_at_deployment_seen_by_their_kingdom_alone(cast):
    """Option wizards (OA9): at the deployment alice places the artefact she holds on one
    of her armies; her list says so; bob's and the admin's pages never say where it is."""
    campaign = new_campaign(cast, options={"wizards": True})
    data = play_until(campaign, cast, at_step("deploy"))
    red = kingdom_of(campaign, cast["alice"])
    army = next(a["id"] for a in data["armies"] if a["kingdom"] == red)
    ring = {"kingdom": red, "army": None}
    holding(campaign, cast, [{"name": "Ring of Secrets", "points": 25, "holder": ring}])
    alice = signed_in(Client(), cast["alice"])
    url = reverse("campaign:winter", args=[campaign.slug])
    page = html.unescape(alice.get(url).text)
    assert "Your magical artefacts" in page
    add = reverse("campaign:winter_change", args=[campaign.slug, "deploy", "add"])
    seen = common.latest_snapshot(campaign).number
    alice.post(add, {"seen": seen, "artefact": "Ring of Secrets", "army": army})
    page = html.unescape(alice.get(url).text)
    assert f"Ring of Secrets {on(campaign, army)}" in page
    for other in ("bob", "gm"):  # which kingdom holds it is public, where it is not
        client = signed_in(Client(), cast[other])
        for where in ("campaign:winter", "campaign:campaign"):
            text = client.get(reverse(where, args=[campaign.slug])).text
            assert text.count("Ring of Secrets") == text.count(
                "<li>Ring of Secrets: Red Elves</li>"
            )
            assert on(campaign, army) not in html.unescape(text)


def test_the_winter_page_places_an_artefact_by_tapping_an_army_on_the_map(cast):
    """Option wizards (OA9): once alice's armies are placed, the map lights the tiles where
    her artefact may go; a tap shows the armies there and her capital, a button places it,
    and the forecast says where it will be, to her alone."""
    campaign = new_campaign(cast, options={"wizards": True})
    data = play_until(campaign, cast, at_step("deploy"))
    red = kingdom_of(campaign, cast["alice"])
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == red)
    (army, *_) = armies = [a["id"] for a in data["armies"] if a["kingdom"] == red]
    ring = {"kingdom": red, "army": None}
    holding(campaign, cast, [{"name": "Ring of Secrets", "points": 25, "holder": ring}])
    alice = signed_in(Client(), cast["alice"])
    url = reverse("campaign:winter", args=[campaign.slug])
    add = reverse("campaign:winter_change", args=[campaign.slug, "deploy", "add"])
    seen = common.latest_snapshot(campaign).number
    assert "Once your armies are placed, you may tap the map" in html.unescape(alice.get(url).text)
    for each in armies:
        alice.post(add, {"seen": seen, "army": each, "hex": f"{capital[0]},{capital[1]}"})
    page = html.unescape(alice.get(url).text)
    assert "Tap a lit army or your capital to place Ring of Secrets." in page
    spot = said(campaign).place(capital, picking=True)
    assert f'aria-label="Place an artefact at {spot}: {on(campaign, army)}' in page
    tapped = html.unescape(alice.get(url, {"at": f"{capital[0]},{capital[1]}"}).text)
    assert f"Place Ring of Secrets at {spot}" in tapped
    assert "At your capital" in tapped
    alice.post(add, {"seen": seen, "artefact": "Ring of Secrets", "army": army})
    page = html.unescape(alice.get(url).text)
    assert f"Ring of Secrets {on(campaign, army)}." in page  # the forecast
    assert "Tap a lit army" not in page  # nothing left to place
    bob = signed_in(Client(), cast["bob"]).get(url).text
    assert "Ring of Secrets" not in bob


def test_the_admin_edits_the_artefacts_before_year_1_and_not_after(cast):
    """Option wizards (OA8): during the setup the dashboard lists the forty, and the admin
    may replace them (names once, 5 to 50 points; audited); refusals say why and change
    nothing; from year 1 on the pool is fixed; only an admin may post it."""
    campaign = new_campaign(cast, options={"wizards": True})
    gm = signed_in(Client(), cast["gm"])
    page = gm.get(reverse("campaign:dashboard", args=[campaign.slug])).text
    assert "Blade of Slashing, 5" in page
    url = reverse("campaign:dashboard_action", args=[campaign.slug, "artefacts"])
    before = common.latest_snapshot(campaign).number
    for lines, why in (
        ("Sword, 25\nSword, 30", "Each artefact once: Sword twice."),
        ("Sword, 55", "An artefact is worth 5 to 50 points: not Sword."),
        ("Sword", "Line 1: write the name, a comma, the points."),
        ("Sword, ²", "Line 1: write the name, a comma, the points."),  # issue 34: was a 500
        ("Sword, 25\nShield, ٢٥", "Line 2: write the name, a comma, the points."),
    ):
        response = gm.post(
            url, {**seen_now(campaign), "artefacts": lines, "reason": "house list"}, follow=True
        )
        assert why in html.unescape(response.text)
    assert common.latest_snapshot(campaign).number == before
    bob = signed_in(Client(), cast["bob"])
    assert bob.post(url, {"artefacts": "Sword, 25", "reason": "x"}).status_code == 404
    response = gm.post(
        url,
        {**seen_now(campaign), "artefacts": "Sword, 25\nShield, 10", "reason": "house list"},
        follow=True,
    )
    assert "The campaign's magical artefacts are set: 2, all free." in html.unescape(response.text)
    data = common.latest_snapshot(campaign).data
    assert data["artefacts"] == [
        {"name": "Sword", "points": 25, "holder": None},
        {"name": "Shield", "points": 10, "holder": None},
    ]
    play_until(campaign, cast, at_step("orders"))
    response = gm.post(
        url, {**seen_now(campaign), "artefacts": "Axe, 20", "reason": "late"}, follow=True
    )
    assert "edited before year 1 only" in html.unescape(response.text)


def test_the_artefacts_from_a_page_drawn_before_the_newest_snapshot_are_refused(cast):
    """Issue 35: a second tab's pool, drawn before the races were advanced, changes
    nothing; the dashboard says why and shows the pool as it stands."""
    campaign = new_campaign(cast, options={"wizards": True})
    gm = signed_in(Client(), cast["gm"])
    stale = seen_now(campaign)
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])  # another tab
    url = reverse("campaign:dashboard_action", args=[campaign.slug, "artefacts"])
    before = common.latest_snapshot(campaign)
    response = gm.post(url, {**stale, "artefacts": "Sword, 25", "reason": "x"}, follow=True)
    assert (
        "Nothing was changed. The campaign moved on since this page was drawn: here it is as "
        "it stands now."
    ) in html.unescape(response.text)
    assert "Blade of Slashing, 5" in response.text
    assert common.latest_snapshot(campaign).number == before.number
    assert common.latest_snapshot(campaign).data["artefacts"] == before.data["artefacts"]


@pytest.mark.django_db(transaction=True)
def test_the_admins_artefacts_post_locks_the_campaign_in_a_transaction(cast):
    """Issue 34: the pool's post took the campaign's row lock outside a transaction, which
    PostgreSQL refuses: every post of it was a 500. Not wrapped in the test's own
    transaction, the post runs as it does when served."""
    campaign = new_campaign(cast, options={"wizards": True})
    gm = signed_in(Client(), cast["gm"])
    url = reverse("campaign:dashboard_action", args=[campaign.slug, "artefacts"])
    response = gm.post(
        url, {**seen_now(campaign), "artefacts": "Sword, 25", "reason": "house list"}, follow=True
    )
    assert response.status_code == 200
    assert "The campaign's magical artefacts are set: 1, all free." in html.unescape(response.text)


def test_where_an_artefact_is_never_shows_to_another_player_on_any_page(cast):
    """Option wizards (OA9): everyone sees which kingdom holds an artefact (the campaign
    page's list), only its kingdom sees which army carries it. Bob opens every page of the
    campaign, whole and as htmx fragments: the name appears only in the public list."""
    campaign = new_campaign(cast, options={"wizards": True})
    data = play_until(campaign, cast, at_step("orders"))
    red = kingdom_of(campaign, cast["alice"])
    army = next(a["id"] for a in data["armies"] if a["kingdom"] == red)
    ring = {"kingdom": red, "army": army}
    holding(campaign, cast, [{"name": "Ring of Secrets", "points": 25, "holder": ring}])
    newest = common.latest_snapshot(campaign).number
    slug = campaign.slug
    pages = [
        reverse(name, args=[slug])
        for name in ("campaign:campaign", "campaign:kingdom", "campaign:orders",
                     "campaign:orders_status", "campaign:setup", "battles:list",
                     "campaign:chronicle", "campaign:might")
    ] + [reverse("campaign:report", args=[slug, newest]), reverse("campaign:campaign", args=[slug]) + f"?at={newest}"]  # fmt: skip
    bob = signed_in(Client(), cast["bob"])
    public = "<li>Ring of Secrets: Red Elves</li>"
    for url in pages:
        for headers in ({}, {"HX-Request": "true"}):
            text = bob.get(url, headers=headers).text
            assert text.count("Ring of Secrets") == text.count(public), url
            assert on(campaign, army) not in html.unescape(text), url
    assert public in bob.get(reverse("campaign:campaign", args=[slug])).text
    alice = html.unescape(signed_in(Client(), cast["alice"]).get(pages[1]).text)
    assert f"Ring of Secrets (25 points): {on(campaign, army)}" in alice


def test_at_the_deployment_where_alice_places_an_artefact_shows_to_nobody_else(cast):
    """Option wizards (OA9): while alice places her artefact at the deployment, bob's and
    the admin's pages of the winter (whole and as htmx fragments, the map's SVG within
    them) never say on which army it is, nor does anyone's home page."""
    campaign = new_campaign(cast, options={"wizards": True})
    data = play_until(campaign, cast, at_step("deploy"))
    red = kingdom_of(campaign, cast["alice"])
    army = next(a["id"] for a in data["armies"] if a["kingdom"] == red)
    ring = {"kingdom": red, "army": army}
    holding(campaign, cast, [{"name": "Ring of Secrets", "points": 25, "holder": ring}])
    seen = common.latest_snapshot(campaign).number
    alice = signed_in(Client(), cast["alice"])
    add = reverse("campaign:winter_change", args=[campaign.slug, "deploy", "add"])
    alice.post(add, {"seen": seen, "artefact": "Ring of Secrets", "army": army})
    assert f"Ring of Secrets {on(campaign, army)}" in html.unescape(
        alice.get(reverse("campaign:winter", args=[campaign.slug])).text
    )
    slug = campaign.slug
    pages = [reverse("campaign:home"), reverse("battles:mine")] + [
        reverse(name, args=[slug])
        for name in ("campaign:campaign", "campaign:winter", "campaign:kingdom",
                     "campaign:dashboard", "battles:list", "campaign:chronicle", "campaign:end")
    ]  # fmt: skip
    for name in ("bob", "gm"):
        other = signed_in(Client(), cast[name])
        for url in pages:
            for headers in ({}, {"HX-Request": "true"}):
                response = other.get(url, headers=headers)
                text = html.unescape(response.text)
                assert on(campaign, army) not in text, (name, url)
                assert text.count("Ring of Secrets") == text.count("Ring of Secrets: Red Elves")
