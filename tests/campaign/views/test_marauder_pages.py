"""Option marauders (OW1 to OW8) in the app: a group creates a campaign with them from the
new-campaign page and their race; the admin names the general (a player, bob) before the
start; the horde's battle goes to the tabletop between alice and bob, who reports and
confirms for the horde like a player, is told when it waits for him, and never concedes;
nobody else speaks for the horde; alice's orders page tells the horde's coming moves and
she is warned when a band lands near her lands."""

import copy
import html

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from battles.models import Battle, ResultReport
from battles.services import decisions, desk, results
from campaign.models import Campaign
from campaign.rules.hexmap import distance
from campaign.services import common, setup
from campaign.services.common import ServiceError
from notifications.news import members_of, players_of, warnings_news
from tests.campaign.helpers import (
    at_step,
    dashboard_url,
    new_campaign,
    play_from,
    play_until,
    signed_in,
)
from tests.notifications.notifying import emails_of, with_addresses

pytestmark = pytest.mark.django_db

MARAUDERS = {"marauders": True, "marauder_race": "Orcs"}


def horde_campaign(cast: dict[str, User], general: str = "blue-dwarfs") -> Campaign:
    """alice (Red Elves) and bob (Blue Dwarfs), gm runs it; with marauders of Orcs, whose
    general gm names before the start."""
    campaign = new_campaign(cast, start=False, options=MARAUDERS)
    setup.campaign_marauder_general(campaign=campaign, actor=cast["gm"], general=general)
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
    campaign.refresh_from_db()
    return campaign


def horde_battle(campaign: Campaign, cast: dict[str, User]) -> list[int]:
    """The gm corrects the newest snapshot so that Red's army meets a marauder army on a
    plains tile Red holds at the battles step: the battle goes to the tabletop."""
    play_until(campaign, cast, at_step("orders"))
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    plains: list[int] = next(
        t["hex"] for t in data["map"]["tiles"] if t["terrain"] == "plains" and not t["river"]
    )
    data.update(
        clock={"year": 1, "season": "summer", "month": 1, "step": "battles"},
        player_order=["red-elves", "blue-dwarfs"],
        tiles=[{"hex": plains, "owner": "red-elves", "settlement": None}],
        armies=[{"id": "red-elves-1", "kingdom": "red-elves", "hex": plains, "upright": True}],
        marauder_armies=[{"id": "m-1", "hex": plains, "upright": True, "order": {"order": "hold"}}],
        marauders_arrived=1,
        pending=[],
    )
    for kingdom in data["kingdoms"]:
        kingdom["capital"] = None
    snapshot = play_from(campaign, cast["gm"], data, "marauders at the gates")
    assert snapshot is not None
    assert snapshot.data["pending"][-1] == {
        "kind": "battle_result",
        "kingdom": "marauders",
        "hex": plains,
        "general": "blue-dwarfs",
    }
    return plains


def page(client: Client, user: User, url: str) -> str:
    return html.unescape(signed_in(client, user).get(url).text)


def test_the_new_campaign_form_offers_the_marauders_and_their_race(client, cast):
    form = page(client, cast["gm"], reverse("campaign:new"))
    assert 'name="marauders"' in form
    assert 'name="marauder_race"' in form
    assert "Orcs" in form

    campaign = new_campaign(cast, start=False, options=MARAUDERS)
    assert campaign.options["marauder_race"] == "Orcs"
    assert campaign.options["marauder_general"] == "admin"  # until the admin names a player
    plain = new_campaign(cast, "Plain League", start=False, options={"marauder_race": "Orcs"})
    assert "marauder_race" not in plain.options  # a setting of a rule that is off (OG1)


def test_the_admin_names_a_player_general_before_the_start_and_only_then(client, cast):
    campaign = new_campaign(cast, start=False, options=MARAUDERS)
    board = page(client, cast["gm"], dashboard_url(campaign))
    assert "The marauders' general" in board

    signed_in(client, cast["gm"]).post(
        reverse("campaign:dashboard_action", args=[campaign.slug, "general"]),
        {"general": "blue-dwarfs"},
    )
    campaign.refresh_from_db()
    assert campaign.options["marauder_general"] == "blue-dwarfs"

    refused = signed_in(Client(), cast["alice"]).post(
        reverse("campaign:dashboard_action", args=[campaign.slug, "general"]),
        {"general": "red-elves"},
    )
    assert refused.status_code in (403, 404)
    with pytest.raises(ServiceError, match="the admin or a player"):
        setup.campaign_marauder_general(campaign=campaign, actor=cast["gm"], general="evermore")
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
    with pytest.raises(ServiceError, match="before the campaign starts"):
        setup.campaign_marauder_general(campaign=campaign, actor=cast["gm"], general="admin")
    campaign.refresh_from_db()
    assert campaign.options["marauder_general"] == "blue-dwarfs"


def test_the_general_reports_for_the_horde_and_the_kingdom_confirms(
    client, cast, eager_celery, django_capture_on_commit_callbacks
):
    campaign = horde_campaign(with_addresses(cast))
    plains = horde_battle(campaign, cast)
    battle = Battle.objects.get(campaign=campaign)
    assert battle.kingdoms == ("red-elves", "marauders")
    told = emails_of(campaign, "battle")
    assert set(told) == {"alice", "bob"}  # bob, the general, is told the battle waits for him
    assert "against the marauding Orcs" not in told["bob"].subject
    assert "Red Elves" in told["bob"].subject

    mine = page(client, cast["bob"], reverse("battles:list", args=[campaign.slug]) + "?show=mine")
    assert "against the marauding Orcs" in mine
    card = page(Client(), cast["bob"], reverse("battles:card", args=[campaign.slug, battle.number]))
    assert "Concede the field" not in card
    assert "The marauders never concede" in card
    assert "Defence 4" in card

    with pytest.raises(ServiceError, match="never concede"):
        decisions.battle_concede(battle=battle, user=cast["bob"])
    with pytest.raises(ServiceError, match="two players"):
        results.battle_report(battle=battle, user=cast["gm"], result="win", winner="marauders")

    report = results.battle_report(
        battle=battle, user=cast["bob"], result="win", winner="marauders"
    )
    assert report.kingdom == "marauders"
    with django_capture_on_commit_callbacks(execute=True):
        results.battle_confirm(report=report, user=cast["alice"])
    assert ResultReport.objects.get(pk=report.pk).status == ResultReport.Status.CONFIRMED

    data = common.latest_snapshot(campaign).data
    fought = next(b for b in data["battles"] if b["hex"] == plains)
    assert fought["winner"] == "marauders"
    assert fought["status"] == "resolved"


def test_alice_cannot_report_for_the_horde_nor_carol_who_is_not_in_the_battle(client, cast):
    campaign = horde_campaign(cast)
    horde_battle(campaign, cast)
    battle = Battle.objects.get(campaign=campaign)

    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="red-elves"
    )
    assert report.kingdom == "red-elves"  # her own side, never the horde's
    with pytest.raises(ServiceError, match="two players"):
        results.battle_confirm(report=report, user=cast["eve"])


def test_alices_orders_page_tells_the_hordes_coming_moves(client, cast):
    campaign = horde_campaign(cast)
    data = play_until(campaign, cast, at_step("orders"))
    data = copy.deepcopy(data)
    village = next(t for t in data["tiles"] if t["settlement"] == "village")
    near = next(
        t["hex"]
        for t in data["map"]["tiles"]
        if t["terrain"] == "plains" and 1 < distance(tuple(t["hex"]), tuple(village["hex"])) <= 3
    )
    data["clock"]["step"] = "reform"
    data["marauder_armies"] = [{"id": "m-1", "hex": near, "upright": True, "order": None}]
    data["marauders_arrived"] = 1
    data["pending"] = []
    play_from(campaign, cast["gm"], data, "a band near Red")

    orders = page(client, cast["alice"], reverse("campaign:orders", args=[campaign.slug]))

    assert "Also on the move this month" in orders
    assert "1 marauder army of Orcs" in orders
    assert "the nearest settlement" in orders
    assert "The marauders move after every kingdom's orders" in orders


def test_a_kingdom_is_warned_when_a_band_lands_near_its_settlements(cast):
    """A band that arrived at this month's opening within three tiles of Red's settlements
    and further from Blue's: alice is warned, with what it will do; bob is not."""
    campaign = horde_campaign(cast)
    data = copy.deepcopy(play_until(campaign, cast, at_step("orders")))
    owned = {(t["hex"][0], t["hex"][1]): t["owner"] for t in data["tiles"] if t["settlement"]}
    land = [t["hex"] for t in data["map"]["tiles"] if t["terrain"] == "plains"]

    def nearest(h: list[int], kingdom: str) -> int:
        return min(distance((h[0], h[1]), s) for s, k in owned.items() if k == kingdom)

    near = next(h for h in land if nearest(h, "red-elves") <= 2 and nearest(h, "blue-dwarfs") > 6)
    clock = data["clock"]
    data["events"].append(
        {**clock, "type": "marauders-arrived", "armies": ["m-1"], "hex": near, "dice": [6]}
    )
    data["marauder_armies"] = [{"id": "m-1", "hex": near, "upright": True, "order": None}]
    members = members_of(campaign)

    news = warnings_news(campaign, "warned", data, players_of(members, {}))

    assert news is not None
    assert [letter.user for letter in news.letters] == [cast["alice"]]
    assert "A band of 1 marauder army of Orcs arrived" in news.letters[0].body
    assert "within 3 steps of your settlements" in news.letters[0].body
    assert "Red Elves: A band of 1 marauder army of Orcs arrived" in news.post


def test_the_admin_settles_a_battle_against_the_horde_as_a_simple_battle(
    cast, eager_celery, django_capture_on_commit_callbacks
):
    """From the desk (B6): the dice decide it, Defence 4 on both sides; it is resolved."""
    campaign = horde_campaign(cast)
    plains = horde_battle(campaign, cast)
    battle = Battle.objects.get(campaign=campaign)

    with django_capture_on_commit_callbacks(execute=True):
        desk.battle_resolve_simply(battle=battle, actor=cast["gm"])

    data = common.latest_snapshot(campaign).data
    fought = next(b for b in data["battles"] if b["hex"] == plains)
    assert (fought["kind"], fought["status"]) == ("simple", "resolved")
