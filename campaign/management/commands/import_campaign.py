"""`manage.py import_campaign FILE [--slug NEW]`: recreate a campaign from a document
written by `manage.py export_campaign` (see campaign/transfer.py), under its own slug or
NEW. A bad document is refused with one line on standard error and exit status 2, and
nothing is written."""

import json
import sys
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.services import ServiceError
from campaign.transfer import campaign_import, created_users

REFUSED = 2
# An export holds a campaign's whole history: about 15 MB for 8 kingdoms over 6 years on
# the largest map. A bigger document than this is refused before it is read.
MAX_FILE_BYTES = 64 * 1024 * 1024


class Command(BaseCommand):
    help = "Recreate a campaign from an export_campaign document."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("file", help="the export (JSON), or - for standard input")
        parser.add_argument("--slug", help="import it under this slug instead of its own")

    def handle(self, *args: Any, **options: Any) -> None:
        document = _read(options["file"])
        try:
            campaign = campaign_import(document, slug=options["slug"])
        except ServiceError as refusal:
            raise CommandError(f"refused: {refusal.message}", returncode=REFUSED) from None
        snapshots = campaign.snapshots.count()
        self.stdout.write(
            f"Imported {campaign.name!r} as {campaign.slug} ({campaign.status}, "
            f"{snapshots} snapshots, {campaign.memberships.count()} members)."
        )
        created = created_users(campaign)
        if created:
            self.stdout.write(
                f"Created users with no usable password: {', '.join(created)} "
                "(set one with `manage.py changepassword NAME`)."
            )


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
        raise CommandError(
            f"refused: can't read {name}: {error.strerror}.", returncode=REFUSED
        ) from None
    except UnicodeDecodeError:
        raise CommandError(f"refused: {name} is not UTF-8 text.", returncode=REFUSED) from None
    if too_big:
        raise CommandError(
            f"refused: {name} is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB: "
            "no export is that big.",
            returncode=REFUSED,
        )
    try:
        return json.loads(text)
    except RecursionError:
        raise CommandError(
            f"refused: {name} is nested too deeply to read.", returncode=REFUSED
        ) from None
    except json.JSONDecodeError as error:
        raise CommandError(
            f"refused: {name} is not valid JSON: {error.msg} at line {error.lineno}.",
            returncode=REFUSED,
        ) from None
    except ValueError:  # a number of more than 4,300 digits
        raise CommandError(
            f"refused: {name} has a number too long to read.", returncode=REFUSED
        ) from None
