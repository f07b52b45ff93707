"""The choices offered to a player for one unit (`order_choices`) are exactly the orders
the engine accepts: rulings O3 (who may do what), M3 (where a unit may go) and O8 (boarding)."""

import random
from itertools import islice

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.rules.engine import advance
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import parse_campaign
from campaign.rules.mapgen import generate_map
from campaign.rules.orders import OrderChoices, order_choices
from campaign.rules.simulation import campaign_files, new_campaign
from campaign.rules.state import OrderKind
from tests.rules.casebook import Json, army, make_map, position, ship, tile


def choices(data: Json, unit_id: str) -> OrderChoices:
    return order_choices(parse_campaign(data), unit_id)


def test_o3_an_upright_army_may_move_to_its_enterable_neighbours_defend_or_raze_its_settlement():
    """Red's army on its city at [0, 0]; [1, 0] is marsh, [0, 1] across a water edge, the rest
    plains. It may move to the four others, Defend, or Raze (it stands on a settlement)."""
    data = position(
        map=make_map(2, terrain={(1, 0): "marsh"}, water_edges=[((0, 0), (0, 1))]),
        tiles=[tile((0, 0), "red", "city")],
        armies=[army("red-1", (0, 0))],
    )
    offered = choices(data, "red-1")
    assert sorted(offered.moves) == sorted([(1, -1), (0, -1), (-1, 0), (-1, 1)])
    assert offered.orders == (OrderKind.DEFEND, OrderKind.RAZE)
    assert offered.carry == ()


def test_o3_an_army_off_a_settlement_may_not_raze():
    data = position(tiles=[tile((0, 0), "red")], armies=[army("red-1", (0, 0))])
    assert choices(data, "red-1").orders == (OrderKind.DEFEND,)


def test_o3_a_unit_on_its_side_may_only_regroup():
    data = position(
        tiles=[tile((0, 0), "red", "village")], armies=[army("red-1", (0, 0), upright=False)]
    )
    offered = choices(data, "red-1")
    assert offered.moves == ()
    assert offered.orders == (OrderKind.REGROUP,)


def test_o8_a_ship_may_sail_stay_and_carry_the_upright_army_in_its_tile():
    """A ship on the coast at [0, 0] with red-1 beside it (upright) and red-2 on its side:
    it may carry red-1 only, never Defend, and sails only into water it may enter (M3)."""
    coast = [(0, 0), (1, 0), (1, -1)]
    data = position(
        map=make_map(2, terrain={(2, -1): "ocean", (2, -2): "ocean"}, coast=coast),
        tiles=[tile((0, 0), "red", "city")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0), upright=False)],
        ships=[ship("red-s1", (0, 0))],
    )
    offered = choices(data, "red-s1")
    assert sorted(offered.moves) == [(1, -1), (1, 0)]
    assert OrderKind.DEFEND not in offered.orders
    assert OrderKind.STAY in offered.orders
    assert offered.carry == ("red-1",)


def _at_orders(seed: int, months: int) -> Json:
    """The campaign file at the orders step of the month `months` after the first, played
    by bots on a random map."""
    hexmap = generate_map(3, seed, 120)
    files = campaign_files(new_campaign(3, seed, hexmap), random.Random(seed), hexmap)
    at_orders = (data for data in files if data["clock"]["step"] == "orders")
    return next(islice(at_orders, months, None))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), months=st.integers(0, 14))
def test_o3_every_order_offered_is_accepted_and_every_other_refused(seed, months):
    """On random positions reached by bots, for every unit asked for an order: each offered
    order is accepted by the engine, and every neighbour not offered is refused."""
    data = _at_orders(seed, months)
    campaign = parse_campaign(data)
    for pending in data["pending"]:
        for unit_id in pending.get("units", []):
            offered = order_choices(campaign, unit_id)
            unit = campaign.armies.get(unit_id) or campaign.ships[unit_id]
            for to in campaign.map.neighbours(unit.hex):
                given = {"unit": unit_id, "order": "move", "to": list(to)}
                assert _accepted(data, pending["kingdom"], given) == (to in offered.moves)
            for kind in OrderKind:
                if kind is not OrderKind.MOVE:
                    given = {"unit": unit_id, "order": kind.value}
                    assert _accepted(data, pending["kingdom"], given) == (kind in offered.orders)


def _accepted(data: Json, kingdom: str, given: Json) -> bool:
    trial = {**data, "inputs": {"orders": {kingdom: [given]}}}
    try:
        advance(trial)
    except RuleError:
        return False
    return True


@pytest.mark.parametrize("unit_id", ["nobody-1"])
def test_an_unknown_unit_is_a_key_error(unit_id):
    data = position(tiles=[tile((0, 0), "red")], armies=[army("red-1", (0, 0))])
    with pytest.raises(KeyError):
        choices(data, unit_id)
