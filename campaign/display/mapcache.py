"""The campaign map of a snapshot, drawn once and kept in the cache (Redis when configured).

A snapshot never changes, so its ground (hexes, units, last month's arrows) depends only on
the snapshot, the kingdoms' looks (a player may edit them), the campaign's names (an admin
may rename a place, a player an army) and the framing. The key holds these and the drawing
code's own fingerprint, so an edited look, a new name or a new release never shows an old
picture. What one viewer sees over it (the hexes they may tap, their own
planned moves, marks) is small and drawn over the kept ground on each request, so a tap
does not draw the whole map again. When the cache does not answer (Redis down), the ground
is drawn as before and the page still renders; the cache is then left alone for
`AWAY_FOR` seconds.

What else derives from a snapshot's file alone (`derived`: the units still to order, what a
unit may be ordered to do) is kept the same way, so a board drawn again does not parse the
file again."""

import hashlib
import logging
import pickle
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path
from typing import cast

from django.conf import settings
from django.core.cache import cache as django_cache
from redis.exceptions import RedisError

from campaign import rules
from campaign.display import mapsvg, optional
from campaign.display.mapsvg.orders import Mark, Move, Pick
from campaign.display.mapsvg.render import draw_ground, draw_overlay, laid_over, map_hexes
from campaign.display.mapsvg.scene import KingdomLook
from campaign.gazetteer import Names
from campaign.models import MAPS_KEPT, Snapshot, map_data
from campaign.rules.hexmap import Hex

logger = logging.getLogger(__name__)

# A drawing stays a week at most: old snapshots are seldom looked at again.
KEPT_FOR = 7 * 24 * 3600


@cache
def _drawing_code() -> str:
    """A fingerprint of the code that draws and derives from a snapshot, so a release that
    draws or rules differently starts anew: every module of this package, of the map's and
    optional rules' (their layers), and of the rules engine."""
    digest = hashlib.sha256()
    display = Path(__file__).parent
    packages = (display, Path(mapsvg.__file__).parent, Path(optional.__file__).parent)
    modules = [m for package in packages for m in package.glob("*.py")]
    modules += Path(rules.__file__).parent.rglob("*.py")
    for module in sorted(set(modules)):
        digest.update(module.read_bytes())
    return digest.hexdigest()[:16]


def ground_key(
    snapshot: Snapshot,
    *,
    kingdoms: Mapping[str, KingdomLook],
    focus: Sequence[Hex] = (),
    last_moves: bool = True,
    names: Names | None = None,
) -> str:
    """The cache key of the snapshot's ground as drawn with these looks, names and this
    framing."""
    said = names.fingerprint() if names is not None else ""
    drawn = repr((sorted(kingdoms.items()), list(focus), last_moves, said))
    digest = hashlib.sha256(drawn.encode()).hexdigest()
    return f"mapsvg:{_snapshot_key(snapshot)}:{digest}"


def snapshot_map(
    snapshot: Snapshot,
    *,
    kingdoms: Mapping[str, KingdomLook],
    picks: Sequence[Pick] = (),
    moves: Sequence[Move] | None = None,
    focus: Sequence[Hex] = (),
    marks: Sequence[Mark] = (),
    names: Names | None = None,
) -> str:
    """`render_map` of the snapshot's file: its ground from the cache when it holds it, the
    viewer's overlay (picks, planned moves, marks) drawn over it each time. `names`: the
    campaign's, as `render_map` takes them."""
    last_moves = moves is None
    key = ground_key(snapshot, kingdoms=kingdoms, focus=focus, last_moves=last_moves, names=names)
    try:
        ground = _ground_kept(key)
    except LookupError:
        ground = draw_ground(
            snapshot.data, kingdoms=kingdoms, focus=focus, last_moves=last_moves, names=names
        )
        _keep(key, ground)
    on_map = _hexes_of(snapshot.map_id) if snapshot.map_id else map_hexes(snapshot.data)
    overlay = draw_overlay(
        snapshot.data, on_map, kingdoms=kingdoms, picks=picks, moves=moves or (), marks=marks,
        names=names,
    )  # fmt: skip
    return laid_over(ground, overlay)


@lru_cache(maxsize=MAPS_KEPT)
def _hexes_of(digest: str) -> frozenset[Hex]:
    """The hexes of a stored map (`map_hexes`), worked out once by each process: a stored
    map never changes, its key being its content's digest."""
    return map_hexes({"map": map_data(digest)})


def derived[T](snapshot: Snapshot, what: str, make: Callable[[], T]) -> T:
    """What `make` derives from the snapshot's file alone (and `what` names, with whatever
    else it depends on), kept for the snapshot: a stored snapshot never changes. One not
    stored yet is never kept."""
    if snapshot.pk is None:
        return make()
    return kept(f"derived:{_snapshot_key(snapshot)}:{what}", make)


def kept[T](key: str, make: Callable[[], T]) -> T:
    """What `make` makes, kept under `key`, which names all it depends on; each caller
    gets a copy of its own, as from the cache."""
    try:
        return cast(T, pickle.loads(_pickled_kept(key)))
    except LookupError:
        made = make()
        _keep(key, (made,))
        return made


# What `kept` keeps, each process keeps as well, the last it read from the cache, pickled
# (a caller may change its copy): a page drawn again does not ask the cache for each thing
# it derives. Its key names everything it is made from, so it is never stale.
VALUES_KEPT = 256


@lru_cache(maxsize=VALUES_KEPT)
def _pickled_kept(key: str) -> bytes:
    """The value kept under `key`, pickled; LookupError when the cache holds none."""
    found = _kept_value(key)
    if not isinstance(found, tuple):
        raise LookupError(key)
    return pickle.dumps(found[0], pickle.HIGHEST_PROTOCOL)


def _snapshot_key(snapshot: Snapshot) -> str:
    """The snapshot's name in the cache: with the code's fingerprint, its campaign, its id
    and the time it was stored (a database restored or recreated under the same cache
    gives its ids again to other snapshots)."""
    stored = snapshot.created_at.timestamp()
    return f"{_drawing_code()}:{snapshot.campaign_id}:{snapshot.pk}:{stored}"


# The grounds each process keeps as well, the last few it read from the cache: a page
# drawn again for another viewer of the month does not fetch its map's hundred kilobytes
# again. Its key names everything it is drawn from, so a kept ground is never stale.
GROUNDS_KEPT = 8


@lru_cache(maxsize=GROUNDS_KEPT)
def _ground_kept(key: str) -> str:
    """The ground kept under `key`; LookupError when the cache holds none (a miss, which
    lru_cache never keeps)."""
    kept = _kept_value(key)
    if not isinstance(kept, str):
        raise LookupError(key)
    return kept


# A cache server that did not answer is not asked again for a while: each ask would wait
# its timeout again (a second), and a page asks it for its map and what derives from it.
AWAY_FOR = 30.0  # seconds
_away: dict[str, float] = {}  # by the server's address: when it may be asked again


def _kept_value(key: str) -> object:
    if not _answering():
        return None
    try:
        return django_cache.get(key)
    except (RedisError, OSError) as away:
        _gone_away()
        logger.warning("The map cache does not answer (%s): drawing the map anew.", away)
        return None


def _keep(key: str, ground: object) -> None:
    if not _answering():
        return
    try:
        django_cache.set(key, ground, KEPT_FOR)
    except (RedisError, OSError) as away:
        _gone_away()
        logger.warning("The map cache does not answer (%s): the map is not kept.", away)


def _server() -> str:
    return str(settings.CACHES["default"].get("LOCATION", ""))


def _answering() -> bool:
    return time.monotonic() >= _away.get(_server(), 0.0)


def _gone_away() -> None:
    _away[_server()] = time.monotonic() + AWAY_FOR
