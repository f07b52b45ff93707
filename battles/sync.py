"""Keeping the `Battle` rows equal to the `battles` entries of the newest snapshot: run
inside the transaction that stores each snapshot (`campaign.signals.snapshot_stored`).
A battle handed off gets its row and its deadline; a battle re-stated (ruling B11) sets
aside what was reported for it and takes off a list attached above its side's new points; a battle resolved closes the reports still open; a result the engine set aside
at an advance (`campaign.signals.decisions_refused`) sets its report aside; an undo
or a correction that removes battles removes their rows. A battle handed off tells its two
players (`notifications.events.battle_handed_off`), in the same transaction; not a
battle of a campaign imported from a file, which happened on another site."""

from datetime import timedelta
from typing import Any

from django.urls import reverse
from django.utils import timezone

from battles.models import Battle, ResultReport
from campaign.models import Campaign, Snapshot
from campaign.services import advancing
from notifications import events

type Json = dict[str, Any]

# The engine's fields copied into columns; the rest of an entry (its `extra`: how the
# scenario is won, the dice of each side, who conceded) goes to `details`.
COLUMNS = (
    "year", "month", "hex", "kind", "attacker", "defender", "sides", "board", "condition",
    "scenario", "defender_benefit", "last_stand", "status", "result", "winner", "dice",
)  # fmt: skip
IDENTITY = ("year", "month", "hex", "attacker", "defender")


def row_fields(entry: Json) -> Json:
    """The columns of a battle's row, from its entry in the campaign file."""
    fields = {name: entry.get(name) for name in COLUMNS}
    for name in ("board", "condition", "scenario", "defender_benefit", "last_stand"):
        fields[name] = fields[name] or ""
    fields["result"], fields["winner"] = entry.get("result") or "", entry.get("winner") or ""
    fields["dice"] = list(entry.get("dice") or [])
    others = {k: v for k, v in entry.items() if k not in (*COLUMNS, "extra")}
    fields["details"] = {**others, **(entry.get("extra") or {})}
    return fields


def sync_battles(*, campaign: Campaign, snapshot: Snapshot, imported: bool, **_: Any) -> None:
    entries: list[Json] = snapshot.data.get("battles", [])
    rows = {row.number: row for row in Battle.objects.filter(campaign=campaign)}
    for number, entry in enumerate(entries, 1):
        fields = row_fields(entry)
        row = rows.pop(number, None)
        if row is not None and any(getattr(row, k) != fields[k] for k in IDENTITY):
            row.delete()  # an undo, then another battle in its place
            row = None
        if row is None:
            _create(campaign, snapshot, number, fields, told=not imported)
        elif any(getattr(row, k) != v for k, v in fields.items()):
            _update(row, snapshot, fields)
    for stale in rows.values():
        stale.delete()


def _create(
    campaign: Campaign, snapshot: Snapshot, number: int, fields: Json, *, told: bool
) -> None:
    awaiting = fields["status"] == Battle.Status.AWAITING
    hours = campaign.deadlines.get("battles", 168)
    due = advancing.on_a_deadline_day(campaign, timezone.now() + timedelta(hours=hours))
    Battle.objects.create(
        campaign=campaign,
        number=number,
        deadline=due if awaiting else None,
        handed_off_in=snapshot,
        resolved_in=None if awaiting else snapshot,
        **fields,
    )
    if awaiting and told:
        events.battle_handed_off(
            campaign=campaign, snapshot=snapshot, number=number, entry=fields, deadline=due,
            link=reverse("battles:card", args=[campaign.slug, number]),
        )  # fmt: skip


def _update(row: Battle, snapshot: Snapshot, fields: Json) -> None:
    restated = fields["sides"] != row.sides and fields["status"] == Battle.Status.AWAITING
    resolved = fields["status"] == Battle.Status.RESOLVED and row.awaiting
    for name, value in fields.items():
        setattr(row, name, value)
    if resolved:
        row.resolved_in, row.deadline = snapshot, None
    row.save()
    if restated:
        _set_aside(row, ResultReport.Status.values, "the battle was re-stated (ruling B11)")
        for attached in row.attached_lists.all():
            if attached.points > row.points_of(attached.kingdom):
                attached.delete()
    elif resolved:
        _set_aside(row, ResultReport.OPEN, "the battle was settled otherwise")


def _set_aside(row: Battle, statuses: Any, why: str) -> None:
    open_ = row.reports.filter(status__in=statuses).exclude(
        status__in=[ResultReport.Status.WITHDRAWN, ResultReport.Status.SET_ASIDE]
    )
    open_.update(status=ResultReport.Status.SET_ASIDE, set_aside_why=why)


def results_set_aside(*, campaign: Campaign, refused: list[Any], cause: str, **_: Any) -> None:
    """A battle's result given for both sides (agreed, or the admin's) that the engine set
    aside at an advance, or that an undo took back: the report it came from is set aside
    too, with why, so that the card asks for the result again."""
    for each in refused:
        if each.kind != "battles" or each.kingdom or each.hex is None:
            continue
        why = (
            each.why
            if cause == "undo"
            else f"it no longer stood when the campaign moved on: {each.why}"
        )
        for row in Battle.objects.filter(
            campaign=campaign, hex=each.hex, status=Battle.Status.AWAITING
        ):
            _set_aside(row, [ResultReport.Status.CONFIRMED], why[:200])
