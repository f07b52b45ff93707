"""Whole campaigns played by the bots through `advance` (campaign/rules/simulation.py):
seeded 8-kingdom campaigns run to the end, the scores are a recount of the final state,
and the same seed gives the same campaign.

`make test` plays the few seeds (SEEDS) that together reach every kind of decision the
bots are asked and every type of event the engine records in a bot-played campaign, and
checks that they do; `make simulate-long` plays the hundred seeds 0 to 99 (marked
`long`, left out of `make test`) and checks that they reach nothing the few do not."""

import json
import random
import re
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from campaign.rules.bots import ANSWERS
from campaign.rules.engine import advance
from campaign.rules.fileformat import parse_campaign
from campaign.rules.mapgen import generate_map
from campaign.rules.options import OPTIONS
from campaign.rules.simulation import campaign_files, new_campaign, play_campaign
from campaign.rules.vocabulary import EventType

type Json = dict[str, Any]

ENDED = {"year": 6, "season": "ended", "month": 0, "step": "final"}
SETTLEMENT_MIGHT = {"village": 1, "city": 2, "fortress": 2}
RULES = Path(__file__).resolve().parents[2] / "campaign" / "rules"

# Seeds of 0 to 99 that, played together, reach every kind of decision and every type of
# event that any of the hundred reaches: 1 (simple battles; the only one of the hundred
# with an army that finds no room to deploy), 9 (cycle orders) and 50 (tabletop battles;
# the only one with a battle restated). `make simulate-long` fails if one of the hundred
# reaches more than these do together.
SEEDS = (1, 9, 50)
# The types of event the engine records that none of the hundred campaigns does, and why;
# the casebook (tests/rules/test_casebook_*.py) has a case of each.
NOT_IN_SIMULATIONS = {
    "deadline-default": "only a deadline's --defaults-now takes defaults: the bots answer all",
}


def game(seed: int) -> tuple[str, str]:
    """Battles and orders for a seed: both kinds of battle, and cycle orders one time in ten
    (they take a call of the engine per kingdom, so they are slower)."""
    return ("simple" if seed % 2 else "tabletop", "cycle" if seed % 10 == 9 else "sealed")


@cache
def played(
    seed: int, switches: tuple[str, ...] = ()
) -> tuple[Json, frozenset[str], frozenset[str]]:
    """Seed `seed`'s 8-kingdom campaign on a small generated map: its final file, the kinds
    of decision it asked for and the types of event it recorded."""
    battles, orders = game(seed)
    if switches:  # the optional rules' cards are those of battles at the tabletop
        battles = "tabletop"
    hexmap = generate_map(8, seed, 150)
    data = new_campaign(8, seed, hexmap, battles=battles, orders=orders, switches=switches)
    kinds: set[str] = set()
    events: set[str] = set()
    for after in campaign_files(data, random.Random(seed), hexmap):
        kinds.update(p["kind"] for p in after["pending"])
        events.update(e["type"] for e in after["events"])
    return after, frozenset(kinds), frozenset(events)


def event_types() -> set[str]:
    """Every type of event the engine records (`turn.record(EventType.X, ...)` in its
    source)."""
    source = "\n".join(path.read_text() for path in RULES.rglob("*.py"))
    return {EventType[name] for name in re.findall(r"\.record\(\s*EventType\.(\w+)", source)}


def the_end_is_sound(final: Json) -> None:
    """The bots answered everything the engine asked, the campaign ended after 6 years, and
    the final file is valid, asks for nothing, and holds scores that are a recount of its
    state."""
    assert final["clock"] == ENDED
    assert final["pending"] == []
    parse_campaign(json.loads(json.dumps(final)))  # valid: the engine would refuse a bad state
    assert_scores_recount(final)
    assert_eliminated_have_nothing(final)


@pytest.mark.parametrize("seed", SEEDS)
def test_an_8_kingdom_campaign_plays_to_the_end(seed):
    final, _, _ = played(seed)
    the_end_is_sound(final)


EVERY_OPTION = tuple(row.name for row in OPTIONS if row.switch)
# The seeds played with every option on, found together to reach every event of the options
# (13 a tower blocking a move and an artefact back to the pool, 21 an artefact taken in
# battle, the horde falling back after a draw, a revolt); each option's dice move them.
OPTION_SEEDS = (13, 21)


def played_with_every_option(seed: int) -> Json:
    return played(seed, EVERY_OPTION)[0]


def test_the_seeds_with_every_option_on_reach_a_siege_and_licensed_lists():
    """Every battle handed to the tabletop in those campaigns, file after file: one at
    least is a siege, and one at least has a side with something to spend on Monsters or
    War Engines."""
    handed_off = []
    for seed in OPTION_SEEDS:
        hexmap = generate_map(8, seed, 150)
        data = new_campaign(8, seed, hexmap, battles="tabletop", switches=EVERY_OPTION)
        for after in campaign_files(data, random.Random(seed), hexmap):
            handed_off += [b for b in after["battles"] if b["status"] == "awaiting_result"]
    assert any(b["siege"] for b in handed_off)
    assert any(any(s["limits"].values()) for b in handed_off for s in b["sides"])


@pytest.mark.parametrize("seed", OPTION_SEEDS)
def test_an_8_kingdom_campaign_with_every_option_on_plays_to_the_end(seed):
    """Issue 27: the bots play a whole campaign with every optional rule on, on tabletop
    battles: it ends soundly, every army has its licence (OA1), and the battles handed to
    the tabletop carry each side's limits (OA2) and say whether they are sieges (OA14)."""
    final = played_with_every_option(seed)
    the_end_is_sound(final)
    assert all(name in final["options"] for name in EVERY_OPTION)
    assert all("licence" in army for army in final["armies"])
    handed_off = [b for b in final["battles"] if b["kind"] == "pitched" and b["scenario"]]
    assert handed_off, "no battle went to the tabletop"
    assert all("siege" in b and all("limits" in s for s in b["sides"]) for b in handed_off)


def test_the_seeds_together_reach_every_kind_of_decision_and_every_type_of_event():
    """What SEEDS reach is all the engine asks for and records, but NOT_IN_SIMULATIONS."""
    games = [played(seed) for seed in SEEDS] + [played(seed, EVERY_OPTION) for seed in OPTION_SEEDS]
    kinds = set().union(*(kinds for _, kinds, _ in games))
    events = set().union(*(events for _, _, events in games))
    every = set(ANSWERS) | event_types()
    assert set(NOT_IN_SIMULATIONS) <= every  # each named is still asked for or recorded
    assert kinds | events == every - set(NOT_IN_SIMULATIONS)


@pytest.mark.long
@pytest.mark.parametrize("seed", range(100))
def test_each_of_a_hundred_campaigns_plays_to_the_end_and_reaches_nothing_new(seed):
    """Seeds 0 to 99 (`make simulate-long`): each plays to a sound end, and reaches no kind
    of decision or type of event that SEEDS together do not."""
    final, kinds, events = played(seed)
    the_end_is_sound(final)
    reached = set().union(*(played(s)[1] | played(s)[2] for s in SEEDS))
    assert kinds | events <= reached, f"seed {seed} reaches {(kinds | events) - reached}"


def assert_scores_recount(final: Json) -> None:
    """Rulings P1, P2: might is tabletop wins, settlements (the capital 3), 5 an army; with
    option milestones 2 a milestone held (OW14); with option glory its honours (OB4)."""
    table = [recount(final, kingdom) for kingdom in final["kingdoms"]]
    assert len(final["scores"]) == len(table)
    for entry in final["scores"]:
        assert {k: entry[k] for k in entry if k != "rank"} in table
    mights = [entry["might"] for entry in final["scores"]]
    assert mights == sorted(mights, reverse=True)
    assert final["scores"][0]["rank"] == 1
    ranks = [entry["rank"] for entry in final["scores"]]
    assert ranks == sorted(ranks)


def honours_might(kingdom: Json) -> int:
    """OB4: 2 an honour, 4 the chroniclers; glory of 5 or more (every honour claimed) 2 per 5."""
    honours = kingdom.get("honours", [])
    glory = int(kingdom.get("glory", 0))
    return 2 * len(honours) + 2 * ("chroniclers" in honours) + 2 * (glory // 5)


def recount(final: Json, kingdom: Json) -> Json:
    own = [t for t in final["tiles"] if t["owner"] == kingdom["id"]]
    count = Counter(t["settlement"] for t in own if t["settlement"])
    armies = sum(1 for a in final["armies"] if a["kingdom"] == kingdom["id"])
    holds_capital = kingdom["capital"] is not None
    might = (
        kingdom["pitched_wins"]
        + sum(SETTLEMENT_MIGHT[s] * n for s, n in count.items())
        + holds_capital
        + 5 * armies
        + 2 * len(kingdom.get("milestones", []))  # option milestones (OW14)
        + honours_might(kingdom)  # option glory (OB4)
    )
    return {
        "kingdom": kingdom["id"],
        "might": might,
        "armies": armies,
        "cities": count["city"],
        "fortresses": count["fortress"],
        "villages": count["village"],
    }


def assert_eliminated_have_nothing(final: Json) -> None:
    for kingdom in final["kingdoms"]:
        if kingdom["eliminated"] is None:
            continue
        assert kingdom["id"] not in final["player_order"]
        units = [*final["armies"], *final["ships"]]
        assert not [u for u in units if u["kingdom"] == kingdom["id"]]


def test_the_final_file_feeds_back_in_unchanged():
    """The engine accepts its own final file, and an ended campaign goes no further."""
    final = play_campaign(3, 5, generate_map(3, 5, 100))
    assert advance(json.loads(json.dumps(final))) == final


def test_the_same_seed_gives_the_same_campaign_and_another_seed_another():
    hexmap = generate_map(4, 11, 120)
    first = json.dumps(play_campaign(4, 11, hexmap, "tabletop", "cycle"))
    assert json.dumps(play_campaign(4, 11, hexmap, "tabletop", "cycle")) == first
    assert json.dumps(play_campaign(4, 12, hexmap, "tabletop", "cycle")) != first


def test_the_global_random_source_is_neither_used_nor_disturbed():
    hexmap = generate_map(2, 3, 60)
    random.seed(1)
    first = play_campaign(2, 3, hexmap)
    random.seed(2)
    state = random.getstate()
    assert play_campaign(2, 3, hexmap) == first
    assert random.getstate() == state


def test_only_the_entry_point_is_called_and_every_file_is_its_output():
    """The simulator goes through the `advance` it is given, one call per file."""
    calls: list[object] = []

    def counting(data: object) -> Json:
        calls.append(data)
        return advance(data)

    hexmap = generate_map(2, 8, 60)
    files = list(
        campaign_files(new_campaign(2, 8, hexmap), random.Random(8), hexmap, advance=counting)
    )
    assert len(files) == len(calls)
    assert files[-1]["clock"] == ENDED
