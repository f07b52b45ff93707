"""Signing in, the home page and the campaign page, for each kind of visitor: a player of
the campaign, its admin, a player of another campaign, and a signed-out visitor."""

import html

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.models import Campaign
from campaign.services import admin, common, members, submissions
from campaign.services import setup as setup_services
from campaign.words import names_of
from tests.campaign.helpers import (
    PASSWORD,
    first_visit_queries,
    new_campaign,
    set_up_by_the_deadlines,
    signed_in,
)

pytestmark = pytest.mark.django_db


def test_signing_in_takes_a_player_home(client, cast):
    response = client.post(reverse("accounts:sign_in"), {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response.url == reverse("campaign:home")


def test_a_wrong_password_is_told_and_nobody_is_signed_in(client, cast):
    response = client.post(reverse("accounts:sign_in"), {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert "didn&#x27;t match" in response.text or "didn't match" in response.text
    assert "_auth_user_id" not in client.session


def test_signing_out(client, cast):
    signed_in(client, cast["alice"])
    response = client.post(reverse("accounts:sign_out"))
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


def test_a_signed_out_visitor_sees_the_game_and_a_sign_in_link(client):
    page = client.get(reverse("campaign:home")).text
    assert "Sign in" in page
    assert "My campaigns" not in page


def test_home_lists_my_campaigns_with_what_each_waits_for_from_me(client, cast):
    campaign = new_campaign(cast)
    page = signed_in(client, cast["alice"]).get(reverse("campaign:home")).text
    assert "Autumn League" in page
    assert "you rule Red Elves" in page
    assert "Waiting for you: choose your race, by" in page
    assert f'<time datetime="{campaign.deadline:%Y-%m-%dT%H:%M}' in page


def test_home_does_not_list_other_peoples_campaigns(client, cast):
    new_campaign(cast)
    page = signed_in(client, cast["eve"]).get(reverse("campaign:home")).text
    assert "Autumn League" not in page
    assert "You are not in any campaign yet." in page


def test_home_takes_the_same_queries_however_many_campaigns_and_snapshots(client, cast):
    new_campaign(cast, "First")
    signed_in(client, cast["alice"])
    with CaptureQueriesContext(connection) as few:
        client.get(reverse("campaign:home"))
    for n in range(3):
        more = new_campaign(cast, f"More {n}")
        set_up_by_the_deadlines(more, cast["gm"])
    with CaptureQueriesContext(connection) as many:
        page = client.get(reverse("campaign:home")).text
    assert page.count("you rule Red Elves") == 4
    assert len(many.captured_queries) == len(few.captured_queries)


def test_a_player_sees_the_campaign_page(client, cast):
    campaign = new_campaign(cast)
    response = signed_in(client, cast["alice"]).get(
        reverse("campaign:campaign", args=[campaign.slug])
    )
    assert response.status_code == 200
    assert "Waiting for Red Elves: choose your race" in response.text
    assert "Blue Dwarfs" in response.text


def test_a_player_of_another_campaign_gets_not_found(client, cast):
    campaign = new_campaign(cast)
    response = signed_in(client, cast["eve"]).get(
        reverse("campaign:campaign", args=[campaign.slug])
    )
    assert response.status_code == 404


def test_a_signed_out_visitor_is_sent_to_sign_in(client, cast):
    campaign = new_campaign(cast)
    response = client.get(reverse("campaign:campaign", args=[campaign.slug]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:sign_in"))


def test_only_the_admin_sees_the_join_code(client, cast):
    campaign = setup_services.campaign_create(
        name="Open", admin=cast["gm"], kingdoms=2, map_name="borderlands"
    )
    members.campaign_join(campaign=campaign, user=cast["alice"], kingdom_name="Red")
    admin_page = (
        signed_in(client, cast["gm"]).get(reverse("campaign:campaign", args=[campaign.slug])).text
    )
    assert campaign.join_code in admin_page
    assert "1 of 2 kingdoms have joined" in admin_page
    player_page = (
        signed_in(client, cast["alice"])
        .get(reverse("campaign:campaign", args=[campaign.slug]))
        .text
    )
    assert campaign.join_code not in player_page


def test_s1_a_secret_race_never_reaches_another_players_page(client, cast):
    campaign = new_campaign(cast)
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Nightstalkers"
    )
    for user in ("bob", "gm"):
        for url in (reverse("campaign:home"), reverse("campaign:campaign", args=[campaign.slug])):
            assert "Nightstalkers" not in signed_in(client, cast[user]).get(url).text


def test_the_campaign_page_draws_the_map_for_its_players(client, cast):
    campaign = new_campaign(cast)
    page = (
        signed_in(client, cast["alice"])
        .get(reverse("campaign:campaign", args=[campaign.slug]))
        .text
    )
    assert page.count('class="hex ') + page.count("class='hex ") >= len(campaign.map["tiles"])
    assert 'data-hex="0,0"' in page
    assert "Legend" in page


def test_the_campaign_page_takes_the_same_queries_on_a_small_and_a_large_campaign(client, cast):
    small = new_campaign(cast, "Small")
    big = setup_services.campaign_create(name="Big", admin=cast["gm"], kingdoms=2, size=1000)
    members.campaign_join(campaign=big, user=cast["alice"], kingdom_name="Red")
    members.campaign_join(campaign=big, user=cast["bob"], kingdom_name="Blue")
    setup_services.campaign_start(campaign=big, actor=cast["gm"])
    for campaign in (small, big):  # both at the same point of their calendar
        for _ in range(3):
            admin.campaign_advance_now(campaign=campaign, actor=cast["gm"])
    signed_in(client, cast["alice"])
    counts = []
    for campaign in (small, big):
        with first_visit_queries() as queries:
            assert client.get(reverse("campaign:campaign", args=[campaign.slug])).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def test_the_campaign_page_reads_the_campaign_and_the_viewers_membership_once(client, cast):
    """Its ETag's read gives both (`views.freshness`); the view takes them from it
    (`access.PageRead`) instead of reading them again."""
    campaign = new_campaign(cast)
    signed_in(client, cast["alice"])
    with CaptureQueriesContext(connection) as queries:
        page = client.get(reverse("campaign:campaign", args=[campaign.slug]))
    assert page.status_code == 200
    assert ">My kingdom: Red Elves<" in html.unescape(
        page.text
    )  # the membership, as the tag read it
    read = [q["sql"] for q in queries.captured_queries]
    assert len([sql for sql in read if 'FROM "campaign_campaign"' in sql]) == 1
    assert not [sql for sql in read if 'FROM "campaign_membership" WHERE' in sql]


def kingdom_url(campaign: Campaign) -> str:
    return reverse("campaign:kingdom", args=[campaign.slug])


def test_a_player_sees_their_own_kingdom(client, cast):
    campaign = new_campaign(cast)
    set_up_by_the_deadlines(campaign, cast["gm"])
    page = html.unescape(signed_in(client, cast["alice"]).get(kingdom_url(campaign)).text)
    assert "Red Elves" in page
    assert "<td>Red Elves' 1st army</td>" in page
    assert "Blue Dwarfs' 1st army" not in page  # not the other kingdom's armies
    assert "Waiting for you: give your orders" in page
    data = common.latest_snapshot(campaign).data
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == "red-elves")
    names = names_of(data, campaign.gazetteer)
    assert f"{names.place(capital)}: the capital, in {names.region(capital)}" in page


def test_orders_marked_ready_no_longer_wait_for_their_player_but_the_others_still_do(client, cast):
    campaign = new_campaign(cast)
    set_up_by_the_deadlines(campaign, cast["gm"])
    data = common.latest_snapshot(campaign).data
    army = next(
        a for a in data["armies"] if a["kingdom"] == common.kingdom_of(campaign, cast["alice"])
    )
    submissions.submission_save(
        campaign=campaign,
        user=cast["alice"],
        kind="orders",
        payload=[{"unit": army["id"], "order": "defend"}],
    )
    pages = [
        reverse("campaign:home"),
        reverse("campaign:campaign", args=[campaign.slug]),
        kingdom_url(campaign),
    ]
    signed_in(client, cast["alice"])
    for url in pages:  # given but not ready: still hers to finish
        assert "give your orders" in client.get(url).text
    submissions.submission_set_ready(campaign=campaign, user=cast["alice"])
    for url in pages:
        page = client.get(url).text
        assert "give your orders" not in page
        assert "Nothing is waiting for" in page
    signed_in(client, cast["bob"])
    for url in pages:
        assert "give your orders" in client.get(url).text


def test_nobody_else_sees_a_kingdom_page(client, cast):
    campaign = new_campaign(cast)
    assert signed_in(client, cast["eve"]).get(kingdom_url(campaign)).status_code == 404
    assert (
        signed_in(client, cast["gm"]).get(kingdom_url(campaign)).status_code == 404
    )  # admin rules none
    client.logout()
    assert client.get(kingdom_url(campaign)).status_code == 302


def test_the_kingdom_page_takes_the_same_queries_on_a_small_and_a_large_campaign(client, cast):
    small = new_campaign(cast, "Small")
    big = setup_services.campaign_create(name="Big", admin=cast["gm"], kingdoms=2, size=1000)
    members.campaign_join(campaign=big, user=cast["alice"], kingdom_name="Red")
    members.campaign_join(campaign=big, user=cast["bob"], kingdom_name="Blue")
    setup_services.campaign_start(campaign=big, actor=cast["gm"])
    set_up_by_the_deadlines(big, cast["gm"])
    signed_in(client, cast["alice"])
    counts = []
    for campaign in (small, big):
        with first_visit_queries() as queries:
            assert client.get(kingdom_url(campaign)).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def test_what_waits_for_a_player_links_to_the_page_where_it_is_given(client, cast):
    campaign = new_campaign(cast)
    signed_in(client, cast["alice"])
    setup = reverse("campaign:setup", args=[campaign.slug])
    for page in (
        client.get(reverse("campaign:home")).text,
        client.get(reverse("campaign:campaign", args=[campaign.slug])).text,
        client.get(reverse("campaign:kingdom", args=[campaign.slug])).text,
    ):
        assert f'<a class="button" href="{setup}">Choose your race</a>' in page


def test_only_the_admin_is_shown_the_dashboard_link(client, cast):
    campaign = new_campaign(cast)
    dashboard = reverse("campaign:dashboard", args=[campaign.slug])
    page = signed_in(client, cast["gm"]).get(reverse("campaign:campaign", args=[campaign.slug]))
    assert dashboard in page.text
    page = signed_in(client, cast["alice"]).get(reverse("campaign:campaign", args=[campaign.slug]))
    assert dashboard not in page.text
