"""Redis stopped while players submit: every decision is saved and acknowledged at once,
pages still render, and the advance that could not be queued meanwhile happens once Redis
is back, found by the beat's sweep. The Redis is the test's own, under a gunicorn of its own;
the shared one is never stopped."""

import logging
import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
import requests
from django.conf import settings
from django.test import Client
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerError

from accounts.models import User
from campaign.models import Campaign, Submission
from campaign.services import advancing, submissions
from campaign.tasks import advance_campaign
from tests.campaign.services.test_tasks import ruler, running_campaign
from tests.conftest import BASE_DIR, database_url_for_tests
from tests.faults.servers import Visitor, gunicorn, pool_worker, redis_server, wait_until
from tests.faults.test_worker_killed import RACES, one_advance_with_every_decision

pytestmark = pytest.mark.services

# The sweep finds a campaign ready this long without an advance (a minute by default; the
# worker of the test is told so).
SWEEP_AFTER_SECONDS = 5


def all_ready(campaign: Campaign) -> None:
    for kingdom, race in RACES.items():
        user = ruler(campaign, kingdom)
        submissions.submission_save(campaign=campaign, user=user, kind="races", payload=race)
        submissions.submission_set_ready(campaign=campaign, user=user)


def session_of(user: User) -> str:
    client = Client()
    client.force_login(user)
    return str(client.session.session_key)


# --- the sweep ------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_sweep_finds_a_campaign_ready_for_a_minute_and_not_advanced(monkeypatch):
    campaign = running_campaign("Forgotten")
    monkeypatch.setattr(
        "campaign.services.advancing.queue_advance", lambda *args, **kwargs: None
    )  # lost
    all_ready(campaign)
    later = timezone.now() + timedelta(minutes=2)

    assert advancing.campaigns_ready_not_advanced() == []  # its advance may still be on its way
    assert advancing.campaigns_ready_not_advanced(now=later) == [(campaign.pk, 1)]


@pytest.mark.django_db
def test_the_sweep_leaves_alone_a_campaign_not_all_ready_paused_or_advanced(monkeypatch):
    monkeypatch.setattr("campaign.services.advancing.queue_advance", lambda *args, **kwargs: None)
    later = timezone.now() + timedelta(minutes=2)
    waiting = running_campaign("Waiting")
    user = ruler(waiting, "red")
    submissions.submission_save(campaign=waiting, user=user, kind="races", payload="Elves")
    submissions.submission_set_ready(campaign=waiting, user=user)
    paused = running_campaign("Paused")
    all_ready(paused)
    Campaign.objects.filter(pk=paused.pk).update(status=Campaign.Status.PAUSED)
    advanced = running_campaign("Advanced")
    all_ready(advanced)
    advancing.campaign_advance(campaign_id=advanced.pk, snapshot_number=1)

    assert advancing.campaigns_ready_not_advanced(now=later) == []


def test_the_beat_runs_the_sweep_every_minute_for_campaigns_ready_a_minute():
    assert settings.SWEEP_AFTER_SECONDS == 60  # what the sweep waits for, by default
    sweeps = [
        entry
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
        if entry["task"] == "campaign.tasks.advance_ready_campaigns"
    ]
    assert [entry["schedule"] for entry in sweeps] == [60.0]


@pytest.mark.django_db(transaction=True)
def test_a_broker_that_does_not_answer_is_logged_and_the_decision_kept(monkeypatch, caplog):
    campaign = running_campaign("Unheard")

    def away(*args, **kwargs):
        raise BrokerError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(advance_campaign, "apply_async", away)
    with caplog.at_level(logging.WARNING, logger="campaign.services"):
        all_ready(campaign)

    assert Submission.objects.filter(campaign=campaign, ready=True).count() == 2
    assert "could not be queued" in caplog.text
    assert "the beat's sweep will queue it" in caplog.text


# --- the whole path, on a Redis that stops ------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_players_submit_while_redis_is_away_and_the_advance_comes_once_it_is_back(
    postgres: None, tmp_path: Path
) -> None:
    campaign = running_campaign("Stormy")
    slug = campaign.slug
    players = {kingdom: session_of(ruler(campaign, kingdom)) for kingdom in RACES}
    with redis_server(tmp_path) as redis:
        env = {
            "DATABASE_URL": database_url_for_tests(),
            "REDIS_URL": redis.url,
            "POST_RATE_LIMIT": "60/m",  # counted in Redis, as in production
        }
        web_log = tmp_path / "gunicorn.log"
        with gunicorn(env, web_log) as base:
            visitors = {kingdom: Visitor(base, key) for kingdom, key in players.items()}
            assert visitors["red"].get(f"/c/{slug}/").status_code == 200
            redis.stop()

            for kingdom, visitor in visitors.items():
                started = time.monotonic()
                chose = visitor.post(
                    f"/c/{slug}/setup/race/", {"race": RACES[kingdom], "seen": "1"}
                )
                ready = visitor.post(f"/c/{slug}/setup/ready/", {"seen": "1"})
                took = time.monotonic() - started
                assert (chose.status_code, ready.status_code) == (302, 302), web_log.read_text()
                assert took < 8, f"Two posts took {took:.1f} s with Redis away."
                page = visitor.get(f"/c/{slug}/setup/")
                assert page.status_code == 200
                assert "Ready. The campaign moves on" in page.text
                for path in (f"/c/{slug}/", f"/c/{slug}/kingdom/", "/"):
                    assert visitor.get(path).status_code == 200, path

            saved = Submission.objects.filter(campaign=campaign, kind="races", ready=True)
            assert {submission.kingdom: submission.payload for submission in saved} == RACES
            last_saved = time.monotonic()

            # Redis stays away while the sweep waits for an advance on its way, the players
            # looking at their pages meanwhile: then the sweep finds it.
            while time.monotonic() - last_saved < SWEEP_AFTER_SECONDS + 1:
                for visitor in visitors.values():
                    assert visitor.get(f"/c/{slug}/").status_code == 200
                time.sleep(1)
            assert list(campaign.snapshots.values_list("number", flat=True)) == [1]
            assert "could not be queued" in web_log.read_text()
            assert "Traceback" not in web_log.read_text()

        redis.start()
        worker_env = {
            **env,
            "REDIS_URL": redis.url,
            "SWEEP_AFTER_SECONDS": str(SWEEP_AFTER_SECONDS),
        }
        with pool_worker(worker_env, tmp_path / "worker.log", queue="celery"):
            # What the beat sends each minute, as it sends it, through the broker.
            subprocess.run(
                [sys.executable, "-m", "celery", "-A", "config", "call",
                 "campaign.tasks.advance_ready_campaigns"],
                cwd=BASE_DIR, env={**worker_env}, check=True, capture_output=True, timeout=60,
            )  # fmt: skip
            wait_until(lambda: campaign.snapshots.filter(number=2).exists(), 60, "the advance")

    one_advance_with_every_decision(campaign)


@pytest.mark.django_db(transaction=True)
def test_a_sign_out_while_redis_hangs_is_refused_and_never_undone(postgres, tmp_path):
    """Sessions are read from Redis (accounts.sessions). Redis hangs, its data kept, while a
    player signs out: the sign-out is refused with a 503, so the session Redis still holds
    is not one the database has dropped. Once Redis answers, the player is still signed in,
    signs out, and the old cookie opens nothing."""
    User.objects.create_user("erin", password="a-long-test-password")
    with redis_server(tmp_path) as redis:
        env = {"DATABASE_URL": database_url_for_tests(), "REDIS_URL": redis.url}
        web_log = tmp_path / "gunicorn.log"
        with gunicorn(env, web_log) as base:
            player = Visitor(base, session_of(User.objects.get(username="erin")))
            assert player.get("/notifications/").status_code == 200  # now in Redis too
            redis.pause()
            try:
                refused = player.post("/accounts/sign-out/", {})
                assert refused.status_code == 503, web_log.read_text()
                assert "The store of who is signed in is not answering" in refused.text
                assert player.get("/notifications/").status_code == 200
            finally:
                redis.resume()
            assert player.get("/notifications/").status_code == 200  # still signed in
            assert player.post("/accounts/sign-out/", {}).status_code == 302
            gone = requests.get(
                f"{base}/notifications/",
                headers={"Cookie": f"sessionid={player.session_key}"},
                allow_redirects=False, timeout=30,
            )  # fmt: skip
            assert gone.status_code == 302
            assert "/accounts/sign-in/" in gone.headers["Location"]


QUEUE_BOTH = """
import time
from django.db import transaction
from campaign.services import advancing
from campaign.models import Campaign
from notifications import outbox

started = time.monotonic()
with transaction.atomic():
    outbox.queue([1, 2, 3])
    advancing.queue_advance(Campaign(pk=1), 1)
print(f"queued in {time.monotonic() - started:.1f} s")
"""


@pytest.mark.django_db
def test_a_web_process_that_queues_tasks_with_redis_away_answers_within_seconds(
    postgres: None, tmp_path: Path
) -> None:
    """An advance and three notifications queued on commit, as a request does, with nothing
    listening at REDIS_URL: the errors are logged and the request goes on."""
    with redis_server(tmp_path) as redis:
        redis.stop()
        env = {"DATABASE_URL": database_url_for_tests(), "REDIS_URL": redis.url}
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "manage.py", "shell", "-c", QUEUE_BOTH],
            cwd=BASE_DIR, env={**os.environ, **env}, capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        took = time.monotonic() - started
    assert done.returncode == 0, done.stderr
    assert "queued in" in done.stdout
    assert float(done.stdout.split("queued in ")[1].split()[0]) < 6, done.stdout
    assert "could not be queued" in done.stderr, done.stderr
    assert took < 30
