"""manage.py check_map FILE: "ok" and exit 0 for a playable map; every problem, one a line,
and exit 2 otherwise; a one-line message and exit 2 for a file it can't read."""

import json
import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from campaign.maps import load_builtin_map
from campaign.rules.hexmap import map_to_json
from tests.campaign.commands.manage import manage
from tests.conftest import BASE_DIR


def write(tmp_path: Path, data: object) -> Path:
    path = tmp_path / "map.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def check_map(path: Path) -> str:
    out = StringIO()
    call_command("check_map", str(path), stdout=out)
    return out.getvalue()


def check_map_refused(path: Path) -> tuple[str, CommandError]:
    out = StringIO()
    with pytest.raises(CommandError) as caught:
        call_command("check_map", str(path), stdout=out)
    return out.getvalue(), caught.value


def broken_map() -> dict[str, object]:
    """A bridge without a river on [0, 0]; [1, 0] and [5, 0] are start tiles on an ocean
    tile and a lone hex; a water edge off the map."""
    return {
        "tiles": [
            {"hex": [0, 0], "terrain": "plains", "bridge": True},
            {"hex": [1, 0], "terrain": "ocean", "start": True},
            {"hex": [5, 0], "terrain": "plains", "start": True},
        ],
        "water_edges": [[[0, 0], [0, 1]]],
    }


def test_a_playable_map_is_ok(tmp_path):
    """The borderlands map object: "ok: 84 tiles, 4 start tiles"."""
    output = check_map(write(tmp_path, map_to_json(load_builtin_map("borderlands"))))
    assert output == "ok: 84 tiles, 4 start tiles\n"


def test_a_whole_campaign_file_is_checked_by_its_map(tmp_path):
    """A campaign file (format, name, map, ...) is checked by its "map" object."""
    campaign = {
        "format": 1,
        "name": "Autumn league",
        "map": map_to_json(load_builtin_map("borderlands")),
    }
    assert check_map(write(tmp_path, campaign)).startswith("ok: ")


def test_every_problem_is_printed_one_a_line_and_the_exit_status_is_2(tmp_path):
    """The broken map's problems are each printed as "code [q, r]: message"."""
    output, error = check_map_refused(write(tmp_path, broken_map()))
    lines = output.splitlines()
    assert "bridge-without-river [0, 0]: Tile [0, 0] has a bridge but no river." in lines
    assert any(line.startswith("start-on-ocean [1, 0]: ") for line in lines)
    assert any(line.startswith("water-edge-off-map [0, 1]: ") for line in lines)
    assert any(line.startswith("start-too-few-neighbours [5, 0]: ") for line in lines)
    assert error.returncode == 2
    assert f"{len(lines)} problems" in str(error)


def test_a_campaign_file_with_a_broken_map_lists_its_problems(tmp_path):
    """The broken map inside a campaign file is checked the same way."""
    output, error = check_map_refused(write(tmp_path, {"format": 1, "map": broken_map()}))
    assert "bridge-without-river [0, 0]" in output
    assert error.returncode == 2


def test_bad_json_is_a_one_line_error(tmp_path):
    """A file that is not JSON: one line naming the file, exit status 2."""
    path = tmp_path / "map.json"
    path.write_text('{"tiles": [', encoding="utf-8")
    output, error = check_map_refused(path)
    assert output == ""
    assert error.returncode == 2
    assert "not valid JSON" in str(error)
    assert "\n" not in str(error)


def test_a_malformed_map_names_the_field_and_code(tmp_path):
    """tiles[1] has terrain "desert": the message names map.tiles[1].terrain and the code."""
    data = {"tiles": [{"hex": [0, 0], "terrain": "plains"}, {"hex": [1, 0], "terrain": "desert"}]}
    _, error = check_map_refused(write(tmp_path, data))
    assert error.returncode == 2
    assert "map.tiles[1].terrain" in str(error)
    assert "unknown-terrain" in str(error)


def test_a_missing_file_is_a_one_line_error(tmp_path):
    """No such file: exit status 2 with a message, no traceback."""
    _, error = check_map_refused(tmp_path / "nowhere.json")
    assert error.returncode == 2
    assert "can't read" in str(error)


def run(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", "check_map", str(path)],
        cwd=BASE_DIR, env={**os.environ, "DEBUG": "1"},
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip


def test_the_command_line_exits_0_for_a_playable_map(tmp_path):
    """Run as manage.py, in a process of its own: "ok: ..." on standard output, nothing on
    standard error, exit 0. (The other tests run it in the test's process.)"""
    result = run(write(tmp_path, map_to_json(load_builtin_map("river-kingdoms"))))
    assert result.returncode == 0
    assert result.stdout.startswith("ok: ")
    assert result.stderr == ""


def test_the_command_line_exits_2_with_problems(tmp_path):
    """Run as manage.py on the broken map: the problems on standard output, exit 2."""
    result = manage("check_map", str(write(tmp_path, broken_map())))
    assert result.returncode == 2
    assert "bridge-without-river [0, 0]" in result.stdout
    assert "Traceback" not in result.stderr


def test_the_command_line_exits_2_on_bad_json_with_one_line_and_no_traceback(tmp_path):
    """Run as manage.py on a file that is not JSON: one line on standard error, exit 2."""
    path = tmp_path / "map.json"
    path.write_text("not json", encoding="utf-8")
    result = manage("check_map", str(path))
    assert result.returncode == 2
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
