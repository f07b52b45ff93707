from django.contrib import admin

from campaign.models import WorkerHeartbeat


@admin.register(WorkerHeartbeat)
class WorkerHeartbeatAdmin(admin.ModelAdmin[WorkerHeartbeat]):
    list_display = ("worker", "seen_at")
    readonly_fields = ("worker", "seen_at")
