"""Builders for the rules casebook: small campaign files written by hand.

A case states a position as a campaign file (format 1), adds the decisions to `inputs`,
runs the engine through its public entry point, and asserts on the file it returns:

    before = position(
        armies=[army("red-1", (0, 0))],
        tiles=[tile((0, 0), "red", "city")],
        inputs={"orders": {"red": [move("red-1", (1, 0))]}},
        dice=[4, 4],
    )
    after = adjudicate(before)
    assert unit(after, "red-1")["hex"] == [1, 0]
"""

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import pytest

from campaign.rules.engine import advance
from campaign.rules.errors import RuleError

type Hex = tuple[int, int]
type Json = dict[str, Any]

NEIGHBOURS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hexagon(radius: int, centre: Hex = (0, 0)) -> list[Hex]:
    """Every hex within `radius` of `centre`."""
    q0, r0 = centre
    return [
        (q0 + q, r0 + r)
        for q in range(-radius, radius + 1)
        for r in range(max(-radius, -q - radius), min(radius, -q + radius) + 1)
    ]


def make_map(
    radius: int = 3,
    *,
    terrain: Mapping[Hex, str] | None = None,
    river: Iterable[Hex] = (),
    coast: Iterable[Hex] = (),
    bridge: Iterable[Hex] = (),
    start: Iterable[Hex] = (),
    water_edges: Iterable[tuple[Hex, Hex]] = (),
    hexes: Iterable[Hex] | None = None,
) -> Json:
    """A map of plains (a hexagon of `radius` unless `hexes` are given), with exceptions."""
    terrain = terrain or {}
    flags = {"river": set(river), "coast": set(coast), "bridge": set(bridge), "start": set(start)}
    tiles = [
        {
            "hex": list(h),
            "terrain": terrain.get(h, "plains"),
            **{f: h in s for f, s in flags.items()},
        }
        for h in sorted(hexes if hexes is not None else hexagon(radius))
    ]
    return {"tiles": tiles, "water_edges": [[list(a), list(b)] for a, b in water_edges]}


def kingdom_of(unit_id: str) -> str:
    return unit_id.rsplit("-", 1)[0]


def army(unit_id: str, hex_: Hex, *, upright: bool = True, **extra: Any) -> Json:
    return {
        "id": unit_id,
        "kingdom": kingdom_of(unit_id),
        "hex": list(hex_),
        "upright": upright,
        **extra,
    }


def ship(unit_id: str, hex_: Hex, *, upright: bool = True, carrying: str | None = None) -> Json:
    return {
        "id": unit_id,
        "kingdom": kingdom_of(unit_id),
        "hex": list(hex_),
        "upright": upright,
        "carrying": carrying,
    }


def tile(hex_: Hex, owner: str, settlement: str | None = None) -> Json:
    return {"hex": list(hex_), "owner": owner, "settlement": settlement}


def move(unit_id: str, to: Hex, *, carry: str | None = None) -> Json:
    order: Json = {"unit": unit_id, "order": "move", "to": list(to)}
    if carry is not None:
        order["carry"] = carry
    return order


def order(unit_id: str, kind: str, *, carry: str | None = None) -> Json:
    given: Json = {"unit": unit_id, "order": kind}
    if carry is not None:
        given["carry"] = carry
    return given


def position(
    *,
    map: Json | None = None,
    kingdoms: Sequence[str] = ("red", "blue"),
    player_order: Sequence[str] | None = None,
    clock: tuple[int, str, int, str] = (1, "summer", 1, "orders"),
    tiles: Sequence[Json] = (),
    armies: Sequence[Json] = (),
    ships: Sequence[Json] = (),
    inputs: Json | None = None,
    dice: Sequence[int] | None = None,
    options: Json | None = None,
    capitals: Mapping[str, Hex] | None = None,
    kingdom_fields: Mapping[str, Json] | None = None,
    **extra: Any,
) -> Json:
    """A campaign file at the given step (default: year 1, summer month 1, orders)."""
    capitals = capitals or {}
    kingdom_fields = kingdom_fields or {}
    year, season, month, step = clock
    data: Json = {
        "format": 1,
        "name": "Casebook",
        "options": {
            "years": 6,
            "months": 6,
            "orders": "sealed",
            "battles": "tabletop",
            "seed": 1,
            **(options or {}),
        },
        "map": map if map is not None else make_map(),
        "clock": {"year": year, "season": season, "month": month, "step": step},
        "player_order": list(player_order if player_order is not None else kingdoms),
        "kingdoms": [
            {
                "id": k,
                "name": k.title(),
                "race": "Elves",
                "capital": list(capitals[k]) if k in capitals else None,
                **kingdom_fields.get(k, {}),
            }
            for k in kingdoms
        ],
        "tiles": list(tiles),
        "armies": list(armies),
        "ships": list(ships),
        "inputs": inputs or {},
        **extra,
    }
    if dice is not None:
        data["dice"] = list(dice)
    return data


def adjudicate(
    data: Json,
    *,
    defaults: bool = False,
    defaults_now: bool = False,
    due: list[tuple[str, str]] | None = None,
) -> Json:
    """The engine's answer: the advanced campaign file (`--defaults`, `--defaults-now`)."""
    return advance(data, defaults=defaults, defaults_now=defaults_now, due=due)


def refusal(data: Json, *, defaults: bool = False) -> RuleError:
    """The engine's refusal of a file or a decision."""
    with pytest.raises(RuleError) as refused:
        advance(data, defaults=defaults)
    return refused.value


def unit(data: Json, unit_id: str) -> Json | None:
    """An army or ship of the file, or None if it is gone."""
    found: Json | None = next(
        (item for item in (*data["armies"], *data["ships"]) if item["id"] == unit_id), None
    )
    return found


def tile_at(data: Json, hex_: Hex) -> Json | None:
    """The explored tile at a hex, or None if it is unexplored (or open water)."""
    return next((t for t in data["tiles"] if t["hex"] == list(hex_)), None)


def events(data: Json, type_: str) -> list[Json]:
    return [event for event in data["events"] if event["type"] == type_]


WHEN = ("year", "season", "month", "step", "dice")


def happened(data: Json, type_: str) -> list[Json]:
    """The events of a type, whole but for when they happened and their dice: what the
    report and the chronicle word (its unit, its hexes, its kingdom)."""
    return [{k: v for k, v in event.items() if k not in WHEN} for event in events(data, type_)]


def kingdom(data: Json, kingdom_id: str) -> Json:
    return next(k for k in data["kingdoms"] if k["id"] == kingdom_id)


def pending(data: Json, kind: str | None = None) -> list[Json]:
    return [p for p in data["pending"] if kind is None or p["kind"] == kind]


def battles(data: Json, hex_: Hex | None = None) -> list[Json]:
    return [b for b in data["battles"] if hex_ is None or b["hex"] == list(hex_)]
