"""Option glory (OB1 to OB4) as the standings tell it: a kingdom's line names its glory
and honours, and its might by source counts its honours as the engine does (OB4)."""

from campaign.display import events
from campaign.display.optional.glory import might_source, standing_notes
from campaign.gazetteer import Names


def test_the_honours_might_is_the_engines_two_each_four_for_the_chroniclers():
    kingdom = {"id": "red", "glory": 3, "honours": ["veterans", "chroniclers"]}

    assert might_source(kingdom) == ("honours", 6)
    assert standing_notes(kingdom) == ("Glory 3", "Veterans", "Chroniclers")


def test_glory_past_five_once_every_honour_is_claimed_is_two_a_five():
    assert might_source({"glory": 11, "honours": ["granaries"]}) == ("honours", 6)


def test_an_honour_claimed_is_told_with_what_it_does():
    claimed = {
        "year": 1, "season": "winter", "month": 0, "step": "build", "type": "honour-claimed",
        "kingdom": "red", "honour": "veterans",
    }  # fmt: skip
    line = events.describe(claimed, Names({"red": "Red Elves"})).text
    assert line == (
        "Red Elves claimed the honour Veterans (its armies' Defence +1 in simple land battles)."
    )
