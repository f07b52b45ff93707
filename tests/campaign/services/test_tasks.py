"""The background tasks: the advance a ready kingdom or a deadline queues, and what the
beat runs each minute (deadlines due, reminders). Eager runs in this process for the
rules of each task; a real Celery worker on Redis and PostgreSQL for the whole path."""

import time
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from accounts.models import User
from campaign.models import AuditEntry, Campaign, Snapshot
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.services import advancing, common, members, setup, submissions
from campaign.services.common import ServiceError
from campaign.tasks import advance_campaign, advance_due_campaigns
from config.celery import app as celery_app
from notifications.models import Reminder
from notifications.tasks import queue_reminders
from tests.conftest import celery_worker

PASSWORD = "a-long-test-password"


def running_campaign(name: str, kingdoms: tuple[str, ...] = ("Red", "Blue")) -> Campaign:
    """A campaign started through the services, waiting for the kingdoms' races."""
    admin = User.objects.create_user(f"{name}-admin", password=PASSWORD)
    campaign = setup.campaign_create(
        name=name, admin=admin, kingdoms=len(kingdoms), map_name="borderlands"
    )
    for kingdom in kingdoms:
        user = User.objects.create_user(f"{name}-{kingdom}", password=PASSWORD)
        members.campaign_join(campaign=campaign, user=user, kingdom_name=kingdom)
    setup.campaign_start(campaign=campaign, actor=admin)
    campaign.refresh_from_db()
    return campaign


def ruler(campaign: Campaign, kingdom: str) -> User:
    return campaign.memberships.get(kingdom=kingdom).user


def set_deadline(campaign: Campaign, due: timedelta) -> None:
    """The current step falls due `due` from now (negative: it has passed)."""
    Campaign.objects.filter(pk=campaign.pk).update(deadline=timezone.now() + due)
    campaign.refresh_from_db()


def numbers(campaign: Campaign) -> list[int]:
    return list(campaign.snapshots.order_by("number").values_list("number", flat=True))


# --- advance_campaign -----------------------------------------------------------------


@pytest.mark.django_db
def test_advancing_twice_from_the_same_snapshot_advances_once():
    campaign = running_campaign("Twice")

    assert advance_campaign(campaign.pk, 1, defaults=True) == 2
    assert advance_campaign(campaign.pk, 1, defaults=True) is None

    assert numbers(campaign) == [1, 2]


@pytest.mark.django_db
def test_an_advance_of_an_ended_campaign_does_nothing():
    campaign = running_campaign("Over")
    Campaign.objects.filter(pk=campaign.pk).update(status=Campaign.Status.ENDED)

    assert advance_campaign(campaign.pk, 1, defaults=True) is None
    assert numbers(campaign) == [1]


def test_a_transient_database_error_is_retried_with_backoff():
    task: Any = advance_campaign  # the stubs know no autoretry options
    assert OperationalError in task.autoretry_for
    assert task.retry_backoff
    assert task.max_retries


@pytest.mark.django_db
def test_an_advance_that_loses_its_database_connection_runs_again(monkeypatch):
    campaign = running_campaign("Flaky")
    calls = []
    real_advance = advancing.campaign_advance

    def flaky_advance(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise OperationalError("server closed the connection unexpectedly")
        return real_advance(**kwargs)

    monkeypatch.setattr(advancing, "campaign_advance", flaky_advance)
    result = advance_campaign.apply((campaign.pk, 1), {"defaults": True})

    assert result.get() == 2
    assert len(calls) == 2
    assert numbers(campaign) == [1, 2]


@pytest.mark.django_db
def test_a_refused_advance_is_not_retried_but_fails_for_the_log(monkeypatch):
    campaign = running_campaign("Refused")
    calls = []

    def refusing_advance(**kwargs):
        calls.append(kwargs)
        raise ServiceError("The rules refuse it.", code="bad")

    monkeypatch.setattr(advancing, "campaign_advance", refusing_advance)
    result = advance_campaign.apply((campaign.pk, 1), {"defaults": True})

    assert result.failed()
    assert isinstance(result.result, ServiceError)
    assert len(calls) == 1


@pytest.mark.django_db
def test_a_deadline_advance_the_rules_refuse_is_recorded_and_pauses_the_campaign(
    monkeypatch, eager
):
    campaign = running_campaign("Audited")
    set_deadline(campaign, -timedelta(minutes=1))

    def refusing_engine(data, **flags):
        raise RuleError("bad-order", "inputs.orders.red[0]", "Red's army cannot go there.")

    monkeypatch.setattr("campaign.services.advancing.advance", refusing_engine)
    with pytest.raises(ServiceError):
        advance_due_campaigns()

    entry = AuditEntry.objects.get(campaign=campaign, action="advance-refused")
    assert entry.details["code"] == "bad-order"
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.PAUSED  # not due again every minute
    assert numbers(campaign) == [1]
    assert advancing.campaigns_due() == []


@pytest.mark.django_db
def test_the_last_kingdom_ready_queues_the_advance_after_commit(
    eager, django_capture_on_commit_callbacks
):
    campaign = running_campaign("Ready")
    for kingdom, race in (("red", "Elves"), ("blue", "Dwarfs")):
        user = ruler(campaign, kingdom)
        submissions.submission_save(campaign=campaign, user=user, kind="races", payload=race)
        with django_capture_on_commit_callbacks(execute=True) as queued:
            submissions.submission_set_ready(campaign=campaign, user=user)
        assert len(queued) == (kingdom == "blue")

    assert numbers(campaign) == [1, 2]
    advanced = campaign.snapshots.get(number=2)
    assert not advanced.defaults
    assert advanced.decisions["races"] == {"red": "Elves", "blue": "Dwarfs"}
    assert advanced.data["clock"]["step"] == "capitals"


# --- advance_due_campaigns -----------------------------------------------------------


@pytest.mark.django_db
def test_only_running_campaigns_past_their_deadline_advance_with_the_defaults(eager):
    due = running_campaign("Due")
    set_deadline(due, -timedelta(minutes=1))
    future = running_campaign("Future")
    set_deadline(future, timedelta(minutes=1))
    paused = running_campaign("Paused")
    Campaign.objects.filter(pk=paused.pk).update(
        status=Campaign.Status.PAUSED, deadline=timezone.now() - timedelta(minutes=1)
    )
    ended = running_campaign("Ended")
    Campaign.objects.filter(pk=ended.pk).update(
        status=Campaign.Status.ENDED, deadline=timezone.now() - timedelta(minutes=1)
    )

    assert advance_due_campaigns() == 1

    assert numbers(due) == [1, 2]
    assert [numbers(c) for c in (future, paused, ended)] == [[1], [1], [1]]
    advanced = due.snapshots.get(number=2)
    assert advanced.defaults
    assert advanced.reason == Snapshot.Reason.ADVANCE
    assert advanced.data == advance(due.snapshots.get(number=1).data, defaults_now=True)
    assert advanced.data["clock"]["step"] == "capitals"  # the races' deadline, and no more
    due.refresh_from_db()
    assert due.deadline is not None
    assert due.deadline > timezone.now()


@pytest.mark.django_db
def test_a_deadline_advance_uses_drafts_not_marked_ready(eager):
    campaign = running_campaign("Drafts")
    set_deadline(campaign, -timedelta(minutes=1))
    submissions.submission_save(
        campaign=campaign, user=ruler(campaign, "red"), kind="races", payload="Ogres"
    )

    advance_due_campaigns()

    advanced = campaign.snapshots.get(number=2)
    assert advanced.decisions == {"races": {"red": "Ogres"}}
    assert advanced.submissions.get().kingdom == "red"
    races = {k["id"]: k["race"] for k in advanced.data["kingdoms"]}
    assert races["red"] == "Ogres"
    assert races["blue"] != "Ogres"


@pytest.mark.django_db
def test_the_beat_runs_the_deadline_advance_and_the_reminders_each_minute():
    schedule = {
        entry["task"]: entry["schedule"] for entry in settings.CELERY_BEAT_SCHEDULE.values()
    }
    assert schedule[advance_due_campaigns.name] == 60.0
    assert schedule[queue_reminders.name] == 60.0
    assert all(task in celery_app.tasks for task in schedule)


# --- queue_reminders -----------------------------------------------------------------


@pytest.mark.django_db
def test_a_reminder_goes_to_each_kingdom_still_owing_a_decision_a_day_before():
    campaign = running_campaign("Remind")
    set_deadline(campaign, timedelta(hours=12))
    red = ruler(campaign, "red")
    submissions.submission_save(campaign=campaign, user=red, kind="races", payload="Elves")
    submissions.submission_set_ready(campaign=campaign, user=red)

    assert queue_reminders() == 1

    reminder = Reminder.objects.get(campaign=campaign)
    assert (reminder.kingdom, reminder.snapshot) == ("blue", 1)
    assert reminder.deadline == campaign.deadline
    assert reminder.sent_at is None


@pytest.mark.django_db
def test_a_draft_not_marked_ready_is_still_owed():
    campaign = running_campaign("Draft")
    set_deadline(campaign, timedelta(hours=12))
    submissions.submission_save(
        campaign=campaign, user=ruler(campaign, "red"), kind="races", payload="Elves"
    )

    assert queue_reminders() == 2


@pytest.mark.django_db
def test_a_kingdom_is_reminded_once_per_step():
    campaign = running_campaign("Once")
    set_deadline(campaign, timedelta(hours=12))

    assert queue_reminders() == 2
    assert queue_reminders() == 0
    assert Reminder.objects.filter(campaign=campaign).count() == 2

    advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1, defaults=True)
    set_deadline(campaign, timedelta(hours=11))
    assert queue_reminders() == 0  # a 12-hour turn: no "24 hours left", it was told at once
    set_deadline(campaign, timedelta(hours=1))
    assert queue_reminders() == 1  # the first capital's turn: one kingdom is asked
    assert sorted(Reminder.objects.values_list("snapshot", flat=True)) == [1, 1, 2]


@pytest.mark.django_db
def test_no_reminder_more_than_a_day_before_the_deadline():
    campaign = running_campaign("Early")
    set_deadline(campaign, timedelta(hours=25))

    assert queue_reminders() == 0


@pytest.mark.django_db
def test_no_reminder_once_the_deadline_has_passed():
    campaign = running_campaign("Late")
    set_deadline(campaign, -timedelta(minutes=1))

    assert queue_reminders() == 0


@pytest.mark.django_db
def test_no_reminder_in_a_paused_or_ended_campaign():
    for status in (Campaign.Status.PAUSED, Campaign.Status.ENDED):
        campaign = running_campaign(f"Quiet {status}")
        Campaign.objects.filter(pk=campaign.pk).update(
            status=status, deadline=timezone.now() + timedelta(hours=1)
        )

    assert queue_reminders() == 0


# --- the real thing: a worker on Redis, the test database on PostgreSQL --------------


def newest_number(campaign: Campaign) -> int:
    return common.latest_snapshot(campaign).number


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_worker_advances_a_campaign_whose_deadline_passed(postgres, redis_url, tmp_path):
    """The beat's task, run by a worker process on the real Redis broker, finds the
    campaign due in the PostgreSQL test database and queues its advance, which the same
    worker runs: the new snapshot took the deadline defaults."""
    campaign = running_campaign("Deadline")
    set_deadline(campaign, -timedelta(minutes=1))
    first = common.latest_snapshot(campaign)
    with celery_worker(redis_url, tmp_path / "worker.log") as worker:
        result = advance_due_campaigns.apply_async(
            kwargs={"queue": worker.queue}, queue=worker.queue
        )
        assert result.get(timeout=60) == 1, worker.log.read_text()
        give_up = time.monotonic() + 60
        while newest_number(campaign) == first.number and time.monotonic() < give_up:
            time.sleep(0.2)

    assert newest_number(campaign) == first.number + 1, worker.log.read_text()
    advanced = common.latest_snapshot(campaign)
    assert advanced.defaults
    assert advanced.reason == Snapshot.Reason.ADVANCE
    assert advanced.decisions == {}
    assert advanced.data == advance(first.data, defaults_now=True)
    assert advanced.data["clock"] == {"year": 1, "season": "setup", "month": 0, "step": "capitals"}
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING
    assert campaign.deadline is not None
    assert campaign.deadline > timezone.now()
