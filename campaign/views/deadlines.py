"""What a deadline does, in the admin's words: before it (the dashboard's "Advance now…":
who takes which defaults, and which step opens next until when) and after it (what the
advance did). Told only from what an admin may know: who is ready, never what the drafts
say, so an admin who also plays learns nothing sealed (app ruling A22)."""

from datetime import timedelta
from typing import Any

from django.utils import timezone

from campaign.asks import WORDS, defaulted
from campaign.models import Campaign
from campaign.rules import decisions
from campaign.rules.state import PendingKind, Season, Step
from campaign.rules.vocabulary import EventType
from campaign.services import advancing
from campaign.words import joined, when

type Json = dict[str, Any]


def _names_of(who: list[str]) -> str:
    return joined(sorted(set(who)))


def _sentence(clauses: list[str]) -> str:
    """Clauses joined by semicolons, the first letter a capital (names keep theirs)."""
    text = "; ".join(clauses)
    return text[:1].upper() + text[1:]


def at_the_deadline(
    campaign: Campaign,
    data: Json,
    ready: dict[tuple[str, str], bool],
    names: dict[str, str],
    zone: str,
) -> str:
    """What the deadline (or "Advance now") will do, told from what the admin may know:
    who takes which defaults (a draft counts as given) and which step opens next. Never
    read from the drafts themselves: an admin who also plays learns nothing sealed."""
    nothing: dict[str, list[str]] = {}
    drafts: list[str] = []
    for asked in data.get("pending", []):
        kind, name = asked["kind"], names.get(asked["kingdom"], asked["kingdom"])
        given = ready.get((asked["kingdom"], decisions.ANSWERS[kind]))
        if kind == PendingKind.BATTLE_RESULT or given:
            continue
        if given is None:
            nothing.setdefault(kind, []).append(name)
        else:
            drafts.append(name)
    said = [f"{_names_of(who)} {defaulted(kind, len(set(who)))}" for kind, who in nothing.items()]
    if drafts:
        said.append(
            f"the drafts of {_names_of(drafts)} count as given (what they leave out takes its "
            "default)"
        )
    if not said:
        if any(p["kind"] == PendingKind.BATTLE_RESULT for p in data.get("pending", [])):
            return "Nothing moves: the battles wait for their tabletop results (the desk below)."
        said = ["everyone is ready"]
    return f"{_sentence(said)}; then {_next_step(campaign, data, names, zone)}."


# After each step, what opens next and the kind of deadline it gets (None: it depends on
# what the step brings, which the admin does not see before it resolves).
NEXT_STEP: dict[Step, tuple[str, str | None]] = {
    Step.RACES: ("the first capital's turn opens", "turn"),
    Step.SETTLEMENTS: ("the starting armies step opens", "setup"),
    Step.ARMIES: ("the first month's orders open", "orders"),
    Step.ORDERS: ("the month's orders resolve, and its battles or the next orders open", None),
    Step.BATTLES: ("the month goes on once every battle is settled", None),
    Step.SUCCESSION: ("the tithes step opens", "winter"),  # option succession (OB5)
    Step.TITHE: ("the purchases step opens", "winter"),
    Step.BUILD: (
        "the hungry armies step opens if a kingdom is short of food, else deployment",
        "winter",
    ),
    Step.FEED: ("the deployment step opens", "winter"),
    Step.DEPLOY: ("the next summer's orders open", "orders"),
}


def _next_step(campaign: Campaign, data: Json, names: dict[str, str], zone: str) -> str:
    step = data["clock"]["step"]
    words, kind = NEXT_STEP.get(step, ("the campaign moves on", None))
    if step == Step.CAPITALS:
        words, kind = _next_capital(data, names)
    elif step == Step.ORDERS and advancing.one_at_a_time(data):
        words, kind = "the next turn of the order cycle opens, or the month resolves", "turn"
    elif step == Step.DEPLOY and data["clock"]["year"] >= data["options"].get("years", 6):
        return "the campaign ends"
    if kind is None:
        return f"{words}, each with its own deadline"
    hours = advancing.hours_of(campaign, kind)
    due = advancing.on_a_deadline_day(campaign, timezone.now() + timedelta(hours=hours))
    return f"{words} until {when(due, zone)}"


def _next_capital(data: Json, names: dict[str, str]) -> tuple[str, str]:
    """After this kingdom's capital, the next kingdom in player order without one."""
    founded = {k["id"] for k in data["kingdoms"] if k["capital"] is not None}
    asked = {p["kingdom"] for p in data.get("pending", [])}
    left = [k for k in data["player_order"] if k not in founded | asked]
    if not left:
        return "the settlements step opens", "setup"
    return f"it is {names.get(left[0], left[0])}'s turn for its capital", "turn"


def after_the_advance(before: Json, after: Json, names: dict[str, str], deadline: str) -> str:
    """What an advance did: who took which defaults, and what the campaign waits for now."""
    late: dict[str, list[str]] = {}
    for event in after["events"][len(before.get("events", [])) :]:
        if event["type"] == EventType.DEADLINE_DEFAULT:
            late.setdefault(event["kind"], []).append(names.get(event["kingdom"], event["kingdom"]))
    said = [f"{_names_of(who)} {defaulted(kind, len(set(who)))}" for kind, who in late.items()]
    if after["clock"]["season"] == Season.ENDED:
        now = "the campaign has ended"
    elif advancing.one_at_a_time(after):
        first = after["pending"][0]
        whose = names.get(first["kingdom"], first["kingdom"])
        now = f"it is {whose}'s turn for the {WORDS[first['kind']].opens}, until {deadline}"
    elif after["pending"]:
        now = f"the {WORDS[after['pending'][0]['kind']].opens} step is open until {deadline}"
    else:
        now = "it waits for nobody"
    return f"Advanced. {_sentence([*said, now])}."
