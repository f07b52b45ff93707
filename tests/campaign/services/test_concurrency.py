"""Many players at once, and the deadline at the same moment, on PostgreSQL: each thread
has its own connection, as each web request and worker has. The services lock the
campaign row and check the snapshot they started from, so one advance lands per step,
never two, and no decision given is lost."""

import random
import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from accounts.models import User
from campaign.models import Campaign, Snapshot, Submission
from campaign.rules import decisions
from campaign.rules.bots import decide
from campaign.rules.engine import advance as engine_advance
from campaign.services import admin as admin_services
from campaign.services import advancing, common, members, setup, submissions
from config.celery import app as celery_app
from tests.campaign.services.test_whole_campaign import payloads_of

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

KINGDOMS = ("Red", "Blue", "Green", "Gold", "Black", "White", "Grey", "Purple")
# How long after the players the deadline strikes, one round each: before them, among
# them (a ready kingdom's advance and the deadline's race for the lock), after them.
DEADLINE_DELAYS = (0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4, 0.6)


@pytest.fixture
def eager(monkeypatch):
    """An advance queued by the last kingdom ready runs at once, in that player's thread,
    right after its transaction commits: racing the deadline's advance."""
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    monkeypatch.setitem(celery_app.conf, "task_eager_propagates", True)


@pytest.fixture
def advances(monkeypatch):
    """Every call of the advance service, by a player's queued task or the deadline: the
    snapshot number it started from and the snapshot it made (None: it moved on)."""
    made: list[tuple[int, Snapshot | None]] = []
    real_advance = advancing.campaign_advance

    def recorded(**kwargs: Any) -> Snapshot | None:
        snapshot = real_advance(**kwargs)
        made.append((kwargs["snapshot_number"], snapshot))
        return snapshot

    monkeypatch.setattr(advancing, "campaign_advance", recorded)
    return made


def full_campaign(kingdoms: tuple[str, ...] = KINGDOMS) -> Campaign:
    admin = User.objects.create_user("gm", password="a-long-test-password")
    campaign = setup.campaign_create(
        name="Crowded",
        admin=admin,
        kingdoms=len(kingdoms),
        options={"seed": 3, "battles": "simple"},
    )
    for name in kingdoms:
        user = User.objects.create_user(name.lower(), password="a-long-test-password")
        members.campaign_join(campaign=campaign, user=user, kingdom_name=name)
    setup.campaign_start(campaign=campaign, actor=admin)
    campaign.refresh_from_db()
    return campaign


def given_in(submission: Submission, inputs: dict[str, Any]) -> bool:
    """The submission's payload is part of the inputs an advance used."""
    decision = inputs.get(submission.kind)
    if decision is None:
        return False
    if submission.kind in decisions.LISTED:
        return all(entry in decision for entry in submission.payload)
    if submission.kind in decisions.BY_UNIT:
        return bool(submission.payload.items() <= decision.items())
    return bool(decision.get(submission.kingdom) == submission.payload)


def run_together(jobs: list[Callable[[], Any]]) -> list[BaseException]:
    """Start the jobs at the same moment, each in a thread with its own database
    connection, and return what they raised."""
    start = threading.Barrier(len(jobs))
    raised: list[BaseException] = []

    def run(job: Callable[[], Any]) -> None:
        try:
            start.wait()
            job()
        except BaseException as error:
            raised.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    return raised


def test_players_and_the_deadline_at_once_advance_once_per_step_and_lose_nothing(
    postgres, eager, advances
):
    campaign = full_campaign()
    players = {m.kingdom: m.user for m in campaign.memberships.exclude(kingdom="")}
    rng = random.Random(7)
    saved: list[Submission] = []
    refused: list[tuple[str, bool]] = []
    lock = threading.Lock()

    def player(kingdom: str, number: int, payloads: dict[str, Any]) -> Callable[[], None]:
        def give_and_mark_ready() -> None:
            for kind, payload in payloads.items():
                try:
                    submission = submissions.submission_save(
                        campaign=campaign, user=players[kingdom], kind=kind, payload=payload
                    )
                except common.ServiceError as error:
                    moved_on = common.latest_snapshot(campaign).number != number
                    with lock:
                        refused.append((error.code, moved_on))
                else:
                    with lock:
                        saved.append(submission)
            submissions.submission_set_ready(campaign=campaign, user=players[kingdom])

        return give_and_mark_ready

    for round_, delay in enumerate(DEADLINE_DELAYS):
        before = common.latest_snapshot(campaign)
        decided = decide(before.data, rng)["inputs"]
        jobs = [player(k, before.number, payloads_of(before.data, decided, k)) for k in players]

        def deadline(number: int = before.number, delay: float = delay) -> None:
            time.sleep(delay)
            advancing.campaign_advance(
                campaign_id=campaign.pk, snapshot_number=number, defaults=True
            )

        calls_before = len(advances)
        raised = run_together([*jobs, deadline])

        assert raised == []
        landed = [snapshot for _, snapshot in advances[calls_before:] if snapshot is not None]
        from_before = [
            n for n, snapshot in advances[calls_before:] if snapshot and n == before.number
        ]
        assert len(from_before) == 1, f"round {round_}: {len(from_before)} advances from one step"
        numbers = list(campaign.snapshots.order_by("number").values_list("number", flat=True))
        assert numbers == list(range(1, numbers[-1] + 1))
        assert sorted(s.number for s in landed) == numbers[before.number :]

    newest = common.latest_snapshot(campaign)
    assert newest.number > len(DEADLINE_DELAYS)  # every round advanced
    assert saved, "no decision was ever given in time"
    # A decision is refused only when the step moved on under it, or when the kingdom
    # already gave a final one for the step (late, in the round before).
    assert all(moved_on or code == "already-ready" for code, moved_on in refused), refused
    for submission in saved:
        submission.refresh_from_db()
        if submission.consumed_by is None:
            # Still open: given against the newest step, waiting for its advance.
            assert submission.snapshot == newest.number, submission
        else:
            # Consumed by the advance of the step it was given against, and in its inputs.
            used = submission.consumed_by
            assert used.number == submission.snapshot + 1, submission
            assert given_in(submission, used.decisions), submission
    # Nothing was half-written: the open decisions are one per kingdom and kind.
    open_ = Submission.objects.filter(campaign=campaign, consumed_by=None)
    assert open_.count() == len(set(open_.values_list("kingdom", "kind")))
    assert all(s.snapshot == newest.number for s in open_)


def test_two_advances_racing_for_the_same_snapshot_land_once(postgres, monkeypatch):
    campaign = full_campaign(KINGDOMS[:2])

    def slow_engine(data, **flags):
        time.sleep(0.05)  # hold the campaign's lock while the other advance waits for it
        return engine_advance(data, **flags)

    monkeypatch.setattr("campaign.services.advancing.advance", slow_engine)
    for _ in range(4):
        number = common.latest_snapshot(campaign).number
        made: list[Snapshot | None] = []

        def advance(number: int = number, made: list[Snapshot | None] = made) -> None:
            made.append(
                advancing.campaign_advance(
                    campaign_id=campaign.pk, snapshot_number=number, defaults=True
                )
            )

        assert run_together([advance, advance]) == []
        assert len(made) == 2
        assert [s is None for s in made].count(True) == 1
        assert campaign.snapshots.filter(number=number + 1).count() == 1
        assert campaign.snapshots.count() == number + 1


def test_a_correction_is_made_on_the_state_an_advance_left_when_the_advance_lands_first(
    postgres, monkeypatch
):
    """The admin corrects a kingdom's treasury while every kingdom's decisions are ready and
    an advance starts at the same moment. Whichever takes the campaign's lock first, the
    correction is made on the newest state: if the advance landed, the corrected snapshot
    holds what the advance did, with the treasury changed; nothing the advance did is
    lost. (The correction used to read the newest snapshot before taking the lock.)"""
    campaign = full_campaign(KINGDOMS[:2])
    gm = User.objects.get(username="gm")
    red = campaign.memberships.get(kingdom_name="Red")
    blue = campaign.memberships.get(kingdom_name="Blue")
    data = common.latest_snapshot(campaign).data
    decided = decide(data, random.Random(1), None)["inputs"]
    for member in (red, blue):
        for kind, payload in payloads_of(data, decided, member.kingdom).items():
            submissions.submission_save(
                campaign=campaign, user=member.user, kind=kind, payload=payload
            )
        submissions.submission_set_ready(campaign=campaign, user=member.user)
    number = common.latest_snapshot(campaign).number
    real_latest = common.latest_snapshot
    started: list[threading.Thread] = []

    def an_advance_meanwhile(campaign: Campaign) -> Snapshot:
        """The first time the correction reads the newest state, an advance runs in another
        connection just after the read, and is given a second to land (if it waits for the
        correction's lock, it lands after it)."""
        monkeypatch.setattr("campaign.services.admin.latest_snapshot", real_latest)
        read = real_latest(campaign)

        def advance_elsewhere() -> None:
            try:
                advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=number)
            finally:
                connection.close()

        advance = threading.Thread(target=advance_elsewhere)
        started.append(advance)
        advance.start()
        advance.join(timeout=1)
        return read

    monkeypatch.setattr("campaign.services.admin.latest_snapshot", an_advance_meanwhile)
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)  # what it queues, runs
    admin_services.correct_resources(
        campaign=campaign, actor=gm, reason="a miscount", kingdom=red.kingdom, gold=9, food=9
    )
    (advance,) = started
    advance.join(timeout=120)  # the advance, if it waited for the lock, has finished
    assert not advance.is_alive(), "the advance hung"
    snapshots = list(campaign.snapshots.order_by("number"))
    corrected = next(s for s in snapshots if s.reason == Snapshot.Reason.CORRECTION)
    before = snapshots[corrected.number - 2]
    unchanged = {key: value for key, value in corrected.data.items() if key != "kingdoms"}
    assert unchanged == {key: value for key, value in before.data.items() if key != "kingdoms"}
    purse = next(k for k in corrected.data["kingdoms"] if k["id"] == red.kingdom)
    assert (purse["gold"], purse["food"]) == (9, 9)
    # If the correction came first, the ready decisions still stand: the advance follows.
    assert common.latest_snapshot(campaign).data["clock"] != data["clock"]
