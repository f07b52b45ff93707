"""Option milestones (OW12 to OW14) in words: a milestone gained or lost in the report, the
chronicle and the winter ledger; its holders on the leaderboard, and its might in the words
of how might is counted."""

from campaign.display import events, story
from campaign.display.chronicle import chronicle_of
from campaign.gazetteer import Names

REFORM = {"year": 1, "season": "summer", "month": 2, "step": "reform"}
NAMES = Names({"red": "Red Elves", "blue": "Blue Dwarfs"})


def test_a_milestone_gained_and_lost_is_told_with_what_earns_it():
    gained = {
        **REFORM,
        "type": "milestone-gained",
        "kingdom": "red",
        "milestone": "largest_kingdom",
    }
    lost = {**gained, "type": "milestone-lost", "kingdom": "blue"}
    assert events.describe(gained, NAMES).text == (
        "Red Elves holds the milestone Largest kingdom (12 tiles or more, and strictly the "
        "most): 2 might."
    )
    assert events.describe(lost, NAMES).text.startswith(
        "Blue Dwarfs no longer holds the milestone Largest kingdom"
    )
    told = chronicle_of([gained, lost], [], names=NAMES, months={})
    assert len([line for month in told for line in month.lines]) == 2


def test_the_leaderboard_names_each_kingdoms_milestones_and_counts_their_might():
    data = {
        "options": {"milestones": True},
        "kingdoms": [
            {"id": "red", "name": "Red", "milestones": ["heavily_fortified", "warlord"]},
            {"id": "blue", "name": "Blue", "milestones": []},
        ],
        "scores": [
            {"kingdom": "red", "might": 20, "rank": 1},
            {"kingdom": "blue", "might": 5, "rank": 2},
        ],
    }
    board = story.leaderboard(data, banners={})
    red, blue = board.standings
    assert red.notes == ("Heavily fortified (+2)", "Warlord (+2)")
    assert blue.notes == ()
    assert board.might_terms == ("2 per milestone held (option OW14)",)
    off = story.leaderboard({**data, "options": {}}, banners={})
    assert off.might_terms == ()
    assert off.standings[0].notes == ()


def test_might_by_source_splits_settlements_armies_wins_and_milestones():
    """P1 and OW14: Red's 31 might are 2 armies (10), 1 tabletop win, 2 milestones (4), and
    16 from its settlements; without the option, no milestones' share."""
    score = {"kingdom": "red", "might": 31, "armies": 2}
    red = {"id": "red", "pitched_wins": 1, "milestones": ["empire", "warlord"]}
    assert story.might_by_source(score, red, {"milestones": True}) == (
        ("settlements", 16),
        ("armies", 10),
        ("tabletop wins", 1),
        ("milestones", 4),
    )
    assert story.might_by_source({**score, "might": 27}, {**red, "milestones": []}, {}) == (
        ("settlements", 16),
        ("armies", 10),
        ("tabletop wins", 1),
    )
