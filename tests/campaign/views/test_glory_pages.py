"""Option glory (OB1 to OB4) in the app: the kingdom page shows its glory, its honours, who
holds each and what each does, and the kingdom's secret wish list, ordered by its arrows,
by a drag (the list posted in its new order), added to and taken from; the list is judged
by the engine as it is sent (an unknown or repeated honour refused in words, nothing
saved), waits on nothing and holds up nobody, and the next advance applies it (OB2, app
ruling A30). Nobody
else ever sees it: not bob, not the admin, on any page, fragment or message."""

import copy
import html
import re
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from campaign.models import Campaign, Submission
from campaign.services import admin, advancing, common, submissions
from notifications.discord import webhook_set
from notifications.models import Notification
from tests.campaign.helpers import (
    at_step,
    kingdom_of,
    new_campaign,
    play_until,
    signed_in,
    turned_away,
    without_tokens,
)

pytestmark = pytest.mark.django_db


def glorious(cast: dict[str, Any], **options: bool) -> Campaign:
    campaign = new_campaign(cast, options={"glory": True, **options})
    play_until(campaign, cast, at_step("orders"))
    return campaign


def newest(campaign: Campaign) -> int:
    return common.latest_snapshot(campaign).number


def post_wishes(client: Client, campaign: Campaign, **form: Any) -> str:
    """A post of the kingdom page's wish list: the list as the page drew it (`drawn`, the
    kingdom's list as it stands, unless given), and the snapshot it was drawn at."""
    user = User.objects.get(pk=client.session["_auth_user_id"])
    kingdom = common.kingdom_of(campaign, user)
    data = common.latest_snapshot(campaign).data
    drawn = (
        " ".join(submissions.wishes_now(campaign, kingdom, data))
        if "glory" in data["options"]
        else ""
    )
    url = reverse("campaign:honour_wishes", args=[campaign.slug])
    response = client.post(url, {"seen": newest(campaign), "drawn": drawn, **form}, follow=True)
    assert response.status_code == 200
    return html.unescape(response.text)


def wish_list(page: str) -> list[str]:
    """The wish list as the kingdom page draws it, in order."""
    section = page.split("<h3>Your wishes</h3>", 1)[1]
    return re.findall(r'<input type="hidden" name="wish" value="([a-z_]+)">', section)


def given(campaign: Campaign, kingdom: str) -> list[str] | None:
    row = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, kind="honour_wishes", consumed_by=None
    ).first()
    return None if row is None else row.payload


def test_alice_sees_her_glory_and_the_honours_and_orders_her_secret_wishes(cast):
    campaign = glorious(cast)
    alice = signed_in(Client(), cast["alice"])
    page = html.unescape(alice.get(reverse("campaign:kingdom", args=[campaign.slug])).text)
    assert "Glory 0</strong> of 5" in page
    assert "Your kingdom holds no honour yet." in page
    assert "<td>Veterans</td><td>Its armies' Defence +1 in simple land battles</td>" in page
    assert "<td>unclaimed</td>" in page
    assert "No wishes yet" in page

    page = post_wishes(alice, campaign, add="veterans")
    assert "Your wishes are kept, in this order, and seen by you alone." in page
    page = post_wishes(alice, campaign, wish=["veterans"], add="strategists")
    assert wish_list(page) == ["veterans", "strategists"]
    page = post_wishes(
        alice, campaign, wish=["veterans", "strategists"], **{"raise": "strategists"}
    )
    assert wish_list(page) == ["strategists", "veterans"]
    page = post_wishes(alice, campaign, wish=["strategists", "veterans"], lower="strategists")
    assert wish_list(page) == ["veterans", "strategists"]
    # A drag posts the list in its new order, with no button.
    page = post_wishes(alice, campaign, wish=["strategists", "veterans"])
    assert wish_list(page) == ["strategists", "veterans"]
    page = post_wishes(alice, campaign, wish=["strategists", "veterans"], drop="veterans")
    assert wish_list(page) == ["strategists"]

    # The wishes wait on nothing: the orders step still waits for both kingdoms' orders.
    red = kingdom_of(campaign, cast["alice"])
    assert given(campaign, red) == ["strategists"]
    assert common.latest_snapshot(campaign).data["clock"]["step"] == "orders"
    assert red not in common.ready_kingdoms(campaign)
    # The next advance applies them before anything else (OB2).
    advancing.campaign_advance(
        campaign_id=campaign.pk, snapshot_number=newest(campaign), defaults=True
    )
    data = common.latest_snapshot(campaign).data
    assert next(k for k in data["kingdoms"] if k["id"] == red)["honour_wishes"] == ["strategists"]
    assert given(campaign, red) is None
    page = html.unescape(alice.get(reverse("campaign:kingdom", args=[campaign.slug])).text)
    assert wish_list(page) == ["strategists"]


@pytest.mark.parametrize(
    ("form", "said"),
    [
        ({"add": "crown"}, "There is no honour 'crown'"),
        ({"wish": ["veterans", "veterans"]}, "The honour veterans is wished for twice."),
        ({"wish": ["veterans"], "add": "veterans"}, "The honour veterans is wished for twice."),
    ],
)
def test_an_unknown_or_repeated_honour_is_refused_in_words_and_nothing_is_saved(cast, form, said):
    campaign = glorious(cast)
    alice = signed_in(Client(), cast["alice"])
    post_wishes(alice, campaign, add="granaries")
    page = post_wishes(alice, campaign, **form)
    assert "Nothing was changed." in page or "Nothing changed" in page
    assert said in page
    assert given(campaign, kingdom_of(campaign, cast["alice"])) == ["granaries"]
    assert wish_list(page) == ["granaries"]


def test_wishes_changed_in_another_tab_since_the_page_was_drawn_are_refused(cast):
    """Tab one drew the list [granaries, veterans]; tab two put veterans first; tab one's
    arrow is refused, and the list stays as tab two left it."""
    campaign = glorious(cast)
    alice = signed_in(Client(), cast["alice"])
    post_wishes(alice, campaign, wish=["granaries", "veterans"])
    post_wishes(alice, campaign, wish=["granaries", "veterans"], **{"raise": "veterans"})
    page = post_wishes(
        alice,
        campaign,
        drawn="granaries veterans",
        wish=["granaries", "veterans"],
        lower="granaries",
    )
    assert "Your wishes changed in another tab or window since this page was drawn" in page
    assert given(campaign, kingdom_of(campaign, cast["alice"])) == ["veterans", "granaries"]
    assert wish_list(page) == ["veterans", "granaries"]


def test_wishes_from_a_page_drawn_before_the_campaign_moved_on_are_refused(cast):
    campaign = glorious(cast)
    alice = signed_in(Client(), cast["alice"])
    drawn = newest(campaign)
    advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=drawn, defaults=True)
    url = reverse("campaign:honour_wishes", args=[campaign.slug])
    page = html.unescape(alice.post(url, {"seen": drawn, "add": "veterans"}, follow=True).text)
    assert "has moved on" in page
    assert given(campaign, kingdom_of(campaign, cast["alice"])) is None


def test_without_glory_no_wishes_are_taken_and_the_page_has_no_honours(cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_step("orders"))
    alice = signed_in(Client(), cast["alice"])
    page = post_wishes(alice, campaign, add="veterans")
    assert "This campaign is played without glory and honours." in page
    assert "Glory and honours" not in page
    assert not Submission.objects.filter(kind="honour_wishes").exists()


@pytest.mark.parametrize("visitor", [None, "gm", "eve"])
def test_only_a_kingdoms_player_gives_its_wishes(cast, visitor):
    campaign = glorious(cast)
    client = Client() if visitor is None else signed_in(Client(), cast[visitor])
    url = reverse("campaign:honour_wishes", args=[campaign.slug])
    turned_away(client.post(url, {"seen": newest(campaign), "add": "veterans"}), visitor)
    assert not Submission.objects.filter(kind="honour_wishes").exists()


# --- nobody else sees them --------------------------------------------------------------------


def every_page(campaign: Campaign) -> list[str]:
    slug, number = campaign.slug, newest(campaign)
    return [
        reverse("campaign:home"),
        reverse("battles:mine"),
        *(
            reverse(name, args=[slug])
            for name in (
                "campaign:campaign",
                "campaign:kingdom",
                "campaign:orders",
                "campaign:orders_status",
                "campaign:setup",
                "campaign:winter",
                "campaign:chronicle",
                "campaign:might",
                "campaign:end",
                "campaign:dashboard",
                "campaign:letters",
                "battles:list",
                "battles:lists",
                "notifications:desk",
            )
        ),
        reverse("campaign:report", args=[slug, number]),
        reverse("campaign:campaign", args=[slug]) + f"?at={number}",
    ]


def seen_by(user: Any, campaign: Campaign) -> dict[tuple[str, bool], str]:
    """Every page of the campaign as `user` sees it, whole and as an htmx fragment, without
    what changes on every request (tokens) and without numbers (the snapshot a page was
    drawn at, the time)."""
    client = signed_in(Client(), user)
    return {
        (url, fragment): re.sub(r"\d+", "#", without_tokens(client.get(url, headers=headers).text))
        for url in every_page(campaign)
        for fragment, headers in ((False, {}), (True, {"HX-Request": "true"}))
    }


def test_no_page_or_fragment_of_bob_or_the_admin_changes_with_alices_wishes(cast):
    """Alice's wish list, given and not yet applied, then another: every page of bob's and
    of the admin's, whole and as a fragment (the map's SVG within them), is the same."""
    campaign = glorious(cast)
    alice = signed_in(Client(), cast["alice"])
    post_wishes(alice, campaign, wish=["war_college", "master_masons"])
    before = {name: seen_by(cast[name], campaign) for name in ("bob", "gm")}
    post_wishes(alice, campaign, wish=["granaries"])
    for name in ("bob", "gm"):
        after = seen_by(cast[name], campaign)
        for page, text in before[name].items():
            assert after[page] == text, (name, page)


SECRET = ("war college", "war_college", "master mason", "master_mason", "wish")


def test_applied_wishes_show_on_no_page_email_or_post_but_alices(
    cast, discord, eager_celery, django_capture_on_commit_callbacks
):
    """Once the advance has written alice's wishes into the campaign file, bob's and the
    admin's pages, the campaign's e-mails and its Discord posts never name them (no honour
    is claimed, so neither honour is named anywhere public; bob's kingdom page names every
    honour once in its table and once among his own wishes to add)."""
    campaign = glorious(cast)
    webhook_set(campaign=campaign, actor=cast["gm"], url=discord.url)
    for user in cast.values():
        user.email = f"{user.get_username()}@example.org"
        user.save(update_fields=["email"])
    alice = signed_in(Client(), cast["alice"])
    post_wishes(alice, campaign, wish=["war_college", "master_masons"])
    with django_capture_on_commit_callbacks(execute=True):
        play_until(campaign, cast, lambda data: data["clock"]["month"] == 2)
    red = kingdom_of(campaign, cast["alice"])
    data = common.latest_snapshot(campaign).data
    assert next(k for k in data["kingdoms"] if k["id"] == red)["honour_wishes"] == [
        "war_college",
        "master_masons",
    ]
    for name in ("bob", "gm"):
        for (url, _), text in seen_by(cast[name], campaign).items():
            words = html.unescape(text).lower()
            if name == "bob" and url == reverse("campaign:kingdom", args=[campaign.slug]):
                assert "No wishes yet" in html.unescape(text)
                assert words.count("war college") == 2, url
                continue
            assert not any(secret in words for secret in SECRET), (name, url)
    told = [f"{n.subject}\n{n.body}" for n in Notification.objects.filter(campaign=campaign)]
    told += [f"{m.subject}\n{m.body}" for m in mail.outbox] + discord.contents
    assert told
    for text in told:
        assert not any(secret in text.lower() for secret in SECRET), text


# --- the standings --------------------------------------------------------------------------


def test_the_leaderboard_the_kingdom_page_and_the_end_name_who_holds_which_honour(cast):
    """Red Elves hold the veterans (corrected in their first winter); a one-year campaign
    played to its end: the leaderboard and the end page give each kingdom's glory and
    honours beside its might, the honours' 2 might among its sources (OB4); alice's page
    says what her honour does, bob's table who holds it."""
    campaign = new_campaign(cast, options={"glory": True, "years": 1})
    data = copy.deepcopy(play_until(campaign, cast, at_step("tithe")))
    red = kingdom_of(campaign, cast["alice"])
    for kingdom in data["kingdoms"]:
        if kingdom["id"] == red:
            kingdom["honours"], kingdom["glory"] = ["veterans"], 3
    admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="an honour", data=data, what="test"
    )
    slug = campaign.slug
    alice = html.unescape(
        signed_in(Client(), cast["alice"]).get(reverse("campaign:kingdom", args=[slug])).text
    )
    assert "<strong>Veterans</strong>: its armies' Defence +1 in simple land battles." in alice
    assert "Glory 3</strong> of 5" in alice
    bob = signed_in(Client(), cast["bob"])
    table = html.unescape(bob.get(reverse("campaign:kingdom", args=[slug])).text)
    assert (
        "<td>Veterans</td><td>Its armies' Defence +1 in simple land battles</td><td>Red Elves</td>"
        in table
    )
    board = html.unescape(bob.get(reverse("campaign:campaign", args=[slug])).text)
    assert '<span class="player">Glory 3</span><span class="player">Veterans</span>' in board
    assert "honours 2" in board

    play_until(campaign, cast, lambda d: d["clock"]["season"] == "ended")
    end = html.unescape(bob.get(reverse("campaign:end", args=[slug])).text)
    row = next(r for r in end.split("<tr") if "Red Elves" in r and "<td>" in r)
    assert "Veterans" in row  # and any honour claimed since
    assert re.search(r"honours [2-9]", row)
    assert re.search(r"Glory \d", row)
