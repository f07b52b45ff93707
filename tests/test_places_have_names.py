"""Issue 35, places have names: a campaign played through the services by bots, far enough
to have battles (one of them reported, disputed and decided), explorations and a winter's
purchases, says every place and every army by its name in all that its players read: each
month's report, the chronicle, the winter ledger, the kingdom page, the battle cards, and
every e-mail and Discord post of the outbox; and the winter's forecast. No hex is written as `[q, r]` and no unit by
its id (`red-elves-1`), except in the form controls where a player picks a tile."""

import random
import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from battles.models import Battle
from battles.services import results
from campaign.display import winter
from campaign.management.commands.seed_demo import play_bot_step
from campaign.models import Campaign
from campaign.services import common
from campaign.words import names_of
from notifications.discord import webhook_set
from notifications.models import Notification
from tests.campaign.helpers import new_campaign, signed_in

pytestmark = pytest.mark.django_db

HEX = re.compile(r"\[-?\d+, -?\d+\]")
UNIT_ID = re.compile(r"\b(?:red-elves|blue-dwarfs)-s?\d+\b", re.IGNORECASE)


class Visible(HTMLParser):
    """The text of a page a player reads: not its form controls (where a tile is picked),
    its map (whose titles give coordinates beside each place's name), its scripts, nor any
    attribute."""

    SKIPPED = frozenset({"form", "select", "svg", "script", "style", "textarea"})

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIPPED:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIPPED and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.text.append(data)


def visible(page: str) -> str:
    parser = Visible()
    parser.feed(page)
    return " ".join(parser.text)


def said_by_name(text: str, where: str) -> None:
    """Neither a hex's coordinates nor a unit's id in `text`."""
    assert not HEX.search(text), (where, HEX.search(text), text[:2000])
    assert not UNIT_ID.search(text), (where, UNIT_ID.search(text), text[:2000])


def played(people: dict[str, Any]) -> Campaign:
    """alice (Red Elves) and bob (Blue Dwarfs), with the Discord webhook set, played by bots
    until a battle has been fought and a winter is over, their armies steered to meet; the
    first tabletop battle is reported by one side and disputed by the other before the
    admin settles it."""
    campaign = new_campaign(people)
    webhook_set(campaign=campaign, actor=people["gm"], url="https://discord.example/api/1")
    players = {"red-elves": people["alice"], "blue-dwarfs": people["bob"]}
    rng = random.Random(3)
    disputed = False
    for _ in range(150):
        data = common.latest_snapshot(campaign).data
        fought = [b for b in data.get("battles", []) if b["status"] == "resolved"]
        if disputed and fought and data["clock"]["year"] >= 2 and data["clock"]["month"] > 1:
            break
        battle = Battle.objects.filter(campaign=campaign, status=Battle.Status.AWAITING).first()
        if battle is not None and not disputed:
            reporter, opponent = (players[k] for k in (battle.attacker, battle.defender))
            report = results.battle_report(
                battle=battle, user=reporter, result="win", winner=battle.attacker
            )
            results.battle_dispute(report=report, user=opponent, reason="It was a draw")
            disputed = True
        play_bot_step(campaign, players=players, admin=people["gm"], rng=rng, march=True)
    campaign.refresh_from_db()
    return campaign


def test_every_page_and_message_says_places_and_armies_by_their_names(people, settings):
    settings.NOTIFICATIONS_ANY_WEBHOOK = True
    campaign = played(people)
    snapshots = list(campaign.snapshots.order_by("number"))
    data = snapshots[-1].data
    happened = {e["type"] for e in data["events"]}
    assert {"explored", "battle", "built", "moved"} <= happened, happened
    assert any(b["kind"] == "pitched" for b in data["battles"])

    client = signed_in(Client(), people["alice"])
    for snapshot in snapshots[1:]:
        page = client.get(reverse("campaign:report", args=[campaign.slug, snapshot.number]))
        assert page.status_code == 200
        said_by_name(visible(page.text), f"the report of snapshot {snapshot.number}")
    chronicle = client.get(reverse("campaign:chronicle", args=[campaign.slug])).text
    said_by_name(visible(chronicle), "the chronicle")
    said_by_name(visible(client.get(reverse("campaign:kingdom", args=[campaign.slug])).text), "")
    for battle in Battle.objects.filter(campaign=campaign):
        card = client.get(reverse("battles:card", args=[campaign.slug, battle.number])).text
        said_by_name(visible(card), f"battle {battle.number}'s card")

    ledgers = 0
    for snapshot in snapshots:
        if snapshot.data["clock"]["season"] == "winter":
            names = names_of(snapshot.data, campaign.gazetteer)
            for kingdom in ("red-elves", "blue-dwarfs"):
                lines = winter.ledger(snapshot.data, kingdom, names)
                ledgers += len(lines)
                step = snapshot.data["clock"]["step"]
                if step in ("build", "deploy"):  # and what the defaults would do: the forecast
                    kind = "purchases" if step == "build" else "deploy"
                    lines += winter.forecast(snapshot.data, kingdom, kind, [], names).lines
                said_by_name(" ".join(lines), f"the ledger of snapshot {snapshot.number}")

    assert ledgers
    messages = Notification.objects.filter(campaign=campaign)
    kinds = set(messages.values_list("kind", flat=True))
    assert {"step", "month", "battle", "report", "dispute"} <= kinds, kinds
    assert messages.filter(channel="discord").exists()
    for message in messages:  # a Discord post's brackets come escaped: "\[2, 1\]"
        text = f"{message.subject}\n{message.body}".replace("\\", "")
        said_by_name(text, f"a {message.kind} {message.channel}")
