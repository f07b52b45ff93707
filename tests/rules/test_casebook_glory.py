"""The rules casebook for option `glory` (campaign-options.md, OB1 to OB4, part C's settled
points and where glory meets the other options). Each test is one case, named after its
rule, with the document's three worked examples among them; its docstring states the
position and what must happen. Positions are the winter and summer casebooks': a hexagon of
plains, Red's capital [0, 0] and Blue's [-3, 3]."""

from typing import Any

import pytest

from tests.rules.casebook import (
    Json,
    adjudicate,
    army,
    battles,
    events,
    happened,
    kingdom,
    make_map,
    move,
    order,
    position,
    refusal,
    tile,
)
from tests.rules.test_casebook_summer import orders
from tests.rules.test_casebook_winter import HOMES, HUNGRY_BLUE, build, buy, purse, recruit, winter

GLORY = {"glory": True}


def glorious(**fields: Json) -> dict[str, Json]:
    """Each kingdom's fields: Red and Blue with what is given (glory, honours, wishes)."""
    return {k: {"gold": 9, "food": 9, **v} for k, v in fields.items()}


def building(purchases: Json, *, red: Json, blue: Json | None = None, **extra: Any) -> Json:
    """At the build step, glory on, Red's purchases given, Blue's hungry army (the engine
    stops at the feed step)."""
    return winter(
        "build",
        tiles=[*HOMES, *extra.pop("tiles", [])],
        armies=[*extra.pop("armies", []), HUNGRY_BLUE],
        options={**GLORY, **extra.pop("options", {})},
        kingdom_fields=glorious(red=red, blue=blue or {}),
        inputs=purchases,
        **extra,
    )


def glory_of(data: Json, kingdom_id: str) -> tuple[int, list[str]]:
    found = kingdom(data, kingdom_id)
    return found["glory"], found["honours"]


# === OB1, OB2 earning and claiming =====================================================================


def test_ob1_ob2_example_1_a_village_then_its_city_claim_the_first_wish():
    """Red, glory 3, builds a village at [2, 1] (4), then upgrades it to a city (5 → 0): it
    claims `veterans`, its first wish. Each glory is told; the honour too."""
    data = building(
        buy(red=[build("village", (2, 1)), build("city", (2, 1))]),
        red={"glory": 3, "honour_wishes": ["veterans", "granaries"]},
        tiles=[tile((2, 1), "red")],
    )

    after = adjudicate(data)

    assert glory_of(after, "red") == (0, ["veterans"])
    assert [e["glory"] for e in events(after, "glory-gained")] == [4, 5]
    assert happened(after, "honour-claimed") == [
        {"type": "honour-claimed", "kingdom": "red", "honour": "veterans"}
    ]


def test_ob1_example_2_a_capital_taken_takes_the_losers_glory_then_the_pools():
    """Red, glory 1, takes Blue's undefended capital [-3, 3] (O4); Blue has 2 glory: Red
    takes Blue's 2 and 1 from the pool: Red 4, Blue 0."""
    data = position(
        options=GLORY,
        capitals={"red": (0, 0), "blue": (-3, 3)},
        tiles=HOMES,
        armies=[army("red-1", (-2, 3)), army("blue-1", (-1, 0))],
        kingdom_fields=glorious(red={"glory": 1}, blue={"glory": 2}),
        inputs=orders(red=[move("red-1", (-3, 3))], blue=[order("blue-1", "defend")]),
        dice=[1, 2],  # the new player order's roll-off; then month 2's opening takes none
    )

    after = adjudicate(data)

    assert glory_of(after, "red") == (4, [])
    assert glory_of(after, "blue") == (0, [])
    assert happened(after, "glory-lost") == [
        {"type": "glory-lost", "kingdom": "blue", "to": "red", "glory": 0, "hex": [-3, 3]}
    ]


def test_ob2_example_3_an_exploration_claims_the_first_unclaimed_honour():
    """Blue, glory 4, explores [-2, 2]: dice 4 and 5, a village: 5 → 0. Without wishes,
    `granaries` is Red's already, so Blue claims `royal_mint`."""
    data = position(
        options=GLORY,
        capitals={"red": (0, 0), "blue": (-3, 3)},
        tiles=HOMES,
        armies=[army("red-1", (0, 0)), army("blue-1", (-3, 3))],
        kingdom_fields=glorious(red={"honours": ["granaries"]}, blue={"glory": 4}),
        inputs=orders(red=[order("red-1", "defend")], blue=[move("blue-1", (-2, 2))]),
        dice=[4, 5, 1, 2],
    )

    after = adjudicate(data)

    assert glory_of(after, "blue") == (0, ["royal_mint"])


def test_ob2_one_glory_at_a_time_a_capitals_three_at_four_claim_and_end_at_two():
    """Part C's settled points: Red at 4 takes Blue's capital (Blue has none): the first of
    the three glory claims an honour (→ 0), the next two make 2."""
    data = position(
        options=GLORY,
        capitals={"red": (0, 0), "blue": (-3, 3)},
        tiles=HOMES,
        armies=[army("red-1", (-2, 3)), army("blue-1", (-1, 0))],
        kingdom_fields=glorious(red={"glory": 4}),
        inputs=orders(red=[move("red-1", (-3, 3))], blue=[order("blue-1", "defend")]),
        dice=[1, 2],
    )

    after = adjudicate(data)

    assert glory_of(after, "red") == (2, ["granaries"])


def test_ob1_razing_and_the_free_capital_earn_nothing():
    """red-1 razes Blue's village [-2, 3], where Blue has no unit: razed, and no glory. In
    winter Red, without a capital, names its city [2, 0] its capital: free, and no glory."""
    summer = position(
        options=GLORY,
        capitals={"red": (0, 0), "blue": (-3, 3)},
        tiles=[*HOMES, tile((-2, 3), "blue", "village")],
        armies=[army("red-1", (-2, 3)), army("blue-1", (-3, 3))],
        kingdom_fields=glorious(),
        inputs=orders(red=[order("red-1", "raze")], blue=[order("blue-1", "defend")]),
        dice=[1, 2],
    )
    razed = adjudicate(summer)
    assert events(razed, "razed")
    assert events(razed, "glory-gained") == []

    named = winter(
        "build",
        capitals={"blue": (-3, 3)},
        options=GLORY,
        tiles=[HOMES[1], tile((2, 0), "red", "city")],
        armies=[HUNGRY_BLUE],
        inputs=buy(red=[build("capital", (2, 0))]),
    )
    assert events(adjudicate(named), "glory-gained") == []


# === OB3 the honours ==================================================================================


def test_ob3_granaries_and_the_royal_mint_at_every_gather():
    """Red holds the granaries (+1 food), Blue the royal mint (+1 gold), at the gather."""
    data = winter(
        "gather",
        options=GLORY,
        tiles=HOMES,
        kingdom_fields=glorious(red={"honours": ["granaries"]}, blue={"honours": ["royal_mint"]}),
    )

    after = adjudicate(data)

    red, blue = [e for e in events(after, "gathered") if e["kingdom"] in ("red", "blue")]
    assert red["gains"] == [{"source": "granaries", "gold": 0, "food": 1}]
    assert blue["gains"] == [{"source": "royal_mint", "gold": 1, "food": 0}]


def test_ob3_master_masons_build_a_fortress_on_a_village_for_one_gold():
    data = building(
        buy(red=[build("fortress", (1, 0))]),
        red={"honours": ["master_masons"], "gold": 1, "food": 0},
        tiles=[tile((1, 0), "red", "village")],
    )

    after = adjudicate(data)

    assert tile_settlement(after, (1, 0)) == "fortress"
    assert purse(after, "red") == (0, 0)


def tile_settlement(data: Json, hex_: tuple[int, int]) -> str | None:
    found: str | None = next(t["settlement"] for t in data["tiles"] if t["hex"] == list(hex_))
    return found


def test_ob3_the_war_college_raises_one_army_a_winter_in_the_capital():
    """Red holds the war college: it recruits in its capital [0, 0] as in a fortress, once
    a winter; a second recruit there is skipped."""
    data = building(
        buy(red=[recruit((0, 0)), recruit((0, 0))]),
        red={"honours": ["war_college"]},
    )

    after = adjudicate(data)

    assert [e["army"] for e in events(after, "recruited")] == ["red-1"]
    assert len(events(after, "purchase-skipped")) == 1


def test_ob3_veterans_add_one_to_their_armies_defence_in_simple_battles():
    """Red holds the veterans: in a simple battle red-1 (Defence 5) is missed by Blue's 4;
    Red's 4 hits Blue's Defence 4: Red wins."""
    data = position(
        options={**GLORY, "battles": "simple"},
        clock=(1, "summer", 1, "battles"),
        capitals={"red": (0, 0), "blue": (-3, 3)},
        tiles=[*HOMES, tile((1, 0), "red")],
        armies=[army("red-1", (1, 0)), army("blue-1", (1, 0))],
        kingdom_fields=glorious(red={"honours": ["veterans"]}),
        dice=[4, 4, 1, 2],
    )

    after = adjudicate(data)

    (fought,) = battles(after, (1, 0))
    assert fought["winner"] == "red"
    assert fought["dice"] == [4, 4]  # Red's 4 hits Defence 4; Blue's 4 misses Defence 5


def test_ob3_strategists_draw_one_strategy_card_more_at_the_tabletop():
    """Red holds the strategists: on the card of its tabletop battle its side has 1 more."""
    data = position(
        options=GLORY,
        clock=(1, "summer", 1, "battles"),
        capitals={"red": (0, 0), "blue": (-3, 3)},
        tiles=[*HOMES, tile((1, 0), "red")],
        armies=[army("red-1", (1, 0)), army("blue-1", (1, 0))],
        kingdom_fields=glorious(red={"honours": ["strategists"]}),
        dice=[6, 6],
    )

    after = adjudicate(data)

    sides = {s["kingdom"]: s["strategy_cards"] for s in battles(after)[0]["sides"]}
    assert sides == {"red": 1, "blue": 0}


# === OB4 might ===================================================================================


def might_of(data: Json, kingdom_id: str) -> int:
    return int(next(s["might"] for s in data["scores"] if s["kingdom"] == kingdom_id))


def test_ob4_two_might_an_honour_four_for_the_chroniclers():
    """Red holds the veterans and the chroniclers: 6 might more than without them."""
    fields = glorious(red={"honours": ["veterans", "chroniclers"], "glory": 3})
    data = winter("gather", options=GLORY, tiles=HOMES, kingdom_fields=fields)
    bare = winter("gather", options=GLORY, tiles=HOMES, kingdom_fields=glorious(red={}))

    assert might_of(adjudicate(data), "red") - might_of(adjudicate(bare), "red") == 6


def test_ob4_once_every_honour_is_claimed_each_five_glory_is_two_might():
    """Every honour claimed (Red the granaries, Blue the rest): glory counts on; Red's 11
    glory are 4 might more (2 per full 5), besides its honour's 2."""
    blue = ["royal_mint", "war_college", "veterans", "strategists", "master_masons", "chroniclers"]
    fields = glorious(red={"honours": ["granaries"], "glory": 11}, blue={"honours": blue})
    data = winter("gather", options=GLORY, tiles=HOMES, kingdom_fields=fields)
    bare = winter("gather", options=GLORY, tiles=HOMES, kingdom_fields=glorious(red={}))

    assert might_of(adjudicate(data), "red") - might_of(adjudicate(bare), "red") == 6


# === the file ====================================================================================


def test_ob2_input_wishes_replace_the_list_as_the_file_is_read():
    """Part C's settled points: input `honour_wishes` replaces Red's whole list (an empty
    one clears Blue's) before anything is run, and is not written back."""
    data = winter(
        "gather",
        options=GLORY,
        tiles=HOMES,
        kingdom_fields=glorious(
            red={"honour_wishes": ["granaries"]}, blue={"honour_wishes": ["veterans"]}
        ),
        inputs={"honour_wishes": {"red": ["strategists", "veterans"], "blue": []}},
    )

    after = adjudicate(data)

    assert kingdom(after, "red")["honour_wishes"] == ["strategists", "veterans"]
    assert kingdom(after, "blue")["honour_wishes"] == []
    assert "honour_wishes" not in after["inputs"]


@pytest.mark.parametrize(
    ("wishes", "code"),
    [(["granaries", "granaries"], "honour-twice"), (["dragons"], "unknown-honour")],
)
def test_ob2_an_unknown_or_repeated_wish_is_refused(wishes, code):
    data = winter("gather", options=GLORY, tiles=HOMES, inputs={"honour_wishes": {"red": wishes}})
    in_kingdoms = winter(
        "gather", options=GLORY, tiles=HOMES, kingdom_fields=glorious(red={"honour_wishes": wishes})
    )

    assert refusal(data).code == code
    assert refusal(in_kingdoms).code == code


def test_ob2_a_wish_already_claimed_is_passed_over():
    """Red wishes for the granaries (Blue's) then the mint: it claims the mint."""
    data = building(
        buy(red=[build("village", (1, 0))]),
        red={"glory": 4, "honour_wishes": ["granaries", "royal_mint"]},
        blue={"honours": ["granaries"]},
        tiles=[tile((1, 0), "red")],
    )

    assert glory_of(adjudicate(data), "red") == (0, ["royal_mint"])


def test_ob2_five_glory_while_an_honour_is_unclaimed_is_refused():
    data = winter("gather", options=GLORY, tiles=HOMES, kingdom_fields=glorious(red={"glory": 5}))

    refused = refusal(data)

    assert (refused.code, refused.field) == ("bad-glory", "kingdoms[0].glory")


def test_og1_glory_fields_absent_read_as_none_and_are_refused_with_the_option_off():
    after = adjudicate(winter("gather", options=GLORY, tiles=HOMES))
    assert glory_of(after, "red") == (0, [])
    assert kingdom(after, "red")["honour_wishes"] == []
    off = winter("gather", tiles=HOMES, kingdom_fields={"red": {"glory": 1}})
    assert refusal(off).code == "option-off"


# === where options meet ==================================================================================


def test_meet_glory_and_marauders_a_battle_won_against_the_horde_is_one_glory():
    """OB1's marauder glory: Red's two armies scatter m-1 (a win): 1 glory, whatever it
    destroys."""
    data = position(
        options={**GLORY, "marauders": True, "marauder_race": "Orcs", "marauder_general": "admin"},
        capitals={"red": (0, 0), "blue": (-3, 3)},
        tiles=[*HOMES, tile((1, 0), "red"), tile((2, 0), "red", "village")],
        armies=[army("red-1", (1, 0)), army("red-2", (1, 0)), army("blue-1", (-3, 3))],
        marauder_armies=[{"id": "m-1", "hex": [2, 0], "upright": True, "order": {"order": "raze"}}],
        kingdom_fields=glorious(),
        inputs=orders(
            red=[move("red-1", (2, 0)), move("red-2", (2, 0))], blue=[order("blue-1", "defend")]
        ),
        dice=[1],
    )

    after = adjudicate(data)

    assert [e["why"] for e in events(after, "glory-gained")] == ["horde"]
    assert glory_of(after, "red") == (1, [])


def test_meet_glory_and_common_deck_strategists_add_one_to_the_shared_decks_count():
    data = position(
        options={**GLORY, "common_deck": True},
        clock=(1, "summer", 1, "battles"),
        capitals={"red": (0, 0), "blue": (-3, 3)},
        tiles=[*HOMES, tile((1, 0), "red")],
        armies=[army("red-1", (1, 0)), army("blue-1", (1, 0))],
        kingdom_fields=glorious(red={"honours": ["strategists"]}),
        dice=[6, 6],
    )

    sides = {s["kingdom"]: s["strategy_cards"] for s in battles(adjudicate(data))[0]["sides"]}

    assert sides == {"red": 2, "blue": 1}  # OA13's 1 each, and the strategists' 1


def test_meet_glory_and_yearly_event_the_frost_takes_the_granaries_food():
    """A hard frost (die 1): Red with its capital alone and the granaries gathers 0 food."""
    data = winter(
        "gather",
        options={**GLORY, "yearly_event": True},
        tiles=HOMES,
        kingdom_fields=glorious(red={"honours": ["granaries"], "food": 0}),
        dice=[1],
    )

    after = adjudicate(data)

    red = next(e for e in events(after, "gathered") if e["kingdom"] == "red")
    assert red["food"] == 0


def test_meet_glory_and_army_limits_a_war_college_army_is_licensed_at_the_capital():
    """Red's capital [0, 0] is mountains: the army the war college raises there may field
    monsters (OA1, judged at the capital as at a fortress)."""
    hills = make_map(3, terrain={(0, 0): "mountains"})
    data = building(
        buy(red=[recruit((0, 0))]),
        red={"honours": ["war_college"]},
        map=hills,
        options={"army_limits": True},
    )

    after = adjudicate(data)

    raised = next(a for a in after["armies"] if a["id"] == "red-1")
    assert "monsters" in raised["licence"]


def test_ob2_wishes_for_a_kingdom_the_campaign_has_not_are_refused():
    data = winter("gather", options=GLORY, tiles=HOMES, inputs={"honour_wishes": {"green": []}})

    refused = refusal(data)

    assert (refused.code, refused.field) == ("unknown-kingdom", "inputs.honour_wishes.green")
