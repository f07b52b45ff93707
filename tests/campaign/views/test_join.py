"""Joining a campaign through its invitation link (/join/<code>/): a signed-out visitor
signs in and comes back; the page shows the campaign's options and takes a kingdom with a
name, a colour and a heraldry letter, each its own. Every refusal is told and changes
nothing. And a group's way from the invitation to a running campaign."""

import html
from typing import Any

import pytest
from django.core import mail
from django.db import IntegrityError, transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from campaign.models import Campaign, Membership
from campaign.services import common, members, setup
from notifications.models import Notification
from tests.campaign.helpers import PASSWORD, new_campaign, queries_of, signed_in

pytestmark = pytest.mark.django_db


def join_url(campaign_or_code: Campaign | str) -> str:
    code = (
        campaign_or_code.join_code if isinstance(campaign_or_code, Campaign) else campaign_or_code
    )
    return reverse("campaign:join", args=[code])


def kingdom(
    name: str = "Green Orcs", colour: str = "#00AA00", heraldry: str = "g"
) -> dict[str, str]:
    return {"kingdom_name": name, "colour": colour, "heraldry": heraldry}


def memberships(campaign: Campaign) -> list[tuple[Any, ...]]:
    return sorted(
        Membership.objects.filter(campaign=campaign).values_list(
            "user__username", "kingdom", "kingdom_name", "colour", "heraldry", "is_admin"
        )
    )


@pytest.fixture
def campaign(cast):
    """Three kingdoms on the Borderlands, cycle orders, simple battles; alice (Red Elves,
    #aa0000, R) and bob (Blue Dwarfs, #0000aa, B) have joined; gm runs it."""
    made = setup.campaign_create(
        name="Spring League",
        admin=cast["gm"],
        kingdoms=3,
        map_name="borderlands",
        options={"years": 3, "orders": "cycle", "battles": "simple"},
        deadlines={"setup": 24, "orders": 48, "battles": 96, "winter": 36},
        deadline_days=[5, 6],
    )
    members.campaign_join(
        campaign=made, user=cast["alice"], kingdom_name="Red Elves", colour="#aa0000"
    )
    members.campaign_join(
        campaign=made, user=cast["bob"], kingdom_name="Blue Dwarfs", colour="#0000aa"
    )
    return made


# --- signing in first ----------------------------------------------------------------------------


def test_a_signed_out_visitor_signs_in_and_comes_back(client, cast, campaign):
    url = join_url(campaign)
    response = client.get(url)
    assert response.status_code == 302
    assert response.url == f"{reverse('accounts:sign_in')}?next={url}"
    response = client.post(
        reverse("accounts:sign_in"), {"username": "eve", "password": PASSWORD, "next": url}
    )
    assert response.status_code == 302
    assert response.url == url
    assert "Join Spring League" in client.get(url).text


# --- the page -------------------------------------------------------------------------------------


def test_the_page_shows_the_campaign_s_options_and_who_has_joined(client, cast, campaign):
    page = signed_in(client, cast["eve"]).get(join_url(campaign)).text
    assert "Join Spring League" in page
    assert "The Borderlands, 84 hexes" in page
    assert "2 of 3 have joined" in page
    assert "3 years of 6 summer months" in page
    assert "In turn: one unit at a time" in page
    assert "Simple: the app rolls every battle" in page
    assert "Setup 24 hours, Orders 48 hours, Battles 96 hours, Winter 36 hours" in page
    assert "falling on Saturday, Sunday" in page
    assert "Red Elves" in page
    assert "Blue Dwarfs" in page
    assert 'name="kingdom_name"' in page
    assert 'type="color"' in page
    # The first colour nobody has is offered.
    assert 'value="#c0392b"' in page
    assert '<dt>Optional rules</dt><dd class="optional-rules">No optional rules.</dd>' in page
    assert (
        "<dt>Letters</dt><dd>Letters: kingdoms write to each other, and to all through the herald</dd>"
        in page
    )


def test_the_page_shows_the_optional_rules_and_letters_before_one_joins(client, cast):
    """Issue 35: the README said the join page shows the campaign's options; its optional
    rules and its letters were missing."""
    made = setup.campaign_create(
        name="Autumn League", admin=cast["gm"], kingdoms=2, map_name="borderlands",
        options={"wizards": True, "sieges": True}, letters=Campaign.Letters.HERALD,
    )  # fmt: skip
    page = html.unescape(signed_in(client, cast["eve"]).get(join_url(made)).text)
    assert 'Optional rules: <a href="/rules/#option-wizards">' in page
    assert '<a href="/rules/#option-sieges">Siege assaults</a>.' in page
    assert "The herald only: every letter is public" in page


def test_a_player_joins_with_a_name_a_colour_and_a_heraldry_letter(client, cast, campaign):
    response = signed_in(client, cast["eve"]).post(join_url(campaign), kingdom())
    assert response.status_code == 302
    assert response["Location"] == reverse("campaign:campaign", args=[campaign.slug])
    eve = Membership.objects.get(campaign=campaign, user=cast["eve"])
    assert (eve.kingdom, eve.kingdom_name, eve.colour, eve.heraldry, eve.is_admin) == (
        "green-orcs",
        "Green Orcs",
        "#00aa00",
        "G",
        False,
    )
    page = client.get(response["Location"]).text
    assert "You rule Green Orcs in Spring League." in page
    assert "Every kingdom has joined. The campaign starts when its admin starts it." in page


def test_a_player_who_leaves_the_heraldry_letter_empty_gets_a_free_one(client, cast, campaign):
    """Played as four newcomers (issue 35): the form required a letter its own words said
    was chosen for one left empty; each of them was told "This field is required."."""
    response = signed_in(client, cast["eve"]).post(
        join_url(campaign), kingdom("Bramble", heraldry="")
    )
    assert response.status_code == 302
    assert (
        Membership.objects.get(campaign=campaign, user=cast["eve"]).heraldry == "A"
    )  # B and R are taken


def test_the_admin_may_take_a_kingdom_too(client, cast, campaign):
    response = signed_in(client, cast["gm"]).post(
        join_url(campaign), kingdom("Grey Wardens"), follow=True
    )
    assert response.status_code == 200
    gm = Membership.objects.get(campaign=campaign, user=cast["gm"])
    assert (gm.kingdom_name, gm.is_admin) == ("Grey Wardens", True)
    # the last to join, and its admin: told to start it, not that it waits for more
    assert (
        "You rule Grey Wardens in Spring League. Every kingdom has joined: start the campaign "
        "from its dashboard."
    ) in [str(m) for m in response.context["messages"]]


# --- refusals ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("post", "error"),
    [
        (kingdom(name="red elves"), "Another kingdom is called red elves already"),
        (kingdom(colour="#AA0000"), "Another kingdom has that colour already"),
        (kingdom(heraldry="r"), "Another kingdom bears R already"),
        (kingdom(name=" "), "This field is required."),
        (kingdom(name="x" * 61), "Ensure this value has at most 60 characters"),
        (kingdom(colour="green"), "Give the colour as #rrggbb."),
        (kingdom(heraldry="!"), "Heraldry is a letter or a digit."),
        (kingdom(heraldry="GO"), "Ensure this value has at most 1 character"),
    ],
)
def test_a_kingdom_like_another_or_badly_given_is_refused(client, cast, campaign, post, error):
    before = memberships(campaign)
    response = signed_in(client, cast["eve"]).post(join_url(campaign), post)
    assert response.status_code == 400
    assert error in response.text
    assert memberships(campaign) == before


def test_an_unknown_or_revoked_code_says_it_is_no_longer_valid(client, cast, campaign):
    old = campaign.join_code
    members.campaign_new_code(campaign=campaign, actor=cast["gm"])
    before = memberships(campaign)
    signed_in(client, cast["eve"])
    for code in ("no-such-code", old):
        for response in (client.get(join_url(code)), client.post(join_url(code), kingdom())):
            assert response.status_code == 404
            assert "This invitation is no longer valid" in response.text
    assert memberships(campaign) == before


def refused(client: Client, campaign: Campaign, message: str) -> None:
    """The page says why instead of offering the form, and a post changes nothing."""
    before = memberships(campaign)
    page = client.get(join_url(campaign))
    assert page.status_code == 200
    assert message in page.text
    assert 'name="kingdom_name"' not in page.text
    response = client.post(join_url(campaign), kingdom("Late Comers", "#123123", "L"))
    assert response.status_code == 400
    assert message in response.text
    assert memberships(campaign) == before


def test_a_full_campaign_is_refused(client, cast, campaign):
    members.campaign_join(campaign=campaign, user=cast["eve"], kingdom_name="Green Orcs")
    carol = User.objects.create_user("carol", password=PASSWORD)
    refused(signed_in(client, carol), campaign, "Every kingdom of this campaign is taken.")


def test_a_started_campaign_is_refused(client, cast):
    running = new_campaign(cast)
    refused(signed_in(client, cast["eve"]), running, "This campaign has already started")


def test_joining_twice_is_refused(client, cast, campaign):
    signed_in(client, cast["alice"])
    refused(client, campaign, "You already rule a kingdom in this campaign.")
    page = client.get(join_url(campaign)).text
    assert f'href="{reverse("campaign:campaign", args=[campaign.slug])}"' in page


def test_a_removed_player_is_refused(client, cast, campaign):
    members.campaign_remove_player(campaign=campaign, actor=cast["gm"], username="bob")
    refused(signed_in(client, cast["bob"]), campaign, "You were removed from this campaign")


def test_the_database_keeps_names_colours_and_heraldry_apart(cast, campaign):
    """Even a write that skips the service cannot give two kingdoms the same look."""
    eve = cast["eve"]
    for look in (
        {"kingdom_name": "RED ELVES", "colour": "#00ff00", "heraldry": "E"},
        {"kingdom_name": "Evermore", "colour": "#AA0000", "heraldry": "E"},
        {"kingdom_name": "Evermore", "colour": "#00ff00", "heraldry": "R"},
    ):
        with pytest.raises(IntegrityError), transaction.atomic():
            Membership.objects.create(campaign=campaign, user=eve, kingdom="evermore", **look)
    # Members without a kingdom share the blanks.
    Membership.objects.create(campaign=campaign, user=eve)
    assert Membership.objects.filter(campaign=campaign, kingdom_name="").count() == 2


# --- the home page's code form ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed",
    ["{code}", "  {code} ", "http://testserver/join/{code}/", "https://example.org/join/{code}"],
)
def test_the_home_page_s_code_form_leads_to_the_invitation(client, cast, campaign, typed):
    signed_in(client, cast["eve"])
    response = client.get(
        reverse("campaign:join_with_code"), {"code": typed.format(code=campaign.join_code)}
    )
    assert response.status_code == 302
    assert response.url == join_url(campaign)


def test_no_code_is_told(client, cast):
    response = signed_in(client, cast["eve"]).get(
        reverse("campaign:join_with_code"), {"code": " "}, follow=True
    )
    assert "Type the join code from your invitation." in response.text


# --- from the invitation to a running campaign ------------------------------------------------------


def test_three_players_join_through_the_link_and_the_admin_starts(client, cast):
    """gm makes a campaign for three on the web, three new users follow its link (each
    signing in on the way), gm starts it, and every kingdom is asked its race."""
    signed_in(client, cast["gm"])
    client.post(
        reverse("campaign:new"),
        {
            "name": "Three Crowns",
            "map_name": "borderlands",
            "kingdoms": "3",
            "seed": "4",
            "years": "6",
            "months": "6",
            "orders": "sealed",
            "battles": "tabletop",
            "setup_hours": "48",
            "orders_hours": "72",
            "battles_hours": "168",
            "winter_hours": "48",
            "deadline_days": [str(d) for d in range(7)],
        },
    )
    campaign = Campaign.objects.get(name="Three Crowns")
    dashboard = client.get(reverse("campaign:dashboard", args=[campaign.slug])).text
    link = f"http://testserver{join_url(campaign)}"
    assert link in dashboard
    client.logout()
    players = [("carol", "Carrowmoor", "#c62828", "C"), ("dave", "Duskhollow", "#6a1b9a", "D"),
               ("fran", "Fernwood", "#2e7d32", "F")]  # fmt: skip
    for username, name, colour, letter in players:
        User.objects.create_user(username, password=PASSWORD)
        path = link.removeprefix("http://testserver")
        to_sign_in = client.get(path)
        assert to_sign_in.status_code == 302
        back = client.post(
            to_sign_in.url.split("?")[0], {"username": username, "password": PASSWORD, "next": path}
        )
        assert back.url == path
        joined = client.post(path, {"kingdom_name": name, "colour": colour, "heraldry": letter})
        assert joined.status_code == 302
        client.logout()
    signed_in(client, cast["gm"])
    page = client.get(reverse("campaign:dashboard", args=[campaign.slug])).text
    assert "3 of 3 kingdoms have joined" in page
    response = client.post(
        reverse("campaign:dashboard_action", args=[campaign.slug, "start"]), follow=True
    )
    assert "The campaign has started: the kingdoms choose their races." in response.text
    pending = common.latest_snapshot(campaign).data["pending"]
    assert sorted((p["kingdom"], p["kind"]) for p in pending) == [
        ("carrowmoor", "race"),
        ("duskhollow", "race"),
        ("fernwood", "race"),
    ]
    for username, name, _, _ in players:
        signed_in(client, User.objects.get(username=username))
        home = client.get(reverse("campaign:home")).text
        assert f"you rule {name}" in home
        assert "Waiting for you: choose your race" in home


def test_a_campaign_that_is_not_full_does_not_start(client, cast, campaign):
    response = signed_in(client, cast["gm"]).post(
        reverse("campaign:dashboard_action", args=[campaign.slug, "start"]), follow=True
    )
    assert "Nothing was changed. 2 of 3 kingdoms have joined." in response.text
    assert Campaign.objects.get(pk=campaign.pk).status == Campaign.Status.OPEN


# --- queries -----------------------------------------------------------------------------------------


def test_the_join_page_s_queries_do_not_grow_with_the_campaigns(client, cast, campaign):
    signed_in(client, cast["eve"])
    few, _ = queries_of(client, join_url(campaign))
    for n in range(4):
        other = setup.campaign_create(
            name=f"Other {n}", admin=cast["gm"], kingdoms=3, map_name="borderlands"
        )
        members.campaign_join(campaign=other, user=cast["eve"], kingdom_name="Evermore")
    many, _ = queries_of(client, join_url(campaign))
    assert few == many


def test_a_player_of_a_started_campaign_is_told_they_are_in_it(client, cast):
    running = new_campaign(cast)
    refused(
        signed_in(client, cast["alice"]), running, "You already rule a kingdom in this campaign."
    )


# --- starting: told, offered, and joined from the invitation ------------------------------------


def test_every_refusal_of_the_form_is_told_at_once(client, cast, campaign):
    post = kingdom(name="Red Elves", colour="#aa0000", heraldry="b")
    page = signed_in(client, cast["eve"]).post(join_url(campaign), post).text
    assert "Another kingdom is called Red Elves already" in page
    assert "Another kingdom has that colour already" in page
    assert "Another kingdom bears B already" in page


def test_an_invitation_opened_signed_out_names_its_campaign_on_sign_in_and_sign_up(
    client, campaign
):
    url = join_url(campaign)
    for page in ("accounts:sign_in", "accounts:sign_up"):
        text = client.get(reverse(page), {"next": url}).text
        assert "You are invited to <strong>Spring League</strong>" in text
        assert "You are invited" not in client.get(reverse(page), {"next": "/"}).text
        assert "You are invited" not in client.get(reverse(page), {"next": "/join/nope/"}).text


def test_when_the_last_kingdom_joins_the_admin_is_told_and_offered_start(client, cast, campaign):
    mail.outbox.clear()
    cast["gm"].email = "gm@example.org"
    cast["gm"].save()
    with transaction.atomic():
        members.campaign_join(campaign=campaign, user=cast["eve"], kingdom_name="Green Orcs")
    sent = Notification.objects.get(campaign=campaign, user=cast["gm"])
    assert sent.subject == "[Spring League] Every kingdom has joined: start the campaign"
    assert "Green Orcs (eve)" in sent.body
    assert sent.link.endswith(reverse("campaign:dashboard", args=[campaign.slug]))
    page = signed_in(client, cast["gm"]).get(reverse("campaign:campaign", args=[campaign.slug]))
    assert "Start the campaign" in page.text
    players_page = signed_in(client, cast["alice"]).get(
        reverse("campaign:campaign", args=[campaign.slug])
    )
    assert "Start the campaign" not in players_page.text
    assert "The campaign starts when its admin starts it." in players_page.text


def test_an_admin_who_does_not_play_yet_is_offered_a_kingdom_in_one_tap(client, cast, campaign):
    page = signed_in(client, cast["gm"]).get(reverse("campaign:campaign", args=[campaign.slug]))
    assert f'href="{join_url(campaign)}">Rule a kingdom in it too</a>' in page.text
    dashboard = client.get(reverse("campaign:dashboard", args=[campaign.slug])).text
    assert f'href="{join_url(campaign)}">Rule a kingdom in it too</a>' in dashboard
