"""The campaign page's history: the map at an earlier snapshot (`?at=N`), as a page and as
the htmx fragment the slider swaps in, for each kind of visitor."""

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest
from django.urls import reverse

from campaign.models import Campaign
from campaign.services import admin, advancing, common, submissions
from campaign.words import names_of
from tests.campaign.helpers import first_visit_queries, new_campaign, play_until, signed_in

pytestmark = pytest.mark.django_db


def page_url(campaign: Campaign, at: object = None) -> str:
    url = reverse("campaign:campaign", args=[campaign.slug])
    return url if at is None else f"{url}?at={at}"


def month_two(data: dict[str, Any]) -> bool:
    clock = data["clock"]
    return bool(clock["season"] == "summer" and clock["month"] == 2)


def hex_titles(page: str) -> dict[str, str]:
    """Each hex of the page's map with its title, "q,r" -> words."""
    svg = re.search(r"<svg[^>]*campaign-map.*?</svg>", page, re.S)
    assert svg is not None
    root = ET.fromstring(svg.group(0))
    return {
        g.get("data-hex", ""): g.findtext("{http://www.w3.org/2000/svg}title", "")
        for g in root.iter("{http://www.w3.org/2000/svg}g")
        if "hex" in (g.get("class") or "").split()
    }


def where(data: dict[str, Any], army: str) -> str:
    q, r = next(a["hex"] for a in data["armies"] if a["id"] == army)
    return f"{q},{r}"


def test_an_earlier_snapshot_shows_the_earlier_positions_and_says_when(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, month_two)
    snapshots = {s.number: s.data for s in campaign.snapshots.all()}
    newest = max(snapshots)
    then = next(n for n, d in snapshots.items() if d["clock"]["step"] == "orders")
    army = next(
        a["id"]
        for a in snapshots[newest]["armies"]
        if where(snapshots[then], a["id"]) != where(snapshots[newest], a["id"])
    )
    page = signed_in(client, cast["alice"]).get(page_url(campaign, then)).text
    assert f"You are looking at year 1, summer month 1 (step {then} of {newest}) — " in page
    assert "back to now" in page
    titles = hex_titles(page)
    name = names_of(snapshots[newest], campaign.gazetteer).unit(army, whose=True)
    assert name in titles[where(snapshots[then], army)]
    assert name not in titles[where(snapshots[newest], army)]
    now = hex_titles(client.get(page_url(campaign)).text)
    assert name in now[where(snapshots[newest], army)]


def test_the_slider_runs_from_the_first_snapshot_to_the_newest_with_earlier_and_later(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, month_two)
    newest = common.latest_snapshot(campaign).number
    page = signed_in(client, cast["alice"]).get(page_url(campaign, 2)).text
    assert f'type="range" id="history-at" name="at" min="1" max="{newest}" value="2"' in page
    assert f'href="{page_url(campaign, 1)}"' in page  # earlier
    assert f'href="{page_url(campaign, 3)}"' in page  # later
    assert "What happened in the setup" in page


def test_the_newest_snapshot_is_now_and_links_the_months_report(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, month_two)
    newest = common.latest_snapshot(campaign).number
    page = signed_in(client, cast["alice"]).get(page_url(campaign)).text
    assert "You are looking at" not in page
    assert "What happened in year 1, summer month 1" in page
    assert reverse("campaign:report", args=[campaign.slug, newest]) in page
    assert "You are looking at" not in client.get(page_url(campaign, newest)).text


def test_the_slider_gets_only_the_map_section_with_htmx(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, month_two)
    response = signed_in(client, cast["alice"]).get(
        page_url(campaign, 1), headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<section class="map-section" id="map-section"')
    assert "<html" not in response.text
    assert "Kingdoms" not in response.text
    assert "You are looking at the setup (step 1 of" in response.text
    assert 'class="campaign-map"' in response.text


@pytest.mark.parametrize("at", ["0", "999", "abc", "-1", "2.5", "9" * 5000, str(2**31), str(2**63)])
def test_an_unknown_snapshot_is_not_found(client, cast, at):
    campaign = new_campaign(cast)
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    assert signed_in(client, cast["alice"]).get(page_url(campaign, at)).status_code == 404


def test_the_admin_looks_back_too(client, cast):
    campaign = new_campaign(cast)
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    page = signed_in(client, cast["gm"]).get(page_url(campaign, 1))
    assert page.status_code == 200
    assert "You are looking at the setup (step 1 of 2)" in page.text


def test_nobody_else_looks_back(client, cast):
    campaign = new_campaign(cast)
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    signed_in(client, cast["eve"])
    assert client.get(page_url(campaign, 1)).status_code == 404
    assert client.get(page_url(campaign, 1), headers={"HX-Request": "true"}).status_code == 404
    client.logout()
    response = client.get(page_url(campaign, 1))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:sign_in"))


def test_s1_a_secret_race_never_shows_in_the_history(client, cast):
    campaign = new_campaign(cast)
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Nightstalkers"
    )
    submissions.submission_set_ready(campaign=campaign, user=cast["alice"])
    # bob has not chosen: the engine keeps alice's choice in the file's inputs and waits
    snapshot = advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1)
    assert snapshot is not None
    assert "Nightstalkers" in str(snapshot.data["inputs"])
    for user in ("bob", "gm"):
        signed_in(client, cast[user])
        for at in (1, 2):
            for headers in ({}, {"HX-Request": "true"}):
                page = client.get(page_url(campaign, at), headers=headers).text
                assert "Nightstalkers" not in page


def test_the_history_takes_the_same_queries_on_a_small_and_a_large_campaign(client, cast):
    small = new_campaign(cast, "Small")
    play_until(small, cast, month_two)
    big = new_campaign(cast, "Big", map_name="generated", size=1000)
    play_until(big, cast, lambda d: d["clock"]["month"] == 3 and d["clock"]["step"] == "orders")
    assert big.snapshots.count() > small.snapshots.count()
    signed_in(client, cast["alice"])
    for headers in ({}, {"HX-Request": "true"}):
        counts = []
        for campaign in (small, big):
            with first_visit_queries() as queries:
                response = client.get(page_url(campaign, 3), headers=headers)
            assert response.status_code == 200
            counts.append(len(queries.captured_queries))
        assert counts[0] == counts[1]


def test_htmx_restoring_the_browser_history_gets_the_whole_page(client, cast):
    campaign = new_campaign(cast)
    admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    headers = {"HX-Request": "true", "HX-History-Restore-Request": "true"}
    page = signed_in(client, cast["alice"]).get(page_url(campaign, 1), headers=headers)
    assert "<html" in page.text
    assert "Leaderboard" in page.text  # the rest of the page, not the map section alone
