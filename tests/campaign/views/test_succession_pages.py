"""Option succession (OB5 to OB7) in the app: alice's ruler dies and her heir's claim is
disputed; her winter page asks which of her armies is disbanded, with what each costs and
the default named; her choice is judged at once (another kingdom's army refused in words,
nothing saved), saved, and used when the step closes; the report and the chronicle tell the
death with its dice."""

import copy
import html
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Submission
from campaign.services import admin, advancing, common
from notifications.models import Notification
from tests.campaign.helpers import at_step, new_campaign, play_until, signed_in

pytestmark = pytest.mark.django_db


def disputed(cast: dict[str, Any], dice: tuple[int, ...] = (1, 2, 3)) -> Campaign:
    """A campaign with succession, corrected to its first winter's gather: Red Elves
    (alice) with two armies at home, Blue Dwarfs (bob) with one; the dice: Red's ruler dies
    (1) and the heir's die 2 (+1 for the capital: 3) disputes the claim; Blue's lives (3);
    then dice enough for whatever the winter's forecast rolls."""
    campaign = new_campaign(cast, options={"succession": True})
    data = copy.deepcopy(play_until(campaign, cast, at_step("orders")))
    home = next(k for k in data["kingdoms"] if k["id"] == "red-elves")["capital"]
    blue_home = next(k for k in data["kingdoms"] if k["id"] == "blue-dwarfs")["capital"]
    army = {"upright": True, "ally": None}
    data["armies"] = [
        {"id": "red-elves-1", "kingdom": "red-elves", "hex": home, **army},
        {"id": "red-elves-2", "kingdom": "red-elves", "hex": home, **army},
        {"id": "blue-dwarfs-1", "kingdom": "blue-dwarfs", "hex": blue_home, **army},
    ]
    data["clock"] = {"year": 1, "season": "winter", "month": 0, "step": "gather"}
    data["player_order"] = ["red-elves", "blue-dwarfs"]
    data["inputs"], data["pending"], data["dice"] = {}, [], [*dice, *[6, 5, 4, 3, 2, 1] * 20]
    fixed = admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="a death", data=data, what="test"
    )
    advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=fixed.number)
    return campaign


def seen(campaign: Campaign) -> str:
    return str(common.latest_snapshot(campaign).number)


def test_alice_chooses_the_army_her_disputed_heir_disbands(
    client, cast, eager_celery, django_capture_on_commit_callbacks
):
    campaign = disputed(cast)
    data = common.latest_snapshot(campaign).data
    assert data["pending"] == [
        {"kind": "succession", "kingdom": "red-elves", "armies": ["red-elves-1", "red-elves-2"]}
    ]
    winter = reverse("campaign:winter", args=[campaign.slug])
    page = html.unescape(signed_in(client, cast["alice"]).get(winter).text)
    assert "Your ruler has died" in page
    assert "The heir's claim is disputed." in page
    assert "Red Elves' 2nd army, your most recently raised, goes" in page

    set_ = reverse("campaign:winter_change", args=[campaign.slug, "succession", "set"])
    refused = html.unescape(
        client.post(set_, {"army": "blue-dwarfs-1", "seen": seen(campaign)}, follow=True).text
    )
    assert "Nothing was changed." in refused
    assert not Submission.objects.filter(campaign=campaign, kind="succession").exists()

    client.post(set_, {"army": "red-elves-1", "seen": seen(campaign)})
    saved = Submission.objects.get(campaign=campaign, kind="succession", consumed_by=None)
    assert saved.payload == {"disband": "red-elves-1"}
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("campaign:winter_ready", args=[campaign.slug]),
            {"ready": "yes", "seen": seen(campaign)},
        )

    after = common.latest_snapshot(campaign).data
    assert after["clock"]["step"] == "tithe"
    assert [a["id"] for a in after["armies"] if a["kingdom"] == "red-elves"] == ["red-elves-2"]
    told = html.unescape(
        signed_in(Client(), cast["bob"])
        .get(reverse("campaign:chronicle", args=[campaign.slug]))
        .text
    )
    assert "Red Elves' ruler died after a reign of 0: the heir's claim is disputed" in told


def test_bob_is_not_asked_and_cannot_choose_for_alice(client, cast):
    campaign = disputed(cast)
    set_ = reverse("campaign:winter_change", args=[campaign.slug, "succession", "set"])

    page = html.unescape(
        signed_in(client, cast["bob"])
        .post(set_, {"army": "red-elves-1", "seen": seen(campaign)}, follow=True)
        .text
    )

    assert "That is not asked of your kingdom now." in page
    assert not Submission.objects.filter(campaign=campaign, kind="succession").exists()


def test_each_kingdom_whose_ruler_died_is_told_even_one_asked_nothing(
    cast, django_capture_on_commit_callbacks
):
    """Both rulers die: Red's heir is disputed (2 + 1 for the capital), Blue's takes the
    crown in peace (5 + 1). Alice is told, and asked which army goes; bob, asked nothing,
    is told too."""
    for user in cast.values():
        user.email = f"{user.get_username()}@example.org"
        user.save(update_fields=["email"])
    with django_capture_on_commit_callbacks(execute=True):
        campaign = disputed(cast, dice=(1, 2, 1, 5))
    told = {
        n.user.get_username(): n
        for n in Notification.objects.filter(campaign=campaign, channel="email")
        if n.user is not None and "Your ruler has died" in n.subject
    }
    assert set(told) == {"alice", "bob"}
    assert "Your ruler died after a reign of 0: the heir's claim is disputed" in told["alice"].body
    assert "the heir takes the crown in peace" in told["bob"].body
    asked = Notification.objects.filter(campaign=campaign, channel="email", user=cast["alice"])
    assert any("army" in n.body and "disband" in n.body.lower() for n in asked), [
        n.body for n in asked
    ]


def test_a_civil_wars_razed_settlement_is_marked_on_the_map_this_winter(client, cast):
    """Red's ruler dies and the heir's die is 1 (+1 for the capital: 2): civil war, and
    Red's settlement farthest from its capital is razed (OB6). Alice's winter page says so
    and both players' maps cross the tile out, with what a tap says."""
    campaign = disputed(cast, dice=(1, 1, 3))
    data = common.latest_snapshot(campaign).data
    (razed,) = [e for e in data["events"] if e["type"] == "civil-war-razed"]
    alice = html.unescape(
        signed_in(client, cast["alice"]).get(reverse("campaign:winter", args=[campaign.slug])).text
    )
    assert "Civil war: the heir's claim is fought over" in alice
    for name in ("alice", "bob"):
        page = html.unescape(
            signed_in(Client(), cast[name])
            .get(reverse("campaign:campaign", args=[campaign.slug]))
            .text
        )
        # the cross's two strokes on the tile, and in the legend
        assert page.count('class="razed"') == 4, name
        assert f"its {razed['settlement']} razed this winter in a civil war (option OB6)" in page
        assert "A settlement razed this winter in a civil war" in page  # the legend


def test_alice_ready_without_choosing_gives_the_default_army_the_page_names(
    client, cast, eager_celery, django_capture_on_commit_callbacks
):
    campaign = disputed(cast)
    signed_in(client, cast["alice"])
    page = html.unescape(client.get(reverse("campaign:winter", args=[campaign.slug])).text)
    assert 'value="red-elves-2" checked' in page  # the default, ticked until another is
    assert "refuse" not in page.split("Forecast", 1)[1].split("</section>")[0]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("campaign:winter_ready", args=[campaign.slug]),
            {"ready": "yes", "seen": seen(campaign)},
            follow=True,
        )
    assert "Nothing was changed" not in html.unescape(response.text)
    after = common.latest_snapshot(campaign).data
    assert after["clock"]["step"] == "tithe"
    assert [a["id"] for a in after["armies"] if a["kingdom"] == "red-elves"] == ["red-elves-1"]


def test_a_choice_the_admins_correction_made_illegal_is_set_aside_not_a_pause(
    client, cast, eager_celery, django_capture_on_commit_callbacks
):
    """Alice chose her 1st army; the admin's correction then takes that army away. At the
    deadline her choice is set aside and her default disbanded: the campaign never pauses
    on what a player sent."""
    campaign = disputed(cast)
    signed_in(client, cast["alice"])
    set_ = reverse("campaign:winter_change", args=[campaign.slug, "succession", "set"])
    client.post(set_, {"army": "red-elves-1", "seen": seen(campaign)})
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    third = {**data["armies"][1], "id": "red-elves-3"}
    data["armies"] = [a for a in data["armies"] if a["id"] != "red-elves-1"] + [third]
    admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="a lost army", data=data, what="test"
    )
    with django_capture_on_commit_callbacks(execute=True):
        advancing.campaign_advance(
            campaign_id=campaign.pk, snapshot_number=int(seen(campaign)), defaults=True
        )
    campaign.refresh_from_db()
    assert campaign.status == Campaign.Status.RUNNING
    after = common.latest_snapshot(campaign).data
    assert after["clock"]["step"] == "tithe"
    assert [a["id"] for a in after["armies"] if a["kingdom"] == "red-elves"] == ["red-elves-2"]
