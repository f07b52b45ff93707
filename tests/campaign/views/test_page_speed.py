"""The map pages answer fast: each snapshot's map is drawn once and kept in the cache (and
drawn without it when the cache is away), and a page that has not changed for its viewer is
answered 304 Not Modified, as the browser revalidates it on every htmx poll. A change that
the page shows (a new snapshot, an order given, a kingdom ready, a deadline extended, a
kingdom's colour) gets the new page; another viewer never gets the first one's."""

import re
import socket
import time
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from accounts.models import User
from campaign.display import mapcache
from campaign.display.mapsvg.render import draw_ground
from campaign.display.mapsvg.scene import KingdomLook
from campaign.models import Campaign, Membership
from campaign.rules.fileformat import parse_campaign
from campaign.rules.orders import order_choices
from campaign.services import admin, common, letters, submissions
from campaign.words import names_of
from tests.campaign.helpers import (
    at_step,
    kingdom_of,
    new_campaign,
    play_until,
    seen_with,
    signed_in,
)
from tests.conftest import campaign_made_once, played_to

pytestmark = pytest.mark.django_db

HTMX: dict[str, Any] = {"HTTP_HX_REQUEST": "true"}


def session_reads() -> int:
    """The queries a signed-in request makes for its session: none where sessions are read
    from Redis (accounts.sessions, with REDIS_URL, as deployed and in CI), one where they
    are read from the database (make test on a machine with no Redis)."""
    return 0 if settings.SESSION_ENGINE == "accounts.sessions" else 1


@pytest.fixture(autouse=True)
def fresh_cache(settings: Any) -> None:
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()


# The cast and the campaign at its first orders (year 1, summer month 1: alice and bob
# each have one army to order), made once for the module.
made, cast, campaign = campaign_made_once(played_to("orders"))


def url(campaign: Campaign, name: str = "orders") -> str:
    return reverse(f"campaign:{name}", args=[campaign.slug])


def army_of(campaign: Campaign, user: User) -> dict[str, Any]:
    kingdom = kingdom_of(campaign, user)
    data = common.latest_snapshot(campaign).data
    return next(a for a in data["armies"] if a["kingdom"] == kingdom)


def defend(client: Client, campaign: Campaign, user: User) -> None:
    form = {
        "unit": army_of(campaign, user)["id"],
        "order": "defend",
        "seen": common.latest_snapshot(campaign).number,
    }
    assert (
        client.post(url(campaign, "orders_give"), seen_with(campaign, form), **HTMX).status_code
        == 200
    )


def again(client: Client, address: str, first: Any, **headers: Any) -> Any:
    """The browser's revalidation of a page it holds: the same request with If-None-Match."""
    return client.get(address, HTTP_IF_NONE_MATCH=first["ETag"], **headers)


def unmasked(page: str) -> str:
    """The page without its CSRF tokens and its scripts' nonces, which are new on every
    drawing."""
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)
    page = re.sub(r'"X-CSRFToken": "[^"]*"', "", page)
    return re.sub(r'nonce="[^"]*"', "", page)


def counted_drawings(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    drawn: list[int] = []
    draw = draw_ground

    def counting(*args: Any, **kwargs: Any) -> str:
        drawn.append(1)
        return draw(*args, **kwargs)

    monkeypatch.setattr("campaign.display.mapcache.draw_ground", counting)
    return drawn


# --- 304 Not Modified -------------------------------------------------------------------


@pytest.mark.parametrize("page", ["campaign", "orders"])
def test_an_unchanged_page_asked_again_is_not_sent_again(client, cast, campaign, page):
    signed_in(client, cast["alice"])
    first = client.get(url(campaign, page))
    assert first.status_code == 200
    assert "private" in first["Cache-Control"]
    assert "no-cache" in first["Cache-Control"]
    second = again(client, url(campaign, page), first)
    assert second.status_code == 304
    assert second.content == b""


def test_a_poll_answered_304_sends_no_cookie_again(client, cast, campaign):
    """The page drawn gives the CSRF cookie (and renews it); a poll answered 304 sends
    nothing for the browser to store again."""
    signed_in(client, cast["alice"])
    first = client.get(url(campaign), **HTMX)
    assert "csrftoken" in first.cookies
    second = again(client, url(campaign), first, **HTMX)
    assert second.status_code == 304
    assert not second.cookies
    assert "Set-Cookie" not in second


def test_the_orders_poll_is_not_sent_again_until_another_kingdom_is_ready(client, cast, campaign):
    alice, bob = Client(), Client()
    signed_in(alice, cast["alice"])
    signed_in(bob, cast["bob"])
    defend(alice, campaign, cast["alice"])
    alice.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    poll = alice.get(url(campaign), **HTMX)
    assert 'hx-trigger="every 10s, shown from:document"' in poll.text
    assert again(alice, url(campaign), poll, **HTMX).status_code == 304

    # bob's draft is sealed (ruling S1): alice's page does not change, and is not sent again
    defend(bob, campaign, cast["bob"])
    assert unmasked(alice.get(url(campaign), **HTMX).text) == unmasked(poll.text)
    assert again(alice, url(campaign), poll, **HTMX).status_code == 304
    bob.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    after_ready = again(alice, url(campaign), poll, **HTMX)
    assert after_ready.status_code == 200
    assert after_ready["ETag"] != poll["ETag"]


def test_a_player_asked_for_orders_is_not_sent_the_page_again_when_another_is_ready(
    client, cast, campaign
):
    alice, bob = Client(), Client()
    signed_in(alice, cast["alice"])
    signed_in(bob, cast["bob"])
    poll = alice.get(url(campaign), **HTMX)
    assert "0 of 1 unit ordered" in poll.text

    # While alice is asked, her page names no one it waits for: bob's readiness (and his
    # taking it back) change nothing on it, whether or not she has ordered yet
    defend(bob, campaign, cast["bob"])
    bob.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    assert "Waiting for Red Elves" in bob.get(url(campaign), **HTMX).text
    assert unmasked(alice.get(url(campaign), **HTMX).text) == unmasked(poll.text)
    assert again(alice, url(campaign), poll, **HTMX).status_code == 304
    defend(alice, campaign, cast["alice"])
    drafting = alice.get(url(campaign), **HTMX)
    assert "Only you see these orders" in drafting.text
    bob.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "no"}), **HTMX)
    assert unmasked(alice.get(url(campaign), **HTMX).text) == unmasked(drafting.text)
    assert again(alice, url(campaign), drafting, **HTMX).status_code == 304


@pytest.mark.parametrize("page", ["campaign", "setup"])
def test_another_kingdoms_readiness_changes_no_tag_of_a_page_that_does_not_show_it(
    client, cast, campaign, page
):
    """Issue 26, point 3: the campaign page and the setup page (past the setup) show nothing
    of who else is ready, so bob's Ready (and his taking it back) leave alice's tag, and a
    public campaign's visitor's, as they were."""
    Campaign.objects.filter(pk=campaign.pk).update(public=True)
    alice, bob, visitor = Client(), Client(), Client()
    signed_in(alice, cast["alice"])
    signed_in(bob, cast["bob"])
    viewers = [alice, visitor] if page == "campaign" else [alice]
    first = [viewer.get(url(campaign, page)) for viewer in viewers]
    assert [response.status_code for response in first] == [200] * len(viewers)
    defend(bob, campaign, cast["bob"])
    for ready in ("yes", "no", "yes"):
        bob.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": ready}), **HTMX)
        for viewer, shown in zip(viewers, first, strict=True):
            assert unmasked(viewer.get(url(campaign, page)).text) == unmasked(shown.text)
            assert again(viewer, url(campaign, page), shown).status_code == 304


def test_the_setup_page_is_sent_again_when_another_kingdom_has_chosen(client, cast):
    """At the races every kingdom is listed as chosen or not (ruling S1): that the page
    shows, so the tag follows it."""
    campaign = new_campaign(cast)
    alice, bob = Client(), Client()
    signed_in(alice, cast["alice"])
    signed_in(bob, cast["bob"])
    first = alice.get(url(campaign, "setup"))
    submissions.submission_save(campaign=campaign, user=cast["bob"], kind="races", payload="Dwarfs")
    submissions.submission_set_ready(campaign=campaign, user=cast["bob"])
    changed = again(alice, url(campaign, "setup"), first)
    assert changed.status_code == 200
    assert " has chosen." in changed.text


def test_a_players_own_order_gets_their_new_page(client, cast, campaign):
    signed_in(client, cast["alice"])
    before = client.get(url(campaign), **HTMX)
    defend(client, campaign, cast["alice"])
    after = again(client, url(campaign), before, **HTMX)
    assert after.status_code == 200
    assert "Defend" in after.text


def test_the_fragment_and_the_whole_page_are_told_apart(client, cast, campaign):
    signed_in(client, cast["alice"])
    whole = client.get(url(campaign))
    fragment = client.get(url(campaign), HTTP_IF_NONE_MATCH=whole["ETag"], **HTMX)
    assert fragment.status_code == 200
    assert "<html" not in fragment.text
    assert "HX-Request" in fragment["Vary"]


def test_a_new_snapshot_gets_the_new_page(client, cast, campaign):
    signed_in(client, cast["alice"])
    first = client.get(url(campaign, "campaign"))
    play_until(campaign, cast, lambda data: data["clock"]["step"] != "orders")
    second = again(client, url(campaign, "campaign"), first)
    assert second.status_code == 200
    assert second["ETag"] != first["ETag"]


def test_an_extended_deadline_gets_the_new_page(client, cast, campaign):
    signed_in(client, cast["alice"])
    first = client.get(url(campaign))
    admin.campaign_extend(campaign=campaign, actor=cast["gm"], hours=24)
    second = again(client, url(campaign), first)
    assert second.status_code == 200
    campaign.refresh_from_db()
    assert campaign.deadline is not None
    assert f'datetime="{campaign.deadline.replace(microsecond=0).isoformat()}"' in second.text


def test_a_recoloured_kingdom_gets_the_new_map(client, cast, campaign):
    signed_in(client, cast["alice"])
    first = client.get(url(campaign, "campaign"))
    Membership.objects.filter(user=cast["bob"]).update(colour="#123456")
    second = again(client, url(campaign, "campaign"), first)
    assert second.status_code == 200
    assert "#123456" in second.text
    assert "#123456" not in first.text


def test_a_waiting_message_is_shown_not_answered_304(client, cast, campaign):
    signed_in(client, cast["alice"])
    first = client.get(url(campaign))
    refused = {"unit": "no-such-unit", "order": "defend", "seen": 1}
    assert client.post(url(campaign, "orders_give"), refused).status_code == 302
    shown = again(client, url(campaign), first)
    assert shown.status_code == 200
    assert 'class="messages"' in shown.text


def test_another_viewer_never_gets_the_first_viewers_page(client, cast, campaign):
    alice, bob = Client(), Client()
    signed_in(alice, cast["alice"])
    signed_in(bob, cast["bob"])
    hers = alice.get(url(campaign, "campaign"))
    his = again(bob, url(campaign, "campaign"), hers)
    assert his.status_code == 200
    assert his["ETag"] != hers["ETag"]


def test_the_report_and_setup_pages_are_revalidated_too(client, cast):
    campaign = new_campaign(cast)
    signed_in(client, cast["alice"])
    setup = client.get(url(campaign, "setup"), **HTMX)
    assert again(client, url(campaign, "setup"), setup, **HTMX).status_code == 304
    play_until(campaign, cast, at_step("orders"))
    assert again(client, url(campaign, "setup"), setup, **HTMX).status_code == 200
    address = reverse("campaign:report", args=[campaign.slug, 2])
    report = client.get(address)
    assert report.status_code == 200
    assert again(client, address, report).status_code == 304


def test_a_stranger_gets_no_tag_and_no_page(client, cast, campaign):
    signed_in(client, cast["eve"])
    response = client.get(url(campaign), HTTP_IF_NONE_MATCH="*")
    assert response.status_code == 404
    assert not response.has_header("ETag")


# --- the database asked little ----------------------------------------------------------
# The load test's players poll these every 10 s (loadtest/locustfile.py): most are
# answered 304 from the tag's one query, besides the session's and the user's (issue 37).


def test_an_orders_poll_answered_304_makes_three_queries_at_most(
    client, cast, campaign, django_assert_max_num_queries
):
    signed_in(client, cast["alice"])
    poll = client.get(url(campaign), **HTMX)
    with django_assert_max_num_queries(3):  # the session, the user, the tag
        assert again(client, url(campaign), poll, **HTMX).status_code == 304
    with django_assert_max_num_queries(7):  # and the campaign, its members, snapshot, drafts
        assert client.get(url(campaign), **HTMX).status_code == 200


def test_the_status_poll_makes_three_queries_at_most_or_seven_drawn(
    client, cast, campaign, django_assert_max_num_queries
):
    alice, bob = Client(), Client()
    signed_in(alice, cast["alice"])
    signed_in(bob, cast["bob"])
    defend(alice, campaign, cast["alice"])
    ready = alice.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    status = re.search(r'hx-get="([^"]+/orders/status/[^"]*)"', ready.text)
    assert status is not None
    address = status[1].replace("&amp;", "&")
    first = alice.get(address, **HTMX)
    with django_assert_max_num_queries(3):
        assert again(alice, address, first, **HTMX).status_code == 304
    defend(bob, campaign, cast["bob"])
    bob.post(url(campaign, "orders_ready"), seen_with(campaign, {"ready": "yes"}), **HTMX)
    with django_assert_max_num_queries(7):
        assert again(alice, address, first, **HTMX).status_code == 200


def heralded(client: Client, user: Any, campaign: Any) -> str:
    """The user, signed in, writes through the herald; the address of the letters page the
    post lands on (the page that polls)."""
    signed_in(client, user)
    sent = client.post(
        url(campaign, "letter_write"), {"to": "@herald", "text": "Hear ye!"}, follow=True
    )
    address: str = sent.redirect_chain[-1][0]
    return address


def test_a_letters_poll_answered_304_makes_three_queries_at_most(
    client, cast, campaign, django_assert_max_num_queries
):
    address = heralded(client, cast["alice"], campaign)
    poll = client.get(address, **HTMX)
    with django_assert_max_num_queries(3):
        assert again(client, address, poll, **HTMX).status_code == 304


def test_a_letters_poll_drawn_makes_eight_queries_at_most(
    client, cast, campaign, django_assert_max_num_queries
):
    address = heralded(client, cast["alice"], campaign)
    # The user, the tag, the campaign, the membership, the correspondence, how far its
    # kingdoms have read it, the letters (nothing new to read: nothing written; the letters
    # alice may still change known without a query each), the names (issue 37); and the
    # session where it is not read from Redis.
    with django_assert_max_num_queries(8 + session_reads()):
        assert client.get(address, **HTMX).status_code == 200
    letters.letter_write(campaign=campaign, user=cast["bob"], herald=True, text="And hear me!")
    # Bob's letter read: and the savepoint, the letters locked, the mark read and changed,
    # its savepoint released, the tag taken again and the letters after it.
    with django_assert_max_num_queries(15 + session_reads()):
        assert "And hear me!" in client.get(address, **HTMX).text


def test_the_letters_page_makes_six_queries_at_most(
    client, cast, campaign, django_assert_max_num_queries
):
    heralded(client, cast["alice"], campaign)
    # The user, the tag, the campaign, the membership, the names, the correspondences; and
    # the session where it is not read from Redis.
    with django_assert_max_num_queries(6 + session_reads()):
        assert client.get(url(campaign, "letters")).status_code == 200


# --- the map drawn once ---------------------------------------------------------------


def test_the_map_is_drawn_once_per_snapshot_for_all_its_viewers(
    client, cast, campaign, monkeypatch
):
    drawn = counted_drawings(monkeypatch)
    for name in ("alice", "bob", "gm", "alice"):
        assert signed_in(Client(), cast[name]).get(url(campaign, "campaign")).status_code == 200
    assert len(drawn) == 1
    play_until(campaign, cast, lambda data: data["clock"]["step"] != "orders")
    signed_in(client, cast["alice"]).get(url(campaign, "campaign"))
    assert len(drawn) == 2


def test_a_players_taps_and_orders_do_not_draw_the_map_again(client, cast, campaign, monkeypatch):
    """What one player sees over the map (the hexes to tap, their planned arrows) is drawn
    over the snapshot's kept ground: tapping a unit and moving it draw no second ground."""
    drawn = counted_drawings(monkeypatch)
    signed_in(client, cast["alice"])
    army = army_of(campaign, cast["alice"])
    assert client.get(url(campaign), **HTMX).status_code == 200
    tapped = client.get(f"{url(campaign)}?unit={army['id']}", **HTMX)
    assert 'class="pick pick-target"' in tapped.text
    data = common.latest_snapshot(campaign).data
    to = order_choices(parse_campaign(data), army["id"]).moves[0]
    seen = common.latest_snapshot(campaign).number
    form = {"unit": army["id"], "order": "move", "to": f"{to[0]},{to[1]}", "seen": seen}
    moved = client.post(url(campaign, "orders_give"), seen_with(campaign, form), **HTMX)
    assert 'class="move planned"' in moved.text
    assert len(drawn) == 1


def test_each_player_sees_only_their_own_planned_moves(client, cast, campaign):
    alice, bob = Client(), Client()
    signed_in(alice, cast["alice"])
    signed_in(bob, cast["bob"])
    army = army_of(campaign, cast["alice"])
    data = common.latest_snapshot(campaign).data
    to = order_choices(parse_campaign(data), army["id"]).moves[0]
    seen = common.latest_snapshot(campaign).number
    form = {"unit": army["id"], "order": "move", "to": f"{to[0]},{to[1]}", "seen": seen}
    assert (
        'class="move planned"'
        in alice.post(url(campaign, "orders_give"), seen_with(campaign, form), **HTMX).text
    )
    assert 'class="move planned"' in alice.get(url(campaign)).text
    assert 'class="move planned"' not in bob.get(url(campaign)).text


def test_a_recoloured_kingdom_is_drawn_anew(client, cast, campaign, monkeypatch):
    drawn = counted_drawings(monkeypatch)
    signed_in(client, cast["alice"]).get(url(campaign, "campaign"))
    Membership.objects.filter(user=cast["bob"]).update(colour="#123456")
    assert "#123456" in client.get(url(campaign, "campaign")).text
    assert len(drawn) == 2


def _closed_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


def test_with_the_cache_server_away_the_pages_still_render(
    client, cast, campaign, settings, caplog
):
    settings.CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{_closed_port()}/0",
        }
    }
    signed_in(client, cast["alice"])
    for page in ("campaign", "orders"):
        response = client.get(url(campaign, page))
        assert response.status_code == 200
        assert 'class="campaign-map"' in response.text
    assert "The map cache does not answer" in caplog.text


def test_the_map_is_kept_in_redis_when_configured(client, cast, campaign, settings, redis_url):
    settings.CACHES = {"default": {"BACKEND": "config.cache.RedisCache", "LOCATION": redis_url}}
    snapshot = common.latest_snapshot(campaign)
    players = list(campaign.memberships.exclude(kingdom=""))
    looks = {m.kingdom: KingdomLook(m.kingdom_name, m.colour, m.heraldry) for m in players}
    names = names_of(snapshot.data, campaign.gazetteer, players)  # as the page names places
    key = mapcache.ground_key(snapshot, kingdoms=looks, names=names)
    cache.delete(key)
    signed_in(client, cast["alice"]).get(url(campaign, "campaign"))
    kept = cache.get(key)
    assert isinstance(kept, str)
    assert kept.startswith("<svg")
    cache.delete(key)


def test_with_the_cache_server_hanging_the_page_renders_within_seconds(
    client, cast, campaign, settings
):
    with socket.socket() as hanging:  # accepts connections, never answers
        hanging.bind(("127.0.0.1", 0))
        hanging.listen(8)
        settings.CACHES = {
            "default": {
                "BACKEND": "config.cache.RedisCache",
                "LOCATION": f"redis://127.0.0.1:{hanging.getsockname()[1]}/0",
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            }
        }
        began = time.monotonic()
        response = signed_in(client, cast["alice"]).get(url(campaign, "campaign"))
        assert response.status_code == 200
        assert 'class="campaign-map"' in response.text
        assert time.monotonic() - began < 5
        # The map's cache, found away, is left alone for a while: the next page waits only
        # for the session's read (a second), not for each thing the page would keep.
        began = time.monotonic()
        response = client.get(url(campaign, "campaign"))
        assert 'class="campaign-map"' in response.text
        assert time.monotonic() - began < 2.5
