"""`manage.py seed_load`: the campaigns of the load test (`make loadtest`).

`--campaigns` campaigns (200) of `--kingdoms` players (8) each, every one at Year 1,
summer month 1, waiting for every kingdom's orders. Sealed orders, simple battles (no
tabletop game to wait for) and twelve summer months, so that the months go on advancing
while the load test's players give orders and mark them ready, and no winter comes in a
run of a few minutes. The map is the one the new-campaign page generates for that many
kingdoms (45 hexes a kingdom, 360 for 8): a realistic size, not a toy one.

One campaign is played through its setup by bots, through the services, as seed_demo's
are; the others are imports of its export (campaign/transfer.py) under their own slugs
and players, so seeding 200 takes seconds, not the setup of 200 campaigns. Players are
`load-CCC-K` (campaign CCC, kingdom K from 1), all with the password given (one hash,
computed once); `load-admin` runs every campaign. The players, their campaigns and
kingdoms are written to `--out` as JSON lines for the load test to sign in with.

It refuses to run over a database that already holds load campaigns, and with DEBUG off
unless `--password` is given (the accounts then have a password the operator chose)."""

import json
import random
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.models import User
from campaign.management.commands.seed_demo import play_bot_step, stale_advances_run_here
from campaign.models import Campaign
from campaign.services import common, setup
from campaign.services import members as members_services
from campaign.transfer.exporting import campaign_export
from campaign.transfer.importing import campaign_import

type Json = dict[str, Any]

PREFIX = "load"
ADMIN = "load-admin"
OPTIONS: Json = {"orders": "sealed", "battles": "simple", "months": 12, "years": 6, "seed": 13}
COLOURS = ("#2e7d32", "#1565c0", "#c62828", "#6a1b9a", "#ef6c00", "#00838f", "#5d4037", "#ad1457")
SETUP_STEPS = 50  # snapshots; the setup takes about ten


SIGN_IN_BACKEND = "accounts.backends.UsernameOrEmailBackend"  # the one that signs players in


def player_name(campaign: int, kingdom: int) -> str:
    return f"{PREFIX}-{campaign:03d}-{kingdom}"


def campaign_slug(campaign: int) -> str:
    return f"{PREFIX}-{campaign:03d}"


class Command(BaseCommand):
    help = "Create the load test's campaigns, every one waiting for its first summer orders."

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--campaigns", type=int, default=200)
        parser.add_argument("--kingdoms", type=int, default=8)
        parser.add_argument("--password", required=True, help="every player's password")
        parser.add_argument("--out", type=Path, required=True, help="the players, as JSON lines")

    def handle(self, *args: Any, **options: Any) -> None:
        count, kingdoms = options["campaigns"], options["kingdoms"]
        if count < 1 or not setup.MIN_KINGDOMS <= kingdoms <= setup.MAX_KINGDOMS:
            raise CommandError(
                f"At least one campaign, of {setup.MIN_KINGDOMS} to {setup.MAX_KINGDOMS} kingdoms."
            )
        if Campaign.objects.filter(slug__startswith=f"{PREFIX}-").exists():
            raise CommandError("This database holds load campaigns already: use a fresh one.")
        password = make_password(options["password"])
        admin = User.objects.create(username=ADMIN, password=password)
        User.objects.bulk_create(
            User(username=name, email=f"{name}@example.org", password=password)
            for c in range(1, count + 1)
            for name in (player_name(c, k) for k in range(1, kingdoms + 1))
        )
        with stale_advances_run_here():
            template = first_campaign(admin, kingdoms)
        export = campaign_export(template)
        rows = players_of(template)
        for c in range(2, count + 1):
            rows += players_of(campaign_import(renamed(export, c), slug=campaign_slug(c)))
        with options["out"].open("w") as out:
            out.writelines(json.dumps(row) + "\n" for row in rows)
        data = common.latest_snapshot(template).data
        self.stdout.write(
            f"seed_load: {count} campaigns of {kingdoms} players on a generated map of "
            f"{len(data['map']['tiles'])} hexes, each at year {data['clock']['year']} "
            f"{data['clock']['season']} month {data['clock']['month']}, waiting for orders."
        )


@transaction.atomic
def first_campaign(admin: User, kingdoms: int) -> Campaign:
    """Campaign 1: created, joined, started, and its setup played by bots."""
    campaign = setup.campaign_create(
        name="Load 001", admin=admin, kingdoms=kingdoms, options=OPTIONS
    )
    for k in range(1, kingdoms + 1):
        members_services.campaign_join(
            campaign=campaign,
            user=User.objects.get(username=player_name(1, k)),
            kingdom_name=f"Kingdom {k}",
            colour=COLOURS[(k - 1) % len(COLOURS)],
        )
    setup.campaign_start(campaign=campaign, actor=admin)
    players = {m.kingdom: m.user for m in campaign.memberships.exclude(kingdom="")}
    rng = random.Random(OPTIONS["seed"])
    for _ in range(SETUP_STEPS):
        clock = common.latest_snapshot(campaign).data["clock"]
        if (clock["season"], clock["month"], clock["step"]) == ("summer", 1, "orders"):
            campaign.refresh_from_db()
            return campaign
        play_bot_step(campaign, players=players, admin=admin, rng=rng)
    raise CommandError(f"The setup did not end in {SETUP_STEPS} snapshots.")


def renamed(export: Json, number: int) -> Json:
    """The export of campaign 1 as campaign `number`: its own name and players."""
    first, mine = f"{campaign_slug(1)}-", f"{campaign_slug(number)}-"
    members = [{**m, "username": m["username"].replace(first, mine, 1)} for m in export["members"]]
    return {
        **export,
        "campaign": {
            **export["campaign"],
            "name": f"Load {number:03d}",
            "slug": campaign_slug(number),
        },
        "members": members,
    }


def players_of(campaign: Campaign) -> list[Json]:
    """Who plays which kingdom of the campaign, for the load test to play as, each with a
    session of their own: players stay signed in from one month to the next."""
    return [
        {
            "username": m.user.username,
            "campaign": campaign.slug,
            "kingdom": m.kingdom,
            "session": signed_in_session(m.user),
        }
        for m in campaign.memberships.exclude(kingdom="").select_related("user")
    ]


def signed_in_session(user: User) -> str:
    """The key of a new session signed in as `user`, as Django's `login` leaves it."""
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = SIGN_IN_BACKEND
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)
