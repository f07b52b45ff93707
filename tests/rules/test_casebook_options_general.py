"""The rules casebook for the general rules of campaign-options.md as part A plays them:
steps and hex distance (OG3), might (OG4, with OA3, OA11, OA13 and OA15's "no might"),
what is seen (OG5), the order of the dice (OG6) and the order of play (OG7), and where
`army_limits` meets `wizards`. Each test is one case, named after its rules; its docstring
states the position and what must happen. Positions are those of the options casebook
(`test_casebook_options.py`), whose builders these cases share."""

from typing import Any

import pytest

from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import distance, steps
from campaign.rules.options import OPTION_ROWS
from tests.rules.casebook import adjudicate as run
from tests.rules.casebook import (
    army,
    events,
    make_map,
    move,
    order,
    position,
    tile,
    tile_at,
    unit,
)
from tests.rules.test_casebook_battles import HOMES, at_battles, side, the_battle
from tests.rules.test_casebook_options import (
    LIMITS,
    WIZARDS,
    exploring,
    held,
    holder,
    quest,
    questing,
)
from tests.rules.test_casebook_summer import at, orders
from tests.rules.test_casebook_winter import CAPITALS, buy, final, gift, place, winter

type Json = dict[str, Any]
type Hex = tuple[int, int]

PART_A = {"army_limits": True, "wizards": True, "common_deck": True, "sieges": True}


# === OG3 Steps and hex distance ================================================================


def steps_on(data: Json, a: Hex, b: Hex) -> int | None:
    """OG3's steps between two tiles of a campaign file, round its Wizard's towers."""
    campaign = parse_campaign(data)
    return steps(campaign.map, a, b, campaign.towers)


@pytest.mark.parametrize(
    ("a", "b", "apart"),
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (1, -1), 1),  # (1 + 1 + 0) / 2
        ((0, 0), (2, -1), 2),  # (2 + 1 + 1) / 2
        ((0, 0), (-3, 3), 3),  # red's capital to blue's: (3 + 3 + 0) / 2
        ((2, 0), (-1, -2), 5),  # Δq = -3, Δr = -2, Δq + Δr = -5: (3 + 2 + 5) / 2
    ],
)
def test_og3_hex_distance_in_axial_coordinates(a, b, apart):
    """Hex distance is (|Δq| + |Δr| + |Δq + Δr|) / 2 (M1), the same both ways."""
    assert distance(a, b) == apart == distance(b, a)


def test_og3_steps_over_open_plains_unexplored_or_another_kingdoms_are_the_distance():
    """On the plains board only red's capital [0, 0], blue's [1, 0] and red's [2, -1] are
    explored: from [0, 0] to the far corner [3, -3] takes 3 steps, its hex distance,
    whoever holds the tiles on the way and whether they are explored or not."""
    data = position(
        tiles=[tile((0, 0), "red", "city"), tile((1, 0), "blue"), tile((2, -1), "red")],
        capitals={"red": (0, 0)},
        dice=[],
    )
    assert steps_on(data, (0, 0), (3, -3)) == 3 == distance((0, 0), (3, -3))
    assert steps_on(data, (0, 0), (-3, 3)) == 3  # all unexplored
    assert steps_on(data, (0, 0), (0, 0)) == 0


def test_og3_steps_never_cross_a_water_edge():
    """A water edge between [0, 0] and [1, 0]: the two are 1 apart, but 2 steps (round by
    [1, -1] or [0, 1])."""
    data = position(map=make_map(water_edges=[((0, 0), (1, 0))]), dice=[])
    assert distance((0, 0), (1, 0)) == 1
    assert steps_on(data, (0, 0), (1, 0)) == 2


def test_og3_oa5_steps_never_enter_a_wizards_tower():
    """A Wizard's tower at [1, 0]: from [0, 0] to [2, 0] (2 apart) takes 3 steps round it;
    the tower itself is never reached."""
    data = position(options=WIZARDS, towers=[[1, 0]], dice=[])
    assert steps_on(data, (0, 0), (2, 0)) == 3
    assert steps_on(data, (0, 0), (1, 0)) is None
    assert steps(parse_campaign(data).map, (0, 0), (2, 0)) == 2  # without the towers


def test_og3_steps_go_only_through_tiles_armies_may_enter():
    """Marsh [1, 0] and ocean [1, -1] beside [0, 0], on the way east: armies enter neither
    (M3). To [2, -2] (2 apart) takes 3 steps, by [0, -1] and [1, -2]; to [2, -1] (2 apart)
    4; into the marsh, none leads."""
    data = position(map=make_map(terrain={(1, 0): "marsh", (1, -1): "ocean"}), dice=[])
    assert steps_on(data, (0, 0), (2, -2)) == 3
    assert steps_on(data, (0, 0), (2, -1)) == 4
    assert steps_on(data, (0, 0), (1, 0)) is None


def test_og3_no_way_leads_to_a_walled_off_tile():
    """[3, -3], the board's corner, behind towers at [2, -3] and [2, -2] and a water edge to
    [3, -2]: no steps lead there."""
    data = position(
        map=make_map(water_edges=[((3, -2), (3, -3))]),
        options=WIZARDS,
        towers=[[2, -3], [2, -2]],
        dice=[],
    )
    assert steps_on(data, (0, 0), (3, -3)) is None


# === OG4 Might (OA3, OA11, OA13, OA15: no might) ===============================================


def in_summer(**extra: Any) -> Json:
    """Summer of year 2, the orders step: the scores are the live projection (P1)."""
    return position(clock=(2, "summer", 3, "orders"), capitals=CAPITALS, **extra)


def at_the_end(**extra: Any) -> Json:
    """The campaign has ended: the scores are final (P1)."""
    return final(capitals=CAPITALS, **extra)


# Red holds its capital (3) and an army (5): 8. Blue holds its capital (3), a city (2), a
# fortress (2) and a village (1): 8, and no army. Tied on might, red is ahead on armies (P2).
TIED = {
    "tiles": [
        tile((0, 0), "red", "city"),
        tile((-3, 3), "blue", "city"),
        tile((-2, 3), "blue", "city"),
        tile((-3, 2), "blue", "fortress"),
        tile((-2, 2), "blue", "village"),
    ],
    "armies": [army("red-1", (0, 0))],
}


@pytest.mark.parametrize("when", [in_summer, at_the_end], ids=["live", "final"])
def test_oa11_og4_artefacts_are_worth_no_might(when):
    """With `wizards` on, blue holds three artefacts at its capital and red one on red-1,
    beside a Wizard's tower at [1, 0]: every kingdom's might, rank and count is the same as
    in the same position with every artefact free, or with none in the campaign, live and
    at the end."""
    pool = [held("A", "blue", points=50), held("B", "blue"), held("C", "blue"),
            held("D", "red", "red-1")]  # fmt: skip
    free = [{**a, "holder": None} for a in pool]
    holding = run(when(**TIED, options=WIZARDS, towers=[[1, 0]], artefacts=pool))
    holding_none = run(when(**TIED, options=WIZARDS, towers=[[1, 0]], artefacts=free))
    no_pool = run(when(**TIED, options=WIZARDS, towers=[[1, 0]], artefacts=[]))
    assert holding["scores"] == holding_none["scores"] == no_pool["scores"]
    assert [(s["kingdom"], s["might"], s["rank"]) for s in holding["scores"]] == [
        ("red", 8, 1),
        ("blue", 8, 2),
    ]


@pytest.mark.parametrize("when", [in_summer, at_the_end], ids=["live", "final"])
def test_og4_oa3_oa11_oa13_oa15_part_a_adds_no_might_and_the_tiebreakers_stand(when):
    """The tied position (red 8 with an army, blue 8 without) with all four options of part
    A on: red-1 licensed for monsters and war engines, a tower at [1, 0], blue holding every
    artefact, blue with two pitched losses. The scores are those of the same position
    without the options: red first on armies (P2), blue second."""
    pool = [held("A", "blue"), held("B", "blue", points=45)]
    armed = [army("red-1", (0, 0), licence=["monsters", "war_engines"])]
    on = when(
        tiles=TIED["tiles"],
        armies=armed,
        options=PART_A,
        towers=[[1, 0]],
        artefacts=pool,
        kingdom_fields={"blue": {"pitched_losses": 2}},
    )
    off = when(**TIED, kingdom_fields={"blue": {"pitched_losses": 2}})
    with_options, without = run(on), run(off)
    assert with_options["scores"] == without["scores"]
    assert [(s["kingdom"], s["might"], s["rank"]) for s in with_options["scores"]] == [
        ("red", 8, 1),
        ("blue", 8, 2),
    ]


# === OG5 Seen: every roll public, with its dice; placement secret ==============================


@pytest.mark.parametrize(
    ("dice", "kind"),
    [([4, 4, 2, 2], "tower-raised"), ([4, 4, 1, 3], "explored")],
    ids=["tower", "no tower"],
)
def test_og5_oa4_a_tower_roll_is_told_with_its_four_dice(dice, kind):
    """red-1 explores [3, 0] with doubles: whether the tower rises (4, 4, then 2, 2) or the
    first result stands (4, 4, then 1, 3), the event says who explored where and carries
    all four dice."""
    after = run(exploring(dice))
    (told,) = events(after, kind)
    assert (told["kingdom"], told["hex"], told["dice"]) == ("red", [3, 0], dice)


def test_og5_oa6_oa7_a_quest_is_told_with_its_hero_points_die_and_pick_dice():
    """Example 2's quest: Ser Brand, 160 points, at the tower [3, 0]; die 4, then pick dice
    5 (past the three candidates: again) and 2. The event names the kingdom, the tower, the
    hero, his points, the result 4 + 1 = 5, the artefact B and all three dice."""
    after = run(questing(quest(), dice=[4, 5, 2]))
    (told,) = events(after, "quest")
    assert {k: told[k] for k in ("kingdom", "tower", "hero", "points", "result", "artefact")} == {
        "kingdom": "red",
        "tower": [3, 0],
        "hero": "Ser Brand",
        "points": 160,
        "result": 5,
        "artefact": "B",
    }
    assert told["dice"] == [4, 5, 2]


def test_og5_oa9_where_an_artefact_is_placed_is_secret():
    """Red wins the Ring of Secrets by a quest and, at the same winter's deployment, places
    it on red-2. That red holds it is public (the quest's event); which army carries it is
    told in no event: no event naming it names an army."""
    data = quest_to_deploy(deploy=[{"artefact": "Ring of Secrets", "army": "red-2"}], feed=[])
    after = run(data)
    assert holder(after, "Ring of Secrets") == {"kingdom": "red", "army": "red-2"}
    naming = [e for e in after["events"] if "Ring of Secrets" in str(e)]
    assert [e["type"] for e in naming] == ["quest"]
    assert all("red-2" not in str(e) and "army" not in e for e in naming)


# === OG6 The dice, in the order the rules name them ============================================


def test_og6_oa4_example_1_exploration_dice_then_two_more_only_if_they_matched():
    """Example 1, its dice in order: 4, 4 then 2, 2 raise a tower and use four dice; 4, 4
    then 1, 3 leave the village (8) and use four; 2, 5 (no match) use two. Each time the
    reform's roll-off that follows takes the next two dice, and none is left over."""
    raised = run(exploring([4, 4, 2, 2]))
    assert raised["towers"] == [[3, 0]]
    village = run(exploring([4, 4, 1, 3]))
    assert tile_at(village, (3, 0)) == tile((3, 0), "red", "village")
    empty = run(exploring([2, 5]))
    assert tile_at(empty, (3, 0)) == tile((3, 0), "red")
    assert [raised["dice"], village["dice"], empty["dice"]] == [[], [], []]


def test_og6_oa4_dice_that_do_not_match_take_no_tower_dice():
    """red-1 explores [3, 0], then red-2 explores [2, 1]. Dice 2, 5, 3, 3, 1, 1: red-1's
    2, 5 do not match, so the next dice, 3, 3, are red-2's exploration, and 1, 1 its tower
    roll: [3, 0] is red's and empty, [2, 1] a Wizard's tower."""
    data = position(
        tiles=[tile((2, 0), "red"), tile((-3, 0), "blue")],
        armies=[army("red-1", (2, 0)), army("red-2", (2, 0)), army("blue-1", (-3, 0))],
        inputs=orders(
            red=[move("red-1", (3, 0)), move("red-2", (2, 1))],
            blue=[order("blue-1", "defend")],
        ),
        options=WIZARDS,
        dice=[2, 5, 3, 3, 1, 1],
    )
    after = run(data)
    assert tile_at(after, (3, 0)) == tile((3, 0), "red")
    assert after["towers"] == [[2, 1]]
    assert [e["dice"] for e in events(after, "explored")] == [[2, 5]]
    assert [e["dice"] for e in events(after, "tower-raised")] == [[3, 3, 1, 1]]
    assert at(after, "red-2") == [2, 0]
    assert after["dice"] == []


def test_og6_oa7_example_2_a_quest_takes_its_die_then_its_pick_dice():
    """Red sends Ser Brand (160 points) to [3, 0] and Dame Ilse (0 points) to [2, 1], both
    towers beside red's [2, 0]. Dice 4, 5, 2, 1: Ser Brand's die 4 (result 5, band 20-30),
    his pick 5 (past 3: again) and 2, B; Dame Ilse's die is the next, 1: she is lost."""
    data = questing(quest(), quest(hero="Dame Ilse", points=0, tower=(2, 1)), dice=[4, 5, 2, 1])
    data["towers"].append([2, 1])
    after = run(data)
    brand, ilse = events(after, "quest")
    assert (brand["hero"], brand["dice"], brand["artefact"]) == ("Ser Brand", [4, 5, 2], "B")
    assert (ilse["hero"], ilse["dice"], ilse["outcome"]) == ("Dame Ilse", [1], "lost")
    assert holder(after, "B") == {"kingdom": "red", "army": None}
    assert after["dice"] == []


# === OG7 Order of play =========================================================================

RING_POOL = [
    {"name": "Ring of Secrets", "points": 25, "holder": None},
    {"name": "Crown", "points": 45, "holder": None},
]


def quest_to_deploy(*, deploy: list[Json], feed: list[str] | None = None) -> Json:
    """At the tithe step of year 1's winter: blue (no army, 1 gold) gives red 1 gold; red,
    holding [2, 0] beside the tower [3, 0], with red-1 and red-2 at its capital [0, 0] and
    1 food, sends Ser Brand (160 points) on a quest (die 4, result 5: the band 20-30, whose
    one free artefact is the Ring of Secrets: no pick dice); at the feed red lets `feed` go;
    red deploys its armies at its capital with `deploy`."""
    feed = ["red-2"] if feed is None else feed
    kept = [a for a in ("red-1", "red-2") if a not in feed]
    return winter(
        "tithe",
        tiles=[tile((0, 0), "red", "city"), tile((-3, 3), "blue", "city"), tile((2, 0), "red")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0))],
        kingdom_fields={"red": {"food": 2 - len(feed)}, "blue": {"gold": 1}},
        inputs={
            "tithes": {"red": [], "blue": [gift("red", gold=1)]},
            **buy(red=[quest()]),
            "feed": {"red": {"disband": feed}},
            "deploy": {"red": [*(place(a, (0, 0)) for a in kept), *deploy]},
        },
        options=WIZARDS,
        towers=[[3, 0]],
        artefacts=RING_POOL,
        dice=[4],
    )


def test_og7_oa6_oa9_a_winters_quest_comes_after_the_tithe_before_the_feed_and_is_placed():
    """The winter's steps in order: blue's tithe (tithe), then the quest that wins the Ring
    of Secrets (build), then red-2 starved (feed), then the player order (deploy). The Ring,
    won at the capital, is placed on red-1 at the same winter's deployment; year 2 begins."""
    after = run(quest_to_deploy(deploy=[{"artefact": "Ring of Secrets", "army": "red-1"}]))
    told = [
        (e["type"], e["step"])
        for e in after["events"]
        if e["type"] in {"tithe", "quest", "starved", "player-order"}
    ]
    assert told == [
        ("tithe", "tithe"),
        ("quest", "build"),
        ("starved", "feed"),
        ("player-order", "deploy"),
    ]
    assert holder(after, "Ring of Secrets") == {"kingdom": "red", "army": "red-1"}
    assert after["clock"] == {"year": 2, "season": "summer", "month": 1, "step": "orders"}


def test_og7_oa9_a_quests_find_not_listed_at_deployment_goes_to_the_first_army():
    """The same winter with red keeping both armies (2 food) and listing no artefact: the
    Ring, at the capital since the build, goes to red's first army, red-1."""
    after = run(quest_to_deploy(deploy=[], feed=[]))
    assert holder(after, "Ring of Secrets") == {"kingdom": "red", "army": "red-1"}


def test_og7_oa10_oa9_an_army_starved_leaves_its_artefact_at_the_capital_then_deployed():
    """At the feed step red has red-1 and red-2 (carrying A) and 1 food: red-2 is not fed.
    A goes to red's capital as the feed ends (the winter then waits for red's deployment);
    red's deployment lists no artefact, and A goes to the first army, red-1."""
    data = winter(
        "feed",
        tiles=[tile((0, 0), "red", "city"), tile((-3, 3), "blue", "city")],
        armies=[army("red-1", (0, 0)), army("red-2", (0, 0))],
        kingdom_fields={"red": {"food": 1}},
        inputs={"feed": {"red": {"disband": ["red-2"]}}},
        options=WIZARDS,
        artefacts=[held("A", army_id="red-2")],
        dice=[],
    )
    fed = run(data)
    assert unit(fed, "red-2") is None
    assert holder(fed, "A") == {"kingdom": "red", "army": None}
    assert fed["clock"]["step"] == "deploy"
    deployed = run({**fed, "inputs": {"deploy": {"red": [place("red-1", (0, 0))]}}})
    assert holder(deployed, "A") == {"kingdom": "red", "army": "red-1"}


def test_og7_oa4_oa5_the_tower_roll_happens_while_the_orders_resolve():
    """Summer: red's orders, in its sequence, send red-1 and then red-2 from [2, 0] into the
    unexplored [3, 0]. Red-1's dice 5, 5 then 1, 1 raise a tower during the resolution, so
    red-2's later move that month does nothing: both stay at [2, 0]. (With another
    kingdom's move, the options casebook's
    `test_oa5_a_tower_risen_earlier_in_the_month_stops_a_later_move`.)"""
    data = position(
        tiles=[tile((2, 0), "red"), tile((-3, 0), "blue")],
        armies=[army("red-1", (2, 0)), army("red-2", (2, 0)), army("blue-1", (-3, 0))],
        inputs=orders(
            red=[move("red-1", (3, 0)), move("red-2", (3, 0))],
            blue=[order("blue-1", "defend")],
        ),
        options=WIZARDS,
        dice=[5, 5, 1, 1],
    )
    after = run(data)
    assert [(e["type"], e["step"]) for e in after["events"] if "tower" in e["type"]] == [
        ("tower-raised", "resolution"),
        ("tower-blocked", "resolution"),
    ]
    assert (at(after, "red-1"), at(after, "red-2")) == ([2, 0], [2, 0])
    assert after["dice"] == []


# === Where options meet: army_limits + wizards =================================================


def test_oa2_oa9_army_limits_with_wizards_the_card_carries_limits_and_campaign_artefacts():
    """Both options on: red-1 (licensed for monsters) carries the campaign's artefact A,
    blue-1 (unlicensed) carries B; C waits at red's capital. Each side of the tabletop card
    carries its limits and the campaign artefacts on its armies, no others: the lists take
    no Kings of War magical artefacts, as the option's description says. (The card's
    sentence itself, "no Kings of War magical artefacts", is printed by the battle card's
    template from `limits`; the engine's part is these fields.)"""
    data = at_battles(
        tiles=[tile((0, 0), "blue"), *HOMES],
        armies=[army("red-1", (0, 0), licence=["monsters"]), army("blue-1", (0, 0), licence=[])],
        options={**LIMITS, **WIZARDS},
        artefacts=[held("A", army_id="red-1"), held("B", "blue", "blue-1"), held("C")],
        dice=[4, 4],
    )
    battle = the_battle(run(data))
    assert side(battle, "red")["limits"] == {"monsters": 500, "war_engines": 0}
    assert side(battle, "red")["artefacts"] == ["A"]
    assert side(battle, "blue")["limits"] == {"monsters": 0, "war_engines": 0}
    assert side(battle, "blue")["artefacts"] == ["B"]
    assert "no Kings of War magical artefacts" in OPTION_ROWS["army_limits"].words


def test_oa2_oa9_oa15_a_battle_the_admin_settles_as_simple_has_no_limits_artefacts_or_siege():
    """Both options and sieges on, the battle of the case above is handed off; the admin
    resolves it as a simple land battle (B6: red's die 1 and blue's 1 miss, a draw). Only
    a pitched battle handed to the tabletop carries limits, artefacts and a siege: the
    simple battle's sides carry neither, and it names no siege."""
    handed_off = run(
        at_battles(
            tiles=[tile((0, 0), "blue"), *HOMES],
            armies=[
                army("red-1", (0, 0), licence=["monsters"]),
                army("blue-1", (0, 0), licence=[]),
            ],
            options={**LIMITS, **WIZARDS, "sieges": True},
            artefacts=[held("A", army_id="red-1"), held("B", "blue", "blue-1")],
            dice=[4, 4],
        )
    )
    inputs = {"battles": [{"hex": [0, 0], "resolve": "simple"}]}
    battle = the_battle(run({**handed_off, "inputs": inputs, "dice": [1, 1, 6, 1]}))
    assert (battle["kind"], battle["result"]) == ("simple", "draw")
    assert "siege" not in battle
    assert battle["sides"] == [
        {"kingdom": "red", "armies": ["red-1"], "ships": [], "points": 500,
         "strategy_cards": 0, "defending": False},
        {"kingdom": "blue", "armies": ["blue-1"], "ships": [], "points": 500,
         "strategy_cards": 0, "defending": False},
    ]  # fmt: skip
