"""The end of a campaign (/c/<slug>/story/end/): the podium, the final standings with the
tiebreakers that decided them (ruling P2), each kingdom's best moments, and the whole
chronicle; only once the campaign has ended, and only for its members."""

from typing import Any

import pytest
from django.urls import reverse

from campaign.display import chronicle
from campaign.display.story import tiebreaks
from campaign.models import Campaign
from campaign.services import common, names
from campaign.words import names_of
from tests.campaign.helpers import new_campaign, play_until, signed_in

NAMES = {"red": "Red", "blue": "Blue", "green": "Green"}


def score(
    kingdom: str,
    might: int,
    armies: int = 1,
    cities: int = 1,
    fortresses: int = 1,
    villages: int = 1,
) -> dict[str, object]:
    return {
        "kingdom": kingdom,
        "might": might,
        "armies": armies,
        "cities": cities,
        "fortresses": fortresses,
        "villages": villages,
    }


def test_p2_the_first_tiebreaker_that_separates_two_kingdoms_is_named():
    scores = [score("red", 20, armies=2), score("blue", 20, armies=1), score("green", 5)]
    kingdoms = [{"id": k, "eliminated": None} for k in NAMES]
    assert tiebreaks(scores, kingdoms, NAMES) == ["Red is ahead of Blue on armies: 2 to 1."]


def test_p2_villages_decide_when_armies_cities_and_fortresses_are_level():
    scores = [score("red", 20, villages=3), score("blue", 20, villages=2)]
    assert tiebreaks(scores, [], NAMES) == ["Red is ahead of Blue on villages: 3 to 2."]


def test_p2_a_kingdom_eliminated_later_is_ahead_and_level_kingdoms_share_the_place():
    scores = [score("red", 0), score("blue", 0), score("green", 0)]
    kingdoms: list[dict[str, object]] = [
        {"id": "red", "eliminated": None},
        {"id": "blue", "eliminated": 2},
        {"id": "green", "eliminated": 2},
    ]
    assert tiebreaks(scores, kingdoms, NAMES) == [
        "Red is ahead of Blue: it was eliminated later, or never.",
        "Blue and Green are level on might and every tiebreaker: they share the place.",
    ]


@pytest.fixture
def ended(cast):
    campaign = new_campaign(cast, options={"years": 1})
    play_until(campaign, cast, lambda data: data["clock"]["season"] == "ended")
    return campaign


def end_url(campaign: Campaign) -> str:
    return reverse("campaign:end", args=[campaign.slug])


@pytest.mark.django_db
def test_the_end_shows_the_podium_the_standings_the_moments_and_the_chronicle(client, cast, ended):
    data = common.latest_snapshot(ended).data
    page = signed_in(client, cast["bob"]).get(end_url(ended)).text
    winner = {"red-elves": "Red Elves", "blue-dwarfs": "Blue Dwarfs"}[data["scores"][0]["kingdom"]]
    assert "The podium" in page
    assert f"{winner}</span>" in page or f"{winner} <span" in page
    assert f"<strong>{data['scores'][0]['might']} might</strong>" in page
    assert "Best moments" in page
    assert "at its widest" in page
    assert page.index("The setup") < page.index("The end of the campaign")  # oldest first
    assert (
        f'href="{reverse("campaign:end", args=[ended.slug])}"'
        in signed_in(client, cast["alice"])
        .get(reverse("campaign:campaign", args=[ended.slug]))
        .text
    )


@pytest.mark.django_db
def test_there_is_no_end_before_the_campaign_has_ended(client, cast):
    campaign = new_campaign(cast)
    assert signed_in(client, cast["alice"]).get(end_url(campaign)).status_code == 404


@pytest.mark.django_db
@pytest.mark.parametrize(("visitor", "status"), [("eve", 404), (None, 302), ("gm", 200)])
def test_the_end_is_for_the_campaigns_members(client, cast, ended, visitor, status):
    if visitor:
        signed_in(client, cast[visitor])
    assert client.get(end_url(ended)).status_code == status


@pytest.mark.django_db
def test_the_home_page_links_an_ended_campaign_to_its_end(client, cast, ended):
    page = signed_in(client, cast["alice"]).get(reverse("campaign:home")).text
    assert f'<a class="button" href="{end_url(ended)}">See how it ended</a>' in page


def chronicle_part(page: str) -> str:
    return page.split('id="end-chronicle-title"', 1)[1]


@pytest.mark.django_db
def test_the_chronicle_kept_for_the_end_follows_a_place_renamed(client, cast, ended, monkeypatch):
    """The end's chronicle is told once and kept, for the names it says (issue 37)."""
    told_again: list[int] = []
    tell = chronicle.chronicle_of

    def counted(*args: Any, **kwargs: Any) -> Any:
        told_again.append(1)
        return tell(*args, **kwargs)

    monkeypatch.setattr(chronicle, "chronicle_of", counted)
    bob = signed_in(client, cast["bob"])
    before = chronicle_part(bob.get(end_url(ended)).text)
    assert chronicle_part(bob.get(end_url(ended)).text) == before
    assert len(told_again) <= 1
    data = common.latest_snapshot(ended).data
    told = next(p for p in names_of(data, ended.gazetteer).places() if f" {p}." in before)
    names.place_rename(campaign=ended, actor=cast["gm"], place=told, name="Newhaven", reason="x")
    after = chronicle_part(bob.get(end_url(ended)).text)
    assert after.count("Newhaven") == before.count(told) > 0
