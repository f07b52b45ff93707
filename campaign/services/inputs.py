"""The decisions gathered into the campaign file's `inputs`, checked by the engine, and
whether every kingdom the campaign waits for is ready."""

import copy
import re
from collections.abc import Iterable
from dataclasses import dataclass
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
from campaign.services.common import (
    Json,
    ServiceError,
    named,
)


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
    return kind == "orders" and orders_in_cycle(data["options"])


def check_with_engine(data: Json, kind: str, kingdom: str, payload: Any) -> None:
    """Run the engine on the state with this decision added: an illegal decision is refused
    now, in the game's words, rather than at the deadline."""
    trial = merge_inputs(
        data.get("inputs", {}), kind, kingdom, payload, append=cycle_orders(data, kind)
    )
    _judged(data, trial)


def check_decisions_with_engine(data: Json, decisions: Iterable[Submission]) -> None:
    """Run the engine on the state with these decisions (a kingdom's, all of them) added:
    refused, in the game's words, if together they no longer stand (the state was
    corrected since they were given, say)."""
    _judged(data, gather_inputs(data, decisions))


def _judged(data: Json, inputs: Json) -> None:
    try:
        advance({**data, "inputs": inputs})
    except RuleError as error:
        raise ServiceError(named(error.message, data), code=error.code, field=error.field) from None


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
    owed = {(p["kingdom"], ANSWERS[p["kind"]]) for p in pending if p["kind"] != "battle_result"}
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


@dataclass(frozen=True)
class SetAside:
    """A kingdom's decision (one entry of it, or all of it) that the engine refused at a
    deadline: left out, so its unit or kingdom takes the deadline default instead."""

    kingdom: str
    kind: str
    why: str


# Where the engine places a refusal among the decisions: "inputs.orders.red[2]",
# "inputs.retreats.red-1", "inputs.capitals.red".
INPUT_FIELD = re.compile(r"^inputs\.(?P<kind>\w+)\.(?P<key>[\w-]+)(?:\[(?P<index>\d+)\])?")


def set_aside(
    data: Json, submissions: list[Submission], error: RuleError
) -> tuple[list[Submission], SetAside] | None:
    """The decisions without the entry the engine's `error` names, if it is one of theirs:
    a kingdom's list loses that entry, a unit's order its unit, any other decision goes
    whole. None if the error names nothing of theirs (the campaign then pauses)."""
    found = INPUT_FIELD.match(error.field or "")
    if found is None:
        return None
    kind, key, index = found["kind"], found["key"], found["index"]
    for i, submission in enumerate(submissions):
        payload = submission.payload
        kept: Any
        if submission.kind != kind:
            continue
        if kind in BY_UNIT and isinstance(payload, dict) and key in payload:
            kept = {unit: where for unit, where in payload.items() if unit != key}
        elif submission.kingdom != key:
            continue
        elif index is not None and isinstance(payload, list) and not cycle_orders(data, kind):
            if int(index) >= len(payload):
                return None
            kept = [entry for n, entry in enumerate(payload) if n != int(index)]
        else:
            kept = None
        left = copy.copy(submission)
        left.payload = kept
        rest = [*submissions[:i], *([left] if kept else []), *submissions[i + 1 :]]
        return rest, SetAside(submission.kingdom, kind, named(error.message, data))
    return None
