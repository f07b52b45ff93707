"""The outbox's sending: each row sent exactly once however often its task runs, by the sweep
when its task was lost or its worker died, retried with back-off when the mail server or
Discord fails (a local HTTP server stands in for Discord, never the real one), and the
daily digest. The last test runs two real Celery workers on Redis and PostgreSQL."""

import smtplib
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.core import mail
from django.core.mail import EmailMessage
from django.utils import timezone

from accounts.models import User
from campaign.models import Campaign
from campaign.services import setup
from config.celery import app as celery_app
from notifications.digest import choices_save, send_digests
from notifications.discord import webhook_remove, webhook_set
from notifications.models import Notification, NotificationChoices
from notifications.outbox import back_off, send, sweep
from notifications.tasks import (
    send_due_notifications,
    send_notification_digests,
    send_notifications,
)
from tests.campaign.helpers import new_campaign
from tests.conftest import celery_worker
from tests.notifications.notifying import rows, sent_to

pytestmark = pytest.mark.django_db


def later(minutes: float) -> datetime:
    return timezone.now() + timedelta(minutes=minutes)


def started_with_discord(people: dict[str, User], url: str) -> tuple[Campaign, Notification]:
    """The campaign started with a webhook: its one Discord post, written, not yet sent."""
    campaign = new_campaign(people, start=False)
    webhook_set(campaign=campaign, actor=people["gm"], url=url)
    setup.campaign_start(campaign=campaign, actor=people["gm"])
    (post,) = rows(campaign, channel="discord")
    return campaign, post


# --- exactly once -----------------------------------------------------------------------------


def test_rows_whose_task_never_ran_are_sent_once_by_the_sweep(people):
    campaign = new_campaign(people)  # written on commit's eve; no task ever ran
    assert mail.outbox == []
    assert sweep() == 0  # their own tasks still have their chance

    assert sweep(later(1)) == 2
    assert sweep(later(2)) == 0
    assert send_due_notifications() == 0

    assert sorted(m.to[0] for m in mail.outbox) == ["alice@example.org", "bob@example.org"]
    assert all(row.sent_at and row.attempts == 1 for row in rows(campaign))


def test_the_same_task_run_twice_sends_one_email(people):
    campaign = new_campaign(people)
    row = rows(campaign, user=people["alice"])[0]

    assert send_notifications([row.pk]) == ["sent"]
    assert send_notifications([row.pk]) == ["skipped"]
    assert send_notifications.apply(([row.pk],)).get() == ["skipped"]

    assert len(sent_to("alice@example.org")) == 1


class WorkerDied(BaseException):
    """What a worker killed mid-task looks like from inside: nothing after it runs."""


def test_a_worker_that_dies_while_sending_leaves_the_row_to_the_sweep(people, monkeypatch):
    campaign = new_campaign(people)
    row = rows(campaign, user=people["alice"])[0]

    def die(self, *args, **kwargs):
        raise WorkerDied

    with monkeypatch.context() as patched:
        patched.setattr(EmailMessage, "send", die)
        with pytest.raises(WorkerDied):
            send(row.pk)  # claimed (locked), then the worker died: its transaction rolls back

    row.refresh_from_db()
    assert (row.sent_at, row.attempts, row.given_up_at) == (None, 0, None)
    assert sweep(later(1)) == 2
    assert sweep(later(2)) == 0
    assert len(sent_to("alice@example.org")) == 1


def test_the_rows_a_change_writes_go_in_one_task_once_it_commits(
    people, monkeypatch, django_capture_on_commit_callbacks
):
    queued = []

    def record(args, kwargs=None, **options):
        queued.append((args, options))

    monkeypatch.setattr(send_notifications, "apply_async", record)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        campaign = new_campaign(people)
    assert queued == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert [sorted(args[0]) for args, _ in queued] == [sorted(row.pk for row in rows(campaign))]


def test_the_whole_path_with_eager_tasks(people, run):
    campaign = new_campaign(people, start=False)
    run(setup.campaign_start, campaign=campaign, actor=people["gm"])

    assert len(mail.outbox) == 2
    assert all(row.sent_at for row in rows(campaign))


# --- retries ----------------------------------------------------------------------------------


def test_the_back_off_doubles_from_a_minute_to_six_hours_at_most():
    waits = [back_off(n) for n in range(1, 12)]
    assert waits[:4] == [timedelta(minutes=m) for m in (1, 2, 4, 8)]
    assert max(waits) == timedelta(hours=6)


def test_a_mail_server_error_is_retried_after_its_back_off(people, monkeypatch):
    campaign = new_campaign(people)
    row = rows(campaign, user=people["alice"])[0]
    real_send = EmailMessage.send
    failures = [smtplib.SMTPServerDisconnected("Connection unexpectedly closed")]

    def flaky(self, *args, **kwargs):
        if failures:
            raise failures.pop()
        return real_send(self, *args, **kwargs)

    monkeypatch.setattr(EmailMessage, "send", flaky)
    now = timezone.now()
    assert send(row.pk, now=now) == "failed"
    row.refresh_from_db()
    assert row.attempts == 1
    assert row.due_at == now + timedelta(minutes=1)
    assert row.last_error == "SMTPServerDisconnected: Connection unexpectedly closed"
    assert send(row.pk, now=now + timedelta(seconds=59)) == "skipped"  # not due yet

    assert send(row.pk, now=now + timedelta(minutes=1)) == "sent"
    assert len(sent_to("alice@example.org")) == 1


def test_discord_failing_then_answering_is_retried_with_back_off_and_posted_once(people, discord):
    discord.answers.append((500, {"message": "Internal Server Error"}))
    _, post = started_with_discord(people, discord.url)

    now = timezone.now()
    assert send(post.pk, now=now) == "failed"
    post.refresh_from_db()
    assert post.last_error == "DeliveryError: Discord answered 500"
    assert discord.url not in post.last_error
    assert post.due_at == now + timedelta(minutes=1)
    assert sweep(now + timedelta(seconds=30)) == 2  # the two e-mails; the post is not due

    assert sweep(now + timedelta(minutes=2)) == 1
    assert sweep(now + timedelta(minutes=3)) == 0
    post.refresh_from_db()
    assert post.sent_at is not None
    assert post.attempts == 2
    assert len(discord.bodies) == 2
    assert discord.bodies[0] == discord.bodies[1]


def test_discord_asking_to_wait_is_waited_for_as_long_as_it_asks(people, discord):
    discord.answers.append((429, {"message": "You are being rate limited.", "retry_after": 42.5}))
    _, post = started_with_discord(people, discord.url)

    now = timezone.now()
    assert send(post.pk, now=now) == "failed"
    post.refresh_from_db()
    assert post.due_at == now + timedelta(seconds=42.5)
    assert send(post.pk, now=now + timedelta(seconds=43)) == "sent"


def test_discord_not_answering_in_time_is_a_failure(people, discord, monkeypatch):
    monkeypatch.setattr("notifications.discord.DISCORD_TIMEOUT", 0.2)
    discord.delay = 1.0
    _, post = started_with_discord(people, discord.url)

    assert send(post.pk) == "failed"
    post.refresh_from_db()
    assert "Discord did not answer" in post.last_error
    assert post.sent_at is None


def test_a_message_failing_every_time_is_given_up_after_ten_attempts(people, discord):
    discord.answers.extend([(502, None)] * 20)
    _, post = started_with_discord(people, discord.url)

    now = timezone.now()
    for attempt in range(1, 11):
        assert send(post.pk, now=now) == ("gave up" if attempt == 10 else "failed")
        now += timedelta(hours=7)
    post.refresh_from_db()
    assert post.given_up_at is not None
    assert send(post.pk, now=now) == "skipped"
    assert sweep(now + timedelta(days=1)) == 2  # the start's two e-mails; not the post
    assert len(discord.bodies) == 10


def test_a_post_whose_webhook_was_removed_is_dropped(people, discord):
    campaign, post = started_with_discord(people, discord.url)
    webhook_remove(campaign=campaign, actor=people["gm"])

    assert send(post.pk) == "dropped"
    assert discord.bodies == []


# --- the digest -------------------------------------------------------------------------------


def at(hour: int, minute: int = 0, day: int = 3) -> datetime:
    return datetime(2031, 3, day, hour, minute, tzinfo=UTC)


def test_a_digest_user_gets_one_email_a_day_of_what_was_held(people, run):
    choices_save(user=people["alice"], email_off=[], digest=True)
    campaign = new_campaign(people, start=False)
    run(setup.campaign_start, campaign=campaign, actor=people["gm"])
    assert sent_to("alice@example.org") == []  # held for her digest
    assert len(sent_to("bob@example.org")) == 1
    (held,) = rows(campaign, user=people["alice"])
    assert held.held

    assert send_digests(at(6, 59)) == 0
    assert run(send_digests, now=at(7, 5)) == 1
    assert run(send_digests, now=at(7, 20)) == 0  # one a day
    assert run(send_digests, now=at(7, 5, day=4)) == 0  # nothing new: no e-mail

    (digest,) = sent_to("alice@example.org")
    assert digest.subject == "Mighty Kingdoms: 1 message for you"
    assert "Autumn League\n- Choose your race by " in digest.body
    assert f"  https://testserver/c/{campaign.slug}/setup/" in digest.body
    assert "Stop every e-mail from Mighty Kingdoms:" in digest.body
    held.refresh_from_db()
    assert held.sent_at is not None
    assert held.digest is not None


def test_the_digest_comes_at_seven_in_the_users_own_time_zone(people):
    people["alice"].time_zone = "America/New_York"  # UTC-5 in early March
    people["alice"].save()
    choices_save(user=people["alice"], email_off=[], digest=True)
    new_campaign(people)

    assert send_digests(at(7, 5)) == 0
    assert send_digests(at(12, 5)) == 1
    assert send_notification_digests() == 0  # today's is written


def test_turning_the_digest_off_sends_what_it_held_at_once_in_one_email(people, run):
    choices_save(user=people["alice"], email_off=[], digest=True)
    new_campaign(people)
    assert rows(user=people["alice"], held=True)

    run(choices_save, user=people["alice"], email_off=[], digest=False)

    (digest,) = sent_to("alice@example.org")
    assert digest.subject == "Mighty Kingdoms: 1 message for you"
    assert NotificationChoices.objects.get(user=people["alice"]).digest is False


# --- the beat ---------------------------------------------------------------------------------


def test_the_beat_sweeps_each_minute_and_looks_for_digests_every_quarter_hour():
    schedule = {
        entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    assert schedule[send_due_notifications.name] == 60.0
    assert schedule[send_notification_digests.name] == 900.0
    assert send_notifications.name in celery_app.tasks


# --- the real thing: two workers on Redis race for one row, on PostgreSQL ---------------------


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_real_workers_sending_the_same_row_post_it_once(
    postgres, redis_url, tmp_path, people, discord
):
    """The same row's task goes to two worker processes at once; Discord (the stand-in)
    takes a second to answer, so the second to come finds the row locked (`skip_locked`)
    or already sent, and skips it: the post is made once."""
    discord.delay = 1.0
    _, post = started_with_discord(people, discord.url)
    with (
        celery_worker(redis_url, tmp_path / "one.log") as one,
        celery_worker(redis_url, tmp_path / "two.log") as two,
    ):
        results = [
            send_notifications.apply_async(([post.pk],), queue=worker.queue)
            for worker in (one, two)
        ]
        said = sorted(said for result in results for said in result.get(timeout=60))
        logs = one.log.read_text() + two.log.read_text()
    assert said == ["sent", "skipped"], logs
    assert len(discord.bodies) == 1
    post.refresh_from_db()
    assert post.sent_at is not None
    assert post.attempts == 1
