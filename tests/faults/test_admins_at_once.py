"""Two people acting on one campaign at the same moment, on PostgreSQL, each in a thread with
its own connection as each request has: an undo while an advance runs, a correction while a
battle result arrives, an admin's battle decision while the campaign is paused. The first to
take the campaign's lock is held inside its transaction; the second waits for the lock, then
is applied on the newest state or refused with a message."""

import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from importlib import import_module
from typing import Any

import psycopg
import pytest

from accounts.models import User
from battles.models import Battle, ResultReport
from battles.services import desk, results
from campaign.models import AuditEntry, Campaign, Snapshot, Submission
from campaign.services import admin as admin_services
from campaign.services import advancing, common, submissions
from campaign.services.common import ServiceError
from tests.battles.conftest import hand_off, make_league
from tests.campaign.helpers import LEAGUE_CAST, make_cast
from tests.campaign.services.test_tasks import ruler, running_campaign
from tests.conftest import database_url_for_tests
from tests.faults.servers import wait_until
from tests.faults.test_worker_killed import RACES

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

type Queued = list[tuple[int, int]]


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> Queued:
    """The advances the services queue, as (campaign id, snapshot number), run by the test
    when it chooses (`run_queued`) instead of by a worker."""
    made: Queued = []

    def record(campaign: Campaign, snapshot_number: int, *, defaults: bool = False) -> None:
        made.append((campaign.pk, snapshot_number))

    monkeypatch.setattr("campaign.services.advancing.queue_advance", record)
    return made


def run_queued(queued: Queued) -> list[Snapshot | None]:
    done = [advancing.campaign_advance(campaign_id=pk, snapshot_number=n) for pk, n in queued]
    queued.clear()
    return done


@dataclass
class Hold:
    """The first call of a step of the services is held, inside its transaction and so
    with the campaign's row locked, until the test releases it."""

    inside: threading.Event = field(default_factory=threading.Event)
    release: threading.Event = field(default_factory=threading.Event)

    def wrap(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def held(*args: Any, **kwargs: Any) -> Any:
            if not self.inside.is_set():
                self.inside.set()
                assert self.release.wait(60), "never released"
            return real(*args, **kwargs)

        return held


@pytest.fixture
def hold(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], Hold]:
    def holding(path: str) -> Hold:
        """`path`: where the step is looked up, "campaign.services.advancing.advance"."""
        where, name = path.rsplit(".", 1)
        step = Hold()
        monkeypatch.setattr(path, step.wrap(getattr(import_module(where), name)))
        return step

    return holding


@dataclass
class Outcome:
    value: Any = None
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)


@pytest.fixture
def in_thread() -> Iterator[Callable[[Callable[[], Any]], Outcome]]:
    """Start a job in a thread with its own database connection; joined at the end."""
    threads: list[threading.Thread] = []

    def start(job: Callable[[], Any]) -> Outcome:
        outcome = Outcome()

        def run() -> None:
            from django.db import connection

            try:
                outcome.value = job()
            except BaseException as error:
                outcome.error = error
            finally:
                connection.close()
                outcome.done.set()

        thread = threading.Thread(target=run)
        thread.start()
        threads.append(thread)
        return outcome

    yield start
    for thread in threads:
        thread.join(timeout=60)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"


def waiting_for_the_lock() -> bool:
    """Another session waits for a row lock (the campaign's) in this test database."""
    with psycopg.connect(database_url_for_tests(), autocommit=True) as observer:
        row = observer.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE wait_event_type = 'Lock' AND datname = current_database()"
        ).fetchone()
    return bool(row and row[0])


def first_then_second(
    in_thread: Callable[[Callable[[], Any]], Outcome],
    held: Hold,
    first: Callable[[], Any],
    second: Callable[[], Any],
) -> tuple[Outcome, Outcome]:
    """`first` takes the campaign's lock and is held there; `second` starts and waits for
    the lock; then `first` goes on. Both outcomes, once both are done."""
    one = in_thread(first)
    assert held.inside.wait(30), "the first never reached its held step"
    two = in_thread(second)
    wait_until(waiting_for_the_lock, 30, "the second to wait for the campaign's lock")
    held.release.set()
    assert one.done.wait(60), "the first never finished"
    assert two.done.wait(60), "the second never finished"
    return one, two


def numbers(campaign: Campaign) -> list[int]:
    return list(campaign.snapshots.order_by("number").values_list("number", flat=True))


# --- undo while an advance runs -------------------------------------------------------------


def everyone_ready(name: str) -> tuple[Campaign, User]:
    campaign = running_campaign(name)
    for kingdom, race in RACES.items():
        user = ruler(campaign, kingdom)
        submissions.submission_save(campaign=campaign, user=user, kind="races", payload=race)
        submissions.submission_set_ready(campaign=campaign, user=user)
    return campaign, User.objects.get(username=f"{name}-admin")


def test_an_undo_while_an_advance_runs_waits_and_undoes_the_newest_advance(
    postgres: None, queued: Queued, hold: Callable[[str], Hold], in_thread: Any
) -> None:
    campaign, admin = everyone_ready("Undone")
    engine = hold("campaign.services.advancing.advance")

    advance, undo = first_then_second(
        in_thread,
        engine,
        lambda: advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1),
        lambda: admin_services.campaign_undo(campaign=campaign, actor=admin, reason="misclick"),
    )

    assert (advance.error, undo.error) == (None, None)
    assert numbers(campaign) == [1, 2, 3]
    first, undone = campaign.snapshots.get(number=1), campaign.snapshots.get(number=3)
    assert undone.reason == Snapshot.Reason.UNDO
    assert undone.data == first.data  # the advance that landed first is the one undone
    audit = AuditEntry.objects.get(campaign=campaign, action="undone")
    assert (audit.details["undid"], audit.details["back_to"]) == (2, 1)
    reopened = Submission.objects.filter(campaign=campaign, consumed_by=None)
    assert {(s.kingdom, s.payload, s.ready) for s in reopened} == {
        (kingdom, race, False) for kingdom, race in RACES.items()
    }


def test_an_advance_queued_before_an_undo_finds_the_campaign_moved_on(
    postgres: None, queued: Queued, hold: Callable[[str], Hold], in_thread: Any
) -> None:
    campaign, admin = everyone_ready("Redone")
    advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1)  # to snapshot 2
    undoing = hold("campaign.services.admin.store_snapshot")

    undo, late = first_then_second(
        in_thread,
        undoing,
        lambda: admin_services.campaign_undo(campaign=campaign, actor=admin, reason="too soon"),
        lambda: advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=2),
        # ^ an advance of the same step, queued by a deadline before the undo
    )

    assert undo.error is None
    assert late.error is None
    assert late.value is None  # it found snapshot 3 (the undo) and did nothing
    assert numbers(campaign) == [1, 2, 3]


# --- a correction while a battle result arrives -----------------------------------------------


@pytest.fixture
def awaiting() -> tuple[Battle, dict[str, User], ResultReport]:
    """alice's and bob's battle waits for its result; alice has reported a win."""
    cast = make_cast(LEAGUE_CAST)
    campaign = make_league(cast)
    battle = hand_off(campaign, cast)
    assert battle is not None
    assert battle.awaiting
    report = results.battle_report(
        battle=battle, user=cast["alice"], result="win", winner="aldermark"
    )
    return battle, cast, report


def correct(campaign: Campaign, gm: User, tile: list[int]) -> Snapshot:
    """The gm gives a tile away from the battle to carrowmoor."""
    return admin_services.correct_tile(
        campaign=campaign, actor=gm, reason="a mistake", hex=tile, owner="carrowmoor",
        settlement=None,
    )  # fmt: skip


def a_tile_away_from(battle: Battle) -> list[int]:
    data = common.latest_snapshot(battle.campaign).data
    return next(t["hex"] for t in data["map"]["tiles"] if t["hex"] != battle.hex)


def test_a_result_confirmed_while_a_correction_is_made_is_refused_as_moved_on(
    postgres: None, queued: Queued, hold: Callable[[str], Hold], in_thread: Any, awaiting: Any
) -> None:
    battle, cast, report = awaiting
    queued.clear()
    campaign, seen = battle.campaign, common.latest_snapshot(battle.campaign).number
    correcting = hold("campaign.services.admin.parse_campaign")

    correction, confirm = first_then_second(
        in_thread,
        correcting,
        lambda: correct(campaign, cast["gm"], a_tile_away_from(battle)),
        lambda: results.battle_confirm(report=report, user=cast["bob"], seen=seen),
    )

    assert correction.error is None
    assert isinstance(confirm.error, ServiceError)
    assert confirm.error.code == "moved-on"
    assert "moved on since you looked" in confirm.error.message
    report.refresh_from_db()
    assert report.is_open  # bob may confirm again, on the corrected state
    assert not Submission.objects.filter(campaign=campaign, kind="battles").exists()
    assert queued == []


def test_a_correction_made_while_a_result_is_confirmed_is_made_on_the_newest_state(
    postgres: None, queued: Queued, hold: Callable[[str], Hold], in_thread: Any, awaiting: Any
) -> None:
    battle, cast, report = awaiting
    queued.clear()
    campaign, seen = battle.campaign, common.latest_snapshot(battle.campaign).number
    tile = a_tile_away_from(battle)
    confirming = hold("campaign.services.battle_entries.check_with_engine")

    confirm, correction = first_then_second(
        in_thread,
        confirming,
        lambda: results.battle_confirm(report=report, user=cast["bob"], seen=seen),
        lambda: correct(campaign, cast["gm"], tile),
    )

    assert (confirm.error, correction.error) == (None, None)
    corrected = correction.value
    assert corrected.number == seen + 1
    # Both queued an advance: the result's from the step it came in, the correction's from
    # the corrected one. The first finds the campaign moved on; the second uses the result.
    assert queued == [(campaign.pk, seen), (campaign.pk, seen + 1)]
    stale, advanced = run_queued(queued)
    assert stale is None
    assert advanced is not None
    assert numbers(campaign) == [*range(1, seen + 1), seen + 1, seen + 2]
    assert {"hex": battle.hex, "result": "win", "winner": "aldermark"} in advanced.decisions[
        "battles"
    ]
    assert {"hex": tile, "owner": "carrowmoor", "settlement": None} in corrected.data["tiles"]
    assert not Submission.objects.filter(campaign=campaign, consumed_by=None).exists()


# --- an admin's battle decision while the campaign is paused ---------------------------------


def test_an_admins_decision_while_paused_is_kept_and_the_advance_waits_for_the_resume(
    postgres: None, queued: Queued, awaiting: Any
) -> None:
    battle, cast, _ = awaiting
    queued.clear()
    campaign, gm = battle.campaign, cast["gm"]
    number = common.latest_snapshot(campaign).number
    admin_services.campaign_pause(campaign=campaign, actor=gm, reason="holiday")

    desk.battle_decide(battle=battle, actor=gm, result="draw", reason="agreed")

    assert queued == []  # nothing advances a paused campaign
    assert AuditEntry.objects.filter(campaign=campaign, action="battle-decided").exists()
    admin_services.campaign_resume(campaign=campaign, actor=gm)
    assert queued == [(campaign.pk, number)]
    (advanced,) = run_queued(queued)
    assert advanced is not None
    assert {"hex": battle.hex, "result": "draw"} in advanced.decisions["battles"]


def test_an_advance_queued_just_before_a_pause_waits_for_the_resume(
    postgres: None, queued: Queued, hold: Callable[[str], Hold], in_thread: Any, awaiting: Any
) -> None:
    """The admin decides the battle while the other admin pauses: the decision's advance,
    queued while the campaign still ran, runs after the pause and does nothing; the
    resume queues it again and it lands once."""
    battle, cast, _ = awaiting
    queued.clear()
    campaign, gm = battle.campaign, cast["gm"]
    number = common.latest_snapshot(campaign).number
    deciding = hold("campaign.services.battle_entries.check_with_engine")

    decide, pause = first_then_second(
        in_thread,
        deciding,
        lambda: desk.battle_decide(battle=battle, actor=gm, result="draw"),
        lambda: admin_services.campaign_pause(campaign=campaign, actor=gm, reason="holiday"),
    )

    assert decide.error is None
    assert pause.error is None
    assert run_queued(queued) == [None]  # paused meanwhile: nothing advanced
    assert numbers(campaign)[-1] == number
    admin_services.campaign_resume(campaign=campaign, actor=gm)
    (advanced,) = run_queued(queued)
    assert advanced is not None
    assert advanced.number == number + 1
    assert numbers(campaign)[-1] == number + 1
