"""`manage.py bench_pages --quick`, run the way `make bench` runs it: a process of its own,
with no secret key and DEBUG off, on a database of its own (here a SQLite file, migrated by
the command), serving the app with gunicorn and leaving nothing behind."""

import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

from tests.conftest import BASE_DIR

FIGURE = re.compile(r"^bench: [a-z0-9_]+ -?\d+(\.\d+)? [A-Za-z/%]+$")
TARGET = re.compile(r"^bench: target_pages_(campaign|orders|report)_50pct (met|not met)$")


def test_it_prints_each_pages_throughput_latencies_and_target_a_line(tmp_path: Path) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "DATABASE_URL", "REDIS_URL"}
    }
    env["VAR_DIR"] = str(tmp_path)
    result = subprocess.run(
        [sys.executable, "manage.py", "bench_pages", "--quick"],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(FIGURE.match(line) or TARGET.match(line) for line in lines), lines
    names = {line.split()[1] for line in lines}
    for page in ("minimal", "campaign", "orders", "report"):
        assert {f"pages_{page}_{figure}" for figure in ("rps", "p50", "p95", "whole_p50")} <= names
    for page in ("campaign", "orders", "report"):
        assert f"pages_{page}_ratio" in names
        assert f"target_pages_{page}_50pct" in names
    figures = {line.split()[1]: line.split()[2] for line in lines if FIGURE.match(line)}
    assert float(figures["pages_orders_not_modified"]) > 50  # the polls are answered 304
    assert all(figures[f"pages_{page}_errors"] == "0" for page in ("campaign", "orders"))
    with sqlite3.connect(tmp_path / "db.sqlite3") as db:
        assert db.execute("SELECT count(*) FROM campaign_campaign").fetchone() == (0,)
        assert db.execute("SELECT count(*) FROM accounts_user").fetchone() == (0,)
