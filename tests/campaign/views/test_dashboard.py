"""The campaign admin's dashboard, for each kind of visitor: its admin (who may also rule a
kingdom), a player of the campaign, a player of another campaign (eve), and a signed-out
visitor. Every action goes through the page as a POST, with and without htmx."""

import html
import random
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import strip_tags

from campaign.models import AuditEntry, Campaign, Snapshot, Submission
from campaign.rules import bots
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import map_from_json
from campaign.services import admin, common, members, setup, submissions
from campaign.words import names_of
from notifications.models import Notification
from tests.campaign.helpers import (
    a_move_drafted,
    action_url,
    at_step,
    dashboard_url,
    first_visit_queries,
    hand_off_a_battle,
    kingdom_of,
    new_campaign,
    play_until,
    seen_now,
    set_up_by_the_deadlines,
    signed_in,
    turned_away,
    without_tokens,
)
from tests.conftest import campaign_made_once, read_again
from tests.notifications.notifying import with_addresses

pytestmark = pytest.mark.django_db


def newest(campaign: Campaign) -> Snapshot:
    return common.latest_snapshot(campaign)


def state(campaign: Campaign) -> tuple[Any, ...]:
    """Everything an action could change."""
    fresh = Campaign.objects.get(pk=campaign.pk)
    return (
        fresh.status,
        fresh.deadline,
        fresh.paused_with,
        [(s.number, s.data) for s in Snapshot.objects.filter(campaign=campaign)],
        list(Submission.objects.filter(campaign=campaign).values_list("payload", "consumed_by")),
        AuditEntry.objects.filter(campaign=campaign).count(),
    )


def page_of(client: Client, campaign: Campaign) -> str:
    response = client.get(dashboard_url(campaign))
    assert response.status_code == 200
    return response.text


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def land_next_to(data: dict[str, Any], hex_: list[int]) -> list[int]:
    """A land hex beside `hex_` where no army stands."""
    hexmap = map_from_json(data["map"])
    terrain = {(t["hex"][0], t["hex"][1]): t["terrain"] for t in data["map"]["tiles"]}
    taken = {(a["hex"][0], a["hex"][1]) for a in data["armies"]}
    return next(
        list(n)
        for n in hexmap.neighbours((hex_[0], hex_[1]))
        if terrain.get(n) not in (None, "ocean") and n not in taken
    )


# The cast and a campaign just started, made once for the module.
made, cast, campaign = campaign_made_once(new_campaign)


@pytest.fixture(scope="module")
def made_at_orders(made: tuple[dict[str, Any], Campaign], django_db_blocker: Any) -> Campaign:
    """Another campaign of the cast, made once for the module (in its transaction): its
    setup done by the deadline defaults, armies on the map, orders asked."""
    cast = made[0]
    with django_db_blocker.unblock():
        campaign = new_campaign(cast)
        set_up_by_the_deadlines(campaign, cast["gm"])
    return campaign


@pytest.fixture
def at_orders(made_at_orders: Campaign) -> Campaign:
    """Setup done by the deadline defaults: armies on the map, orders asked."""
    return read_again(made_at_orders)


@pytest.fixture(scope="module")
def made_with_a_battle(
    made: tuple[dict[str, Any], Campaign], django_db_blocker: Any
) -> tuple[Campaign, list[int]]:
    """Another campaign of the cast, made once for the module (in its transaction): a
    battle waits on the tabletop, and there is an advance to undo. The battle's hex."""
    cast = made[0]
    with django_db_blocker.unblock():
        campaign = new_campaign(cast)
        return campaign, hand_off_a_battle(campaign, cast)


@pytest.fixture
def battle_waiting(made_with_a_battle: tuple[Campaign, list[int]]) -> tuple[Campaign, list[int]]:
    """The campaign where a battle waits, and the battle's hex."""
    campaign, where = made_with_a_battle
    return read_again(campaign), where


# --- who sees the dashboard ----------------------------------------------------------------


def test_the_admin_sees_where_the_campaign_stands(client, cast, campaign):
    page = page_of(signed_in(client, cast["gm"]), campaign)
    assert "Running" in page
    assert "Year 1, setup, step: races" in page
    assert f'<time datetime="{campaign.deadline:%Y-%m-%dT%H:%M}' in page
    assert "1\xa0day, 23\xa0hours left" in page  # setup has 48 hours


@pytest.mark.parametrize("visitor", ["alice", "bob", "eve"])
def test_nobody_but_the_admin_sees_the_dashboard(client, cast, campaign, visitor):
    assert signed_in(client, cast[visitor]).get(dashboard_url(campaign)).status_code == 404


def test_a_signed_out_visitor_is_sent_to_sign_in(client, campaign):
    response = client.get(dashboard_url(campaign))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:sign_in"))


WAITING_ROW = re.compile(
    r'<tr><td>([^<]*) <span class="player">\(([^<]*)\)</span></td><td>([^<]*)</td>'
    r'<td class="given">([^<]*)</td>'
)


def test_it_shows_who_has_not_submitted_and_how_far_they_got(client, cast, campaign):
    signed_in(client, cast["gm"])
    assert WAITING_ROW.findall(page_of(client, campaign)) == [
        ("Blue Dwarfs", "bob", "choose your race", "Nothing yet"),
        ("Red Elves", "alice", "choose your race", "Nothing yet"),
    ]
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Elves"
    )
    assert ("Red Elves", "alice", "choose your race", "Draft, not ready") in WAITING_ROW.findall(
        page_of(client, campaign)
    )
    submissions.submission_set_ready(campaign=campaign, user=cast["alice"])
    assert ("Red Elves", "alice", "choose your race", "Ready") in WAITING_ROW.findall(
        page_of(client, campaign)
    )


def test_s1_a_secret_race_never_reaches_the_dashboard(client, cast, campaign):
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Nightstalkers"
    )
    assert "Nightstalkers" not in page_of(signed_in(client, cast["gm"]), campaign)


def test_an_admin_who_also_plays_never_reads_another_kingdoms_sealed_orders(client, cast):
    """alice runs the campaign and rules Red Elves; bob's draft orders change nothing on
    her dashboard but the word that he has a draft."""
    campaign = setup.campaign_create(
        name="Own Game", admin=cast["alice"], kingdoms=2, map_name="borderlands"
    )
    members.campaign_join(campaign=campaign, user=cast["alice"], kingdom_name="Red Elves")
    members.campaign_join(campaign=campaign, user=cast["bob"], kingdom_name="Blue Dwarfs")
    setup.campaign_start(campaign=campaign, actor=cast["alice"])
    data = set_up_by_the_deadlines(campaign, cast["alice"])
    orders = bots.decide(data, random.Random(3), map_from_json(data["map"]))
    bobs = orders["inputs"]["orders"]["blue-dwarfs"]
    signed_in(client, cast["alice"])
    before = without_tokens(page_of(client, campaign))
    submissions.submission_save(campaign=campaign, user=cast["bob"], kind="orders", payload=bobs)
    after = without_tokens(page_of(client, campaign))
    assert Submission.objects.get(kingdom="blue-dwarfs").payload == bobs
    assert without_deadline(after).replace("Draft, not ready", "Nothing yet") == without_deadline(
        before
    )
    assert "Draft, not ready" in after
    # What the deadline will do is told from the same word, never from the orders.
    assert "Red Elves holds with every unit it has not ordered" in after
    assert (
        "the drafts of Blue Dwarfs count as given (what they leave out takes its default); "
        "then the month&#x27;s orders resolve"
    ) in after


def without_deadline(page: str) -> str:
    return re.sub(r'<p class="at-deadline">.*?</p>', "", page)


def test_the_join_code_and_start_for_an_open_campaign(client, cast):
    campaign = new_campaign(cast, start=False)
    page = page_of(signed_in(client, cast["gm"]), campaign)
    assert campaign.join_code in page
    assert "2 of 2 kingdoms have joined" in page
    assert "Start the campaign" in page
    response = client.post(action_url(campaign, "start"), follow=True)
    assert "The campaign has started" in response.text
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING
    assert newest(campaign).number == 1


def test_an_open_campaign_that_is_not_full_can_not_start(client, cast):
    campaign = setup.campaign_create(
        name="Half", admin=cast["gm"], kingdoms=2, map_name="borderlands"
    )
    members.campaign_join(campaign=campaign, user=cast["alice"], kingdom_name="Red")
    signed_in(client, cast["gm"])
    page = page_of(client, campaign)
    assert "1 of 2 kingdoms have joined" in page
    assert "Start the campaign" not in page
    response = client.post(action_url(campaign, "start"), follow=True)
    assert "Nothing was changed. 1 of 2 kingdoms have joined." in messages_of(response)
    assert Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.OPEN


# --- deadlines ------------------------------------------------------------------------------


def test_the_admin_pauses_and_resumes(client, cast, campaign):
    signed_in(client, cast["gm"])
    response = client.post(
        action_url(campaign, "pause"), {**seen_now(campaign), "reason": "holiday"}
    )
    assert response.status_code == 302
    assert response.url == dashboard_url(campaign)
    paused = Campaign.objects.get(pk=campaign.pk)
    assert (paused.status, paused.deadline) == (Campaign.Status.PAUSED, None)
    page = client.get(response.url).text
    assert "The campaign is paused" in page
    assert "will be left on resuming" in page
    assert "<strong>gm</strong> paused: <q>holiday</q>" in page
    client.post(action_url(campaign, "resume"), {**seen_now(campaign), "reason": ""})
    resumed = Campaign.objects.get(pk=campaign.pk)
    assert resumed.status == Campaign.Status.RUNNING
    assert abs(resumed.deadline - campaign.deadline) < timedelta(minutes=1)


def test_a_refusal_is_told_and_changes_nothing(client, cast, campaign):
    before = state(campaign)
    response = signed_in(client, cast["gm"]).post(
        action_url(campaign, "resume"), seen_now(campaign), follow=True
    )
    assert "Nothing was changed. The campaign is not paused." in messages_of(response)
    assert state(campaign) == before


def test_the_admin_extends_the_deadline(client, cast, campaign):
    signed_in(client, cast["gm"]).post(
        action_url(campaign, "extend"),
        {**seen_now(campaign), "hours": "24", "reason": "a busy week"},
    )
    assert Campaign.objects.get(pk=campaign.pk).deadline - campaign.deadline == timedelta(hours=24)
    assert AuditEntry.objects.filter(action="extended", reason="a busy week").exists()


def test_the_admin_brings_the_deadline_nearer_but_never_into_the_past(client, cast, campaign):
    """Issue 35: a deadline could only be extended; a group ready early may bring it in."""
    gm = signed_in(client, cast["gm"])
    before = campaign.deadline
    assert before is not None
    response = gm.post(
        action_url(campaign, "extend"),
        {**seen_now(campaign), "hours": "6", "direction": "earlier", "reason": "all ready"},
        follow=True,
    )
    assert "The deadline is 6 hours earlier." in messages_of(response)
    assert before - Campaign.objects.get(pk=campaign.pk).deadline == timedelta(hours=6)
    hours_left = int((before - timedelta(hours=6) - timezone.now()) / timedelta(hours=1))
    response = gm.post(
        action_url(campaign, "extend"),
        {**seen_now(campaign), "hours": str(hours_left + 1), "direction": "earlier", "reason": ""},
        follow=True,
    )
    assert "That would put the deadline in the past" in " ".join(messages_of(response))
    assert before - Campaign.objects.get(pk=campaign.pk).deadline == timedelta(hours=6)


def test_the_admin_advances_now_with_the_defaults(client, cast, campaign):
    page = page_of(signed_in(client, cast["gm"]), campaign)
    assert "<summary>Advance now…</summary>" in page  # asks to confirm first
    response = client.post(
        action_url(campaign, "advance"), {**seen_now(campaign), "reason": "everyone agreed"}
    )
    assert response.status_code == 302
    snapshot = newest(campaign)
    assert (snapshot.number, snapshot.defaults) == (2, True)
    assert snapshot.data["clock"]["step"] == "capitals"  # the races only: the step due
    assert AuditEntry.objects.filter(action="advanced-now", reason="everyone agreed").exists()
    first = snapshot.data["pending"][0]["kingdom"]
    name = {"red-elves": "Red Elves", "blue-dwarfs": "Blue Dwarfs"}[first]
    assert (
        "Advanced. Blue Dwarfs and Red Elves take no race (Undeclared); "
        f"it is {name}'s turn for the capitals, until"
    ) in html.unescape(client.get(response.url).text)


def test_who_took_which_default_is_told_in_words_in_the_report_and_the_audit_log(
    client, cast, campaign
):
    """Issue 35: the month report said "Deadline default: kind races, kingdom red-elves"
    and the audit log "defaults: True"."""
    signed_in(client, cast["gm"])
    client.post(action_url(campaign, "advance"), {**seen_now(campaign), "reason": ""})
    report = html.unescape(
        client.get(reverse("campaign:report", args=[campaign.slug, newest(campaign).number])).text
    )
    assert "At the deadline, Red Elves takes no race (Undeclared)." in report
    assert "At the deadline, Blue Dwarfs takes no race (Undeclared)." in report
    assert "kind races" not in report
    log = html.unescape(page_of(client, campaign))
    assert "advanced; the late decisions took the deadline's defaults; to snapshot #2" in log
    assert "defaults: True" not in log


def test_an_advance_now_the_engine_refuses_says_the_campaign_is_paused(
    client, cast, campaign, monkeypatch
):
    """Issue 26, point 2: the dashboard said "Nothing was changed" while the campaign had
    in fact been paused, with advance-refused in its audit log."""

    def refusing(data, **flags):
        raise RuleError("bad-order", "inputs.orders.red[0]", "Red's army cannot go there.")

    monkeypatch.setattr("campaign.services.advancing.advance", refusing)
    signed_in(client, cast["gm"])
    response = client.post(
        action_url(campaign, "advance"), {**seen_now(campaign), "reason": ""}, follow=True
    )
    said = " ".join(messages_of(response))
    assert "The rules engine refused to advance: Red's army cannot go there." in said
    assert "The campaign is paused" in said
    assert "Nothing was changed" not in said
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.PAUSED
    assert AuditEntry.objects.filter(campaign=campaign, action="advance-refused").exists()


def holds(client: Client, campaign: Campaign) -> str:
    page = html.unescape(client.get(dashboard_url(campaign)).text)
    assert "<h1>Dashboard: Autumn League</h1>" in page
    start = page.index("<h3>What holds it</h3>")
    return strip_tags(page[start : page.index("</div>", start)])


def test_the_dashboard_says_what_holds_the_campaign_and_what_frees_it(
    client, cast, campaign, monkeypatch
):
    """Issue 35: kingdoms still deciding (and where to see who), a battle at the tabletop
    (and the battles desk, where its result is recorded, or recorded again), a pause after
    the rules refused to advance (and why, and where to resume)."""
    signed_in(client, cast["gm"])
    assert "2 kingdoms still deciding" in holds(client, campaign)
    assert 'href="#waiting">Who it waits for</a>' in client.get(dashboard_url(campaign)).text
    hand_off_a_battle(campaign, cast)
    desk = reverse("battles:admin", args=[campaign.slug])
    said = holds(client, campaign)
    assert "1 battle awaits the tabletop's result" in said
    assert f'href="{desk}">The battles desk</a>' in client.get(dashboard_url(campaign)).text
    from battles.models import Battle
    from battles.services import results

    battle = Battle.objects.get(campaign=campaign)
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw")
    results.battle_confirm(report=report, user=cast["bob"])  # its advance not run here
    said = holds(client, campaign)
    assert "1 battle has its result in" in said
    assert "awaits the tabletop's result" not in said

    def refusing(data, **flags):
        raise RuleError("bad-order", "map.tiles[0]", "The map is broken.")

    monkeypatch.setattr("campaign.services.advancing.advance", refusing)
    client.post(action_url(campaign, "advance"), {**seen_now(campaign), "reason": ""})
    assert "The campaign is paused: the rules refused to advance (The map is broken.)." in holds(
        client, campaign
    )


def test_undo_needs_a_reason_and_then_goes_back(client, cast, at_orders):
    signed_in(client, cast["gm"])
    assert "<summary>Undo…</summary>" in page_of(client, at_orders)
    before = state(at_orders)
    response = client.post(action_url(at_orders, "undo"), {**seen_now(at_orders), "reason": "  "})
    assert response.status_code == 400
    assert "Nothing was changed. Say why." in response.text
    assert state(at_orders) == before
    client.post(action_url(at_orders, "undo"), {**seen_now(at_orders), "reason": "Bob was away"})
    undo = newest(at_orders)
    assert undo.reason == Snapshot.Reason.UNDO
    assert undo.data["clock"]["step"] == "armies"  # back before the last step of the setup
    assert AuditEntry.objects.filter(action="undone", reason="Bob was away").exists()


def test_the_undo_form_names_the_snapshot_the_admin_sees(client, cast, at_orders):
    signed_in(client, cast["gm"])
    number = newest(at_orders).number
    assert f'name="seen" value="{number}"' in page_of(client, at_orders)


def test_an_undo_of_a_step_that_moved_on_since_the_admin_looked_is_refused(client, cast, at_orders):
    signed_in(client, cast["gm"])
    before = state(at_orders)
    seen = newest(at_orders).number - 1  # an advance landed after the page was drawn
    response = client.post(
        action_url(at_orders, "undo"), {"reason": "Bob was away", "seen": seen}, follow=True
    )
    assert "Nothing was changed. The campaign moved on since this page was drawn" in " ".join(
        messages_of(response)
    )
    assert state(at_orders) == before


def test_nothing_to_undo_at_the_start(client, cast, campaign):
    signed_in(client, cast["gm"])
    assert "Undo…" not in page_of(client, campaign)
    response = client.post(
        action_url(campaign, "undo"), {**seen_now(campaign), "reason": "oops"}, follow=True
    )
    assert "Nothing was changed. There is no advance to undo." in messages_of(response)


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"hours": "lots"}, "Give the hours as a whole number."),
        ({"hours": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"hours": "100000"}, "Ensure this value is less than or equal to 672."),
        ({}, "This field is required."),
    ],
)
def test_a_bad_extension_is_a_form_error(client, cast, campaign, data, error):
    before = state(campaign)
    response = signed_in(client, cast["gm"]).post(
        action_url(campaign, "extend"), {**seen_now(campaign), **data}
    )
    assert response.status_code == 400
    assert error in response.text
    assert state(campaign) == before


# --- corrections ----------------------------------------------------------------------------


def test_the_admin_corrects_a_tile(client, cast, at_orders):
    data = newest(at_orders).data
    red = next(k for k in data["kingdoms"] if k["id"] == "red-elves")
    hex_ = land_next_to(data, red["capital"])
    response = signed_in(client, cast["gm"]).post(
        action_url(at_orders, "tile"),
        {**seen_now(at_orders), "hex": f"{hex_[0]}, {hex_[1]}", "owner": "red-elves",
         "settlement": "village", "reason": "forgot the village"},
    )  # fmt: skip
    assert response.status_code == 302
    snapshot = newest(at_orders)
    assert snapshot.reason == Snapshot.Reason.CORRECTION
    assert {"hex": hex_, "owner": "red-elves", "settlement": "village"} in snapshot.data["tiles"]
    page = client.get(response["Location"]).text
    where = names_of(snapshot.data, at_orders.gazetteer).place(hex_, picking=True)
    assert f"The tile {where} is corrected." in html.unescape(page)
    assert f"corrected the state; what: tile {hex_}" in page
    assert "<q>forgot the village</q>" in page


def test_the_admin_moves_lays_down_and_removes_an_army(client, cast, at_orders):
    data = newest(at_orders).data
    army = next(a for a in data["armies"] if a["kingdom"] == "red-elves")
    to = land_next_to(data, army["hex"])
    signed_in(client, cast["gm"]).post(
        action_url(at_orders, "army"),
        {**seen_now(at_orders), "army": army["id"], "hex": f"[{to[0]}, {to[1]}]",
         "reason": "misplaced"},
    )  # fmt: skip
    moved = next(a for a in newest(at_orders).data["armies"] if a["id"] == army["id"])
    assert (moved["hex"], moved["upright"]) == (to, False)  # the box was left unticked
    client.post(
        action_url(at_orders, "army"),
        {**seen_now(at_orders), "army": army["id"], "remove": "on", "reason": "no-show"},
    )
    assert army["id"] not in {a["id"] for a in newest(at_orders).data["armies"]}


def test_a_correction_that_breaks_a_draft_says_so_to_the_admin_and_on_the_players_pages(
    client, cast, at_orders
):
    """Issue 26, point 2: the admin's message says whose draft the correction made illegal,
    and that player's orders page and campaign page say which order no longer stands."""
    data = newest(at_orders).data
    red = kingdom_of(at_orders, cast["alice"])
    army, far = a_move_drafted(at_orders, cast["alice"])

    response = signed_in(client, cast["gm"]).post(
        action_url(at_orders, "army"),
        {
            **seen_now(at_orders),
            "army": army,
            "hex": f"[{far[0]}, {far[1]}]",
            "reason": "misplaced",
        },
    )

    told = html.unescape(client.get(response["Location"]).text)
    names = names_of(data, at_orders.gazetteer)
    assert f"{names.unit(army)} is corrected." in told
    assert f"{names[red]}'s order for {names.unit(army)} no longer stands (" in told
    assert "its player is told, and must decide again." in told
    alice = signed_in(Client(), cast["alice"])
    orders = html.unescape(alice.get(reverse("campaign:orders", args=[at_orders.slug])).text)
    assert (
        f"Your order for {names.unit(army)} no longer stands since the admin changed the state:"
        in orders
    )
    assert '<strong class="no-longer">no longer stands</strong>' in orders
    page = html.unescape(alice.get(reverse("campaign:campaign", args=[at_orders.slug])).text)
    assert f"Your order for {names.unit(army)} no longer stands" in page
    bob = signed_in(Client(), cast["bob"])
    assert (
        "no longer stands" not in bob.get(reverse("campaign:campaign", args=[at_orders.slug])).text
    )


def test_the_admin_corrects_a_treasury(client, cast, at_orders):
    signed_in(client, cast["gm"]).post(
        action_url(at_orders, "resources"),
        {
            **seen_now(at_orders),
            "kingdom": "red-elves",
            "gold": "2",
            "food": "1",
            "reason": "forgot a tithe",
        },
    )
    red = next(k for k in newest(at_orders).data["kingdoms"] if k["id"] == "red-elves")
    assert (red["gold"], red["food"]) == (2, 1)
    assert "<tr><td>Red Elves</td><td>2</td><td>1</td></tr>" in page_of(client, at_orders)


@pytest.mark.parametrize(
    ("action", "data", "error"),
    [
        ("tile", {"hex": "a, b", "owner": "red-elves", "reason": "x"}, "Give a hex as two"),
        ("tile", {"hex": "0,0", "owner": "red-elves"}, "Say why."),
        ("tile", {"hex": "0,0", "owner": "eves-land", "reason": "x"}, "Select a valid choice."),
        ("tile", {"hex": "0,0", "settlement": "city", "reason": "x"}, "needs an owner"),
        ("tile", {"hex": "0,0", "settlement": "castle", "reason": "x"}, "Select a valid choice."),
        ("army", {"army": "eve-1", "hex": "0,0", "reason": "x"}, "Select a valid choice."),
        ("army", {"army": "red-elves-1", "reason": "x"}, "Say where the army stands"),
        ("army", {"army": "red-elves-1", "hex": "99999,0", "reason": "x"}, "Give a hex as two"),
        ("resources", {"kingdom": "red-elves", "gold": "-1", "food": "0", "reason": "x"},
         "greater than or equal to 0"),
        ("resources", {"kingdom": "red-elves", "gold": "lots", "food": "0", "reason": "x"},
         "Write a whole number, in the digits 0 to 9."),
        ("resources", {"kingdom": "eves-land", "gold": "1", "food": "0", "reason": "x"},
         "Select a valid choice."),
    ],
)  # fmt: skip
def test_a_bad_correction_is_a_form_error_and_changes_nothing(
    client, cast, at_orders, action, data, error
):
    before = state(at_orders)
    response = signed_in(client, cast["gm"]).post(
        action_url(at_orders, action), {**seen_now(at_orders), **data}
    )
    assert response.status_code == 400
    assert error in response.text
    assert "Nothing was changed." in response.text
    assert state(at_orders) == before


@pytest.mark.parametrize(
    "post",
    [
        {"army": "red-elves-1", "hex": "OCEAN", "upright": "on"},  # no army on the sea
        {"army": "red-elves-1", "hex": "500,500", "upright": "on"},  # off the map
    ],
)
def test_a_correction_the_rules_refuse_is_told_and_changes_nothing(client, cast, at_orders, post):
    data = newest(at_orders).data
    ocean = next(t["hex"] for t in data["map"]["tiles"] if t["terrain"] == "ocean")
    if post["hex"] == "OCEAN":
        post = {**post, "hex": f"{ocean[0]},{ocean[1]}"}
    before = state(at_orders)
    response = signed_in(client, cast["gm"]).post(
        action_url(at_orders, "army"), {**seen_now(at_orders), **post, "reason": "x"}, follow=True
    )
    [message] = messages_of(response)
    assert message.startswith("Nothing was changed. ")
    assert len(message) > len("Nothing was changed. ")
    assert state(at_orders) == before


def test_a_tile_off_the_map_is_refused(client, cast, at_orders):
    before = state(at_orders)
    response = signed_in(client, cast["gm"]).post(
        action_url(at_orders, "tile"),
        {**seen_now(at_orders), "hex": "500,500", "owner": "red-elves", "reason": "x"},
        follow=True,
    )
    [message] = messages_of(response)
    assert message.startswith("Nothing was changed. ")
    assert state(at_orders) == before


# --- a page the campaign has moved on from (issue 35) ----------------------------------------

DRAWN_BEFORE = "The campaign moved on since this page was drawn: here it is as it stands now."
OUT_OF_DATE = "This page is out of date: reload it and try again."

# Each post that changes the campaign, as its form on the page sends it (bar `seen`).
CHANGES = {
    "pause": {"reason": "x"},
    "resume": {"reason": "x"},
    "extend": {"hours": "5", "reason": "x"},
    "advance": {"reason": "x"},
    "undo": {"reason": "x"},
    "tile": {"hex": "LAND", "owner": "red-elves", "settlement": "village", "reason": "x"},
    "army": {"army": "red-elves-1", "remove": "on", "reason": "x"},
    "resources": {"kingdom": "red-elves", "gold": "9", "food": "9", "reason": "x"},
}


def change(campaign: Campaign, action: str) -> dict[str, str]:
    """The post of `action` at the campaign's newest state (paused for a resume)."""
    if action == "resume":
        Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.PAUSED)
    data = newest(campaign).data
    red = next(k for k in data["kingdoms"] if k["id"] == "red-elves")
    land = land_next_to(data, red["capital"])
    return {k: f"{land[0]},{land[1]}" if v == "LAND" else v for k, v in CHANGES[action].items()}


def test_every_form_that_changes_the_campaign_carries_the_snapshot_its_page_shows(
    client, cast, at_orders
):
    page = page_of(signed_in(client, cast["gm"]), at_orders)
    forms = dict(re.findall(r'<form [^>]*action="[^"]*/dashboard/([a-z-]+)/"[^>]*>(.*?)</form>',
                            page, re.S))  # fmt: skip
    seen = f'<input type="hidden" name="seen" value="{newest(at_orders).number}"'
    shown = {"pause", "extend", "advance", "undo", "tile", "army", "resources"}  # running
    assert shown <= set(forms)
    assert {action for action in shown if seen in forms[action]} == shown


@pytest.mark.parametrize("action", CHANGES)
def test_a_post_from_a_page_drawn_before_the_newest_snapshot_is_refused(
    client, cast, at_orders, action
):
    """A second tab still showing the step before: its advance, extension, pause, resume,
    undo or correction changes nothing, and the admin reads why over the page as it stands."""
    post = change(at_orders, action)
    stale = newest(at_orders).number - 1  # the step before: another tab advanced since
    before = state(at_orders)
    response = signed_in(client, cast["gm"]).post(
        action_url(at_orders, action), {**post, "seen": stale}, follow=True
    )
    assert messages_of(response) == [f"Nothing was changed. {DRAWN_BEFORE}"]
    assert f"Snapshot #{newest(at_orders).number} " in response.text
    assert f'name="seen" value="{newest(at_orders).number}"' in response.text
    assert state(at_orders) == before


@pytest.mark.parametrize("action", CHANGES)
def test_a_post_without_the_page_it_came_from_is_a_400_in_words(client, cast, at_orders, action):
    """A forged form, or one from a page of before this check: never a 500, and nothing
    changes."""
    post = change(at_orders, action)
    before = state(at_orders)
    response = signed_in(client, cast["gm"]).post(action_url(at_orders, action), post)
    assert response.status_code == 400
    assert f"Nothing was changed. {OUT_OF_DATE}" in response.text
    assert state(at_orders) == before


def test_a_stale_htmx_post_returns_the_board_as_it_stands_with_why(client, cast, at_orders):
    before = state(at_orders)
    response = signed_in(client, cast["gm"]).post(
        action_url(at_orders, "extend"),
        {"hours": "5", "seen": newest(at_orders).number - 1},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="board"')
    assert html.escape(DRAWN_BEFORE) in response.text
    assert f'name="seen" value="{newest(at_orders).number}"' in response.text
    assert state(at_orders) == before


def test_a_form_sent_back_with_its_errors_carries_the_snapshot_the_page_now_shows(
    client, cast, at_orders
):
    response = signed_in(client, cast["gm"]).post(
        action_url(at_orders, "extend"),
        {"hours": "soon", "seen": newest(at_orders).number - 1},
        headers={"HX-Request": "true"},
    )
    assert "Give the hours as a whole number." in response.text
    extend = re.search(r'action="[^"]*/dashboard/extend/".*?</form>', response.text, re.S)
    assert extend is not None
    assert f'name="seen" value="{newest(at_orders).number}"' in extend.group(0)


def test_a_second_tab_does_not_advance_the_campaign_again(client, cast, campaign):
    """Issue 35: "Advance now" in one tab, then in a second tab that still shows the races.
    The capitals step opened by the first is left alone: the kingdom whose turn it is keeps
    its choice, and nobody is told a second time that it is their turn."""
    with_addresses(cast)
    signed_in(client, cast["gm"])
    first, second = page_of(client, campaign), page_of(client, campaign)  # two tabs
    drawn_at = re.search(r'name="seen" value="(\d+)"', first)
    assert drawn_at is not None
    assert drawn_at.group(0) in second
    advanced = client.post(
        action_url(campaign, "advance"), {"seen": drawn_at.group(1), "reason": ""}, follow=True
    )
    assert messages_of(advanced)[0].startswith("Advanced.")
    opened = newest(campaign)
    assert opened.data["clock"]["step"] == "capitals"
    told, before = Notification.objects.count(), state(campaign)

    response = client.post(
        action_url(campaign, "advance"), {"seen": drawn_at.group(1), "reason": ""}, follow=True
    )

    assert messages_of(response) == [f"Nothing was changed. {DRAWN_BEFORE}"]
    assert state(campaign) == before
    assert newest(campaign).number == opened.number
    assert newest(campaign).data["pending"] == opened.data["pending"]  # its turn still
    assert Notification.objects.count() == told


# --- nobody else may act --------------------------------------------------------------------

POSTS = {
    "start": {},
    "pause": {"reason": "x"},
    "resume": {"reason": "x"},
    "extend": {"hours": "5", "reason": "x"},
    "advance": {"reason": "x"},
    "undo": {"reason": "x"},
    "tile": {"hex": "HEX", "owner": "blue-dwarfs", "settlement": "", "reason": "x"},
    "army": {"army": "red-elves-1", "remove": "on", "reason": "x"},
    "resources": {"kingdom": "red-elves", "gold": "9", "food": "9", "reason": "x"},
}


# The status each action needs to change something.
NEEDS = {"start": Campaign.Status.OPEN, "resume": Campaign.Status.PAUSED}


@pytest.mark.parametrize("action", POSTS)
@pytest.mark.parametrize("visitor", ["gm", "alice", "bob", "eve", None])
def test_only_the_admin_may_act(client, cast, battle_waiting, action, visitor):
    """Each POST changes the campaign when its admin makes it (a battle waits, there is an
    advance to undo), and is refused to its players, to eve and to a signed-out visitor."""
    campaign, where = battle_waiting
    if action == "start":
        campaign = new_campaign(cast, "Not Yet Started", start=False)
    Campaign.objects.filter(pk=campaign.pk).update(
        status=NEEDS.get(action, Campaign.Status.RUNNING)
    )
    post = {k: f"{where[0]},{where[1]}" if v == "HEX" else v
            for k, v in POSTS[action].items()}  # fmt: skip
    before = state(campaign)
    if visitor is not None:
        signed_in(client, cast[visitor])
    if action != "start":
        post |= seen_now(campaign)
    response = client.post(action_url(campaign, action), post)
    if visitor == "gm":
        assert response.status_code == 302
        assert response.url == dashboard_url(campaign)
        assert state(campaign) != before
        return
    turned_away(response, visitor)
    assert state(campaign) == before


def test_an_unknown_action_or_a_get_is_refused(client, cast, campaign):
    signed_in(client, cast["gm"])
    assert client.post(action_url(campaign, "delete-everything")).status_code == 404
    assert client.get(action_url(campaign, "pause")).status_code == 405
    assert Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.RUNNING


def test_a_post_without_the_csrf_token_is_refused(cast, campaign):
    client = signed_in(Client(enforce_csrf_checks=True), cast["gm"])
    assert client.post(action_url(campaign, "pause")).status_code == 403
    assert Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.RUNNING


# --- htmx --------------------------------------------------------------------------------


def test_every_form_posts_without_javascript_and_with_htmx(client, cast, at_orders):
    page = page_of(signed_in(client, cast["gm"]), at_orders)
    forms = re.findall(r"<form ([^>]*)>", page)
    actions = [f for f in forms if "/dashboard/" in f]
    assert len(actions) >= 6
    for form in actions:
        action = re.search(r'action="([^"]+)"', form)
        assert action is not None
        assert 'method="post"' in form
        assert f'hx-post="{action.group(1)}"' in form
    assert page.count('name="csrfmiddlewaretoken"') >= len(actions)


def test_an_htmx_post_returns_the_refreshed_board(client, cast, campaign):
    response = signed_in(client, cast["gm"]).post(
        action_url(campaign, "pause"),
        {**seen_now(campaign), "reason": "holiday"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="board"')
    assert "<html" not in response.text
    assert "The campaign is paused" in response.text
    assert 'status-paused">Paused</dd>' in response.text
    assert "<summary>Advance now…</summary>" in response.text


def test_an_htmx_post_with_a_bad_value_returns_the_board_with_the_error(client, cast, campaign):
    response = signed_in(client, cast["gm"]).post(
        action_url(campaign, "extend"),
        {**seen_now(campaign), "hours": "soon"},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200  # htmx swaps only successful answers
    assert response.text.lstrip().startswith('<div id="board"')
    assert "Give the hours as a whole number." in response.text
    assert Campaign.objects.get(pk=campaign.pk).deadline == campaign.deadline


# --- the audit log and the queries -----------------------------------------------------------


def test_the_audit_log_shows_the_newest_fifty_with_who_what_and_why(client, cast, campaign):
    for n in range(60):
        admin.campaign_extend(campaign=campaign, actor=cast["gm"], hours=1, reason=f"r{n}")
    page = page_of(signed_in(client, cast["gm"]), campaign)
    assert page.count("<strong>gm</strong> extended the deadline; hours: 1") == 50
    assert "<q>r59</q>" in page
    assert "<q>r9</q>" not in page


def test_the_dashboard_takes_the_same_queries_on_a_small_and_a_large_campaign(client, cast):
    small = new_campaign(cast, "Small")
    big = new_campaign(cast, "Big", map_name="generated", size=1000)
    play_until(big, cast, lambda data: data["clock"]["month"] >= 2 and at_step("orders")(data))
    assert newest(big).number > newest(small).number + 3
    signed_in(client, cast["gm"])
    counts = []
    for campaign in (small, big):
        with first_visit_queries() as queries:
            page_of(client, campaign)
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]
