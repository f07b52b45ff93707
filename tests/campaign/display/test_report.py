"""The month report: campaign/report.py on its own (events into sentences, every die with
what it decided), and the report page for each kind of visitor."""

import html
from functools import cache
from typing import Any

import pytest
from django.urls import reverse

from campaign.display import describing, events, report
from campaign.gazetteer import Names
from campaign.maps import load_builtin_map
from campaign.models import Campaign
from campaign.rules.options import OPTIONS
from campaign.rules.simulation import play_campaign
from campaign.services import advancing, common, submissions
from campaign.words import names_of
from tests.campaign.helpers import first_visit_queries, new_campaign, play_until, signed_in

# --- campaign/report.py, no database --------------------------------------------------------


@cache
def played(battles: str) -> dict[str, Any]:
    """A whole campaign of four kingdoms played by bots; with tabletop battles, every
    optional rule on (towers, quests, captures, sieges)."""
    switches = tuple(row.name for row in OPTIONS if row.switch) if battles == "tabletop" else ()
    return play_campaign(4, 1, load_builtin_map("borderlands"), battles=battles, switches=switches)


def chapters(data: dict[str, Any]) -> list[report.Chapter]:
    return list(dict.fromkeys(report.chapter_of(e) for e in data["events"]))


def dice_of(data: dict[str, Any], chapter: report.Chapter) -> list[int]:
    return [d for e in data["events"] if report.chapter_of(e) == chapter for d in e.get("dice", [])]


@pytest.mark.parametrize("battles", ["tabletop", "simple"])
def test_every_die_of_every_chapter_is_listed_in_order_with_what_it_decided(battles):
    data = played(battles)
    for chapter in chapters(data):
        rolls = report.month_report(data, chapter).rolls
        assert [roll.value for roll in rolls] == dice_of(data, chapter), chapter
        for roll in rolls:
            assert roll.meaning, roll
            assert not roll.meaning.startswith("a die for"), roll


@pytest.mark.parametrize("battles", ["tabletop", "simple"])
def test_every_event_type_the_engine_emits_has_its_own_sentence(battles):
    data = played(battles)
    assert {e["type"] for e in data["events"]} <= set(events.WORDINGS)
    for chapter in chapters(data):
        for section in report.month_report(data, chapter).sections:
            for line in section.lines:
                assert line.text.endswith((".", ")")), line
                assert "{" not in line.text, line


def test_an_exploration_tells_its_two_dice_their_total_and_the_settlement_found():
    data = file_with(
        event("explored", kingdom="red", hex=[1, 0], dice=[6, 4], settlement="city"),
    )
    line = only_line(report.month_report(data, MONTH_1, names=named(data)))
    assert line.text == (
        "Red Elves explored new land in the Greywood: rolled 6 + 4 = 10 and found a city, Harrowby."
    )
    assert [r.value for r in line.rolls] == [6, 4]
    assert "10, a city, Harrowby" in line.rolls[0].meaning


def test_a_roll_off_gives_each_kingdom_its_die():
    data = file_with(
        event("roll-off", why="player order", kingdoms=["red", "blue"], dice=[2, 5]),
    )
    rolls = only_line(report.month_report(data, MONTH_1)).rolls
    assert [(r.value, r.meaning) for r in rolls] == [
        (2, "Red Elves's roll-off die for player order"),
        (5, "Blue Dwarfs's roll-off die for player order"),
    ]


def test_a_pitched_battle_handed_off_gives_its_board_points_scenario_and_dice():
    battle = {
        "year": 1,
        "month": 1,
        "hex": [2, 0],
        "kind": "pitched",
        "attacker": "red",
        "defender": "blue",
        "sides": [
            {"kingdom": "red", "armies": ["red-1", "red-2"], "ships": [], "points": 1000,
             "strategy_cards": 1, "defending": False},
            {"kingdom": "blue", "armies": ["blue-1"], "ships": [], "points": 500,
             "strategy_cards": 0, "defending": True},
        ],
        "board": "4x4",
        "condition": "Clear Conditions",
        "scenario": "Pillage!",
        "defender_benefit": None,
        "last_stand": "blue",
        "status": "awaiting_result",
        "result": None,
        "winner": None,
        "dice": [5, 4],
        "extra": {"how_to_win": "Hold the objectives."},
    }  # fmt: skip
    data = file_with(
        event("battle", kind="pitched", hex=[2, 0], attacker="red", defender="blue",
              status="awaiting_result", result=None, winner=None, dice=[5, 4]),
        battles=[battle],
    )  # fmt: skip
    month = report.month_report(data, MONTH_1, names=named(data))
    (handoff,) = month.handoffs
    assert handoff.hex == "the Iron Hills"
    assert handoff.board == "4x4"
    assert handoff.scenario == "Pillage!"
    assert handoff.sides == (
        "Red Elves: 1st army, 2nd army, 1000 points, 1 strategy card",
        "Blue Dwarfs: 1st army, 500 points, 0 strategy cards, defending",
    )
    assert handoff.last_stand == "Blue Dwarfs makes a Last Stand"
    assert handoff.outcome == "awaiting its result"
    assert [(r.value, r.meaning) for r in month.rolls] == [
        (5, "the condition of the battle in the Iron Hills: Clear Conditions"),
        (4, "the scenario of the battle in the Iron Hills: Pillage!"),
    ]


def test_a_naval_battle_says_whose_die_each_was_round_by_round():
    battle = {
        "year": 1, "month": 1, "hex": [3, 0], "kind": "naval", "attacker": "red",
        "defender": "blue", "sides": [], "status": "resolved", "result": "win",
        "winner": "red", "dice": [6, 1, 5, 2],
        "extra": {"rounds": [
            {"attacker_dice": [6], "defender_dice": [1], "attacker_sunk": [],
             "defender_sunk": []},
            {"attacker_dice": [5], "defender_dice": [2], "attacker_sunk": [],
             "defender_sunk": ["blue-s1"]},
        ]},
    }  # fmt: skip
    data = file_with(
        event("battle", kind="naval", hex=[3, 0], attacker="red", defender="blue",
              status="resolved", result="win", winner="red", dice=[6, 1, 5, 2]),
        battles=[battle],
    )  # fmt: skip
    line = only_line(report.month_report(data, MONTH_1, names=named(data)))
    assert "Naval battle in the Grey Sea" in line.text
    assert "sunk: Blue Dwarfs' 1st ship" in line.text
    assert "Red Elves won" in line.text
    assert [r.meaning for r in line.rolls] == [
        "Red Elves's die in round 1 of the naval battle in the Grey Sea",
        "Blue Dwarfs's die in round 1 of the naval battle in the Grey Sea",
        "Red Elves's die in round 2 of the naval battle in the Grey Sea",
        "Blue Dwarfs's die in round 2 of the naval battle in the Grey Sea",
    ]


def test_an_unknown_event_gets_a_plain_line_and_keeps_its_dice():
    data = file_with(event("comet-seen", hex=[0, 1], unit="red-1", dice=[3]))
    line = only_line(report.month_report(data, MONTH_1, names=named(data)))
    assert line.text == "Comet seen: hex the Greywood, unit Red Elves' 1st army."
    assert [r.value for r in line.rolls] == [3]


def test_a_malformed_known_event_does_not_break_the_report():
    data = file_with(event("explored", kingdom="red", dice=[1]))
    line = only_line(report.month_report(data, MONTH_1))
    assert line.text.startswith("Explored")
    assert [r.value for r in line.rolls] == [1]


def test_orders_are_listed_per_kingdom_in_words():
    orders = {
        "red": [
            {"unit": "red-1", "order": "move", "to": [1, 0]},
            {"unit": "red-s1", "order": "move", "to": [2, 0], "carry": "red-2"},
            {"unit": "red-3", "order": "defend"},
        ]
    }
    month = report.month_report(file_with(), MONTH_1, orders=orders, names=named(file_with()))
    assert month.orders == (
        report.KingdomOrders(
            "Red Elves",
            (
                "Red Elves' 1st army: move to the Greywood",
                "Red Elves' 1st ship: move to the Iron Hills, carrying Red Elves' 2nd army",
                "Red Elves' 3rd army: defend",
            ),
        ),
    )


def test_a_player_named_army_is_said_by_its_name_and_its_kingdom():
    route: dict[str, Any] = {"from": [1, 0], "to": [2, 0]}
    data = file_with(event("moved", unit="red-2", **route))
    gazetteer = {**GAZETTEER, "units": {"red-2": "the Iron Host"}}
    names = Names.of(data, gazetteer, report.file_names(data))
    line = only_line(report.month_report(data, MONTH_1, names=names))
    assert line.text == "The Iron Host (Red Elves) moved from the Greywood to the Iron Hills."


def test_a_place_with_a_settlement_is_said_by_its_name_else_by_its_region():
    taken: dict[str, Any] = {"from": "red"}
    route: dict[str, Any] = {"from": [1, 0], "to": [0, 1]}
    data = file_with(
        event("tile-taken", kingdom="red", hex=[1, 0]),
        event("built", kingdom="red", settlement="village", hex=[1, 1]),
        event("tile-taken", kingdom="blue", hex=[1, 1], **taken),
        event("moved", unit="red-1", **route),
    )
    lines = [line.text for s in report.month_report(data, MONTH_1, names=named(data)).sections
             for line in s.lines]  # fmt: skip
    assert lines == [
        "Red Elves took land in the Greywood.",
        "Red Elves built a village at Ashford.",
        "Blue Dwarfs took Ashford from Red Elves.",
        "Red Elves' 1st army moved within the Greywood.",
    ]


def test_the_new_player_order_is_the_months_last():
    data = file_with(
        event("player-order", order=["red", "blue"]),
        event("player-order", order=["blue", "red"], armies={"blue": 2, "red": 1}),
    )
    assert report.month_report(data, MONTH_1).player_order == ("Blue Dwarfs", "Red Elves")


def test_a_report_covers_the_chapters_its_snapshot_added_to_else_the_newest():
    events = [event("moved"), event("moved", month=2), event("gathered", season="winter")]
    assert report.chapters_to_report(events, 1) == [
        report.Chapter(1, "summer", 2),
        report.Chapter(1, "winter", 0),
    ]
    assert report.chapters_to_report(events, 3) == [report.Chapter(1, "winter", 0)]
    assert report.chapters_to_report([], None) == []


MONTH_1 = report.Chapter(1, "summer", 1)


def event(type_: str, *, season: str = "summer", month: int = 1, **fields: Any) -> dict[str, Any]:
    step, month = ("resolution", month) if season == "summer" else ("gather", 0)
    return {"year": 1, "season": season, "month": month, "step": step, "type": type_, **fields}


def file_with(
    *events: dict[str, Any], battles: list[dict[str, Any]] | None = None
) -> dict[str, Any]:
    return {
        "kingdoms": [{"id": "red", "name": "Red Elves"}, {"id": "blue", "name": "Blue Dwarfs"}],
        "events": list(events),
        "battles": battles or [],
    }


# The names of the places of these files: what a campaign's gazetteer holds.
GAZETTEER = {
    "regions": [
        {"name": "the Greywood", "hexes": [[0, 1], [1, 0], [1, 1]]},
        {"name": "the Iron Hills", "hexes": [[2, 0]]},
        {"name": "the Grey Sea", "hexes": [[3, 0]]},
    ],
    "settlements": {"0,1": "Lorby", "1,0": "Harrowby", "1,1": "Ashford", "2,0": "Coldhold"},
    "units": {},
}


def named(data: dict[str, Any]) -> Names:
    return Names.of(data, GAZETTEER, report.file_names(data))


def only_line(month: report.ChapterReport) -> describing.Line:
    (line,) = [line for section in month.sections for line in section.lines]
    return line


# --- the report page ---------------------------------------------------------------------------


def report_url(campaign: Campaign, number: int) -> str:
    return reverse("campaign:report", args=[campaign.slug, number])


def orders_resolved(data: dict[str, Any]) -> bool:
    clock = data["clock"]
    return bool(clock["season"] == "summer" and clock["month"] == 2)


@pytest.mark.django_db
def test_players_and_the_admin_read_the_month_report_with_its_orders(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, orders_resolved)
    waiting = [s.number for s in campaign.snapshots.all() if s.data["clock"]["step"] == "orders"]
    orders = campaign.snapshots.get(number=waiting[0] + 1).decisions["orders"]
    newest = common.latest_snapshot(campaign).number
    names = names_of(common.latest_snapshot(campaign).data, campaign.gazetteer)
    for user in ("alice", "bob", "gm"):
        page = signed_in(client, cast[user]).get(report_url(campaign, newest))
        assert page.status_code == 200
        text = html.unescape(page.text)
        assert "What happened in year 1, summer month 1" in text
        given = [
            report.order_words(order, names) for kingdom in orders.values() for order in kingdom
        ]
        assert given
        assert all(words in text for words in given)
        assert "The new player order" in text


@pytest.mark.django_db
def test_the_report_lists_every_die_of_the_month_with_its_meaning(client, cast):
    campaign = new_campaign(cast)
    data = play_until(campaign, cast, orders_resolved)
    number = common.latest_snapshot(campaign).number
    page = signed_in(client, cast["alice"]).get(report_url(campaign, number)).text
    table = page.split("Every die", 1)[1]
    listed = [int(v) for v in _between_all(table, '<td class="die-value">', "</td>")]
    assert listed  # month 1 explores and rolls off for the player order
    assert listed == dice_of(data, report.Chapter(1, "summer", 1))


@pytest.mark.django_db
def test_sealed_orders_stay_out_of_the_report_until_they_are_resolved(client, cast):
    campaign = new_campaign(cast)
    data = play_until(campaign, cast, lambda d: d["clock"]["step"] == "orders")
    alice = common.kingdom_of(campaign, cast["alice"])
    army = next(a for a in data["armies"] if a["kingdom"] == alice)
    submissions.submission_save(
        campaign=campaign,
        user=cast["alice"],
        kind="orders",
        payload=[{"unit": army["id"], "order": "defend"}],
    )
    number = common.latest_snapshot(campaign).number
    page = html.unescape(signed_in(client, cast["bob"]).get(report_url(campaign, number)).text)
    assert f"{names_of(data, campaign.gazetteer).unit(army['id'])}: defend" not in page
    assert "The orders" not in page  # a setup report: no month's orders at all


@pytest.mark.django_db
def test_a_secret_race_is_never_in_another_players_report(client, cast):
    campaign = new_campaign(cast)
    submissions.submission_save(
        campaign=campaign, user=cast["alice"], kind="races", payload="Nightstalkers"
    )
    submissions.submission_set_ready(campaign=campaign, user=cast["alice"])
    snapshot = advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=1)
    assert snapshot is not None
    assert snapshot.data["inputs"]["races"] == {
        common.kingdom_of(campaign, cast["alice"]): "Nightstalkers"
    }
    number = snapshot.number
    for user in ("bob", "gm"):
        signed_in(client, cast[user])
        for n in range(1, number + 1):
            response = client.get(report_url(campaign, n))
            assert "Nightstalkers" not in response.text


@pytest.mark.django_db
def test_nobody_else_reads_the_report(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, orders_resolved)
    url = report_url(campaign, common.latest_snapshot(campaign).number)
    assert signed_in(client, cast["eve"]).get(url).status_code == 404
    client.logout()
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:sign_in"))


@pytest.mark.django_db
def test_a_report_of_nothing_yet_or_of_no_snapshot_is_not_found(client, cast):
    campaign = new_campaign(cast)
    signed_in(client, cast["alice"])
    assert client.get(report_url(campaign, 1)).status_code == 404  # nothing happened yet
    assert client.get(report_url(campaign, 99)).status_code == 404


@pytest.mark.django_db
def test_the_report_takes_the_same_queries_on_a_small_and_a_large_campaign(client, cast):
    small = new_campaign(cast, "Small")
    play_until(small, cast, orders_resolved)
    big = new_campaign(cast, "Big", map_name="generated", size=1000)
    play_until(big, cast, lambda d: d["clock"]["month"] == 3 and d["clock"]["step"] == "orders")
    signed_in(client, cast["alice"])
    counts = []
    for campaign in (small, big):
        number = common.latest_snapshot(campaign).number
        with first_visit_queries() as queries:
            assert client.get(report_url(campaign, number)).status_code == 200
        counts.append(len(queries.captured_queries))
    assert counts[0] == counts[1]


def _between_all(text: str, start: str, end: str) -> list[str]:
    return [part.split(end, 1)[0] for part in text.split(start)[1:]]
