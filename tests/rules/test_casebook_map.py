"""Casebook: the map in play (rulings M4, M5)."""

from tests.rules.casebook import adjudicate, army, make_map, move, position, tile, tile_at


def test_m5_a_tile_stays_controlled_when_its_army_leaves():
    """Red's army stands on [1, 0], which Red controls, and moves on to unexplored [2, 0]
    (rolling 3 and 3: empty). [1, 0] is still Red's: control is only ever lost to another
    kingdom, never by leaving; [2, 0] is now explored and Red's too."""
    before = position(
        armies=[army("red-1", (1, 0)), army("blue-1", (-2, 0))],
        tiles=[tile((1, 0), "red"), tile((-2, 0), "blue", "city")],
        inputs={
            "orders": {
                "red": [move("red-1", (2, 0))],
                "blue": [{"unit": "blue-1", "order": "defend"}],
            }
        },
        dice=[3, 3, 5, 2],
    )
    after = adjudicate(before)
    assert tile_at(after, (1, 0)) == {"hex": [1, 0], "owner": "red", "settlement": None}
    assert tile_at(after, (2, 0)) == {"hex": [2, 0], "owner": "red", "settlement": None}


def test_m5_an_unexplored_tile_is_one_nobody_controls():
    """Nobody has entered [0, 2]: it is not among the file's tiles, and an army moving in
    rolls on the exploration table (6 and 4: a city)."""
    before = position(
        armies=[army("red-1", (0, 1)), army("blue-1", (-2, 0))],
        tiles=[tile((0, 1), "red"), tile((-2, 0), "blue", "city")],
        inputs={
            "orders": {
                "red": [move("red-1", (0, 2))],
                "blue": [{"unit": "blue-1", "order": "defend"}],
            }
        },
        dice=[6, 4, 1, 2],
    )
    assert tile_at(before, (0, 2)) is None
    after = adjudicate(before)
    assert tile_at(after, (0, 2)) == {"hex": [0, 2], "owner": "red", "settlement": "city"}
    explored = [e for e in after["events"] if e["type"] == "explored"]
    assert explored[0]["dice"] == [6, 4]


def test_m4_a_ship_sailing_onto_open_water_explores_and_takes_nothing():
    """Red's ship sails from the coast [2, 0] onto the ocean [3, 0]: no die is rolled (the
    file's dice list is empty and does not run out), the ocean is not added to the tiles,
    and no kingdom controls it."""
    sea = make_map(
        3,
        terrain={(3, -3): "ocean", (3, -2): "ocean", (3, -1): "ocean", (3, 0): "ocean"},
        coast=[(2, 0), (2, -1)],
    )
    before = position(
        map=sea,
        ships=[
            {"id": "red-s1", "kingdom": "red", "hex": [2, 0], "upright": True, "carrying": None}
        ],
        armies=[army("blue-1", (-2, 0))],
        tiles=[tile((2, 0), "red", "city"), tile((-2, 0), "blue", "city")],
        inputs={
            "orders": {
                "red": [move("red-s1", (3, 0))],
                "blue": [{"unit": "blue-1", "order": "defend"}],
            }
        },
        dice=[],
    )
    after = adjudicate(before)
    assert tile_at(after, (3, 0)) is None
    assert [e["type"] for e in after["events"]].count("explored") == 0
    assert after["dice_rolled"] == 0  # no exploration, and no tie in the player order
