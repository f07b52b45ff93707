"""A deadline (the beat's sweep, or the admin's "Advance now") defaults only the step that
is due: the late kingdom loses its own decision of that step, and the next step opens for
everyone with its own deadline (`--defaults-now`, ruling S4). Played through the services
by bots for every kingdom but one, which is late at every step of a whole year."""

import random
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from campaign.management.commands.seed_demo import bot_answers
from campaign.models import Campaign
from campaign.rules import bots
from campaign.rules.hexmap import map_from_json
from campaign.services import common, submissions
from campaign.tasks import advance_due_campaigns
from tests.campaign.helpers import new_campaign

pytestmark = pytest.mark.django_db

type Json = dict[str, Any]


def everyone_but(campaign: Campaign, late: str, rng: random.Random) -> Json:
    """The bots answer what the newest snapshot asks of every kingdom but `late`, and mark
    themselves ready; then the deadline passes and the beat's sweep advances the campaign.
    The snapshot the deadline made."""
    data = common.latest_snapshot(campaign).data
    players = {m.kingdom: m.user for m in campaign.memberships.exclude(kingdom="")}
    decided = bots.decide(data, rng, map_from_json(data["map"]))["inputs"]
    for kingdom, kind, payload in bot_answers(data, decided):
        if kingdom != late:
            submissions.submission_save(
                campaign=campaign, user=players[kingdom], kind=kind, payload=payload
            )
    for kingdom in common.owing(data) - {late}:
        submissions.submission_set_ready(campaign=campaign, user=players[kingdom])
    Campaign.objects.filter(pk=campaign.pk).update(deadline=timezone.now() - timedelta(minutes=1))
    assert advance_due_campaigns() == 1
    campaign.refresh_from_db()
    return common.latest_snapshot(campaign).data


def steps_of(data: Json) -> tuple[str, str, set[tuple[str, str]]]:
    return (
        data["clock"]["season"],
        data["clock"]["step"],
        {(p["kind"], p["kingdom"]) for p in data["pending"]},
    )


@pytest.fixture
def late_year(eager, cast):
    """A two-kingdom campaign played through its setup and its first year, Blue Dwarfs
    (bob) late at every step, the rest of the time everything else by the bots; each
    deadline's snapshot with the one before it."""
    campaign = new_campaign(cast, options={"months": 2})
    rng = random.Random(4)
    played: list[tuple[Json, Json]] = []
    before = common.latest_snapshot(campaign).data
    while before["clock"]["year"] == 1 and len(played) < 40:
        after = everyone_but(campaign, "blue-dwarfs", rng)
        played.append((before, after))
        before = after
    return played


def test_each_deadline_defaults_only_the_late_kingdoms_decision_of_the_step_due(late_year):
    for before, after in late_year:
        late = [
            e for e in after["events"][len(before["events"]) :] if e["type"] == "deadline-default"
        ]
        owed = {(p["kind"], p["kingdom"]) for p in before["pending"]}
        assert all(e["kingdom"] == "blue-dwarfs" for e in late), steps_of(before)
        assert {(e["kind"], e["kingdom"]) for e in late} <= owed, steps_of(before)


def test_every_step_of_the_setup_and_the_winter_opens_for_everyone_in_turn(late_year):
    """Whatever Blue misses, each step is asked of every kingdom it concerns: the
    settlements and the starting armies of both at once, then the orders; in the winter
    the tithes, the purchases and the deployment, each after the other."""
    stops = [(after["clock"]["season"], after["clock"]["step"]) for _, after in late_year]
    for step in ["capitals", "settlements", "armies"]:
        assert ("setup", step) in stops
    assert stops.index(("setup", "settlements")) < stops.index(("setup", "armies"))
    winter = [step for season, step in stops if season == "winter"]
    assert winter[:2] == ["tithe", "build"], winter
    assert winter[-1] == "deploy", winter
    for _, after in late_year:
        if after["clock"]["step"] in {"settlements", "armies", "tithe", "build", "deploy"}:
            asked = {p["kingdom"] for p in after["pending"]}
            assert asked == {"red-elves", "blue-dwarfs"}, steps_of(after)


def test_a_late_tithe_costs_only_its_kingdom_the_purchases_are_asked_of_both(late_year):
    after = next(after for before, after in late_year if before["clock"]["step"] == "tithe")
    assert after["clock"]["step"] == "build"
    assert {(p["kind"], p["kingdom"]) for p in after["pending"]} == {
        ("purchases", "red-elves"),
        ("purchases", "blue-dwarfs"),
    }
