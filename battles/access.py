"""Who may see what of a battle: its card is for the campaign's members (a 404 for anyone
else, as for every page of a campaign), and so are its battle reports and their
photographs, wherever they are shown (the card, the photographs' own URLs, the chronicle,
the end); but a report the admin hid, with its photographs, only for the admin and the
side's player.

A side's list is its player's from the start; the other side's player and the admin see
it once both sides have attached theirs (so that nobody writes a counter-list), and every
member once the result is in: `sees_list`, wherever the list is shown. A kingdom's book of
lists is its player's alone (`battles.list_views`)."""

from collections.abc import Collection

from django.db.models import Q, QuerySet
from django.http import Http404, HttpRequest

from battles.models import Battle, BattleReport
from campaign.access import membership_for
from campaign.models import Membership
from campaign.reads import rows_of
from campaign.rules.optional.marauders import ADMIN, general_for
from campaign.rules.state import HORDE


def battle_for(request: HttpRequest, slug: str, number: int) -> tuple[Membership, Battle]:
    """The signed-in member's membership and the campaign's battle (with the one campaign
    read, bar its map: `campaign.access`); 404 for anyone else."""
    membership = membership_for(request, slug)
    campaign = membership.campaign
    found = rows_of(Battle, campaign.pk, number, where=("campaign_id", "number"))
    if not found:
        raise Http404("No such battle.")
    found[0].campaign = campaign
    return membership, found[0]


def general_of(battle: Battle) -> str:
    """Who reports for the horde in this battle (option marauders, OW5): its general, or the
    admin where the general's kingdom is the battle's other side."""
    return general_for(battle.campaign.options.get("marauder_general"), battle.kingdoms)


def side_for(battle: Battle, membership: Membership | None) -> str:
    """The side of the battle the member speaks for: their kingdom if it fights it; the
    horde's if they are its general here (OW5); else none ("")."""
    if membership is None:
        return ""
    if membership.kingdom and membership.kingdom in battle.kingdoms:
        return membership.kingdom
    if HORDE not in battle.kingdoms:
        return ""
    general = general_of(battle)
    is_general = membership.is_admin if general == ADMIN else membership.kingdom == general
    return HORDE if is_general else ""


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


def sees_list(
    battle: Battle,
    side: str,
    membership: Membership | None,
    *,
    attached: Collection[str],
    result_in: bool,
) -> bool:
    """Whether a member of the battle's campaign sees the list of one of its sides (None: a
    visitor, who never does), wherever it is: attached to the battle, or in a report of the
    result, copied from the one attached or typed in, whatever became of the report and of
    the list attached. `attached`: the sides whose list is attached now. `result_in`: the
    battle is resolved, or its result is confirmed or decided and waits for the advance."""
    if membership is None or side not in battle.kingdoms:
        return False
    mine = side_for(battle, membership)
    if result_in or not battle.awaiting or mine == side:
        return True
    both = set(battle.kingdoms) <= set(attached)
    return both and (bool(mine) or membership.is_admin)
