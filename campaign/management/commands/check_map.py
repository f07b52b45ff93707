"""manage.py check_map FILE: every problem of a hand-made map, one a line (exit status 2),
or "ok" with its tile counts. FILE holds a map object or a whole campaign file."""

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from campaign.rules.errors import RuleError
from campaign.rules.hexmap import HexMap, MapProblem, hex_label, map_from_json, map_problems


class Command(BaseCommand):
    help = "Check a map, or a campaign file's map, and list every problem it has."
    requires_system_checks = ()  # reading a file needs no database and no settings checks

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="a JSON file: a map object or a campaign file")

    def handle(self, *args: Any, **options: Any) -> None:
        path = Path(options["file"])
        hexmap = read_map(path)
        problems = map_problems(hexmap)
        for problem in problems:
            self.stdout.write(problem_line(problem))
        if problems:
            raise CommandError(f"{path}: the map has {len(problems)} problems.", returncode=2)
        self.stdout.write(f"ok: {len(hexmap.tiles)} tiles, {len(hexmap.start_tiles())} start tiles")


def read_map(path: Path) -> HexMap:
    """The map in the file, whether the file is a map object or a whole campaign file."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise CommandError(
            f"{path}: can't read the file ({error.strerror}).", returncode=2
        ) from None
    except UnicodeDecodeError:
        raise CommandError(f"{path}: the file is not UTF-8 text.", returncode=2) from None
    except json.JSONDecodeError as error:
        raise CommandError(
            f"{path}: not valid JSON ({error.msg} at line {error.lineno}, column {error.colno}).",
            returncode=2,
        ) from None
    if isinstance(data, dict) and "map" in data:
        data = data["map"]
    try:
        return map_from_json(data)
    except RuleError as error:
        raise CommandError(
            f"{path}: {error.field}: {error.message} ({error.code})", returncode=2
        ) from None


def problem_line(problem: MapProblem) -> str:
    where = "(map)" if problem.hex is None else hex_label(problem.hex)
    return f"{problem.code} {where}: {problem.message}"
