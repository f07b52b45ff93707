"""Every write to a campaign goes through these services. Each one is a transaction; those
that change the campaign's state lock its row and check the snapshot they started from,
so two advances never both land and no submission is lost."""

import copy
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from campaign.maps import BUILTIN_MAPS, load_builtin_map
from campaign.models import (
    AuditEntry,
    Campaign,
    Membership,
    Snapshot,
    Submission,
    default_deadlines,
)
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import map_to_json
from campaign.rules.mapgen import generate_map
from campaign.signals import snapshot_stored

type Json = dict[str, Any]

# Which `inputs` key answers each kind of `pending` decision.
ANSWERS = {
    "race": "races",
    "capital": "capitals",
    "settlements": "settlements",
    "starting_army": "starting_armies",
    "orders": "orders",
    "battle_choice": "battle_choices",
    "last_stand": "battles",
    "battle_result": "battles",
    "retreat": "retreats",
    "tithes": "tithes",
    "purchases": "purchases",
    "feed": "feed",
    "deploy": "deploy",
}
KINDS = frozenset(ANSWERS.values())
# Inputs given as a list of entries, or a mapping of units, rather than one value per kingdom.
LISTED = {"battles"}
BY_UNIT = {"retreats"}
# Which deadline applies at each step of the campaign file's clock.
DEADLINE_OF = {
    "races": "setup", "capitals": "setup", "settlements": "setup", "armies": "setup",
    "orders": "orders", "resolution": "orders", "battles": "battles", "reform": "orders",
    "recall": "winter", "gather": "winter", "tithe": "winter", "build": "winter",
    "feed": "winter", "deploy": "winter",
}  # fmt: skip


class ServiceError(Exception):
    """A refusal a player or admin understands; nothing was changed."""

    def __init__(self, message: str, *, code: str = "refused", field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.field = field


# --- reading -------------------------------------------------------------------------


def latest_snapshot(campaign: Campaign) -> Snapshot:
    snapshot = campaign.snapshots.order_by("-number").first()
    if snapshot is None:
        raise ServiceError("The campaign has not started yet.", code="not-started")
    return snapshot


def kingdom_of(campaign: Campaign, user: User) -> str:
    membership = campaign.memberships.filter(user=user).exclude(kingdom="").first()
    if membership is None:
        raise ServiceError("You don't rule a kingdom in this campaign.", code="not-a-player")
    return membership.kingdom


def is_admin(campaign: Campaign, user: User) -> bool:
    return campaign.memberships.filter(user=user, is_admin=True).exists()


def owing(data: Json) -> set[str]:
    """The kingdoms the campaign is waiting for."""
    return {p["kingdom"] for p in data.get("pending", [])}


def ready_kingdoms(campaign: Campaign) -> set[str]:
    """Kingdoms with every open decision marked ready."""
    open_ = Submission.objects.filter(campaign=campaign, consumed_by=None).exclude(kingdom="")
    return {k for k in open_.values_list("kingdom", flat=True)} - {
        k for k in open_.filter(ready=False).values_list("kingdom", flat=True)
    }


# While its orders are asked, a kingdom may also state its battle preferences for this
# month: which tiles to pick first (ruling B2) and a naval battle instead of a pitched one
# (B3), or concede a battle before it is fought (B4).
ALSO_ASKED = {"orders": {"battle_choices", "battles"}, "battle_choices": {"battles"}}


def asked_of(data: Json, kingdom: str) -> set[str]:
    """The `inputs` keys the campaign is waiting for from this kingdom."""
    asked = {ANSWERS[p["kind"]] for p in data.get("pending", []) if p["kingdom"] == kingdom}
    return asked.union(*(ALSO_ASKED.get(key, set()) for key in asked))


# --- creating and joining ------------------------------------------------------------------


def require_admin(campaign: Campaign, actor: User) -> None:
    if not is_admin(campaign, actor):
        raise ServiceError("Only the campaign's admins may do that.", code="not-an-admin")


def _unique_slug(model: type[Campaign], base: str) -> str:
    slug, n = base or "campaign", 1
    while model.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


@transaction.atomic
def campaign_create(
    *,
    name: str,
    admin: User,
    kingdoms: int,
    map_name: str = "generated",
    size: int | None = None,
    options: Json | None = None,
    deadlines: dict[str, int] | None = None,
) -> Campaign:
    """A campaign open for players, on a built-in map or a generated one."""
    if not 2 <= kingdoms <= 8:
        raise ServiceError(
            "A campaign has 2 to 8 kingdoms.", code="kingdom-count", field="kingdoms"
        )
    options = {
        "years": 6,
        "months": 6,
        "orders": "sealed",
        "battles": "tabletop",
        "seed": 1,
        **(options or {}),
    }
    if map_name == "generated":
        hexmap = generate_map(kingdoms, int(options["seed"]), size or 45 * kingdoms)
    elif map_name in BUILTIN_MAPS:
        info = BUILTIN_MAPS[map_name]
        if not info.min_kingdoms <= kingdoms <= info.max_kingdoms:
            raise ServiceError(
                f"{info.title} is for {info.min_kingdoms} to {info.max_kingdoms} kingdoms.",
                code="map-size", field="map_name",
            )  # fmt: skip
        hexmap = load_builtin_map(map_name)
    else:
        raise ServiceError(
            f"There is no map called {map_name!r}.", code="unknown-map", field="map_name"
        )
    campaign = Campaign.objects.create(
        name=name,
        slug=_unique_slug(Campaign, slugify(name)[:50]),
        kingdoms=kingdoms,
        options=options,
        deadlines={**default_deadlines(), **(deadlines or {})},
        map_name=map_name,
        map=map_to_json(hexmap),
    )
    Membership.objects.create(campaign=campaign, user=admin, is_admin=True)
    record_audit(campaign, admin, "created", details={"kingdoms": kingdoms, "map": map_name})
    return campaign


def campaign_for_code(code: str) -> Campaign:
    """The campaign a join code (from the invitation link) belongs to."""
    campaign = Campaign.objects.filter(join_code=code.strip()).first()
    if campaign is None:
        raise ServiceError("No campaign has that join code.", code="unknown-code", field="code")
    return campaign


@transaction.atomic
def campaign_join(
    *, campaign: Campaign, user: User, kingdom_name: str, colour: str = "", heraldry: str = ""
) -> Membership:
    """Take a kingdom in a campaign that is open for players."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError("This campaign has already started.", code="not-open")
    players = campaign.memberships.exclude(kingdom="")
    if players.filter(user=user).exists():
        raise ServiceError("You already rule a kingdom in this campaign.", code="already-joined")
    if players.count() >= campaign.kingdoms:
        raise ServiceError("Every kingdom of this campaign is taken.", code="full")
    name = kingdom_name.strip()
    if not name:
        raise ServiceError("Your kingdom needs a name.", code="no-name", field="kingdom_name")
    base = slugify(name)[:12].strip("-") or "kingdom"
    kingdom, n = base, 1
    while players.filter(kingdom=kingdom).exists():
        n += 1
        kingdom = f"{base}{n}"
    membership, _ = Membership.objects.update_or_create(
        campaign=campaign,
        user=user,
        defaults={
            "kingdom": kingdom,
            "kingdom_name": name,
            "colour": colour,
            "heraldry": heraldry or name[:1].upper(),
        },
    )
    return membership


@transaction.atomic
def campaign_start(*, campaign: Campaign, actor: User) -> Snapshot:
    """Start a full campaign at setup: the first snapshot, waiting for the races."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    require_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError("This campaign has already started.", code="not-open")
    players = list(campaign.memberships.exclude(kingdom="").order_by("joined_at", "pk"))
    if len(players) != campaign.kingdoms:
        raise ServiceError(
            f"{len(players)} of {campaign.kingdoms} kingdoms have joined.", code="not-full"
        )
    data: Json = {
        "format": 1,
        "name": campaign.name,
        "options": campaign.options,
        "map": campaign.map,
        "clock": {"year": 1, "season": "setup", "month": 0, "step": "races"},
        "kingdoms": [{"id": m.kingdom, "name": m.kingdom_name} for m in players],
    }
    try:
        started = advance(data)
    except RuleError as error:
        raise ServiceError(error.message, code=error.code, field=error.field) from None
    snapshot = store_snapshot(
        campaign=campaign, number=1, data=started, reason=Snapshot.Reason.START, created_by=actor
    )
    campaign.status = Campaign.Status.RUNNING
    _open_deadline(campaign, started)
    campaign.save()
    record_audit(campaign, actor, "started")
    return snapshot


# --- submissions ----------------------------------------------------------------------


def merge_inputs(
    inputs: Json, kind: str, kingdom: str, payload: Any, *, append: bool = False
) -> Json:
    """The inputs with one kingdom's decision of one kind added."""
    merged = copy.deepcopy(inputs)
    if kind in LISTED:
        merged.setdefault(kind, []).extend(payload)
    elif kind in BY_UNIT:
        merged.setdefault(kind, {}).update(payload)
    elif append:
        merged.setdefault(kind, {}).setdefault(kingdom, []).extend(payload)
    else:
        merged.setdefault(kind, {})[kingdom] = payload
    return merged


def _cycle_orders(data: Json, kind: str) -> bool:
    return kind == "orders" and data["options"].get("orders") == "cycle"


def _check_with_engine(data: Json, kind: str, kingdom: str, payload: Any) -> None:
    """Run the engine on the state with this decision added: an illegal decision is refused
    now, in the game's words, rather than at the deadline."""
    trial = {
        **data,
        "inputs": merge_inputs(
            data.get("inputs", {}), kind, kingdom, payload, append=_cycle_orders(data, kind)
        ),
    }
    try:
        advance(trial)
    except RuleError as error:
        raise ServiceError(error.message, code=error.code, field=error.field) from None


# What a player may say about a battle through its submissions: for its own kingdom only.
# Results reach the engine through `battle_entry_save`, once the opponent has confirmed a
# report or the admin has decided (the battles app).
PLAYER_BATTLE_ENTRIES = {"concede", "last_stand", "naval"}


def _check_own(data: Json, kind: str, kingdom: str, payload: Any) -> None:
    """A player decides only for its own kingdom and its own units."""
    if kind in LISTED:
        for entry in payload if isinstance(payload, list) else [payload]:
            said = set(entry) - {"hex"} if isinstance(entry, dict) else set()
            if len(said) != 1 or not said <= PLAYER_BATTLE_ENTRIES or entry[said.pop()] != kingdom:
                raise ServiceError(
                    "You may concede, make a Last Stand or choose a naval battle for your own "
                    "kingdom; results are reported on the battle's card.",
                    code="not-yours", field=kind,
                )  # fmt: skip
    if kind in BY_UNIT:
        own = {u["id"] for u in (*data["armies"], *data["ships"]) if u["kingdom"] == kingdom}
        if not isinstance(payload, dict) or not set(payload) <= own:
            raise ServiceError(
                "You may only move your own kingdom's units.", code="not-yours", field=kind
            )


@transaction.atomic
def submission_save(
    *, campaign: Campaign, user: User, kind: str, payload: Any, seen: int | None = None
) -> Submission:
    """Give or change a decision the campaign is waiting for from the user's kingdom. In
    `cycle` mode an order is given once and is final; otherwise it may be changed until
    the kingdom marks itself ready. `seen` is the snapshot the player was looking at: if
    the campaign has moved on since, the decision is refused rather than applied to a
    step the player never saw."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    kingdom = kingdom_of(campaign, user)
    if campaign.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
        raise ServiceError("The campaign is not running.", code="not-running")
    snapshot = latest_snapshot(campaign)
    _check_seen(snapshot, seen)
    if kind not in KINDS or kind not in asked_of(snapshot.data, kingdom):
        raise ServiceError(
            "Nothing of that kind is asked of your kingdom now.", code="not-asked", field=kind
        )
    _check_own(snapshot.data, kind, kingdom, payload)
    # An order given in the cycle (ruling O1) and a battle entry are final once given.
    final = _cycle_orders(snapshot.data, kind) or kind in LISTED
    submission = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, kind=kind, consumed_by=None
    ).first()
    given = submission.payload if final and submission is not None else []
    _check_with_engine(snapshot.data, kind, kingdom, [*given, *payload] if final else payload)
    if submission is not None and submission.ready and not final:
        raise ServiceError(
            "You marked this ready: withdraw that first to change it.", code="already-ready"
        )
    if submission is None:
        submission = Submission(
            campaign=campaign, kingdom=kingdom, kind=kind, payload=[] if final else None
        )
    submission.payload = [*submission.payload, *payload] if final else payload
    submission.snapshot = snapshot.number
    submission.submitted_by = user
    submission.ready = final
    submission.save()
    if final:
        _advance_when_ready(campaign, snapshot)
    return submission


def _check_seen(snapshot: Snapshot, seen: int | None) -> None:
    """`seen` is the snapshot the player was looking at: a decision made for a step that
    has moved on since is refused rather than applied to a step the player never saw."""
    if seen is not None and seen != snapshot.number:
        raise ServiceError(
            "The campaign has moved on since you looked: check the new state and decide again.",
            code="moved-on",
        )


@transaction.atomic
def submission_set_ready(
    *, campaign: Campaign, user: User, ready: bool = True, seen: int | None = None
) -> int:
    """Mark (or unmark) every open decision of the user's kingdom ready. When every kingdom
    the campaign waits for is ready, the campaign advances. `seen` as for
    `submission_save`."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    kingdom = kingdom_of(campaign, user)
    snapshot = latest_snapshot(campaign)
    _check_seen(snapshot, seen)
    count = Submission.objects.filter(campaign=campaign, kingdom=kingdom, consumed_by=None).update(
        ready=ready
    )
    if ready and count:
        _advance_when_ready(campaign, snapshot)
    return count


def everyone_ready(campaign: Campaign, snapshot: Snapshot) -> bool:
    """Every kingdom the campaign waits for has a ready decision for each kind it owes.
    When only tabletop results are awaited, any reported result or concession will do:
    the engine applies what it can, in picking order (ruling B11)."""
    ready = set(
        Submission.objects.filter(campaign=campaign, consumed_by=None, ready=True).values_list(
            "kingdom", "kind"
        )
    )
    pending = snapshot.data.get("pending", [])
    owed = {(p["kingdom"], ANSWERS[p["kind"]]) for p in pending if p["kind"] != "battle_result"}
    if owed:
        return owed <= ready
    return any(kind == "battles" for _, kind in ready)


def _advance_when_ready(campaign: Campaign, snapshot: Snapshot) -> None:
    if campaign.status == Campaign.Status.RUNNING and everyone_ready(campaign, snapshot):
        queue_advance(campaign, snapshot.number)


def queue_advance(campaign: Campaign, snapshot_number: int, *, defaults: bool = False) -> None:
    """Advance in the background once this transaction has committed."""
    from campaign.tasks import advance_campaign

    transaction.on_commit(
        lambda: advance_campaign.delay(campaign.pk, snapshot_number, defaults=defaults)
    )


# --- battles -------------------------------------------------------------------------


def check_battle_entry(campaign: Campaign, entry: Json) -> Snapshot:
    """Refused unless a battle in the entry's hex waits for its result and the engine
    accepts the entry; the newest snapshot otherwise."""
    snapshot = latest_snapshot(campaign)
    awaiting = [
        b["hex"] for b in snapshot.data.get("battles", []) if b["status"] == "awaiting_result"
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
    _check_with_engine(snapshot.data, "battles", "", [entry])
    return snapshot


SETTLING = ("result", "resolve", "concede")


def battle_settled_meanwhile(campaign: Campaign, hex: list[int]) -> bool:
    """A result, a switch to a simple battle or a concession for the battle in this hex is
    among the decisions not yet used by an advance."""
    open_entries = Submission.objects.filter(campaign=campaign, kind="battles", consumed_by=None)
    return any(
        entry.get("hex") == hex and any(key in entry for key in SETTLING)
        for payload in open_entries.values_list("payload", flat=True)
        for entry in payload
    )


@transaction.atomic
def battle_entry_save(
    *,
    campaign: Campaign,
    actor: User,
    entry: Json,
    audit: str = "",
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
    _check_seen(snapshot, seen)
    submission, _ = Submission.objects.get_or_create(
        campaign=campaign, kingdom="", kind="battles", consumed_by=None,
        defaults={"payload": [], "snapshot": snapshot.number, "submitted_by": actor, "ready": True},
    )  # fmt: skip
    submission.payload = [*submission.payload, entry]
    submission.save()
    if audit:
        record_audit(campaign, actor, audit, reason, details=entry)
    _advance_when_ready(campaign, snapshot)
    return submission


# --- advancing ------------------------------------------------------------------------


def gather_inputs(snapshot: Snapshot, submissions: Iterable[Submission]) -> Json:
    inputs: Json = copy.deepcopy(snapshot.data.get("inputs", {}))
    for submission in submissions:
        cycle = _cycle_orders(snapshot.data, submission.kind)
        inputs = merge_inputs(
            inputs, submission.kind, submission.kingdom, submission.payload, append=cycle
        )
    return inputs


def campaign_advance(
    *, campaign_id: int, snapshot_number: int, defaults: bool = False, actor: User | None = None
) -> Snapshot | None:
    """Gather the decisions into `inputs`, run the engine, store the new snapshot and open
    the next deadline. Does nothing if the campaign has moved on from `snapshot_number`
    (so a task may run twice). With `defaults`, missing decisions take the rulings'
    deadline defaults and drafts not yet marked ready count. If the engine refuses, nothing
    changes but the campaign is paused and the refusal recorded, for its admins to see."""
    try:
        return _advance_locked(campaign_id, snapshot_number, defaults=defaults, actor=actor)
    except RuleError as error:
        with transaction.atomic():
            campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
            if campaign.status == Campaign.Status.RUNNING:
                campaign.paused_with = (
                    (campaign.deadline - timezone.now()) if campaign.deadline else None
                )
                campaign.status, campaign.deadline = Campaign.Status.PAUSED, None
                campaign.save()
            details = {
                "snapshot": snapshot_number,
                "code": error.code,
                "field": error.field,
                "message": error.message,
            }
            record_audit(
                campaign,
                actor,
                "advance-refused",
                "The rules engine refused to advance; the campaign is paused.",
                details,
            )
        raise ServiceError(error.message, code=error.code, field=error.field) from None


@transaction.atomic
def _advance_locked(
    campaign_id: int, snapshot_number: int, *, defaults: bool, actor: User | None
) -> Snapshot | None:
    campaign = Campaign.objects.select_for_update().filter(pk=campaign_id).first()
    if campaign is None or campaign.status == Campaign.Status.ENDED:
        return None  # deleted, or over, since the task was queued
    latest = latest_snapshot(campaign)
    if latest.number != snapshot_number:
        return None
    open_submissions = Submission.objects.filter(campaign=campaign, consumed_by=None)
    used = list(open_submissions if defaults else open_submissions.filter(ready=True))
    inputs = gather_inputs(latest, used)
    advanced = advance({**latest.data, "inputs": inputs}, defaults=defaults)
    snapshot = store_snapshot(
        campaign=campaign, number=latest.number + 1, data=advanced, decisions=inputs,
        reason=Snapshot.Reason.ADVANCE, defaults=defaults, created_by=actor,
    )  # fmt: skip
    Submission.objects.filter(pk__in=[s.pk for s in used]).update(consumed_by=snapshot)
    if advanced["clock"]["season"] == "ended":
        campaign.status = Campaign.Status.ENDED
        campaign.deadline = None
    else:
        _open_deadline(campaign, advanced)
    campaign.save()
    if actor is not None:
        record_audit(
            campaign, actor, "advanced", details={"snapshot": snapshot.number, "defaults": defaults}
        )
    return snapshot


def store_snapshot(**fields: Any) -> Snapshot:
    """Store a new snapshot and announce it (`signals.snapshot_stored`) inside the same
    transaction, so the rows other apps keep of it (battles) commit with it."""
    snapshot = Snapshot.objects.create(**fields)
    snapshot_stored.send(sender=Snapshot, campaign=snapshot.campaign, snapshot=snapshot)
    return snapshot


def _open_deadline(campaign: Campaign, data: Json) -> None:
    hours = campaign.deadlines.get(DEADLINE_OF.get(data["clock"]["step"], "orders"), 72)
    due = timezone.now() + timedelta(hours=hours)
    if campaign.status == Campaign.Status.PAUSED:
        campaign.paused_with = due - timezone.now()
    else:
        campaign.deadline = due


def campaigns_due(now: Any = None) -> list[tuple[int, int]]:
    """(campaign id, snapshot number) of every running campaign whose deadline has passed."""
    now = now or timezone.now()
    due = Campaign.objects.filter(status=Campaign.Status.RUNNING, deadline__lte=now)
    return [(campaign.pk, latest_snapshot(campaign).number) for campaign in due]


# --- admin controls -------------------------------------------------------------------


def _locked_for_admin(campaign: Campaign, actor: User) -> Campaign:
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    require_admin(campaign, actor)
    return campaign


@transaction.atomic
def campaign_pause(*, campaign: Campaign, actor: User, reason: str = "") -> Campaign:
    """Deadlines stop; the time left is kept for the resume."""
    campaign = _locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.RUNNING:
        raise ServiceError("Only a running campaign can be paused.", code="not-running")
    campaign.paused_with = (campaign.deadline - timezone.now()) if campaign.deadline else None
    campaign.status, campaign.deadline = Campaign.Status.PAUSED, None
    campaign.save()
    record_audit(campaign, actor, "paused", reason)
    return campaign


@transaction.atomic
def campaign_resume(*, campaign: Campaign, actor: User, reason: str = "") -> Campaign:
    campaign = _locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.PAUSED:
        raise ServiceError("The campaign is not paused.", code="not-paused")
    left = max(campaign.paused_with or timedelta(0), timedelta(0))
    campaign.status = Campaign.Status.RUNNING
    campaign.deadline, campaign.paused_with = timezone.now() + left, None
    campaign.save()
    record_audit(campaign, actor, "resumed", reason)
    _advance_when_ready(campaign, latest_snapshot(campaign))  # all may have got ready meanwhile
    return campaign


@transaction.atomic
def campaign_extend(*, campaign: Campaign, actor: User, hours: int, reason: str = "") -> Campaign:
    campaign = _locked_for_admin(campaign, actor)
    if hours < 1:
        raise ServiceError("Extend by at least one hour.", code="bad-hours", field="hours")
    if campaign.status == Campaign.Status.PAUSED:
        campaign.paused_with = (campaign.paused_with or timedelta(0)) + timedelta(hours=hours)
    elif campaign.deadline is not None:
        campaign.deadline += timedelta(hours=hours)
    else:
        raise ServiceError("The campaign has no deadline to extend.", code="no-deadline")
    campaign.save()
    record_audit(campaign, actor, "extended", reason, {"hours": hours})
    return campaign


def campaign_advance_now(*, campaign: Campaign, actor: User, reason: str = "") -> Snapshot | None:
    """The admin advances at once, with the deadline defaults for whoever is not ready."""
    with transaction.atomic():
        locked = _locked_for_admin(campaign, actor)
        number = latest_snapshot(locked).number
    snapshot = campaign_advance(
        campaign_id=campaign.pk, snapshot_number=number, defaults=True, actor=actor
    )
    if reason and snapshot is not None:
        record_audit(campaign, actor, "advanced-now", reason, {"snapshot": snapshot.number})
    return snapshot


@transaction.atomic
def campaign_undo(*, campaign: Campaign, actor: User, reason: str) -> Snapshot:
    """Back to the state before the last advance, as a new snapshot. The decisions that
    advance used are open again (not ready); those given since are kept for review."""
    campaign = _locked_for_admin(campaign, actor)
    latest = latest_snapshot(campaign)
    if latest.number < 2:
        raise ServiceError("There is no advance to undo.", code="nothing-to-undo")
    previous = campaign.snapshots.get(number=latest.number - 1)
    snapshot = store_snapshot(
        campaign=campaign, number=latest.number + 1, data=previous.data, decisions={},
        reason=Snapshot.Reason.UNDO, created_by=actor,
    )  # fmt: skip
    Submission.objects.filter(campaign=campaign, consumed_by=None).update(consumed_by=snapshot)
    for submission in Submission.objects.filter(campaign=campaign, consumed_by=latest):
        submission.consumed_by, submission.ready = None, False
        submission.save()
    if campaign.status == Campaign.Status.ENDED:
        campaign.status = Campaign.Status.RUNNING
    _open_deadline(campaign, previous.data)
    campaign.save()
    record_audit(
        campaign,
        actor,
        "undone",
        reason,
        {"undid": latest.number, "back_to": previous.number, "snapshot": snapshot.number},
    )
    return snapshot


@transaction.atomic
def campaign_correct(
    *, campaign: Campaign, actor: User, reason: str, data: Json, what: str
) -> Snapshot:
    """The admin corrects the state (a tile, an army, resources): the corrected file is
    checked by the engine, stored as a new snapshot, and recorded with its reason."""
    campaign = _locked_for_admin(campaign, actor)
    if not reason.strip():
        raise ServiceError("Say why the state is corrected.", code="no-reason", field="reason")
    latest = latest_snapshot(campaign)
    try:
        parse_campaign(data)
    except RuleError as error:
        raise ServiceError(error.message, code=error.code, field=error.field) from None
    snapshot = store_snapshot(
        campaign=campaign,
        number=latest.number + 1,
        data=data,
        reason=Snapshot.Reason.CORRECTION,
        created_by=actor,
    )
    record_audit(campaign, actor, "corrected", reason, {"what": what, "snapshot": snapshot.number})
    return snapshot


def correct_tile(
    *,
    campaign: Campaign,
    actor: User,
    reason: str,
    hex: list[int],
    owner: str | None,
    settlement: str | None,
) -> Snapshot:
    """Set (or clear, with owner None) the explored tile at a hex."""
    data = copy.deepcopy(latest_snapshot(campaign).data)
    tiles = [t for t in data["tiles"] if t["hex"] != hex]
    if owner is not None:
        tiles.append({"hex": hex, "owner": owner, "settlement": settlement})
    data["tiles"] = sorted(tiles, key=lambda t: tuple(t["hex"]))
    return campaign_correct(
        campaign=campaign, actor=actor, reason=reason, data=data, what=f"tile {hex}"
    )


def correct_army(
    *,
    campaign: Campaign,
    actor: User,
    reason: str,
    army: str,
    hex: list[int] | None,
    upright: bool = True,
) -> Snapshot:
    """Move an army (or remove it, with hex None)."""
    data = copy.deepcopy(latest_snapshot(campaign).data)
    found = next((a for a in data["armies"] if a["id"] == army), None)
    if found is None:
        raise ServiceError(f"There is no army {army}.", code="unknown-unit", field="army")
    if hex is None:
        data["armies"] = [a for a in data["armies"] if a["id"] != army]
    else:
        found.update(hex=hex, upright=upright)
    return campaign_correct(
        campaign=campaign, actor=actor, reason=reason, data=data, what=f"army {army}"
    )


def correct_resources(
    *, campaign: Campaign, actor: User, reason: str, kingdom: str, gold: int, food: int
) -> Snapshot:
    data = copy.deepcopy(latest_snapshot(campaign).data)
    found = next((k for k in data["kingdoms"] if k["id"] == kingdom), None)
    if found is None:
        raise ServiceError(
            f"There is no kingdom {kingdom}.", code="unknown-kingdom", field="kingdom"
        )
    found.update(gold=gold, food=food)
    return campaign_correct(
        campaign=campaign, actor=actor, reason=reason, data=data, what=f"resources of {kingdom}"
    )


def record_audit(
    campaign: Campaign,
    actor: User | None,
    action: str,
    reason: str = "",
    details: Json | None = None,
) -> None:
    AuditEntry.objects.create(
        campaign=campaign, actor=actor, action=action, reason=reason, details=details or {}
    )
