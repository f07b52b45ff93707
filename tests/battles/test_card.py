"""The battle card's words of option common_deck (OA12, OA13), from the battle alone."""

from collections.abc import Mapping

from battles.card import fought, parts_of, setup_steps
from battles.models import Battle
from campaign.models import Campaign

NAMES = {"red": "Red Elves", "blue": "Blue Dwarfs"}


def strategy_reckoning(battle: Battle, names: Mapping[str, str]) -> dict[str, str]:
    """How the card counts each side's strategy cards, by kingdom: as the parts of the
    options the battle's campaign turns on tell it (common_deck's, OA13)."""
    seen = fought(battle, names)
    return {
        side["kingdom"]: note.text
        for part in parts_of(battle)
        if part.reckoning
        for side in battle.sides
        if (note := part.reckoning(seen, side))
    }


def a_battle(**options: bool) -> Battle:
    """The example of OA13: blue, 1 army and 2 losses, against red, 3 armies and none."""
    sides = [
        {
            "kingdom": "blue",
            "armies": ["blue-1"],
            "strategy_cards": 5,
            "defending": False,
            "points": 500,
        },
        {
            "kingdom": "red",
            "armies": ["red-1", "red-2", "red-3"],
            "strategy_cards": 1,
            "defending": False,
            "points": 1500,
        },
    ]
    return Battle(
        campaign=Campaign(options=options), board="4x4", scenario="Invade!",
        condition="Heavy Rain", sides=sides,
    )  # fmt: skip


def test_oa13_each_sides_strategy_cards_are_told_with_how_they_were_counted():
    assert strategy_reckoning(a_battle(common_deck=True), NAMES) == {
        "blue": "3 for the armies of Red Elves, 2 learned from pitched battles lost",
        "red": "1 for the army of Blue Dwarfs, 0 learned from pitched battles lost",
    }
    assert strategy_reckoning(a_battle(), NAMES) == {}


def test_oa12_the_set_up_steps_of_one_shared_deck():
    steps = setup_steps(a_battle(common_deck=True), NAMES)
    assert steps[0].startswith("Both players use one Battlefield deck, without the Thunderclouds")
    assert (
        "Put the Battlefields condition card Heavy Rain in play (the tile's roll chose it: it is "
        "not drawn)."
    ) in steps
    dealt = next(
        i for i, step in enumerate(steps) if step.startswith("Deal each player 2 Objective")
    )
    assert steps[dealt + 1].startswith("Deploy alternately")
    plain = setup_steps(a_battle(), NAMES)
    assert "Put the Battlefields condition card Heavy Rain in play." in plain
    assert not any("Objective cards" in step or "one Battlefield deck" in step for step in plain)


def test_oa14_a_siege_card_names_the_besieged_and_the_assault_whoever_picked_the_battle():
    """Issue 35: "picked this battle" was said of the besieged, who had picked it (B2);
    in a siege the card names the besieged and the side assaulting its walls."""
    from battles.card import stance_of

    battle = a_battle(sieges=True)
    battle.attacker, battle.defender = "blue", "red"  # the besieged picked it
    battle.details = {"siege": {"side": "blue", "works": "stone"}}
    assert stance_of(battle, "blue") == "besieged in its fortress"
    assert stance_of(battle, "red") == "assaulting its walls"
    battle.details = {"siege": {"side": "blue", "works": "wood"}}
    assert stance_of(battle, "blue") == "besieged in its capital"
    battle.details = {}
    assert (stance_of(battle, "blue"), stance_of(battle, "red")) == ("picked this battle", "")


def test_oa15_the_siege_works_are_set_up_in_place_of_the_defenders_benefit():
    """The general card asks the option's part: its fact stands in the defender's benefit's
    set-up step, just before the units deploy."""
    battle = a_battle(sieges=True)
    battle.sides[1]["defending"] = True
    battle.defender_benefit = "Move one piece of terrain."
    battle.details = {"siege": {"side": "red", "works": "wood"}}
    steps = setup_steps(battle, NAMES)
    before = next(i for i, step in enumerate(steps) if step.startswith("Before the first unit"))
    assert steps[before] == (
        "Before the first unit is deployed: Red Elves is besieged in its capital: instead of "
        "the defender's benefit it sets up, wholly in its own half before the first unit "
        "deploys, 1 wooden tower, 2 wooden walls, a gate, and 1 objective marker on a section."
    )
    assert steps[before - 1] == "Roll off: the winner picks a long table edge."
    assert steps[before + 1].startswith("Deploy alternately")
    battle.details = {}
    assert (
        "Before the first unit is deployed, Red Elves (defending) adjusts the table: see the "
        "defender's benefit."
    ) in setup_steps(battle, NAMES)
