"""`manage.py adjudicate FILE [--defaults | --defaults-now]`: advance a campaign file (the public contract in
../shared/design/campaign-file.md). The advanced file goes to standard output; a refusal
goes to standard error with its code and field, exit status 2. No database is touched."""

import json
import sys
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand

from campaign.management.jsonfile import Unreadable, read_json
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
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument(
            "--defaults",
            action="store_true",
            help="give missing decisions their deadline defaults (rulings O3, B4, B10, W6, "
            "W7) and run to the next summer month's orders",
        )
        mode.add_argument(
            "--defaults-now",
            action="store_true",
            help="a step's deadline: only the decisions pending now take their defaults, "
            "then stop at the next decision needed",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            data = _read(options["file"])
            advanced = advance(
                data, defaults=options["defaults"], defaults_now=options["defaults_now"]
            )
        except RuleError as refusal:
            _refuse(refusal)
        self.stdout.write(json.dumps(advanced, indent=2, ensure_ascii=False))


def _read(name: str) -> object:
    try:
        return read_json(name, max_bytes=MAX_FILE_BYTES, what="campaign file")
    except Unreadable as refusal:
        raise RuleError(refusal.code, "(file)", refusal.message) from None


def _refuse(refusal: RuleError) -> None:
    unit = f" (unit {refusal.unit})" if refusal.unit else ""
    sys.stderr.write(f"refused: {refusal.code} at {refusal.field}{unit}: {refusal.message}\n")
    sys.exit(REFUSED)
