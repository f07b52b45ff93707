"""Places have names (issue 35): named when the campaign starts, the same for the same seed;
a settlement built later named when it is built; the admin renames a place from the
dashboard (audited); a player names their kingdom's armies on its page. For each kind of
visitor: the admin, the kingdom's player, the other player, a signed-out visitor."""

import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.gazetteer import Names, hex_key
from campaign.models import AuditEntry, Campaign
from campaign.services import common, members
from campaign.services import names as names_services
from campaign.words import names_of
from tests.campaign.helpers import (
    action_url,
    at_step,
    dashboard_url,
    new_campaign,
    play_until,
    seen_now,
    signed_in,
    turned_away,
)
from tests.conftest import campaign_made_once, read_again

pytestmark = pytest.mark.django_db

# The cast and a campaign just started, made once for the module.
made, cast, campaign = campaign_made_once(new_campaign)


@pytest.fixture(scope="module")
def made_at_orders(made: tuple[dict[str, Any], Campaign], django_db_blocker: Any) -> Campaign:
    """Another campaign of the cast, played by the bots until the first orders are asked,
    made once for the module (in its transaction)."""
    with django_db_blocker.unblock():
        campaign = new_campaign(made[0])
        play_until(campaign, made[0], at_step("orders"))
    return campaign


@pytest.fixture
def at_orders(made_at_orders: Campaign) -> Campaign:
    return read_again(made_at_orders)


def newest(campaign: Campaign) -> dict[str, Any]:
    data: dict[str, Any] = common.latest_snapshot(campaign).data
    return data


def names(campaign: Campaign) -> Names:
    campaign.refresh_from_db()
    return names_of(newest(campaign), campaign.gazetteer)


def page(client: Client, name: str, campaign: Campaign) -> str:
    response = client.get(reverse(name, args=[campaign.slug]))
    assert response.status_code == 200
    return html.unescape(response.text)


def first_army(campaign: Campaign, kingdom: str = "red-elves") -> str:
    return str(next(a["id"] for a in newest(campaign)["armies"] if a["kingdom"] == kingdom))


def name_unit(client: Client, campaign: Campaign, unit: str, name: str, **extra: Any) -> Any:
    form = {"unit": unit, "name": name, "seen": common.latest_snapshot(campaign).number}
    return client.post(reverse("campaign:unit_name", args=[campaign.slug]), {**form, **extra})


# --- named when the campaign starts -----------------------------------------------------------


def test_a_campaign_names_its_places_when_it_starts_the_same_for_the_same_seed(cast):
    first = new_campaign(cast, "First")
    again = new_campaign(cast, "Again")
    other = new_campaign(cast, "Other", options={"seed": 2})
    assert first.gazetteer["regions"]
    assert first.gazetteer == again.gazetteer
    assert first.gazetteer["settlements"] != other.gazetteer["settlements"]
    assert not new_campaign(cast, "Open", start=False).gazetteer


def test_the_settlements_placed_at_the_setup_are_named(cast, at_orders):
    campaign = at_orders
    data = newest(campaign)
    said = names(campaign)
    for tile in data["tiles"]:
        if tile["settlement"]:
            assert (
                said.place(tile["hex"]) == campaign.gazetteer["settlements"][hex_key(tile["hex"])]
            )
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == "red-elves")
    alice = signed_in(Client(), cast["alice"])
    assert f"{said.place(capital)}: the capital, in " in page(alice, "campaign:kingdom", campaign)


def test_a_settlement_built_in_a_winter_is_named_when_it_is_built(cast):
    campaign = new_campaign(cast)
    data = play_until(
        campaign,
        cast,
        lambda d: any(e["type"] == "built" and e["settlement"] == "village" for e in d["events"]),
    )
    built = next(e for e in data["events"] if e["type"] == "built" and e["settlement"] == "village")
    kept = campaign.gazetteer["settlements"][hex_key(built["hex"])]
    campaign.refresh_from_db()
    assert hex_key(built["hex"]) in campaign.gazetteer["settled"]
    number = common.latest_snapshot(campaign).number
    report = html.unescape(
        signed_in(Client(), cast["bob"])
        .get(reverse("campaign:report", args=[campaign.slug, number]))
        .text
    )
    assert f"built a village at {kept}." in report


# --- the admin renames a place ----------------------------------------------------------------


def test_the_admin_renames_a_place_and_every_page_says_its_new_name(client, cast, at_orders):
    campaign = at_orders
    data = newest(campaign)
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == "red-elves")
    old = names(campaign).place(capital)
    response = signed_in(client, cast["gm"]).post(
        action_url(campaign, "place"),
        {
            **seen_now(campaign),
            "place": old,
            "name": " Aldermark  Keep ",
            "reason": "its player's wish",
        },
    )
    assert response.status_code == 302
    told = html.unescape(client.get(response["Location"]).text)
    assert f"{old} is called Aldermark Keep from now on." in told
    entry = AuditEntry.objects.get(campaign=campaign, action=AuditEntry.Action.PLACE_RENAMED)
    assert (entry.actor, entry.reason) == (cast["gm"], "its player's wish")
    assert entry.details == {"from": old, "to": "Aldermark Keep", "hex": capital}
    assert names(campaign).place(capital) == "Aldermark Keep"
    bob = signed_in(Client(), cast["bob"])
    chronicle = page(bob, "campaign:chronicle", campaign)
    assert "Red Elves founded its capital, Aldermark Keep." in chronicle
    assert old not in chronicle


@pytest.mark.parametrize("visitor", ["alice", "eve", None])
def test_nobody_but_the_admin_renames_a_place(client, cast, campaign, visitor):
    place = names(campaign).places()[0]
    if visitor:
        signed_in(client, cast[visitor])
    response = client.post(
        action_url(campaign, "place"),
        {**seen_now(campaign), "place": place, "name": "Mine", "reason": "why not"},
    )
    turned_away(response, visitor)
    assert place in names(campaign).places()
    assert not AuditEntry.objects.filter(action=AuditEntry.Action.PLACE_RENAMED).exists()


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("Blue Dwarfs", "Blue Dwarfs is a name the campaign has already: choose another."),
        ("", "This field is required."),
        ("Harrow\nby", "A place's name is one line of letters"),
    ],
)
def test_a_place_is_never_given_a_name_the_campaign_has_or_no_name(
    client, cast, campaign, name, why
):
    place = names(campaign).places()[0]
    signed_in(client, cast["gm"])
    response = client.post(
        action_url(campaign, "place"),
        {**seen_now(campaign), "place": place, "name": name, "reason": "why not"},
    )
    shown = client.get(response["Location"]) if response.status_code == 302 else response
    told = html.unescape(shown.text)
    assert why in told
    assert place in names(campaign).places()


def test_a_place_renamed_meanwhile_is_no_longer_offered_and_its_old_name_is_refused(cast, campaign):
    place = names(campaign).places()[0]
    names_services.place_rename(
        campaign=campaign, actor=cast["gm"], place=place, name="Elderholt", reason="first"
    )
    with pytest.raises(common.ServiceError) as refusal:
        names_services.place_rename(
            campaign=campaign, actor=cast["gm"], place=place, name="Other", reason="second"
        )
    assert refusal.value.code == "no-such-place"
    dashboard = html.unescape(signed_in(Client(), cast["gm"]).get(dashboard_url(campaign)).text)
    assert f'<option value="{place}">' not in dashboard
    assert '<option value="Elderholt">Elderholt</option>' in dashboard


# --- a player names an army -------------------------------------------------------------------


def test_a_player_names_their_army_and_everyone_reads_it_by_that_name(client, cast, at_orders):
    campaign = at_orders
    army = first_army(campaign)
    response = name_unit(signed_in(client, cast["alice"]), campaign, army, "The Iron Host")
    assert response.status_code == 302
    kingdom = page(client, "campaign:kingdom", campaign)
    assert "It is called The Iron Host from now on." in kingdom
    assert "<td>The Iron Host</td>" in kingdom
    bob = signed_in(Client(), cast["bob"])
    assert "The Iron Host (Red Elves) (upright" in page(bob, "campaign:campaign", campaign)
    play_until(campaign, cast, at_step("battles"))
    number = common.latest_snapshot(campaign).number
    report = html.unescape(bob.get(reverse("campaign:report", args=[campaign.slug, number])).text)
    assert "The Iron Host" in report
    assert "Red Elves' 1st army" not in report


def test_an_empty_name_gives_the_army_back_its_own(client, cast, at_orders):
    campaign = at_orders
    army = first_army(campaign)
    signed_in(client, cast["alice"])
    name_unit(client, campaign, army, "The Iron Host")
    name_unit(client, campaign, army, "  ")
    assert names(campaign).unit(army) == "Red Elves' 1st army"
    assert army not in campaign.gazetteer["units"]


@pytest.mark.parametrize("visitor", ["bob", "gm", "eve", None])
def test_nobody_names_another_kingdoms_army(client, cast, at_orders, visitor):
    campaign = at_orders
    army = first_army(campaign)
    if visitor:
        signed_in(client, cast[visitor])
    turned_away(name_unit(client, campaign, army, "Stolen"), visitor)
    assert names(campaign).unit(army) == "Red Elves' 1st army"


@pytest.mark.parametrize(
    ("name", "extra", "why"),
    [
        ("Blue Dwarfs' 1st army", {}, "is a name the campaign has already"),
        ("Red Elves", {}, "is a name the campaign has already"),
        ("x" * 61, {}, "An army's name is at most 60 characters long."),
        ("The Iron Host", {"seen": "1"}, "The campaign has moved on since you looked"),
    ],
)
def test_an_army_is_never_given_a_name_the_campaign_has_nor_from_a_page_gone_by(
    client, cast, at_orders, name, extra, why
):
    campaign = at_orders
    army = first_army(campaign)
    response = name_unit(signed_in(client, cast["alice"]), campaign, army, name, **extra)
    assert why in html.unescape(client.get(response["Location"]).text)
    assert names(campaign).unit(army) == "Red Elves' 1st army"


def test_a_kingdom_handed_over_keeps_its_armies_names(cast, at_orders):
    campaign = at_orders
    army = first_army(campaign)
    names_services.unit_rename(
        campaign=campaign, user=cast["alice"], unit=army, name="The Iron Host"
    )
    members.campaign_hand_over(
        campaign=campaign, actor=cast["gm"], kingdom="red-elves", username="gm", reason="away"
    )
    gm = signed_in(Client(), cast["gm"])
    assert "<td>The Iron Host</td>" in page(gm, "campaign:kingdom", campaign)
