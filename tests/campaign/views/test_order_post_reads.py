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
