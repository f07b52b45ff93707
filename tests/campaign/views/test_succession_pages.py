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
from tests.campaign.helpers import at_step, new_campaign, play_until, signed_in

pytestmark = pytest.mark.django_db


def disputed(cast: dict[str, Any]) -> Campaign:
    """A campaign with succession, corrected to its first winter's gather: Red Elves
    (alice) with two armies at home, Blue Dwarfs (bob) with one; the dice: Red's ruler dies
    (1) and the heir's die 2 (+1 for the capital: 3) disputes the claim; Blue's lives (3)."""
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
    data["inputs"], data["pending"], data["dice"] = {}, [], [1, 2, 3]
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
