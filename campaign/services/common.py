"""What every service reads and how it refuses: the newest snapshot, whose kingdom, who is
ready, the admins' lock, the audit log."""

from collections import defaultdict
from collections.abc import Iterable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F

from accounts.models import User
from accounts.names import plain_name
from campaign.models import (
    AuditEntry,
    Campaign,
    Membership,
    Snapshot,
    Submission,
)
from campaign.rules import decisions
from campaign.rules.state import HORDE
from campaign.words import names_of

type Json = dict[str, Any]


class ServiceError(Exception):
    """A refusal a player or admin understands; nothing was changed, unless `changed` (the
    message then says what was). `also`: the other refusals of the same form, told all at
    once."""

    def __init__(
        self,
        message: str,
        *,
        code: str = "refused",
        field: str | None = None,
        also: Iterable["ServiceError"] = (),
        changed: bool = False,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field
        self.also = list(also)
        self.changed = changed

    @property
    def every(self) -> list["ServiceError"]:
        return [self, *self.also]


def latest_snapshot(campaign: Campaign) -> Snapshot:
    snapshot = Snapshot.objects.newest(campaign)
    if snapshot is None:
        raise ServiceError("The campaign has not started yet.", code="not-started")
    return snapshot


def kingdom_of(campaign: Campaign, user: User) -> str:
    membership = Membership.of(campaign, user.pk)
    if membership is None or not membership.kingdom:
        raise ServiceError("You don't rule a kingdom in this campaign.", code="not-a-player")
    return membership.kingdom


def is_admin(campaign: Campaign, user: User) -> bool:
    return campaign.memberships.filter(user=user, is_admin=True).exists()


def owing(data: Json) -> set[str]:
    """The kingdoms the campaign is waiting for (not the horde: its general reports its
    battles, option marauders)."""
    return {p["kingdom"] for p in data.get("pending", [])} - {HORDE}


def ready_kingdoms(campaign: Campaign) -> set[str]:
    """Kingdoms with every open decision marked ready."""
    open_ = Submission.objects.filter(campaign=campaign, consumed_by=None).exclude(kingdom="")
    open_ = open_.exclude(kind__in=decisions.STANDING)
    return ready_among(open_.values_list("kingdom", "ready"))


def marked_ready(user: User | int, campaign: Campaign | None = None) -> dict[int, set[str]]:
    """The kinds of the open decisions the user's (or the user id's) kingdoms have marked
    ready, by campaign id: in one campaign, or in all of the user's. One query."""
    given = Submission.objects.filter(
        consumed_by=None,
        ready=True,
        campaign__memberships__user=user,
        kingdom=F("campaign__memberships__kingdom"),
    ).exclude(kingdom="")
    if campaign is not None:
        given = given.filter(campaign=campaign)
    ready: dict[int, set[str]] = defaultdict(set)
    for campaign_id, kind in given.values_list("campaign_id", "kind"):
        ready[campaign_id].add(kind)
    return ready


def ready_among(given: Iterable[tuple[str, bool]]) -> set[str]:
    """The kingdoms of these open decisions (kingdom, ready) with every one marked ready."""
    given = list(given)
    return {kingdom for kingdom, _ in given} - {kingdom for kingdom, ready in given if not ready}


def asked_of(data: Json, kingdom: str) -> set[str]:
    """The `inputs` keys the campaign is waiting for from this kingdom."""
    return decisions.asked_of(data.get("pending", []), kingdom)


def require_admin(campaign: Campaign, actor: User) -> None:
    if not is_admin(campaign, actor):
        raise ServiceError("Only the campaign's admins may do that.", code="not-an-admin")


def checked_zone(name: str) -> str:
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return "UTC"  # a zone dropped from the machine's tz database since it was chosen
    return name


def named(message: str, data: Json, gazetteer: Json | None = None) -> str:
    """The engine's message in the campaign's names: each kingdom's id as its name
    ("Aldermark may give to Duskhollow only once a winter"), each unit's id as its name
    ("Aldermark's 1st army") and each hex as its place ("Harrowby", "in the Greywood"),
    from the campaign's `gazetteer`."""
    return names_of(data, gazetteer).said(message)


MOVED_ON = "The campaign has moved on since you looked: check the new state and decide again."
# An admin's post from a page drawn before the newest snapshot (another tab's advance, an
# undo, a correction, a battle's result): the page it is answered with is the new state.
DRAWN_BEFORE = "The campaign moved on since this page was drawn: here it is as it stands now."


def check_seen(snapshot: Snapshot, seen: int | None, *, words: str = MOVED_ON) -> None:
    """`seen` is the snapshot the player was looking at: a decision made for a step that
    has moved on since is refused (in `words`) rather than applied to a step the player
    never saw."""
    if seen is not None and seen != snapshot.number:
        raise ServiceError(words, code="moved-on")


def check_admin_saw(campaign: Campaign, seen: int | None) -> None:
    """An admin's change is made to the state their page showed (`seen`, its snapshot),
    or refused in words: never to a step a second tab, a deadline or another admin has
    moved the campaign to since."""
    if seen is not None:
        check_seen(latest_snapshot(campaign), seen, words=DRAWN_BEFORE)


def locked_for_admin(campaign: Campaign, actor: User) -> Campaign:
    """The campaign, locked until the transaction ends, if `actor` is its admin. Outside a
    transaction the lock would end at once: PostgreSQL refuses it, and so does this, on
    SQLite too, so that a service missing its transaction fails in every test."""
    if transaction.get_autocommit():
        raise transaction.TransactionManagementError("An admin's change runs in a transaction.")
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    require_admin(campaign, actor)
    return campaign


def record_audit(
    campaign: Campaign,
    actor: User | None,
    action: AuditEntry.Action,
    reason: str = "",
    details: Json | None = None,
) -> AuditEntry:
    return AuditEntry.objects.create(
        campaign=campaign, actor=actor, action=action, reason=reason, details=details or {}
    )


def plain(name: str, *, max_length: int, what: str, field: str) -> str:
    """A name of people, kingdoms or campaigns as it is kept (accounts.names.plain_name),
    or its refusal: `no-name` for an empty one, else `bad-name`."""
    try:
        return plain_name(name, max_length=max_length, what=what)
    except ValidationError as refused:
        code = "no-name" if refused.code == "empty" else "bad-name"
        raise ServiceError(str(refused.messages[0]), code=code, field=field) from None
