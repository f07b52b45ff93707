"""The chronicle (/c/<slug>/story/chronicle/): the campaign month by month in words, from the
newest snapshot's events alone, newest month first, each month with its map and report,
battles with their cards, and a filter by kingdom; for each kind of visitor. Which events
name a kingdom is tested first on its own, with no database."""

import html
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaign.display.chronicle import chronicle_of, names_kingdom
from campaign.gazetteer import Names
from campaign.models import Campaign
from campaign.services import common, submissions
from campaign.words import names_of
from tests.campaign.helpers import (
    at_month,
    at_step,
    hand_off_a_battle,
    kingdom_of,
    new_campaign,
    play_until,
    queries_of,
    short_and_long,
    signed_in,
)

type Json = dict[str, Any]

NAMES = {"red-elves": "Red Elves", "blue-dwarfs": "Blue Dwarfs"}


def chronicle_url(campaign: Campaign, kingdom: str = "") -> str:
    url = reverse("campaign:chronicle", args=[campaign.slug])
    return f"{url}?kingdom={kingdom}" if kingdom else url


def card_url(campaign: Campaign, number: int) -> str:
    return reverse("battles:card", args=[campaign.slug, number])


@dataclass
class Month:
    """One month of the chronicle as a reader sees it: its title, its links, its lines and
    the links of each line."""

    title: str = ""
    links: dict[str, str] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    line_links: list[list[str]] = field(default_factory=list)


class Chronicle(HTMLParser):
    """The months of a chronicle page, in the order shown."""

    def __init__(self) -> None:
        super().__init__()
        self.months: list[Month] = []
        self.into: list[str] | None = None  # the text being read: a title, a line, a link
        self.link: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "article" and "chronicle-month" in (found.get("class") or ""):
            self.months.append(Month())
        elif not self.months:
            return
        elif tag == "h2":
            self.into = self.text = []
        elif tag == "li":
            self.into = self.text = []
            self.months[-1].line_links.append([])
        elif tag == "a":
            self.link = found.get("href") or ""
            if self.months[-1].line_links and self.into is not None:
                self.months[-1].line_links[-1].append(self.link)
            else:
                self.into = self.text = []

    def handle_endtag(self, tag: str) -> None:
        if not self.months or self.into is None:
            return
        words = " ".join("".join(self.text).split())
        month = self.months[-1]
        if tag == "h2":
            month.title, self.into = words, None
        elif tag == "li":
            month.lines.append(words.removesuffix(" Battle card"))
            self.into = None
        elif tag == "a" and self.link is not None and not month.line_links:
            month.links[words] = self.link
            self.into = None

    def handle_data(self, data: str) -> None:
        if self.into is not None:
            self.into.append(data)


def months_of(page: str) -> list[Month]:
    parser = Chronicle()
    parser.feed(page)
    return parser.months


def all_lines(months: list[Month]) -> list[str]:
    return [line for month in months for line in month.lines]


def names_red(line: str) -> bool:
    return "Red Elves" in line or "red-elves-" in line


# --- Which events name a kingdom, no database -------------------------------------------------


def test_an_event_names_a_kingdom_by_its_id():
    event = {"type": "explored", "kingdom": "red-elves", "hex": [1, 0], "dice": [3, 4]}
    assert names_kingdom(event, "red-elves")
    assert not names_kingdom(event, "blue-dwarfs")


def test_an_event_names_the_kingdom_of_its_unit_and_not_a_kingdom_whose_id_begins_alike():
    event = {"type": "razed", "unit": "red-elves-2", "hex": [1, 0], "settlement": "village"}
    assert names_kingdom(event, "red-elves")
    assert not names_kingdom(event, "red")
    assert names_kingdom({"type": "destroyed", "units": ["blue-dwarfs-s1"]}, "blue-dwarfs")


def test_a_battle_names_both_kingdoms_that_fought_it_and_a_tile_taken_the_one_it_was_taken_from():
    battle = {"type": "battle", "attacker": "red-elves", "defender": "blue-dwarfs", "hex": [0, 0]}
    assert names_kingdom(battle, "red-elves")
    assert names_kingdom(battle, "blue-dwarfs")
    taken = {"type": "tile-taken", "kingdom": "red-elves", "hex": [0, 0], "from": "blue-dwarfs"}
    assert names_kingdom(taken, "blue-dwarfs")
    assert not names_kingdom({"type": "campaign-ended"}, "red-elves")


def test_a_move_from_a_hex_names_no_kingdom_by_its_hex():
    move = {"type": "moved", "unit": "red-elves-1", "from": [0, 0], "to": [1, 0]}
    assert not names_kingdom(move, "blue-dwarfs")


def test_the_chronicle_runs_newest_part_first_and_the_end_is_a_part_of_its_own():
    def event(season: str, month: int, type: str, **fields: Any) -> Json:
        return {"year": 1, "season": season, "month": month, "step": "x", "type": type, **fields}

    events = [
        event("setup", 0, "capital-founded", kingdom="red-elves", hex=[0, 0]),
        event("summer", 1, "moved", unit="red-elves-1", **{"from": [0, 0], "to": [1, 0]}),
        event("summer", 1, "battle", kind="slaughter", hex=[1, 0], attacker="red-elves",
              defender="blue-dwarfs", status="resolved", result="win", winner="red-elves",
              dice=[]),
        event("winter", 0, "recruited", kingdom="blue-dwarfs", army="blue-dwarfs-2", hex=[2, 0]),
        event("winter", 0, "campaign-ended"),
    ]  # fmt: skip
    battles = [{"year": 1, "month": 1, "hex": [1, 0], "kind": "slaughter", "extra": {}}]
    months = {(1, 0, 0): 4, (1, 1, 1): 6, (1, 2, 0): 9, (1, 3, 0): 9}  # where each ends
    names = Names(NAMES, {"regions": [{"name": "the Greywood", "hexes": [[1, 0], [2, 0]]}]})
    told = chronicle_of(events, battles, names=names, months=months)
    assert [part.title for part in told] == [
        "the end of the campaign",
        "the winter of year 1",
        "year 1, summer month 1",
        "the setup",
    ]
    assert [line.text for line in told[0].lines] == ["The campaign has ended."]
    assert told[0].snapshot == 9  # its map and its report
    (slaughter,) = told[2].lines  # the move is left to the report
    assert slaughter.text == "Red Elves slaughtered Blue Dwarfs's units in the Greywood."
    assert slaughter.battle == 1  # the first battle's card
    assert told[2].snapshot == 6
    only_red = chronicle_of(events, battles, names=names, months=months, kingdom="red-elves")
    assert [len(part.lines) for part in only_red] == [0, 0, 1, 1]


# --- The page --------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_member_reads_the_explorations_of_the_months_played_newest_month_first(client, cast):
    campaign = new_campaign(cast)
    data = play_until(campaign, cast, at_month(2, 2))
    explored = [e for e in data["events"] if e["type"] == "explored"]
    assert explored  # the bots explored in year 2, month 1
    months = months_of(signed_in(client, cast["alice"]).get(chronicle_url(campaign)).text)
    titles = [month.title for month in months]
    assert titles[0] == "Year 2, summer month 1"
    assert titles[-1] == "The setup"
    assert "The winter of year 1" in titles
    lines = all_lines(months)
    names = names_of(data, campaign.gazetteer)
    for event in explored:
        first, second = event["dice"]
        where = names.region(event["hex"])
        said = f"{NAMES[event['kingdom']]} explored new land in {where}: rolled "
        assert f"{said}{first} + {second} = {first + second}" in " ".join(lines)
    # What the bots built and recruited in the winter is told; their moves are not.
    built = sum(1 for e in data["events"] if e["type"] in ("built", "recruited", "ship-built"))
    winter = next(m for m in months if m.title == "The winter of year 1")
    assert len(winter.lines) >= built > 0
    assert not any(" moved " in line for line in lines)


@pytest.mark.django_db
def test_each_month_links_to_its_map_and_to_the_report_that_tells_it(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_month(1, 3))
    month_3 = campaign.snapshots.filter(state__clock__month=3).order_by("number").first()
    assert month_3 is not None
    months = months_of(signed_in(client, cast["bob"]).get(chronicle_url(campaign)).text)
    second = next(m for m in months if m.title == "Year 1, summer month 2")
    campaign_url = reverse("campaign:campaign", args=[campaign.slug])
    # Month 2 ended where month 3 began: its map shows what it did, and the report of
    # that snapshot (its events are stored by the step that leaves the month) tells it.
    assert second.links["The map"] == f"{campaign_url}?at={month_3.number}"
    assert second.links["The full report"] == reverse(
        "campaign:report", args=[campaign.slug, month_3.number]
    )
    report_page = client.get(second.links["The full report"]).text
    assert "What happened in year 1, summer month 2" in report_page


@pytest.mark.django_db
def test_a_battle_is_told_with_its_result_and_links_to_its_card(client, cast):
    campaign = new_campaign(cast)
    hex_ = hand_off_a_battle(campaign, cast)
    data = play_until(campaign, cast, at_month(1, 2))
    where = names_of(data, campaign.gazetteer).at(hex_)
    (battle,) = data["battles"]
    assert battle["status"] == "resolved"
    winner = NAMES[battle["winner"]]
    months = months_of(signed_in(client, cast["alice"]).get(chronicle_url(campaign)).text)
    first = next(m for m in months if m.title == "Year 1, summer month 1")
    told = {line: links for line, links in zip(first.lines, first.line_links, strict=True) if links}
    handed_off = f"The battle {where}, Red Elves against Blue Dwarfs, is handed off"
    result = f"The tabletop battle {where}, Red Elves against Blue Dwarfs: {winner} won."
    assert [line for line in told if line.startswith(handed_off)]
    assert result in told
    assert set(map(tuple, told.values())) == {(card_url(campaign, 1),)}


@pytest.mark.django_db
def test_the_filter_keeps_only_the_lines_that_name_the_kingdom(client, cast):
    campaign = new_campaign(cast)
    hand_off_a_battle(campaign, cast)
    play_until(campaign, cast, at_month(2, 2))
    signed_in(client, cast["bob"])
    everything = months_of(client.get(chronicle_url(campaign)).text)
    page = client.get(chronicle_url(campaign, "red-elves")).text
    only_red = months_of(page)
    assert [m.title for m in only_red] == [m.title for m in everything]
    for mine, all_of_it in zip(only_red, everything, strict=True):
        assert mine.lines == [line for line in all_of_it.lines if names_red(line)]
    lines = all_lines(only_red)
    assert any(line.startswith("The battle ") for line in lines)  # a battle it fought
    assert any(line.startswith("Blue Dwarfs") for line in all_lines(everything))
    assert not any(line.startswith("Blue Dwarfs") and not names_red(line) for line in lines)
    assert '<option value="red-elves" selected>Red Elves</option>' in page
    assert '<option value="">All kingdoms</option>' in page


@pytest.mark.django_db
def test_an_unknown_kingdom_in_the_filter_shows_all_kingdoms(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_month(1, 2))
    signed_in(client, cast["alice"])
    everything = all_lines(months_of(client.get(chronicle_url(campaign)).text))
    page = client.get(chronicle_url(campaign, "nobody")).text
    assert all_lines(months_of(page)) == everything
    assert '<option value="" selected>All kingdoms</option>' in page


@pytest.mark.django_db
def test_the_chronicle_tells_only_what_happened_never_sealed_orders(client, cast):
    """Sealed orders wait in a Submission, and resolved ones in a snapshot's `decisions`
    and `inputs`: the chronicle reads none of them, and of the file only its events,
    battles and clocks."""
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_step("orders"))
    data = common.latest_snapshot(campaign).data
    me = kingdom_of(campaign, cast["alice"])
    army = next(a for a in data["armies"] if a["kingdom"] == me)
    submissions.submission_save(
        campaign=campaign,
        user=cast["alice"],
        kind="orders",
        payload=[{"unit": army["id"], "order": "defend"}],
    )
    signed_in(client, cast["bob"])
    with CaptureQueriesContext(connection) as queries:
        page = client.get(chronicle_url(campaign)).text
    assert " defends " not in html.unescape(page)
    assert army["id"] not in page
    sql = " ".join(query["sql"] for query in queries.captured_queries)
    for secret in ("campaign_submission", "decisions", "inputs"):
        assert secret not in sql
    # Every read of the file is a key lookup (SQLite's JSON_EXTRACT, PostgreSQL's ->).
    assert not re.search(r'"campaign_snapshot"\."data"(?!, \'\$|\s*->)', sql)


@pytest.mark.django_db
def test_the_might_page_links_the_chronicle(client, cast):
    campaign = new_campaign(cast)
    page = signed_in(client, cast["alice"]).get(reverse("campaign:might", args=[campaign.slug]))
    assert f'<a href="{chronicle_url(campaign)}">Read the chronicle</a>' in page.text


@pytest.mark.django_db
def test_members_read_it_and_the_admin_too(client, cast):
    campaign = new_campaign(cast)
    for member in ("alice", "bob", "gm"):
        response = signed_in(client, cast[member]).get(chronicle_url(campaign))
        assert response.status_code == 200
        assert "Nothing has happened yet" in response.text
    play_until(campaign, cast, at_month(1, 1))
    assert [m.title for m in months_of(client.get(chronicle_url(campaign)).text)] == ["The setup"]


@pytest.mark.django_db
def test_the_chronicle_takes_the_same_queries_on_a_short_and_a_long_campaign(client, cast):
    short, long = short_and_long(cast)
    signed_in(client, cast["alice"])
    counts = [
        queries_of(client, chronicle_url(c, kingdom))[0]
        for c in (short, long)
        for kingdom in ("", "red-elves")
    ]
    assert len(set(counts)) == 1
    months = months_of(client.get(chronicle_url(long)).text)
    assert months[0].title == "Year 3, summer month 1"
    assert len(months) > 12
