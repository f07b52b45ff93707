"""`manage.py seed_demo`: the demo campaign `make run` serves, played by bots through the
services until a pitched battle has been fought at the tabletop and every kingdom is asked
for its next orders."""

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from io import StringIO
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.db import transaction
from django.http import HttpRequest
from django.test import override_settings
from django.urls import reverse

from accounts.models import User
from battles.models import BattlePhoto
from campaign.management.commands.seed_demo import OPTIONS_IN_DEMO
from campaign.models import Campaign, Membership, Snapshot
from campaign.services import common
from notifications.models import Notification

# Each test's own savepoint sits inside the module's transaction, in which the demo is made.
pytestmark = pytest.mark.django_db

USERNAMES = ["gm", "alice", "bob", "carol", "dave"]
DEVELOPMENT = {
    "DEBUG": True,  # the demo is for development
    "PASSWORD_HASHERS": ["django.contrib.auth.hashers.MD5PasswordHasher"],  # quick, for tests
}


@dataclass(frozen=True)
class Seeded:
    """What `seed_demo` printed, and the e-mails it sent."""

    out: str
    mails: list[mail.EmailMessage]


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: Any) -> Iterator[Seeded]:
    """The demo, made once for the module by `seed_demo` on an empty database, in a
    transaction rolled back once the module is done: each test's changes are rolled back
    with its own savepoint."""
    with django_db_blocker.unblock(), transaction.atomic():
        with override_settings(**DEVELOPMENT):
            mail.outbox = []
            seeded = Seeded(seed(), list(mail.outbox))
        yield seeded
        transaction.set_rollback(True)


@pytest.fixture(autouse=True)
def development(settings):
    """The demo is for development: DEBUG on; a quick hasher keeps the tests fast."""
    settings.DEBUG = True
    settings.PASSWORD_HASHERS = DEVELOPMENT["PASSWORD_HASHERS"]


def seed(*args: str) -> str:
    out = StringIO()
    call_command("seed_demo", *args, stdout=out)
    return out.getvalue()


def counts() -> dict[str, int]:
    return {
        model.__name__: model.objects.count() for model in (User, Campaign, Membership, Snapshot)
    }


def test_it_makes_the_users_and_a_running_campaign_that_has_fought_a_battle_and_waits_for_orders(
    demo,
):
    campaign = Campaign.objects.get(slug="demo")
    assert campaign.status == Campaign.Status.RUNNING
    assert (campaign.map_name, campaign.kingdoms) == ("river-kingdoms", 4)
    players = {m.user.username: m.kingdom for m in campaign.memberships.exclude(kingdom="")}
    assert sorted(players) == ["alice", "bob", "carol", "dave"]
    assert common.is_admin(campaign, User.objects.get(username="gm"))
    data = common.latest_snapshot(campaign).data
    assert data["clock"]["season"] == "summer"
    assert data["clock"]["step"] == "orders"
    asked = {(p["kind"], p["kingdom"]) for p in data["pending"]}
    assert asked == {("orders", kingdom) for kingdom in players.values()}
    handed_off = [s.data for s in campaign.snapshots.all() if s.data["clock"]["step"] == "battles"]
    (battle,) = [b for b in handed_off[0]["battles"] if b["status"] == "awaiting_result"]
    assert battle["kind"] == "pitched"
    assert {battle["attacker"], battle["defender"]} <= set(players.values())
    assert "went to the tabletop and its result is in" in demo.out
    assert "Now the campaign waits for the orders of alice, bob, carol, dave." in demo.out


def test_the_bots_steps_tell_nobody(demo):
    """Seeding writes no notification, so the first `make run` prints no e-mail."""
    assert not Notification.objects.exists()
    assert demo.mails == []


def test_everyone_logs_in_with_the_password_demo(demo, client):
    for username in USERNAMES:
        # django-axes throttles sign-ins by address, so it needs a request to count them.
        assert client.login(request=HttpRequest(), username=username, password="demo"), username
        client.logout()


def test_gm_is_a_superuser_who_sees_the_demo_in_the_django_admin(demo, client):
    assert User.objects.filter(username="gm", is_staff=True, is_superuser=True).exists()
    assert not User.objects.filter(is_staff=True).exclude(username="gm").exists()
    client.post(reverse("admin:login"), {"username": "gm", "password": "demo"})
    first = Snapshot.objects.get(campaign__slug="demo", number=1)
    page = client.get(reverse("admin:campaign_snapshot_change", args=[first.pk]))
    assert page.status_code == 200
    assert "Demo #1 (setup races)" in page.text


def test_running_it_again_changes_nothing(demo):
    before = counts()

    out = seed()

    assert "exists already" in out
    assert counts() == before


def test_reset_makes_the_same_demo_again(demo):
    first = Campaign.objects.get(slug="demo")
    first_data = common.latest_snapshot(first).data

    seed("--reset")

    again = Campaign.objects.get(slug="demo")
    assert again.pk != first.pk
    assert not Campaign.objects.filter(pk=first.pk).exists()
    assert common.latest_snapshot(again).data == first_data
    assert User.objects.count() == len(USERNAMES)


def test_it_makes_nothing_without_debug(settings):
    """Whether or not this module's demo is made yet, nothing is written."""
    settings.DEBUG = False
    before = counts()
    err = StringIO()
    call_command("seed_demo", stderr=err)
    assert "DEBUG" in err.getvalue()
    assert counts() == before


def test_demo_has_a_herald_post_and_a_private_pact_between_alice_and_bob(demo, client):
    """Issue 28: every member reads the herald's proclamation; alice and bob's pact is
    theirs alone, and bob's answer waits unread for alice, with the proclamation."""
    campaign = Campaign.objects.get(slug="demo")
    herald = campaign.correspondences.get(key="herald")
    pact = campaign.correspondences.exclude(key="herald").get()
    herald_url = reverse("campaign:correspondence", args=[campaign.slug, herald.pk])
    pact_url = reverse("campaign:correspondence", args=[campaign.slug, pact.pk])
    client.force_login(User.objects.get(username="alice"))
    assert "2 unread letters" in client.get(reverse("campaign:home")).text  # herald's, bob's
    assert "we march together" in client.get(pact_url).text
    for name in ("dave", "gm"):
        client.force_login(User.objects.get(username=name))
        assert "Carrowmoor holds a tourney" in client.get(herald_url).text
        assert client.get(pact_url).status_code == 404


def test_demo_s_battle_has_its_winners_report_with_a_photograph(demo, client):
    """Issue 28: the battle fought at the tabletop in `demo` has its winner's report, with
    a photograph of the table (a JPEG the project draws), shown on its card and linked
    from the chronicle; `demo-ended`'s chronicle links its battles' reports."""
    campaign = Campaign.objects.get(slug="demo")
    client.force_login(User.objects.get(username="carol"))
    card = html.unescape(client.get(reverse("battles:card", args=[campaign.slug, 1])).text)
    assert "held the centre with its infantry" in card
    (picture_row,) = BattlePhoto.objects.filter(report__battle__campaign=campaign)
    photo = reverse("battles:battle_photo", args=[campaign.slug, 1, picture_row.pk, "large"])
    assert photo in card
    picture = client.get(photo)
    assert picture["Content-Type"] == "image/jpeg"
    assert b"".join(picture.streaming_content if picture.streaming else [picture.content])[:3] == (
        b"\xff\xd8\xff"
    )
    chronicle = client.get(reverse("campaign:chronicle", args=[campaign.slug])).text
    assert "report</a>" in chronicle
    ended = Campaign.objects.get(slug="demo-ended")
    told = client.get(reverse("campaign:chronicle", args=[ended.slug])).text
    assert told.count('class="battle-report-link"') >= 2


def test_demo_battles_earlier_battle_has_its_winners_report_with_a_photograph(demo, client):
    """Issue 28: in `demo-battle`, alice's and bob's earlier pitched battle, played at the
    tabletop, has its winner's report with a photograph of the table on its card."""
    campaign = Campaign.objects.get(slug="demo-battle")
    players = {m.kingdom: m.user.username for m in campaign.memberships.exclude(kingdom="")}
    data = common.latest_snapshot(campaign).data
    number, played = next(
        (n, b)
        for n, b in enumerate(data["battles"], start=1)
        if b["kind"] == "pitched" and b["status"] == "resolved"
    )
    assert {players[played["attacker"]], players[played["defender"]]} == {"alice", "bob"}
    client.force_login(User.objects.get(username="carol"))
    card = html.unescape(client.get(reverse("battles:card", args=[campaign.slug, number])).text)
    assert "held the centre with its infantry" in card
    (photo,) = re.findall(r'src="([^"]+/thumbnail/)"', card)
    picture = client.get(photo)
    assert picture["Content-Type"] == "image/jpeg"


def test_demo_battle_waits_for_the_result_of_alices_and_bobs_pitched_battle(demo, client):
    campaign = Campaign.objects.get(slug="demo-battle")
    players = {m.user.username: m.kingdom for m in campaign.memberships.exclude(kingdom="")}
    data = common.latest_snapshot(campaign).data
    (battle,) = [b for b in data["battles"] if b["status"] == "awaiting_result"]
    assert battle["kind"] == "pitched"
    assert {battle["attacker"], battle["defender"]} == {players["alice"], players["bob"]}
    assert {(p["kind"], p["kingdom"]) for p in data["pending"]} == {
        ("battle_result", players["alice"]),
        ("battle_result", players["bob"]),
    }
    assert "waiting for its result" in demo.out
    number = data["battles"].index(battle) + 1
    card = reverse("battles:card", args=[campaign.slug, number])
    for name in ("carol", "dave"):  # they can see the card
        client.force_login(User.objects.get(username=name))
        assert "Battle at" in client.get(card).text


def test_demo_winter_waits_for_the_tithes_with_a_kingdom_short_of_food(demo, client):
    campaign = Campaign.objects.get(slug="demo-winter")
    data = common.latest_snapshot(campaign).data
    assert (data["clock"]["season"], data["clock"]["step"]) == ("winter", "tithe")
    players = {m.kingdom for m in campaign.memberships.exclude(kingdom="")}
    assert {(p["kind"], p["kingdom"]) for p in data["pending"]} == {("tithes", k) for k in players}
    armies = {k: sum(1 for a in data["armies"] if a["kingdom"] == k) for k in players}
    assert any(armies[k["id"]] > k["food"] for k in data["kingdoms"])  # short of food
    forts = {t["owner"] for t in data["tiles"] if t["settlement"] == "fortress"}
    alice = common.kingdom_of(campaign, User.objects.get(username="alice"))
    purse = next(k for k in data["kingdoms"] if k["id"] == alice)
    assert purse["gold"] >= 1  # alice can raise an army at her fortress, and feed it
    assert alice in forts
    assert armies[alice] < min(6, purse["food"])
    assert "is short of food" in demo.out
    client.force_login(User.objects.get(username="alice"))
    assert "Tithes" in client.get(reverse("campaign:winter", args=[campaign.slug])).text


def test_demo_options_waits_for_alices_siege_of_bobs_capital_with_its_card(demo, client):
    """Issue 27: every optional rule of part A is on; alice's army assaults bob's defended
    capital, and the card says so to both, with each side's limits and the artefacts on
    each side's armies."""
    campaign = Campaign.objects.get(slug="demo-options")
    data = common.latest_snapshot(campaign).data
    assert all(data["options"].get(name) for name in OPTIONS_IN_DEMO)
    assert set(OPTIONS_IN_DEMO) == {"army_limits", "wizards", "common_deck", "sieges"}
    players = {m.user.username: m.kingdom for m in campaign.memberships.exclude(kingdom="")}
    (battle,) = [b for b in data["battles"] if b["status"] == "awaiting_result" and b["siege"]]
    assert {battle["attacker"], battle["defender"]} == {players["alice"], players["bob"]}
    assert battle["siege"] == {"side": players["bob"], "works": "wood"}
    assert all("licence" in army for army in data["armies"])
    assert "A siege assault at" in demo.out
    card = reverse("battles:card", args=[campaign.slug, data["battles"].index(battle) + 1])
    for name in ("alice", "bob"):
        client.force_login(User.objects.get(username=name))
        page = client.get(card).text
        assert "is besieged in its capital" in page
        assert "Its list: Monsters up to" in page
        carried = [name for side in battle["sides"] for name in side["artefacts"]]
        assert carried
        assert all(name in page for name in carried)


def test_demo_options_has_a_wizards_tower_and_an_artefact_won_on_a_quest(demo, client):
    """Issue 27, option wizards: a Wizard's tower stands on the map, and a quest won an
    artefact, which the chronicle tells with its dice and the campaign page lists as held."""
    campaign = Campaign.objects.get(slug="demo-options")
    data = common.latest_snapshot(campaign).data
    assert data["options"]["wizards"]
    assert data["towers"]
    (won, *_) = [e for e in data["events"] if e["type"] == "quest" and e["artefact"]]
    client.force_login(User.objects.get(username="carol"))
    page = html.unescape(client.get(reverse("campaign:campaign", args=[campaign.slug])).text)
    assert "a Wizard's tower: nobody enters it" in page  # on the map, on its tile
    assert "Magical artefacts held" in page
    assert won["artefact"] in page
    chronicle = html.unescape(client.get(reverse("campaign:chronicle", args=[campaign.slug])).text)
    assert "went on a quest to the Wizard's tower " in chronicle
    assert f"{won['artefact']} was found" in chronicle


def test_demo_wars_has_a_raid_beside_alice_trade_a_milestone_and_a_battle_for_bob(demo, client):
    """Issue 38: the four options of part B on; a marauder band with its order stands within
    three tiles of alice's settlements, drawn on the map with its arrow and its words; roads
    have carried trade to her capital (her ledger's gathering); a kingdom holds a milestone
    (the leaderboard says so); and a battle against the horde waits at the tabletop, which
    bob, the marauders' general, finds among his own battles and may report."""
    campaign = Campaign.objects.get(slug="demo-wars")
    data = common.latest_snapshot(campaign).data
    assert all(
        data["options"][name] for name in ("marauders", "roads", "milestones", "yearly_event")
    )
    players = {m.user.username: m.kingdom for m in campaign.memberships.exclude(kingdom="")}
    assert data["options"]["marauder_general"] == players["bob"]
    (battle,) = [b for b in data["battles"] if b["status"] == "awaiting_result"]
    assert "marauders" in (battle["attacker"], battle["defender"])
    assert players["bob"] not in (battle["attacker"], battle["defender"])
    assert any(
        p["kingdom"] == "marauders" and p["general"] == players["bob"] for p in data["pending"]
    )
    assert any(
        e["type"] == "gathered" and e["kingdom"] == players["alice"]
        and any(g["source"] == "trade" and g["gold"] for g in e.get("gains", []))
        for e in data["events"]
    )  # fmt: skip
    assert any(k["milestones"] for k in data["kingdoms"])
    assert "against the Orc horde, bob its general" in demo.out

    client.force_login(User.objects.get(username="alice"))
    page = html.unescape(client.get(reverse("campaign:campaign", args=[campaign.slug])).text)
    assert 'class="marauder-band"' in page
    assert "marauder arm" in page
    assert " of Orcs (option OW1): " in page
    chronicle = html.unescape(client.get(reverse("campaign:chronicle", args=[campaign.slug])).text)
    assert "A band of " in chronicle  # the horde's arrivals are told
    assert "Aldermark built a road from " in chronicle
    client.force_login(User.objects.get(username="bob"))
    mine = html.unescape(
        client.get(reverse("battles:list", args=[campaign.slug]) + "?show=mine").text
    )
    assert "against the marauding Orcs" in mine
    assert "play the game and report the result" in mine  # what it asks of him


def test_demo_glory_has_honours_alices_wishes_and_her_disputed_heirs_army_to_choose(demo, client):
    """Options glory and succession (part C): a kingdom holds an honour, alice has given
    her secret honour wishes, and the winter stands at its succession step, asking alice
    which of her armies her disputed heir disbands (OB7): her winter page offers each of
    them, the choice not yet made."""
    campaign = Campaign.objects.get(slug="demo-glory")
    data = common.latest_snapshot(campaign).data
    assert data["options"]["glory"]
    assert data["options"]["succession"]
    alice = common.kingdom_of(campaign, User.objects.get(username="alice"))
    kingdoms = {k["id"]: k for k in data["kingdoms"]}
    assert any(k["honours"] for k in kingdoms.values())
    assert kingdoms[alice]["honour_wishes"]
    assert (data["clock"]["season"], data["clock"]["step"]) == ("winter", "succession")
    (asked,) = [p for p in data["pending"] if p["kind"] == "succession"]
    mine = [a["id"] for a in data["armies"] if a["kingdom"] == alice]
    assert asked["kingdom"] == alice
    assert asked["armies"] == mine
    assert len(mine) >= 2
    assert kingdoms[alice]["heir"] in ("disputed", "civil_war")
    assert not campaign.submissions.filter(kingdom=alice, kind="succession").exists()
    assert "wishes for" in demo.out
    assert "Now the campaign waits for the succession of alice." in demo.out

    client.force_login(User.objects.get(username="alice"))
    page = html.unescape(client.get(reverse("campaign:winter", args=[campaign.slug])).text)
    assert "Your ruler has died" in page
    assert "One of your armies is disbanded: choose which" in page
    (default,) = re.findall(r"If you choose none, (.+?), your most recently raised, goes", page)
    assert default == "Aldermark's 3rd army"
    for army in mine:
        assert f'name="army" value="{army}"' in page
    # Nothing chosen yet: the default is the one ticked, and Ready would give it.
    fieldset = page.split("The army to disband", 1)[1].split("</fieldset>")[0]
    assert re.findall(r'value="([^"]+)" checked', fieldset) == [mine[-1]]


def test_demo_ended_is_a_campaign_played_to_its_end_with_its_final_page(demo, client):
    campaign = Campaign.objects.get(slug="demo-ended")
    assert campaign.status == Campaign.Status.ENDED
    data = common.latest_snapshot(campaign).data
    assert data["clock"]["season"] == "ended"
    assert "The campaign has ended:" in demo.out
    client.force_login(User.objects.get(username="carol"))
    page = client.get(reverse("campaign:end", args=[campaign.slug])).text
    assert "The podium" in page
    assert "The whole chronicle" in page
    # Its armies were steered to meet: the chronicle tells battles, each linking its card.
    assert any(b["kind"] == "pitched" for b in data["battles"])
    assert reverse("battles:card", args=[campaign.slug, 1]) in page
