"""`manage.py export_campaign SLUG [--out FILE]`: the campaign as one JSON document, its
newest campaign file with every snapshot before it (see campaign/transfer.py); read back
by `manage.py import_campaign`. An unknown slug exits with status 2."""

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from campaign.transfer import campaign_export

REFUSED = 2


class Command(BaseCommand):
    help = "Write a campaign, with its whole snapshot history, as one JSON document."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", help="the campaign's slug")
        parser.add_argument("--out", metavar="FILE", help="write it here, not to standard output")

    def handle(self, *args: Any, **options: Any) -> None:
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(
                f"There is no campaign with the slug {options['slug']!r}.", returncode=REFUSED
            )
        text = json.dumps(campaign_export(campaign), ensure_ascii=False) + "\n"
        if not options["out"]:
            self.stdout.write(text, ending="")
            return
        try:
            Path(options["out"]).write_text(text, encoding="utf-8")
        except OSError as error:
            raise CommandError(
                f"Can't write {options['out']}: {error.strerror}.", returncode=REFUSED
            ) from None
        snapshots = campaign.snapshots.count()
        self.stderr.write(f"Wrote {campaign.slug} ({snapshots} snapshots) to {options['out']}.")
