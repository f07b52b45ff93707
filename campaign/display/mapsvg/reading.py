"""Reading the campaign file's values as the map draws them, never trusting their shape:
hexes, texts, the tiles by hex, the capitals."""

from collections.abc import Mapping
from typing import Any

from campaign.rules.hexmap import Hex


def as_hex(value: object) -> Hex | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        q, r = value
        if isinstance(q, int) and isinstance(r, int):
            return q, r
    return None


def as_text(value: object) -> str:
    return "" if value is None else str(value)


def by_hex(items: object) -> dict[Hex, Mapping[str, Any]]:
    found: dict[Hex, Mapping[str, Any]] = {}
    for item in items if isinstance(items, list) else []:
        where = as_hex(item.get("hex")) if isinstance(item, Mapping) else None
        if where is not None:
            found[where] = item
    return found


def capitals(data: Mapping[str, Any]) -> dict[Hex, str]:
    """Which kingdom has its capital on each hex."""
    found: dict[Hex, str] = {}
    for kingdom in data.get("kingdoms") or []:
        where = as_hex(kingdom.get("capital"))
        if where is not None:
            found[where] = as_text(kingdom.get("id"))
    return found
