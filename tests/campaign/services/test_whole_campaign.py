"""A whole campaign played through the services alone, from setup to the end: bot
players submit what the campaign asks of their own kingdom and mark it ready, the admin
reports the tabletop results, and the stored history replays through the engine to the
same end."""

import random
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from campaign.models import Campaign, Snapshot, Submission
from campaign.rules import decisions
from campaign.rules.bots import decide
from campaign.rules.engine import advance
from campaign.services import advancing, battle_entries, common, members, setup, submissions

pytestmark = pytest.mark.django_db

type Json = dict[str, Any]

SEED = 359  # a campaign that asks for every kind of decision of the core game
# The decisions of an optional rule, played through the services by its own tests: the army
# a disputed heir disbands (option succession: tests/campaign/views/test_succession_pages.py).
OPTIONS_OWN = frozenset({"succession"})
KINGDOMS = ("Red", "Blue")
MAX_STEPS = 400  # this 2-kingdom, 6-year campaign takes under 100 steps


def payloads_of(data: Json, decided: Json, kingdom: str) -> dict[str, Any]:
    """What the kingdom submits of the bots' decisions, by kind (an `inputs` key): its own
    value of each kind the campaign asks of it; for `battles` its own Last Stands and
    concessions (tabletop results are the admin's to report, below); for `retreats` its
    own units."""
    asked = [p for p in data["pending"] if p["kingdom"] == kingdom]
    payloads: dict[str, Any] = {}
    for kind in sorted({decisions.ANSWERS[p["kind"]] for p in asked}):
        if kind == "retreats":
            units = [p["unit"] for p in asked if p["kind"] == "retreat"]
            payloads[kind] = {unit: decided[kind][unit] for unit in units}
        elif kind == "battles":
            hexes = [p["hex"] for p in asked if p["kind"] in ("last_stand", "battle_result")]
            entries = [
                entry
                for entry in decided.get(kind, [])
                if entry["hex"] in hexes
                and kingdom in (entry.get("last_stand"), entry.get("concede"))
            ]
            if entries:
                payloads[kind] = entries
        else:
            payloads[kind] = decided[kind][kingdom]
    return payloads


def admin_reports(data: Json, decided: Json) -> list[Json]:
    """The bots' results for tabletop battles awaiting one: reported by the admin."""
    awaiting = [b["hex"] for b in data.get("battles", []) if b["status"] == "awaiting_result"]
    return [
        entry
        for entry in decided.get("battles", [])
        if entry["hex"] in awaiting and ("result" in entry or "resolve" in entry)
    ]


class Table:
    """The campaign's admin and players, and what went through the services."""

    def __init__(self, campaign: Campaign, admin: User, run: Callable[..., Any]) -> None:
        self.campaign = campaign
        self.admin = admin
        self.run = run  # calls a service, then runs what it queued after commit
        self.players = {m.kingdom: m.user for m in campaign.memberships.exclude(kingdom="")}
        self.kinds: set[str] = set()
        self.reported: list[Json] = []

    def newest(self) -> Snapshot:
        return common.latest_snapshot(self.campaign)

    def play_step(self, rng: random.Random) -> None:
        """Everyone answers what the newest snapshot asks, until the campaign advances."""
        before = self.newest()
        data = before.data
        decided = decide(data, rng)["inputs"]
        for kingdom, user in self.players.items():
            payloads = payloads_of(data, decided, kingdom)
            for kind, payload in payloads.items():
                self.run(
                    submissions.submission_save,
                    campaign=self.campaign, user=user, kind=kind, payload=payload,
                )  # fmt: skip
                self.kinds.add(kind)
            if payloads:
                self.run(submissions.submission_set_ready, campaign=self.campaign, user=user)
            if self.newest().number != before.number:
                return
        for entry in admin_reports(data, decided):
            self.settle(entry)
            self.reported.append(entry)
            if self.newest().number != before.number:
                return
        raise AssertionError(f"Nothing advanced the campaign from {data['clock']}.")

    def settle(self, entry: Json) -> None:
        """A tabletop result (or the switch to a simple battle) reaches the engine: here
        the admin records it."""
        self.run(
            battle_entries.battle_entry_save,
            campaign=self.campaign, actor=self.admin, entry=entry, audit="battle-decided",
        )  # fmt: skip


def seat(table: type[Table], run: Callable[..., Any]) -> Table:
    """The admin and the bot players at a new 2-kingdom tabletop campaign."""
    make = User.objects.create_user
    admin = make("gm", password="a-long-test-password")
    campaign = setup.campaign_create(
        name="Whole Campaign", admin=admin, kingdoms=len(KINGDOMS), size=60,
        options={"seed": SEED, "battles": "tabletop", "orders": "sealed"},
    )  # fmt: skip
    for name in KINGDOMS:
        user = make(name.lower(), password="a-long-test-password")
        members.campaign_join(campaign=campaign, user=user, kingdom_name=name)
    setup.campaign_start(campaign=campaign, actor=admin)
    campaign.refresh_from_db()
    return table(campaign, admin, run)


@pytest.fixture
def table(run):
    return seat(Table, run)


def test_a_whole_campaign_played_through_the_services_replays_through_the_engine(table):
    rng = random.Random(SEED)
    for _ in range(MAX_STEPS):
        if table.newest().data["clock"]["season"] == "ended":
            break
        table.play_step(rng)
    campaign = table.campaign
    campaign.refresh_from_db()

    assert campaign.status == Campaign.Status.ENDED
    assert campaign.deadline is None
    snapshots = list(campaign.snapshots.order_by("number"))
    assert [s.number for s in snapshots] == list(range(1, len(snapshots) + 1))
    assert all(s.reason == Snapshot.Reason.ADVANCE and not s.defaults for s in snapshots[1:])
    assert not Submission.objects.filter(campaign=campaign, consumed_by=None).exists()
    # Every kind of decision came from the players, and the admin reported tabletop results.
    assert table.kinds == decisions.ANSWER_KEYS - OPTIONS_OWN
    assert {entry["result"] for entry in table.reported} == {"win", "draw"}

    # The first snapshot is the engine's start of the campaign file the services wrote ...
    start = {
        "format": 1,
        "name": campaign.name,
        "options": campaign.options,
        "map": campaign.map,
        "clock": {"year": 1, "season": "setup", "month": 0, "step": "races"},
        "kingdoms": [{"id": k.lower(), "name": k} for k in KINGDOMS],
    }
    assert advance(start) == snapshots[0].data
    # ... and the engine alone, given each snapshot's decisions, plays the same campaign.
    data = snapshots[0].data
    for snapshot in snapshots[1:]:
        data = advancing.advance_from(data, snapshot.decisions, deadline=snapshot.defaults)
        assert data == snapshot.data, f"snapshot {snapshot.number} differs"
    assert data["clock"]["season"] == "ended"
    assert data["scores"] == snapshots[-1].data["scores"]
