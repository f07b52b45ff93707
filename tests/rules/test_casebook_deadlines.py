"""The rules casebook, part 6: a step's deadline (`adjudicate --defaults-now`, ruling S4 and
the deadline defaults of O3, B2, B4, B10, W6 and W7).

Online a deadline means: the decisions the campaign waits for now take their defaults, and
the engine goes on with what it has and stops at the next decision it needs, which opens
with its own deadline. A late kingdom loses only its own step: a missed tithe never costs
anyone their purchases, feeding or deployment. `--defaults` stays the run to the next
summer month. Each case is one step of the year, with one kingdom late."""

from typing import Any

from campaign.rules.engine import advance
from tests.rules.casebook import (
    Json,
    adjudicate,
    army,
    events,
    kingdom,
    order,
    pending,
    position,
    tile,
    unit,
)
from tests.rules.test_casebook_battles import HOMES as BATTLE_HOMES
from tests.rules.test_casebook_battles import ROLL_OFF, STILL_BATTLES, simple
from tests.rules.test_casebook_setup import (
    EAST,
    EAST_PLAN,
    WEST,
    after_step_d,
    at_setup,
    founded,
    owned,
)
from tests.rules.test_casebook_winter import (
    HUNGRY_BLUE,
    NEXT_SUMMER,
    building,
    clock,
    deploying,
    feeding,
    gift,
    kinds,
    purse,
    recalled,
    tithing,
)


def defaulted(data: Json) -> list[tuple[str, str]]:
    """The decisions that took their defaults at the deadline: (kind, kingdom)."""
    return [(e["kind"], e["kingdom"]) for e in events(data, "deadline-default")]


# --- setup ------------------------------------------------------------------------------------


def test_s1_a_late_race_is_undeclared_and_the_races_are_revealed():
    """Red named its race; Blue had not by the deadline. Blue's race is "Undeclared" (the
    app's choice: the rulebook is silent), both are revealed, and the roll-off for the
    player order follows."""
    data = at_setup("races", inputs={"races": {"red": "Elves"}}, dice=[5, 2])

    after = adjudicate(data, defaults_now=True, due=[("race", "blue")])

    assert [k["race"] for k in after["kingdoms"]] == ["Elves", "Undeclared"]
    assert defaulted(after) == [("race", "blue")]
    assert after["player_order"] == ["red", "blue"]


def test_s3_a_late_capital_takes_the_first_free_start_tile_and_the_next_kingdom_is_asked():
    """Capitals, one kingdom at a time (S3): Red, first, has not chosen by its turn's
    deadline. Red's capital goes on the first free start tile, [-2, 0]; then Blue is asked,
    not defaulted: its own turn opens."""
    after = adjudicate(at_setup("capitals"), defaults_now=True)

    assert kingdom(after, "red")["capital"] == list(WEST)
    assert kingdom(after, "blue")["capital"] is None
    assert [(p["kind"], p["kingdom"]) for p in pending(after)] == [("capital", "blue")]
    assert defaulted(after) == [("capital", "red")]


def test_s4_late_settlements_take_the_default_and_every_kingdom_is_asked_for_its_army():
    """Settlements at once (S4): Red's plan is in, Blue's is not at the deadline. Blue's go
    on the first four tiles around its capital in [q, r] order, Red's where it said; then
    the starting armies are asked of both kingdoms, none placed by default."""
    data = at_setup(
        "settlements", inputs={"settlements": {"red": EAST_PLAN}}, **founded(red=EAST, blue=WEST)
    )

    after = adjudicate(data, defaults_now=True)

    assert owned(after, "red")[(1, 0)] == "city"
    assert owned(after, "blue")[(-3, 0)] == "city"
    assert owned(after, "blue")[(-3, 1)] == "fortress"
    assert after["clock"]["step"] == "armies"
    assert [(p["kind"], p["kingdom"]) for p in pending(after)] == [
        ("starting_army", "red"),
        ("starting_army", "blue"),
    ]
    assert after["armies"] == []
    assert defaulted(after) == [("settlements", "blue")]


def test_s4_a_late_starting_army_goes_on_the_capital_and_the_first_orders_are_asked():
    """Blue has placed its army at [-1, 0]; Red has not by the deadline: Red's goes on its
    capital. The first summer month's orders are asked of both, not defaulted."""
    data = at_setup("armies", inputs={"starting_armies": {"blue": [-1, 0]}}, **after_step_d())

    after = adjudicate(data, defaults_now=True)

    assert unit(after, "red-1")["hex"] == list(EAST)  # type: ignore[index]
    assert unit(after, "blue-1")["hex"] == [-1, 0]  # type: ignore[index]
    assert after["clock"] == {"year": 1, "season": "summer", "month": 1, "step": "orders"}
    assert [(p["kind"], p["kingdom"]) for p in pending(after)] == [
        ("orders", "red"),
        ("orders", "blue"),
    ]


# --- summer -----------------------------------------------------------------------------------


def last_month(**extra: Any) -> Json:
    """Red and Blue with an army each at home, at the orders of the summer's last month."""
    return position(
        clock=(1, "summer", 6, "orders"),
        capitals={"red": (0, 0), "blue": (2, 0)},
        tiles=[tile((0, 0), "red", "city"), tile((2, 0), "blue", "city")],
        armies=[army("red-1", (0, 0)), army("blue-1", (2, 0))],
        **extra,
    )


def test_o3_late_orders_defend_and_the_winter_stops_at_the_tithes():
    """The last summer month: Red has ordered red-1 to defend, Blue gave no orders. At the
    deadline blue-1 defends (O3); the month resolves, the winter begins, and the engine
    stops at every kingdom's tithes. With --defaults the same file runs on to the next
    summer's orders: that is the simulation's mode, not a deadline's."""
    data = last_month(inputs={"orders": {"red": [order("red-1", "defend")]}})

    after = adjudicate(data, defaults_now=True)

    assert [e["unit"] for e in events(after, "defended")] == ["red-1", "blue-1"]
    assert clock(after) == (1, "winter", 0, "tithe")
    assert sorted(kinds(after)) == [("tithes", "blue"), ("tithes", "red")]
    assert defaulted(after) == [("orders", "blue")]
    assert adjudicate(data, defaults=True)["clock"] == NEXT_SUMMER


def test_o1_cycle_a_late_turn_gives_one_default_order_and_the_next_kingdom_is_asked():
    """Cycle orders, two armies each, nobody has ordered. Red's turn passes: its first unit,
    red-1, defends; then it is Blue's turn and Blue is asked. Red's default order is kept in
    the inputs, so when Blue orders the cycle goes on from there."""
    data = position(
        options={"orders": "cycle"},
        tiles=[tile((0, 0), "red"), tile((2, 0), "blue")],
        armies=[army(i, h) for i, h in [("red-1", (0, 0)), ("red-2", (0, 0))]]
        + [army(i, h) for i, h in [("blue-1", (2, 0)), ("blue-2", (2, 0))]],
    )

    after = adjudicate(data, defaults_now=True)

    assert [(p["kingdom"], p["units"]) for p in pending(after)] == [("blue", ["blue-1", "blue-2"])]
    assert after["inputs"]["orders"] == {"red": [order("red-1", "defend")]}
    after_blue = adjudicate(
        {
            **after,
            "inputs": {
                "orders": {**after["inputs"]["orders"], "blue": [order("blue-1", "defend")]}
            },
        }
    )
    assert [(p["kingdom"], p["units"]) for p in pending(after_blue)] == [("red", ["red-2"])]


def test_b10_a_late_retreat_goes_to_the_first_tile_and_the_next_month_is_asked():
    """Red wins at [0, 0]; blue-1 may retreat to [0, 1] or [1, 0] and Blue has not said by
    the deadline. It goes to [0, 1], first in [q, r] order, on its side; the next month's
    orders are asked of both kingdoms."""
    data = simple(
        tiles=[
            tile((0, 0), "blue"),
            tile((1, 0), "blue"),
            tile((0, 1), "blue"),
            tile((-1, 0), "red"),
        ],
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[6, 1, *ROLL_OFF],
    )
    asked = adjudicate(data)
    assert asked["clock"] == STILL_BATTLES

    after = adjudicate(asked, defaults_now=True)

    assert unit(after, "blue-1")["hex"] == [0, 1]  # type: ignore[index]
    assert after["clock"] == {"year": 1, "season": "summer", "month": 2, "step": "orders"}
    assert sorted(p["kingdom"] for p in pending(after)) == ["blue", "red"]
    assert defaulted(after) == [("retreat", "blue")]


def test_b2_a_late_battle_choice_takes_the_first_tile_in_qr_order():
    """Simple battles. Red, first to pick, faces blue at [0, 1] and [1, -1] and has not said
    which by the deadline: it picks [0, 1], first in [q, r] order, and wins (6 to 1); blue
    then picks [1, -1] and wins (6 to 1)."""
    data = simple(
        tiles=[tile((0, 1), "blue"), tile((1, -1), "blue"), *BATTLE_HOMES],
        armies=[
            army("red-1", (0, 1)),
            army("blue-1", (0, 1)),
            army("red-2", (1, -1)),
            army("blue-2", (1, -1)),
        ],
        dice=[6, 1, 6, 1],
    )
    asked = adjudicate(data)
    assert [p["kind"] for p in pending(asked)] == ["battle_choice"]

    after = adjudicate(asked, defaults_now=True)

    assert [(b["hex"], b["attacker"], b["winner"]) for b in after["battles"]] == [
        ([0, 1], "red", "red"),
        ([1, -1], "blue", "blue"),
    ]
    assert defaulted(after) == [("battle_choice", "red")]


def test_b4_a_late_last_stand_is_not_made_and_the_outnumbered_side_concedes():
    """Red's two armies face blue's one at [0, 0], red's; blue has no tile beside it, so it
    is asked for a Last Stand, and has not said by the deadline: it makes none and must
    concede (B4)."""
    data = position(
        clock=(1, "summer", 1, "battles"),
        tiles=[tile((0, 0), "red"), tile((-1, 0), "red"), tile((3, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0)), army("blue-1", (0, 0))],
        dice=[],
    )
    asked = adjudicate(data)
    assert [p["kind"] for p in pending(asked)] == ["last_stand"]

    after = adjudicate(asked, defaults_now=True)

    (battle,) = after["battles"]
    assert (battle["kind"], battle["winner"]) == ("concession", "red")
    assert battle["extra"] == {"conceded_by": "blue", "forced": True}
    assert defaulted(after) == [("last_stand", "blue")]


def test_b11_a_tabletop_result_has_no_default():
    """A pitched battle waits for its tabletop result at the deadline: nothing moves (a
    result has no default; the admin decides it on the battles desk)."""
    data = position(
        clock=(1, "summer", 1, "battles"),
        tiles=BATTLE_HOMES,
        armies=[army("red-1", (0, 0)), army("blue-1", (0, 0))],
        dice=[3, 3],
    )
    asked = adjudicate(data)

    after = adjudicate(asked, defaults_now=True)

    assert [p["kind"] for p in pending(after)] == ["battle_result", "battle_result"]
    assert after["clock"] == asked["clock"]
    assert defaulted(after) == []


# --- winter -----------------------------------------------------------------------------------


def test_w4_a_late_tithe_gives_nothing_and_every_kingdom_is_asked_for_its_purchases():
    """Red gave 1 gold to Blue; Green gave nothing by the deadline and Blue gave its list
    (empty). Green gives no tithes; Red's gift is made; then every kingdom is asked for
    its purchases: nobody's purchases are defaulted."""
    data = tithing({"red": [gift("blue", gold=1)], "blue": []}, red=(2, 0), blue=(0, 0))

    after = adjudicate(data, defaults_now=True)

    assert purse(after, "blue")[0] == 1
    assert clock(after) == (1, "winter", 0, "build")
    assert kinds(after) == [("purchases", "red"), ("purchases", "blue"), ("purchases", "green")]
    assert defaulted(after) == [("tithes", "green")]


def test_w5_late_purchases_buy_nothing_and_the_hungry_kingdom_is_asked_to_feed():
    """Red bought a village; Blue gave no list by the deadline and buys nothing. Blue's army
    is hungry: Blue is asked which army goes, not starved by default."""
    data = building({"purchases": {"red": [{"build": "village", "hex": [1, 0]}]}}, gold=1)

    after = adjudicate(data, defaults_now=True)

    assert clock(after) == (1, "winter", 0, "feed")
    assert [(p["kind"], p["kingdom"]) for p in pending(after)] == [("feed", "blue")]
    assert unit(after, HUNGRY_BLUE["id"]) is not None
    assert defaulted(after) == [("purchases", "blue")]


def test_w6_a_late_feed_starves_the_newest_and_deployment_is_asked():
    """Red has 2 armies and 1 food and has not said which goes: red-2, the newest, starves
    (W6); then Red is asked where its army deploys."""
    data = feeding([army("red-1", (0, 0)), army("red-2", (0, 0))], food=1)

    after = adjudicate(data, defaults_now=True)

    assert [e["army"] for e in events(after, "starved")] == ["red-2"]
    assert clock(after) == (1, "winter", 0, "deploy")
    assert kinds(after) == [("deploy", "red")]


def test_w7_a_late_deployment_takes_the_default_and_the_summer_orders_are_asked():
    """Red has not deployed by the deadline: its armies take the default places (W7); the
    next summer's orders are asked, not defaulted."""
    data = deploying(recalled(2), dice=[])

    after = adjudicate(data, defaults_now=True)

    assert after["clock"] == NEXT_SUMMER
    assert kinds(after) == [("orders", "red")]
    assert defaulted(after) == [("deploy", "red")]


def test_a_deadline_defaults_only_the_decisions_it_was_set_for():
    """Red's deployment is in (given just before the deadline, not yet marked ready when it
    passed). Without a flag the engine would deploy and ask for the next summer's orders;
    the deadline was set for the deployment (`due`), so those orders are asked, not
    defaulted. With no `due`, --defaults-now defaults whatever the file waits for."""
    data = deploying(
        recalled(1), inputs={"deploy": {"red": [{"army": "red-1", "hex": [0, 0]}]}}, dice=[]
    )

    after = adjudicate(data, defaults_now=True, due=[("deploy", "red")])

    assert after == adjudicate(data)
    assert kinds(after) == [("orders", "red")]
    assert clock(adjudicate(data, defaults_now=True)) == (2, "summer", 2, "orders")


def test_an_advance_asked_without_a_deadline_waits_for_whoever_is_late():
    """`advance(file)` as the app calls it to judge a decision, with no flag: the engine
    makes Red's gift and waits for Blue's and Green's tithes; nobody takes a default."""
    data = tithing({"red": [gift("blue", gold=1)]}, red=(2, 0), blue=(0, 0))

    after = advance(data)

    assert defaulted(after) == []
    assert kinds(after) == [("tithes", "blue"), ("tithes", "green")]


def test_a_deadline_set_for_one_late_kingdom_defaults_that_one_alone():
    """At the tithes Red has given its gift; Blue and Green have given nothing. The
    deadline that passed was set for Green's tithes alone (Blue's step opened later, with
    a deadline of its own): Green gives nothing, Blue is still asked."""
    data = tithing({"red": [gift("blue", gold=1)]}, red=(2, 0), blue=(0, 0))

    after = adjudicate(data, defaults_now=True, due=[("tithes", "green")])

    # the default is told, with when: the winter's tithe step of year 1
    assert events(after, "deadline-default") == [
        {"year": 1, "season": "winter", "month": 0, "step": "tithe"}
        | {"type": "deadline-default", "kind": "tithes", "kingdom": "green"}
    ]
    assert kinds(after) == [("tithes", "blue")]
    assert clock(after) == (1, "winter", 0, "tithe")


def test_a_step_answered_in_full_before_its_deadline_takes_no_defaults_for_the_next():
    """Both kingdoms' orders for month 1 are in (drafts, not marked ready) when the deadline
    passes. The month resolves on them; month 2's orders, the same kinds from the same
    kingdoms, are asked, not defaulted: the deadline was set for month 1."""
    data = position(
        tiles=[tile((0, 0), "red"), tile((2, 0), "blue")],
        armies=[army("red-1", (0, 0)), army("blue-1", (2, 0))],
        inputs={"orders": {"red": [order("red-1", "defend")], "blue": [order("blue-1", "defend")]}},
        dice=[*ROLL_OFF],
    )
    due = [("orders", "red"), ("orders", "blue")]

    after = adjudicate(data, defaults_now=True, due=due)

    assert after["clock"] == {"year": 1, "season": "summer", "month": 2, "step": "orders"}
    assert sorted(kinds(after)) == [("orders", "blue"), ("orders", "red")]
    assert defaulted(after) == []
