"""Summer phase D: Reform (rulings R1 to R3)."""

from dataclasses import replace

from campaign.rules import optional
from campaign.rules.hexmap import Hex, Terrain
from campaign.rules.orders import army_count, claim_unexplored, take_control
from campaign.rules.players import order_by_count
from campaign.rules.state import HORDE, Campaign, Season, Settlement, Step
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType


def reform(campaign: Campaign, turn: Turn) -> Campaign:
    """Terrain (R1), failed razes made good, conquering heroes (R2), then the new player
    order (R3); Defend markers end with the month."""
    campaign = _terrain(campaign, turn)
    campaign = _conquering_heroes(campaign, turn)
    counts = {k: army_count(campaign, k) for k in campaign.player_order}
    order = order_by_count(counts, campaign.player_order, turn)
    turn.record(EventType.PLAYER_ORDER, order=order, armies=counts)
    armies = {
        army_id: replace(army, defending=False, moved=None)
        for army_id, army in campaign.armies.items()
    }
    horde = {army_id: replace(army, moved=None) for army_id, army in campaign.horde.items()}
    campaign = replace(campaign, armies=armies, horde=horde, player_order=tuple(order))
    if campaign.clock.month < campaign.options.months:
        return campaign.at(Step.ORDERS, month=campaign.clock.month + 1)
    return campaign.at(Step.RECALL, month=0, season=Season.WINTER)


def _terrain(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling R1: an army that moved lies down if its start or end tile is mountains or
    forest, or its end tile has a river or lake without a bridge; not if either tile holds a
    city. Armies aboard ships never lie down for terrain. The horde's armies alike (OW1)."""
    carried = {ship.carrying for ship in campaign.ships.values()}
    for army in [*campaign.armies.values(), *campaign.horde.values()]:
        if army.moved is None or army.id in carried or not army.upright:
            continue
        if _slowed(campaign, *army.moved):
            turn.record(
                EventType.SLOWED_BY_TERRAIN,
                unit=army.id,
                **{"from": list(army.moved[0])},
                to=list(army.moved[1]),
            )
            campaign = campaign.with_army(replace(army, upright=False))
    return campaign


def _slowed(campaign: Campaign, start: Hex, end: Hex) -> bool:
    if Settlement.CITY in (campaign.settlement(start), campaign.settlement(end)):
        return False
    if optional.terrain_spared(campaign, start, end):  # the optional rules' march (OW11)
        return False
    tiles = campaign.map.tiles
    rough = {Terrain.MOUNTAINS, Terrain.FOREST}
    if tiles[start].terrain in rough or tiles[end].terrain in rough:
        return True
    wet = tiles[end].river or tiles[end].terrain is Terrain.LAKE
    return wet and not tiles[end].bridge


def _conquering_heroes(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling R2: every tile (not open water) holding units of exactly one kingdom becomes
    that kingdom's. The horde counts as a kingdom here but takes nothing (OW1); a tile
    left unexplored where it stood becomes the kingdom's with no settlement and no dice
    (part B's settled points)."""
    held: dict[Hex, set[str]] = {}
    for unit in campaign.units():
        held.setdefault(unit.hex, set()).add(unit.kingdom)
    for hex_, kingdoms in sorted(held.items()):
        if len(kingdoms) != 1 or HORDE in kingdoms:
            continue
        if hex_ in campaign.tiles:
            campaign = take_control(campaign, hex_, next(iter(kingdoms)), turn)
        elif campaign.map.army_may_enter(hex_):
            campaign = claim_unexplored(campaign, hex_, next(iter(kingdoms)), turn)
    return campaign
