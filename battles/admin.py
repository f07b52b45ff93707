"""The Django admin: battles and their reports, to read. A battle's state is the
snapshot's; results go through the battle pages and their services."""

from django.contrib import admin

from battles.models import Battle, PlayTime, ResultReport


class ResultReportInline(admin.TabularInline[ResultReport, Battle]):
    model = ResultReport
    extra = 0
    fields = ("kingdom", "reported_by", "result", "winner", "status", "dispute_reason")
    readonly_fields = fields


@admin.register(Battle)
class BattleAdmin(admin.ModelAdmin[Battle]):
    list_display = ("campaign", "number", "year", "month", "hex", "kind", "status", "deadline")
    list_filter = ("status", "kind")
    search_fields = ("campaign__name", "campaign__slug", "attacker", "defender")
    readonly_fields = tuple(f.name for f in Battle._meta.fields if f.name != "deadline")
    inlines = (ResultReportInline,)


admin.site.register(PlayTime)
