"""A kingdom's decisions: given, changed and marked ready, each checked by the engine as
it is given."""

import hashlib
import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from accounts.models import User
from campaign.display.optional import purchases_refused
from campaign.models import (
    Campaign,
    Snapshot,
    Submission,
)
from campaign.rules.decisions import ANSWER_KEYS, BY_UNIT, HONOUR_WISHES, LISTED, STANDING
from campaign.rules.hexmap import neighbours
from campaign.rules.state import PendingKind
from campaign.services.advancing import advance_when_ready
from campaign.services.common import (
    Json,
    ServiceError,
    asked_of,
    check_seen,
    kingdom_of,
    latest_snapshot,
)
from campaign.services.inputs import check_decisions_with_engine, check_with_engine, cycle_orders
from campaign.words import names_of

# What a player may say about a battle through its submissions: for its own kingdom only.
# Results reach the engine through `battle_entry_save`, once the opponent has confirmed a
# report or the admin has decided (the battles app).
PLAYER_BATTLE_ENTRIES = {"concede", "last_stand", "naval"}


def _check_own(
    data: Json, kind: str, kingdom: str, payload: Any, gazetteer: Json | None = None
) -> None:
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
    if kind == PendingKind.PURCHASES and isinstance(payload, list):
        _check_quests(data, kingdom, payload, gazetteer)
        refusal = purchases_refused(data, kingdom, payload, names_of(data, gazetteer))
        if refusal is not None:  # what an option's build step would skip: refused now
            raise ServiceError(refusal, code="not-possible", field="purchases")
    if kind in BY_UNIT:
        own = {u["id"] for u in (*data["armies"], *data["ships"]) if u["kingdom"] == kingdom}
        if not isinstance(payload, dict) or not set(payload) <= own:
            raise ServiceError(
                "You may only move your own kingdom's units.", code="not-yours", field=kind
            )


def _check_quests(data: Json, kingdom: str, purchases: list[Any], gazetteer: Json | None) -> None:
    """Option wizards (OA6): a hero goes only to a Wizard's tower beside the kingdom's
    lands. The engine would skip such a quest at the build step; the page refuses it now."""
    own = {tuple(t["hex"]) for t in data["tiles"] if t["owner"] == kingdom}
    for purchase in purchases:
        tower = _quest_tower(purchase)
        if tower is None:
            continue  # not a quest, or one the engine refuses by its shape
        if not any(n in own for n in neighbours(tower)):
            where = names_of(data, gazetteer).at(tower)
            raise ServiceError(
                f"Your kingdom controls no tile next to the tower {where}: a hero goes only to "
                "a Wizard's tower beside your lands (option OA6).",
                code="quest-not-bordered", field="purchases",
            )  # fmt: skip


def _quest_tower(purchase: Any) -> tuple[int, int] | None:
    tower = purchase.get("quest") if isinstance(purchase, dict) else None
    if not isinstance(tower, list) or len(tower) != 2 or not all(type(c) is int for c in tower):
        return None
    return (tower[0], tower[1])


@dataclass(frozen=True)
class Saved:
    """What giving a decision did, for the page to be drawn from: `submission`, the
    kingdom's decision as saved; `snapshot`, the newest snapshot, which the engine judged
    it against; `final`, the decision is final once given (an order in the cycle, a battle
    entry): the campaign may have advanced past `snapshot` since (`advance_when_ready`)."""

    submission: Submission
    snapshot: Snapshot
    final: bool

    @property
    def unmoved(self) -> Snapshot | None:
        """The snapshot the page is drawn from: the one the write read, unless the campaign
        may have moved on since (then None: the page reads the newest)."""
        return None if self.final else self.snapshot


@dataclass(frozen=True)
class Readied:
    """What Ready (or taking it back) did: `count`, the kingdom's open decisions marked;
    `snapshot`, the newest snapshot, read once under the campaign's lock; `queued`, the
    campaign's advance was queued (every kingdom is ready): it may have moved on since."""

    count: int
    snapshot: Snapshot
    queued: bool

    @property
    def unmoved(self) -> Snapshot | None:
        """As `Saved.unmoved`."""
        return None if self.queued else self.snapshot


type Written = Saved | Readied

# What a page checks before Ready, from the newest snapshot and the kingdom's open decisions
# (read once, under the campaign's lock): the decisions the page showed that the kingdom
# never gave (by `inputs` key), given first; a ServiceError refuses the Ready.
type Judge = Callable[[Snapshot, list[Submission]], Mapping[str, Any]]


type Edit = Callable[[Json, Submission | None], Any]


def _decided_on(campaign: Campaign, user: User, seen: int | None) -> tuple[Campaign, str, Snapshot]:
    """The campaign, locked; the user's kingdom; the newest snapshot, the one the player's
    page showed (`seen`), or refused."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    kingdom = kingdom_of(campaign, user)
    if campaign.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
        raise ServiceError("The campaign is not running.", code="not-running")
    snapshot = latest_snapshot(campaign)
    check_seen(snapshot, seen)
    return campaign, kingdom, snapshot


@transaction.atomic
def save(
    *,
    campaign: Campaign,
    user: User,
    kind: str,
    payload: Any = None,
    edit: Edit | None = None,
    seen: int | None = None,
) -> Saved:
    """Give or change a decision the campaign is waiting for from the user's kingdom. In
    `cycle` mode an order is given once and is final; otherwise it may be changed until
    the kingdom marks itself ready. `seen` is the snapshot the player was looking at: if
    the campaign has moved on since, the decision is refused rather than applied to a
    step the player never saw. `edit`, in place of `payload`: the decision worked out from
    the newest snapshot's data and the kingdom's open decision of that kind (None if it has
    none), read once, under the campaign's lock (a change to a draft the page showed)."""
    campaign, kingdom, snapshot = _decided_on(campaign, user, seen)
    submission = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, kind=kind, consumed_by=None
    ).first()
    if edit is not None:
        payload = edit(snapshot.data, submission)
    if kind not in ANSWER_KEYS or kind not in asked_of(snapshot.data, kingdom):
        raise ServiceError(
            "Nothing of that kind is asked of your kingdom now.", code="not-asked", field=kind
        )
    _check_own(snapshot.data, kind, kingdom, payload, campaign.gazetteer)
    # An order given in the cycle (ruling O1) and a battle entry are final once given.
    final = cycle_orders(snapshot.data, kind) or kind in LISTED
    given = submission.payload if final and submission is not None else []
    check_with_engine(
        snapshot.data,
        kind,
        kingdom,
        [*given, *payload] if final else payload,
        gazetteer=campaign.gazetteer,
    )
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
        advance_when_ready(campaign, snapshot)
    return Saved(submission, snapshot, final)


def submission_save(
    *, campaign: Campaign, user: User, kind: str, payload: Any, seen: int | None = None
) -> Submission:
    """`save`, for a caller that needs only the decision saved (the bots, the battles)."""
    return save(campaign=campaign, user=user, kind=kind, payload=payload, seen=seen).submission


@transaction.atomic
def wishes_save(
    *,
    campaign: Campaign,
    user: User,
    wishes: list[str],
    seen: int | None = None,
    drawn: list[str] | None = None,
) -> Submission:
    """Option glory (OB2): the kingdom's secret honour wishes, its whole list in order,
    given at any step. Judged by the engine at once (an unknown or repeated honour is
    refused), kept as the kingdom's open decision of its kind, and used at the next
    advance, which applies it before anything else: it waits on nothing and holds up
    nobody (`decisions.STANDING`; app ruling A30). `drawn`: the list as the player's page
    showed it; refused if it has changed since (in another tab)."""
    campaign, kingdom, snapshot = _decided_on(campaign, user, seen)
    if not snapshot.data["options"].get("glory"):
        raise ServiceError("This campaign is played without glory and honours.", code="not-asked")
    if drawn is not None and drawn != wishes_now(campaign, kingdom, snapshot.data):
        raise ServiceError(
            "Your wishes changed in another tab or window since this page was drawn: here "
            "they are as they stand now.",
            code="wishes-changed",
        )
    check_with_engine(snapshot.data, HONOUR_WISHES, kingdom, wishes, gazetteer=campaign.gazetteer)
    submission, _ = Submission.objects.update_or_create(
        campaign=campaign,
        kingdom=kingdom,
        kind=HONOUR_WISHES,
        consumed_by=None,
        defaults={
            "payload": wishes,
            "snapshot": snapshot.number,
            "submitted_by": user,
            "ready": True,
        },
    )
    return submission


def wishes_now(campaign: Campaign, kingdom: str, data: Json) -> list[str]:
    """Option glory: the kingdom's secret wishes as it last gave them: a list the next
    advance applies, else the campaign file's (`data`, the newest)."""
    given = (
        Submission.objects.filter(
            campaign=campaign, kingdom=kingdom, kind=HONOUR_WISHES, consumed_by=None
        )
        .values_list("payload", flat=True)
        .first()
    )
    if given is not None:
        return list(given)
    own = next(k for k in data["kingdoms"] if k["id"] == kingdom)
    return list(own.get("honour_wishes") or [])


@transaction.atomic
def submission_set_ready(
    *,
    campaign: Campaign,
    user: User,
    ready: bool = True,
    seen: int | None = None,
    draft: str | None = None,
    judge: Judge | None = None,
) -> Readied:
    """Mark (or unmark) every open decision of the user's kingdom ready. When every kingdom
    the campaign waits for is ready, the campaign advances. `seen` as for
    `submission_save`; `draft` is the `draft_digest` of the decisions the player's page
    showed: a Ready from a page whose decisions have changed since (in another tab) is
    refused, so Ready commits what the player saw. `judge`: what the page checks first, and
    the decisions it showed but the kingdom never gave, given in the same transaction: a
    refusal leaves nothing changed."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    kingdom = kingdom_of(campaign, user)
    snapshot = latest_snapshot(campaign)
    check_seen(snapshot, seen)
    own = Submission.objects.filter(campaign=campaign, kingdom=kingdom, consumed_by=None)
    own = own.exclude(kind__in=STANDING)
    unsaved = judge(snapshot, list(own)) if judge is not None else {}
    if ready:
        check_draft(draft_digest(own), draft)
        for kind, payload in unsaved.items():
            if not own.filter(kind=kind).exists():
                submission_save(campaign=campaign, user=user, kind=kind, payload=payload, seen=seen)
        _check_still_stands(snapshot, own, campaign.gazetteer)
    count = own.update(ready=ready)
    queued = bool(ready and count) and advance_when_ready(campaign, snapshot)
    return Readied(count, snapshot, queued)


def _check_still_stands(
    snapshot: Snapshot, own: Iterable[Submission], gazetteer: Json | None
) -> None:
    """Ready commits the kingdom's whole draft, as the engine judges it now: a decision an
    admin's correction (or undo) has made illegal since it was given is refused here, in
    the game's words, rather than at the deadline. A lone decision given at this very
    snapshot was judged on it as it was given (the engine is pure; a snapshot's number is
    never reused): it is not judged again."""
    decisions = list(own)
    if len(decisions) == 1 and decisions[0].snapshot == snapshot.number:
        return
    try:
        check_decisions_with_engine(snapshot.data, decisions, gazetteer=gazetteer)
    except ServiceError as refused:
        raise ServiceError(
            f"Your decisions no longer stand as they are: {refused.message} Change them, then "
            "press Ready again.",
            code="draft-illegal", field=refused.field,
        ) from None  # fmt: skip


def draft_digest(decisions: Iterable[Submission]) -> str:
    """A short fingerprint of a kingdom's open decisions, as a page draws them."""
    given = sorted(
        (d.kind, json.dumps(d.payload, sort_keys=True)) for d in decisions if d.kind not in STANDING
    )
    return hashlib.sha256(json.dumps(given).encode()).hexdigest()[:16]


def check_draft(current: str, draft: str | None) -> None:
    """Refused unless the kingdom's open decisions (`current`, their digest) are those its
    page showed (`draft`; None from a caller that shows none)."""
    if draft is not None and draft != current:
        raise ServiceError(
            "Your decisions changed in another tab or window since this page was drawn: "
            "here they are as they stand now. Press Ready again if they are what you want.",
            code="draft-changed",
        )
