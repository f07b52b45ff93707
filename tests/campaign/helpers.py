"""What the tests share: the one cast of users (an admin, players, an outsider), a small
campaign between them, and bots that play it forward through the services."""

import copy
import random
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from campaign.management.commands.seed_demo import play_bot_step
from campaign.models import Campaign, newest_events
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import neighbours
from campaign.rules.orders import order_choices
from campaign.services import admin, advancing, common, members, setup, submissions
from campaign.signals import quietly

PASSWORD = "a-long-test-password"
CAST = ("gm", "alice", "bob", "eve")  # eve plays in another campaign, or in none
# The battles' league (tests/battles/conftest.py): carol plays in it too, not in the battle.
LEAGUE_CAST = ("gm", "alice", "bob", "carol", "eve")


def make_cast(names: Sequence[str] = CAST, *, password: str = PASSWORD) -> dict[str, User]:
    """The cast: a user for each name, by name, each with the same password."""
    return {name: User.objects.create_user(name, password=password) for name in names}


def new_campaign(
    cast: dict[str, User],
    name: str = "Autumn League",
    *,
    start: bool = True,
    map_name: str = "borderlands",
    size: int | None = None,
    options: dict[str, Any] | None = None,
) -> Campaign:
    """alice (Red Elves) and bob (Blue Dwarfs), run by gm; `map_name="generated"` with a
    `size` (say 1000 hexes) makes a large one, for the query-count tests."""
    campaign = setup.campaign_create(
        name=name,
        admin=cast["gm"],
        kingdoms=2,
        map_name=map_name,
        size=size,
        options={"seed": 1, **(options or {})},  # the dice these tests were written with
    )
    # The admin's news that every kingdom has joined is tested on its own (test_join): the
    # tests of what the campaign tells from its start on count only that.
    with quietly():
        members.campaign_join(
            campaign=campaign, user=cast["alice"], kingdom_name="Red Elves", colour="#aa0000"
        )
        members.campaign_join(
            campaign=campaign, user=cast["bob"], kingdom_name="Blue Dwarfs", colour="#0000aa"
        )
    if start:
        setup.campaign_start(campaign=campaign, actor=cast["gm"])
    campaign.refresh_from_db()
    return campaign


def kingdom_of(campaign: Campaign, user: User) -> str:
    return common.kingdom_of(campaign, user)


def play_until(
    campaign: Campaign,
    cast: dict[str, User],
    reached: Callable[[dict[str, Any]], bool],
    *,
    seed: int = 1,
    limit: int = 200,
) -> dict[str, Any]:
    """Let bots answer for every kingdom, snapshot after snapshot, until the newest
    campaign file is `reached`; return that file."""
    players = {m.kingdom: m.user for m in campaign.memberships.exclude(kingdom="")}
    rng = random.Random(seed)
    for _ in range(limit):
        data: dict[str, Any] = common.latest_snapshot(campaign).data
        if reached(data):
            campaign.refresh_from_db()
            return data
        play_bot_step(campaign, players=players, admin=cast["gm"], rng=rng)
    raise AssertionError(f"not reached in {limit} snapshots")


def set_up_by_the_deadlines(campaign: Campaign, gm: User) -> dict[str, Any]:
    """The admin's "Advance now" at each step of the setup (each capital's turn, then the
    settlements and the starting armies at once) until the first month's orders are
    asked; that campaign file."""
    for _ in range(12):
        data: dict[str, Any] = common.latest_snapshot(campaign).data
        if data["clock"]["season"] != "setup":
            campaign.refresh_from_db()
            return data
        admin.campaign_advance_now(campaign=campaign, actor=gm)
    raise AssertionError("the setup did not end by its deadlines")


def at_step(step: str) -> Callable[[dict[str, Any]], bool]:
    return lambda data: data["clock"]["step"] == step


def dashboard_url(campaign: Campaign) -> str:
    return reverse("campaign:dashboard", args=[campaign.slug])


def action_url(campaign: Campaign, action: str) -> str:
    return reverse("campaign:dashboard_action", args=[campaign.slug, action])


def seen_now(campaign: Campaign) -> dict[str, str]:
    """What an admin's form carries besides what is typed in it: `seen`, the snapshot its
    page was drawn at (campaign.forms.DrawnAt), here the newest."""
    return {"seen": str(common.latest_snapshot(campaign).number)}


def turned_away(response: Any, visitor: str | None) -> None:
    """A visitor signed out is sent to sign in; a signed-in one who may not finds nothing."""
    if visitor is None:
        assert response.status_code == 302
        assert response.url.startswith(reverse("accounts:sign_in"))
    else:
        assert response.status_code == 404


def signed_in(client: Client, user: User) -> Client:
    client.force_login(user)
    return client


def hand_off_a_battle(
    campaign: Campaign,
    cast: dict[str, User],
    *,
    held: tuple[str, str | None] = ("red-elves", None),
    blue: dict[str, Any] | None = None,
    red: dict[str, Any] | None = None,
    **state: Any,
) -> list[int]:
    """The gm corrects the newest snapshot so that both kingdoms' armies meet on a plains
    tile at the battles step, and the engine hands the battle off to the tabletop. The tile
    is `held` (owner, settlement); `red` and `blue` add fields to each army (a Defend
    order, a licence); `state` replaces more of the file (its artefacts, say). Returns the
    battle's hex."""
    data = copy.deepcopy(common.latest_snapshot(campaign).data)
    plains: list[int] = next(
        t["hex"] for t in data["map"]["tiles"] if t["terrain"] == "plains" and not t["river"]
    )
    army = {"upright": True, "ally": None, "hex": plains}
    data.update(
        clock={"year": 1, "season": "summer", "month": 1, "step": "battles"},
        player_order=["red-elves", "blue-dwarfs"],
        tiles=[{"hex": plains, "owner": held[0], "settlement": held[1]}],
        armies=[
            {"id": "red-elves-1", "kingdom": "red-elves", **army, **(red or {})},
            {"id": "blue-dwarfs-1", "kingdom": "blue-dwarfs", **army, **(blue or {})},
        ],
        pending=[],
        **state,
    )
    snapshot = play_from(campaign, cast["gm"], data, "set up a battle")
    assert snapshot is not None
    assert snapshot.data["battles"][0]["status"] == "awaiting_result"
    return plains


def play_from(campaign: Campaign, gm: User, data: dict[str, Any], reason: str) -> Any:
    """The gm corrects the newest snapshot to the position `data`, every kingdom playing
    Elves, and the campaign advances from it; returns the snapshot advanced to, if any."""
    for kingdom in data["kingdoms"]:
        kingdom["race"] = "Elves"
    corrected = admin.campaign_correct(
        campaign=campaign, actor=gm, reason=reason, data=data, what="test"
    )
    return advancing.campaign_advance(campaign_id=campaign.pk, snapshot_number=corrected.number)


def at_month(year: int, month: int, season: str = "summer") -> Callable[[dict[str, Any]], bool]:
    """The campaign file stands in that month (summer month `month`, or a winter)."""

    def reached(data: dict[str, Any]) -> bool:
        now = data["clock"]
        return bool((now["year"], now["season"], now["month"]) == (year, season, month))

    return reached


def short_and_long(cast: dict[str, User]) -> tuple[Campaign, Campaign]:
    """Two campaigns, one at its second month and one played to year 3, for the tests that
    a page's queries do not grow with the campaign's length."""
    short, long = new_campaign(cast, "Short"), new_campaign(cast, "Long")
    play_until(short, cast, at_month(1, 2))
    play_until(long, cast, at_month(3, 2), limit=300)
    return short, long


def without_tokens(page: str) -> str:
    """The page without what changes on every request: its CSRF tokens and CSP nonces."""
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", page)
    page = re.sub(r' nonce="[^"]*"', "", page)
    return re.sub(r'"X-CSRFToken": "[^"]*"', "", page)


def queries_of(client: Client, url: str) -> tuple[int, str]:
    """How many queries a page takes, and the page."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries.captured_queries), response.text


def seen_with(campaign: Campaign, form: dict[str, Any]) -> dict[str, Any]:
    """A decision post as the player's page sends it: the form, and `seen`, the snapshot the
    page was drawn at (the newest one)."""
    newest = campaign.snapshots.order_by("-number").first()
    return {"seen": newest.number if newest else 0, **form}


def a_move_drafted(campaign: Campaign, user: User) -> tuple[str, list[int]]:
    """At the summer's orders, the user's kingdom drafts a move of its first army. The
    army's id, and a land tile that is neither where it stands, nor where it moves, nor
    next to either: an army put there by a correction can carry out no such move."""
    data = common.latest_snapshot(campaign).data
    mine = common.kingdom_of(campaign, user)
    army = next(a for a in data["armies"] if a["kingdom"] == mine)
    to = order_choices(parse_campaign(data), army["id"]).moves[0]
    move = {"unit": army["id"], "order": "move", "to": list(to)}
    submissions.submission_save(campaign=campaign, user=user, kind="orders", payload=[move])
    near = {tuple(army["hex"]), to, *neighbours(tuple(army["hex"])), *neighbours(to)}
    far = next(
        t["hex"]
        for t in data["map"]["tiles"]
        if tuple(t["hex"]) not in near and t.get("terrain") not in ("sea", "lake", "mountain")
    )
    return army["id"], far


@contextmanager
def first_visit_queries() -> Iterator[CaptureQueriesContext]:
    """The queries a page makes on a first visit: the newest snapshot's story not yet kept
    by this process (`campaign.models.newest_events`), so two campaigns compare alike."""
    newest_events.cache_clear()
    with CaptureQueriesContext(connection) as queries:
        yield queries
