"""Which events make which messages, to whom: a campaign played a few steps by the bots
through the services, with e-mail addresses for the cast (gm runs it, alice rules Red Elves,
bob Blue Dwarfs), and a local stand-in for the campaign's Discord channel. E-mails land in
Django's locmem outbox (`mail.outbox`)."""

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import User
from battles.services import results
from campaign.models import Campaign, Snapshot
from campaign.services import common, setup, submissions
from campaign.signals import quietly, snapshot_stored
from campaign.transfer import exporting, importing
from notifications import digest, events, news, outbox
from notifications.discord import webhook_set
from notifications.events import on_snapshot_stored, remind
from notifications.models import Notification, Reminder
from notifications.tasks import queue_reminders
from tests.battles.conftest import hand_off, make_league
from tests.campaign.helpers import (
    LEAGUE_CAST,
    at_month,
    make_cast,
    new_campaign,
    play_until,
    signed_in,
)
from tests.notifications.notifying import (
    emails_of,
    rows,
    sent_to,
    username,
    with_addresses,
)

pytestmark = pytest.mark.django_db

DEADLINE = re.compile(r"\w{3} \d{1,2} \w{3}, \d\d:\d\d \((?P<zone>[\w/]+)\)")


def zone_of(subject: object) -> str:
    """The time zone of the deadline a subject gives."""
    found = DEADLINE.search(str(subject))
    assert found is not None, subject
    return found["zone"]


def set_webhook(campaign: Campaign, gm: User, url: str) -> None:
    webhook_set(campaign=campaign, actor=gm, url=url)


# --- a step opens -----------------------------------------------------------------------------


def test_the_start_asks_each_player_for_their_race_by_a_deadline_with_a_link(
    people, eager, django_capture_on_commit_callbacks
):
    people["alice"].time_zone = "Europe/London"
    people["alice"].save()
    with django_capture_on_commit_callbacks(execute=True):
        campaign = new_campaign(people)

    assert set(emails_of(campaign, "step")) == {"alice", "bob"}  # gm rules no kingdom
    (alices,) = sent_to("alice@example.org")
    assert alices.subject.startswith("[Autumn League] Choose your race by ")
    assert zone_of(alices.subject) == "Europe/London"
    assert "Red Elves, it is time to choose your race." in alices.body
    assert "after it the rulings' defaults decide" in alices.body
    assert f"https://testserver/c/{campaign.slug}/setup/" in alices.body
    assert "/notifications/unsubscribe/" in alices.body
    assert alices.extra_headers["List-Unsubscribe"].startswith(
        "<https://testserver/notifications/unsubscribe/"
    )
    (bobs,) = sent_to("bob@example.org")
    assert zone_of(bobs.subject) == "UTC"
    assert len(mail.outbox) == 2
    assert all(row.sent_at for row in rows(campaign))


def test_in_the_order_cycle_each_turn_is_told_to_the_one_kingdom_asked(people):
    campaign = new_campaign(people, options={"orders": "cycle"})
    play_until(campaign, people, at_month(1, 2))

    players = {m.kingdom: m.user.get_username() for m in campaign.memberships.exclude(kingdom="")}
    turns = 0
    for snapshot in campaign.snapshots.order_by("number"):
        if snapshot.data["clock"]["step"] != "orders":
            continue
        asked = {p["kingdom"] for p in snapshot.data["pending"]}
        told = rows(campaign, dedupe_key__startswith=f"step:{campaign.pk}:{snapshot.number}:u")
        assert len(asked) == 1
        assert [username(row) for row in told] == [players[k] for k in asked]
        assert told[0].subject.startswith("[Autumn League] Your turn: give your orders by ")
        assert told[0].link.endswith(f"/c/{campaign.slug}/orders/")
        turns += 1
    assert turns >= 3


def test_a_decision_asked_of_one_kingdom_alone_is_its_turn():
    data: dict[str, Any] = {
        "options": {"orders": "sealed"},
        "kingdoms": [{"id": "red"}, {"id": "blue"}],
        "pending": [{"kind": "tithes", "kingdom": "red"}],
    }
    assert news._your_turn(data, "red", ["tithes"])
    data["pending"].append({"kind": "tithes", "kingdom": "blue"})
    assert not news._your_turn(data, "red", ["tithes"])


def test_only_what_is_newly_asked_is_told_and_a_tabletop_result_is_left_to_the_hand_off():
    clock = {"year": 1, "season": "summer", "month": 1, "step": "battles"}
    before = [{"kind": "retreat", "kingdom": "red"}]
    now = [*before, {"kind": "battle_choice", "kingdom": "blue"}]
    now.append({"kind": "battle_result", "kingdom": "red"})
    assert news.newly_asked(clock, before, clock, now) == {"blue": ["battle_choice"]}
    later = {**clock, "month": 2, "step": "orders"}
    asked = [{"kind": "orders", "kingdom": "red"}]
    assert news.newly_asked(clock, asked, later, asked) == {"red": ["orders"]}


# --- the month, the end -----------------------------------------------------------------------


def test_a_month_over_tells_everyone_with_a_link_to_its_report(people, client):
    campaign = new_campaign(people)
    play_until(campaign, people, at_month(1, 2))

    month = rows(campaign, kind="month", channel="email")
    began = campaign.snapshots.get(
        number=int(month[-1].dedupe_key.split(":")[2])
    )  # month:<campaign>:<snapshot>:u<user>
    assert began.data["clock"]["month"] == 2
    last = [
        row for row in month if row.dedupe_key.startswith(f"month:{campaign.pk}:{began.number}:")
    ]
    assert {username(row) for row in last} == {"gm", "alice", "bob"}
    assert last[0].subject == "[Autumn League] Year 1, summer month 1 is over: read its report"
    assert last[0].link == f"https://testserver/c/{campaign.slug}/report/{began.number}/"
    page = signed_in(client, people["alice"]).get(last[0].link.removeprefix("https://testserver"))
    assert page.status_code == 200
    # The setup's end was told too, once, and each month only once.
    keys = {row.dedupe_key.rsplit(":", 1)[0] for row in month}
    assert len(keys) == 2


def test_the_end_tells_everyone_who_won_with_a_link_to_the_end(people, client):
    campaign = new_campaign(people, options={"years": 1, "months": 1})
    play_until(campaign, people, lambda data: data["clock"]["season"] == "ended")

    ended = emails_of(campaign, "ended")
    assert set(ended) == {"gm", "alice", "bob"}
    letter = ended["alice"]
    assert letter.subject == "[Autumn League] The campaign has ended"
    assert re.search(r"(Red Elves|Blue Dwarfs)( and \w+ \w+)? (wins|share)", letter.body)
    assert letter.link == f"https://testserver/c/{campaign.slug}/story/end/"
    page = signed_in(client, people["bob"]).get(letter.link.removeprefix("https://testserver"))
    assert page.status_code == 200
    newest = common.latest_snapshot(campaign).number
    assert not rows(campaign, dedupe_key__startswith=f"step:{campaign.pk}:{newest}:")
    assert not rows(campaign, dedupe_key__startswith=f"month:{campaign.pk}:{newest}:")


# --- nothing twice ----------------------------------------------------------------------------


def test_a_snapshot_announced_twice_writes_its_messages_once(people):
    announced: list[Snapshot] = []

    def keep(*, snapshot: Snapshot, **_: Any) -> None:
        announced.append(snapshot)

    snapshot_stored.connect(keep, weak=False, dispatch_uid="test-keep")
    try:
        campaign = new_campaign(people)
        play_until(campaign, people, at_month(1, 1))
    finally:
        snapshot_stored.disconnect(dispatch_uid="test-keep")
    snapshot = announced[-1]
    written = Notification.objects.count()
    its = Notification.objects.filter(dedupe_key__contains=f":{campaign.pk}:{snapshot.number}:")
    assert its.count() == 5  # the setup is over (3), and orders are asked (2)

    snapshot_stored.send(sender=Snapshot, campaign=campaign, snapshot=snapshot, imported=False)
    on_snapshot_stored(campaign=campaign, snapshot=snapshot, imported=False)
    assert Notification.objects.count() == written

    its.filter(user=people["bob"], kind="step").delete()  # the receiver does write them
    on_snapshot_stored(campaign=campaign, snapshot=snapshot, imported=False)
    assert Notification.objects.count() == written


def test_a_snapshot_announced_as_imported_tells_nobody(people):
    campaign = new_campaign(people)
    snapshot = common.latest_snapshot(campaign)
    Notification.objects.all().delete()

    on_snapshot_stored(campaign=campaign, snapshot=snapshot, imported=True)
    assert not Notification.objects.exists()

    on_snapshot_stored(campaign=campaign, snapshot=snapshot, imported=False)
    assert set(emails_of(campaign, "step")) == {"alice", "bob"}


def test_an_imported_campaign_tells_nobody_of_its_history(people):
    campaign = new_campaign(people)
    play_until(campaign, people, at_month(1, 2))
    written = Notification.objects.count()

    copy = importing.campaign_import(exporting.campaign_export(campaign), slug="copy")

    assert copy.snapshots.count() == campaign.snapshots.count()
    assert Notification.objects.count() == written


# --- battles ----------------------------------------------------------------------------------


@pytest.fixture
def league():
    cast = with_addresses(make_cast(LEAGUE_CAST))
    return make_league(cast), cast


def test_a_battle_handed_off_tells_both_its_players_with_its_card(league):
    campaign, cast = league
    battle = hand_off(campaign, cast)
    assert battle is not None

    told = emails_of(campaign, "battle")
    assert set(told) == {"alice", "bob"}  # carol plays, but not in this battle
    card = f"https://testserver/c/{campaign.slug}/battles/{battle.number}/"
    assert told["alice"].link == card
    assert told["alice"].subject == (
        "[Autumn League] Your battle against Brightwater goes to the tabletop"
    )
    assert "report the result on its card by" in told["bob"].body


def test_a_report_asks_the_opponent_and_a_dispute_tells_the_reporter_and_the_admins(league):
    campaign, cast = league
    battle = hand_off(campaign, cast)
    assert battle is not None

    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    asked = emails_of(campaign, "report")
    assert set(asked) == {"bob"}
    assert (
        asked["bob"].subject
        == "[Autumn League] Confirm the result of your battle against Aldermark"
    )
    assert "alice (Aldermark) reports the result of your battle" in asked["bob"].body
    assert "Aldermark won" in asked["bob"].body

    results.battle_dispute(report=report, user=cast["bob"], reason="We drew, in fact.")
    disputed = emails_of(campaign, "dispute")
    assert set(disputed) == {"alice", "gm"}
    assert disputed["alice"].link.endswith(f"/battles/{battle.number}/")
    assert disputed["gm"].link.endswith(f"/c/{campaign.slug}/battles/admin/")
    assert "“We drew, in fact.”" in disputed["gm"].body

    again = events.result_reported(
        campaign=campaign, report_id=report.pk, reporter=cast["alice"], kingdom="aldermark",
        opponent="brightwater", hex=battle.hex, result="win", winner="aldermark", link="/x/",
    )  # fmt: skip
    assert again == 1  # offered once more, and ignored: one row per event and recipient
    assert len(rows(campaign, kind="report")) == 1


# --- reminders --------------------------------------------------------------------------------


def set_deadline(campaign: Campaign, due: timedelta) -> None:
    Campaign.objects.filter(pk=campaign.pk).update(deadline=timezone.now() + due)
    campaign.refresh_from_db()


def test_reminders_go_a_day_and_two_hours_before_to_each_player_not_ready(people):
    campaign = new_campaign(people)
    submissions.submission_save(
        campaign=campaign, user=people["alice"], kind="races", payload="Elves"
    )
    submissions.submission_set_ready(campaign=campaign, user=people["alice"])
    set_deadline(campaign, timedelta(hours=12))

    assert queue_reminders() == 1
    assert queue_reminders() == 0
    (day,) = rows(campaign, kind="reminder", channel="email")
    assert day.user == people["bob"]
    assert day.subject == "[Autumn League] 24 hours left to choose your race"
    assert day.link.endswith(f"/c/{campaign.slug}/setup/")

    set_deadline(campaign, timedelta(minutes=90))
    assert remind() == 1
    assert remind() == 0
    hours = rows(campaign, kind="reminder", channel="email")[1]
    assert hours.subject == "[Autumn League] 2 hours left to choose your race"
    assert sorted(Reminder.objects.values_list("hours_before", flat=True)) == [2, 24]

    assert outbox.send(hours.pk) == "sent"
    assert Reminder.objects.get(hours_before=2).sent_at is not None
    assert Reminder.objects.get(hours_before=24).sent_at is None


def test_a_deadline_under_two_hours_away_gets_only_the_two_hour_reminder(people):
    campaign = new_campaign(people)
    set_deadline(campaign, timedelta(minutes=30))

    assert remind() == 2
    assert set(Reminder.objects.values_list("hours_before", flat=True)) == {2}


# --- who gets nothing -------------------------------------------------------------------------


def test_no_email_of_a_kind_a_user_turned_off_nor_to_a_user_without_an_address(people):
    digest.choices_save(user=people["alice"], email_off=["step"], digest=False)
    people["gm"].email = ""
    people["gm"].save()
    campaign = new_campaign(people)
    play_until(campaign, people, at_month(1, 1))

    assert "alice" not in {username(row) for row in rows(campaign, kind="step")}
    assert rows(campaign, kind="step", user=people["bob"])
    assert rows(campaign, kind="month", user=people["alice"])
    assert not rows(campaign, user=people["gm"])


def test_a_message_written_before_its_recipient_opted_out_is_dropped_not_sent(people):
    campaign = new_campaign(people)  # the rows are written; their tasks never ran
    digest.choices_save(user=people["alice"], email_off=["step"], digest=False)

    assert outbox.sweep(timezone.now() + timedelta(minutes=1)) == 1

    assert [m.to for m in mail.outbox] == [["bob@example.org"]]
    (dropped,) = rows(campaign, user=people["alice"])
    assert dropped.sent_at is None
    assert dropped.given_up_at is not None
    assert dropped.last_error == "Its recipient turned this kind of e-mail off."


# --- Discord ----------------------------------------------------------------------------------


def test_discord_gets_one_post_per_event_naming_the_players_with_a_link(
    people, discord, eager, django_capture_on_commit_callbacks
):
    campaign = new_campaign(people, start=False)
    set_webhook(campaign, people["gm"], discord.url)
    with django_capture_on_commit_callbacks(execute=True):
        setup.campaign_start(campaign=campaign, actor=people["gm"])

    (post,) = rows(campaign, channel="discord")
    assert post.kind == "step"
    (content,) = discord.contents
    assert content.startswith("**Autumn League** · the setup\n")
    assert "alice (Red Elves), choose your race" in content
    assert "bob (Blue Dwarfs), choose your race" in content
    assert re.search(r"Deadline: <t:\d+:f> \(<t:\d+:R>\)", content)
    assert content.endswith(f"<https://testserver/c/{campaign.slug}/setup/>")
    assert discord.bodies[0]["allowed_mentions"] == {"parse": []}
    assert len(mail.outbox) == 2


def test_names_in_a_discord_post_are_shown_as_typed_never_as_markdown_or_links(
    people, discord, eager, django_capture_on_commit_callbacks
):
    """Issue 26, point 6: a campaign or kingdom name is text in Discord."""
    campaign = new_campaign(people, start=False)
    Campaign.objects.filter(pk=campaign.pk).update(name="**Gold** [here](https://evil.example)")
    campaign.memberships.filter(kingdom_name="Red Elves").update(kingdom_name="Red_Elves <@1>")
    campaign.refresh_from_db()
    set_webhook(campaign, people["gm"], discord.url)
    with django_capture_on_commit_callbacks(execute=True):
        setup.campaign_start(campaign=campaign, actor=people["gm"])
    (content,) = discord.contents
    assert content.startswith("**\\*\\*Gold\\*\\* \\[here\\](https:\\/\\/evil.example)** · ")
    assert "alice (Red\\_Elves \\<@1\\>), choose your race" in content
    assert re.search(r"Deadline: <t:\d+:f> \(<t:\d+:R>\)", content)  # its own marks kept


def test_discord_hears_of_battles_reports_and_disputes(league, discord):
    campaign, cast = league
    set_webhook(campaign, cast["gm"], discord.url)
    battle = hand_off(campaign, cast)
    assert battle is not None
    report = results.battle_report(battle=battle, user=cast["alice"], result="draw", winner="")
    results.battle_dispute(report=report, user=cast["bob"], reason="No.")

    posts = {row.kind: row for row in rows(campaign, channel="discord")}
    assert {"battle", "report", "dispute"} <= set(posts)
    assert "goes to the tabletop: bob (Brightwater) and alice (Aldermark)." in posts["battle"].body
    assert "Waiting for bob (Brightwater) to confirm." in posts["report"].body
    assert "the admins decide" in posts["dispute"].body
    assert "No." not in posts["dispute"].body  # the reason stays out of the channel


def test_nothing_is_written_while_the_campaign_tells_nobody(people):
    with quietly():
        campaign = new_campaign(people)
        play_until(campaign, people, at_month(1, 1))

    assert not rows(campaign)
