"""Option roads (OW9 to OW11) on the players' pages: the winter page buys a road by tapping
its two tiles or by choosing them from lists, judged at once (the engine's refusal, or the
page's for tiles not the kingdom's or a road there already, in words, nothing saved) and
forecast (a road built, or skipped for want of gold, in words); another kingdom cannot buy
one on your land; the orders page says a move along a road is spared the terrain; the
new-campaign form offers the option and the rules page tells it."""

import copy
import html
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from campaign.models import Campaign, Submission
from campaign.rules.hexmap import Hex, distance, map_from_json
from campaign.services import admin, common
from campaign.words import names_of
from tests.campaign.helpers import at_step, new_campaign, play_until, signed_in
from tests.conftest import campaign_made_once, played_to

pytestmark = pytest.mark.django_db

# A campaign with roads, played to its first winter's purchases, made once for the module.
made, cast, roady = campaign_made_once(played_to("build", roads=True), name="roady")

RED = "red-elves"


def page_of(client: Client, campaign: Campaign, **query: str) -> str:
    return html.unescape(client.get(reverse("campaign:winter", args=[campaign.slug]), query).text)


def add(campaign: Campaign) -> str:
    return reverse("campaign:winter_change", args=[campaign.slug, "purchases", "add"])


def seen(campaign: Campaign) -> int:
    return common.latest_snapshot(campaign).number


def listed(campaign: Campaign, kingdom: str = RED) -> Any:
    found = Submission.objects.filter(
        campaign=campaign, kingdom=kingdom, kind="purchases", consumed_by=None
    ).first()
    return None if found is None else found.payload


def tiles_of(campaign: Campaign, kingdom: str = RED) -> list[Hex]:
    data = common.latest_snapshot(campaign).data
    return sorted((t["hex"][0], t["hex"][1]) for t in data["tiles"] if t["owner"] == kingdom)


def joined(campaign: Campaign) -> tuple[Hex, Hex]:
    """Two of red's tiles next to each other, with no water between them."""
    data = common.latest_snapshot(campaign).data
    hexmap, own = map_from_json(data["map"]), tiles_of(campaign)
    return next(
        (a, b)
        for a in own
        for b in own
        if a < b and distance(a, b) == 1 and not hexmap.is_water_edge(a, b)
    )


def tile(h: Hex) -> str:
    return f"{h[0]},{h[1]}"


def place(campaign: Campaign, h: Hex) -> str:
    return names_of(common.latest_snapshot(campaign).data, campaign.gazetteer).place(
        h, picking=True
    )


def said(campaign: Campaign, h: Hex) -> str:
    """A tile as an engine's message names it."""
    return names_of(common.latest_snapshot(campaign).data, campaign.gazetteer).place(h)


def forecast_of(page: str) -> str:
    return page[page.index('id="forecast-title"') :]


def corrected(campaign: Campaign, gm: Any, change: Any) -> None:
    """The admin's correction of the newest file by `change(data)`."""
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    change(data)
    admin.campaign_correct(campaign=campaign, actor=gm, reason="the scene", data=data, what="test")


def test_ow9_a_road_is_bought_by_tapping_its_start_then_its_end_on_the_map(client, cast, roady):
    """The kingdom's tiles a road may start from are lit; a tap on one (`?at=`) lights the
    tiles next to it, each posting the road at once (htmx), with a button under the map for
    each; the road is listed and forecast."""
    page = page_of(signed_in(client, cast["alice"]), roady)
    starts = re.findall(r'<a href="\?at=(-?\d+),(-?\d+)#here" class="pick', page)
    a, b = joined(roady)
    assert (str(a[0]), str(a[1])) in starts
    raw = client.get(reverse("campaign:winter", args=[roady.slug]), {"at": tile(a)}).text
    here = html.unescape(raw)
    assert f"A road from {place(roady, a)}" in here
    ends = re.findall(r'<a hx-post="[^"]+" hx-vals="([^"]+)"[^>]*data-hex="([^"]+)"', raw)
    tapped = {h: json.loads(json.loads(html.unescape(vals))["purchase"]) for vals, h in ends}
    road = {"build": "road", "hex": list(a), "to": list(b)}
    assert tapped[tile(b)] == road
    assert f"Build a road from {place(roady, a)} to {place(roady, b)}" in here  # its button

    response = client.post(
        add(roady), {"purchase": json.dumps(road), "seen": seen(roady)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code in (200, 302)
    assert listed(roady) == [road]
    page = page_of(client, roady)
    said = f"A road is built from {place(roady, a)} to {place(roady, b)} (1 gold)."
    assert said in forecast_of(page)


def test_ow9_without_javascript_the_two_tiles_are_chosen_from_lists_of_the_kingdoms(
    client, cast, roady
):
    page = page_of(signed_in(client, cast["alice"]), roady)
    form = page[page.index('id="roads-title"') :]
    form = form[: form.index("</form>")]
    assert set(re.findall(r'<option value="(-?\d+,-?\d+)"', form)) == {
        tile(h) for h in tiles_of(roady)
    }
    a, b = joined(roady)
    client.post(
        add(roady),
        {"purchase": '{"build": "road"}', "hex": tile(b), "to": tile(a), "seen": seen(roady)},
    )
    assert listed(roady) == [{"build": "road", "hex": list(b), "to": list(a)}]
    assert "A road is built from" in forecast_of(page_of(client, roady))


def refusal(client: Client, campaign: Campaign, body: dict[str, str]) -> str:
    """A post refused: the page again, with the words, and the list as it was."""
    before = listed(campaign)
    response = client.post(add(campaign), {**body, "seen": seen(campaign)}, follow=True)
    assert response.status_code in (200, 400)
    assert listed(campaign) == before
    page = html.unescape(response.text)
    assert "Nothing was changed." in page
    return page


def test_ow9_a_road_the_rules_refuse_is_refused_in_words_and_nothing_is_saved(client, cast, roady):
    signed_in(client, cast["alice"])
    own, blue = tiles_of(roady), tiles_of(roady, "blue-dwarfs")
    far = next((a, b) for a in own for b in own if distance(a, b) > 1)
    road = '{"build": "road"}'
    words = "A road joins two adjacent tiles armies may enter"
    page = refusal(client, roady, {"purchase": road, "hex": tile(far[0]), "to": tile(far[1])})
    assert f"{words}: {said(roady, far[0])} and {said(roady, far[1])} are not." in page
    page = refusal(client, roady, {"purchase": road, "hex": tile(own[0]), "to": tile(blue[0])})
    assert "are not both yours (option OW9)." in page
    page = refusal(client, roady, {"purchase": road, "hex": tile(own[0]), "to": "99,99"})
    assert "are not both yours" in page
    page = refusal(client, roady, {"purchase": road, "hex": tile(own[0]), "to": "a,b"})
    assert "Choose a tile." in page
    assert listed(roady) is None


def test_ow9_a_road_across_water_or_built_already_is_refused_in_words(client, cast, roady):
    """Red is given the far side of a water edge, and a road between two of its tiles."""
    data = common.latest_snapshot(roady).data
    hexmap = map_from_json(data["map"])
    a, b = sorted(next(iter(hexmap.water_edges)))
    built = joined(roady)

    def scene(data: Any) -> None:
        data["tiles"] = [t for t in data["tiles"] if tuple(t["hex"]) not in (a, b)]
        data["tiles"] += [{"hex": list(h), "owner": RED, "settlement": None} for h in (a, b)]
        data["roads"] = [[list(built[0]), list(built[1])]]

    corrected(roady, cast["gm"], scene)
    signed_in(client, cast["alice"])
    page = refusal(client, roady, {"purchase": '{"build": "road"}', "hex": tile(a), "to": tile(b)})
    assert f"A road never crosses water: {said(roady, a)} and {said(roady, b)} are parted" in page
    road = {"build": "road", "hex": list(built[1]), "to": list(built[0])}
    page = refusal(client, roady, {"purchase": json.dumps(road)})
    assert f"A road joins {place(roady, built[1])} and {place(roady, built[0])} already" in page
    # and a tap never offers it: the road's start lights no second tap on its other end
    here = page_of(client, roady, at=tile(built[0]))
    assert not re.search(rf'<a hx-post[^>]*data-hex="{tile(built[1])}"', here)


def test_ow9_a_road_listed_twice_is_refused_and_one_without_the_gold_is_skipped_in_words(
    client, cast, roady
):
    def poor(data: Any) -> None:
        next(k for k in data["kingdoms"] if k["id"] == RED)["gold"] = 0

    corrected(roady, cast["gm"], poor)
    a, b = joined(roady)
    road = {"build": "road", "hex": list(a), "to": list(b)}
    signed_in(client, cast["alice"])
    client.post(add(roady), {"purchase": json.dumps(road), "seen": seen(roady)})
    assert listed(roady) == [road]
    forecast = forecast_of(page_of(client, roady))
    skipped = f"Skipped: Build a road from {place(roady, a)} to {place(roady, b)}: "
    assert f"{skipped}Red Elves has not the gold for a road." in forecast
    page = refusal(client, roady, {"purchase": json.dumps(road)})
    assert "Your list builds the road between" in page


def test_ow9_another_kingdom_cannot_buy_a_road_on_your_land(client, cast, roady):
    """bob lists a road between two of alice's tiles: refused, nothing in either list."""
    a, b = joined(roady)
    signed_in(client, cast["bob"])
    road = {"build": "road", "hex": list(a), "to": list(b), "kingdom": RED}
    page = refusal(client, roady, {"purchase": json.dumps(road)})
    assert "are not both yours" in page
    assert listed(roady, "blue-dwarfs") is None
    assert listed(roady) is None


def test_ow11_the_orders_page_says_a_move_along_a_road_is_spared_the_terrain(client, cast):
    campaign = new_campaign(cast, options={"roads": True})
    play_until(campaign, cast, at_step("orders"))
    data = common.latest_snapshot(campaign).data
    army = next(a for a in data["armies"] if a["kingdom"] == RED)
    start = (army["hex"][0], army["hex"][1])
    hexmap = map_from_json(data["map"])
    end = next(h for h in hexmap.neighbours(start) if hexmap.army_may_move(start, h))
    corrected(
        campaign, cast["gm"], lambda d: d.__setitem__("roads", [sorted([list(start), list(end)])])
    )

    orders = reverse("campaign:orders", args=[campaign.slug])
    signed_in(client, cast["alice"])
    page = html.unescape(client.get(orders, {"unit": army["id"]}).text)
    march = "along the road: spared the terrain (option OW11)"
    assert f"{place(campaign, end)}, " in page
    assert re.search(rf"{re.escape(place(campaign, end))}, [a-z]+[^<]*, {re.escape(march)}", page)
    client.post(
        reverse("campaign:orders_give", args=[campaign.slug]),
        {"unit": army["id"], "order": "move", "to": tile(end), "seen": seen(campaign)},
    )
    page = html.unescape(client.get(orders).text)
    sequence = page[page.index("Resolution sequence") :]
    assert f"Move to {said(campaign, end)}, {march}" in sequence


def test_the_new_campaign_form_offers_roads_and_the_rules_page_tells_them(client, cast):
    rules = html.unescape(client.get(reverse("campaign:rules")).text)
    assert 'id="ruling-ow9"' in rules
    form = html.unescape(signed_in(client, cast["gm"]).get(reverse("campaign:new")).text)
    assert 'name="roads"' in form
    assert "Roads and trade" in form
