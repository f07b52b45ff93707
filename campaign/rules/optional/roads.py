"""Option `roads` (campaign-options.md, OW9 to OW11): roads bought in winter between two
adjacent tiles of the kingdom's (1 gold each; they belong to nobody, last forever, serve
everyone and are public); trade at the gather step, a gold per city and a gold per two
villages joined to the capital by roads whose every tile the kingdom controls (fortresses
bring none); and marching: a unit that moved along a road never lies down for terrain from
that move. Field: `roads`, pairs of adjacent hexes, each pair and the list in [q, r] order
(OG3)."""

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from campaign.rules.errors import RuleError
from campaign.rules.filevalues import Json
from campaign.rules.hexmap import Hex, HexMap, distance
from campaign.rules.optional.rule import Entry, Gain, OptionalRule, OptionRow, PurchaseRule
from campaign.rules.state import Campaign, Purchase, PurchaseKind, Settlement
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

ROAD_GOLD = 1  # OW9
TRADE = "trade"  # the source of a gathering's trade gold (OW10)

type Road = tuple[Hex, Hex]


def road(a: Hex, b: Hex) -> Road:
    """A road as the state keeps it: its two hexes in [q, r] order."""
    return (a, b) if a < b else (b, a)


def _geometry(hexmap: HexMap, a: Hex, b: Hex) -> str | None:
    """Why no road can ever join `a` and `b` (not two adjacent map tiles armies may enter,
    or across a water edge), or None."""
    if not (hexmap.army_may_enter(a) and hexmap.army_may_enter(b)) or distance(a, b) != 1:
        return f"A road joins two adjacent tiles armies may enter: {list(a)} and {list(b)} are not."
    if hexmap.is_water_edge(a, b):
        return f"A road never crosses water: {list(a)} and {list(b)} are parted by it."
    return None


# --- building (OW9) ---------------------------------------------------------------------------


def _ends(purchase: Purchase) -> Road:
    """A road purchase's two tiles, as given (its reader requires both)."""
    assert purchase.hex is not None
    assert purchase.to is not None
    return purchase.hex, purchase.to


def _refusal(
    campaign: Campaign, kingdom_id: str, purchase: Purchase, made: list[tuple[str, Purchase]]
) -> str | None:
    """OW9 at the purchase's moment (W5): both tiles the kingdom's, no road there yet, a
    gold to pay."""
    a, b = _ends(purchase)
    if campaign.owner(a) != kingdom_id or campaign.owner(b) != kingdom_id:
        return f"{kingdom_id} does not control both {list(a)} and {list(b)}."
    if road(a, b) in campaign.roads:
        return f"A road joins {list(a)} and {list(b)} already."
    if campaign.kingdom(kingdom_id).gold < ROAD_GOLD:
        return f"{kingdom_id} has not the gold for a road."
    return None


def _build(campaign: Campaign, kingdom_id: str, purchase: Purchase, turn: Turn) -> Campaign:
    a, b = _ends(purchase)
    kingdom = campaign.kingdom(kingdom_id)
    turn.record(EventType.ROAD_BUILT, kingdom=kingdom_id, hex=list(a), to=list(b))
    campaign = campaign.with_kingdom(replace(kingdom, gold=kingdom.gold - ROAD_GOLD))
    return replace(campaign, roads=campaign.roads | {road(a, b)})


def _read_purchase(json: Json, fields: Mapping[str, Json]) -> Purchase:
    """`{"build": "road", "hex": a, "to": b}`; its geometry is checked with the map's
    (`_purchases_checked`)."""
    if "build" not in fields or fields["build"].as_str() != PurchaseKind.ROAD:
        json.refuse("bad-purchase", 'A purchase with \'to\' builds a road: {"build": "road"}.')
    if "ally" in fields:
        json.refuse("bad-purchase", "A road names its two tiles only.")
    if "hex" not in fields:
        json.child("hex").refuse("missing-field", "A road needs 'hex' and 'to'.")
    return Purchase(PurchaseKind.ROAD, hex=fields["hex"].as_hex(), to=fields["to"].as_hex())


def _purchase_written(purchase: Purchase) -> dict[str, object]:
    ends = [None if h is None else list(h) for h in (purchase.hex, purchase.to)]
    return {"build": str(PurchaseKind.ROAD), "hex": ends[0], "to": ends[1]}


# --- trade (OW10) -----------------------------------------------------------------------------


def road_linked(campaign: Campaign, kingdom_id: str) -> frozenset[Hex]:
    """The tiles joined to the kingdom's capital by a chain of roads whose every tile it
    controls (none without a capital). Marauders and other kingdoms' units break nothing:
    only control counts."""
    capital = campaign.kingdom(kingdom_id).capital
    if capital is None or campaign.owner(capital) != kingdom_id:
        return frozenset()
    along: dict[Hex, list[Hex]] = {}
    for a, b in campaign.roads:
        if campaign.owner(a) == kingdom_id and campaign.owner(b) == kingdom_id:
            along.setdefault(a, []).append(b)
            along.setdefault(b, []).append(a)
    reached, frontier = {capital}, [capital]
    while frontier:
        for n in along.get(frontier.pop(), ()):
            if n not in reached:
                reached.add(n)
                frontier.append(n)
    return frozenset(reached)


def trade(campaign: Campaign, kingdom_id: str) -> Gain:
    """OW10: a gold per road-linked city (not the capital), a gold per two road-linked
    villages, rounded down; with the cities and villages that bring it."""
    linked = road_linked(campaign, kingdom_id)
    capital = campaign.kingdom(kingdom_id).capital
    cities = sorted(h for h in linked if h != capital and campaign.settlement(h) is Settlement.CITY)
    villages = sorted(h for h in linked if campaign.settlement(h) is Settlement.VILLAGE)
    gold = len(cities) + len(villages) // 2
    return Gain(TRADE, gold=gold, tiles=tuple(sorted(cities + villages)) if gold else ())


def _gains(campaign: Campaign, kingdom_id: str, turn: Turn) -> Sequence[Gain]:
    traded = trade(campaign, kingdom_id)
    return (traded,) if traded.gold else ()


# --- marching (OW11) --------------------------------------------------------------------------


def _spared(campaign: Campaign, start: Hex, end: Hex) -> bool:
    """A unit that moved along a road never lies down for terrain from that move."""
    return road(start, end) in campaign.roads


# --- the campaign file: `roads` ---------------------------------------------------------------


def _read_top(top: Mapping[str, Json]) -> Mapping[str, object]:
    """Input `roads` may list its pairs in any order, each either way round; checked with
    the map's geometry (`_roads_checked`). Absent: none (OG1)."""
    if "roads" not in top:
        return {"roads": frozenset()}
    given: list[Road] = []
    for item in top["roads"].as_list():
        ends = item.as_list()
        if len(ends) != 2:
            item.refuse("bad-road", "A road is two hexes: [[q, r], [q, r]].")
        pair = road(ends[0].as_hex(), ends[1].as_hex())
        if pair in given:
            item.refuse("road-twice", f"The road {[list(h) for h in pair]} is listed twice.")
        given.append(pair)
    return {"roads": frozenset(given)}


def _written_top(campaign: Campaign) -> Mapping[str, object]:
    return {"roads": [[list(a), list(b)] for a, b in sorted(campaign.roads)]}


def _roads_checked(campaign: Campaign) -> None:
    """Each road joins two adjacent map tiles armies may enter, never across water (named
    as the file lists them, sorted)."""
    for i, (a, b) in enumerate(sorted(campaign.roads)):
        problem = _geometry(campaign.map, a, b)
        if problem is not None:
            raise RuleError("bad-road", f"roads[{i}]", problem)


def _purchases_checked(campaign: Campaign) -> None:
    """A road purchase whose tiles can never be joined is refused with the file, naming
    it (part B's settled points); one not possible at its moment is skipped (W5)."""
    for kingdom_id, purchases in campaign.inputs.purchases.items():
        for i, purchase in enumerate(purchases):
            if purchase.kind is not PurchaseKind.ROAD:
                continue
            problem = _geometry(campaign.map, *_ends(purchase))
            if problem is not None:
                raise RuleError("bad-road", f"inputs.purchases.{kingdom_id}[{i}]", problem)


def _checked(campaign: Campaign) -> None:
    _roads_checked(campaign)
    _purchases_checked(campaign)


# --- the bots ---------------------------------------------------------------------------------


def _bot_roads(campaign: Campaign, kingdom_id: str, rng: random.Random) -> list[dict[str, Any]]:
    """Half the time, a road from a tile of the kingdom's joined to its capital by roads to
    a tile of its next to it, where none is yet."""
    if rng.random() < 0.5:
        return []
    linked = sorted(road_linked(campaign, kingdom_id))
    choices = [
        (a, b)
        for a in linked
        for b in campaign.map.neighbours(a)
        if campaign.owner(b) == kingdom_id
        and road(a, b) not in campaign.roads
        and _geometry(campaign.map, a, b) is None
    ]
    if not choices:
        return []
    a, b = rng.choice(choices)
    return [{"build": str(PurchaseKind.ROAD), "hex": list(a), "to": list(b)}]


ROAD_ENTRY = Entry("to", _read_purchase, _purchase_written, rides_on="build")

RULE = OptionalRule(
    row=OptionRow(
        "roads",
        "Roads and trade",
        "Roads bought in winter carry trade gold to the capital and spare marching armies "
        "the terrain (options OW9 to OW11).",
        default=False,
        switch=True,
        offered=True,
    ),
    fields={"": ("roads",), "inputs.purchases[]": ("to",)},
    read={"": _read_top},
    write={"": _written_top},
    checks={"units": _checked},
    purchases={PurchaseKind.ROAD: PurchaseRule(_refusal, _build, ROAD_ENTRY)},
    gains=_gains,
    terrain_spared=_spared,
    bot_purchases=_bot_roads,
)
