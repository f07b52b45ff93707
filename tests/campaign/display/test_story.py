"""The campaign's story in numbers: the leaderboard of the campaign page (ranks shared as
ruling P2 gives them, might and its parts as ruling P1 counts them, the change since the
end of an earlier month, never a kingdom's treasury) and the might over time page (a chart, its
table and the territory held), for each kind of visitor. campaign/display/story.py is
tested first on its own, with no database."""

import copy
import xml.etree.ElementTree as ET
from dataclasses import fields
from html.parser import HTMLParser
from typing import Any

import pytest
from django.urls import reverse

from campaign.display import story
from campaign.models import Campaign
from campaign.services import admin, common
from tests.campaign.helpers import (
    at_month,
    new_campaign,
    play_until,
    queries_of,
    short_and_long,
    signed_in,
)

type Json = dict[str, Any]
type Row = tuple[int, Json, list[Json], list[Json]]

SVG = "{http://www.w3.org/2000/svg}"
RED = story.Banner("Red Elves", "#aa0000", "R", "alice")
BLUE = story.Banner("Blue Dwarfs", "#0000aa", "B", "bob")
GREEN = story.Banner("Green Orcs", "#00aa00", "G", "carol")
BANNERS = {"red": RED, "blue": BLUE, "green": GREEN}


def clock(year: int, season: str = "summer", month: int = 0, step: str = "orders") -> Json:
    return {"year": year, "season": season, "month": month, "step": step}


def score(kingdom: str, might: int, rank: int, armies: int = 1, **parts: int) -> Json:
    counts = {"cities": 1, "fortresses": 1, "villages": 2, **parts}
    return {"kingdom": kingdom, "might": might, "rank": rank, "armies": armies, **counts}


def kingdom(id: str, **fields: Any) -> Json:
    return {
        "id": id,
        "name": id.title(),
        "gold": 37,
        "food": 53,
        "pitched_wins": 0,
        "pitched_losses": 0,
        "eliminated": None,
        **fields,
    }


def campaign_file(when: Json, scores: list[Json], kingdoms: list[Json] | None = None) -> Json:
    ids = [s["kingdom"] for s in scores]
    return {"clock": when, "scores": scores, "kingdoms": kingdoms or [kingdom(k) for k in ids]}


# --- campaign/display/story.py: the calendar ---------------------------------------------------


def test_the_calendar_runs_setup_summer_months_winter_then_the_next_year():
    calendar = [
        clock(1, "setup", 0, "races"),
        clock(1, "summer", 1),
        clock(1, "summer", 6),
        clock(1, "winter", 0, "tithe"),
        clock(2, "summer", 1),
        clock(2, "ended", 0, "final"),
    ]
    assert sorted(calendar, key=story.month_key) == calendar
    labels = [story.month_label(c) for c in calendar]
    assert labels == ["Setup", "Y1 M1", "Y1 M6", "Y1 Winter", "Y2 M1", "Final"]


# --- campaign/display/story.py: the leaderboard --------------------------------------------------


def test_p2_tied_kingdoms_share_their_place_as_the_engine_gives_it():
    data = campaign_file(clock(1, month=2), [score("red", 14, 1), score("blue", 14, 1)])
    data["scores"].append(score("green", 9, 3))
    board = story.leaderboard(data, banners=BANNERS)
    assert [(s.kingdom, s.rank) for s in board.standings] == [("red", 1), ("blue", 1), ("green", 3)]


def test_p1_a_standing_shows_might_its_parts_its_armies_and_its_pitched_wins():
    data = campaign_file(
        clock(1, month=3),
        [score("red", 21, 1, armies=2, cities=2, fortresses=1, villages=3)],
        [kingdom("red", pitched_wins=2)],
    )
    (red,) = story.leaderboard(data, banners=BANNERS).standings
    assert (red.might, red.armies, red.cities, red.fortresses, red.villages) == (21, 2, 2, 1, 3)
    assert red.pitched_wins == 2
    assert red.banner == RED


def test_the_change_of_might_is_since_the_end_of_an_earlier_month():
    now = campaign_file(
        clock(1, month=3),
        [score("red", 17, 1), score("blue", 14, 2), score("green", 12, 3)],
    )
    then: Json = {"clock": clock(1, "summer", 2, "battles")}
    then["scores"] = [score("red", 14, 1), score("blue", 16, 2)]
    board = story.leaderboard(now, banners=BANNERS, previous=then)
    assert board.since == "Y1 M2"
    assert [s.change for s in board.standings] == ["+3", "\N{MINUS SIGN}2", "new"]


def test_an_unchanged_might_is_zero_and_without_an_earlier_month_the_change_is_a_dash():
    now = campaign_file(clock(1, month=1), [score("red", 14, 1)])
    unchanged = {"clock": clock(1, "winter", 0, "deploy"), "scores": [score("red", 14, 1)]}
    assert story.leaderboard(now, banners=BANNERS, previous=unchanged).standings[0].change == "0"
    first = story.leaderboard(now, banners=BANNERS)
    assert first.since == ""
    assert first.standings[0].change == "\N{EN DASH}"


def test_a20_the_leaderboard_carries_no_treasury():
    data = campaign_file(clock(1, month=1), [score("red", 14, 1)])
    board = story.leaderboard(data, banners=BANNERS)
    names = {f.name for f in fields(story.Standing)} | {f.name for f in fields(story.Banner)}
    assert not names & {"gold", "food", "treasury"}
    assert "37" not in repr(board)
    assert "53" not in repr(board)


def test_a_kingdom_no_membership_names_is_shown_by_its_name_in_the_file_in_grey():
    data = campaign_file(clock(1, month=1), [score("gone", 3, 1)], [kingdom("gone", name="Lost")])
    (gone,) = story.leaderboard(data, banners=BANNERS).standings
    assert gone.banner == story.Banner("Lost", "#777777", "L")


def test_a_colour_that_is_not_rrggbb_is_drawn_grey():
    assert story.Banner("X", "red", "X").shown_colour == "#777777"
    assert story.Banner("X", "#AA00cc", "X").shown_colour == "#aa00cc"


# --- campaign/display/story.py: the months -------------------------------------------------------


def snapshot_row(number: int, when: Json, mights: dict[str, int], tiles: dict[str, int]) -> Row:
    ranked = sorted(mights.items(), key=lambda item: -item[1])
    scores = [score(k, m, i + 1) for i, (k, m) in enumerate(ranked)]
    held = [
        {"hex": [n, i], "owner": k, "settlement": None}
        for i, (k, n) in enumerate(tiles.items())
        for n in range(n)
    ]
    return number, when, scores, held


def test_a21_each_month_is_shown_as_it_ended_by_the_first_snapshot_of_the_month_after_it():
    history = [
        snapshot_row(1, clock(1, "setup", 0, "races"), {"red": 0, "blue": 0}, {}),
        snapshot_row(2, clock(1, "setup", 0, "armies"), {"red": 14, "blue": 9}, {"red": 7}),
        snapshot_row(3, clock(1, "summer", 1), {"red": 14, "blue": 14}, {"red": 7, "blue": 7}),
        snapshot_row(4, clock(1, "summer", 1, "battles"), {"red": 14, "blue": 14}, {"red": 7}),
        snapshot_row(5, clock(1, "summer", 2), {"red": 13, "blue": 15}, {"red": 6, "blue": 8}),
        snapshot_row(6, clock(1, "summer", 2, "battles"), {"red": 16, "blue": 13}, {"red": 9}),
    ]
    told = story.story_of(reversed(history), banners=BANNERS)
    assert told.kingdoms == ("blue", "red")  # the standings' order at the newest month's end
    # Month 2 is not over: the campaign stands in it.
    assert [m.label for m in told.months] == ["Setup", "Y1 M1"]
    assert [m.might for m in told.months] == [(14, 14), (15, 13)]
    assert [m.tiles for m in told.months] == [(7, 7), (8, 6)]


def test_an_undone_month_leaves_the_story():
    history = [
        snapshot_row(1, clock(1, "summer", 1), {"red": 14, "blue": 14}, {}),
        snapshot_row(2, clock(1, "summer", 2), {"red": 15, "blue": 14}, {}),
        snapshot_row(3, clock(1, "summer", 3), {"red": 20, "blue": 14}, {}),
        snapshot_row(4, clock(1, "summer", 2), {"red": 15, "blue": 14}, {}),  # the undo
    ]
    told = story.story_of(history, banners=BANNERS)
    assert [(m.label, m.might) for m in told.months] == [("Y1 M1", (15, 14))]


def test_a_kingdom_not_yet_in_a_month_has_no_number_there():
    history = [
        snapshot_row(1, clock(1, "setup", 0, "races"), {"red": 0}, {}),
        snapshot_row(2, clock(1, "summer", 1), {"red": 14}, {"red": 7}),
        snapshot_row(3, clock(1, "summer", 2), {"red": 15, "blue": 14}, {"red": 8, "blue": 7}),
    ]
    told = story.story_of(history, banners=BANNERS)
    assert [(m.might, m.tiles) for m in told.months] == [
        ((14, None), (7, None)),
        ((15, 14), (8, 7)),
    ]


def test_the_change_of_might_is_since_the_end_of_the_month_before_the_newest_snapshot():
    history = [
        snapshot_row(1, clock(1, "summer", 1), {"red": 14}, {}),
        snapshot_row(2, clock(1, "summer", 2), {"red": 15}, {}),
        snapshot_row(3, clock(1, "summer", 3), {"red": 17}, {}),
    ]
    # At the orders of month 3 the kingdoms stand as month 2 left them: the change is
    # over month 2, since the end of month 1 (snapshot 2).
    assert story.last_month_end(history) == (clock(1, "summer", 1), 2)
    # With month 3's battles waiting, the change is over month 3 so far.
    battles = snapshot_row(4, clock(1, "summer", 3, "battles"), {"red": 18}, {})
    assert story.last_month_end([*history, battles]) == (clock(1, "summer", 2), 3)
    # An undo back to month 2 forgets that month 2 was over.
    undone = snapshot_row(5, clock(1, "summer", 2), {"red": 15}, {})
    assert story.last_month_end([*history, battles, undone]) == (clock(1, "summer", 1), 2)
    assert story.last_month_end(history[:1]) is None


# --- campaign/display/story.py: the chart --------------------------------------------------------


def drawn(history: list[Row], banners: dict[str, story.Banner] = BANNERS) -> ET.Element:
    return ET.fromstring(story.might_chart(story.story_of(history, banners=banners)))


def three_months() -> list[Row]:
    """Summer months 1 and 2 and the winter of year 1, over: year 2 has begun."""
    return [
        snapshot_row(1, clock(1, "summer", 1), {"red": 10, "blue": 10}, {}),
        snapshot_row(2, clock(1, "summer", 2), {"red": 14, "blue": 14}, {}),
        snapshot_row(3, clock(1, "winter", 0, "tithe"), {"red": 19, "blue": 12}, {}),
        snapshot_row(4, clock(2, "summer", 1), {"red": 22, "blue": 12}, {}),
    ]


def test_the_chart_is_an_image_with_a_title_and_a_description_of_where_might_stands():
    root = drawn(three_months())
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "might-chart-title might-chart-desc"
    assert root.findtext(f"{SVG}title") == "Might over time"
    description = root.findtext(f"{SVG}desc") or ""
    assert "from Y1 M1 to Y1 Winter" in description
    assert "Y1 Winter: Red Elves 22, Blue Dwarfs 12." in description
    assert not list(root.iter(f"{SVG}script"))


def test_the_chart_draws_a_line_per_kingdom_in_its_colour_each_with_its_own_dashes():
    root = drawn(three_months())
    lines = [g for g in root.iter(f"{SVG}g") if g.get("class") == "line"]
    assert [g.get("data-kingdom") for g in lines] == ["red", "blue"]
    polylines = [g.find(f"{SVG}polyline") for g in lines]
    assert [p.get("stroke") for p in polylines if p is not None] == ["#aa0000", "#0000aa"]
    assert len({p.get("stroke-dasharray") for p in polylines if p is not None}) == 2
    points = [t.text for g in lines for t in g.iter(f"{SVG}title")]
    assert "Red Elves, Y1 M2: might 19" in points
    assert "Blue Dwarfs, Y1 Winter: might 12" in points


def test_more_might_is_drawn_higher():
    root = drawn(three_months())
    red = next(g for g in root.iter(f"{SVG}g") if g.get("data-kingdom") == "red")
    heights = [float(c.get("cy", "0")) for c in red.iter(f"{SVG}circle")]
    assert heights[0] > heights[1] > heights[2]  # 14, 19, 22: y grows downwards


def test_the_legend_names_every_kingdom_with_its_letter_and_names_are_escaped():
    banners = {**BANNERS, "blue": story.Banner("<script>Blue</script>", "#0000aa", "B")}
    markup = story.might_chart(story.story_of(three_months(), banners=banners))
    assert "<script>" not in markup
    legend = next(g for g in ET.fromstring(markup).iter(f"{SVG}g") if g.get("class") == "legend")
    assert [t.text for t in legend.iter(f"{SVG}text")] == [
        "R · Red Elves",
        "B · <script>Blue</script>",
    ]


def test_a_long_campaign_labels_some_months_and_always_the_newest():
    history = [
        snapshot_row(n, clock(1 + (n - 1) // 6, "summer", 1 + (n - 1) % 6), {"red": n}, {})
        for n in range(1, 38)
    ]
    root = drawn(history)
    axes = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "axes")
    labels = [t.text for t in axes.iter(f"{SVG}text") if t.text and t.text.startswith("Y")]
    assert 2 <= len(labels) <= 8
    assert labels[-1] == "Y6 M6"


def test_no_month_over_draws_no_chart():
    history = [snapshot_row(1, clock(1, "setup", 0, "races"), {"red": 0}, {})]
    assert story.might_chart(story.story_of(history, banners=BANNERS)) == ""


@pytest.mark.parametrize(
    ("highest", "top", "step"), [(0, 1, 1), (4, 4, 1), (14, 15, 5), (23, 25, 5), (61, 80, 20)]
)
def test_the_might_axis_ends_on_a_round_number(highest, top, step):
    assert story.nice_top(highest) == (top, step)


# --- The pages ------------------------------------------------------------------------------------


def page_url(campaign: Campaign) -> str:
    return reverse("campaign:campaign", args=[campaign.slug])


def might_url(campaign: Campaign) -> str:
    return reverse("campaign:might", args=[campaign.slug])


class Tables(HTMLParser):
    """The text of every cell of every table on a page, by the table's id (or class)."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.table: list[list[str]] | None = None
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            found = dict(attrs)
            self.table = self.tables.setdefault(found.get("id") or found.get("class") or "", [])
        elif tag == "tr" and self.table is not None:
            self.table.append([])
        elif tag in ("td", "th") and self.table is not None:
            self.cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag in ("td", "th") and self.table is not None and self.cell is not None:
            self.table[-1].append(" ".join("".join(self.cell).split()))
            self.cell = None
        elif tag == "table":
            self.table = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


def tables_of(page: str) -> dict[str, list[list[str]]]:
    parser = Tables()
    parser.feed(page)
    return parser.tables


def leaderboard_section(page: str) -> str:
    start = page.index('<section class="leaderboard"')
    return page[start : page.index("</section>", start)]


def since(page: str) -> str:
    """The leaderboard's header of the change of might: since which month."""
    return tables_of(leaderboard_section(page))["numbers"][0][3]


def month_ends(campaign: Campaign) -> list[tuple[str, Json]]:
    """Each month that is over, by its label, with the file at its end (the first snapshot
    of the month after it), read the long way."""
    ends: dict[story.MonthKey, tuple[str, Json]] = {}
    month: Json | None = None
    for snapshot in campaign.snapshots.order_by("number"):
        now = snapshot.data["clock"]
        if month is not None and story.month_key(now) != story.month_key(month):
            ends = {key: end for key, end in ends.items() if key < story.month_key(now)}
            if story.month_key(now) > story.month_key(month):
                ends[story.month_key(month)] = (story.month_label(month), snapshot.data)
        month = now
    return [ends[key] for key in sorted(ends)]


@pytest.mark.django_db
def test_p2_the_leaderboard_shares_the_first_place_of_kingdoms_still_tied(client, cast):
    campaign = new_campaign(cast)
    data = play_until(campaign, cast, at_month(1, 1))
    assert [s["might"] for s in data["scores"]] == [14, 14]  # setup is the same for everyone
    page = signed_in(client, cast["alice"]).get(page_url(campaign)).text
    rows = tables_of(leaderboard_section(page))["numbers"][1:]
    assert [row[0] for row in rows] == ["1", "1"]
    names = {row[1] for row in rows}
    assert names == {  # each with its might by source (P1): 14 = 9 + 5
        "R Red Elves ruled by alice settlements 9 · armies 5",
        "B Blue Dwarfs ruled by bob settlements 9 · armies 5",
    }
    # The kingdoms stand as the setup left them: there is no earlier end to compare with.
    assert {row[3] for row in rows} == {"\N{EN DASH}"}
    assert since(page) == "Since last month"


@pytest.mark.django_db
def test_the_leaderboard_shows_might_its_parts_and_the_change_since_last_month(client, cast):
    campaign = new_campaign(cast)
    data = play_until(campaign, cast, at_month(2, 2), seed=6)
    (month_before, at_its_end), (last_month, now) = month_ends(campaign)[-2:]
    assert (month_before, last_month) == ("Y1 Winter", "Y2 M1")
    assert now == data  # at the orders of Y2 M2 the kingdoms stand as Y2 M1 left them
    previous = {s["kingdom"]: s["might"] for s in at_its_end["scores"]}
    page = signed_in(client, cast["bob"]).get(page_url(campaign)).text
    assert since(page) == "Since Y1 Winter"  # the change over Y2 M1
    rows = tables_of(leaderboard_section(page))["numbers"][1:]
    kingdoms = {k["id"]: k for k in data["kingdoms"]}
    expected = []
    for s in data["scores"]:
        change = s["might"] - previous[s["kingdom"]]
        shown = f"+{change}" if change > 0 else f"\N{MINUS SIGN}{-change}" if change else "0"
        parts = [s["armies"], s["cities"], s["fortresses"], s["villages"]]
        wins = kingdoms[s["kingdom"]]["pitched_wins"]
        expected.append([str(s["rank"]), str(s["might"]), shown, *map(str, [*parts, wins])])
    assert [[row[0], *row[2:]] for row in rows] == expected
    assert any(row[3] != "0" for row in rows)  # the bots took a tile in Y2 M1


@pytest.mark.django_db
def test_a20_no_treasury_on_the_campaign_page(client, cast):
    campaign = new_campaign(cast)
    data = copy.deepcopy(play_until(campaign, cast, at_month(1, 2)))
    for kingdom in data["kingdoms"]:
        kingdom.update(gold=37, food=53)
    admin.campaign_correct(
        campaign=campaign, actor=cast["gm"], reason="a rich year", data=data, what="resources"
    )
    page = signed_in(client, cast["alice"]).get(page_url(campaign)).text
    assert "Leaderboard" in page
    for word in ("gold", "Gold", "food", "Food", "Treasury"):
        assert word not in page
    board = leaderboard_section(page)
    assert "37" not in board
    assert "53" not in board


@pytest.mark.django_db
def test_the_campaign_page_links_might_over_time_once_started(client, cast):
    campaign = new_campaign(cast)
    page = signed_in(client, cast["alice"]).get(page_url(campaign)).text
    assert f'<a href="{might_url(campaign)}">Might over time</a>' in page
    waiting = new_campaign(cast, "Not yet", start=False)
    page = client.get(page_url(waiting)).text
    assert might_url(waiting) not in page
    assert "Red Elves (alice)" in page  # who has joined, without a leaderboard yet


@pytest.mark.django_db
def test_the_slider_fragment_leaves_the_leaderboard_out(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_month(1, 2))
    signed_in(client, cast["alice"])
    response = client.get(f"{page_url(campaign)}?at=2", headers={"HX-Request": "true"})
    assert response.status_code == 200
    fragment = response.text
    assert '<h2 id="map-title">The map as it was</h2>' in fragment  # the map's section
    assert "Leaderboard" not in fragment


@pytest.mark.django_db
def test_the_leaderboard_takes_the_same_queries_however_many_months_were_played(client, cast):
    short, long = short_and_long(cast)
    signed_in(client, cast["alice"])
    (few, page), (many, long_page) = (queries_of(client, page_url(c)) for c in (short, long))
    assert "Leaderboard" in page
    assert "Leaderboard" in long_page
    assert few == many
    assert since(long_page) == "Since Y2 Winter"


@pytest.mark.django_db
def test_after_an_undo_the_leaderboard_and_the_story_forget_the_undone_month(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_month(1, 3))
    admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="once more")
    signed_in(client, cast["alice"])
    assert since(client.get(page_url(campaign)).text) == "Since Y1 M1"
    months = [row[0] for row in tables_of(client.get(might_url(campaign)).text)["might-table"]]
    assert months == ["Month", "Setup", "Y1 M1"]  # month 2 is being played again


@pytest.mark.django_db
def test_a_member_sees_might_over_time_as_a_chart_and_a_table(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_month(1, 3))
    for member in ("alice", "gm"):
        response = signed_in(client, cast[member]).get(might_url(campaign))
        assert response.status_code == 200
        page = response.text
        assert '<svg xmlns="http://www.w3.org/2000/svg" class="might-chart"' in page
        assert '<title id="might-chart-title">Might over time</title>' in page
        assert "Territory held" in page


@pytest.mark.django_db
def test_the_tables_numbers_are_the_snapshots_scores_and_tiles(client, cast):
    campaign = new_campaign(cast)
    play_until(campaign, cast, at_month(2, 2))
    tables = tables_of(signed_in(client, cast["alice"]).get(might_url(campaign)).text)
    head, *rows = tables["might-table"]
    order = [s["kingdom"] for s in common.latest_snapshot(campaign).data["scores"]]
    names = {"red-elves": "R Red Elves", "blue-dwarfs": "B Blue Dwarfs"}
    assert head == ["Month", *(names[k] for k in order)]
    months = month_ends(campaign)
    assert [row[0] for row in rows] == [label for label, _ in months]
    assert [row[0] for row in rows][:2] == ["Setup", "Y1 M1"]
    assert [row[0] for row in rows][-2:] == ["Y1 Winter", "Y2 M1"]
    for row, (_, data) in zip(rows, months, strict=True):
        might = {s["kingdom"]: str(s["might"]) for s in data["scores"]}
        assert row[1:] == [might[k] for k in order]
    _, *held = tables["territory-table"]
    for row, (_, data) in zip(held, months, strict=True):
        tiles = [str(sum(1 for t in data["tiles"] if t["owner"] == k)) for k in order]
        assert row[1:] == tiles


STORY_PAGES = ["campaign:might", "campaign:chronicle"]


@pytest.mark.django_db
@pytest.mark.parametrize("page", STORY_PAGES)
def test_a_player_of_another_campaign_gets_not_found(client, cast, page):
    campaign = new_campaign(cast)
    url = reverse(page, args=[campaign.slug])
    assert signed_in(client, cast["eve"]).get(url).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize("page", STORY_PAGES)
def test_a_signed_out_visitor_is_sent_to_sign_in(client, cast, page):
    campaign = new_campaign(cast)
    response = client.get(reverse(page, args=[campaign.slug]))
    assert response.status_code == 302
    assert response.url.startswith(reverse("accounts:sign_in"))


@pytest.mark.django_db
@pytest.mark.parametrize("page", STORY_PAGES)
def test_before_the_campaign_starts_there_is_no_story(client, cast, page):
    campaign = new_campaign(cast, start=False)
    url = reverse(page, args=[campaign.slug])
    assert signed_in(client, cast["alice"]).get(url).status_code == 404


@pytest.mark.django_db
def test_at_setup_the_page_says_no_month_is_over(client, cast):
    campaign = new_campaign(cast)
    page = signed_in(client, cast["alice"]).get(might_url(campaign)).text
    assert "No month is over yet" in page
    assert "<svg" not in page


@pytest.mark.django_db
def test_might_over_time_takes_the_same_queries_on_a_short_and_a_long_campaign(client, cast):
    short, long = short_and_long(cast)
    signed_in(client, cast["alice"])
    counts = [queries_of(client, might_url(c))[0] for c in (short, long)]
    assert counts[0] == counts[1]
