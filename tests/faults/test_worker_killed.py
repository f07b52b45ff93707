"""A Celery worker SIGKILLed in the middle of an advance, on the real PostgreSQL and Redis.
The advance is held at a known point inside its transaction (after it has written the new
snapshot, while it marks the decisions used) by a row lock the test takes on the players'
decisions; then the worker is killed. Nothing of that advance is left; the advance is done
again, once, and every decision the players gave is in the one new snapshot."""

from collections.abc import Callable, Iterator
from pathlib import Path

import psycopg
import pytest

from campaign.models import Campaign, Snapshot, Submission
from campaign.services import submissions
from campaign.tasks import advance_campaign, advance_ready_campaigns
from tests.campaign.services.test_tasks import ruler, running_campaign
from tests.conftest import database_url_for_tests
from tests.faults.servers import PoolWorker, pool_worker, wait_until

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

RACES = {"red": "Elves", "blue": "Dwarfs"}


@pytest.fixture
def worker_env(postgres: None, redis_url: str) -> dict[str, str]:
    return {"DATABASE_URL": database_url_for_tests(), "REDIS_URL": redis_url}


def everyone_ready_without_an_advance(name: str, monkeypatch: pytest.MonkeyPatch) -> Campaign:
    """A campaign whose kingdoms have all chosen their race and marked it ready; the advance
    their readiness queues is held back, for the test to send to its own worker."""
    campaign = running_campaign(name)
    with monkeypatch.context() as held:
        held.setattr("campaign.services.advancing.queue_advance", lambda *args, **kwargs: None)
        for kingdom, race in RACES.items():
            user = ruler(campaign, kingdom)
            submissions.submission_save(campaign=campaign, user=user, kind="races", payload=race)
            submissions.submission_set_ready(campaign=campaign, user=user)
    return campaign


@pytest.fixture
def decisions_locked() -> Iterator[Callable[[Campaign], psycopg.Connection]]:
    """Another connection that takes every open decision's row lock of a campaign, in a
    transaction it keeps open: an advance that has stored its snapshot waits there, before
    it commits."""
    with psycopg.connect(database_url_for_tests()) as conn:

        def lock(campaign: Campaign) -> psycopg.Connection:
            conn.execute(
                "SELECT id FROM campaign_submission"
                " WHERE campaign_id = %s AND consumed_by_id IS NULL FOR UPDATE",
                (campaign.pk,),
            )
            return conn

        yield lock
        conn.rollback()


def advance_waiting_for_the_lock() -> bool:
    with psycopg.connect(database_url_for_tests(), autocommit=True) as observer:
        row = observer.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database() AND query LIKE 'UPDATE \"campaign_submission\"%%'"
        ).fetchone()
    return bool(row and row[0])


def held_mid_advance(worker: PoolWorker, campaign: Campaign) -> None:
    advance_campaign.apply_async((campaign.pk, 1), queue=worker.queue)
    wait_until(advance_waiting_for_the_lock, 60, "the advance to reach the lock")
    assert "succeeded" not in worker.log.read_text()


def one_advance_with_every_decision(campaign: Campaign) -> None:
    numbers = list(campaign.snapshots.order_by("number").values_list("number", flat=True))
    assert numbers == [1, 2]
    advanced = campaign.snapshots.get(number=2)
    assert advanced.reason == Snapshot.Reason.ADVANCE
    assert advanced.decisions["races"] == RACES
    assert {k["id"]: k["race"] for k in advanced.data["kingdoms"]} == RACES
    assert not Submission.objects.filter(campaign=campaign, consumed_by=None).exists()
    assert Submission.objects.filter(campaign=campaign, consumed_by=advanced).count() == 2


def test_a_pool_process_killed_mid_advance_leaves_nothing_and_the_advance_runs_again_once(
    worker_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    decisions_locked: Callable[[Campaign], psycopg.Connection],
) -> None:
    campaign = everyone_ready_without_an_advance("Killed", monkeypatch)
    lock = decisions_locked(campaign)
    log = tmp_path / "worker.log"
    with pool_worker(worker_env, log) as worker:
        held_mid_advance(worker, campaign)
        killed = worker.kill_pool_process()
        wait_until(lambda: "WorkerLostError" in log.read_text(), 30, "the worker to see it")
        assert not campaign.snapshots.filter(number=2).exists()  # written, never committed

        lock.rollback()
        wait_until(lambda: campaign.snapshots.filter(number=2).exists(), 60, "the retried advance")
        wait_until(lambda: "succeeded" in log.read_text(), 30, "the retry to finish")

    text = log.read_text()
    assert f"pid:{killed} exited with 'signal 9 (SIGKILL)'" in text, text
    assert text.count("advance_campaign[") == 3, text  # received, received again, succeeded
    assert text.count("succeeded") == 1, text
    one_advance_with_every_decision(campaign)


def test_a_worker_killed_whole_mid_advance_is_made_up_for_by_the_beat_sweep(
    worker_env: dict[str, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    decisions_locked: Callable[[Campaign], psycopg.Connection],
) -> None:
    """The worker's machine dies: nobody hands its message back (Redis would, after its
    visibility timeout of an hour). The beat's sweep finds the campaign ready and not
    advanced, and queues the advance again."""
    campaign = everyone_ready_without_an_advance("Dead", monkeypatch)
    lock = decisions_locked(campaign)
    log = tmp_path / "worker.log"
    with pool_worker(worker_env, log) as first:
        held_mid_advance(first, campaign)
        first.kill()
        lock.rollback()
        # Its database session ends with nobody to read the answer: rolled back.
        wait_until(lambda: not advance_waiting_for_the_lock(), 30, "its session to end")
        assert not campaign.snapshots.filter(number=2).exists()

        with pool_worker(worker_env, tmp_path / "second.log", queue=first.queue):
            assert advance_ready_campaigns(older_than_seconds=0, queue=first.queue) == 1
            wait_until(lambda: campaign.snapshots.filter(number=2).exists(), 60, "the advance")
            assert advance_ready_campaigns(older_than_seconds=0, queue=first.queue) == 0

    one_advance_with_every_decision(campaign)
