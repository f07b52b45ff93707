"""`manage.py adjudicate FILE [--defaults]`: advance a campaign file (the public contract in
../shared/design/campaign-file.md). The advanced file goes to standard output; a refusal
goes to standard error with its code and field, exit status 2. No database is touched."""

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand

from campaign.rules.engine import advance
from campaign.rules.errors import RuleError

REFUSED = 2
# A campaign file is well under 1 MB (an 8-kingdom campaign's last file on the largest
# map is about 0.4 MB): a bigger one is refused before it is read.
MAX_FILE_BYTES = 10 * 1024 * 1024


class Command(BaseCommand):
    help = "Advance a campaign file as far as its inputs allow and print the advanced file."
    requires_system_checks = []  # noqa: RUF012  (it needs no database, key or server)

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="the campaign file (JSON), or - for standard input")
        parser.add_argument(
            "--defaults",
            action="store_true",
            help="give missing decisions their deadline defaults (rulings O3, B4, B10, W6, W7)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = _read(options["file"])
            advanced = advance(data, defaults=options["defaults"])
        except RuleError as refusal:
            _refuse(refusal)
        self.stdout.write(json.dumps(advanced, indent=2, ensure_ascii=False))


def _read(name: str) -> object:
    try:
        if name == "-":
            text = sys.stdin.read(MAX_FILE_BYTES + 1)
            too_big = len(text.encode("utf-8")) > MAX_FILE_BYTES
        else:
            path = Path(name)
            too_big = path.stat().st_size > MAX_FILE_BYTES
            text = "" if too_big else path.read_text(encoding="utf-8")
    except OSError as error:
        raise RuleError(
            "unreadable-file", "(file)", f"Can't read {name}: {error.strerror}."
        ) from None
    except UnicodeDecodeError:
        raise RuleError("not-json", "(file)", f"{name} is not UTF-8 text.") from None
    if too_big:
        raise RuleError(
            "file-too-big",
            "(file)",
            f"{name} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB: "
            "no campaign file is that big.",
        )
    try:
        return json.loads(text)
    except RecursionError:
        raise RuleError("not-json", "(file)", f"{name} is nested too deeply to read.") from None
    except json.JSONDecodeError as error:
        raise RuleError(
            "not-json", "(file)", f"{name} is not valid JSON: {error.msg} at line {error.lineno}."
        ) from None
    except ValueError:  # a number of more than 4,300 digits
        raise RuleError("not-json", "(file)", f"{name} has a number too long to read.") from None


def _refuse(refusal: RuleError) -> None:
    unit = f" (unit {refusal.unit})" if refusal.unit else ""
    sys.stderr.write(f"refused: {refusal.code} at {refusal.field}{unit}: {refusal.message}\n")
    sys.exit(REFUSED)
