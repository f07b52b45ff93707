"""The battle tests' cast: gm runs a campaign in which alice's and bob's armies meet and
their pitched battle is handed off to the tabletop; carol plays in it too, but not in
the battle; eve plays in another campaign."""

import copy
from collections.abc import Callable
from typing import Any

import pytest

from accounts.models import User
from battles.models import Battle
from battles.services import results
from campaign.models import Campaign
from campaign.services import common, members, setup
from tests.campaign.helpers import LEAGUE_CAST, play_from
from tests.conftest import campaign_made_once, read_again

KINGDOMS = {"alice": "Aldermark", "bob": "Brightwater", "carol": "Carrowmoor"}


def make_league(cast: dict[str, User], *, other: bool = True) -> Campaign:
    """alice, bob and carol play the Autumn League, which gm runs; eve plays in another
    (unless not `other`)."""
    campaign = setup.campaign_create(
        name="Autumn League", admin=cast["gm"], kingdoms=3, map_name="borderlands"
    )
    for name, kingdom in KINGDOMS.items():
        members.campaign_join(campaign=campaign, user=cast[name], kingdom_name=kingdom)
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
    if other:
        elsewhere = setup.campaign_create(
            name="Other League", admin=cast["eve"], kingdoms=2, map_name="borderlands"
        )
        members.campaign_join(campaign=elsewhere, user=cast["eve"], kingdom_name="Evermore")
    campaign.refresh_from_db()
    return campaign


# The league is made once for each module (its tests' changes rolled back after each).
made, cast, league = campaign_made_once(make_league, names=LEAGUE_CAST, name="league")


@pytest.fixture(scope="module")
def made_battle(made: tuple[dict[str, User], Campaign], django_db_blocker: Any) -> Battle:
    """Another Autumn League of the cast (alice, bob and carol play it, gm runs it), made
    once for the module (in its transaction), where alice's and bob's battle has been
    handed off to the tabletop: the module's tests that ask for `battle` start from it."""
    cast = made[0]
    with django_db_blocker.unblock():
        campaign = make_league(cast, other=False)
        handed_off = hand_off(campaign, cast)
    assert handed_off is not None
    assert handed_off.awaiting
    return handed_off


@pytest.fixture
def campaign(request: pytest.FixtureRequest, made: tuple[dict[str, User], Campaign]) -> Campaign:
    """The league, read again; for a test that asks for `battle` (itself or through another
    fixture), the league where that battle waits."""
    if "battle" in request.fixturenames:
        made_battle: Battle = request.getfixturevalue("made_battle")
        return Campaign.objects.get(pk=made_battle.campaign_id)
    return read_again(made[1])


def hand_off(
    campaign: Campaign, cast: dict[str, User], *, armies: int = 1, isolated: bool = False
) -> Battle | None:
    """The gm corrects the newest snapshot so that alice's armies (aldermark, holding the
    tile) and bob's meet on a plains tile next to more aldermark land, at the battles step;
    the engine hands their battle off to the tabletop. bob brings `armies` armies; an
    `isolated` aldermark holds no tile next to it (ruling B4). Returns the newest
    battle's row (None while a Last Stand is asked)."""
    data: dict[str, Any] = copy.deepcopy(common.latest_snapshot(campaign).data)
    tiles = {tuple(t["hex"]): t for t in data["map"]["tiles"]}
    plains = next(
        h
        for h, t in sorted(tiles.items())
        if t["terrain"] == "plains" and not t["river"]
        and sum(
            1 for n in _neighbours(h) if n in tiles and tiles[n]["terrain"] == "plains"
        ) >= 3
    )  # fmt: skip
    around = [
        list(n) for n in _neighbours(plains) if n in tiles and tiles[n]["terrain"] == "plains"
    ]
    army = {"upright": True, "ally": None, "hex": list(plains)}
    data.update(
        clock={"year": 1, "season": "summer", "month": 1, "step": "battles"},
        player_order=["brightwater", "aldermark", "carrowmoor"],
        tiles=[
            {"hex": list(plains), "owner": "aldermark", "settlement": None},
            {
                "hex": around[0],
                "owner": "brightwater" if isolated else "aldermark",
                "settlement": None,
            },
            {"hex": around[1], "owner": "brightwater", "settlement": None},
            {"hex": around[2], "owner": "brightwater", "settlement": None},
        ],
        armies=[
            *({"id": f"aldermark-{n}", "kingdom": "aldermark", **army} for n in range(1, 2)),
            *(
                {"id": f"brightwater-{n}", "kingdom": "brightwater", **army}
                for n in range(1, armies + 1)
            ),
        ],
        pending=[],
    )
    play_from(campaign, cast["gm"], data, "set up a battle")
    return Battle.objects.filter(campaign=campaign).order_by("-number").first()


def _neighbours(h: tuple[int, int]) -> list[tuple[int, int]]:
    q, r = h
    return [(q + 1, r), (q + 1, r - 1), (q, r - 1), (q - 1, r), (q - 1, r + 1), (q, r + 1)]


@pytest.fixture
def battle(made_battle: Battle) -> Battle:
    """alice's and bob's battle, waiting on the tabletop (`made_battle`), read again."""
    return read_again(made_battle)


@pytest.fixture
def won(cast, eager_celery, django_capture_on_commit_callbacks):
    """alice reports that `winner` won the battle, bob confirms, and the campaign advances."""

    def play(battle: Battle, winner: str) -> None:
        report = results.battle_report(
            battle=battle, user=cast["alice"], result="win", winner=winner
        )
        with django_capture_on_commit_callbacks(execute=True):
            results.battle_confirm(report=report, user=cast["bob"])

    return play


@pytest.fixture
def media(settings, tmp_path):
    """The default storage in a folder of the test's own, to count what is stored."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT


@pytest.fixture
def resolved(battle: Battle, won: Callable[[Battle, str], None]) -> Battle:
    """alice's and bob's battle, won by alice's Aldermark and resolved."""
    won(battle, "aldermark")
    battle.refresh_from_db()
    assert not battle.awaiting
    return battle
