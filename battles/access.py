"""Who may see what of a battle: its card is for the campaign's members (a 404 for anyone
else, as for every page of a campaign), and so are its battle reports and their
photographs, wherever they are shown (the card, the photographs' own URLs, the chronicle,
the end); but a report the admin hid, with its photographs, only for the admin and the
side's player.

A list attached to a battle is its side's player's from the start; the other side's
player and the admin see it once both sides have attached theirs (so that nobody writes a
counter-list), and every member once the result is in. A kingdom's book of lists is its
player's alone (`battles.list_views`)."""

from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.shortcuts import get_object_or_404

from battles.models import AttachedList, Battle, BattleReport
from campaign.access import membership_for
from campaign.models import Membership


def battle_for(request: HttpRequest, slug: str, number: int) -> tuple[Membership, Battle]:
    """The signed-in member's membership and the campaign's battle; 404 for anyone else."""
    membership = membership_for(request, slug)
    battle = get_object_or_404(
        Battle.objects.select_related("campaign"), campaign=membership.campaign, number=number
    )
    return membership, battle


def sees(report: BattleReport, membership: Membership | None) -> bool:
    """Whether a member of the report's campaign sees it (None: a visitor, who never does)."""
    if membership is None:
        return False
    return not report.hidden or membership.is_admin or membership.kingdom == report.kingdom


def reports_seen(
    reports: QuerySet[BattleReport], membership: Membership | None
) -> QuerySet[BattleReport]:
    """The reports, of the member's campaign, that `sees` lets them see, in one query."""
    if membership is None:
        return reports.none()
    if membership.is_admin:
        return reports
    return reports.filter(Q(hidden_at=None) | Q(kingdom=membership.kingdom))


def lists_seen(
    battle: Battle,
    attached: list[AttachedList],
    membership: Membership | None,
    *,
    result_in: bool,
) -> list[AttachedList]:
    """The lists attached to the battle that a member of its campaign sees (None: a
    visitor, who sees none). `result_in`: the battle is resolved, or its result is
    confirmed or decided and waits for the advance."""
    if membership is None:
        return []
    sides = [a for a in attached if a.kingdom in battle.kingdoms]
    if result_in or not battle.awaiting:
        return sides
    mine = membership.kingdom if membership.kingdom in battle.kingdoms else ""
    both = {a.kingdom for a in sides} == set(battle.kingdoms)
    if both and (mine or membership.is_admin):
        return sides
    return [a for a in sides if a.kingdom == mine]
