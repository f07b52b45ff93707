"""The choices a player planning a winter is offered (campaign/rules/winter.py:
`purchase_choices`, `deploy_choices`): the same checks as the build and deploy steps
(rulings W5 and W7), on the casebook's winter board (Red's capital [0, 0])."""

from collections.abc import Sequence

from campaign.rules.fileformat import parse_campaign
from campaign.rules.state import Placement, Purchase, PurchaseKind
from campaign.rules.winter import deploy_choices, purchase_choices, supply
from tests.rules.casebook import Json, army, tile
from tests.rules.test_casebook_winter import building, deploying, recalled

VILLAGE, CITY, FORTRESS = PurchaseKind.VILLAGE, PurchaseKind.CITY, PurchaseKind.FORTRESS


type Key = tuple[PurchaseKind, tuple[int, int] | None, str | None, str | None]


def choices(data: Json, planned: Sequence[Purchase] = ()) -> dict[Key, str]:
    """Each choice and why it can't be made ("" if it can)."""
    found = purchase_choices(parse_campaign(data), "red", list(planned))
    return {
        (c.purchase.kind, c.purchase.hex, c.purchase.army, c.purchase.ally): c.reason or ""
        for c in found
    }


def test_w5_the_choices_are_what_fits_each_tile_with_the_reason_when_not():
    """Red has 1 gold and no food; it holds the capital [0, 0], an empty [1, 0], a village
    [0, 1] and a fortress [-1, 1] with its army red-1 in it. A village on [1, 0] can be
    built; a city needs food, a fortress 2 gold; there is no second capital; the capital
    is no port; an army can be raised at the fortress but not an allied one; red-1 can be
    disbanded."""
    data = building(
        {},
        tiles=[tile((1, 0), "red"), tile((0, 1), "red", "village"), tile((-1, 1), "red", "fortress")],
        armies=[army("red-1", (-1, 1))],
        gold=1,
    )  # fmt: skip
    found = choices(data)
    assert found[(VILLAGE, (1, 0), None, None)] == ""
    assert (
        found[(CITY, (0, 1), None, None)]
        == "It costs 1 gold and 1 food; red has 1 gold and 0 food."
    )
    assert "It costs 2 gold" in found[(FORTRESS, (0, 1), None, None)]
    assert "already has a capital" in found[(PurchaseKind.CAPITAL, (0, 0), None, None)]
    assert "not a city on the coast or a river" in found[(PurchaseKind.SHIP, (0, 0), None, None)]
    assert found[(PurchaseKind.ARMY, (-1, 1), None, None)] == ""
    assert "3 or more other armies" in found[(PurchaseKind.ARMY, (-1, 1), None, "allied")]
    assert found[(PurchaseKind.DISBAND, None, "red-1", None)] == ""
    assert (VILLAGE, (0, 1), None, None) not in found  # a village is built on an empty tile only


def test_w5_each_choice_carries_its_price_in_gold_and_food():
    """The prices of the rulebook's winter: a village 1 gold, a city 1 gold and 1 food, a
    fortress 2 gold, a ship 1 gold, an army 1 gold, naming a capital and disbanding free."""
    data = building(
        {},
        tiles=[tile((1, 0), "red"), tile((0, 1), "red", "village"), tile((-1, 1), "red", "fortress")],
        armies=[army("red-1", (-1, 1))],
    )  # fmt: skip
    prices = {
        c.purchase.kind: (c.gold, c.food) for c in purchase_choices(parse_campaign(data), "red", [])
    }
    assert prices == {
        VILLAGE: (1, 0),
        CITY: (1, 1),
        FORTRESS: (2, 0),
        PurchaseKind.CAPITAL: (0, 0),
        PurchaseKind.SHIP: (1, 0),
        PurchaseKind.ARMY: (1, 0),
        PurchaseKind.DISBAND: (0, 0),
    }


def test_w5_the_choices_follow_the_purchases_already_planned():
    """Red has 3 gold and plans a village on [1, 0] and an army at its fortress: the
    village made [1, 0] a place for a city or fortress, 2 gold are spent, and the
    fortress has raised its army this winter."""
    data = building({}, tiles=[tile((1, 0), "red"), tile((-1, 1), "red", "fortress")], gold=3)
    planned = [Purchase(VILLAGE, (1, 0)), Purchase(PurchaseKind.ARMY, (-1, 1))]
    found = choices(data, planned)
    assert (VILLAGE, (1, 0), None, None) not in found
    assert (
        found[(CITY, (1, 0), None, None)]
        == "It costs 1 gold and 1 food; red has 1 gold and 0 food."
    )
    assert "already raised an army" in found[(PurchaseKind.ARMY, (-1, 1), None, None)]
    assert found[(PurchaseKind.DISBAND, None, "red-1", None)] == ""  # the new army


def test_w7_the_choices_are_the_armies_to_place_and_the_room_left():
    """Red's 3 armies wait in the capital; it holds a village [1, 0] and a city [0, 1].
    With red-1 planned for the village, the village is full and red-2, red-3 wait."""
    data = deploying(
        recalled(3), tiles=[tile((1, 0), "red", "village"), tile((0, 1), "red", "city")]
    )
    state = parse_campaign(data)
    before = deploy_choices(state, "red", [])
    assert before.armies == ("red-1", "red-2", "red-3")
    assert dict(before.room) == {(0, 0): 3, (0, 1): 2, (1, 0): 1}
    after = deploy_choices(state, "red", [Placement("red-1", (1, 0))])
    assert after.armies == ("red-2", "red-3")
    assert dict(after.room) == {(0, 0): 3, (0, 1): 2, (1, 0): 0}


def test_m7_w1_the_supply_lines_are_the_tiles_connected_to_the_capital():
    """Red's capital [0, 0] with [1, 0] next to it, and [3, 0] apart: [3, 0] is cut off."""
    data = deploying(recalled(1), tiles=[tile((1, 0), "red"), tile((3, 0), "red", "fortress")])
    lines = supply(parse_campaign(data), "red")
    assert lines.base == (0, 0)
    assert lines.connected == {(0, 0), (1, 0)}
    assert lines.cut_off == {(3, 0)}
