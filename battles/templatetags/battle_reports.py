"""The battle reports where the campaign's story is told (the chronicle, and the end's best
moments and chronicle): each battle's reports linked to its card, each with its first
photograph's thumbnail. The campaign app never imports this app; its templates ask it:

    {% load battle_reports %}
    {% battle_reports campaign membership kingdoms as reports %}
    {% for told in reports|of_battle:line.battle %}…{% endfor %}
    {% for told in reports|of_kingdom:moment.kingdom %}…{% endfor %}

Two queries for the whole page, however many battles. Only what the viewer may see
(`battles.access`): nothing to a visitor of a public campaign, who may not open a card."""

from collections.abc import Mapping
from dataclasses import dataclass, field

from django import template

from battles.access import reports_seen
from battles.models import BattlePhoto, BattleReport
from campaign.gazetteer import Names
from campaign.models import Campaign, Membership

register = template.Library()

# What a report link reads of a report and its battle (not the battle's sides and details).
LINKED = (
    "kingdom",
    "text",
    "hidden_at",
    *(f"battle__{f}" for f in ("number", "hex", "year", "month")),
)


@dataclass(frozen=True)
class ReportLink:
    """A battle report as the story links it."""

    battle: int  # its card's number
    kingdom: str
    side: str  # the kingdom's name
    where: str  # the battle's tile in words: "at Harrowby", "in the Greywood"
    when: str  # "year 1, month 3"
    hidden: bool
    thumbnail: BattlePhoto | None  # its first photograph


@dataclass(frozen=True)
class CampaignReports:
    by_battle: dict[int, list[ReportLink]] = field(default_factory=dict)
    by_kingdom: dict[str, list[ReportLink]] = field(default_factory=dict)


@register.simple_tag
def battle_reports(
    campaign: Campaign, membership: Membership | None, kingdoms: Mapping[str, str]
) -> CampaignReports:
    """The campaign's battle reports with something in them that the viewer may see, each
    side named as `kingdoms` names it (the page's own names of the kingdoms)."""
    found = CampaignReports()
    if membership is None:
        return found
    reports = list(
        reports_seen(
            BattleReport.objects.filter(battle__campaign=campaign)
            .select_related("battle")
            .only(*LINKED)
            .order_by("battle__number", "created_at", "pk"),
            membership,
        )
    )
    first_photos = _first_photos([report.pk for report in reports])
    places = Names(kingdoms, campaign.gazetteer)
    for report in reports:
        thumbnail = first_photos.get(report.pk)
        if not report.text and thumbnail is None:
            continue
        battle = report.battle
        link = ReportLink(
            battle=battle.number,
            kingdom=report.kingdom,
            side=kingdoms.get(report.kingdom) or report.kingdom,
            where=places.at(battle.hex),
            when=f"year {battle.year}, month {battle.month}",
            hidden=report.hidden,
            thumbnail=thumbnail,
        )
        found.by_battle.setdefault(battle.number, []).append(link)
        found.by_kingdom.setdefault(report.kingdom, []).append(link)
    return found


def _first_photos(reports: list[int]) -> dict[int, BattlePhoto]:
    """Each report's first photograph (of those that have one), in one query."""
    first: dict[int, BattlePhoto] = {}
    for photo in BattlePhoto.objects.filter(report__in=reports) if reports else ():
        first.setdefault(photo.report_id, photo)
    return first


@register.filter
def of_battle(reports: object, number: int | None) -> list[ReportLink]:
    """The battle's reports (none if the page did not ask for `battle_reports`)."""
    if not isinstance(reports, CampaignReports) or number is None:
        return []
    return reports.by_battle.get(number, [])


@register.filter
def of_kingdom(reports: object, kingdom: str) -> list[ReportLink]:
    """The kingdom's reports (none if the page did not ask for `battle_reports`)."""
    if not isinstance(reports, CampaignReports):
        return []
    return reports.by_kingdom.get(kingdom, [])
