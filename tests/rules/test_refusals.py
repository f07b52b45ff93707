"""The refusal paths: every error code the engine can give, each with a case that
triggers it, the field it names, and (where a unit is at fault) the unit."""

import copy
import re
from pathlib import Path

import pytest

from campaign.rules.dice import Dice
from tests.rules.casebook import (
    army,
    make_map,
    move,
    order,
    position,
    refusal,
    ship,
    tile,
)

ENGINE = Path(__file__).resolve().parents[2] / "campaign"
COAST = make_map(
    3,
    terrain={(3, -3): "ocean", (3, -2): "ocean", (3, -1): "ocean", (3, 0): "ocean"},
    coast=[(2, 0), (2, -1)],
)


def home() -> list[dict[str, object]]:
    return [tile((0, 0), "red", "city"), tile((2, 0), "blue", "city")]


def with_(data: dict[str, object], path: str, value: object) -> dict[str, object]:
    """A deep copy of the file with one value replaced (path like 'armies.0.hex')."""
    data = copy.deepcopy(data)
    *parents, last = path.split(".")
    target: object = data
    for key in parents:
        target = target[int(key)] if isinstance(target, list) else target[key]  # type: ignore[index]
    if isinstance(target, list):
        target[int(last)] = value
    else:
        target[last] = value  # type: ignore[index]
    return data


BASE = position(armies=[army("red-1", (0, 0)), army("blue-1", (2, 0))], tiles=home())


# --- malformed files -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "code", "field"),
    [
        (lambda d: with_(d, "clock.year", "one"), "wrong-type", "clock.year"),
        (lambda d: with_(d, "armies.0.upright", 1), "wrong-type", "armies[0].upright"),
        (lambda d: with_(d, "armies.0.colour", "red"), "unknown-field", "armies[0].colour"),
        (lambda d: with_(d, "surprise", True), "unknown-field", "surprise"),
        (lambda d: {k: v for k, v in d.items() if k != "clock"}, "missing-field", "clock"),
        (lambda d: with_(d, "options.years", 0), "out-of-range", "options.years"),
        (lambda d: with_(d, "armies.0.hex", [0, True]), "bad-hex", "armies[0].hex"),
        (lambda d: with_(d, "armies.0.hex", [0]), "bad-hex", "armies[0].hex"),
        (lambda d: with_(d, "options.orders", "shouted"), "unknown-value", "options.orders"),
        (lambda d: with_(d, "format", 2), "unknown-format", "format"),
        (lambda d: with_(d, "clock.step", "deploy"), "bad-clock", "clock.step"),
        (lambda d: with_(d, "clock.month", 0), "bad-clock", "clock.month"),
        (lambda d: with_(d, "tiles.1.hex", [0, 0]), "duplicate-hex", "tiles[1].hex"),
        (lambda d: with_(d, "armies.1.id", "red-1"), "duplicate-id", "armies[1]"),
        (lambda d: with_(d, "armies.0.kingdom", "green"), "unknown-kingdom", "armies[0].kingdom"),
        (lambda d: with_(d, "dice", [1, 7]), "out-of-range", "dice[1]"),
    ],
)
def test_a_malformed_file_is_refused_naming_the_field(change, code, field):
    """Each way of breaking the format has its code, and the refusal names the field."""
    refused = refusal(change(BASE))
    assert (refused.code, refused.field) == (code, field)
    assert refused.message


def test_the_file_must_be_an_object():
    refused = refusal([1, 2, 3])  # type: ignore[arg-type]
    assert refused.code == "wrong-type"


def test_a_campaign_has_two_to_eight_kingdoms():
    refused = refusal(position(kingdoms=("red",)))
    assert (refused.code, refused.field) == ("kingdom-count", "kingdoms")


def test_player_order_names_every_standing_kingdom_once():
    refused = refusal(position(player_order=("red", "red")))
    assert (refused.code, refused.field) == ("bad-player-order", "player_order")


# --- impossible states -------------------------------------------------------------


def test_m4_an_ocean_tile_is_never_controlled():
    refused = refusal(position(map=COAST, tiles=[tile((3, 0), "red")]))
    assert (refused.code, refused.field) == ("ocean-owned", "tiles[0].hex")


def test_a_tile_off_the_map_is_refused():
    refused = refusal(position(tiles=[tile((9, 9), "red")]))
    assert refused.code == "off-map"


def test_a_unit_off_the_map_is_refused_naming_it():
    refused = refusal(position(armies=[army("red-1", (9, 9))]))
    assert (refused.code, refused.field, refused.unit) == ("off-map", "armies[0].hex", "red-1")


def test_m3_an_army_on_open_water_is_refused():
    refused = refusal(position(map=COAST, armies=[army("red-1", (3, 0))]))
    assert (refused.code, refused.unit) == ("cannot-stand-here", "red-1")


def test_m3_an_army_in_a_marsh_is_refused():
    refused = refusal(
        position(map=make_map(2, terrain={(1, 0): "marsh"}), armies=[army("red-1", (1, 0))])
    )
    assert (refused.code, refused.unit) == ("cannot-stand-here", "red-1")


def test_m3_a_ship_inland_is_refused():
    refused = refusal(position(ships=[ship("red-s1", (0, 0))]))
    assert (refused.code, refused.field, refused.unit) == (
        "cannot-stand-here",
        "ships[0].hex",
        "red-s1",
    )


def test_an_army_aboard_a_ship_on_open_water_is_allowed():
    data = position(
        map=COAST, armies=[army("red-1", (3, 0))], ships=[ship("red-s1", (3, 0), carrying="red-1")]
    )
    assert refusal_or_none(data) is None


def refusal_or_none(data: dict[str, object]) -> object:
    from campaign.rules.engine import advance
    from campaign.rules.errors import RuleError

    try:
        advance(data)
    except RuleError as error:
        return error
    return None


def test_no_settlement_on_a_marsh():
    data = position(
        map=make_map(2, terrain={(1, 0): "marsh"}), tiles=[tile((1, 0), "red", "village")]
    )
    assert refusal(data).code == "settlement-on-marsh"


def test_two_kingdoms_may_not_share_a_capital():
    data = position(tiles=home(), capitals={"red": (0, 0), "blue": (0, 0)})
    refused = refusal(data)
    assert (refused.code, refused.field) == ("two-capitals", "kingdoms[1].capital")


def test_a_capital_is_a_city_its_kingdom_controls():
    data = position(tiles=[tile((0, 0), "blue", "city")], capitals={"red": (0, 0)})
    assert refusal(data).code == "capital-not-city"


def test_at_most_six_armies_in_a_kingdom():
    armies = [army(f"red-{n}", (0, 0)) for n in range(1, 8)]
    refused = refusal(position(armies=armies, tiles=home()))
    assert (refused.code, refused.field) == ("too-many-armies", "armies")


def test_a_ship_carries_only_its_own_kingdoms_army():
    data = position(
        map=COAST,
        armies=[army("blue-1", (2, 0))],
        ships=[ship("red-s1", (2, 0), carrying="blue-1")],
    )
    assert refusal(data).code == "bad-carrying"


def test_a_carried_army_is_in_its_ships_tile():
    data = position(
        map=COAST, armies=[army("red-1", (0, 0))], ships=[ship("red-s1", (2, 0), carrying="red-1")]
    )
    refused = refusal(data)
    assert (refused.code, refused.unit) == ("bad-carrying", "red-1")


def test_a_unit_id_is_not_both_an_army_and_a_ship():
    data = position(map=COAST, armies=[army("red-1", (2, 0))], ships=[ship("red-1", (2, 0))])
    assert refusal(data).code == "duplicate-id"


# --- illegal decisions ---------------------------------------------------------------


def orders(**by_kingdom: list[dict[str, object]]) -> dict[str, object]:
    return {"orders": by_kingdom}


def decide(inputs: dict[str, object], **overrides: object) -> dict[str, object]:
    return with_(BASE, "inputs", inputs) | overrides


@pytest.mark.parametrize(
    ("inputs", "code", "field", "unit"),
    [
        (
            orders(red=[move("blue-1", (1, 0))]),
            "not-your-unit",
            "inputs.orders.red[0].unit",
            "blue-1",
        ),
        (orders(red=[move("red-9", (1, 0))]), "unknown-unit", "inputs.orders.red[0].unit", "red-9"),
        (
            orders(red=[move("red-1", (2, 0))]),
            "move-not-adjacent",
            "inputs.orders.red[0].to",
            "red-1",
        ),
        (orders(red=[move("red-1", (0, 9))]), "move-off-map", "inputs.orders.red[0].to", "red-1"),
        (
            orders(red=[order("red-1", "defend"), order("red-1", "defend")]),
            "unit-ordered-twice",
            "inputs.orders.red[1]",
            "red-1",
        ),
        (
            orders(red=[order("red-1", "regroup")]),
            "regroup-upright",
            "inputs.orders.red[0].order",
            "red-1",
        ),
        (
            orders(red=[order("red-1", "stay")]),
            "army-cannot-stay",
            "inputs.orders.red[0].order",
            "red-1",
        ),
        (
            orders(red=[order("red-1", "defend", carry="red-2")]),
            "carry-by-army",
            "inputs.orders.red[0].carry",
            "red-1",
        ),
        ({"orders": {"green": []}}, "unknown-kingdom", "inputs.orders.green", None),
        (
            {"orders": {"red": [{"unit": "red-1", "order": "move"}]}},
            "missing-field",
            "inputs.orders.red[0].to",
            None,
        ),
        (
            {"orders": {"red": [{"unit": "red-1", "order": "defend", "to": [1, 0]}]}},
            "unknown-field",
            "inputs.orders.red[0].to",
            None,
        ),
    ],
)
def test_an_illegal_order_is_refused_naming_the_order_and_unit(inputs, code, field, unit):
    refused = refusal(decide(inputs))
    assert (refused.code, refused.field, refused.unit) == (code, field, unit)


def test_o3_an_army_on_its_side_may_only_regroup():
    data = position(
        armies=[army("red-1", (0, 0), upright=False)],
        tiles=home(),
        inputs=orders(red=[order("red-1", "defend")]),
    )
    assert (refusal(data).code, refusal(data).unit) == ("must-regroup", "red-1")


def test_o6_raze_only_on_a_settlement():
    data = position(
        armies=[army("red-1", (1, 0))],
        tiles=[tile((1, 0), "red")],
        inputs=orders(red=[order("red-1", "raze")]),
    )
    assert refusal(data).code == "raze-off-settlement"


def test_m3_an_army_may_not_move_into_a_marsh():
    data = position(
        map=make_map(2, terrain={(1, 0): "marsh"}), armies=[army("red-1", (0, 0))], tiles=[tile((0, 0), "red")],
        inputs=orders(red=[move("red-1", (1, 0))]),
    )  # fmt: skip
    assert refusal(data).code == "move-not-enterable"


def test_m3_an_army_may_not_cross_a_water_edge():
    data = position(
        map=make_map(2, water_edges=[((0, 0), (1, 0))]), armies=[army("red-1", (0, 0))], tiles=[tile((0, 0), "red")],
        inputs=orders(red=[move("red-1", (1, 0))]),
    )  # fmt: skip
    assert refusal(data).code == "move-across-water"


def test_m3_a_ship_may_not_sail_inland():
    data = position(
        map=COAST,
        ships=[ship("red-s1", (2, 0))],
        tiles=[tile((2, 0), "red")],
        inputs=orders(red=[move("red-s1", (1, 0))]),
    )
    assert (refusal(data).code, refusal(data).unit) == ("move-not-enterable", "red-s1")


def test_o3_a_ship_may_not_defend():
    data = position(
        map=COAST, ships=[ship("red-s1", (3, 0))], inputs=orders(red=[order("red-s1", "defend")])
    )
    assert refusal(data).code == "ship-cannot-defend"


def sea_position(**inputs: object) -> dict[str, object]:
    return position(
        map=COAST,
        armies=[
            army("red-1", (2, 0)),
            army("red-2", (3, 0)),
            army("red-3", (1, 0), upright=False),
            army("blue-1", (2, 0)),
        ],
        ships=[
            ship("red-s1", (2, 0)),
            ship("red-s2", (3, 0), carrying="red-2"),
            ship("red-s3", (2, 0), upright=False),
        ],
        tiles=[tile((2, 0), "red"), tile((1, 0), "red")],
        inputs=dict(inputs),
    )


@pytest.mark.parametrize(
    ("red_orders", "code", "unit"),
    [
        ([move("red-s2", (3, -1))], "landing-at-sea", "red-s2"),
        ([move("red-s1", (3, 0), carry="blue-1")], "carry-unknown-army", "red-s1"),
        ([move("red-s1", (3, 0), carry="red-2")], "carry-army-aboard", "red-2"),
        ([move("red-s1", (3, 0), carry="red-3")], "carry-not-here", "red-3"),
        ([order("red-s3", "regroup", carry="red-1")], "carry-ship-on-its-side", "red-s3"),
        (
            [move("red-s2", (3, -1), carry="red-2"), order("red-2", "defend")],
            "order-for-carried-army",
            "red-2",
        ),
    ],
)
def test_o8_illegal_boarding_and_landing_is_refused(red_orders, code, unit):
    refused = refusal(sea_position(orders={"red": red_orders}))
    assert (refused.code, refused.unit) == (code, unit)


def test_o8_an_army_on_its_side_may_not_board():
    data = position(
        map=COAST, armies=[army("red-1", (2, 0), upright=False)], ships=[ship("red-s1", (2, 0))], tiles=[tile((2, 0), "red")],
        inputs=orders(red=[move("red-s1", (3, 0), carry="red-1")]),
    )  # fmt: skip
    assert refusal(data).code == "carry-army-on-its-side"


# --- setup decisions -------------------------------------------------------------------


STARTS = make_map(5, start=[(0, 0), (3, 0)])


def at_setup(step: str, **extra: object) -> dict[str, object]:
    return position(map=STARTS, clock=(1, "setup", 0, step), **extra)  # type: ignore[arg-type]


def test_s3_a_capital_goes_on_a_start_tile():
    refused = refusal(at_setup("capitals", inputs={"capitals": {"red": [1, 0]}}))
    assert (refused.code, refused.field) == ("capital-not-start-tile", "inputs.capitals.red")


def test_s3_a_capital_goes_on_a_free_start_tile():
    refused = refusal(at_setup("capitals", inputs={"capitals": {"red": [0, 0], "blue": [0, 0]}}))
    assert (refused.code, refused.field) == ("capital-taken", "inputs.capitals.blue")


def test_s3_no_start_tile_left_for_a_capital():
    data = position(map=make_map(5, start=[(0, 0)]), clock=(1, "setup", 0, "capitals"))
    refused = refusal(data, defaults=True)
    assert refused.code == "no-start-tile-left"


def settled(**extra: object) -> dict[str, object]:
    return at_setup(
        "settlements",
        tiles=[tile((0, 0), "red", "city"), tile((3, 0), "blue", "city")],
        capitals={"red": (0, 0), "blue": (3, 0)},
        **extra,
    )


def plan(
    city: tuple[int, int], fortress: tuple[int, int], v1: tuple[int, int], v2: tuple[int, int]
) -> dict[str, object]:
    return {"city": list(city), "fortress": list(fortress), "villages": [list(v1), list(v2)]}


def test_s3_settlements_go_beside_the_capital():
    refused = refusal(
        settled(
            inputs={
                "settlements": {
                    "blue": plan((4, 0), (3, -1), (2, 0), (5, 0)),
                    "red": plan((1, 0), (0, 1), (-1, 0), (0, -1)),
                }
            }
        )
    )
    assert (refused.code, refused.field) == (
        "settlement-not-beside-capital",
        "inputs.settlements.blue.villages[1]",
    )


def test_s3_one_settlement_per_tile():
    refused = refusal(
        settled(inputs={"settlements": {"blue": plan((4, 0), (4, 0), (2, 0), (3, 1))}})
    )
    assert (refused.code, refused.field) == ("settlement-twice", "inputs.settlements.blue.fortress")


def test_s3_two_villages_exactly():
    data = settled(
        inputs={"settlements": {"blue": {"city": [4, 0], "fortress": [3, 1], "villages": [[2, 0]]}}}
    )
    assert refusal(data).code == "wrong-count"


def test_s3_a_capital_needs_four_sites():
    boggy = make_map(
        5, start=[(0, 0), (3, 0)], terrain={(4, 0): "marsh", (4, -1): "marsh", (3, -1): "marsh"}
    )
    data = position(
        map=boggy,
        clock=(1, "setup", 0, "settlements"),
        tiles=[tile((0, 0), "red", "city"), tile((3, 0), "blue", "city")],
        capitals={"red": (0, 0), "blue": (3, 0)},
    )
    assert refusal(data, defaults=True).code == "too-few-sites"


def test_s3_the_starting_army_stands_on_a_settlement():
    data = at_setup(
        "armies", tiles=[tile((0, 0), "red", "city"), tile((1, 0), "red"), tile((3, 0), "blue", "city")],
        capitals={"red": (0, 0), "blue": (3, 0)}, inputs={"starting_armies": {"red": [1, 0], "blue": [3, 0]}},
    )  # fmt: skip
    refused = refusal(data)
    assert (refused.code, refused.field) == (
        "starting-army-not-on-settlement",
        "inputs.starting_armies.red",
    )


# --- dice, battles ----------------------------------------------------------------------


def test_d1_running_out_of_scripted_dice_is_refused():
    data = position(
        armies=[army("red-1", (0, 0))],
        tiles=[tile((0, 0), "red", "city")],
        inputs=orders(red=[move("red-1", (1, 0))]),
        dice=[3],
    )
    refused = refusal(data, defaults=True)
    assert (refused.code, refused.field) == ("out-of-dice", "dice")
    assert refused.message == "The file's dice list ran out: add more D6 results."


def test_d1_the_seeded_dice_show_every_face_of_a_d6():
    """Without a dice list, the dice come from the options' seed: each of 1 to 6, and
    nothing else, turns up."""
    dice = Dice(seed=7, rolled=0, scripted=None)
    assert {dice.roll() for _ in range(200)} == {1, 2, 3, 4, 5, 6}


def contested(**inputs: object) -> dict[str, object]:
    return position(
        clock=(1, "summer", 1, "battles"),
        armies=[army("red-1", (1, 0)), army("blue-1", (1, 0))],
        tiles=[tile((0, 0), "red", "city"), tile((1, 0), "red"), tile((2, 0), "blue", "city")],
        inputs=dict(inputs),
        dice=[4, 4],
    )


def test_b6_a_result_names_a_winner_who_fought():
    refused = refusal(contested(battles=[{"hex": [1, 0], "result": "win", "winner": "green"}]))
    assert (refused.code, refused.field) == ("unknown-kingdom", "inputs.battles[0].winner")


def test_b6_the_winner_fought_the_battle():
    data = contested(battles=[{"hex": [1, 0], "result": "win", "winner": "green"}])
    data["kingdoms"].append({"id": "green", "name": "Green"})  # type: ignore[attr-defined]
    data["player_order"].append("green")  # type: ignore[attr-defined]
    assert refusal(data).code == "winner-not-in-battle"


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ({"hex": [1, 0]}, "bad-battle-input"),
        ({"hex": [1, 0], "concede": "red", "result": "draw"}, "bad-battle-input"),
        ({"hex": [1, 0], "result": "lose"}, "unknown-value"),
        ({"hex": [1, 0], "result": "win"}, "missing-field"),
        ({"hex": [1, 0], "result": "draw", "winner": "red"}, "unknown-field"),
        ({"hex": [1, 0], "resolve": "dice"}, "unknown-value"),
    ],
)
def test_a_malformed_battle_entry_is_refused(entry, code):
    assert refusal(contested(battles=[entry])).code == code


def test_b10_a_retreat_goes_to_a_tile_the_unit_may_retreat_to():
    data = contested(
        battles=[{"hex": [1, 0], "result": "win", "winner": "red"}], retreats={"blue-1": [0, 0]}
    )
    refused = refusal(data)
    assert (refused.code, refused.field, refused.unit) == (
        "bad-retreat",
        "inputs.retreats.blue-1",
        "blue-1",
    )


# --- every code has a case ----------------------------------------------------------------


def engine_refusal_codes() -> set[str]:
    pattern = re.compile(r'(?:RuleError\(|refuse\()\s*"([a-z]+(?:-[a-z]+)*)"')
    codes: set[str] = set()
    for path in ENGINE.rglob("*.py"):
        codes.update(pattern.findall(path.read_text()))
    return codes


def test_every_refusal_code_has_a_test():
    """Each stable error code the engine can raise appears in a test that triggers it."""
    tests = "\n".join(p.read_text() for p in Path(__file__).parent.parent.rglob("test_*.py"))
    untested = sorted(
        code
        for code in engine_refusal_codes()
        if not re.search(rf"(?<![\w-]){code}(?![\w-])", tests)
    )
    assert untested == []
