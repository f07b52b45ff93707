"""`manage.py export_campaign SLUG [--out FILE]`: the campaign as one JSON document, its
newest campaign file with every snapshot before it, its letters, army lists and battle
reports with their photographs (see campaign/transfer.py); read back by
`manage.py import_campaign`. An unknown slug exits with status 2.

`manage.py export_campaign --all DIR`: every campaign, each as DIR/SLUG.json (the nightly
backup, deploy/backup)."""

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from campaign.models import Campaign
from campaign.transfer.exporting import campaign_export

REFUSED = 2


class Command(BaseCommand):
    help = "Write a campaign, with its whole snapshot history, as one JSON document."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("slug", nargs="?", help="the campaign's slug")
        parser.add_argument("--out", metavar="FILE", help="write it here, not to standard output")
        parser.add_argument(
            "--all", metavar="DIR", help="write every campaign into DIR, each as SLUG.json"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["all"]:
            if options["slug"] or options["out"]:
                raise CommandError("Give a slug or --all DIR, not both.", returncode=REFUSED)
            self.export_every_campaign(Path(options["all"]))
            return
        if not options["slug"]:
            raise CommandError("Give a campaign's slug, or --all DIR.", returncode=REFUSED)
        campaign = Campaign.objects.filter(slug=options["slug"]).first()
        if campaign is None:
            raise CommandError(
                f"There is no campaign with the slug {options['slug']!r}.", returncode=REFUSED
            )
        if not options["out"]:
            self.stdout.write(_document(campaign), ending="")
            return
        _write(Path(options["out"]), campaign)
        snapshots = campaign.snapshots.count()
        self.stderr.write(f"Wrote {campaign.slug} ({snapshots} snapshots) to {options['out']}.")

    def export_every_campaign(self, folder: Path) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(
                f"Can't write {folder}: {error.strerror}.", returncode=REFUSED
            ) from None
        campaigns = Campaign.objects.order_by("slug")
        for campaign in campaigns.iterator():
            _write(folder / f"{campaign.slug}.json", campaign)
        self.stderr.write(f"Wrote {campaigns.count()} campaigns to {folder}.")


def _document(campaign: Campaign) -> str:
    return json.dumps(campaign_export(campaign), ensure_ascii=False) + "\n"


def _write(path: Path, campaign: Campaign) -> None:
    try:
        path.write_text(_document(campaign), encoding="utf-8")
    except OSError as error:
        raise CommandError(f"Can't write {path}: {error.strerror}.", returncode=REFUSED) from None
