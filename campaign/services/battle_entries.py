"""What the tabletop says of a battle (a result, a simple battle), checked and added to the
campaign's open battle entries."""

from django.db import transaction

from accounts.models import User
from campaign.models import (
    AuditEntry,
    Campaign,
    Snapshot,
    Submission,
)
from campaign.rules.state import BattleStatus
from campaign.services.advancing import advance_when_ready
from campaign.services.common import (
    Json,
    ServiceError,
    check_seen,
    latest_snapshot,
    locked_for_admin,
    record_audit,
)
from campaign.services.inputs import check_with_engine


def check_battle_entry(campaign: Campaign, entry: Json) -> Snapshot:
    """Refused unless a battle in the entry's hex waits for its result and the engine
    accepts the entry; the newest snapshot otherwise."""
    snapshot = latest_snapshot(campaign)
    awaiting = [
        b["hex"]
        for b in snapshot.data.get("battles", [])
        if b["status"] == BattleStatus.AWAITING_RESULT
    ]
    if entry["hex"] not in awaiting:
        raise ServiceError(
            "No battle there waits for its result.", code="no-such-battle", field="hex"
        )
    if battle_settled_meanwhile(campaign, entry["hex"]):
        raise ServiceError(
            "The result of that battle is in already: the campaign is moving on.",
            code="settled",
        )
    check_with_engine(snapshot.data, "battles", "", [entry], gazetteer=campaign.gazetteer)
    return snapshot


SETTLING = ("result", "resolve", "concede")


def battle_settled_meanwhile(campaign: Campaign, hex: list[int]) -> bool:
    """A result, a switch to a simple battle or a concession for the battle in this hex is
    among the decisions not yet used by an advance."""
    return hex in settled_meanwhile(campaign)


def settled_meanwhile(campaign: Campaign) -> list[list[int]]:
    """The tiles of the battles settled by decisions not yet used by an advance (a result,
    a switch to a simple battle, a concession): one query."""
    open_entries = Submission.objects.filter(campaign=campaign, kind="battles", consumed_by=None)
    return [
        entry.get("hex")
        for payload in open_entries.values_list("payload", flat=True)
        for entry in payload
        if any(key in entry for key in SETTLING)
    ]


@transaction.atomic
def battle_entry_rerecord(
    *, campaign: Campaign, actor: User, entry: Json, reason: str, seen: int | None = None
) -> Submission:
    """The admin records again the result of a battle whose result is in (agreed, decided
    or conceded) but whose month has not advanced: the result given is taken back, and
    this one checked by the engine and given in its place; audited, with its reason. The
    way out of a result agreed in error."""
    campaign = locked_for_admin(campaign, actor)
    if not reason.strip():
        raise ServiceError(
            "Say why the result is recorded again.", code="no-reason", field="reason"
        )
    check_seen(latest_snapshot(campaign), seen)
    if not battle_settled_meanwhile(campaign, entry["hex"]):
        raise ServiceError(
            "No result of that battle is in yet: record it, rather than again.",
            code="not-settled",
        )
    _take_back_results(campaign, entry["hex"])
    return battle_entry_save(
        campaign=campaign, actor=actor, entry=entry, seen=seen,
        audit=AuditEntry.Action.BATTLE_RERECORDED, reason=reason,
    )  # fmt: skip


def _take_back_results(campaign: Campaign, hex: list[int]) -> None:
    """The open entries that settle the battle at `hex` (a result, a concession, the switch
    to a simple battle) are taken out of the decisions not yet used."""
    for submission in Submission.objects.filter(
        campaign=campaign, kind="battles", consumed_by=None
    ):
        kept = [
            entry
            for entry in submission.payload
            if entry.get("hex") != hex or not any(key in entry for key in SETTLING)
        ]
        if not kept:
            submission.delete()
        elif kept != submission.payload:
            submission.payload = kept
            submission.save()


@transaction.atomic
def battle_entry_save(
    *,
    campaign: Campaign,
    actor: User,
    entry: Json,
    audit: AuditEntry.Action | None = None,
    reason: str = "",
    seen: int | None = None,
) -> Submission:
    """A result for a battle that waits for one, or the switch to a simple battle: what both
    players agreed on, or what an admin decided (the battles app checks who may say it).
    The engine checks it, it joins the campaign's open battle entries, and the campaign
    advances when it runs and nothing else is owed (ruling B11). With `audit`, it is
    recorded in the audit log under that action, with the `reason` given."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    snapshot = check_battle_entry(campaign, entry)
    check_seen(snapshot, seen)
    submission, _ = Submission.objects.get_or_create(
        campaign=campaign, kingdom="", kind="battles", consumed_by=None,
        defaults={"payload": [], "snapshot": snapshot.number, "submitted_by": actor, "ready": True},
    )  # fmt: skip
    submission.payload = [*submission.payload, entry]
    submission.save()
    if audit:
        record_audit(campaign, actor, audit, reason, details=entry)
    advance_when_ready(campaign, snapshot)
    return submission
