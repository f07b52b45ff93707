"""`manage.py simulate` and `manage.py bench`: run in the test's process as manage.py runs
them, with no database (pytest-django lets none of these tests reach one), and each once in
a process of its own, the way an outside check runs them: no database, no secret key and
no server."""

import json
import os
import re
import subprocess
import sys

import pytest

from campaign.rules.engine import advance
from tests.campaign.commands.manage import Ran, manage
from tests.conftest import BASE_DIR

SUMMARY = re.compile(r"^6 years, \d+ battles fought, \d+ events, \d+\.\d\d seconds$")
# A growth exponent may be below 0 on the quick plan's small maps, where the engine's time
# hardly depends on the map's size and a run's noise decides.
FIGURE = re.compile(r"^bench: [a-z0-9_]+ -?\d+(\.\d+)? [A-Za-z]+$")
TARGET = re.compile(r"^bench: target_[a-z0-9_]+ (met|not met)$")


def in_a_process(*args: str) -> subprocess.CompletedProcess[str]:
    # Nothing from the test settings: no SECRET_KEY, DEBUG off, and a database that
    # does not exist, to show the commands touch none of them.
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT"}
    }
    env["DATABASE_URL"] = "postgres://nobody@127.0.0.1:1/nothing"
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def simulate(*args: str) -> Ran:
    return manage("simulate", *args)


def test_in_a_process_of_its_own_it_prints_the_standings_and_exits_0():
    result = in_a_process("simulate", "--kingdoms", "3", "--seed", "4", "--size", "90")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("3 kingdoms on a generated map of ")
    assert lines[1].split() == [
        "rank", "kingdom", "might", "armies", "cities", "fortresses", "villages",
    ]  # fmt: skip
    rows = lines[2:5]
    assert rows[0].split()[0] == "1"
    assert all(re.match(r"^\s*\d+  The \w+ Kingdom \(.+\)", row) for row in rows)
    assert SUMMARY.match(lines[5]), lines[5]
    assert len(lines) == 6


def test_out_writes_a_finished_campaign_file_the_engine_accepts(tmp_path):
    out = tmp_path / "final.json"
    result = simulate("--kingdoms", "2", "--map", "borderlands", "--out", str(out))
    assert result.returncode == 0, result.stderr
    assert "The Borderlands (84 hexes)" in result.stdout
    text = out.read_text(encoding="utf-8")
    final = json.loads(text)
    assert text == json.dumps(final, indent=2, ensure_ascii=False) + "\n"  # as adjudicate prints
    assert final["clock"] == {"year": 6, "season": "ended", "month": 0, "step": "final"}
    assert final["pending"] == []
    assert advance(final) == final


def test_the_same_seed_gives_byte_identical_files_and_another_seed_another(tmp_path):
    args = ["--kingdoms", "4", "--size", "120", "--battles", "simple", "--orders", "cycle"]
    files = []
    for run, seed in enumerate(["7", "7", "8"]):
        out = tmp_path / f"run{run}.json"
        result = simulate(*args, "--seed", seed, "--out", str(out))
        assert result.returncode == 0, result.stderr
        files.append(out.read_bytes())
    assert files[0] == files[1]
    assert files[0] != files[2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--kingdoms", "2", "--map", "atlantis"],
            "There is no built-in map called 'atlantis'; the built-in maps are "
            "borderlands, great-continent, river-kingdoms.",
        ),
        (["--kingdoms", "9"], "--kingdoms must be 2 to 8, not 9."),
        (["--kingdoms", "1"], "--kingdoms must be 2 to 8, not 1."),
        (
            ["--kingdoms", "8", "--map", "borderlands"],
            "The Borderlands (borderlands) is a map for 2 to 3 kingdoms, not 8.",
        ),
        (["--kingdoms", "2", "--size", "9000"], "at most 5000 hexes, not 9000"),
        (["--kingdoms", "2", "--size", "0"], "--size must be a number of hexes, not 0."),
    ],
)
def test_bad_arguments_exit_2_with_a_clear_message_and_no_traceback(args, message):
    result = simulate(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == ""


def test_missing_kingdoms_exits_2_with_the_usage():
    result = simulate()
    assert result.returncode == 2
    assert "the following arguments are required: --kingdoms" in result.stderr
    assert "Traceback" not in result.stderr


def test_bench_quick_in_a_process_of_its_own_prints_a_figure_or_a_target_a_line():
    result = in_a_process("bench", "--quick")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert all(FIGURE.match(line) or TARGET.match(line) for line in lines), lines
    names = [line.split()[1] for line in lines]
    assert {"campaign_2k_60hex", "campaign_2k_60hex_engine", "month_3k_120hex"} <= set(names)
    assert "peak_memory_3k_120hex" in names
    assert any(TARGET.match(line) for line in lines)
