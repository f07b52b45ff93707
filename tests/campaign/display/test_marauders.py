"""Option marauders (OW1 to OW8) as every viewer sees it: on the map, each band in the
horde's colour with this month's order drawn as an arrow before anyone orders, a tap on it
saying what it will do and toward which settlement, a band just arrived near a kingdom's
settlements said so; the legend's lines; nothing of it with the option off. Its events in
words, with every die; its line on the battle card."""

import re
from typing import Any

from campaign.display import events
from campaign.display.mapsvg.geometry import centre
from campaign.display.mapsvg.legend import legend_items
from campaign.display.mapsvg.render import render_map
from campaign.display.optional.card import Fought
from campaign.display.optional.marauders import CARD_PART, marked, news, raids
from campaign.display.svg import coordinate
from campaign.gazetteer import Names
from campaign.rules.engine import advance
from tests.rules.casebook import tile
from tests.rules.test_casebook_marauders import HOMES, horde, opening


def raiding() -> dict[str, Any]:
    """Month 2 opened: m-1 at [4, 0] ordered toward Red's village [2, 0]; a band of one
    (m-2) arrived at the opening on the first unexplored tile, two steps from the village."""
    tiles = [*HOMES, tile((2, 0), "red", "village"), tile((4, -2), "blue", "city")]
    data = opening(tiles=tiles, marauders=[horde("m-1", (4, 0))], dice=[6, 1, 1, 1])
    return advance(data)


def test_each_band_is_drawn_with_its_order_as_an_arrow_before_anyone_orders():
    data = raiding()
    drawn = render_map(data, kingdoms={})

    assert drawn.count('class="marauder-band"') == 2
    arrows = re.findall(r'<line class="raid" x1="([^"]+)" y1="([^"]+)"', drawn)
    assert (coordinate(centre((4, 0))[0]), coordinate(centre((4, 0))[1])) in arrows
    assert ((4, 0), (3, 0)) in raids(data)


def test_a_tap_on_a_band_says_what_it_will_do_and_toward_which_settlement():
    said = marked(raiding())

    assert said[(4, 0)] == (
        "1 marauder army of Orcs (option OW1): will move to [3, 0], toward the village at "
        "[2, 0], the nearest settlement"
    )


def test_a_band_arrived_this_month_near_a_kingdoms_settlements_is_ringed_and_said_so():
    """The band that landed at the opening, far from everyone, is said to have arrived; one
    landing at [2, 1], beside Red's village [2, 0], is ringed and its words name Red."""
    data = raiding()
    (arrived,) = [e for e in data["events"] if e["type"] == "marauders-arrived"]
    far = (arrived["hex"][0], arrived["hex"][1])
    assert "arrived this month" in marked(data)[far]
    assert far not in news(data)
    data["events"].append({**arrived, "armies": ["m-3"], "hex": [2, 1]})
    data["marauder_armies"].append({"id": "m-3", "hex": [2, 1], "upright": True, "order": None})

    assert news(data) == {(2, 1)}
    assert "within 3 steps of the settlements of Blue and Red" in marked(data)[(2, 1)]
    drawn = render_map(data, kingdoms={})
    assert drawn.count('class="marauders-arrived"') == 1


def test_with_the_option_off_nothing_of_the_horde_is_drawn():
    data = raiding()
    on = data["options"]
    data["options"] = {k: v for k, v in on.items() if "marauder" not in k}
    assert "marauder-band" not in render_map(data, kingdoms={})
    assert not any(item.label.startswith("Marauders") for item in legend_items())
    assert any(item.label.startswith("Marauders") for item in legend_items(on))


def test_the_horde_s_events_are_told_with_every_die():
    data = raiding()
    names = Names({"red": "Red Elves", "blue": "Blue Dwarfs"})
    arrived = next(e for e in data["events"] if e["type"] == "marauders-arrived")
    line = events.describe(arrived, names)

    assert line.text.startswith("A band of 1 marauder army arrived ")
    assert line.text.endswith(": the 2nd marauder army.")
    assert [roll.value for roll in line.rolls] == arrived["dice"]
    ordered = next(e for e in data["events"] if e["type"] == "marauder-orders")
    assert events.describe(ordered, names).text.startswith(
        "The marauders' orders this month: the 1st marauder army moves to "
    )


def test_plunder_is_told_and_named_in_the_gathering():
    names = Names({"red": "Red Elves"})
    plundered = {
        "year": 1, "season": "summer", "month": 2, "step": "battles", "type": "plundered",
        "kingdom": "red", "hex": [1, 0], "gold": 2,
    }  # fmt: skip
    assert events.describe(plundered, names).text.startswith("Red Elves plundered 2 gold")
    gathered = {
        "year": 1, "season": "winter", "month": 0, "step": "gather", "type": "gathered",
        "kingdom": "red", "gold": 4, "food": 0, "tiles": [],
        "gains": [{"source": "plunder", "gold": 2, "food": 0}],
    }  # fmt: skip
    assert events.describe(gathered, names).text.endswith("; plunder from the marauders 2 gold.")


def test_the_card_says_what_the_horde_fields():
    horde_side = {"kingdom": "marauders", "armies": ["m-1", "m-2"], "strategy_cards": 0}
    red_side = {"kingdom": "red", "armies": ["red-1"], "strategy_cards": 0}
    fought = Fought([red_side, horde_side], {}, tabletop=True, names={})
    assert CARD_PART.side_note is not None

    note = CARD_PART.side_note(fought, horde_side)

    assert note is not None
    assert note.text.startswith("2 marauder armies of 500 points each, of the marauders' race")
    assert CARD_PART.side_note(fought, red_side) is None
