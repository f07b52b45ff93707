"""The simulator's loop (campaign/rules/simulation.py) with stand-ins for the engine: what
it writes to start a campaign, what it refuses, when it calls the bots and when it stops.
Whole campaigns played by the bots through the real engine are in test_simulation.py."""

import random
import re
from typing import Any

import pytest

from campaign.rules import simulation
from campaign.rules.bots import ANSWERS
from campaign.rules.hexmap import map_to_json
from campaign.rules.mapgen import generate_map
from campaign.rules.simulation import (
    SimulationError,
    campaign_files,
    default_size,
    new_campaign,
    play_campaign,
)

type Json = dict[str, Any]

HEXMAP = generate_map(2, 1, 60)
ENDED = {"year": 6, "season": "ended", "month": 0, "step": "final"}


def test_a_new_campaign_is_a_file_at_the_start_of_setup_with_the_rules_asked_for():
    data = new_campaign(3, 7, HEXMAP, battles="simple", orders="cycle", switches=["sieges"])
    assert data == {
        "format": 1,
        "name": "Simulation: 3 kingdoms, seed 7",
        "options": {"orders": "cycle", "battles": "simple", "seed": 7, "sieges": True},
        "map": map_to_json(HEXMAP),
        "clock": {"year": 1, "season": "setup", "month": 0, "step": "races"},
        "kingdoms": [
            {"id": "red", "name": "The Red Kingdom"},
            {"id": "blue", "name": "The Blue Kingdom"},
            {"id": "green", "name": "The Green Kingdom"},
        ],
    }
    assert new_campaign(2, 1, HEXMAP)["options"] == {
        "orders": "sealed",
        "battles": "tabletop",
        "seed": 1,
    }


def test_eight_kingdoms_take_eight_colours_and_a_map_of_forty_five_hexes_each():
    assert len(new_campaign(8, 1, HEXMAP)["kingdoms"]) == 8
    assert default_size(8) == 360


@pytest.mark.parametrize(
    ("kingdoms", "battles", "orders", "problem"),
    [
        (1, "simple", "sealed", "A campaign has 2 to 8 kingdoms, not 1."),
        (9, "simple", "sealed", "A campaign has 2 to 8 kingdoms, not 9."),
        (2, "dice", "sealed", "Battles are tabletop or simple, not 'dice'."),
        (2, "simple", "secret", "Orders are sealed or cycle, not 'secret'."),
    ],
)
def test_bad_arguments_are_refused(kingdoms, battles, orders, problem):
    with pytest.raises(ValueError, match=f"^{re.escape(problem)}$"):
        new_campaign(kingdoms, 1, HEXMAP, battles=battles, orders=orders)


def test_the_bots_answer_every_kind_of_pending():
    """The kinds the campaign file lists (campaign-file.md, Outputs), with option
    succession's."""
    kinds = {
        "race", "capital", "settlements", "starting_army", "orders", "battle_choice",
        "last_stand", "battle_result", "retreat", "tithes", "purchases", "feed", "deploy",
        "succession",
    }  # fmt: skip
    assert set(ANSWERS) == kinds


class Engine:
    """A stand-in for `advance`: it asks each kingdom's race, then ends the campaign, and
    keeps what it was given."""

    def __init__(self, asks: int = 1, *, ends: bool = True) -> None:
        self.given: list[Json] = []
        self.asks = asks
        self.ends = ends

    def __call__(self, data: object) -> Json:
        assert isinstance(data, dict)
        self.given.append(data)
        if len(self.given) > self.asks:
            clock = ENDED if self.ends else data["clock"]
            return {**data, "clock": clock, "pending": []}
        pending = [{"kind": "race", "kingdom": k["id"]} for k in data["kingdoms"]]
        return {**data, "pending": pending}


def test_the_bots_answer_between_two_calls_and_the_last_file_is_the_ended_one():
    engine = Engine()
    data = new_campaign(2, 3, HEXMAP)
    files = list(campaign_files(data, random.Random(3), HEXMAP, advance=engine))
    assert [f["clock"]["season"] for f in files] == ["setup", "ended"]
    assert engine.given[0] == data
    assert set(engine.given[1]["inputs"]["races"]) == {"red", "blue"}
    assert files[1]["pending"] == []


def test_an_engine_that_asks_for_nothing_before_the_end_stops_the_simulation():
    with pytest.raises(SimulationError, match="asking for nothing"):
        list(
            campaign_files(
                new_campaign(2, 3, HEXMAP), random.Random(3), HEXMAP, advance=Engine(ends=False)
            )
        )


def test_a_campaign_that_never_ends_stops_after_the_limit_of_calls(monkeypatch):
    monkeypatch.setattr(simulation, "MAX_CALLS", 5)
    engine = Engine(asks=10)
    with pytest.raises(SimulationError, match="did not end within 5 calls"):
        list(campaign_files(new_campaign(2, 3, HEXMAP), random.Random(3), HEXMAP, advance=engine))
    assert len(engine.given) == 5


def test_a_played_campaign_is_its_last_file_and_starts_as_asked():
    engine = Engine(asks=3)
    final = play_campaign(2, 4, HEXMAP, "simple", "cycle", switches=["wizards"], advance=engine)
    assert final["clock"] == ENDED
    assert engine.given[0] == new_campaign(
        2, 4, HEXMAP, battles="simple", orders="cycle", switches=["wizards"]
    )
    assert len(engine.given) == 4
