"""The winter page: each kingdom's ledger, its tithes, purchases, feeding and
deployment written as lists that the engine judges as they are saved, a forecast from
the engine, and ready. Nobody sees another kingdom's lists."""

import copy
import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from campaign.display import winter as forecasting
from campaign.gazetteer import Names
from campaign.models import Campaign, Submission
from campaign.rules.engine import advance
from campaign.services import admin, advancing, common
from campaign.words import names_of
from tests.campaign.helpers import at_step, new_campaign, play_until, signed_in
from tests.conftest import campaign_made_once, played_to

pytestmark = pytest.mark.django_db


# The cast and a campaign played to its first winter's tithes, made once for the module.
made, cast, wintry = campaign_made_once(played_to("tithe"), name="wintry")


def url(campaign: Campaign) -> str:
    return reverse("campaign:winter", args=[campaign.slug])


def change(campaign: Campaign, kind: str, action: str) -> str:
    return reverse("campaign:winter_change", args=[campaign.slug, kind, action])


def seen(campaign: Campaign) -> int:
    return common.latest_snapshot(campaign).number


def post(client: Client, target: str, data: dict[str, Any]) -> str:
    response = client.post(target, data, follow=True)
    assert response.status_code == 200
    text: str = response.text
    return text


def refused(client: Client, target: str, data: dict[str, Any]) -> str:
    """A post no page sends: a 400, with the page and the words saying why."""
    response = client.post(target, data)
    assert response.status_code == 400
    text: str = response.text
    assert "Nothing was changed." in text
    return text


def draft(campaign: Campaign, kingdom: str, kind: str) -> Any:
    found = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, kind=kind, consumed_by=None
    ).first()
    return None if found is None else found.payload


def names(campaign: Campaign) -> Names:
    return names_of(common.latest_snapshot(campaign).data, campaign.gazetteer)


def test_the_player_reads_the_ledger_and_is_asked_for_tithes(client, cast, wintry):
    page = html.unescape(signed_in(client, cast["alice"]).get(url(wintry)).text)
    gathered = next(
        e for e in common.latest_snapshot(wintry).data["events"]
        if e["type"] == "gathered" and e["kingdom"] == "red-elves"
    )  # fmt: skip
    place = names(wintry).place
    harvest = ", ".join(
        f"{place(y['hex'])} {y['gold']} gold"
        if y["gold"]
        else f"{place(y['hex'])} {y['food']} food"
        for y in gathered["tiles"]
    )
    assert f"Gathered {gathered['gold']} gold and {gathered['food']} food: {harvest}." in page
    assert "Tithes" in page
    assert "Blue Dwarfs" in page
    assert "Forecast" in page


@pytest.mark.parametrize(("visitor", "status"), [("gm", 404), ("eve", 404), (None, 302)])
def test_nobody_but_a_player_has_a_winter_page(client, cast, wintry, visitor, status):
    if visitor:
        signed_in(client, cast[visitor])
    assert client.get(url(wintry)).status_code == status


def test_w4_a_gift_is_listed_forecast_and_hidden_from_the_other_kingdom(client, cast, wintry):
    page = post(
        signed_in(client, cast["alice"]), change(wintry, "tithes", "add"),
        {"to": "blue-dwarfs", "gold": "1", "seen": seen(wintry)},
    )  # fmt: skip
    assert draft(wintry, "red-elves", "tithes") == [{"to": "blue-dwarfs", "gold": 1, "food": 0}]
    assert "Red Elves gives Blue Dwarfs" in page  # the forecast
    bob_page = signed_in(client, cast["bob"]).get(url(wintry)).text
    assert "Red Elves gives Blue Dwarfs" not in bob_page
    assert "No gifts: you pass." in bob_page


def forecast_of(page: str) -> str:
    return page.split('id="forecast-title"', 1)[1].split("</section>", 1)[0]


def test_the_page_drawn_again_with_the_same_list_does_not_play_the_winter_again(
    client, cast, wintry, monkeypatch
):
    """The forecast is kept for the snapshot, the kingdom and its list (issue 37 point 2);
    a changed list is forecast anew (above), and each kingdom's apart (Bob's page does not
    show Alice's gift)."""
    played: list[str] = []

    def counted(data: Any, **flags: Any) -> Any:
        played.append(data["clock"]["step"])
        return advance(data, **flags)

    monkeypatch.setattr(forecasting, "advance", counted)
    alice = signed_in(client, cast["alice"])
    first = forecast_of(alice.get(url(wintry)).text)
    assert "Next summer you would have" in first
    before = len(played)
    assert forecast_of(alice.get(url(wintry)).text) == first
    assert len(played) == before


def test_w4_the_form_no_longer_offers_a_kingdom_already_given_to(client, cast, wintry):
    """Issue 35: the tithe form offered Blue Dwarfs again after a gift to it (W4: to each
    other kingdom at most once); given to every other kingdom, it says so instead."""
    alice = signed_in(client, cast["alice"])
    assert '<option value="blue-dwarfs">Blue Dwarfs</option>' in alice.get(url(wintry)).text
    page = post(
        alice, change(wintry, "tithes", "add"),
        {"to": "blue-dwarfs", "gold": "1", "seen": seen(wintry)},
    )  # fmt: skip
    assert '<option value="blue-dwarfs">' not in page
    assert 'name="to"' not in page
    assert "You give to every other kingdom once" in html.unescape(page)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"to": "red-elves", "gold": "1"}, "A kingdom can&#x27;t tithe to itself."),
        (
            {"to": "blue-dwarfs", "gold": "1", "seen": "1"},
            "The campaign has moved on since you looked",
        ),
    ],
)
def test_a_bad_gift_is_refused_with_a_message_and_nothing_saved(
    client, cast, wintry, data, message
):
    page = post(
        signed_in(client, cast["alice"]),
        change(wintry, "tithes", "add"),
        {"seen": seen(wintry), **data},
    )
    assert "Nothing was changed." in page
    assert message in page
    assert draft(wintry, "red-elves", "tithes") is None


def test_a_step_not_asked_is_refused(client, cast, wintry):
    data = {"purchase": json.dumps({"build": "village", "hex": [0, 0]}), "seen": seen(wintry)}
    page = post(signed_in(client, cast["alice"]), change(wintry, "purchases", "add"), data)
    assert "That is not asked of your kingdom now." in page
    assert draft(wintry, "red-elves", "purchases") is None


def ready_both(client: Client, cast: dict[str, User], campaign: Campaign, capture: Any) -> None:
    for name in ("alice", "bob"):
        with capture(execute=True):
            post(
                signed_in(client, cast[name]),
                reverse("campaign:winter_ready", args=[campaign.slug]),
                {"ready": "yes", "seen": seen(campaign)},
            )


def test_ready_with_no_list_passes_and_the_winter_moves_on(
    client, cast, wintry, eager_celery, django_capture_on_commit_callbacks
):
    ready_both(client, cast, wintry, django_capture_on_commit_callbacks)
    assert common.latest_snapshot(wintry).data["clock"]["step"] == "build"
    page = signed_in(client, cast["alice"]).get(url(wintry)).text
    assert "Build and recruit" in page
    assert "What you could add" in page


def test_w5_the_purchases_offered_are_the_engines_and_a_listed_one_is_forecast(
    client, cast, wintry, eager_celery, django_capture_on_commit_callbacks
):
    ready_both(client, cast, wintry, django_capture_on_commit_callbacks)
    page = signed_in(client, cast["alice"]).get(url(wintry)).text
    assert "already has a capital" in page  # an offer refused, with the engine's reason
    data = common.latest_snapshot(wintry).data
    village = next(
        t["hex"] for t in data["tiles"] if t["owner"] == "red-elves" and t["settlement"] is None
    )
    purchase = {"build": "village", "hex": village}
    assert json.dumps(purchase).replace('"', "&quot;") in page  # offered
    # where it is, in words: its name, and the way from the capital
    said = names(wintry)
    assert re.search(
        rf"Build a village, {said.settlement(village)}, {said.at(village)}: your tile [a-z-]+ of "
        r'your capital <span class="price">· 1 gold</span>',
        html.unescape(page),
    )
    page = post(
        client,
        change(wintry, "purchases", "add"),
        {"purchase": json.dumps(purchase), "seen": seen(wintry)},
    )
    assert draft(wintry, "red-elves", "purchases") == [purchase]
    assert f"A village is built at {said.settlement(village)}." in html.unescape(page)
    assert (
        f"Build a village, {said.settlement(village)}"
        not in signed_in(client, cast["bob"]).get(url(wintry)).text
    )
    page = post(
        signed_in(client, cast["alice"]),
        change(wintry, "purchases", "remove"),
        {"index": "0", "seen": seen(wintry)},
    )
    assert draft(wintry, "red-elves", "purchases") == []


@pytest.mark.parametrize("purchase", [json.dumps({"build": "palace", "hex": [0, 0]})])
def test_w5_a_forged_purchase_is_refused(
    client, cast, wintry, purchase, eager_celery, django_capture_on_commit_callbacks
):
    ready_both(client, cast, wintry, django_capture_on_commit_callbacks)
    page = post(
        signed_in(client, cast["alice"]),
        change(wintry, "purchases", "add"),
        {"purchase": purchase, "seen": seen(wintry)},
    )
    assert "Nothing was changed." in page
    assert draft(wintry, "red-elves", "purchases") is None


def test_w7_an_army_is_deployed_by_tapping_a_lit_settlement(
    client, cast, eager_celery, django_capture_on_commit_callbacks
):
    campaign = new_campaign(cast)
    data = play_until(
        campaign,
        cast,
        lambda d: any(p["kind"] == "deploy" and p["kingdom"] == "red-elves" for p in d["pending"]),
    )
    page = signed_in(client, cast["alice"]).get(url(campaign)).text
    army = next(
        p["armies"][0]
        for p in data["pending"]
        if p["kind"] == "deploy" and p["kingdom"] == "red-elves"
    )
    assert f"Tap a lit settlement to deploy {names(campaign).unit(army)}" in html.unescape(page)
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == "red-elves")
    hex_text = f"{capital[0]},{capital[1]}"
    assert f"&quot;hex&quot;: &quot;{hex_text}&quot;" in page  # the capital is lit
    post(
        client,
        change(campaign, "deploy", "add"),
        {"army": army, "hex": hex_text, "seen": seen(campaign)},
    )
    assert draft(campaign, "red-elves", "deploy") == [{"army": army, "hex": capital}]
    page = post(
        client,
        change(campaign, "deploy", "add"),
        {"army": army, "hex": hex_text, "seen": seen(campaign)},
    )
    assert "Nothing was changed." in page  # placed already


def test_w6_a_kingdom_short_of_food_chooses_which_armies_go_hungry(client, cast, wintry):
    campaign = wintry  # played to the tithe, as the test played its own
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    red = next(k for k in data["kingdoms"] if k["id"] == "red-elves")
    home = red["capital"]
    red.update(food=0, gold=0)
    data["armies"] = [
        *(a for a in data["armies"] if a["kingdom"] != "red-elves"),
        *(
            {
                "id": f"red-elves-{n}",
                "kingdom": "red-elves",
                "hex": home,
                "upright": True,
                "ally": None,
            }
            for n in (1, 9)
        ),
    ]
    data["clock"]["step"] = "feed"
    data["inputs"], data["pending"] = {}, []
    fixed = admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="hungry", data=data, what="test"
    )
    advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=fixed.number)
    page = signed_in(client, cast["alice"]).get(url(campaign)).text
    assert "Feed your armies" in page
    assert "You are 2 food short" in page
    post(client, change(campaign, "feed", "set"), {"army": "red-elves-1", "seen": seen(campaign)})
    assert draft(campaign, "red-elves", "feed") == {"disband": ["red-elves-1"]}
    page = html.unescape(client.get(url(campaign)).text)
    assert "Red Elves' 1st army goes hungry and is lost." in page
    assert 'value="red-elves-1" checked> Red Elves\' 1st army</label>' in page
    refused = html.unescape(
        post(
            client,
            change(campaign, "feed", "set"),
            {"army": "blue-dwarfs-1", "seen": seen(campaign)},
        )
    )
    assert "Nothing was changed." in refused
    assert "Blue Dwarfs' 1st army is not an army of Red Elves" in refused
    assert draft(campaign, "red-elves", "feed") == {"disband": ["red-elves-1"]}

    # Issue 26, point 2: the admin removes the army alice chose to go hungry; her page
    # says that what she decided no longer stands.
    admin.correct_army(
        campaign=campaign, actor=cast["gm"], reason="it never came", army="red-elves-1", hex=None
    )
    page = html.unescape(client.get(url(campaign)).text)
    assert "Part of what you decided no longer stands since the admin changed the state:" in page
    assert "Change it, then press Ready" in page


def test_the_report_of_a_winter_says_where_every_kingdom_stands(client, cast):
    campaign = new_campaign(cast)
    data = play_until(campaign, cast, lambda d: d["clock"]["year"] == 2)
    number = seen(campaign)
    page = (
        signed_in(client, cast["alice"])
        .get(reverse("campaign:report", args=[campaign.slug, number]))
        .text
    )
    assert "the winter of year 1" in page
    assert "Where the kingdoms stand" in page
    for score in data["scores"]:
        name = {"red-elves": "Red Elves", "blue-dwarfs": "Blue Dwarfs"}[score["kingdom"]]
        assert f"<td>{name}</td><td>{score['armies']}</td><td>{score['might']}</td>" in page


def test_m7_the_winter_map_outlines_the_supply_lines_and_names_the_tiles_cut_off(
    client, cast, wintry
):
    data = copy.deepcopy(common.latest_snapshot(wintry).data)
    capital = next(k["capital"] for k in data["kingdoms"] if k["id"] == "red-elves")
    land = {
        tuple(t["hex"])
        for t in data["map"]["tiles"]
        if t["terrain"] in ("plains", "forest", "mountains")
    }
    held = {tuple(t["hex"]) for t in data["tiles"]}
    far = next(
        h for h in sorted(land - held) if max(abs(h[0] - capital[0]), abs(h[1] - capital[1])) > 4
    )
    data["tiles"].append({"hex": list(far), "owner": "red-elves", "settlement": None})
    admin.campaign_correct(
        campaign=wintry, actor=cast["gm"], reason="an outpost", data=data, what="test"
    )
    page = html.unescape(signed_in(client, cast["alice"]).get(url(wintry)).text)
    assert f"cut off, in dashed red: {names(wintry).place(far)}." in page
    assert f'class="mark mark-cut-off" data-hex="{far[0]},{far[1]}"' in page
    assert f'class="mark mark-supplied" data-hex="{capital[0]},{capital[1]}"' in page


def test_a_winter_ready_from_a_tab_whose_list_has_changed_since_is_refused(client, cast, wintry):
    """alice's first tab shows no gifts; in a second tab she adds one. Ready from the first
    tab would give a gift she does not see there: refused, the list as it stands shown;
    Ready from the page drawn now goes through."""
    signed_in(client, cast["alice"])
    first_tab = client.get(url(wintry)).text
    post(
        client,
        change(wintry, "tithes", "add"),
        {"to": "blue-dwarfs", "gold": "1", "seen": seen(wintry)},
    )
    ready = reverse("campaign:winter_ready", args=[wintry.slug])
    page = post(client, ready, {"ready": "yes", "seen": seen(wintry), "draft": drawn(first_tab)})
    assert "Your decisions changed in another tab or window" in page
    assert "Red Elves gives Blue Dwarfs" in page
    assert not Submission.objects.get(kingdom="red-elves", consumed_by=None).ready
    post(client, ready, {"ready": "yes", "seen": seen(wintry), "draft": drawn(page)})
    assert Submission.objects.get(kingdom="red-elves", consumed_by=None).ready


def drawn(page: str) -> str:
    """The digest of the decisions the page's Ready form was drawn with."""
    found = re.search(r'name="draft" value="([0-9a-f]*)"', page)
    assert found is not None
    return found.group(1)


def test_after_ready_the_page_follows_the_winter_as_it_moves_on(client, cast, wintry):
    """alice is ready, bob not: her page says so and polls slowly. Once bob is ready too
    (the advance queued, not yet landed), his page says the winter is moving on and asks
    every two seconds whether it has, to show the purchases without a reload."""
    ready = reverse("campaign:winter_ready", args=[wintry.slug])
    moved_on = f"{reverse('campaign:moved_on', args=[wintry.slug])}?seen={seen(wintry)}"
    page = post(signed_in(client, cast["alice"]), ready, {"ready": "yes", "seen": seen(wintry)})
    assert "You are ready: the winter moves on once every kingdom is" in page
    assert f'hx-get="{moved_on}" hx-trigger="every 10s, shown from:document"' in page
    page = post(signed_in(client, cast["bob"]), ready, {"ready": "yes", "seen": seen(wintry)})
    assert "Every kingdom is ready: the winter is moving on" in page
    assert f'hx-get="{moved_on}" hx-trigger="every 2s, shown from:document"' in page


def test_a_refusal_names_the_kingdoms_by_their_names_not_their_ids(client, cast, wintry):
    signed_in(client, cast["alice"])
    gift = {"to": "blue-dwarfs", "gold": "1", "seen": seen(wintry)}
    post(client, change(wintry, "tithes", "add"), gift)
    page = post(client, change(wintry, "tithes", "add"), {**gift, "seen": seen(wintry)})
    assert "Red Elves may tithe to Blue Dwarfs only once each winter." in page
    assert "red-elves may" not in page


def test_w5_a_purchase_is_chosen_by_tapping_its_tile_on_the_map(
    client, cast, wintry, eager_celery, django_capture_on_commit_callbacks
):
    """Each tile where something could be bought is lit on the map; tapping one shows, under
    the map, what could go there, and its button adds it to the list."""
    ready_both(client, cast, wintry, django_capture_on_commit_callbacks)
    page = signed_in(client, cast["alice"]).get(url(wintry)).text
    lit = re.findall(r'<a href="\?at=(-?\d+),(-?\d+)#here" class="pick pick-target"', page)
    assert lit
    q, r = lit[0]
    here = client.get(url(wintry), {"at": f"{q},{r}"}).text
    section = here[here.index('id="here"') :]
    section = section[: section.index("</div>")]
    assert f"What you could add at {names(wintry).place([int(q), int(r)], picking=True)}" in section
    offered = re.findall(r'name="purchase" value="([^"]+)"', section)
    assert offered
    purchase = json.loads(html.unescape(offered[0]))
    assert purchase["hex"] == [int(q), int(r)]
    post(
        client,
        change(wintry, "purchases", "add"),
        {"purchase": json.dumps(purchase), "seen": seen(wintry)},
    )
    assert draft(wintry, "red-elves", "purchases") == [purchase]


@pytest.mark.parametrize(
    "stale",
    [{}, {"seen": "abc"}, {"seen": "9" * 5000}, {"seen": "0"}],
    ids=["none", "letters", "5000 digits", "zero"],
)
def test_a_winter_post_without_the_page_it_was_drawn_on_is_refused_in_words(
    client, cast, wintry, stale
):
    signed_in(client, cast["alice"])
    gift = {"to": "blue-dwarfs", "gold": "1", "food": "0", **stale}
    page = refused(client, change(wintry, "tithes", "add"), gift)
    assert "Nothing was changed. This page is out of date: reload it and decide again." in page
    ready = reverse("campaign:winter_ready", args=[wintry.slug])
    page = refused(client, ready, {"ready": "yes", **stale})
    assert "This page is out of date" in page
    assert draft(wintry, "red-elves", "tithes") is None  # nothing saved


@pytest.mark.parametrize(
    "purchase",
    [
        "not json",
        json.dumps(["a list"]),
        "[" * 20_000 + "]" * 20_000,
        '{"build": "village", "hex": [' * 2_000 + "0" + "]}" * 2_000,
        '{"build": "village", "hex": [' + "9" * 5_000 + ", 0]}",
        '{"recruit": "spearmen", "ally": "' + "x" * 5_000 + '"}',
    ],
    ids=[
        "not json",
        "a list",
        "nested 20,000 deep",
        "objects nested 2,000 deep",
        "5,000 digits",
        "5,000 letters",
    ],
)
def test_a_purchase_no_page_sends_is_a_400_in_words_and_saves_nothing(
    client, cast, wintry, purchase, eager_celery, django_capture_on_commit_callbacks
):
    """Issue 26, point 5: these were server errors (RecursionError, ValueError)."""
    ready_both(client, cast, wintry, django_capture_on_commit_callbacks)
    page = refused(
        signed_in(client, cast["alice"]),
        change(wintry, "purchases", "add"),
        {"purchase": purchase, "seen": seen(wintry)},
    )
    assert "Choose a purchase." in page
    assert draft(wintry, "red-elves", "purchases") is None


@pytest.mark.parametrize(
    ("kind", "action", "body"),
    [
        ("tithes", "remove", {"index": "9" * 5_000}),
        ("tithes", "add", {"to": "blue-dwarfs", "gold": "2", "food": "0"}),
        ("tithes", "add", {"to": "blue-dwarfs", "gold": "1" * 5_000, "food": "0"}),
        ("tithes", "up", {"index": "-" + "9" * 5_000}),
    ],
    ids=["index of 5,000 digits", "gold 2", "gold of 5,000 digits", "index of -5,000 digits"],
)
def test_a_huge_number_in_a_winter_post_is_a_400_in_words(client, cast, wintry, kind, action, body):
    signed_in(client, cast["alice"])
    refused(client, change(wintry, kind, action), {**body, "seen": seen(wintry)})
    assert draft(wintry, "red-elves", "tithes") is None


def test_a_winter_ready_refused_after_its_list_was_given_leaves_nothing_given(
    client, cast, wintry, monkeypatch
):
    """Ready gives the list the page shows (empty here) and marks it ready in one
    transaction: when the second half is refused, the first is undone with it."""

    def refused(*args: Any, **kwargs: Any) -> None:
        raise common.ServiceError("The campaign could not move on.", code="refused")

    monkeypatch.setattr("campaign.services.submissions.advance_when_ready", refused)
    signed_in(client, cast["alice"])
    ready = reverse("campaign:winter_ready", args=[wintry.slug])
    page = post(client, ready, {"ready": "yes", "seen": seen(wintry)})
    assert "Nothing was changed. The campaign could not move on." in page
    assert draft(wintry, "red-elves", "tithes") is None


def test_out_of_winter_the_page_says_where_the_campaign_is_and_links_there(cast):
    """Issue 35: a campaign of three summer months was told "winter comes after the sixth
    summer month"; the page says which month it is of how many, and links to the orders."""
    campaign = new_campaign(cast, options={"months": 3})
    alice = signed_in(Client(), cast["alice"])
    page = html.unescape(alice.get(url(campaign)).text)
    assert "It is not winter: the kingdoms are being set up." in page
    play_until(campaign, cast, at_step("orders"))
    page = html.unescape(alice.get(url(campaign)).text)
    assert "It is not winter: it is month 1 of 3 of the summer of year 1" in page
    orders = reverse("campaign:orders", args=[campaign.slug])
    assert f'<a href="{orders}">The summer\'s orders</a>' in page
    assert "sixth" not in page
