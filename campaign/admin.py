"""The Django admin: a read-mostly view of campaigns for the people who run the site.
Changes to a campaign's state go through the services (the campaign's own admin pages)."""

from django.contrib import admin

from campaign.models import (
    AuditEntry,
    Campaign,
    Membership,
    Snapshot,
    Submission,
    WorkerHeartbeat,
)


class MembershipInline(admin.TabularInline[Membership, Campaign]):
    model = Membership
    extra = 0
    fields = ("user", "kingdom", "kingdom_name", "colour", "heraldry", "is_admin")


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin[Campaign]):
    list_display = ("name", "slug", "status", "kingdoms", "map_name", "deadline", "created_at")
    list_filter = ("status",)
    search_fields = ("name", "slug")
    readonly_fields = ("join_code", "created_at", "map")
    inlines = (MembershipInline,)


@admin.register(Snapshot)
class SnapshotAdmin(admin.ModelAdmin[Snapshot]):
    list_display = ("campaign", "number", "reason", "defaults", "created_by", "created_at")
    list_filter = ("reason", "campaign")
    readonly_fields = (
        "campaign",
        "number",
        "data",
        "decisions",
        "reason",
        "defaults",
        "created_by",
        "created_at",
    )
    exclude = (
        "state",
        "clock",
        "map",
        "events_shared",
        "own_events",
        "event_count",
    )  # shown as data

    def has_add_permission(self, request: object) -> bool:
        return False


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin[Submission]):
    list_display = ("campaign", "kingdom", "kind", "snapshot", "ready", "consumed_by", "updated_at")
    list_filter = ("kind", "ready", "campaign")
    readonly_fields = ("created_at", "updated_at")


@admin.register(AuditEntry)
class AuditEntryAdmin(admin.ModelAdmin[AuditEntry]):
    list_display = ("campaign", "action", "actor", "reason", "created_at")
    list_filter = ("action", "campaign")
    readonly_fields = ("campaign", "actor", "action", "reason", "details", "created_at")


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ("worker", "seen_at")
    readonly_fields = ("worker", "seen_at")
