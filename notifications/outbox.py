"""The outbox. Each message is a `Notification` row: an e-mail to one user (or, for an
invitation, to an address), or one post to the campaign's Discord webhook naming the
players concerned. Rows are written in the transaction of the change that causes them (so
they commit with it or not at all), with a `dedupe_key` made of the event and the recipient
and unique in the table: the same code run twice, or a receiver called twice, makes no
second row (`bulk_create(ignore_conflicts=True)`). A user's choices decide at writing which
e-mails are made at all, and which are `held` for the daily digest; they are checked again
at sending.

Sending, exactly once. `send(pk)` runs in the Celery task `tasks.send_notifications`, one
task for the rows one change wrote, queued on commit. It locks the row
(`select_for_update(skip_locked=True)`: a row another worker is sending is skipped, not
waited for), sends it only if it is neither sent nor given up and is due, and marks it sent
in the same transaction. So a task run twice, a task and the sweep racing, or a retry and
its duplicate send it once. A failure (the mail server's error, Discord's non-2xx answer or
a timeout) counts an attempt and sets the next one after an exponential back-off (Discord's
429 sets it after its `retry_after`), queued with that countdown; after `MAX_ATTEMPTS` the
row is given up. A task lost with its broker (Redis down when the row was written) or with
its worker (the worker died; its lock went with its database connection and its transaction
rolled back) leaves the row unsent and due: the beat runs `sweep` every minute and sends
every row due for more than `SWEEP_AFTER`.

The one window that remains: a worker that dies after the mail server (or Discord) accepted
the message and before its transaction commits leaves the row unsent, and the sweep sends it
again. There, and only there, delivery is at least once: no protocol can make an SMTP server
and a database commit together.

On SQLite (`make run`) `select_for_update` is a no-op, but the project's immediate
transactions hold the database's write lock while a row is sent, which serialises senders
just as well (and holds other writers back for as long as a send takes: the mail server's
and Discord's timeouts bound it)."""

import email.message
import email.policy
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from email.policy import Policy
from typing import Any

from celery import signature
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign.models import Campaign
from campaign.signals import is_quiet
from campaign.words import absolute
from notifications.choices import ALL, choices_of, kind_words, unsubscribe_token
from notifications.discord import DeliveryError, post_to_discord
from notifications.models import DiscordWebhook, Notification, NotificationChoices, Reminder
from notifications.news import Letter, News, subject_line

logger = logging.getLogger(__name__)

Kind = Notification.Kind
Channel = Notification.Channel

MAX_ATTEMPTS = 10
FIRST_RETRY = timedelta(minutes=1)
LONGEST_WAIT = timedelta(hours=6)
SWEEP_AFTER = timedelta(seconds=30)  # a row's own task has had its chance by then
SWEEP_BATCH = 200


# --- writing ----------------------------------------------------------------------------------


def _email_row(campaign: Campaign | None, news: News, letter: Letter, digest: bool) -> Notification:
    return Notification(
        campaign=campaign,
        user=letter.user,
        channel=Channel.EMAIL,
        kind=news.kind,
        subject=letter.subject,
        body=letter.body,
        link=letter.link,
        dedupe_key=f"{news.key}:u{letter.user.pk}"[:200],
        held=digest,
        reminder=letter.reminder,
    )


def write(campaign: Campaign | None, news: News) -> int:
    """Write the event's rows (none already written), to be sent once this transaction
    commits: an e-mail to each recipient who takes this kind and has an address, held for
    the digest of those who take one; a post if the campaign has a Discord webhook. Nothing
    while the campaign tells nobody (`campaign.signals.quietly`). Without a campaign, the
    e-mails are their recipients' alone (no desk counts them) and nothing is posted."""
    if is_quiet():
        return 0
    users = {letter.user.pk for letter in news.letters}
    choices = {c.user_id: c for c in NotificationChoices.objects.filter(user__in=users)}
    rows = []
    for letter in news.letters:
        chosen = choices.get(letter.user.pk) or NotificationChoices(user=letter.user)
        if letter.user.email and letter.user.is_active and news.kind not in chosen.email_off:
            rows.append(_email_row(campaign, news, letter, chosen.digest))
    if news.post and campaign and DiscordWebhook.objects.filter(campaign=campaign).exists():
        rows.append(
            Notification(
                campaign=campaign,
                channel=Channel.DISCORD,
                kind=news.kind,
                subject=subject_line(campaign.name, news.summary or news.kind),
                body=news.post,
                link=news.link,
                dedupe_key=f"{news.key}:discord"[:200],
            )
        )
    return _written(rows)


def write_to_addresses(
    campaign: Campaign,
    *,
    key: str,
    kind: str,
    addresses: Sequence[str],
    subject: str,
    body: str,
    link: str,
) -> list[str]:
    """Write one e-mail to each address (an invitation: to whoever it is, user or not), to
    be sent once this transaction commits. Returns the addresses written to."""
    if is_quiet():
        return []
    rows = [
        Notification(
            campaign=campaign,
            address=address,
            channel=Channel.EMAIL,
            kind=kind,
            subject=subject,
            body=body,
            link=link,
            dedupe_key=f"{key}:{address}"[:200],
        )
        for address in addresses
    ]
    _written(rows)
    return list(addresses)


def _written(rows: list[Notification]) -> int:
    if not rows:
        return 0
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    to_send = list(
        Notification.objects.filter(
            dedupe_key__in=[row.dedupe_key for row in rows],
            sent_at=None,
            given_up_at=None,
            held=False,
        ).values_list("pk", flat=True)
    )
    if to_send:
        queue(to_send)
    return len(rows)


SEND_TASK = "notifications.tasks.send_notifications"  # registered by NotificationsConfig


def queue(pks: list[int], countdown: float | None = None) -> None:
    """Send these rows in the background once this transaction commits. If the broker is
    down the rows wait for the sweep: an error here is logged and never undoes the change."""
    # Nobody reads the result: ignoring it keeps this process off the result backend, which,
    # with Redis away, would hold the request for many seconds before the error.
    options: dict[str, Any] = {"ignore_result": True}
    if countdown is not None:
        options["countdown"] = countdown

    def send() -> None:
        if pks:
            # Named, not imported: the tasks call the outbox, never the other way round.
            signature(SEND_TASK, (list(pks),), options=options).apply_async()

    transaction.on_commit(send, robust=True)


# --- sending ----------------------------------------------------------------------------------


def back_off(attempts: int) -> timedelta:
    """The wait after `attempts` failed attempts: a minute, doubled each time, 6 hours at most."""
    wait: timedelta = FIRST_RETRY * 2 ** max(attempts - 1, 0)
    return min(wait, LONGEST_WAIT)


def send(pk: int, *, now: datetime | None = None) -> str:
    """Send one row of the outbox, once: see the module's docstring. Returns what happened:
    sent, failed, gave up, dropped (its recipient no longer takes it), or skipped (sent or
    given up already, not due yet, or being sent by another worker right now)."""
    now = now or timezone.now()
    with transaction.atomic():
        row = Notification.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
        if row is None or row.sent_at or row.given_up_at or row.held or row.due_at > now:
            return "skipped"
        refusal = _refusal(row)
        if refusal:
            row.given_up_at, row.last_error = now, refusal
            row.save(update_fields=["given_up_at", "last_error"])
            return "dropped"
        try:
            _deliver(row)
        except Exception as error:  # anything: a failed message never stops the others
            return _failed(row, error, now)
        row.sent_at, row.attempts, row.last_error = now, row.attempts + 1, ""
        row.save(update_fields=["sent_at", "attempts", "last_error"])
        if row.reminder_id:
            Reminder.objects.filter(pk=row.reminder_id, sent_at=None).update(sent_at=now)
    return "sent"


def _refusal(row: Notification) -> str:
    """Why a row may no longer be sent, if it may not."""
    if row.channel == Channel.DISCORD:
        has_webhook = DiscordWebhook.objects.filter(campaign=row.campaign).exists()
        return "" if has_webhook else "The campaign's Discord webhook was removed."
    if row.kind == Kind.INVITATION:
        return _invitation_refusal(row)
    user = row.user
    if user is None or not user.is_active or not user.email:
        return "Its recipient has no e-mail address now."
    if row.kind != Kind.DIGEST and row.kind in choices_of(user).email_off:
        return "Its recipient turned this kind of e-mail off."
    return ""


def _invitation_refusal(row: Notification) -> str:
    """An invitation goes while its campaign is open and its link still lets people in."""
    campaign = row.campaign
    if campaign is None or campaign.status != Campaign.Status.OPEN:
        return "The campaign has started: the invitation is no longer needed."
    if not row.link.endswith(reverse("campaign:join", args=[campaign.join_code])):
        return "The invitation link was replaced by a new one."
    return ""


def _deliver(row: Notification) -> None:
    if row.channel == Channel.DISCORD:
        webhook = DiscordWebhook.objects.get(campaign=row.campaign)
        try:
            post_to_discord(webhook.url, row.body)
        except DeliveryError as error:
            said = str(error).replace(webhook.url, "(the webhook)")
            raise DeliveryError(said, wait=error.wait) from None
        return
    if row.user is None:
        EmailMessage(subject=row.subject, body=row.body, to=[row.address]).send()
        return
    _email(row, row.user).send()


# An e-mail address in a mail server's refusal ("<carol@example.org>: Recipient address
# rejected"): the refusal is shown on the admin's desk, which never shows a player's address.
EMAIL_ADDRESS = re.compile(r"[^\s<>'\"(),;:]+@[^\s<>'\"(),;:]+")


def _failed(row: Notification, error: Exception, now: datetime) -> str:
    row.attempts += 1
    said = EMAIL_ADDRESS.sub("(the address)", f"{type(error).__name__}: {error}")
    row.last_error = said[:1000]
    asked = error.wait if isinstance(error, DeliveryError) else None
    wait = min(asked, LONGEST_WAIT) if asked else back_off(row.attempts)
    if row.attempts >= MAX_ATTEMPTS:
        row.given_up_at = now
    else:
        row.due_at = now + wait
        queue([row.pk], countdown=wait.total_seconds())
    row.save(update_fields=["attempts", "last_error", "due_at", "given_up_at"])
    logger.warning("Notification %s, attempt %s: %s", row.pk, row.attempts, row.last_error)
    return "gave up" if row.given_up_at else "failed"


def sweep(now: datetime | None = None) -> int:
    """Run by the beat each minute: send every row due for more than `SWEEP_AFTER` (its
    task was lost with the broker or its worker, or its retry is late). Returns how many
    were sent."""
    now = now or timezone.now()
    due = Notification.objects.filter(
        sent_at=None, given_up_at=None, held=False, due_at__lte=now - SWEEP_AFTER
    ).order_by("due_at", "pk")
    return sum(send(pk, now=now) == "sent" for pk in due.values_list("pk", flat=True)[:SWEEP_BATCH])


# --- the e-mail -------------------------------------------------------------------------------


class NotificationEmail(EmailMessage):
    """An e-mail whose header lines are not folded at 78 characters: Python folds a long
    List-Unsubscribe address into RFC 2047 encoded words, which mail clients do not read as
    an address. RFC 5322 allows lines of 998."""

    def message(self, *, policy: Policy | None = None) -> email.message.EmailMessage:
        unfolded = (policy or email.policy.default).clone(max_line_length=998)
        return super().message(policy=unfolded)


def _email(row: Notification, user: User) -> EmailMessage:
    """The e-mail of a row, with its unsubscribe link in the text and in the headers."""
    kind = ALL if row.kind == Kind.DIGEST else row.kind
    unsubscribe = absolute(
        reverse("notifications:unsubscribe", args=[unsubscribe_token(user, kind)])
    )
    text = render_to_string(
        "notifications/email.txt",
        {
            "row": row,
            "user": user,
            "unsubscribe": unsubscribe,
            "stops": kind_words(kind),
            "choices": absolute(reverse("notifications:choices")),
        },
    )
    return NotificationEmail(
        subject=row.subject,
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


# --- what the campaign's admin reads ----------------------------------------------------------


@dataclass(frozen=True)
class Outbox:
    """How a campaign's messages stand, and the newest that failed."""

    sent: int
    waiting: int
    given_up: int
    troubles: list[Notification]


TROUBLES_SHOWN = 5


def outbox_of(campaign: Campaign) -> Outbox:
    """Two queries, however many messages the campaign has sent."""
    rows = Notification.objects.filter(campaign=campaign)
    counts = rows.aggregate(
        sent=Count("pk", filter=Q(sent_at__isnull=False)),
        waiting=Count("pk", filter=Q(sent_at__isnull=True, given_up_at__isnull=True)),
        given_up=Count("pk", filter=Q(given_up_at__isnull=False)),
    )
    troubles = rows.filter(sent_at=None).exclude(last_error="").select_related("user")
    return Outbox(**counts, troubles=list(troubles.order_by("-pk")[:TROUBLES_SHOWN]))
