"""The reads every page makes, by SQL written once (`campaign.reads`): each gives the rows the
ORM's query gives, in the same order, as the same models with the same values."""

from collections.abc import Sequence
from typing import Any

import pytest
from django.db.models import Model
from django.http import Http404

from accounts.models import User
from battles.access import battle_for
from battles.models import Battle
from campaign.models import Campaign, Membership, Snapshot, Submission
from campaign.reads import rows_of
from tests.battles.conftest import hand_off, make_league
from tests.campaign.helpers import LEAGUE_CAST, make_cast

pytestmark = pytest.mark.django_db


@pytest.fixture
def cast() -> dict[str, User]:
    return make_cast(LEAGUE_CAST)


@pytest.fixture
def league(cast: dict[str, User]) -> Campaign:
    return make_league(cast)


def values(rows: Sequence[Any]) -> list[dict[str, Any]]:
    return [
        {f.attname: getattr(row, f.attname) for f in row._meta.concrete_fields if f.name != "map"}
        for row in rows
    ]


def same(read: Sequence[Model], orm: Sequence[Model]) -> None:
    assert [type(r) for r in read] == [type(r) for r in orm]
    assert values(read) == values(orm)


def test_a_campaign_is_read_by_its_slug_as_the_orm_reads_it_bar_its_map(league):
    (read,) = rows_of(Campaign, league.slug, where=("slug",), leaving=("map",))
    same([read], [Campaign.objects.get(slug=league.slug)])
    assert isinstance(read.gazetteer, dict)  # JSON comes back as Python, as from the ORM
    assert read.get_deferred_fields() == {"map"}
    assert read.map == Campaign.objects.get(pk=league.pk).map  # read when asked for
    assert rows_of(Campaign, "no-such-campaign", where=("slug",)) == []


def test_the_members_come_in_the_order_they_joined(league):
    read = rows_of(Membership, league.pk, where=("campaign_id",))
    assert len(read) == 4  # gm, alice, bob, carol
    same(read, list(league.memberships.all()))
    (alices,) = [m for m in read if m.user.username == "alice"]
    found = Membership.of(league, alices.user_id)
    assert found is not None
    same([found], [alices])
    assert found.campaign is league
    eve = Membership.objects.exclude(campaign=league).get().user_id  # of the Other League
    assert Membership.of(league, eve) is None


def test_the_newest_snapshot_is_the_one_with_the_greatest_number(league):
    """Not the one stored last: two are stored after the league's, the later one first."""
    first = Snapshot.objects.newest(league)
    assert first is not None
    for number in (first.number + 2, first.number + 1):
        later = Snapshot(campaign=league, number=number, reason=Snapshot.Reason.CORRECTION)
        later.data = first.data
        later.save()
    newest = Snapshot.objects.newest(league)
    assert newest is not None
    assert newest.number == first.number + 2
    same([newest], [league.snapshots.order_by("-number").first()])
    assert newest.data == first.data
    assert newest.campaign is league
    assert Snapshot.objects.newest(Campaign.objects.get(name="Other League")) is None


def test_open_decisions_leave_out_those_an_advance_consumed(league):
    snapshot = Snapshot.objects.newest(league)
    kept = Submission.objects.create(
        campaign=league, kingdom="aldermark", kind="orders", payload=[], snapshot=1
    )
    Submission.objects.create(
        campaign=league,
        kingdom="brightwater",
        kind="orders",
        payload=[],
        snapshot=1,
        consumed_by=snapshot,
    )
    other = Submission.objects.create(
        campaign=league, kingdom="brightwater", kind="tithes", payload=[], snapshot=1
    )
    assert Submission.open_in(league) == [kept, other]
    same(Submission.open_in(league), list(league.submissions.filter(consumed_by=None)))
    assert Submission.open_in(league, "aldermark") == [kept]
    assert Submission.open_in(league, "brightwater") == [other]


def test_a_battle_is_read_by_its_number_in_the_members_campaign_bar_the_campaigns_map(
    league, cast, rf
):
    battle = hand_off(league, cast)
    assert battle is not None
    request = rf.get("/")
    request.user = cast["alice"]
    membership, read = battle_for(request, league.slug, battle.number)
    same([read], [Battle.objects.get(pk=battle.pk)])
    assert read.campaign is membership.campaign
    assert membership.campaign.get_deferred_fields() == {"map"}
    with pytest.raises(Http404):
        battle_for(request, league.slug, battle.number + 1)
