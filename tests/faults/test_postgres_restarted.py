"""PostgreSQL restarted under the running app: a PostgreSQL cluster of the test's own, the app
under gunicorn on it with persistent connections (as deployed), the server stopped and
started again. Meanwhile every page and post gets the 503 page in words, never a traceback;
afterwards the app answers again at once and nothing saved before is lost."""

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import requests

from tests.conftest import BASE_DIR
from tests.faults.servers import PostgresCluster, Visitor, gunicorn, postgres_cluster

pytestmark = pytest.mark.services

MAKE_CAMPAIGN = """
import json
from django.test import Client
from tests.campaign.services.test_tasks import ruler, running_campaign

campaign = running_campaign("Restarted")
sessions = {}
for kingdom in ("red", "blue"):
    client = Client()
    client.force_login(ruler(campaign, kingdom))
    sessions[kingdom] = client.session.session_key
print(json.dumps({"slug": campaign.slug, "sessions": sessions}))
"""


def manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR, env={**os.environ, **env}, capture_output=True, text=True, timeout=180,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout


def races_saved(cluster: PostgresCluster) -> dict[str, str]:
    with psycopg.connect(cluster.url()) as conn:
        rows = conn.execute(
            "SELECT kingdom, payload #>> '{}' FROM campaign_submission WHERE kind = 'races'"
        ).fetchall()
    return dict(rows)


def away(response: requests.Response) -> bool:
    """The database-away page: a 503 in words, when to try again, and no traceback."""
    return (
        response.status_code == 503
        and response.headers.get("Retry-After") == "60"
        and "Back in a minute" in response.text
        and "Nothing you saved before is lost." in response.text
        and "Traceback" not in response.text
    )


def test_requests_while_postgresql_restarts_get_a_503_and_nothing_saved_is_lost(
    tmp_path: Path,
) -> None:
    with postgres_cluster() as cluster:
        env = {
            "DATABASE_URL": cluster.url(),
            "DATABASE_CONN_MAX_AGE": "600",  # connections kept between requests, as deployed
            "REDIS_URL": "",
        }
        manage(env, "migrate", "--verbosity=0")
        made = json.loads(manage(env, "shell", "-c", MAKE_CAMPAIGN).strip().splitlines()[-1])
        slug = made["slug"]
        log = tmp_path / "gunicorn.log"
        with gunicorn(env, log) as base:
            red, blue = (Visitor(base, made["sessions"][kingdom]) for kingdom in ("red", "blue"))
            chose = red.post(f"/c/{slug}/setup/race/", {"race": "Elves", "seen": "1"})
            assert chose.status_code == 302
            for _ in range(4):  # every thread of the worker holds a connection
                assert red.get(f"/c/{slug}/").status_code == 200

            cluster.stop()
            for response in (
                red.get(f"/c/{slug}/"),
                red.get(f"/c/{slug}/setup/"),
                blue.get("/"),
                blue.post(f"/c/{slug}/setup/race/", {"race": "Dwarfs", "seen": "1"}),
                red.post(f"/c/{slug}/setup/ready/", {"seen": "1"}),
            ):
                assert away(response), (response.status_code, response.text[:500])

            cluster.start()
            for _ in range(4):  # each thread's old connection is found dead and replaced
                page = red.get(f"/c/{slug}/setup/")
                assert page.status_code == 200, page.text[:500]
                assert "Elves" in page.text
            chose = blue.post(f"/c/{slug}/setup/race/", {"race": "Dwarfs", "seen": "1"})
            assert chose.status_code == 302, chose.text[:500]
            assert blue.get(f"/c/{slug}/setup/").status_code == 200

            # A restart between two requests: the connections kept from before are dead,
            # and found so before a request uses them.
            for _ in range(4):
                assert blue.get(f"/c/{slug}/").status_code == 200
            cluster.stop()
            cluster.start()
            for _ in range(8):
                page = blue.get(f"/c/{slug}/")
                assert page.status_code == 200, page.text[:300]

        assert races_saved(cluster) == {"red": "Elves", "blue": "Dwarfs"}
        assert "Connection refused" in log.read_text()  # the operator's log says why
