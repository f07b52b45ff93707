"""The dashboard's board: what the campaign admin's page shows of where the campaign stands
(the clock, who plays and who may still join, what holds the campaign and what frees it,
who it waits for and how far each kingdom has got, the audit log).

Read only: the page fetches the newest snapshot, the members, whether each open decision
is ready or a draft (never its payload: orders are sealed) and the newest audit entries,
and this turns them into the page."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.urls import reverse

from campaign.asks import WORDS
from campaign.models import AuditEntry, Campaign, Membership, Snapshot
from campaign.rules import decisions
from campaign.rules.state import PendingKind
from campaign.words import kingdom_names

type Json = dict[str, Any]
type Readiness = dict[tuple[str, str], bool]  # by (kingdom, `inputs` key): ready, or a draft

AUDIT_SHOWN = 50
Action = AuditEntry.Action


@dataclass(frozen=True)
class Waiting:
    """A decision the newest snapshot waits for, and how far its kingdom has got with it."""

    kingdom: str
    player: str
    asked: str
    given: str


def _given(ready: bool | None) -> str:
    if ready is None:
        return "Nothing yet"
    return "Ready" if ready else "Draft, not ready"


def waiting_for(
    data: Json, ready: Readiness, names: dict[str, str], players: dict[str, str]
) -> list[Waiting]:
    """Each decision asked, with whether its kingdom has a draft or is ready."""
    asked = sorted({(p["kingdom"], p["kind"]) for p in data.get("pending", [])})
    return [
        Waiting(
            kingdom=names.get(kingdom, kingdom),
            player=players.get(kingdom, "nobody"),
            asked=WORDS[kind].ask,
            given="Reports: see Battles below"
            if kind == PendingKind.BATTLE_RESULT
            else _given(ready.get((kingdom, decisions.ANSWERS.get(kind, kind)))),
        )
        for kingdom, kind in asked
    ]


@dataclass(frozen=True)
class Hold:
    """What holds the campaign where it is, and the admin's way to free it: `way`, words
    linked to `href`, where it is done."""

    what: str
    href: str
    way: str


def _battles(n: int) -> str:
    return f"{n} battle{'s' if n != 1 else ''}"


def what_holds(
    campaign: Campaign,
    data: Json | None,
    ready: Readiness,
    audit: list[AuditEntry],
    settled: Sequence[Sequence[int]] = (),
) -> list[Hold]:
    """Why the campaign does not move on now, each with what frees it: paused (and why, if
    the rules refused to advance), tabletop results awaited (`settled`: the tiles of those
    whose result is in, waiting for an earlier one, ruling B11), kingdoms still deciding, or
    every decision in and the advance on its way."""
    if data is None or campaign.status in (Campaign.Status.OPEN, Campaign.Status.ENDED):
        return []
    if campaign.status == Campaign.Status.PAUSED:
        stops = (Action.PAUSED, Action.RESUMED, Action.ADVANCE_REFUSED)
        last = next((entry for entry in audit if entry.action in stops), None)
        said = (
            f": the rules refused to advance ({last.details.get('message', '')})"
            if last is not None and last.action == Action.ADVANCE_REFUSED
            else ""
        )
        return [Hold(f"The campaign is paused{said}.", "#controls", "Resume it")]
    holds = []
    pending = data.get("pending", [])
    results = {tuple(p["hex"]) for p in pending if p["kind"] == PendingKind.BATTLE_RESULT}
    given = results & {tuple(h) for h in settled}
    desk = reverse("battles:admin", args=[campaign.slug])
    if results - given:
        n = len(results - given)
        holds.append(Hold(
            f"{_battles(n)} await{'s' if n == 1 else ''} the tabletop's result: their players "
            "report it, or you record it.",
            desk, "The battles desk",
        ))  # fmt: skip
    if given:
        holds.append(Hold(
            f"{_battles(len(given))} ha{'s' if len(given) == 1 else 've'} its result in, applied "
            "once the battles picked before it are settled; if one was given in error, record "
            "it again.",
            desk, "The battles desk",
        ))  # fmt: skip
    owed = {
        (p["kingdom"], decisions.ANSWERS[p["kind"]])
        for p in pending
        if p["kind"] != PendingKind.BATTLE_RESULT
    }
    late = sorted({kingdom for kingdom, kind in owed if not ready.get((kingdom, kind))})
    if late:
        holds.append(Hold(
            f"{len(late)} kingdom{'s' if len(late) != 1 else ''} still deciding: the deadline "
            "gives what they have not given its default, or you advance now.",
            "#waiting", "Who it waits for",
        ))  # fmt: skip
    elif owed and not results:
        holds.append(Hold(
            "Every decision is in: the campaign advances in a moment. If it does not, advance now.",
            "#controls", "Advance now",
        ))  # fmt: skip
    return holds


def _shown(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    return str(value)


def _decision_words(refused: Json, names: dict[str, str]) -> str:
    """A decision set aside or no longer standing, as the audit log keeps it, in words."""
    kingdom = refused.get("kingdom") or ""
    kind = str(refused.get("kind") or "decision")
    whose = f"{names.get(kingdom, kingdom)}'s " if kingdom else "the battle's "
    what = {"battles": "battle result"}.get(kind, kind.replace("_", " "))
    unit = f" for {refused['unit']}" if refused.get("unit") else ""
    return f"{whose}{what}{unit} ({refused.get('why', '')})"


def _detail(key: str, value: Any, names: dict[str, str]) -> str | None:
    """One detail of an audit entry in words; None for one that says nothing (no
    defaults taken)."""
    if key == "snapshot":
        return f"to snapshot #{value}"
    if key == "defaults":
        return "the late decisions took the deadline's defaults" if value else None
    if key in ("set_aside", "no_longer_stand") and isinstance(value, list):
        said = "set aside" if key == "set_aside" else "no longer standing"
        return f"{said}: " + "; ".join(_decision_words(r, names) for r in value)
    if key in ("kingdom", "winner", "to") and isinstance(value, str):
        return f"{key}: {names.get(value, value)}"
    return f"{key.replace('_', ' ')}: {_shown(value)}"


@dataclass(frozen=True)
class AuditLine:
    entry: AuditEntry
    who: str
    what: str


def audit_log(entries: list[AuditEntry], names: dict[str, str] | None = None) -> list[AuditLine]:
    names = names or {}
    lines = []
    for entry in entries:
        details = (_detail(key, value, names) for key, value in _in_order(entry.details))
        lines.append(
            AuditLine(
                entry=entry,
                who=entry.actor.get_username() if entry.actor else "automatic",
                what=entry.get_action_display() + "".join(f"; {d}" for d in details if d),
            )
        )
    return lines


def _in_order(details: Json) -> list[tuple[str, Any]]:
    """An entry's details, shortest key first (then alphabetically): the order PostgreSQL
    keeps a JSON object's keys in, so that every database shows them alike."""
    return sorted(details.items(), key=lambda item: (len(item[0]), item[0]))


def dashboard_board(
    campaign: Campaign,
    snapshot: Snapshot | None,
    members: list[Membership],
    ready: Readiness,
    audit: list[AuditEntry],
    now: datetime,
    settled: Sequence[Sequence[int]] = (),
) -> dict[str, Any]:
    """The page's context of where the campaign stands (the view adds its forms, the
    invitation link and what the deadline would do)."""
    data = snapshot.data if snapshot else None
    players = [m for m in members if m.kingdom]
    usernames = {p.kingdom: p.user.get_username() for p in players}
    return {
        "campaign": campaign,
        "snapshot": snapshot,
        "clock": data["clock"] if data else None,
        "now": now,
        "paused_until": now + campaign.paused_with
        if campaign.status == Campaign.Status.PAUSED and campaign.paused_with
        else None,
        "players": players,
        "members": members,
        "admins": sum(1 for m in members if m.is_admin),
        "to_join": campaign.kingdoms - len(players),
        "waiting": waiting_for(data, ready, kingdom_names(data, players), usernames)
        if data
        else [],
        "kingdoms": (data or {}).get("kingdoms", []),
        "audit": audit_log(audit, kingdom_names(data, players) if data else {}),
        "holds": what_holds(campaign, data, ready, audit, settled),
    }
