"""What the pages read of a campaign's history, the snapshots before the one they show: the
months with their might and tiles (`months_of`), the month that ended last
(`previous_month`) and how many events the snapshot before held (`events_before`).

A stored snapshot never changes and snapshots are only ever added (an undo or a correction
is a newer one), so what lies before a snapshot is as fixed as the snapshot itself: the
small answers are kept for it (`mapcache.derived`), and a page that asks them again reads
them from the cache, not from every snapshot of the campaign."""

from typing import Any

from campaign.display import story
from campaign.display.mapcache import derived
from campaign.models import Snapshot


def months_of(campaign_id: int) -> list[story.Page]:
    """The campaign's snapshots as `story.story_of` reads them, (number, clock, scores,
    tiles), in two queries: the clock of every snapshot, then the scores and tiles of those
    that show a month's end (`story.month_ends`; the others' are None). A month is several
    snapshots, and the tiles of every one were most of what the end page read."""
    snapshots = Snapshot.objects.filter(campaign_id=campaign_id)
    clocks = list(snapshots.order_by("number").values_list("number", "clock"))
    ends = {end[0] for _, end in story.month_ends((n, clock, None, None) for n, clock in clocks)}
    shown = {
        number: (scores, tiles)
        for number, scores, tiles in snapshots.filter(number__in=ends).values_list(
            "number", "state__scores", "state__tiles"
        )
    }
    return [(n, clock, *shown.get(n, (None, None))) for n, clock in clocks]


def previous_month(newest: Snapshot) -> dict[str, Any] | None:
    """The clock of the month that ended last before the newest snapshot, and the scores at
    its end (`story.last_month_end`), as the leaderboard's change of might asks them; None
    when no month has ended. Two queries, however long the campaign, the first time it is
    asked for the snapshot; none after."""
    return derived(newest, "previous-month", lambda: _previous_month(newest))


def _previous_month(newest: Snapshot) -> dict[str, Any] | None:
    snapshots = Snapshot.objects.filter(campaign_id=newest.campaign_id, number__lte=newest.number)
    history = snapshots.values_list("number", "clock")
    found = story.last_month_end((number, clock, None, None) for number, clock in history)
    if found is None:
        return None
    clock, number = found
    scores = snapshots.filter(number=number).values_list("state__scores", flat=True)
    return {"clock": clock, "scores": scores.first()}


def events_before(snapshot: Snapshot) -> int | None:
    """How many events the snapshot before this one holds (None for the first): where this
    one's report begins. A query the first time it is asked for the snapshot; none after."""
    return derived(snapshot, "events-before", lambda: _events_before(snapshot))


def _events_before(snapshot: Snapshot) -> int | None:
    before = Snapshot.objects.filter(campaign_id=snapshot.campaign_id, number=snapshot.number - 1)
    return before.values_list("event_count", flat=True).first()
