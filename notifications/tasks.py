"""Celery tasks of the notifications: the outbox's sender, its sweep, the reminders and the
daily digest. Each takes ids (or nothing), calls one function and is safe to run twice."""

from celery import shared_task
from django.db import OperationalError

from notifications import digest, events, outbox


@shared_task
def queue_reminders() -> int:
    """Run by the beat each minute: a reminder, 24 hours and again 2 hours before the
    deadline, for every kingdom that still owes a decision, with its e-mail and Discord post
    in the outbox (`events.remind`). Once the deadline has passed the defaults apply
    instead: no reminder then."""
    return events.remind()


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def send_notifications(notification_ids: list[int]) -> list[str]:
    """Send these rows of the outbox (those one change wrote: a month's e-mails to every
    player go in one task, not one task each), each exactly once however often this runs
    (`outbox.send` locks each row and skips it once sent); a failed delivery is retried by
    the row's own back-off, not by raising."""
    return [outbox.send(pk) for pk in notification_ids]


@shared_task
def send_due_notifications() -> int:
    """Run by the beat each minute: send the rows whose task was lost or is late."""
    return outbox.sweep()


@shared_task
def send_notification_digests() -> int:
    """Run by the beat: each user who takes a daily digest gets it from 07:00 their time."""
    return digest.send_digests()
