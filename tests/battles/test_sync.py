"""The battles' rows follow the newest snapshot (battles/sync.py): a battle re-stated by
ruling B11 sets aside what was reported for it; one resolved closes the reports still
open; a battle gone from the file (an undo, a correction) loses its row."""

import copy
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from battles.models import Battle, ResultReport
from battles.services import desk
from campaign.models import Campaign
from campaign.services import advancing, common
from tests.battles.conftest import hand_off

pytestmark = pytest.mark.django_db


def store(campaign: Campaign, battles: list[dict[str, Any]]) -> None:
    """A new snapshot whose file differs from the newest only in its battles."""
    latest = common.latest_snapshot(campaign)
    advancing.store_snapshot(
        campaign=campaign, number=latest.number + 1, data={**latest.data, "battles": battles},
        reason="correction",
    )  # fmt: skip


def entry(campaign: Campaign) -> dict[str, Any]:
    found: dict[str, Any] = copy.deepcopy(common.latest_snapshot(campaign).data["battles"][0])
    return found


def test_b11_a_re_stated_battle_sets_its_reports_aside(campaign, cast, battle):
    report = ResultReport.objects.create(battle=battle, kingdom="aldermark", result="draw")
    restated = entry(campaign)
    restated["sides"][1]["armies"].append("brightwater-9")
    restated["sides"][1]["points"] = 1000
    restated["extra"]["restated"] = True
    store(campaign, [restated])
    battle.refresh_from_db()
    report.refresh_from_db()
    assert battle.sides == restated["sides"]
    assert battle.details["restated"] is True
    assert (report.status, report.set_aside_why) == (
        "set_aside",
        "the battle was re-stated (ruling B11)",
    )


def test_a_battle_resolved_otherwise_closes_the_open_reports_but_keeps_the_confirmed(
    campaign, cast, battle
):
    open_ = ResultReport.objects.create(battle=battle, kingdom="aldermark", result="draw")
    resolved = {**entry(campaign), "status": "resolved", "result": "draw"}
    store(campaign, [resolved])
    open_.refresh_from_db()
    battle.refresh_from_db()
    assert open_.status == "set_aside"
    assert (battle.status, battle.deadline) == ("resolved", None)
    assert battle.resolved_in == common.latest_snapshot(campaign)


def test_a_battle_gone_from_the_file_loses_its_row_and_another_in_its_place_is_new(
    campaign, cast, battle
):
    store(campaign, [])
    assert not Battle.objects.exists()
    elsewhere = {**entry_of(battle), "hex": [battle.hex[0] + 1, battle.hex[1]]}
    store(campaign, [elsewhere])
    assert list(Battle.objects.values_list("number", "hex")) == [(1, elsewhere["hex"])]


def entry_of(battle: Battle) -> dict[str, Any]:
    snapshot = battle.handed_off_in
    assert snapshot is not None
    found: dict[str, Any] = copy.deepcopy(snapshot.data["battles"][0])
    return found


def test_a_battle_deadline_falls_on_a_day_the_campaign_allows(campaign, cast):
    """The campaign keeps deadlines to Wednesdays (in its time zone): a battle handed off
    and its extension are due on a Wednesday."""
    campaign.deadline_days, campaign.time_zone = [2], "Europe/London"
    campaign.save()
    handed_off = hand_off(campaign, cast)
    assert handed_off is not None
    assert handed_off.deadline is not None
    zone = ZoneInfo("Europe/London")
    assert handed_off.deadline.astimezone(zone).weekday() == 2
    extended = desk.battle_extend(battle=handed_off, actor=cast["gm"], hours=30)
    assert extended.deadline is not None
    assert extended.deadline.astimezone(zone).weekday() == 2
    assert extended.deadline > handed_off.deadline
