"""The game's words are declared once, and every table keyed by them has a row for each:
a new kind of decision, step, event type or option that lacks one fails here, not on a
player's page; and outside the engine nothing keys a kind of decision, a step or an event
type by a string literal."""

import ast
import random
import re
from dataclasses import fields
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from campaign import asks
from campaign.display import events, report
from campaign.gazetteer import Names
from campaign.models import AuditEntry, default_deadlines
from campaign.rules import bots, decisions
from campaign.rules.mapgen import generate_map
from campaign.rules.options import DEFAULTS, OPTIONS
from campaign.rules.simulation import campaign_files, new_campaign
from campaign.rules.state import STEPS, BattleStatus, Options, PendingKind, Season, Step
from campaign.rules.vocabulary import BattleKind, EventType, OptionName
from campaign.services import advancing, setup
from campaign.views.deadlines import NEXT_STEP

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("kind", list(PendingKind))
def test_every_pending_kind_has_its_answer_its_bot_and_its_words(kind):
    assert kind in decisions.DECISIONS
    assert kind in bots.ANSWERS
    words = asks.WORDS[kind]
    assert words.ask
    assert words.opens
    assert reverse(words.page, args=["any-campaign"])


def test_the_tables_have_no_row_for_a_kind_that_does_not_exist():
    assert set(decisions.DECISIONS) == set(PendingKind)
    assert set(bots.ANSWERS) == set(PendingKind)
    assert set(asks.WORDS) == set(PendingKind)


def test_only_a_tabletop_result_has_no_deadline_default():
    assert [k for k, w in asks.WORDS.items() if w.defaulted is None] == [PendingKind.BATTLE_RESULT]


@pytest.mark.parametrize("step", list(Step))
def test_every_step_belongs_to_one_season_and_has_a_kind_of_deadline(step):
    assert sum(step in steps for steps in STEPS.values()) == 1
    assert advancing.deadline_of(step) in default_deadlines()


def test_the_steps_that_wait_are_told_what_opens_after_them():
    waiting = {Step.RACES, Step.SETTLEMENTS, Step.ARMIES, Step.ORDERS, Step.BATTLES}
    waiting |= set(STEPS[Season.WINTER]) - {Step.RECALL, Step.GATHER}
    assert waiting <= set(NEXT_STEP) | {Step.CAPITALS}  # capitals: the next kingdom's turn
    assert set(NEXT_STEP) <= set(Step)


def test_the_options_table_and_the_engine_agree_on_names_and_defaults():
    engine = {f.name: f.default for f in fields(Options) if f.name != "switches"}
    assert list(engine) == [row.name for row in OPTIONS if not row.switch]
    assert engine == {name: value for name, value in DEFAULTS.items() if name in engine} | {
        row.name: None
        for row in OPTIONS
        if row.needs  # a rule's settings: none while it is off
    }
    # OG1: an optional rule is off unless turned on, so a campaign's options hold none off.
    assert all(row.default is False and row.name not in DEFAULTS for row in OPTIONS if row.switch)
    # The services fill a new campaign's options from the same table.
    assert setup._checked_options({}) == dict(DEFAULTS)


def test_every_option_of_the_table_is_named_and_every_name_has_its_row():
    """The options' rows are the source of truth; `OptionName` names them, in their order."""
    assert [row.name for row in OPTIONS] == list(OptionName)


def test_the_campaign_file_knows_every_battle_status():
    assert {s.value for s in BattleStatus} == {"awaiting_result", "resolved"}


def test_every_audit_action_has_its_words():
    for action in AuditEntry.Action:
        assert action.label
        assert action.label != action.value or action.value in {"paused", "resumed", "advanced"}


# --- Every word has its words ------------------------------------------------------------------


def test_every_event_type_has_its_words_and_no_other_type_has():
    assert set(events.WORDINGS) == set(EventType)


@pytest.mark.parametrize("kind", list(BattleKind))
def test_every_kind_of_battle_is_told_in_its_own_words(kind):
    battle = {"type": "battle", "kind": kind, "hex": [0, 0], "attacker": "red", "defender": "blue"}
    line = events.describe({**battle, "winner": "red", "result": "win"}, Names())
    assert not line.text.startswith("Battle ("), line.text  # the words of a kind unknown


@pytest.mark.parametrize("step", list(Step))
def test_every_step_has_its_title_in_the_report(step):
    assert report.STEP_TITLES[step]


def test_a_winter_page_tells_in_its_own_words_only_what_it_lists():
    from campaign.display.winter import FORECAST_EVENTS

    assert FORECAST_EVENTS <= events.OWN_WORDS


# --- What the engine records is declared -------------------------------------------------------


@cache
def played(seed: int, switches: tuple[str, ...]) -> dict[str, Any]:
    """The final file of seed `seed`'s bot-played 8-kingdom campaign, with `switches` on."""
    hexmap = generate_map(8, seed, 150)
    battles = "tabletop" if switches else "simple"
    data = new_campaign(8, seed, hexmap, battles=battles, switches=switches)
    *_, final = campaign_files(data, random.Random(seed), hexmap)
    return final


GAMES = [(1, ()), (50, tuple(row.name for row in OPTIONS if row.switch))]  # every option on


@pytest.mark.parametrize(("seed", "switches"), GAMES)
def test_every_event_the_engine_records_and_every_battle_it_fights_is_declared(seed, switches):
    final = played(seed, switches)
    assert {e["type"] for e in final["events"]} <= set(EventType)
    assert {b["kind"] for b in final["battles"]} <= set(BattleKind)


def test_every_event_type_the_engine_names_in_its_source_is_declared():
    """The types a campaign rarely reaches too (a deadline's default, a razing): the engine
    records every event by its EventType, never by a string."""
    source = "\n".join(path.read_text() for path in (ROOT / "campaign" / "rules").rglob("*.py"))
    assert re.findall(r'\.record\(\s*"([a-z-]+)"', source) == []
    recorded = re.findall(r"\.record\(\s*EventType\.(\w+)", source)
    assert set(recorded) <= set(EventType.__members__)


# --- No literal keys outside the engine ----------------------------------------------------------

# What names a kind of decision, a step or an event type where it is compared or passed: an
# expression that says `kind`, `step` or `type` (`p["kind"]`, `board.step`, `event["type"]`).
ENUMS: dict[str, frozenset[str]] = {
    "kind": frozenset(PendingKind),
    "step": frozenset(Step),
    "type": frozenset(EventType),
}


def _said(expression: str) -> frozenset[str]:
    """The values an expression may be compared with, by what it names."""
    return frozenset().union(
        *(values for word, values in ENUMS.items() if word in expression.lower())
    )


def _strings(node: ast.AST) -> list[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        found = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if found and len(found) == len(node.elts) and all(isinstance(v, str) for v in found):
            return [str(v) for v in found]
    return []


def _python_literals(source: str) -> list[str]:
    """Where a Python file compares a kind, a step or an event type with a literal, passes
    one as a keyword (`kind="orders"`), keys a table by them or lists event types."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            for side in sides:
                others = " ".join(
                    ast.get_source_segment(source, s) or "" for s in sides if s is not side
                )
                if set(_strings(side)) & _said(others):
                    found.append(ast.get_source_segment(source, node) or "")
        elif isinstance(node, ast.keyword) and node.arg:
            if set(_strings(node.value)) & _said(node.arg):
                found.append(f"{node.arg}={ast.get_source_segment(source, node.value)}")
        elif isinstance(node, ast.Dict):
            keys = [k.value for k in node.keys if isinstance(k, ast.Constant)]
            whole = len(keys) >= 2 and len(keys) == len(node.keys)
            if whole and any(set(keys) <= values for values in ENUMS.values()):
                found.append(f"a table keyed by {', '.join(map(str, keys))}")
        elif isinstance(node, ast.Tuple | ast.List | ast.Set):
            listed = _strings(node)
            if len(listed) >= 2 and set(listed) <= ENUMS["type"]:
                found.append(f"event types {', '.join(listed)}")
    return found


# `x.kind == "orders"`, `"races" != board.step`, `kind="tithes"` in a template.
_COMPARED = re.compile(
    r"""([\w.]*(?:kind|step|type)[\w.]*)\s*(?:==|!=|=)\s*["']([\w-]+)["']"""
    r"""|["']([\w-]+)["']\s*(?:==|!=|in)\s*([\w.]*(?:kind|step|type)[\w.]*)"""
)


def _template_literals(text: str) -> list[str]:
    found = []
    for match in _COMPARED.finditer(text):
        said, value = match.group(1) or match.group(4), match.group(2) or match.group(3)
        if value in _said(said):
            found.append(match.group(0))
    return found


def _source_folders() -> list[Path]:
    """The app's own folders: not the tests, nor what tools keep beside them (the virtual
    environment, mutmut's mutated copy of the engine, var/)."""
    kept_aside = {"tests", "mutants", "var", "node_modules"}
    return [
        top
        for top in ROOT.iterdir()
        if top.is_dir() and not top.name.startswith(".") and top.name not in kept_aside
    ]


def literals_outside_the_engine() -> dict[str, list[str]]:
    """Each file of the app (not the engine, not the tests) that keys a kind of decision, a
    step or an event type by a string literal, with what it says."""
    found = {}
    for path in sorted(path for top in _source_folders() for path in top.rglob("*.py")):
        relative = path.relative_to(ROOT).as_posix()
        if relative.startswith("campaign/rules/") or "/migrations/" in relative:
            continue
        if said := _python_literals(path.read_text()):
            found[relative] = said
    for path in sorted((ROOT / "templates").rglob("*.*")):
        if said := _template_literals(path.read_text()):
            found[path.relative_to(ROOT).as_posix()] = said
    return found


def test_the_scan_sees_a_literal_key_where_there_is_one():
    assert _python_literals('if p["kind"] == "orders": pass') == ['p["kind"] == "orders"']
    assert _python_literals('ask(kind="battle_result")') == ['kind="battle_result"']
    assert _python_literals('x = {"tithe": 1, "build": 2}') == ["a table keyed by tithe, build"]
    assert _python_literals('if e["type"] in ("moved", "razed"): pass')
    assert _template_literals('{% if board.step == "races" %}') == ['board.step == "races"']
    # An answer's key or a file's key is no kind: "battles" is no pending kind.
    assert _python_literals('save(kind="battles")') == []
    assert _python_literals('if purchase["build"] == "capital": pass') == []


def test_no_kind_step_or_event_type_is_keyed_by_a_literal_outside_the_engine():
    found = literals_outside_the_engine()
    assert found == {}, "use PendingKind, Step or EventType (templates: `kinds`, `steps`)"
