"""How a snapshot's campaign file is kept in the database without repeating what the
snapshots of a campaign share: the map, stored once under the digest of its content, and
the events, which only grow from one snapshot to the next. The newest snapshot holds its
events whole; an older one holds how many first events it shares with the snapshot after
it and the events of its own beyond those (none, unless an undo or a correction followed).
The rest of the file (`state`) is kept as it is, with null in the places of `map` and
`events` so that the file reads back with its keys in their order. Pure functions: the
models and the migration call them."""

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

Json = dict[str, Any]
MAP = "map"
EVENTS = "events"


@dataclass(frozen=True)
class KeptFile:
    """A campaign file taken apart for storing."""

    state: Json
    hexmap: Json | None
    events: list[Any]


def map_digest(hexmap: Json) -> str:
    """The SHA-256 of the map's canonical JSON: two snapshots with the same map share it."""
    canonical = json.dumps(hexmap, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def take_apart(data: Json) -> KeptFile:
    """The file's map and events apart from the rest (a file may lack its events)."""
    hexmap = data.get(MAP)
    events = data.get(EVENTS)
    kept_map = isinstance(hexmap, dict)
    kept_events = isinstance(events, list)
    state = {
        key: None if (key == MAP and kept_map) or (key == EVENTS and kept_events) else value
        for key, value in data.items()
    }
    return KeptFile(
        state=state,
        hexmap=hexmap if isinstance(hexmap, dict) else None,
        events=events if isinstance(events, list) else [],
    )


def put_together(state: Json, hexmap: Json | None, events: list[Any]) -> Json:
    """The whole file again, its keys in the order they were stored in."""
    return {
        key: hexmap
        if key == MAP and value is None and hexmap is not None
        else events
        if key == EVENTS and value is None
        else value
        for key, value in state.items()
    }


def shared_events(older: list[Any], newer: list[Any]) -> int:
    """How many first events two snapshots have in common (all the older one's, after an
    advance; fewer after an undo or a correction)."""
    shared = 0
    for before, after in zip(older, newer, strict=False):
        if before != after:
            break
        shared += 1
    return shared


def events_from(rows: Iterable[tuple[int | None, list[Any]]]) -> list[Any]:
    """A snapshot's events from its `(events_shared, own_events)` and those of the
    snapshots after it, oldest first, as far as one that holds its events whole."""
    chain: list[tuple[int, list[Any]]] = []
    for shared, own in rows:
        if shared is None:
            events = list(own)
            break
        chain.append((shared, own))
    else:
        raise ValueError("No snapshot after this one holds its events whole.")
    for shared, own in reversed(chain):
        events = events[:shared] + own
    return events
