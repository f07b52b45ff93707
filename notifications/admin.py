"""The outbox and the reminders in the Django admin, to see what was sent, what waits and
what failed: read only, since sending is the worker's (`notifications.outbox`)."""

from django.contrib import admin

from notifications.models import Notification, Reminder


@admin.register(Reminder)
class ReminderAdmin(admin.ModelAdmin[Reminder]):
    list_display = ("campaign", "kingdom", "snapshot", "deadline", "sent_at")


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin[Notification]):
    list_display = (
        "subject", "channel", "kind", "user", "address", "campaign", "sent_at", "attempts",
    )  # fmt: skip
    list_filter = ("channel", "kind", "campaign")
    search_fields = ("subject", "user__username", "address")
    readonly_fields = tuple(f.name for f in Notification._meta.fields)

    def has_add_permission(self, request: object) -> bool:
        return False
