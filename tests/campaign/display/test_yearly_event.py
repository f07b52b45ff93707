"""Option yearly_event (OW15) in words: the year's die as the report and the chronicle tell
it (with its die) and as every kingdom's winter page tells it first; a revolt's razing; the
year's gains in a kingdom's gathering."""

from campaign.display import events
from campaign.display.chronicle import chronicle_of
from campaign.display.winter import ledger, news
from campaign.gazetteer import Names

WINTER = {"year": 1, "season": "winter", "month": 0, "step": "gather"}
NAMES = Names({"red": "Red Elves", "blue": "Blue Dwarfs"})


def year(die: int, event: str) -> dict[str, object]:
    return {**WINTER, "type": "yearly_event", "dice": [die], "event": event}


def test_the_years_die_is_told_with_its_die_and_what_it_brings():
    line = events.describe(year(6, "fair"), NAMES)
    assert line.text == "The year's event: a trade fair: every kingdom gathers 1 gold more."
    assert [(roll.value, roll.meaning) for roll in line.rolls] == [(6, "the year's die: fair")]
    frost = events.describe(year(1, "frost"), NAMES).text
    assert frost == "The year's event: a hard frost: every kingdom gathers 1 food less this winter."


def test_a_revolt_tells_each_settlement_razed():
    revolted = {
        **WINTER,
        "type": "revolted",
        "kingdom": "red",
        "hex": [6, 0],
        "settlement": "village",
    }
    assert events.describe(revolted, NAMES).text.endswith(
        "rose against Red Elves: its village was razed in the revolt."
    )


def test_a_gathering_tells_the_years_gains_and_what_the_frost_took():
    fair = {
        **WINTER, "type": "gathered", "kingdom": "red", "gold": 4, "food": 0,
        "tiles": [], "gains": [{"source": "fair", "gold": 1, "food": 0}],
    }  # fmt: skip
    assert events.describe(fair, NAMES).text == (
        "Red Elves gathered 4 gold and 0 food; the trade fair 1 gold."
    )
    frost = {**fair, "gold": 2, "food": 1, "gains": [{"source": "frost", "gold": 0, "food": -1}]}
    assert "; the hard frost took 1 food" in events.describe(frost, NAMES).text
    bare = {**fair, "gold": 2, "food": 0, "gains": [{"source": "frost", "gold": 0, "food": 0}]}
    assert "; the hard frost took nothing" in events.describe(bare, NAMES).text


def test_every_kingdoms_winter_page_tells_the_years_die_first_and_its_own_ledger_apart():
    """The year's die is no kingdom's: every kingdom's page tells it (`news`), and no
    kingdom's ledger repeats it; a revolt's razing is in the ledger of the kingdom it hit."""
    data = {
        "clock": {"year": 1, "season": "winter", "month": 0, "step": "tithe"},
        "events": [
            year(2, "revolt"),
            {
                **WINTER,
                "type": "revolted",
                "kingdom": "red",
                "hex": [6, 0],
                "settlement": "village",
            },
        ],
    }
    assert news(data, NAMES) == [
        "The year's die rolled 2: a revolt: every settlement cut off from its kingdom's "
        "capital rises and is razed."
    ]
    assert ledger(data, "blue", NAMES) == []
    assert len(ledger(data, "red", NAMES)) == 1
    assert "cut off from the capital, rose: its village was razed" in ledger(data, "red", NAMES)[0]


def test_the_chronicle_tells_the_years_die_and_a_revolt():
    revolted = {**WINTER, "type": "revolted", "kingdom": "red", "hex": [6, 0], "settlement": "city"}
    told = chronicle_of([year(2, "revolt"), revolted], [], names=NAMES, months={})
    lines = [line.text for month in told for line in month.lines]
    assert lines[0].startswith("The year's event: a revolt")
    assert lines[1].endswith("rose against Red Elves: its city was razed in the revolt.")
