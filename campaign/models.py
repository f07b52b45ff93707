"""Campaigns in the database. The state of a campaign is its newest snapshot (the whole
campaign file); rows exist for what must be queried: who plays which kingdom, what each
kingdom has submitted, deadlines, the audit trail."""

import secrets
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.utils import timezone


class WorkerHeartbeat(models.Model):
    """When each Celery worker last ran the beat's heartbeat task: proof the
    background half of the app is alive, shown on /healthz."""

    worker = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker} at {self.seen_at:%Y-%m-%d %H:%M:%S}"


KINGDOM_NAME_LENGTH = 60


def new_join_code() -> str:
    return secrets.token_urlsafe(6)


def default_deadlines() -> dict[str, int]:
    """Hours allowed for each kind of step."""
    return {"setup": 48, "orders": 72, "battles": 168, "winter": 48}


# The days of the week as Python numbers them (date.weekday()): Monday is 0.
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def every_day() -> list[int]:
    return list(range(len(WEEKDAYS)))


class Campaign(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open for players"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        ENDED = "ended", "Ended"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    kingdoms = models.PositiveSmallIntegerField(help_text="How many kingdoms the campaign needs.")
    options: models.JSONField[dict[str, Any]] = models.JSONField(
        default=dict, help_text="The campaign file's options: years, months, orders, battles, seed."
    )
    deadlines: models.JSONField[dict[str, int]] = models.JSONField(
        default=default_deadlines,
        help_text="Hours allowed per step: setup, orders, battles, winter.",
    )
    map_name = models.CharField(max_length=60, help_text="A built-in map, or 'generated'.")
    map: models.JSONField[dict[str, Any]] = models.JSONField(help_text="The campaign file's map.")
    join_code = models.CharField(max_length=20, unique=True, default=new_join_code)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the current step is due."
    )
    paused_with = models.DurationField(
        null=True, blank=True, help_text="Time that was left before the deadline when paused."
    )
    deadline_days: models.JSONField[list[int]] = models.JSONField(
        default=every_day,
        help_text="The days of the week a deadline may fall on (0 is Monday), in `time_zone`: "
        "a deadline due on another day moves to the same time on the next of them.",
    )
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        help_text="The IANA zone whose days `deadline_days` names: its creator's.",
    )
    public = models.BooleanField(
        default=False,
        help_text="Anyone may read its map, might, chronicle and end, members or not.",
    )
    barred: models.JSONField[list[int]] = models.JSONField(
        default=list,
        blank=True,
        help_text="Ids of users removed before the start: they may not join again until "
        "the admin makes a new join code.",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user in a campaign: ruling a kingdom, administering it, or both."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    kingdom = models.SlugField(
        max_length=20, blank=True, help_text="The kingdom's id in the campaign file."
    )
    kingdom_name = models.CharField(max_length=KINGDOM_NAME_LENGTH, blank=True)
    colour = models.CharField(max_length=7, blank=True, help_text="#rrggbb")
    heraldry = models.CharField(
        max_length=2, blank=True, help_text="A letter or sign shown with the colour."
    )
    is_admin = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            models.UniqueConstraint(
                fields=["campaign", "kingdom"],
                condition=~Q(kingdom=""),
                name="one_player_per_kingdom",
            ),
            # A kingdom's name, colour and heraldry tell it apart from the others.
            models.UniqueConstraint(
                "campaign",
                Lower("kingdom_name"),
                condition=~Q(kingdom_name=""),
                name="one_kingdom_per_name",
            ),
            models.UniqueConstraint(
                "campaign", Lower("colour"), condition=~Q(colour=""), name="one_kingdom_per_colour"
            ),
            models.UniqueConstraint(
                fields=["campaign", "heraldry"],
                condition=~Q(heraldry=""),
                name="one_kingdom_per_heraldry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}" + (f" as {self.kingdom}" if self.kingdom else "")


class Snapshot(models.Model):
    """The campaign file after a start, an advance, an undo, a correction or an import.
    The newest is the campaign's state; `decisions` are the inputs that produced it."""

    class Reason(models.TextChoices):
        START = "start"
        ADVANCE = "advance"
        UNDO = "undo"
        CORRECTION = "correction"
        IMPORT = "import"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="snapshots")
    number = models.PositiveIntegerField()
    data: models.JSONField[dict[str, Any]] = models.JSONField()
    decisions: models.JSONField[dict[str, Any]] = models.JSONField(default=dict)
    reason = models.CharField(max_length=12, choices=Reason.choices)
    defaults = models.BooleanField(
        default=False, help_text="Missing decisions took their defaults."
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_snapshot_per_number")
        ]

    def __str__(self) -> str:
        clock = self.data.get("clock", {})
        return f"{self.campaign} #{self.number} ({clock.get('season')} {clock.get('step')})"


class Submission(models.Model):
    """A kingdom's decision of one kind (an `inputs` key of the campaign file) for the
    step that stood at `snapshot`: editable until it is ready, consumed by an advance."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="submissions")
    kingdom = models.SlugField(max_length=20)
    kind = models.CharField(max_length=20)
    payload: models.JSONField[Any] = models.JSONField()
    snapshot = models.PositiveIntegerField(help_text="The snapshot number it was given against.")
    ready = models.BooleanField(default=False)
    consumed_by = models.ForeignKey(
        Snapshot, null=True, blank=True, on_delete=models.SET_NULL, related_name="submissions"
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kingdom", "kind"],
                condition=Q(consumed_by__isnull=True),
                name="one_open_submission_per_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kingdom} {self.kind} for #{self.snapshot}"


class AuditEntry(models.Model):
    """Something an admin (or the deadline) did to a campaign, and why."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=30)
    reason = models.TextField(blank=True)
    details: models.JSONField[dict[str, Any]] = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} on {self.campaign}"


class Reminder(models.Model):
    """A reminder owed to a kingdom `hours_before` its step's deadline (24, then 2): one per
    kingdom, step and lead time. Its e-mail goes through the outbox (`Notification`)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="reminders")
    kingdom = models.SlugField(max_length=20)
    snapshot = models.PositiveIntegerField()
    hours_before = models.PositiveSmallIntegerField(default=24)
    deadline = models.DateTimeField()
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(
        null=True, blank=True, help_text="When its e-mail went (none if its player takes none)."
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kingdom", "snapshot", "hours_before"],
                name="one_reminder_per_step_and_lead_time",
            )
        ]

    def __str__(self) -> str:
        return f"remind {self.kingdom} of {self.campaign} before {self.deadline:%Y-%m-%d %H:%M}"


# --- notifications (campaign/notifications.py writes and sends them) -------------------------


class Notification(models.Model):
    """One message of the outbox: an e-mail to a user, or a post to the campaign's Discord
    channel. Written in the transaction of the change that causes it, with a `dedupe_key`
    unique to its event and recipient, so that running the same code twice never makes a
    second row; sent once by `notifications.send`, which locks the row while it sends."""

    class Channel(models.TextChoices):
        EMAIL = "email", "E-mail"
        DISCORD = "discord", "Discord"

    class Kind(models.TextChoices):
        STEP = "step", "A step opens for you, or it is your turn"
        REMINDER = "reminder", "A reminder a day and two hours before a deadline"
        BATTLE = "battle", "A battle of yours goes to the tabletop"
        REPORT = "report", "A result waits for your confirmation"
        DISPUTE = "dispute", "A result is disputed"
        MONTH = "month", "A month is over, with its report"
        ENDED = "ended", "The campaign has ended"
        DIGEST = "digest", "The daily digest"

    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        help_text="The recipient of an e-mail; none for a Discord post.",
    )
    channel = models.CharField(max_length=8, choices=Channel.choices)
    kind = models.CharField(max_length=10, choices=Kind.choices)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    link = models.URLField(max_length=500, help_text="The page that does what it asks.")
    dedupe_key = models.CharField(max_length=200, unique=True)
    held = models.BooleanField(
        default=False, help_text="Kept for the user's daily digest instead of sent alone."
    )
    digest = models.ForeignKey(
        "self",
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="bundled",
        help_text="The digest that carried it.",
    )
    reminder = models.ForeignKey(
        Reminder, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    due_at = models.DateTimeField(
        default=timezone.now, help_text="When it may be sent: now, or the next attempt."
    )
    sent_at = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    last_error = models.TextField(blank=True)
    given_up_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [
            # What the sweep looks for: unsent, still tried, by when it is due.
            models.Index(
                fields=["due_at"],
                condition=Q(sent_at__isnull=True, given_up_at__isnull=True, held=False),
                name="notification_to_send",
            ),
            models.Index(
                fields=["user"],
                condition=Q(held=True, sent_at__isnull=True),
                name="notification_held",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.channel} {self.kind}: {self.subject}"


class NotificationChoices(models.Model):
    """What a user wants by e-mail: the kinds turned off, and a daily digest instead of
    single e-mails. A user without a row takes every kind, one e-mail each."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_choices"
    )
    email_off: models.JSONField[list[str]] = models.JSONField(
        default=list, blank=True, help_text="The kinds (Notification.Kind) not e-mailed."
    )
    digest = models.BooleanField(default=False)
    digest_sent_on = models.DateField(
        null=True, blank=True, help_text="The day (in the user's time zone) of the last digest."
    )

    def __str__(self) -> str:
        return f"notification choices of {self.user}"


class DiscordWebhook(models.Model):
    """The campaign's Discord channel, as a webhook URL: a secret, never shown back whole."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, related_name="discord_webhook"
    )
    url = models.URLField(max_length=500)
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    set_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Discord webhook of {self.campaign} ending {self.ending}"

    @property
    def ending(self) -> str:
        """The last four characters: all of it a page may show."""
        return self.url[-4:]
