"""The optional rules' parts of the battle card: each option that adds to the card declares
its part in its own module of campaign/display/optional/, the registry holds it under the
option's row name, and the general card (battles/card.py and its template) never names an
option or cites an option's ruling itself (issue 36)."""

import importlib
import re
from pathlib import Path

from campaign.display.optional import CARD_PARTS, card_parts
from campaign.display.optional.card import CardPart, Cite, Fact, Fought, Note
from campaign.display.optional.common_deck import OBJECTIVE_CARDS, ONE_DECK
from campaign.rules.options import OPTION_ROWS, OPTIONS
from tests.campaign.display.test_optional_layers import option_modules

SWITCHES = [row.name for row in OPTIONS if row.switch]
ROOT = Path(__file__).resolve().parents[3]
NAMES = {"red": "Red Elves", "blue": "Blue Dwarfs"}


def fought(*, tabletop: bool = True, details: dict[str, object] | None = None) -> Fought:
    """The example of OA13: blue, 1 army and 2 losses, against red, 3 armies and none;
    blue's side carries no artefact, red's the Red Blade, and red may field a Monster."""
    sides = [
        {"kingdom": "blue", "armies": ["blue-1"], "strategy_cards": 5, "artefacts": []},
        {
            "kingdom": "red",
            "armies": ["red-1", "red-2", "red-3"],
            "strategy_cards": 1,
            "artefacts": ["Red Blade"],
            "limits": {"monsters": 500, "war_engines": 0},
        },
    ]
    return Fought(sides, details or {}, tabletop=tabletop, names=NAMES)


def test_every_card_part_belongs_to_an_option_row_and_is_declared_by_its_module():
    assert set(CARD_PARTS) <= set(SWITCHES)
    for name, part in CARD_PARTS.items():
        assert isinstance(part, CardPart)
        assert part.option == name
        assert OPTION_ROWS[name].switch
    for name in option_modules():
        module = importlib.import_module(f"campaign.display.optional.{name}")
        assert getattr(module, "CARD_PART", None) is CARD_PARTS.get(name)


def test_only_the_parts_of_the_options_turned_on_are_asked_in_the_tables_order():
    every = dict.fromkeys(SWITCHES, True)
    assert [part.option for part in card_parts(every)] == [
        name for name in SWITCHES if name in CARD_PARTS
    ]
    assert card_parts({}) == []
    assert card_parts({name: False for name in SWITCHES}) == []


def test_the_general_card_names_no_option_and_cites_no_options_ruling():
    """battles/card.py asks the parts of the options turned on; its template words their
    notes and facts by the rulings each cites."""
    card = (ROOT / "battles" / "card.py").read_text()
    assert [name for name in SWITCHES if re.search(rf"\b{name}\b", card)] == []
    template = (ROOT / "templates" / "battles" / "card.html").read_text()
    # Only the report form cites an option's ruling itself: the artefacts the winner takes.
    assert set(re.findall(r'ruling "(OA\d+)"', template)) == {"OA10"}


def test_army_limits_notes_each_sides_limits_under_it():
    battle = fought()
    part = CARD_PARTS["army_limits"]
    assert part.side_note is not None
    blue, red = battle.sides
    assert part.side_note(battle, blue) is None
    assert part.side_note(battle, red) == Note(
        "Its list: Monsters up to 500 points, War Engines up to 0 points, and no Kings of "
        "War magical artefacts",
        (Cite("OA2"),),
    )


def test_wizards_notes_the_artefacts_on_each_sides_armies_public_on_the_card():
    battle = fought()
    part = CARD_PARTS["wizards"]
    assert part.side_note is not None
    blue, red = battle.sides
    cites = (Cite("OA9"), Cite("A24", word="ruling", before="; public once on a card, "))
    assert part.side_note(battle, blue) == Note("Magical artefacts on its armies: none", cites)
    assert part.side_note(battle, red) == Note("Magical artefacts on its armies: Red Blade", cites)
    assert part.side_note(battle, {"kingdom": "blue", "armies": []}) is None


def test_common_deck_counts_the_strategy_cards_and_adds_the_shared_decks_steps():
    battle = fought()
    part = CARD_PARTS["common_deck"]
    assert part.reckoning is not None
    blue, red = battle.sides
    assert part.reckoning(battle, blue) == Note(
        "3 for the armies of Red Elves, 2 learned from pitched battles lost", (Cite("OA13"),)
    )
    assert part.reckoning(battle, red) == Note(
        "1 for the army of Blue Dwarfs, 0 learned from pitched battles lost", (Cite("OA13"),)
    )
    assert part.reckoning(fought(tabletop=False), blue) is None
    assert part.first_steps == (ONE_DECK,)
    assert not part.draws_condition
    assert part.before_deployment == (OBJECTIVE_CARDS,)
    assert ONE_DECK.startswith("Both players use one Battlefield deck, without the Thunderclouds")
    assert OBJECTIVE_CARDS.startswith("Deal each player 2 Objective cards from the deck")


def test_sieges_names_the_besieged_and_sets_up_the_works_instead_of_the_benefit():
    part = CARD_PARTS["sieges"]
    assert part.stance is not None
    assert part.instead_of_benefit is not None
    stone = fought(details={"siege": {"side": "blue", "works": "stone"}})
    assert part.stance(stone, "blue") == "besieged in its fortress"
    assert part.stance(stone, "red") == "assaulting its walls"
    assert part.instead_of_benefit(stone) == Fact(
        "Siege assault",
        Note(
            "Blue Dwarfs is besieged in its fortress: instead of the defender's benefit it "
            "sets up, wholly in its own half before the first unit deploys, 2 stone towers, "
            "2 stone walls, a gate in one wall, and 2 objective markers on sections (1 victory "
            "point each).",
            (Cite("OA15"),),
        ),
    )
    wood = fought(details={"siege": {"side": "red", "works": "wood"}})
    assert part.stance(wood, "red") == "besieged in its capital"
    fact = part.instead_of_benefit(wood)
    assert fact is not None
    assert fact.note.text.startswith("Red Elves is besieged in its capital:")
    works = "1 wooden tower, 2 wooden walls, a gate, and 1 objective marker on a section."
    assert fact.note.text.endswith(works)
    plain = fought()
    assert part.stance(plain, "blue") is None
    assert part.instead_of_benefit(plain) is None
