"""The game's words are declared once, and every table keyed by them has a row for each:
a new kind of decision, step or option that lacks one fails here, not on a player's page."""

from dataclasses import fields

import pytest
from django.urls import reverse

from campaign import asks
from campaign.models import AuditEntry, default_deadlines
from campaign.rules import bots, decisions
from campaign.rules.options import DEFAULTS, OPTIONS
from campaign.rules.state import STEPS, BattleStatus, Options, PendingKind, Season, Step
from campaign.services import advancing, setup
from campaign.views.deadlines import NEXT_STEP


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
    assert engine == {name: value for name, value in DEFAULTS.items() if name in engine}
    # OG1: an optional rule is off unless turned on, so a campaign's options hold none off.
    assert all(row.default is False and row.name not in DEFAULTS for row in OPTIONS if row.switch)
    # The services fill a new campaign's options from the same table.
    assert setup._checked_options({}) == dict(DEFAULTS)


def test_the_campaign_file_knows_every_battle_status():
    assert {s.value for s in BattleStatus} == {"awaiting_result", "resolved"}


def test_every_audit_action_has_its_words():
    for action in AuditEntry.Action:
        assert action.label
        assert action.label != action.value or action.value in {"paused", "resumed", "advanced"}
