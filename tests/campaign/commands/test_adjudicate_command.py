"""`manage.py adjudicate FILE [--defaults | --defaults-now]`: run in the test's process as
manage.py runs it, with no database (pytest-django lets none of these tests reach one), and
once in a process of its own, the way an outside check runs it: no database, no secret key
and no server."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from campaign.maps import load_builtin_map
from campaign.rules.hexmap import map_to_json
from tests.campaign.commands.manage import Ran, manage
from tests.conftest import BASE_DIR
from tests.rules.casebook import army, move, position, tile


def adjudicate(*args: str, stdin: str = "") -> Ran:
    return manage("adjudicate", *args, stdin=stdin)


def adjudicate_in_a_process(*args: str) -> subprocess.CompletedProcess[str]:
    # Nothing from the test settings: no SECRET_KEY, DEBUG off, and a database that
    # does not exist, to show the command touches none of them.
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"SECRET_KEY", "DEBUG", "ALLOWED_HOSTS", "SECURE_SSL_REDIRECT"}
    }
    env["DATABASE_URL"] = "postgres://nobody@127.0.0.1:1/nothing"
    return subprocess.run(
        [sys.executable, "manage.py", "adjudicate", *args],
        cwd=BASE_DIR, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip


def write(tmp_path: Path, data: object, name: str = "campaign.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data))
    return str(path)


def new_campaign() -> dict[str, object]:
    return {
        "format": 1,
        "name": "Autumn league",
        "options": {"seed": 1234},
        "map": map_to_json(load_builtin_map("borderlands")),
        "clock": {"year": 1, "season": "setup", "month": 0, "step": "races"},
        "kingdoms": [{"id": "red", "name": "Red Elves"}, {"id": "blue", "name": "Blue Dwarfs"}],
    }


def test_in_a_process_of_its_own_it_prints_the_advanced_file_and_exits_0(tmp_path):
    data = position(
        armies=[army("red-1", (0, 0)), army("blue-1", (2, 0))],
        tiles=[tile((0, 0), "red", "city"), tile((2, 0), "blue", "city")],
        inputs={"orders": {"red": [move("red-1", (-1, 0))], "blue": [move("blue-1", (3, -1))]}},
        dice=[6, 6, 2, 3, 4, 2],  # red explores, blue explores, the roll-off for player order
    )
    result = adjudicate_in_a_process(write(tmp_path, data))
    assert result.returncode == 0, result.stderr
    after = json.loads(result.stdout)
    assert after["clock"] == {"year": 1, "season": "summer", "month": 2, "step": "orders"}
    assert {"hex": [-1, 0], "owner": "red", "settlement": "fortress"} in after["tiles"]
    assert {"hex": [3, -1], "owner": "blue", "settlement": None} in after["tiles"]
    assert after["player_order"] == ["red", "blue"]
    assert [p["kind"] for p in after["pending"]] == ["orders", "orders"]
    assert after["dice"] == []


def test_without_defaults_it_stops_at_the_first_missing_decision(tmp_path):
    result = adjudicate(write(tmp_path, new_campaign()))
    assert result.returncode == 0, result.stderr
    after = json.loads(result.stdout)
    assert after["clock"]["step"] == "races"
    assert after["pending"] == [
        {"kind": "race", "kingdom": "red"},
        {"kind": "race", "kingdom": "blue"},
    ]


def test_with_defaults_it_runs_from_setup_to_the_first_months_orders(tmp_path):
    result = adjudicate(write(tmp_path, new_campaign()), "--defaults")
    assert result.returncode == 0, result.stderr
    after = json.loads(result.stdout)
    assert after["clock"] == {"year": 1, "season": "summer", "month": 1, "step": "orders"}
    assert sorted(a["id"] for a in after["armies"]) == ["blue-1", "red-1"]
    assert {p["kind"] for p in after["pending"]} == {"orders"}


def test_with_defaults_now_only_the_races_take_their_defaults(tmp_path):
    """A deadline at the races step: both races are Undeclared, the player order is rolled,
    and the engine stops at the first capital, asked, not defaulted."""
    result = adjudicate(write(tmp_path, new_campaign()), "--defaults-now")
    assert result.returncode == 0, result.stderr
    after = json.loads(result.stdout)
    assert [k["race"] for k in after["kingdoms"]] == ["Undeclared", "Undeclared"]
    assert after["clock"]["step"] == "capitals"
    assert [p["kind"] for p in after["pending"]] == ["capital"]
    assert after["armies"] == []


def test_defaults_and_defaults_now_together_are_refused(tmp_path):
    result = adjudicate(write(tmp_path, new_campaign()), "--defaults", "--defaults-now")
    assert result.returncode == 2
    assert "not allowed with" in result.stderr


def test_the_same_file_gives_the_same_answer_byte_for_byte(tmp_path):
    path = write(tmp_path, new_campaign())
    first, second = adjudicate(path, "--defaults"), adjudicate(path, "--defaults")
    assert first.stdout == second.stdout


def test_it_accepts_its_own_output(tmp_path):
    once = adjudicate(write(tmp_path, new_campaign()), "--defaults")
    again = adjudicate(write(tmp_path, json.loads(once.stdout), "again.json"))
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["clock"] == json.loads(once.stdout)["clock"]


def test_it_reads_standard_input():
    result = adjudicate("-", stdin=json.dumps(new_campaign()))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["pending"][0]["kind"] == "race"


@pytest.mark.parametrize(
    ("content", "code"),
    [
        ("{not json", "not-json"),
        ("[" * 100_000, "not-json"),
        ('{"format": 1}', "missing-field"),
        # Found by tests/test_fuzz_files.py: a number longer than Python reads (4,300
        # digits) was a traceback.
        ('{"format": ' + "9" * 5000 + "}", "not-json"),
        ('{"format": 1, "name": "' + "x" * (10 * 1024 * 1024) + '"}', "file-too-big"),
    ],
)
def test_a_bad_file_is_refused_on_stderr_with_exit_2_and_no_traceback(tmp_path, content, code):
    path = tmp_path / "bad.json"
    path.write_text(content)
    result = adjudicate(str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.startswith(f"refused: {code} at ")
    assert "Traceback" not in result.stderr


def test_an_illegal_order_is_refused_naming_the_code_field_and_unit(tmp_path):
    data = position(
        armies=[army("red-1", (0, 0)), army("blue-1", (2, 0))],
        inputs={"orders": {"red": [move("blue-1", (1, 0))]}},
    )
    result = adjudicate(write(tmp_path, data))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "refused: not-your-unit at inputs.orders.red[0].unit (unit blue-1): blue-1 belongs to blue, not red."
    )


def test_a_missing_file_is_refused(tmp_path):
    result = adjudicate(str(tmp_path / "nowhere.json"))
    assert result.returncode == 2
    assert result.stderr.startswith("refused: unreadable-file at (file): ")


def test_a_file_that_is_not_text_is_refused(tmp_path):
    path = tmp_path / "binary.json"
    path.write_bytes(b"\xff\xfe\x00garbage")
    result = adjudicate(str(path))
    assert result.returncode == 2
    assert result.stderr.startswith("refused: not-json at (file): ")
