"""The battle pages: who sees what (the two players, a third player, the admin, another
campaign's player, a visitor), and every form refused with a message and no change."""

import copy
import html
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from battles import card
from battles.board import cast_of, state_words
from battles.models import Battle, PlayTime, ResultReport
from battles.services import decisions, results
from battles.services import desk as desk_services
from campaign.gazetteer import Names
from campaign.models import Campaign, Submission
from campaign.rules.hexmap import distance
from campaign.services import admin, advancing, common, setup
from campaign.words import names_of
from tests.campaign.helpers import play_from, signed_in

pytestmark = pytest.mark.django_db


def card_url(battle: Battle) -> str:
    return reverse("battles:card", args=[battle.campaign.slug, battle.number])


def act_url(battle: Battle, action: str) -> str:
    return reverse("battles:act", args=[battle.campaign.slug, battle.number, action])


def said(campaign: Campaign) -> Names:
    """How the campaign's pages name its kingdoms, places and units now."""
    return names_of(common.latest_snapshot(campaign).data, campaign.gazetteer)


def seen(campaign: Campaign) -> int:
    return common.latest_snapshot(campaign).number


def post(client: Client, url: str, data: dict[str, Any]) -> str:
    """POST, follow the redirect, and return the page the player lands on."""
    response = client.post(url, data, follow=True)
    assert response.status_code == 200
    return response.text


def report_form(battle: Battle, outcome: str, **extra: Any) -> dict[str, Any]:
    return {"outcome": outcome, "seen": seen(battle.campaign), **extra}


# --- the card ---------------------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["alice", "bob", "carol", "gm"])
def test_every_member_sees_the_card(client, cast, battle, viewer):
    page = signed_in(client, cast[viewer]).get(card_url(battle)).text
    assert f"Battle {said(battle.campaign).at(battle.hex)}" in page
    assert "Brightwater" in page
    assert "Aldermark" in page
    assert "Set up a table {} feet by {} feet.".format(*battle.board.split("x")) in page
    assert battle.scenario in page
    assert battle.condition in page
    assert "500 points" in page


def test_the_card_says_what_each_result_does_to_the_campaign(client, cast, battle):
    page = signed_in(client, cast["alice"]).get(card_url(battle)).text
    assert "If Aldermark wins" in page
    assert "If Brightwater wins" in page
    assert "If it is a draw" in page
    assert "Aldermark gains 1 might" in page
    # two tiles to go to
    assert "Brightwater's 1st army retreats to a tile its player chooses" in html.unescape(page)
    assert "Brightwater learns a new strategy" in page
    # Each result is tried on the snapshot's own file (no copy of its months of events):
    # the engine leaves it as it was.
    data = common.latest_snapshot(battle.campaign).data
    before = copy.deepcopy(data)
    assert card.outcomes(data, battle, said(battle.campaign))
    assert data == before


def test_what_each_result_does_is_said_with_the_kingdoms_names_of_now(client, cast, battle):
    """The outcomes are worked out once for the snapshot and the names they are said with:
    a kingdom renamed after a first look is named anew on the card."""
    alice = signed_in(client, cast["alice"])
    assert "If Aldermark wins" in alice.get(card_url(battle)).text
    battle.campaign.memberships.filter(kingdom_name="Aldermark").update(kingdom_name="Eastmarch")
    page = alice.get(card_url(battle)).text
    assert "If Eastmarch wins" in page
    assert "Eastmarch gains 1 might" in page
    assert "If Aldermark wins" not in page


@pytest.mark.parametrize("viewer", ["eve", None])
def test_nobody_else_sees_the_card(client, cast, battle, viewer):
    if viewer:
        signed_in(client, cast[viewer])
    response = client.get(card_url(battle))
    assert response.status_code == (404 if viewer else 302)


def test_a_battle_of_another_campaign_is_not_found_by_its_number(client, cast, battle):
    other = Campaign.objects.get(slug="other-league")
    url = reverse("battles:card", args=[other.slug, battle.number])
    assert signed_in(client, cast["eve"]).get(url).status_code == 404
    assert signed_in(client, cast["alice"]).get(url).status_code == 404


def test_an_unconfirmed_report_is_shown_to_the_two_players_and_the_admin_only(client, cast, battle):
    results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark", note="Ambush at dawn"
    )
    for viewer in ("alice", "bob", "gm"):
        assert "Ambush at dawn" in signed_in(client, cast[viewer]).get(card_url(battle)).text
    page = signed_in(client, cast["carol"]).get(card_url(battle)).text
    assert "Ambush at dawn" not in page
    assert "No confirmed result yet." in page


# --- reporting through the pages ------------------------------------------------------------


def test_alice_reports_and_bob_confirms_from_the_card(
    client, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    page = post(
        signed_in(client, cast["alice"]),
        act_url(battle, "report"),
        report_form(battle, "aldermark", turns="7", note="Well fought", attacker_score="300"),
    )
    assert "Your report is in" in page
    report = ResultReport.objects.get()
    assert (report.kingdom, report.winner, report.turns, report.attacker_score) == (
        "aldermark", "aldermark", 7, 300
    )  # fmt: skip
    bob_page = signed_in(client, cast["bob"]).get(card_url(battle)).text
    assert "Confirm this result" in bob_page
    with django_capture_on_commit_callbacks(execute=True):
        page = post(
            client, act_url(battle, "confirm"), {"report": report.pk, "seen": seen(battle.campaign)}
        )
    assert "Confirmed" in page
    battle.refresh_from_db()
    assert (battle.status, battle.winner) == ("resolved", "aldermark")
    assert "Aldermark won." in signed_in(client, cast["carol"]).get(card_url(battle)).text


def test_the_report_form_is_offered_while_nothing_waits_for_an_answer(client, cast, battle):
    def offered(name: str) -> bool:
        return 'id="report-title"' in signed_in(client, cast[name]).get(card_url(battle)).text

    assert offered("alice")
    assert offered("bob")
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    assert not offered("alice")  # her report is open
    assert not offered("bob")  # he confirms or disputes it
    results.battle_dispute(report=report, user=cast["bob"], reason="no")
    assert offered("bob")  # he may report it as he saw it
    assert not offered("carol")


@pytest.mark.parametrize("visitor", ["carol", "gm"])
def test_a_member_not_in_the_battle_can_not_report_it(client, cast, battle, visitor):
    page = post(
        signed_in(client, cast[visitor]), act_url(battle, "report"), report_form(battle, "draw")
    )
    assert "Only this battle&#x27;s two players may do that." in page
    assert not ResultReport.objects.exists()


def test_another_campaigns_player_and_a_visitor_are_turned_away(client, cast, battle):
    response = signed_in(client, cast["eve"]).post(
        act_url(battle, "report"), report_form(battle, "draw")
    )
    assert response.status_code == 404
    client.logout()
    response = client.post(act_url(battle, "report"), report_form(battle, "draw"))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:sign_in"))
    assert not ResultReport.objects.exists()


def test_alice_can_not_confirm_her_own_report(client, cast, battle):
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    page = post(
        signed_in(client, cast["alice"]),
        act_url(battle, "confirm"),
        {"report": report.pk, "seen": seen(battle.campaign)},
    )
    assert "You can&#x27;t confirm or dispute your own report" in page
    report.refresh_from_db()
    assert report.status == "reported"


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"outcome": "carrowmoor"}, "Select a valid choice"),
        ({"outcome": ""}, "Choose the result."),
        ({"outcome": "draw", "turns": "many"}, "Write a whole number, in the digits 0 to 9."),
        ({"outcome": "draw", "turns": "٣"}, "Write a whole number, in the digits 0 to 9."),
        ({"outcome": "draw", "seen": "1"}, "The campaign has moved on since you looked"),
        ({"outcome": "draw", "seen": ""}, "This page is out of date: reload it and try again."),
    ],
)
def test_a_forged_or_stale_report_is_refused_with_a_message(client, cast, battle, data, message):
    form = {**report_form(battle, "draw"), **data}
    page = post(signed_in(client, cast["alice"]), act_url(battle, "report"), form)
    assert "Nothing was changed." in page
    assert message in page
    assert not ResultReport.objects.exists()


def test_a_report_of_another_battle_can_not_be_answered_here(client, cast, battle):
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    other_battle = Battle.objects.create(
        campaign=battle.campaign, number=2, year=1, month=1, hex=[9, 9], kind="pitched",
        attacker="carrowmoor", defender="brightwater", status="awaiting_result",
    )  # fmt: skip
    page = post(
        signed_in(client, cast["bob"]), act_url(other_battle, "confirm"),
        {"report": report.pk, "seen": seen(battle.campaign)},
    )  # fmt: skip
    assert "There is no such report of this battle." in page
    report.refresh_from_db()
    assert report.status == "reported"


def test_dispute_withdraw_and_report_again_through_the_pages(client, cast, battle):
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    page = post(
        signed_in(client, cast["bob"]), act_url(battle, "dispute"),
        {"report": report.pk, "seen": seen(battle.campaign), "reason": "I held the objectives"},
    )  # fmt: skip
    assert "Disputed" in page
    page = post(
        signed_in(client, cast["alice"]),
        act_url(battle, "withdraw"),
        {"report": report.pk, "seen": seen(battle.campaign)},
    )
    assert "Your report is withdrawn" in page
    post(client, act_url(battle, "report"), report_form(battle, "brightwater"))
    assert list(ResultReport.objects.values_list("status", "winner")) == [
        ("withdrawn", "aldermark"), ("reported", "brightwater")
    ]  # fmt: skip


def test_a19_concede_from_the_card(
    client, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        post(
            signed_in(client, cast["bob"]),
            act_url(battle, "concede"),
            {"seen": seen(battle.campaign)},
        )
    battle.refresh_from_db()
    assert (battle.kind, battle.winner) == ("concession", "aldermark")


def test_times_to_play_are_shown_in_each_viewers_time_zone(client, cast, battle):
    cast["bob"].time_zone = "Asia/Tokyo"
    cast["bob"].save()
    page = post(
        signed_in(client, cast["alice"]), act_url(battle, "propose"), {"at": "2030-05-01T18:00"}
    )
    assert "Your proposed time is on the card" in page
    assert "Wed 1 May 2030, 18:00 UTC" in page
    proposed = PlayTime.objects.get()
    page = post(
        signed_in(client, cast["bob"]), act_url(battle, "accept"), {"play_time": proposed.pk}
    )
    assert "Agreed" in page
    assert "Thu 2 May 2030, 03:00 JST" in page


# --- the list, my battles, the decisions ------------------------------------------------------


def test_the_battles_list_filters_and_says_what_waits_for_me(client, cast, battle):
    url = reverse("battles:list", args=[battle.campaign.slug])
    page = signed_in(client, cast["alice"]).get(url).text
    assert "Waiting for you:" in page
    assert "play the game and report the result" in page
    where = f"Battle {said(battle.campaign).at(battle.hex)}"
    assert where not in signed_in(client, cast["alice"]).get(url + "?show=resolved").text
    assert where in client.get(url + "?show=awaiting").text
    assert where not in signed_in(client, cast["carol"]).get(url + "?show=mine").text


def test_my_battles_on_the_home_page(client, cast, battle):
    mine = reverse("battles:mine")
    page = signed_in(client, cast["alice"]).get(mine, headers={"HX-Request": "true"}).text
    assert "against Brightwater" in page
    assert "play the game and report the result" in page
    assert "<html" not in page  # a fragment for htmx
    results.battle_report(battle=battle, user=cast["alice"], result="draw")
    assert "confirm or dispute your opponent" in signed_in(client, cast["bob"]).get(mine).text
    assert "No battle waits for you." in signed_in(client, cast["carol"]).get(mine).text
    home = signed_in(client, cast["alice"]).get("/").text
    assert f'hx-get="{mine}"' in home


def test_the_ask_to_play_links_to_the_battles(client, cast, battle):
    page = (
        signed_in(client, cast["alice"])
        .get(reverse("campaign:campaign", args=[battle.campaign.slug]))
        .text
    )
    assert f'href="{reverse("battles:list", args=[battle.campaign.slug])}"' in page


def test_the_loser_retreats_from_the_battles_page(
    client, cast, battle, won, django_capture_on_commit_callbacks
):
    won(battle, "aldermark")
    data = common.latest_snapshot(battle.campaign).data
    asked = next(p for p in data["pending"] if p["kind"] == "retreat")
    url = reverse("battles:list", args=[battle.campaign.slug])
    page = html.unescape(signed_in(client, cast["bob"]).get(url).text)
    assert "Where does Brightwater's 1st army retreat?" in page
    to = asked["choices"][-1]
    decide = reverse("battles:decide", args=[battle.campaign.slug, "retreat"])
    page = post(client, decide, {"seen": seen(battle.campaign), "retreat-brightwater-1": "99,99"})
    assert "Nothing was changed." in page
    assert "can&#x27;t retreat to [99, 99]" in page
    with django_capture_on_commit_callbacks(execute=True):
        post(
            client,
            decide,
            {"seen": seen(battle.campaign), "retreat-brightwater-1": f"{to[0]},{to[1]}"},
        )
    army = next(
        a
        for a in common.latest_snapshot(battle.campaign).data["armies"]
        if a["id"] == "brightwater-1"
    )
    assert army["hex"] == to


# --- the admin's desk -----------------------------------------------------------------------


def desk_url(campaign: Campaign) -> str:
    return reverse("battles:admin", args=[campaign.slug])


@pytest.mark.parametrize(
    ("viewer", "status"), [("gm", 200), ("alice", 404), ("carol", 404), ("eve", 404)]
)
def test_only_the_admin_sees_the_desk(client, cast, battle, viewer, status):
    assert signed_in(client, cast[viewer]).get(desk_url(battle.campaign)).status_code == status


def test_before_the_start_the_desk_says_there_is_no_battle_yet(client, cast):
    """Played as four newcomers (issue 35): the dashboard of a campaign not yet started
    loads its battles desk, which answered 404 (it read the newest snapshot, and there is
    none yet): htmx showed the error over the dashboard."""
    campaign = setup.campaign_create(
        name="Spring League", admin=cast["gm"], kingdoms=2, map_name="borderlands"
    )
    response = signed_in(client, cast["gm"]).get(desk_url(campaign), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "No battle yet." in response.text


def test_the_desk_shows_a_dispute_first_with_both_reports(client, cast, battle):
    first = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark", note="Mine"
    )
    results.battle_dispute(report=first, user=cast["bob"], reason="Not so")
    results.battle_report(
        battle=battle, user=cast["bob"], result="win", winner="brightwater", note="Ours"
    )
    page = signed_in(client, cast["gm"]).get(desk_url(battle.campaign)).text
    assert "Disputed: the campaign&#x27;s admin decides." in page
    assert page.index("Mine") < page.index("Ours")
    assert "Not so" in page


@pytest.mark.parametrize(
    ("action", "data"),
    [("decide", {"outcome": "draw"}), ("simple", {}), ("extend", {"hours": "12"})],
)
@pytest.mark.parametrize("visitor", ["gm", "alice", "carol", "eve", None])
def test_only_the_admin_acts_at_the_desk(
    client, cast, battle, action, data, visitor, eager_celery, django_capture_on_commit_callbacks
):
    before = (
        Battle.objects.get().deadline,
        common.latest_snapshot(battle.campaign).number,
    )
    if visitor:
        signed_in(client, cast[visitor])
    url = reverse("battles:admin_act", args=[battle.campaign.slug, battle.number, action])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**data, "seen": seen(battle.campaign)})
    after = (
        Battle.objects.get().deadline,
        common.latest_snapshot(battle.campaign).number,
    )
    if visitor == "gm":
        assert response.status_code == 302
        assert after != before
    else:
        assert response.status_code in (302 if visitor is None else 404,)
        assert after == before


def test_a_bad_extension_is_refused_with_a_message(client, cast, battle):
    url = reverse("battles:admin_act", args=[battle.campaign.slug, battle.number, "extend"])
    response = signed_in(client, cast["gm"]).post(
        url, {"hours": "0", "seen": seen(battle.campaign)}, follow=True
    )
    assert "Nothing was changed." in response.text
    battle.refresh_from_db()
    assert battle.deadline is not None
    assert battle.deadline < timezone.now() + timedelta(
        hours=battle.campaign.deadlines["battles"] + 1
    )


DESK = [("decide", {"outcome": "draw"}), ("simple", {}), ("extend", {"hours": "12"})]


def desk_state(battle: Battle) -> tuple[Any, ...]:
    return (
        Battle.objects.get(pk=battle.pk).deadline,
        common.latest_snapshot(battle.campaign).number,
        list(Submission.objects.filter(campaign=battle.campaign).values_list("payload", "ready")),
    )


def test_each_form_of_the_desk_carries_the_snapshot_it_shows(client, cast, battle):
    page = signed_in(client, cast["gm"]).get(desk_url(battle.campaign)).text
    forms = re.findall(r'<form [^>]*action="[^"]*/admin/([a-z]+)/"[^>]*>(.*?)</form>', page, re.S)
    drawn_at = f'<input type="hidden" name="seen" value="{seen(battle.campaign)}"'
    assert sorted(action for action, form in forms if drawn_at in form) == sorted(
        action for action, _ in DESK
    )


@pytest.mark.parametrize(("action", "data"), DESK)
def test_a_desk_post_from_before_the_newest_snapshot_is_refused(client, cast, battle, action, data):
    """Issue 35: a second tab's desk, drawn before the campaign moved on (a correction
    here), decides, settles or extends nothing; the desk as it stands says why."""
    stale = seen(battle.campaign)
    data_now = common.latest_snapshot(battle.campaign).data
    admin.campaign_correct(
        campaign=battle.campaign, actor=cast["gm"], reason="typo", data=data_now, what="nothing"
    )
    before = desk_state(battle)
    url = reverse("battles:admin_act", args=[battle.campaign.slug, battle.number, action])
    response = signed_in(client, cast["gm"]).post(url, {**data, "seen": stale}, follow=True)
    assert (
        "Nothing was changed. The campaign moved on since this page was drawn: here it is as "
        "it stands now."
    ) in html.unescape(response.text)
    assert f'name="seen" value="{seen(battle.campaign)}"' in response.text
    assert desk_state(battle) == before


@pytest.mark.parametrize(("action", "data"), DESK)
def test_a_desk_post_without_its_page_is_a_400_in_words(client, cast, battle, action, data):
    before = desk_state(battle)
    url = reverse("battles:admin_act", args=[battle.campaign.slug, battle.number, action])
    response = signed_in(client, cast["gm"]).post(url, data)
    assert response.status_code == 400
    assert "Nothing was changed. This page is out of date: reload it and try again." in (
        html.unescape(response.text)
    )
    assert desk_state(battle) == before


def test_the_dashboard_links_to_the_desk(client, cast, battle):
    page = (
        signed_in(client, cast["gm"])
        .get(reverse("campaign:dashboard", args=[battle.campaign.slug]))
        .text
    )
    assert f'hx-get="{desk_url(battle.campaign)}"' in page


def test_a_re_stated_battle_says_so_on_its_card(client, cast, battle):
    battle.details = {**battle.details, "restated": True}
    battle.save()
    page = signed_in(client, cast["carol"]).get(card_url(battle)).text
    assert "Re-stated: an earlier battle's result changed who stands in this tile" in page


# --- who may do what, for every player's action -------------------------------------------

MAY = {  # alice has reported a draw and proposed a time; who may then do each action
    "report": set(),  # alice's report is open: bob answers it first
    "confirm": {"bob"},
    "dispute": {"bob"},
    "withdraw": {"alice"},
    "concede": {"alice", "bob"},
    "propose": {"alice", "bob"},
    "accept": {"bob"},
}


def world(battle: Battle) -> tuple[object, ...]:
    return (
        list(ResultReport.objects.order_by("pk").values_list("kingdom", "status")),
        list(PlayTime.objects.order_by("pk").values_list("kingdom", "accepted_at")),
        list(Submission.objects.order_by("pk").values_list("kingdom", "kind", "payload")),
    )


@pytest.mark.parametrize("action", MAY)
@pytest.mark.parametrize("visitor", ["alice", "bob", "carol", "gm", "eve", None])
def test_each_action_is_for_the_right_player_only(client, cast, battle, action, visitor):
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    proposed = decisions.battle_propose_time(
        battle=battle, user=cast["alice"], at=timezone.now() + timedelta(days=1)
    )
    data = {
        "seen": seen(battle.campaign),
        "report": report.pk,
        "reason": "not so",
        "outcome": "draw",
        "at": "2031-01-01T10:00",
        "play_time": proposed.pk,
    }
    before = world(battle)
    if visitor:
        signed_in(client, cast[visitor])
    response = client.post(act_url(battle, action), data)
    if visitor is None:
        assert response.status_code == 302
        assert response.url.startswith(reverse("accounts:sign_in"))
    elif visitor == "eve":
        assert response.status_code == 404
    else:
        assert response.status_code == 302
        assert response.url == card_url(battle)
    assert (world(battle) != before) == (visitor in MAY[action])


@pytest.mark.parametrize("action", ["last-stand", "choose", "retreat"])
@pytest.mark.parametrize("visitor", ["carol", "gm", "eve", None])
def test_nobody_decides_for_a_kingdom_not_asked(client, cast, battle, action, visitor):
    hex_text = f"{battle.hex[0]},{battle.hex[1]}"
    data = {
        "seen": seen(battle.campaign),
        "hex": hex_text,
        "stand": "yes",
        "retreat-brightwater-1": hex_text,
    }
    before = world(battle)
    if visitor:
        signed_in(client, cast[visitor])
    response = client.post(
        reverse("battles:decide", args=[battle.campaign.slug, action]),
        data,
        follow=visitor in ("carol", "gm"),
    )
    if visitor in ("carol", "gm"):
        assert "Nothing was changed." in response.text
    else:
        assert response.status_code == (404 if visitor else 302)
    assert world(battle) == before


# --- after the result, and the queries -----------------------------------------------------


def test_a_resolved_card_says_what_the_battle_did_to_the_campaign(client, cast, battle, won):
    won(battle, "brightwater")
    battle.refresh_from_db()
    page = html.unescape(signed_in(client, cast["carol"]).get(card_url(battle)).text)
    assert "What it did to the campaign" in page
    assert f"Brightwater takes the tile {said(battle.campaign).at(battle.hex)}." in page
    assert "Aldermark's 1st army retreats to" in page
    assert "and lies on its side" in page
    assert "Aldermark learns a new strategy." in page
    assert "Brightwater gains 1 might" in page
    assert (
        reverse("campaign:report", args=[battle.campaign.slug, battle.resolved_in.number]) in page
    )


def test_a_battle_settled_by_dice_shows_its_dice_on_the_card_and_the_desk(
    client, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        desk_services.battle_resolve_simply(battle=battle, actor=cast["gm"])
    battle.refresh_from_db()
    dice = ", ".join(str(d) for d in battle.details["attacker_dice"])
    page = signed_in(client, cast["carol"]).get(card_url(battle)).text
    linked = '<a href="/rules/#ruling-b7" class="ruling">ruling B7</a>'
    assert f"Settled as a simple land battle ({linked}): attacker's dice {dice}" in page
    assert "gains 1 might" not in page  # no might for a simple battle (ruling P1)
    desk = signed_in(client, cast["gm"]).get(desk_url(battle.campaign)).text
    assert f"Settled by dice ({linked}): {dice}" in desk


def test_a_last_stand_asked_in_a_battles_tile_is_decided_on_its_card(client, cast, battle):
    latest = common.latest_snapshot(battle.campaign)
    pending = [{"kind": "last_stand", "kingdom": "aldermark", "hex": battle.hex}]
    advancing.store_snapshot(
        campaign=battle.campaign, number=latest.number + 1,
        data={**latest.data, "pending": pending}, reason="correction",
    )  # fmt: skip
    assert "Make a Last Stand" in signed_in(client, cast["alice"]).get(card_url(battle)).text
    for other in ("bob", "carol", "gm"):
        assert "Make a Last Stand" not in signed_in(client, cast[other]).get(card_url(battle)).text


@pytest.mark.parametrize("page", ["card", "list", "desk", "mine"])
def test_the_battle_pages_take_the_same_queries_however_many_battles(client, cast, battle, page):
    url = {
        "card": card_url(battle),
        "list": reverse("battles:list", args=[battle.campaign.slug]),
        "desk": desk_url(battle.campaign),
        "mine": reverse("battles:mine"),
    }[page]
    signed_in(client, cast["gm" if page == "desk" else "alice"])
    client.get(url)  # the session, the caches
    with CaptureQueriesContext(connection) as one:
        client.get(url)
    for n in range(2, 12):
        copy = Battle.objects.get(pk=battle.pk)
        copy.pk, copy.number = None, n
        copy.save()
        ResultReport.objects.create(battle=copy, kingdom="aldermark", result="draw")
    with CaptureQueriesContext(connection) as many:
        response = client.get(url)
    assert response.status_code == 200
    assert len(many) == len(one), [q["sql"] for q in many.captured_queries]


def test_after_a_dispute_each_side_is_asked_what_is_theirs_to_do(client, cast, battle):
    mine = reverse("battles:mine")
    first = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    results.battle_dispute(report=first, user=cast["bob"], reason="not so")
    assert (
        "Disputed: the campaign&#x27;s admin decides."
        in signed_in(client, cast["alice"]).get(mine).text
    )
    assert (
        "Disputed: the campaign&#x27;s admin decides."
        in signed_in(client, cast["bob"]).get(mine).text
    )
    results.battle_report(battle=battle, user=cast["bob"], result="win", winner="brightwater")
    page = signed_in(client, cast["alice"]).get(mine).text
    assert "Waiting for you: confirm or dispute your opponent&#x27;s report" in page


# --- the next battle, and a naval battle instead (rulings B2, B3) ---------------------------


def two_contested_tiles(campaign: Campaign, cast: dict[str, User]) -> tuple[list[int], list[int]]:
    """The gm corrects the newest snapshot so that alice's and bob's armies meet in two
    tiles at the battles step, alice first in player order: on a coast, where both also
    have a ship, and inland. alice is asked where she fights first."""
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    plains = [t for t in data["map"]["tiles"] if t["terrain"] == "plains" and not t["river"]]
    coast = next(t["hex"] for t in plains if t["coast"])
    inland = next(
        t["hex"]
        for t in plains
        if not t["coast"] and distance((t["hex"][0], t["hex"][1]), (coast[0], coast[1])) > 1
    )
    upright = {"upright": True, "ally": None}
    data.update(
        clock={"year": 1, "season": "summer", "month": 1, "step": "battles"},
        player_order=["aldermark", "brightwater", "carrowmoor"],
        tiles=[{"hex": coast, "owner": "brightwater", "settlement": None}],
        armies=[
            {"id": f"{k}-{n}", "kingdom": k, "hex": where, **upright}
            for k in ("aldermark", "brightwater")
            for n, where in ((1, coast), (2, inland))
        ],
        ships=[
            {"id": f"{k}-s1", "kingdom": k, "hex": coast, "upright": True, "carrying": None}
            for k in ("aldermark", "brightwater")
        ],
        pending=[],
    )
    play_from(campaign, cast["gm"], data, "two battles")
    asked = common.latest_snapshot(campaign).data["pending"]
    assert [p["kind"] for p in asked] == ["battle_choice"]
    return coast, inland


def test_the_picker_chooses_a_naval_battle_where_both_sides_have_ships(
    client, cast, campaign, eager_celery, django_capture_on_commit_callbacks
):
    coast, inland = two_contested_tiles(campaign, cast)
    page = signed_in(client, cast["alice"]).get(reverse("battles:list", args=[campaign.slug])).text
    assert "Choose your next battle" in page
    names = said(campaign)
    assert f"Fight {names.at(coast, picking=True)}" in page
    assert f"Fight {names.at(inland, picking=True)}" in page
    assert f"Fight a naval battle {names.at(coast, picking=True)}" in page
    assert f"Fight a naval battle {names.at(inland, picking=True)}" not in page  # no ships
    decide = reverse("battles:decide", args=[campaign.slug, "choose"])
    form = {"seen": seen(campaign), "hex": f"{coast[0]},{coast[1]}", "naval": "on"}
    with django_capture_on_commit_callbacks(execute=True):
        page = post(client, decide, form)
    assert "Your next battle is chosen: a naval battle." in page
    first = common.latest_snapshot(campaign).data["battles"][0]
    assert (first["hex"], first["kind"], first["attacker"]) == (coast, "naval", "aldermark")


def test_without_the_naval_choice_the_armies_fight_on_the_tabletop(
    client, cast, campaign, eager_celery, django_capture_on_commit_callbacks
):
    coast, _ = two_contested_tiles(campaign, cast)
    signed_in(client, cast["alice"])
    decide = reverse("battles:decide", args=[campaign.slug, "choose"])
    with django_capture_on_commit_callbacks(execute=True):
        page = post(client, decide, {"seen": seen(campaign), "hex": f"{coast[0]},{coast[1]}"})
    assert "Your next battle is chosen." in page
    first = common.latest_snapshot(campaign).data["battles"][0]
    assert (first["hex"], first["kind"], first["status"]) == (coast, "pitched", "awaiting_result")


def test_bob_cannot_choose_a_naval_battle_he_did_not_pick(client, cast, campaign):
    coast, _ = two_contested_tiles(campaign, cast)
    before = common.latest_snapshot(campaign).number
    signed_in(client, cast["bob"])
    decide = reverse("battles:decide", args=[campaign.slug, "choose"])
    page = post(client, decide, {"seen": before, "hex": f"{coast[0]},{coast[1]}", "naval": "on"})
    assert "Nothing was changed." in page
    assert not Submission.objects.filter(campaign=campaign, kingdom="brightwater").exists()
    assert common.latest_snapshot(campaign).number == before


def test_b12_a_naval_battle_where_nobody_has_a_ship_is_refused_in_words(client, cast, campaign):
    """alice posts a naval battle at the inland tile, where nobody has a ship (the page
    offers none there). The engine refuses the entry (ruling B12) as she makes it: she
    reads why, nothing is changed, and the campaign is not left to pause at its advance."""
    _, inland = two_contested_tiles(campaign, cast)
    before = common.latest_snapshot(campaign).number
    signed_in(client, cast["alice"])
    decide = reverse("battles:decide", args=[campaign.slug, "choose"])
    page = post(client, decide, {"seen": before, "hex": f"{inland[0]},{inland[1]}", "naval": "on"})
    assert "Nothing was changed." in page
    assert "both sides have upright armies and ships" in page
    assert not Submission.objects.filter(campaign=campaign, kingdom="aldermark").exists()
    assert common.latest_snapshot(campaign).number == before


# --- the pages follow the campaign as it moves on ----------------------------------------------


def moved_on_url(campaign: Campaign) -> str:
    return reverse("campaign:moved_on", args=[campaign.slug])


def test_once_bob_confirms_the_card_says_the_campaign_is_moving_on_and_offers_no_report(
    client, cast, battle
):
    """Before the advance lands (its task not yet run), the card says the result is in
    and polls; it no longer offers "Report the result" to either side."""
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    results.battle_confirm(report=report, user=cast["bob"])  # the advance is only queued
    for name in ("alice", "bob", "carol"):
        page = signed_in(client, cast[name]).get(card_url(battle)).text
        assert "The result is in: the campaign is moving on" in page
        assert 'id="report-title"' not in page
        assert f'hx-get="{moved_on_url(battle.campaign)}?seen={seen(battle.campaign)}"' in page


def test_the_moved_on_poll_answers_nothing_until_the_advance_lands_then_reloads(
    client, cast, battle, eager_celery, django_capture_on_commit_callbacks
):
    number = seen(battle.campaign)
    signed_in(client, cast["carol"])
    waiting = client.get(moved_on_url(battle.campaign), {"seen": number}, HTTP_HX_REQUEST="true")
    assert waiting.status_code == 204
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    with django_capture_on_commit_callbacks(execute=True):
        results.battle_confirm(report=report, user=cast["bob"])
    landed = client.get(moved_on_url(battle.campaign), {"seen": number}, HTTP_HX_REQUEST="true")
    assert landed["HX-Refresh"] == "true"
    assert signed_in(client, cast["eve"]).get(moved_on_url(battle.campaign)).status_code == 404


def test_after_the_retreat_is_chosen_the_page_no_longer_asks_it(client, cast, battle, won):
    """The retreat is given and ready; the advance is queued but has not landed: the
    battles page says so instead of asking the same question again."""
    won(battle, "aldermark")
    data = common.latest_snapshot(battle.campaign).data
    to = next(p for p in data["pending"] if p["kind"] == "retreat")["choices"][-1]
    decide = reverse("battles:decide", args=[battle.campaign.slug, "retreat"])
    page = post(
        signed_in(client, cast["bob"]),
        decide,
        {"seen": seen(battle.campaign), "retreat-brightwater-1": f"{to[0]},{to[1]}"},
    )
    assert "Your units retreat where you said." in page
    assert "Where does Brightwater's 1st army retreat?" not in html.unescape(page)
    assert "Your choice is in: the campaign is moving on" in page


def test_the_retreat_is_chosen_by_tapping_a_lit_tile_on_the_map(
    client, cast, battle, won, django_capture_on_commit_callbacks
):
    """Each tile the unit may retreat to is lit on the map, said in words; tapping it posts
    the same choice as the list (htmx's hx-vals), and the unit goes there."""
    won(battle, "aldermark")
    asked = next(
        p for p in common.latest_snapshot(battle.campaign).data["pending"] if p["kind"] == "retreat"
    )
    url = reverse("battles:list", args=[battle.campaign.slug])
    page = signed_in(client, cast["bob"]).get(url).text
    picks = re.findall(
        r'<a hx-post="([^"]+)" hx-vals="([^"]+)"[^>]*class="pick pick-target" '
        r'aria-label="Brightwater\'s 1st army retreats to ([^"]+)"',
        page,
    )
    assert sorted(json.loads(html.unescape(v))["retreat-brightwater-1"] for _, v, _ in picks) == (
        sorted(f"{h[0]},{h[1]}" for h in asked["choices"])
    )
    post_url, values, _ = picks[-1]
    with django_capture_on_commit_callbacks(execute=True):
        client.post(post_url, json.loads(html.unescape(values)), HTTP_HX_REQUEST="true")
    army = next(
        a
        for a in common.latest_snapshot(battle.campaign).data["armies"]
        if a["id"] == "brightwater-1"
    )
    assert (
        f"{army['hex'][0]},{army['hex'][1]}"
        == json.loads(html.unescape(values))["retreat-brightwater-1"]
    )


def test_a_confirmed_result_waiting_for_the_months_other_battles_says_so(cast, battle):
    """A confirmed result is played into the campaign with the month's other battles: the
    card says so, not that the campaign has moved on already."""
    confirmed = ResultReport(battle=battle, kingdom="aldermark", result="draw", status="confirmed")
    words = state_words(battle, [confirmed], cast_of(battle.campaign))
    assert (
        words == "Result confirmed: it takes effect once every battle of the month has its result."
    )


def test_a_proposed_time_is_given_to_the_second_in_its_time_element(client, cast, battle):
    """A `<time datetime>` takes seconds at most (the HTML checker refuses six-digit
    fractions), whatever fraction the proposal was stored with."""
    at = (timezone.now() + timedelta(days=1)).replace(microsecond=123456)
    decisions.battle_propose_time(battle=battle, user=cast["alice"], at=at)
    page = signed_in(client, cast["bob"]).get(card_url(battle)).text
    assert f'<time datetime="{at:%Y-%m-%dT%H:%M:%S}+0000">' in page
