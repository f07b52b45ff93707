"""A whole campaign played through the services, its tabletop battles reported by one
player and confirmed by the other (bots), and after every snapshot the battles' rows
equal the snapshot's `battles` entries."""

import random
from typing import Any

import pytest

from battles.models import Battle, ResultReport
from battles.services import desk, results
from battles.sync import row_fields
from campaign.models import Campaign
from tests.campaign.services.test_whole_campaign import MAX_STEPS, SEED, Table, seat

pytestmark = pytest.mark.django_db

type Json = dict[str, Any]


class Players(Table):
    """The players report their own tabletop battles: the attacker reports what the
    bots decided, the defender confirms; the admin only settles by dice."""

    def settle(self, entry: Json) -> None:
        battle = Battle.objects.get(
            campaign=self.campaign, hex=entry["hex"], status="awaiting_result"
        )
        if "resolve" in entry:
            self.run(desk.battle_resolve_simply, battle=battle, actor=self.admin)
            return
        reporter, confirmer = self.players[battle.attacker], self.players[battle.defender]
        report = self.run(
            results.battle_report, battle=battle, user=reporter,
            result=entry["result"], winner=entry.get("winner", ""),
        )  # fmt: skip
        self.run(results.battle_confirm, report=report, user=confirmer)


def rows_equal_entries(campaign: Campaign) -> None:
    data = campaign.snapshots.order_by("-number").first().data  # type: ignore[union-attr]
    rows = list(Battle.objects.filter(campaign=campaign).order_by("number"))
    assert [r.number for r in rows] == list(range(1, len(data["battles"]) + 1))
    for row, entry in zip(rows, data["battles"], strict=True):
        assert {k: getattr(row, k) for k in row_fields(entry)} == row_fields(entry), row.number


def test_a_whole_campaign_with_tabletop_battles_reported_and_confirmed_by_the_players(run):
    table = seat(Players, run)
    rng = random.Random(SEED)
    for _ in range(MAX_STEPS):
        if table.newest().data["clock"]["season"] == "ended":
            break
        table.play_step(rng)
        rows_equal_entries(table.campaign)
    table.campaign.refresh_from_db()
    assert table.campaign.status == Campaign.Status.ENDED
    pitched = Battle.objects.filter(campaign=table.campaign, kind="pitched")
    assert pitched.count() == sum(1 for e in table.reported if "result" in e)
    confirmed = ResultReport.objects.filter(status=ResultReport.Status.CONFIRMED)
    assert confirmed.count() == pitched.count()
    assert not ResultReport.objects.exclude(status=ResultReport.Status.CONFIRMED).exists()
    assert {r.result for r in confirmed} == {"win", "draw"}
