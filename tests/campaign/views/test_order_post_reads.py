"""A post reads the newest snapshot once: the service judges the decision against it and
returns it (`submissions.Saved`), and the board the answer draws is drawn from it."""

from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from campaign.models import Campaign
from campaign.services import common
from tests.campaign.helpers import (
    at_step,
    kingdom_of,
    new_campaign,
    play_until,
    seen_with,
    signed_in,
)

pytestmark = pytest.mark.django_db

HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def snapshot_reads(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if q["sql"].startswith("SELECT") and 'FROM "campaign_snapshot"' in q["sql"]
    ]


def test_an_order_post_reads_the_newest_snapshot_once(
    client: Client, cast: dict[str, User]
) -> None:
    campaign: Campaign = new_campaign(cast)
    play_until(campaign, cast, at_step("orders"))
    kingdom = kingdom_of(campaign, cast["alice"])
    newest = common.latest_snapshot(campaign)
    army = next(a for a in newest.data["armies"] if a["kingdom"] == kingdom)
    form = seen_with(campaign, {"unit": army["id"], "order": "defend", "seen": newest.number})
    signed_in(client, cast["alice"])
    with CaptureQueriesContext(connection) as queries:
        page = client.post(reverse("campaign:orders_give", args=[campaign.slug]), form, **HTMX)
    assert page.status_code == 200
    assert "1 of 1 unit ordered." in page.content.decode()
    assert len(snapshot_reads(queries)) == 1, snapshot_reads(queries)


def test_ready_reads_the_newest_snapshot_once_and_still_checks_every_unit(
    client: Client, cast: dict[str, User]
) -> None:
    """Ready's own checks (orders asked, every unit ordered) are made on the snapshot the
    service reads under the campaign's lock (`submissions.Readied`), and the board drawn
    after it is drawn from the same one while the campaign waits for another kingdom."""
    campaign: Campaign = new_campaign(cast)
    play_until(campaign, cast, at_step("orders"))
    signed_in(client, cast["alice"])
    ready_url = reverse("campaign:orders_ready", args=[campaign.slug])

    refused = client.post(ready_url, seen_with(campaign, {"ready": "yes"}), **HTMX)
    assert "Give every unit an order first: 0 of 1 units ordered." in refused.content.decode()
    assert common.ready_kingdoms(campaign) == set()

    kingdom = kingdom_of(campaign, cast["alice"])
    army = next(
        a for a in common.latest_snapshot(campaign).data["armies"] if a["kingdom"] == kingdom
    )
    give = reverse("campaign:orders_give", args=[campaign.slug])
    client.post(give, seen_with(campaign, {"unit": army["id"], "order": "defend"}), **HTMX)
    form = seen_with(campaign, {"ready": "yes"})
    with CaptureQueriesContext(connection) as queries:
        page = client.post(ready_url, form, **HTMX)
    assert page.status_code == 200
    assert common.ready_kingdoms(campaign) == {kingdom}
    assert "Waiting for" in page.content.decode()
    assert len(snapshot_reads(queries)) == 1, snapshot_reads(queries)
