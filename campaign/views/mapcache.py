"""The campaign map of a snapshot, drawn once and kept in the cache (Redis when configured).

A snapshot never changes, so its drawing depends only on the snapshot and on what the page
lays over it: the kingdoms' looks (a player may edit them), the hexes the viewer may tap,
their own planned moves, the framing. The key holds all of these, and the drawing code's own
fingerprint, so an edited look or a new release never shows an old picture. When the cache
does not answer (Redis down), the map is drawn as before and the page still renders."""

import hashlib
import logging
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path

from django.core.cache import cache as django_cache
from redis.exceptions import RedisError

from campaign.display import mapsvg
from campaign.display.mapsvg import KingdomLook, Mark, Move, Pick, render_map
from campaign.models import Snapshot
from campaign.rules.hexmap import Hex

logger = logging.getLogger(__name__)

# A drawing stays a week at most: old snapshots are seldom looked at again.
KEPT_FOR = 7 * 24 * 3600


@cache
def _drawing_code() -> str:
    """A fingerprint of the drawing code, so a release that draws differently starts anew."""
    return hashlib.sha256(Path(mapsvg.__file__).read_bytes()).hexdigest()[:16]


def map_key(
    snapshot: Snapshot,
    *,
    kingdoms: Mapping[str, KingdomLook],
    picks: Sequence[Pick] = (),
    moves: Sequence[Move] | None = None,
    focus: Sequence[Hex] = (),
    marks: Sequence[Mark] = (),
) -> str:
    """The cache key of the snapshot's map as drawn with these looks and overlays."""
    overlays = repr(
        (
            sorted(kingdoms.items()),
            list(picks),
            None if moves is None else list(moves),
            list(focus),
            list(marks),
        )
    )
    digest = hashlib.sha256(overlays.encode()).hexdigest()
    # The time it was stored, besides its id: a database restored or recreated under the
    # same cache gives its ids again to other snapshots.
    stored = snapshot.created_at.timestamp()
    return f"mapsvg:{_drawing_code()}:{snapshot.campaign_id}:{snapshot.pk}:{stored}:{digest}"


def snapshot_map(
    snapshot: Snapshot,
    *,
    kingdoms: Mapping[str, KingdomLook],
    picks: Sequence[Pick] = (),
    moves: Sequence[Move] | None = None,
    focus: Sequence[Hex] = (),
    marks: Sequence[Mark] = (),
) -> str:
    """`render_map` of the snapshot's file, from the cache when it holds it."""
    key = map_key(snapshot, kingdoms=kingdoms, picks=picks, moves=moves, focus=focus, marks=marks)
    try:
        kept = django_cache.get(key)
    except (RedisError, OSError) as away:
        logger.warning("The map cache does not answer (%s): drawing the map anew.", away)
        kept = None
        reachable = False
    else:
        reachable = True
    if isinstance(kept, str):
        return kept
    svg = render_map(
        snapshot.data, kingdoms=kingdoms, picks=picks, moves=moves, focus=focus, marks=marks
    )
    if reachable:
        try:
            django_cache.set(key, svg, KEPT_FOR)
        except (RedisError, OSError) as away:
            logger.warning("The map cache does not answer (%s): the map is not kept.", away)
    return svg
