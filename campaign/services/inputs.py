"""The decisions gathered into the campaign file's `inputs`, checked by the engine, and
whether every kingdom the campaign waits for is ready."""

import copy
import re
from collections.abc import Iterable
from typing import Any

from campaign.models import (
    Campaign,
    Snapshot,
    Submission,
)
from campaign.rules.decisions import ANSWERS, BY_UNIT, LISTED
from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.options import orders_in_cycle
from campaign.rules.state import PendingKind
from campaign.services.common import (
    Json,
    ServiceError,
    named,
)
from campaign.signals import Refused as Refused
from campaign.words import names_of


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


def cycle_orders(data: Json, kind: str) -> bool:
    return kind == PendingKind.ORDERS and orders_in_cycle(data["options"])


def check_with_engine(
    data: Json, kind: str, kingdom: str, payload: Any, *, gazetteer: Json | None
) -> None:
    """Run the engine on the state with this decision added: an illegal decision is refused
    now, in the game's words (and the campaign's names, its `gazetteer`), rather than at
    the deadline."""
    trial = merge_inputs(
        data.get("inputs", {}), kind, kingdom, payload, append=cycle_orders(data, kind)
    )
    _judged(data, trial, gazetteer)


def check_decisions_with_engine(
    data: Json, decisions: Iterable[Submission], *, gazetteer: Json | None
) -> None:
    """Run the engine on the state with these decisions (a kingdom's, all of them) added:
    refused, in the game's words, if together they no longer stand (the state was
    corrected since they were given, say)."""
    _judged(data, gather_inputs(data, decisions), gazetteer)


def _judged(data: Json, inputs: Json, gazetteer: Json | None) -> None:
    try:
        advance({**data, "inputs": inputs})
    except RuleError as error:
        said = named(error.message, data, gazetteer)
        raise ServiceError(said, code=error.code, field=error.field) from None


def everyone_ready(campaign: Campaign, snapshot: Snapshot) -> bool:
    """Every kingdom the campaign waits for has a ready decision for each kind it owes.
    When only tabletop results are awaited, any reported result or concession will do:
    the engine applies what it can, in picking order (ruling B11)."""
    return everyone_ready_at(campaign, snapshot.data)


def everyone_ready_at(campaign: Campaign, data: Json) -> bool:
    """`everyone_ready`, for the newest snapshot's file."""
    ready = set(
        Submission.objects.filter(campaign=campaign, consumed_by=None, ready=True).values_list(
            "kingdom", "kind"
        )
    )
    pending = data.get("pending", [])
    owed = {
        (p["kingdom"], ANSWERS[p["kind"]])
        for p in pending
        if p["kind"] != PendingKind.BATTLE_RESULT
    }
    if owed:
        return owed <= ready
    return any(kind == "battles" for _, kind in ready)


def gather_inputs(data: Json, submissions: Iterable[Submission]) -> Json:
    """The file's `inputs` with these decisions added."""
    inputs: Json = copy.deepcopy(data.get("inputs", {}))
    for submission in submissions:
        cycle = cycle_orders(data, submission.kind)
        inputs = merge_inputs(
            inputs, submission.kind, submission.kingdom, submission.payload, append=cycle
        )
    return inputs


# Where the engine places a refusal among the decisions: "inputs.orders.red[2]",
# "inputs.retreats.red-1", "inputs.capitals.red"; a battle entry by its place among all
# of them: "inputs.battles[3].captured".
INPUT_FIELD = re.compile(r"^inputs\.(?P<kind>\w+)\.(?P<key>[\w-]+)(?:\[(?P<index>\d+)\])?")
LISTED_FIELD = re.compile(r"^inputs\.(?P<kind>\w+)\[(?P<position>\d+)\]")


def refused_details(refused: Refused) -> Json:
    """As the audit log keeps it."""
    return {
        "kingdom": refused.kingdom,
        "kind": refused.kind,
        "unit": refused.unit,
        "why": refused.why,
    }


def drafts_no_longer_standing(campaign: Campaign, data: Json) -> list[Refused]:
    """For each kingdom with open decisions, what of them the engine refuses on `data`."""
    drafts: dict[str, list[Submission]] = {}
    for submission in Submission.objects.filter(campaign=campaign, consumed_by=None):
        if submission.kingdom:
            drafts.setdefault(submission.kingdom, []).append(submission)
    found = (
        no_longer_standing(data, decisions, gazetteer=campaign.gazetteer)
        for decisions in drafts.values()
    )
    return [refused for refused in found if refused is not None]


def stale_draft(
    data: Json, number: int, decisions: Iterable[Submission], *, gazetteer: Json | None
) -> Refused | None:
    """`no_longer_standing` for a kingdom's open decisions at the newest snapshot (`number`,
    its file `data`), when any of them was given before it (a correction or an undo came
    since): those given on it were checked by the engine as they were given."""
    given = list(decisions)
    if not any(decision.snapshot < number for decision in given):
        return None
    return no_longer_standing(data, given, gazetteer=gazetteer)


def no_longer_standing(
    data: Json, decisions: Iterable[Submission], *, gazetteer: Json | None
) -> Refused | None:
    """What of a kingdom's open `decisions` the engine refuses on `data`, the newest state
    (None: they all stand)."""
    given = list(decisions)
    try:
        advance({**data, "inputs": gather_inputs(data, given)})
    except RuleError as error:
        found = _refused_entry(data, given, error, gazetteer)
        if found is not None:
            return found[2]
        kingdom = given[0].kingdom if given else ""
        why = named(error.message, data, gazetteer)
        return Refused(kingdom, given[0].kind if given else "", why)
    return None


def set_aside(
    data: Json, submissions: list[Submission], error: RuleError, *, gazetteer: Json | None
) -> tuple[list[Submission], Refused] | None:
    """The decisions without the entry the engine's `error` names, if it is one of theirs:
    a kingdom's list loses that entry, a unit's order its unit, a battle entry is taken
    out of its list, any other decision goes whole. None if the error names nothing of
    theirs (the campaign file's own state: the campaign then pauses)."""
    found = _refused_entry(data, submissions, error, gazetteer)
    if found is None:
        return None
    i, kept, refused = found
    left = copy.copy(submissions[i])
    left.payload = kept
    return [*submissions[:i], *([left] if kept else []), *submissions[i + 1 :]], refused


def _refused_listed(
    data: Json, submissions: list[Submission], kind: str, position: int, why: str
) -> tuple[int, Any, Refused] | None:
    """The submission holding the entry at `position` of the gathered `kind` list (the
    file's own entries first, then each submission's, in order: `gather_inputs`)."""
    place = position - len(data.get("inputs", {}).get(kind, []))
    if place < 0:
        return None  # one of the file's own
    for i, submission in enumerate(submissions):
        payload = submission.payload
        if submission.kind != kind or not isinstance(payload, list):
            continue
        if place < len(payload):
            entry = payload[place]
            rest = [e for n, e in enumerate(payload) if n != place]
            hex_ = entry.get("hex") if isinstance(entry, dict) else None
            return i, rest, Refused(submission.kingdom, kind, why, hex=hex_)
        place -= len(payload)
    return None


def _refused_entry(
    data: Json, submissions: list[Submission], error: RuleError, gazetteer: Json | None
) -> tuple[int, Any, Refused] | None:
    """Which of the `submissions` the engine's `error` names (its index), what of it is
    left without the refused entry (None: nothing), and the refusal; None if it names
    nothing of theirs."""
    names = names_of(data, gazetteer)
    why = names.said(error.message)
    listed = LISTED_FIELD.match(error.field or "")
    if listed is not None:
        return _refused_listed(data, submissions, listed["kind"], int(listed["position"]), why)
    found = INPUT_FIELD.match(error.field or "")
    if found is None:
        return None
    kind, key, index = found["kind"], found["key"], found["index"]
    for i, submission in enumerate(submissions):
        payload = submission.payload
        if submission.kind != kind:
            continue
        if kind in BY_UNIT and isinstance(payload, dict) and key in payload:
            others = {unit: where for unit, where in payload.items() if unit != key}
            return i, others, Refused(submission.kingdom, kind, why, key, names.unit(key))
        if submission.kingdom != key:
            continue
        if index is not None and isinstance(payload, list) and not cycle_orders(data, kind):
            if int(index) >= len(payload):
                return None
            entry = payload[int(index)]
            unit = entry.get("unit") if isinstance(entry, dict) else None
            rest = [e for n, e in enumerate(payload) if n != int(index)]
            named_unit = names.unit(unit) if unit else ""
            return i, rest, Refused(submission.kingdom, kind, why, unit, named_unit)
        return i, None, Refused(submission.kingdom, kind, why)
    return None
