"""The winter ledger's and forecast's lines of option wizards: a quest as the forecast
foresees it (its die still to roll) and as the ledger tells it once rolled (OA6, OA7)."""

import pytest

from campaign.display.winter import event_line
from campaign.gazetteer import Names

QUEST = {"type": "quest", "kingdom": "red", "hero": "Grimgut", "points": 250, "tower": [2, 1]}
NAMES = Names({"red": "Red Elves"}, {"regions": [{"name": "the Iron Hills", "hexes": [[2, 1]]}]})


@pytest.mark.parametrize(
    ("result", "outcome", "artefact", "told"),
    [
        (1, "lost", None, "1, the hero is lost."),
        (2, "hurt", None, "2, the hero is hurt."),
        (3, "nothing", None, "3, nothing was found."),
        (6, "nothing left", None, "6, every artefact of the campaign is held: nothing was found."),
        (5, "artefact", "Blade of Slashing", "5, finds Blade of Slashing."),
    ],
)
def test_the_ledger_tells_what_the_quest_found(result, outcome, artefact, told):
    event = {**QUEST, "result": result, "outcome": outcome, "artefact": artefact}
    line = event_line(event, NAMES)
    assert line == f"Grimgut goes on a quest to the Wizard's tower in the Iron Hills: {told}"


def test_the_forecast_never_tells_the_die_still_to_roll():
    event = {**QUEST, "result": 5, "outcome": "artefact", "artefact": "Blade of Slashing"}
    line = event_line(event, NAMES, foreseen=True)
    assert (
        line
        == "Grimgut goes on a quest to the Wizard's tower in the Iron Hills: a die decides what he finds."
    )
