"""`manage.py import_campaign FILE [--slug NEW]`: recreate a campaign from a document
written by `manage.py export_campaign` (see campaign/transfer.py), under its own slug or
NEW. A bad document is refused with one line on standard error and exit status 2, and
nothing is written."""

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.management.jsonfile import Unreadable, read_json
from campaign.services.common import ServiceError
from campaign.transfer.importing import campaign_import, created_users

REFUSED = 2
# An export holds a campaign's whole history: about 15 MB for 8 kingdoms over 6 years on
# the largest map; and its battle reports' photographs, up to six a side, each a few
# hundred kilobytes as kept and a third more in base64. A bigger document than this is
# refused before it is read.
MAX_FILE_BYTES = 512 * 1024 * 1024


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
        return read_json(name, max_bytes=MAX_FILE_BYTES, what="export")
    except Unreadable as refusal:
        raise CommandError(f"refused: {refusal.message}", returncode=REFUSED) from None
