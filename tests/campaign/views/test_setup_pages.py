"""The setup page (rulebook's Initial Kingdom, rulings S1 to S4): races in secret, then
capitals in turn, then settlements and first armies by every kingdom at once, played through the pages by alice and
bob; what the admin, a player of another campaign and a signed-out visitor get."""

import re
from html import unescape
from typing import Any

import pytest
from django.db import connection
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from campaign.display.mapsvg.geometry import direction
from campaign.display.setup_board import plan_with
from campaign.models import Campaign, Submission
from campaign.services import admin, common, submissions
from campaign.words import capitalised, names_of
from config.celery import app as celery_app
from tests.campaign.helpers import at_step, new_campaign, play_until, signed_in, without_tokens
from tests.conftest import campaign_made_once, read_again

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


# The cast and a campaign just started, made once for the module.
made, cast, campaign = campaign_made_once(new_campaign)


def player(cast: dict[str, User], name: str) -> Client:
    return signed_in(Client(), cast[name])


def setup_url(campaign: Campaign) -> str:
    return reverse("campaign:setup", args=[campaign.slug])


def page(client: Client, campaign: Campaign, headers: dict[str, str] | None = None) -> str:
    response = client.get(setup_url(campaign), headers=headers)
    assert response.status_code == 200
    return response.text


def newest(campaign: Campaign) -> dict[str, Any]:
    return dict(common.latest_snapshot(campaign).data)


def post(client: Client, campaign: Campaign, action: str, **fields: Any) -> Any:
    """Post one of the setup forms, as seen on the newest snapshot unless `seen` is given."""
    fields.setdefault("seen", common.latest_snapshot(campaign).number)
    url = reverse(f"campaign:setup_{action}", args=[campaign.slug])
    headers = HTMX if fields.pop("htmx", False) else None
    return client.post(url, fields, headers=headers)


def tile(h: list[int]) -> str:
    return f"{h[0]},{h[1]}"


def asked(campaign: Campaign, kind: str) -> dict[str, Any]:
    return next(p for p in newest(campaign)["pending"] if p["kind"] == kind)


def open_submissions(campaign: Campaign) -> list[Submission]:
    return list(Submission.objects.filter(campaign=campaign, consumed_by=None))


def choose_races(cast: dict[str, User], campaign: Campaign, capture: Any) -> None:
    alice, bob = player(cast, "alice"), player(cast, "bob")
    post(alice, campaign, "race", race="Nightstalkers")
    post(alice, campaign, "ready", ready="yes")
    post(bob, campaign, "race", race="Ogres")
    with capture(execute=True):
        post(bob, campaign, "ready", ready="yes")


# --- a whole setup ---------------------------------------------------------------------


def test_a_whole_setup_is_played_through_the_pages(
    cast, campaign, eager_celery, django_capture_on_commit_callbacks
):
    clients = {name: player(cast, name) for name in ("alice", "bob", "gm")}
    alice, bob, gm = clients["alice"], clients["bob"], clients["gm"]
    assert "Your turn: choose your race." in page(alice, campaign)
    assert "Waiting for Blue Dwarfs to choose their race." in page(alice, campaign)
    assert "Waiting for Red Elves to choose their race." in page(gm, campaign)

    assert post(alice, campaign, "race", race="Nightstalkers").status_code == 302
    assert "Your race: <strong>Nightstalkers</strong>, not ready yet." in page(alice, campaign)
    assert "Waiting for Red Elves to choose their race." in page(bob, campaign)
    post(alice, campaign, "ready", ready="yes")
    assert "Red Elves has chosen." in page(bob, campaign)
    post(bob, campaign, "race", race="Ogres")
    with django_capture_on_commit_callbacks(execute=True):
        post(bob, campaign, "ready", ready="yes")

    data = newest(campaign)
    assert data["clock"]["step"] == "capitals"
    for client in clients.values():
        revealed = page(client, campaign)
        assert "<td>Red Elves</td><td>Nightstalkers</td>" in revealed
        assert "<td>Blue Dwarfs</td><td>Ogres</td>" in revealed

    by_kingdom = {common.kingdom_of(campaign, cast[n]): n for n in ("alice", "bob")}
    names = {"alice": "Red Elves", "bob": "Blue Dwarfs"}
    order = [by_kingdom[k] for k in data["player_order"]]

    for name in order:  # capitals in player order
        me, others = clients[name], [clients[n] for n in clients if n != name]
        assert "Your turn: choose your capital." in page(me, campaign)
        for other in others:
            assert f"Waiting for {names[name]} to choose their capital." in page(other, campaign)
        choice = asked(campaign, "capital")["choices"][0]
        post(me, campaign, "capital", hex=tile(choice))
        assert f"Your capital: <strong>[{choice[0]}, {choice[1]}]</strong>" in page(me, campaign)
        with django_capture_on_commit_callbacks(execute=True):
            post(me, campaign, "ready", ready="yes")
        capital = next(
            k["capital"] for k in newest(campaign)["kingdoms"] if by_kingdom[k["id"]] == name
        )
        assert capital == choice

    # Settlements, every kingdom at once (S4): each is hidden until both are in.
    plans = {}
    for name in order:
        me = clients[name]
        assert "Your turn: place your settlements." in page(me, campaign)
        assert "Every kingdom places its settlements at once." in page(me, campaign)
        mine = common.kingdom_of(campaign, cast[name])
        sites = next(p for p in newest(campaign)["pending"] if p["kingdom"] == mine)["choices"]
        for slot, site in zip(("city", "fortress", "village-1", "village-2"), sites, strict=False):
            post(me, campaign, "settlement", settlement=slot, hex=tile(site))
        plans[name] = sites[:4]
    first, last = order
    with django_capture_on_commit_callbacks(execute=True):
        post(clients[first], campaign, "ready", ready="yes")
    assert newest(campaign)["clock"]["step"] == "settlements"  # nothing revealed yet
    assert f"Waiting for {names[last]} to place their settlements." in page(gm, campaign)
    assert f"{names[first]} has chosen." in page(clients[last], campaign)
    with django_capture_on_commit_callbacks(execute=True):
        post(clients[last], campaign, "ready", ready="yes")
    held = {tuple(t["hex"]): t["settlement"] for t in newest(campaign)["tiles"]}
    for sites in plans.values():
        assert [held[tuple(h)] for h in sites] == ["city", "fortress", "village", "village"]

    # First armies, every kingdom at once.
    for name in order:
        me = clients[name]
        assert "Your turn: place your first army." in page(me, campaign)
        mine = common.kingdom_of(campaign, cast[name])
        choice = next(p for p in newest(campaign)["pending"] if p["kingdom"] == mine)["choices"][-1]
        post(me, campaign, "army", hex=tile(choice))
    with django_capture_on_commit_callbacks(execute=True):
        post(clients[first], campaign, "ready", ready="yes")
    assert newest(campaign)["armies"] == []
    with django_capture_on_commit_callbacks(execute=True):
        post(clients[last], campaign, "ready", ready="yes")

    data = newest(campaign)
    assert data["clock"]["step"] == "orders"
    assert len(data["armies"]) == 2
    for client in clients.values():
        assert "Setup is over." in page(client, campaign)


def test_a_choice_without_javascript_comes_back_to_the_page_with_a_message(cast, campaign):
    alice = player(cast, "alice")
    response = post(alice, campaign, "race", race="Elves")
    assert response.status_code == 302
    assert response.url == setup_url(campaign)
    assert "Your race: Elves. Only you see it until every kingdom has chosen." in page(
        alice, campaign
    )


def test_with_htmx_a_choice_returns_the_refreshed_board(cast, campaign):
    response = post(player(cast, "alice"), campaign, "race", race="Elves", htmx=True)
    assert response.status_code == 200
    assert 'id="setup-board"' in response.text
    assert "<html" not in response.text
    assert "Your race: <strong>Elves</strong>, not ready yet." in response.text


# --- ruling S1: races stay secret until all have chosen --------------------------------


def _without_race_list(html: str) -> str:
    return re.sub(r"<select.*?</select>", "", html, flags=re.S)


def everything_bob_sees(cast: dict[str, User], campaign: Campaign) -> list[str]:
    """Every page and fragment bob can get while the races are chosen, including the
    answers to his own choices."""
    bob = player(cast, "bob")
    slug = [campaign.slug]
    pages = [
        bob.get(setup_url(campaign)),
        bob.get(setup_url(campaign), headers=HTMX),
        bob.get(reverse("campaign:campaign", args=slug)),
        bob.get(reverse("campaign:kingdom", args=slug)),
        bob.get(reverse("campaign:home")),
        post(bob, campaign, "race", race="Ogres", htmx=True),
        post(bob, campaign, "race", race="Ogres"),
        post(bob, campaign, "race", race="not a race", htmx=True),
        post(bob, campaign, "ready", ready="no", htmx=True),
    ]
    return [without_tokens(response.content.decode()) for response in pages]


def everything_the_admin_sees(cast: dict[str, User], campaign: Campaign) -> list[str]:
    gm = player(cast, "gm")
    pages = [
        gm.get(setup_url(campaign)),
        gm.get(setup_url(campaign), headers=HTMX),
        gm.get(reverse("campaign:campaign", args=[campaign.slug])),
    ]
    return [without_tokens(response.content.decode()) for response in pages]


def test_alices_race_never_reaches_bob_or_the_admin_before_the_reveal(cast, campaign):
    alice = player(cast, "alice")
    post(player(cast, "bob"), campaign, "race", race="Ogres")
    before = everything_bob_sees(cast, campaign), everything_the_admin_sees(cast, campaign)

    post(alice, campaign, "race", race="Nightstalkers")
    saved = everything_bob_sees(cast, campaign), everything_the_admin_sees(cast, campaign)
    assert saved == before  # a choice not yet ready changes nothing anyone else sees

    post(alice, campaign, "ready", ready="yes")
    first = everything_bob_sees(cast, campaign), everything_the_admin_sees(cast, campaign)
    assert "Red Elves has chosen." in first[0][0]
    assert "Red Elves has chosen." in first[1][0]

    post(alice, campaign, "ready", ready="no")
    post(alice, campaign, "race", race="Undead")
    post(alice, campaign, "ready", ready="yes")
    second = everything_bob_sees(cast, campaign), everything_the_admin_sees(cast, campaign)
    assert second == first  # whatever alice chose, the others see the same pages
    for html in [*first[0], *first[1]]:
        assert "Nightstalkers" not in _without_race_list(html)
    for html in [*second[0], *second[1]]:
        assert "Undead" not in _without_race_list(html)


def test_a_player_sees_their_own_race_until_the_reveal(cast, campaign):
    alice = player(cast, "alice")
    post(alice, campaign, "race", race="Nightstalkers")
    post(alice, campaign, "ready", ready="yes")
    text = page(alice, campaign)
    assert "Your race: <strong>Nightstalkers</strong> (ready)." in text
    assert "You are ready: the campaign moves on when every kingdom it asks is." in text
    assert "Not ready yet: let me change it" in text


def test_ready_before_choosing_is_refused(cast, campaign):
    response = post(player(cast, "alice"), campaign, "ready", ready="yes")
    assert response.status_code == 400
    assert "Make your choice first, then mark it ready." in response.text


def test_a_race_not_in_the_list_is_refused(cast, campaign):
    response = post(player(cast, "alice"), campaign, "race", race="Goblins of the Moon")
    assert response.status_code == 400
    assert "Choose one of the races in the list." in response.text
    assert open_submissions(campaign) == []


# --- refusals --------------------------------------------------------------------------


def races_chosen(cast: dict[str, User]) -> Campaign:
    """Another campaign of the cast, its races chosen through the pages (the tasks queued
    run at once, as with `eager_celery`): the first capital is asked."""
    campaign = new_campaign(cast)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(celery_app.conf, "task_always_eager", True)
        choose_races(cast, campaign, TestCase.captureOnCommitCallbacks)
    return campaign


@pytest.fixture(scope="module")
def made_at_capitals(made: tuple[dict[str, User], Campaign], django_db_blocker: Any) -> Campaign:
    """`races_chosen`, made once for the module (in its transaction)."""
    with django_db_blocker.unblock():
        return races_chosen(made[0])


@pytest.fixture
def at_capitals(made_at_capitals, eager_celery):
    return read_again(made_at_capitals)


def whose_turn(cast: dict[str, User], campaign: Campaign, kind: str) -> Client:
    kingdom = asked(campaign, kind)["kingdom"]
    name = next(n for n in ("alice", "bob") if common.kingdom_of(campaign, cast[n]) == kingdom)
    return player(cast, name)


def test_a_capital_off_the_start_tiles_is_refused_in_the_games_words(cast, at_capitals):
    campaign = at_capitals
    start = {tile(h) for h in asked(campaign, "capital")["choices"]}
    elsewhere = next(
        t["hex"]
        for t in newest(campaign)["map"]["tiles"]
        if tile(t["hex"]) not in start and t["terrain"] == "plains"
    )
    me = whose_turn(cast, campaign, "capital")
    response = post(me, campaign, "capital", hex=tile(elsewhere))
    assert response.status_code == 400
    where = capitalised(names_of(newest(campaign), campaign.gazetteer).place(elsewhere))
    assert f"{where} is not a start tile (a hex outlined with a dashed line)." in unescape(
        response.text
    )
    assert 'role="alert"' in response.text
    assert open_submissions(campaign) == []


def test_a_refusal_with_htmx_is_shown_in_the_board(cast, at_capitals):
    me = whose_turn(cast, at_capitals, "capital")
    response = post(me, at_capitals, "capital", hex="nowhere", htmx=True)
    assert response.status_code == 200
    assert "Choose a tile on the map or in the list." in response.text
    assert open_submissions(at_capitals) == []


def test_a_stale_page_is_refused(cast, at_capitals):
    alice = player(cast, "alice")
    response = post(alice, at_capitals, "race", race="Undead", seen=1)
    assert response.status_code == 400
    assert "The campaign has moved on since you looked" in response.text
    assert open_submissions(at_capitals) == []
    me = whose_turn(cast, at_capitals, "capital")
    choice = asked(at_capitals, "capital")["choices"][0]
    response = post(me, at_capitals, "capital", hex=tile(choice), seen=1)
    assert "The campaign has moved on since you looked" in response.text
    assert open_submissions(at_capitals) == []


# --- two tabs (issue 35) -------------------------------------------------------------------

DRAFT = re.compile(r'name="draft" value="([0-9a-f]*)"')


def drawn_draft(board: str) -> str:
    """The digest of the choice a board shows, which its Ready form sends."""
    found = DRAFT.search(board)
    assert found is not None
    return found.group(1)


def test_the_ready_form_carries_the_choice_its_page_shows(cast, at_capitals):
    me = whose_turn(cast, at_capitals, "capital")
    post(me, at_capitals, "capital", hex=tile(asked(at_capitals, "capital")["choices"][0]))
    mine = Submission.objects.filter(campaign=at_capitals, consumed_by=None)
    assert drawn_draft(page(me, at_capitals)) == submissions.draft_digest(mine)


def test_ready_in_one_tab_never_founds_the_capital_another_tab_tapped(cast, at_capitals):
    """A capital tapped at one tile in tab A and another in tab B: Ready in tab A is
    refused (the choice changed in tab B since tab A was drawn), nothing is ready, and tab
    A's board shows the capital as it stands, for Ready to confirm it there."""
    campaign = at_capitals
    me = whose_turn(cast, campaign, "capital")
    here, there = (tile(h) for h in asked(campaign, "capital")["choices"][:2])
    tab_a = post(me, campaign, "capital", hex=here, htmx=True).text
    tab_b = post(me, campaign, "capital", hex=there, htmx=True).text
    assert drawn_draft(tab_a) != drawn_draft(tab_b)

    response = post(me, campaign, "ready", ready="yes", draft=drawn_draft(tab_a), htmx=True)

    assert "Your decisions changed in another tab or window since this page was drawn" in (
        response.text.replace("&#x27;", "'")
    )
    [capital] = open_submissions(campaign)
    assert (capital.payload, capital.ready) == ([int(c) for c in there.split(",")], False)
    q, r = there.split(",")
    assert f"Your capital: <strong>[{q}, {r}]</strong>." in response.text
    assert asked(campaign, "capital")["kingdom"] == capital.kingdom  # still its turn
    assert drawn_draft(response.text) == drawn_draft(tab_b)  # Ready there confirms it


def test_ready_founds_the_capital_its_own_page_shows(
    cast, at_capitals, django_capture_on_commit_callbacks
):
    campaign = at_capitals
    me = whose_turn(cast, campaign, "capital")
    kingdom = asked(campaign, "capital")["kingdom"]
    here = asked(campaign, "capital")["choices"][0]
    tab_a = post(me, campaign, "capital", hex=tile(here), htmx=True).text
    with django_capture_on_commit_callbacks(execute=True):
        post(me, campaign, "ready", ready="yes", draft=drawn_draft(tab_a), htmx=True)
    founded = next(k for k in newest(campaign)["kingdoms"] if k["id"] == kingdom)
    assert founded["capital"] == here


@pytest.fixture(scope="module")
def made_at_settlements(made: tuple[dict[str, User], Campaign], django_db_blocker: Any) -> Campaign:
    """Another campaign of the cast, its races chosen through the pages and played by the
    bots until the settlements are asked, made once for the module (in its transaction)."""
    with django_db_blocker.unblock():
        campaign = races_chosen(made[0])
        play_until(campaign, made[0], at_step("settlements"))
    return campaign


@pytest.fixture
def at_settlements(made_at_settlements, eager_celery):
    return read_again(made_at_settlements)


def test_settlements_are_placed_one_at_a_time_and_saved_when_all_four_are(cast, at_settlements):
    campaign = at_settlements
    me = whose_turn(cast, campaign, "settlements")
    sites = asked(campaign, "settlements")["choices"]
    post(me, campaign, "settlement", settlement="city", hex=tile(sites[0]))
    response = post(
        me, campaign, "settlement", settlement="fortress", hex=tile(sites[1]), htmx=True
    )
    assert "Fortress placed at" in response.text
    assert f"City: <strong>[{sites[0][0]}, {sites[0][1]}]</strong>" in response.text
    assert 'Second village: <span class="muted">not placed yet</span>' in response.text
    assert 'value="village-1" checked' in response.text  # the next one to place
    assert ">Ready</button>" not in response.text
    assert open_submissions(campaign) == []  # a partial plan is not a decision yet

    post(me, campaign, "settlement", settlement="village-1", hex=tile(sites[2]))
    post(me, campaign, "settlement", settlement="village-2", hex=tile(sites[3]))
    [saved] = open_submissions(campaign)
    assert saved.payload == {
        "city": sites[0], "fortress": sites[1], "villages": [sites[2], sites[3]]
    }  # fmt: skip
    assert ">Ready</button>" in page(me, campaign)

    change = me.get(setup_url(campaign), {"settlement": "city"}, headers=HTMX).text
    assert 'value="city" checked' in change
    post(me, campaign, "settlement", settlement="city", hex=tile(sites[1]))  # a swap
    [saved] = open_submissions(campaign)
    assert (saved.payload["city"], saved.payload["fortress"]) == (sites[1], sites[0])


def test_a_settlement_away_from_the_capital_is_refused_and_the_plan_kept(cast, at_settlements):
    campaign = at_settlements
    me = whose_turn(cast, campaign, "settlements")
    sites = asked(campaign, "settlements")["choices"]
    post(me, campaign, "settlement", settlement="city", hex=tile(sites[0]))
    far = next(
        t["hex"]
        for t in newest(campaign)["map"]["tiles"]
        if t["hex"] not in sites and t["terrain"] == "plains"
    )
    response = post(me, campaign, "settlement", settlement="fortress", hex=tile(far))
    assert response.status_code == 400
    assert f"[{far[0]}, {far[1]}] is not a tile next to your capital" in response.text
    assert f"City: <strong>[{sites[0][0]}, {sites[0][1]}]</strong>" in response.text
    assert 'Fortress: <span class="muted">not placed yet</span>' in response.text


def test_a_settlement_placed_from_a_stale_page_is_refused(cast, at_settlements):
    campaign = at_settlements
    me = whose_turn(cast, campaign, "settlements")
    site = asked(campaign, "settlements")["choices"][0]
    stale = common.latest_snapshot(campaign).number - 1
    response = post(me, campaign, "settlement", settlement="city", hex=tile(site), seen=stale)
    assert response.status_code == 400
    assert "The campaign has moved on since you looked" in response.text
    assert 'City: <span class="muted">not placed yet</span>' in response.text


def test_only_the_kingdom_asked_gets_the_forms(cast, at_capitals):
    campaign = at_capitals
    kingdom = asked(campaign, "capital")["kingdom"]
    waiting = next(n for n in ("alice", "bob") if common.kingdom_of(campaign, cast[n]) != kingdom)
    text = page(player(cast, waiting), campaign)
    assert 'name="seen"' not in text
    assert 'class="pick' not in text
    site = asked(campaign, "capital")["choices"][0]
    response = post(player(cast, waiting), campaign, "capital", hex=tile(site))
    assert "Nothing of that kind is asked of your kingdom now." in response.text


def test_a_kingdoms_settlements_stay_hidden_from_the_other_until_both_are_ready(
    cast, at_settlements
):
    campaign = at_settlements
    alice, bob = player(cast, "alice"), player(cast, "bob")
    red = common.kingdom_of(campaign, cast["alice"])
    sites = next(p for p in newest(campaign)["pending"] if p["kingdom"] == red)["choices"]
    before = without_tokens(page(bob, campaign))
    for slot, site in zip(("city", "fortress", "village-1", "village-2"), sites, strict=False):
        post(alice, campaign, "settlement", settlement=slot, hex=tile(site))
    post(alice, campaign, "ready", ready="yes")
    after = without_tokens(page(bob, campaign))
    assert (
        after.replace("Red Elves has chosen.", "Waiting for Red Elves to place their settlements.")
        == before
    )


def test_the_map_and_the_list_offer_the_same_tiles(cast, at_settlements):
    campaign = at_settlements
    text = page(whose_turn(cast, campaign, "settlements"), campaign)
    for site in asked(campaign, "settlements")["choices"]:
        anchor = f"choice-{site[0]}_{site[1]}"
        assert f'href="#{anchor}"' in text  # the tap on the map, without JavaScript
        assert f'id="{anchor}"' in text  # the button under the map
        assert f'data-hex="{site[0]},{site[1]}"' in text


def test_placing_a_settlement_where_another_stands_swaps_or_lifts_it():
    a, b, c = [0, 1], [1, 0], [1, 1]
    assert plan_with({"city": a, "fortress": b}, "city", b) == {"city": b, "fortress": a}
    assert plan_with({"city": a}, "fortress", a) == {"fortress": a}
    assert plan_with({"city": a}, "fortress", c) == {"city": a, "fortress": c}


# --- who may see the page ---------------------------------------------------------------


def test_the_admin_sees_whose_turn_it_is_but_no_forms(cast, at_capitals):
    gm = player(cast, "gm")
    text = page(gm, at_capitals)
    name = {"red-elves": "Red Elves", "blue-dwarfs": "Blue Dwarfs"}
    kingdom = asked(at_capitals, "capital")["kingdom"]
    assert f"Waiting for {name[kingdom]} to choose their capital." in text
    assert 'name="seen"' not in text
    assert "<select" not in text
    choice = asked(at_capitals, "capital")["choices"][0]
    response = post(gm, at_capitals, "capital", hex=tile(choice))
    assert response.status_code == 400
    assert "You don&#x27;t rule a kingdom in this campaign." in response.text
    assert open_submissions(at_capitals) == []


@pytest.mark.parametrize("action", ["race", "capital", "settlement", "army", "ready"])
def test_a_player_of_another_campaign_gets_not_found(cast, campaign, action):
    eve = player(cast, "eve")
    assert eve.get(setup_url(campaign)).status_code == 404
    assert post(eve, campaign, action, race="Elves", hex="0,0").status_code == 404
    assert open_submissions(campaign) == []


def test_a_signed_out_visitor_is_sent_to_sign_in(client, campaign):
    for response in (client.get(setup_url(campaign)), post(client, campaign, "race", race="Elves")):
        assert response.status_code == 302
        assert response.url.startswith(reverse("accounts:sign_in"))
    assert open_submissions(campaign) == []


def test_a_campaign_not_started_says_so(cast):
    campaign = new_campaign(cast, start=False)
    assert "The campaign has not started yet" in page(player(cast, "alice"), campaign)


# --- queries ---------------------------------------------------------------------------


def _queries(client: Client, campaign: Campaign) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(setup_url(campaign)).status_code == 200
    return len(queries.captured_queries)


def test_the_page_takes_the_same_queries_on_a_small_and_a_large_campaign(cast):
    small = new_campaign(cast, "Small")
    play_until(small, cast, at_step("settlements"))
    large = new_campaign(cast, "Large", map_name="generated", size=1000)
    play_until(large, cast, at_step("settlements"))
    admin.campaign_undo(campaign=large, actor=cast["gm"], reason="once more")
    play_until(large, cast, at_step("settlements"))
    assert common.latest_snapshot(large).number > common.latest_snapshot(small).number
    assert len(newest(large)["map"]["tiles"]) >= 1000
    for name in ("alice", "bob", "gm"):
        client = player(cast, name)
        assert _queries(client, large) == _queries(client, small), name


def test_each_tile_offered_is_said_in_words_not_coordinates_alone(cast, at_settlements):
    """ "[-2, -1], the plains north-west of your capital": where it lies from the capital,
    and its terrain; the map is framed on the tiles offered."""
    campaign = at_settlements
    me = whose_turn(cast, campaign, "settlements")
    text = page(me, campaign)
    buttons = re.findall(
        r'<button type="submit" name="hex" value="[^"]+" id="[^"]+">([^<]+)<', text
    )
    assert buttons
    assert all(
        re.fullmatch(r"\[-?\d+, -?\d+\], the \w+ [a-z-]+ of your capital", b) for b in buttons
    )


def test_a_direction_is_said_as_the_map_draws_it():
    assert direction((0, 0), (1, 0)) == "east"
    assert direction((0, 0), (-1, 0)) == "west"
    assert direction((0, 0), (0, -1)) == "north-west"
    assert direction((0, 0), (1, -1)) == "north-east"
    assert direction((0, 0), (0, 1)) == "south-east"
    assert direction((0, 0), (-1, 1)) == "south-west"
