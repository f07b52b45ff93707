"""The outbox and what it needs: each message (`Notification`), the reminders owed before a
deadline, each user's choices of e-mails, and each campaign's Discord webhook. They were the
campaign app's once: their tables keep the names they had then (`campaign_...`)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from campaign.models import Campaign


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
        db_table = "campaign_reminder"
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kingdom", "snapshot", "hours_before"],
                name="one_reminder_per_step_and_lead_time",
            )
        ]

    def __str__(self) -> str:
        return f"remind {self.kingdom} of {self.campaign} before {self.deadline:%Y-%m-%d %H:%M}"


class Notification(models.Model):
    """One message of the outbox: an e-mail to a user (or, for an invitation, to an address
    that may be nobody's yet), or a post to the campaign's Discord channel. Written in the transaction of the change that causes it, with a `dedupe_key`
    unique to its event and recipient, so that running the same code twice never makes a
    second row; sent once by `outbox.send`, which locks the row while it sends."""

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
        LETTER = "letter", "A letter from another kingdom"
        DIGEST = "digest", "The daily digest"
        INVITATION = "invitation", "An invitation to join a campaign"

    campaign = models.ForeignKey(
        Campaign, null=True, blank=True, on_delete=models.CASCADE, related_name="notifications"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="notifications",
        help_text="The recipient of an e-mail; none for a Discord post or an invitation.",
    )
    address = models.EmailField(
        blank=True,
        help_text="The recipient of an invitation, who may have no account yet; "
        "empty for every other message.",
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
        db_table = "campaign_notification"
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

    class Meta:
        db_table = "campaign_notificationchoices"

    def __str__(self) -> str:
        return f"notification choices of {self.user}"


class DiscordWebhook(models.Model):
    """The campaign's Discord channel, as a webhook URL: a secret, never shown back whole."""

    campaign = models.OneToOneField(
        Campaign, on_delete=models.CASCADE, related_name="discord_webhook"
    )
    url = models.URLField(max_length=500)
    herald = models.BooleanField(
        default=False,
        help_text="Letters through the herald (public to every member) are posted in the "
        "channel, with their words; no other letter ever is.",
    )
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    set_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "campaign_discordwebhook"

    def __str__(self) -> str:
        return f"Discord webhook of {self.campaign} ending {self.ending}"

    @property
    def ending(self) -> str:
        """The last four characters: all of it a page may show."""
        return self.url[-4:]
