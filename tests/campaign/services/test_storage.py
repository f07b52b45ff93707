"""How snapshots are kept (campaign/storage.py, the Snapshot model): the map once, the
events as what changed from one snapshot to the next; every snapshot reads back as the
whole file it stored, after a start, an advance, an undo, a correction and an import, in a
number of queries that does not grow with the campaign."""

import copy
import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import User
from campaign import storage
from campaign.management.commands.seed_demo import play_bot_step
from campaign.models import Campaign, CampaignMap, Snapshot, map_data, newest_events
from campaign.services import admin, common, members, setup
from campaign.signals import snapshot_stored
from campaign.transfer.exporting import campaign_export
from campaign.transfer.importing import campaign_import

BEFORE = [("campaign", "0004_notifications")]


@pytest.fixture
def cast() -> dict[str, User]:
    make = User.objects.create_user
    return {name: make(name, password="a-long-test-password") for name in ("gm", "alice", "bob")}


@pytest.fixture
def stored() -> Iterator[dict[tuple[int, int], Any]]:
    """Every file given to a new snapshot, as it was then, by campaign and number."""
    files: dict[tuple[int, int], Any] = {}

    def keep(*, campaign: Campaign, snapshot: Snapshot, **_: Any) -> None:
        files[campaign.pk, snapshot.number] = json.loads(json.dumps(snapshot.data))

    snapshot_stored.connect(keep, weak=False)
    yield files
    snapshot_stored.disconnect(keep)


def start_campaign(cast: dict[str, User]) -> Campaign:
    campaign = setup.campaign_create(
        name="Autumn League",
        admin=cast["gm"],
        kingdoms=2,
        map_name="borderlands",
        options={"seed": 5},
    )
    members.campaign_join(campaign=campaign, user=cast["alice"], kingdom_name="Red")
    members.campaign_join(campaign=campaign, user=cast["bob"], kingdom_name="Blue")
    setup.campaign_start(campaign=campaign, actor=cast["gm"])
    campaign.refresh_from_db()
    return campaign


def play(campaign: Campaign, cast: dict[str, User], steps: int = 1000) -> None:
    players = {"red": cast["alice"], "blue": cast["bob"]}
    rng = random.Random(5)
    for _ in range(steps):
        play_bot_step(campaign, players=players, admin=cast["gm"], rng=rng)
        campaign.refresh_from_db()
        if campaign.status == Campaign.Status.ENDED:
            return


def read_back(campaign: Campaign) -> dict[tuple[int, int], Any]:
    """Each snapshot read alone, as a page reads it."""
    numbers = campaign.snapshots.values_list("number", flat=True)
    return {
        (campaign.pk, number): Snapshot.objects.get(campaign=campaign, number=number).data
        for number in numbers
    }


# --- reading back what was stored -----------------------------------------------------------


@pytest.mark.django_db
def test_every_snapshot_of_start_advances_undo_and_correction_reads_back_as_its_file(cast, stored):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="Bob was away")
    admin.correct_resources(
        campaign=campaign, actor=cast["gm"], reason="a tithe", kingdom="red", gold=9, food=1
    )
    play(campaign, cast, steps=3)

    reasons = set(campaign.snapshots.values_list("reason", flat=True))
    assert reasons == {"start", "advance", "undo", "correction"}
    assert read_back(campaign) == stored
    assert CampaignMap.objects.count() == 1


@pytest.mark.django_db
def test_the_snapshot_an_undo_left_keeps_the_events_it_had_beyond_the_undo(cast, stored):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=6)
    undone = common.latest_snapshot(campaign)
    undo = admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="x")
    play(campaign, cast, steps=2)

    assert len(stored[campaign.pk, undo.number]["events"]) < undone.event_count
    row = Snapshot.objects.get(pk=undone.pk)
    assert row.events_shared is not None
    assert row.own_events, "the events undone are kept by the snapshot that had them"
    assert row.data == stored[campaign.pk, undone.number]
    assert read_back(campaign) == stored


@pytest.mark.django_db
def test_only_the_newest_snapshot_holds_its_events_whole(cast, stored):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=10)

    rows = list(campaign.snapshots.order_by("number"))
    assert [r.events_shared is None for r in rows] == [False] * (len(rows) - 1) + [True]
    assert rows[-1].own_events == stored[campaign.pk, rows[-1].number]["events"]
    assert sum(len(r.own_events) for r in rows[:-1]) == 0, "advances only add events"
    assert rows[-1].state["map"] is None
    assert rows[-1].state["events"] is None


@pytest.mark.django_db
def test_an_imported_campaign_reads_back_as_exported_and_shares_the_map(cast, stored):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="x")
    exported = campaign_export(campaign)

    imported = campaign_import(json.loads(json.dumps(exported)), slug="autumn-copy")

    files = {number: data for (_, number), data in read_back(imported).items()}
    assert files == {s["number"]: s["data"] for s in exported["snapshots"]}
    assert campaign_export(imported)["snapshots"] == exported["snapshots"]
    assert CampaignMap.objects.count() == 1


@pytest.mark.django_db
def test_the_export_of_a_whole_campaign_holds_the_files_as_they_were_stored(cast, stored):
    """Export unchanged: the files in it are those the services stored, snapshot by
    snapshot (as when each row kept its file whole)."""
    campaign = start_campaign(cast)
    play(campaign, cast)
    assert campaign.status == Campaign.Status.ENDED

    exported = json.loads(json.dumps(campaign_export(campaign)))

    assert {(campaign.pk, s["number"]): s["data"] for s in exported["snapshots"]} == stored
    assert exported["file"] == stored[campaign.pk, len(stored)]


@pytest.mark.django_db
def test_a_snapshot_read_alone_takes_two_queries_at_most_however_long_the_campaign(
    cast, django_assert_max_num_queries, django_assert_num_queries
):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=30)
    assert campaign.snapshots.count() > 30

    newest_events.cache_clear()
    with django_assert_num_queries(2):  # the snapshot, then its story
        assert common.latest_snapshot(campaign).data["clock"]
    with django_assert_num_queries(1):  # the story is kept
        assert common.latest_snapshot(campaign).data["events"]
    with django_assert_max_num_queries(2):
        assert Snapshot.objects.get(campaign=campaign, number=1).data["clock"]


@pytest.mark.django_db
def test_each_snapshot_stored_keeps_its_files_clock_beside_its_state(cast):
    """The pages that list the months read the `clock` column alone (the story's months,
    the previous month on the campaign page), never the whole state."""
    campaign = start_campaign(cast)
    play(campaign, cast, steps=6)
    snapshots = list(campaign.snapshots.order_by("number"))
    assert [s.clock for s in snapshots] == [s.data["clock"] for s in snapshots]
    assert len({repr(s.clock) for s in snapshots}) > 3


@pytest.mark.django_db
def test_the_newest_snapshots_story_is_read_once_and_stays_whole_after_the_next_advance(
    cast, django_assert_num_queries
):
    """The events of the newest snapshot are kept by each process once read (`Snapshot.data`
    reads them only when the file is asked for); a snapshot read as the newest whose story
    is asked for only after a newer one was stored still tells it whole."""
    campaign = start_campaign(cast)
    play(campaign, cast, steps=3)
    newest_events.cache_clear()
    with django_assert_num_queries(1):  # the snapshot, without its story
        read_early = common.latest_snapshot(campaign)
    read_and_told = common.latest_snapshot(campaign)
    story = read_and_told.data["events"]
    assert story == Snapshot.objects.get(pk=read_and_told.pk).own_events
    with django_assert_num_queries(1):
        assert common.latest_snapshot(campaign).data["events"] == story
    newest_events.cache_clear()
    play(campaign, cast, steps=1)
    assert Snapshot.objects.get(pk=read_early.pk).events_shared is not None
    assert read_early.data["events"] == story
    assert common.latest_snapshot(campaign).data["events"][: len(story)] == story


@pytest.mark.django_db
def test_a_map_is_read_from_the_database_once_for_every_snapshot_that_shows_it(
    cast, django_assert_num_queries
):
    """A process reads a stored map once (`map_data`, by its digest): after that a snapshot
    is read in one query, without the map's tens of kilobytes."""
    campaign = start_campaign(cast)
    play(campaign, cast, steps=3)
    common.latest_snapshot(campaign).data["events"]  # its story read and kept
    map_data.cache_clear()
    with django_assert_num_queries(2):  # the snapshot, then its map
        first = common.latest_snapshot(campaign).data["map"]
    with django_assert_num_queries(1):
        again = common.latest_snapshot(campaign).data["map"]
    assert again is first
    assert first == CampaignMap.objects.get(pk=common.latest_snapshot(campaign).map_id).data


@pytest.mark.django_db
def test_an_export_reads_its_snapshots_in_as_many_queries_short_or_long(cast):
    short, long = start_campaign(cast), None
    play(short, cast, steps=3)
    with CaptureQueriesContext(connection) as few:
        campaign_export(short)
    short.delete()
    long = start_campaign(cast)
    play(long, cast, steps=30)
    with CaptureQueriesContext(connection) as many:
        campaign_export(long)
    assert len(many) == len(few)


def test_the_file_is_put_together_with_its_keys_in_their_order():
    data = {"name": "x", "map": {"tiles": []}, "clock": {}, "events": [{"type": "a"}]}
    kept = storage.take_apart(data)
    again = storage.put_together(kept.state, kept.hexmap, kept.events)
    assert again == data
    assert list(again) == list(data)
    assert kept.state == {"name": "x", "map": None, "clock": {}, "events": None}


def test_events_follow_the_snapshots_after_undos_and_corrections():
    a, b, c, d = ({"type": t} for t in "abcd")
    # newest last: [a, b, d] (a correction of c), before it [a, b] (an undo), [a, b, c]
    rows = [(2, [c]), (2, []), (None, [a, b, d])]
    assert storage.events_from(rows) == [a, b, c]
    assert storage.events_from(rows[1:]) == [a, b]
    assert storage.shared_events([a, b, c], [a, b, d]) == 2


# --- the migration -----------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_takes_whole_snapshots_apart_and_puts_them_back(cast, stored):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=8)
    admin.campaign_undo(campaign=campaign, actor=cast["gm"], reason="x")
    play(campaign, cast, steps=2)
    executor = MigrationExecutor(connection)
    try:
        executor.migrate(BEFORE)
        old = executor.loader.project_state(BEFORE[0]).apps.get_model("campaign", "Snapshot")
        whole = {(r.campaign_id, r.number): r.data for r in old.objects.all()}
        assert whole == stored
        old.objects.create(
            campaign_id=campaign.pk, number=99, data=copy.deepcopy(stored[campaign.pk, 1])
        )
        stored[campaign.pk, 99] = stored[campaign.pk, 1]
        assert "campaign_campaignmap" not in connection.introspection.table_names()
    finally:  # every app's newest migration again (the storage migration, 0005, among them)
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())

    assert read_back(campaign) == stored
    assert CampaignMap.objects.count() == 1
    assert Snapshot.objects.get(campaign=campaign, number=99).events_shared is None
    clocks = campaign.snapshots.values_list("clock", "state__clock")
    assert [copied for copied, _ in clocks] == [clock for _, clock in clocks]
    assert all(clock["season"] for clock, _ in clocks)


# --- the bench ---------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_bench_storage_prints_its_figures_and_the_target_and_cleans_up(capsys):
    call_command("bench_storage", "--quick")

    lines = capsys.readouterr().out.splitlines()
    figures = [line for line in lines if not line.startswith("bench: storage measured on")]
    assert [re.sub(r" [\d.]+ ", " N ", line) for line in figures] == [
        "bench: storage_snapshots_2k_60hex N snapshots",
        "bench: storage_before_2k_60hex N MB",
        "bench: storage_after_2k_60hex N MB",
        "bench: storage_ratio_2k_60hex N x",
        figures[-1],
    ]
    assert re.fullmatch(r"bench: target_storage_5x (met|not met)", figures[-1])
    before, after = (float(line.split()[2]) for line in figures[1:3])
    assert before > 0
    assert after > 0
    assert not Campaign.objects.exists()
    assert not CampaignMap.objects.exists()
    assert "bench_storage_whole_files" not in connection.introspection.table_names()


@pytest.mark.django_db
def test_the_admin_shows_a_snapshots_whole_file(cast, client):
    campaign = start_campaign(cast)
    play(campaign, cast, steps=2)
    first = Snapshot.objects.get(campaign=campaign, number=1)
    cast["gm"].is_staff = cast["gm"].is_superuser = True
    cast["gm"].save()
    client.force_login(cast["gm"])

    page = client.get(reverse("admin:campaign_snapshot_change", args=[first.pk]))

    assert page.status_code == 200
    assert "water_edges" in page.text, "the map is shown with the rest of the file"
    assert 'name="own_events"' not in page.text
