"""The Django admin: battles, the reports of their results and the sides' battle reports,
to read. A battle's state is the snapshot's; results go through the battle pages and their
services, and so does hiding a battle report (audited)."""

from django.contrib import admin

from battles.models import Battle, BattleReport, PlayTime, ResultReport


class ResultReportInline(admin.TabularInline[ResultReport, Battle]):
    model = ResultReport
    extra = 0
    fields = ("kingdom", "reported_by", "result", "winner", "status", "dispute_reason")
    readonly_fields = fields


class BattleReportInline(admin.TabularInline[BattleReport, Battle]):
    model = BattleReport
    extra = 0
    fields = ("kingdom", "written_by", "text", "hidden_at")
    readonly_fields = fields


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin[Battle]):
    list_display = ("campaign", "number", "year", "month", "hex", "kind", "status", "deadline")
    list_filter = ("status", "kind")
    search_fields = ("campaign__name", "campaign__slug", "attacker", "defender")
    readonly_fields = tuple(f.name for f in Battle._meta.fields if f.name != "deadline")
    inlines = (ResultReportInline, BattleReportInline)


admin.site.register(PlayTime)
