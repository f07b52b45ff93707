"""The winter season: recall (rulings W1 to W3), gathering, tithes (W4), building and
recruiting (W5), feeding (W6) and deployment (W7); after the last year, the end."""

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

from campaign.rules import optional
from campaign.rules.combat import natural_key
from campaign.rules.dice import Dice
from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex, connected, distance
from campaign.rules.optional.rule import Gain
from campaign.rules.orders import army_count
from campaign.rules.players import order_by_count
from campaign.rules.state import (
    MAX_ARMIES,
    Allocation,
    Army,
    Campaign,
    Holding,
    Kingdom,
    PendingKind,
    Placement,
    Purchase,
    PurchaseKind,
    Season,
    Settlement,
    Ship,
    Step,
    Tithe,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

# Ruling W7: how many armies each settlement can take at deployment.
DEPLOYMENT_LIMIT = {Settlement.VILLAGE: 1, Settlement.CITY: 2, Settlement.FORTRESS: 3}
CAPITAL_LIMIT = 3


def _standing(campaign: Campaign) -> list[Kingdom]:
    return [campaign.kingdom(k) for k in campaign.player_order]


def _own(campaign: Campaign, kingdom_id: str, settlement: Settlement | None = None) -> list[Hex]:
    return sorted(
        h.hex
        for h in campaign.tiles.values()
        if h.owner == kingdom_id and (settlement is None or h.settlement is settlement)
    )


def _armies_of(campaign: Campaign, kingdom_id: str) -> list[Army]:
    armies = [a for a in campaign.armies.values() if a.kingdom == kingdom_id]
    return sorted(armies, key=lambda a: natural_key(a.id))


def home(campaign: Campaign, kingdom_id: str) -> Hex | None:
    """The capital; without one, the city (else the village) standing in for it (ruling
    W1): at recall, the one connected to the most of the kingdom's armies, then the first
    in [q, r] order; for the rest of the winter, the one they were recalled to (A16)."""
    capital = campaign.kingdom(kingdom_id).capital
    if capital is not None:
        return capital
    if campaign.clock.season is Season.WINTER and campaign.clock.step is not Step.RECALL:
        recalled = campaign.stand_in(kingdom_id)
        if recalled is not None:
            return recalled
    owned = set(_own(campaign, kingdom_id))
    armies = _armies_of(campaign, kingdom_id)
    for settlement in (Settlement.CITY, Settlement.VILLAGE):
        candidates = _own(campaign, kingdom_id, settlement)
        if candidates:

            def supported(h: Hex) -> int:
                reach = connected(h, owned, campaign.map)
                return sum(1 for army in armies if army.hex in reach)

            return min(candidates, key=lambda h: (-supported(h), h))
    return None


def _reach(campaign: Campaign, kingdom_id: str, base: Hex | None) -> frozenset[Hex]:
    """The tiles connected to the kingdom's capital (or the city standing in for it), M7."""
    if base is None:
        return frozenset()
    return connected(base, set(_own(campaign, kingdom_id)), campaign.map)


@dataclass(frozen=True, slots=True)
class Supply:
    """A kingdom's lines of supply (rulings M7, W1): its tiles connected to its capital
    (or to the city standing in for it), and those cut off."""

    base: Hex | None
    connected: frozenset[Hex]
    cut_off: frozenset[Hex]


def supply(campaign: Campaign, kingdom_id: str) -> Supply:
    base = home(campaign, kingdom_id)
    reach = _reach(campaign, kingdom_id, base)
    return Supply(base, reach, frozenset(_own(campaign, kingdom_id)) - reach)


# --- A) Recall ----------------------------------------------------------------------------


def recall(campaign: Campaign, turn: Turn) -> Campaign:
    """Armies connected to their capital go home; the rest are lost (W1). Ships return to a
    port (W2). A kingdom with no tile left is eliminated (W3)."""
    for kingdom in _standing(campaign):
        campaign = _recall_armies(campaign, kingdom.id, turn)
    campaign = _return_ships(campaign, turn)
    for kingdom in _standing(campaign):
        if not _own(campaign, kingdom.id):
            campaign = _eliminate(campaign, kingdom, turn)
    return campaign.at(Step.GATHER)


def _recall_armies(campaign: Campaign, kingdom_id: str, turn: Turn) -> Campaign:
    base = home(campaign, kingdom_id)
    reach = _reach(campaign, kingdom_id, base)
    for army in _armies_of(campaign, kingdom_id):
        carrier = campaign.carrier_of(army.id)
        if carrier is not None:
            campaign = campaign.with_ship(replace(carrier, carrying=None))
        if base is None or army.hex not in reach:
            turn.record(EventType.SUPPLY_LOST, army=army.id, kingdom=kingdom_id, hex=list(army.hex))
            campaign = campaign.without_unit(army.id)
            continue
        turn.record(
            EventType.RECALLED,
            army=army.id,
            kingdom=kingdom_id,
            **{"from": list(army.hex)},
            to=list(base),
        )
        campaign = campaign.with_army(_fresh(army, base))
    return campaign


def _fresh(army: Army, hex_: Hex) -> Army:
    return replace(army, hex=hex_, upright=True, defending=False, moved=None, retreat=None)


def _ports(campaign: Campaign, kingdom_id: str) -> list[Hex]:
    """The kingdom's coastal or river cities (a capital is a city)."""
    return [
        h
        for h in _own(campaign, kingdom_id, Settlement.CITY)
        if campaign.map.tiles[h].coast or campaign.map.tiles[h].river
    ]


def _docked(campaign: Campaign, hex_: Hex) -> bool:
    return any(s.hex == hex_ for s in campaign.ships.values())


def _return_ships(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling W2: every ship is picked up and returned to a port of its kingdom where no
    ship has docked yet (the nearest, then [q, r] order); a ship with no such port is
    lost. A ship still standing in a port blocks nobody. The ships nearest a port of their
    kingdom come home first, so a ship already in port keeps it (A15)."""
    ports = {k: _ports(campaign, k) for k in {s.kingdom for s in campaign.ships.values()}}

    def nearest(ship: Ship) -> int:
        return min((distance(ship.hex, h) for h in ports[ship.kingdom]), default=0)

    docked: set[Hex] = set()
    for ship in sorted(campaign.ships.values(), key=lambda s: (nearest(s), natural_key(s.id))):
        free = [h for h in ports[ship.kingdom] if h not in docked]
        if not free:
            turn.record(EventType.SHIP_LOST, ship=ship.id, kingdom=ship.kingdom, hex=list(ship.hex))
            campaign = campaign.without_unit(ship.id)
            continue
        port = min(free, key=lambda h: (distance(ship.hex, h), h))
        docked.add(port)
        turn.record(EventType.SHIP_DOCKED, ship=ship.id, kingdom=ship.kingdom, hex=list(port))
        fresh = replace(ship, hex=port, upright=True, carrying=None, retreat=None)
        campaign = campaign.with_ship(fresh)
    return campaign


def _eliminate(campaign: Campaign, kingdom: Kingdom, turn: Turn) -> Campaign:
    """Ruling W3: its remaining units are removed; the year is kept for the tiebreak."""
    turn.record(EventType.ELIMINATED, kingdom=kingdom.id, year=campaign.clock.year)
    for unit in campaign.units():
        if unit.kingdom == kingdom.id:
            campaign = campaign.without_unit(unit.id)
    campaign = campaign.with_kingdom(replace(kingdom, eliminated=campaign.clock.year, capital=None))
    order = tuple(k for k in campaign.player_order if k != kingdom.id)
    return replace(campaign, player_order=order)


# --- B) Gather resources ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Harvest:
    """What one tile yields in the gather phase."""

    hex: Hex
    gold: int
    food: int


def harvest(campaign: Campaign, kingdom_id: str) -> list[Harvest]:
    """Tile by tile: 1 food per village, 1 gold per city, and 1 more gold for the capital."""
    capital = campaign.kingdom(kingdom_id).capital
    cities = _own(campaign, kingdom_id, Settlement.CITY)
    found = [Harvest(h, 0, 1) for h in _own(campaign, kingdom_id, Settlement.VILLAGE)]
    found += [Harvest(h, 1 + (h == capital), 0) for h in cities]
    if capital is not None and capital not in cities:
        found.append(Harvest(capital, 1, 0))
    return sorted(found, key=lambda y: y.hex)


def gather(campaign: Campaign, turn: Turn) -> Campaign:
    """Every standing kingdom gathers its harvest, with what the optional rules add and
    take (OG7's gather, after what they do as it begins); the event tells it tile by tile,
    then gain by gain."""
    campaign = optional.gather_begins(campaign, turn, _linked)
    for kingdom in _standing(campaign):
        yields = harvest(campaign, kingdom.id)
        gold, food, gains = optional.gathered(
            campaign, kingdom.id, sum(y.gold for y in yields), sum(y.food for y in yields), turn
        )
        tiles = [{"hex": list(y.hex), "gold": y.gold, "food": y.food} for y in yields]
        told = {"gains": [_gain_told(g) for g in gains]} if gains else {}
        turn.record(
            EventType.GATHERED, kingdom=kingdom.id, gold=gold, food=food, tiles=tiles, **told
        )
        campaign = campaign.with_kingdom(
            replace(kingdom, gold=kingdom.gold + gold, food=kingdom.food + food)
        )
    return campaign.at(optional.step_after(campaign, Step.GATHER) or Step.TITHE)


def _gain_told(gain: Gain) -> dict[str, object]:
    told: dict[str, object] = {"source": gain.source, "gold": gain.gold, "food": gain.food}
    if gain.tiles:
        told["tiles"] = [list(h) for h in gain.tiles]
    return told


def _linked(campaign: Campaign, kingdom_id: str) -> frozenset[Hex] | None:
    """The kingdom's tiles connected (M7) to its capital, else to the city or village its
    armies were recalled to this winter (W1's stand-in); None when it has neither."""
    capital = campaign.kingdom(kingdom_id).capital
    base = capital if capital is not None else campaign.stand_in(kingdom_id)
    return None if base is None else _reach(campaign, kingdom_id, base)


# --- C i) Tithe ---------------------------------------------------------------------------


def tithe(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling W4: each kingdom's gifts, applied round-robin in player order; a gift applies
    only as far as the giver holds it at that moment."""
    for kingdom_id, given in campaign.inputs.tithes.items():  # judged as soon as given
        _check_tithes(campaign, kingdom_id, given)
    gifts = _decisions(campaign, turn, PendingKind.TITHES, campaign.inputs.tithes)
    if gifts is None:
        return campaign
    for kingdom_id, gift in _round_robin(campaign.player_order, gifts):
        campaign = _give(campaign, kingdom_id, gift, turn)
    return replace(campaign, inputs=replace(campaign.inputs, tithes={})).at(Step.BUILD)


def _decisions[T](
    campaign: Campaign, turn: Turn, kind: PendingKind, given: Mapping[str, tuple[T, ...]]
) -> dict[str, tuple[T, ...]] | None:
    """Every standing kingdom's list (missing ones empty with defaults), or None after
    asking for the missing ones."""
    missing = [k for k in campaign.player_order if k not in given]
    asked = [k for k in missing if not turn.takes_default(kind, k)]
    if asked:
        for kingdom_id in asked:
            turn.wait(kind, kingdom_id)
        return None
    return {k: tuple(given.get(k, ())) for k in campaign.player_order}


def _round_robin[T](
    order: Sequence[str], lists: dict[str, tuple[T, ...]]
) -> Iterable[tuple[str, T]]:
    """One item of each kingdom's list in turn, round and round, until all are used."""
    queues = {k: list(lists.get(k, ())) for k in order}
    while any(queues.values()):
        for kingdom_id in order:
            if queues[kingdom_id]:
                yield kingdom_id, queues[kingdom_id].pop(0)


def _check_tithes(campaign: Campaign, kingdom_id: str, gifts: Sequence[Tithe]) -> None:
    seen: set[str] = set()
    for index, gift in enumerate(gifts):
        where = f"inputs.tithes.{kingdom_id}[{index}].to"
        if gift.to == kingdom_id:
            raise RuleError("tithe-to-self", where, "A kingdom can't tithe to itself.")
        if gift.to not in campaign.player_order:
            raise RuleError(
                "tithe-to-nobody", where, f"{gift.to!r} is not a kingdom still in the game."
            )
        if gift.to in seen:
            raise RuleError(
                "tithe-twice", where, f"{kingdom_id} may tithe to {gift.to} only once each winter."
            )
        seen.add(gift.to)


def _give(campaign: Campaign, kingdom_id: str, gift: Tithe, turn: Turn) -> Campaign:
    giver, receiver = campaign.kingdom(kingdom_id), campaign.kingdom(gift.to)
    gold, food = min(gift.gold, giver.gold), min(gift.food, giver.food)
    turn.record(
        EventType.TITHE,
        kingdom=kingdom_id,
        to=gift.to,
        gold=gold,
        food=food,
        asked={"gold": gift.gold, "food": gift.food},
    )
    campaign = campaign.with_kingdom(replace(giver, gold=giver.gold - gold, food=giver.food - food))
    return campaign.with_kingdom(
        replace(receiver, gold=receiver.gold + gold, food=receiver.food + food)
    )


# --- C ii) Build and recruit ------------------------------------------------------------------


def build(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling W5: purchases applied round-robin in player order, one at a time; one that
    is not possible at its moment is skipped, with the reason."""
    purchases = _decisions(campaign, turn, PendingKind.PURCHASES, campaign.inputs.purchases)
    if purchases is None:
        return campaign
    made: list[tuple[str, Purchase]] = []  # this winter's purchases so far
    for kingdom_id, purchase in _round_robin(campaign.player_order, purchases):
        problem = _why_not(campaign, kingdom_id, purchase, made)
        if problem is not None:
            turn.record(
                EventType.PURCHASE_SKIPPED,
                kingdom=kingdom_id,
                purchase=_describe(purchase),
                reason=problem,
            )
            continue
        campaign = _buy(campaign, kingdom_id, purchase, turn)
        made.append((kingdom_id, purchase))
    return replace(campaign, inputs=replace(campaign.inputs, purchases={})).at(Step.FEED)


def _describe(purchase: Purchase) -> dict[str, object]:
    described: dict[str, object] = {"kind": str(purchase.kind)}
    if purchase.hex is not None:
        described["hex"] = list(purchase.hex)
    if purchase.army is not None:
        described["army"] = purchase.army
    if purchase.ally is not None:
        described["ally"] = purchase.ally
    if purchase.hero is not None:
        described |= {"hero": purchase.hero, "points": purchase.points}
    if purchase.to is not None:
        described["to"] = list(purchase.to)
    return described


# What each build needs: the settlement it upgrades, and its price in gold and food.
BUILDS: dict[PurchaseKind, tuple[Settlement | None, int, int]] = {
    PurchaseKind.VILLAGE: (None, 1, 0),
    PurchaseKind.CITY: (Settlement.VILLAGE, 1, 1),
    PurchaseKind.FORTRESS: (Settlement.VILLAGE, 2, 0),
    PurchaseKind.CAPITAL: (Settlement.CITY, 0, 0),
    PurchaseKind.SHIP: (Settlement.CITY, 1, 0),
    PurchaseKind.ARMY: (Settlement.FORTRESS, 1, 0),
}


def _why_not(
    campaign: Campaign, kingdom_id: str, purchase: Purchase, made: list[tuple[str, Purchase]]
) -> str | None:
    """None if the purchase can be made now (`made`: this winter's so far), else the reason
    it can't, in a sentence."""
    kingdom = campaign.kingdom(kingdom_id)
    added = optional.purchase_rule(campaign, purchase.kind)
    if added is not None:
        return added.refusal(campaign, kingdom_id, purchase, made)
    if purchase.kind is PurchaseKind.DISBAND:
        army = campaign.armies.get(purchase.army or "")
        return (
            None
            if army is not None and army.kingdom == kingdom_id
            else f"{purchase.army} is not an army of {kingdom_id}."
        )
    assert purchase.hex is not None
    holding = campaign.tiles.get(purchase.hex)
    if holding is None or holding.owner != kingdom_id:
        return f"{list(purchase.hex)} is not a tile {kingdom_id} controls."
    needs = BUILDS[purchase.kind][0]
    gold, food = cost(campaign, kingdom_id, purchase.kind)
    if holding.settlement is not needs and not _raised_elsewhere(
        campaign, kingdom_id, purchase, made
    ):
        where = "an empty tile" if needs is None else f"a {needs}"
        what = (
            "An army is raised in"
            if purchase.kind is PurchaseKind.ARMY
            else f"A {purchase.kind} is built on"
        )
        return f"{what} {where}, and {list(purchase.hex)} holds {holding.settlement or 'nothing'}."
    if kingdom.gold < gold or kingdom.food < food:
        return f"It costs {gold} gold and {food} food; {kingdom_id} has {kingdom.gold} gold and {kingdom.food} food."
    check = _SPECIAL_CHECKS.get(purchase.kind)
    return check(campaign, kingdom, purchase, made) if check else None


def cost(campaign: Campaign, kingdom_id: str, kind: PurchaseKind) -> tuple[int, int]:
    """What a purchase of `kind` costs the kingdom, in gold and food (W5, as the optional
    rules change it: OB3's master masons)."""
    if kind is PurchaseKind.DISBAND:
        return 0, 0  # A17
    _, gold, food = BUILDS[kind]
    return optional.price(campaign, kingdom_id, kind, (gold, food))


def _raised_elsewhere(
    campaign: Campaign, kingdom_id: str, purchase: Purchase, made: list[tuple[str, Purchase]]
) -> bool:
    """An army raised where an optional rule allows, no fortress (OB3's war college)."""
    assert purchase.hex is not None
    return purchase.kind is PurchaseKind.ARMY and optional.recruits_at(
        campaign, kingdom_id, purchase.hex, made
    )


def _capital_check(
    campaign: Campaign, kingdom: Kingdom, purchase: Purchase, made: list[tuple[str, Purchase]]
) -> str | None:
    if kingdom.capital is not None:
        return f"{kingdom.id} already has a capital; only a kingdom without one names a new one."
    return None


def _ship_check(
    campaign: Campaign, kingdom: Kingdom, purchase: Purchase, made: list[tuple[str, Purchase]]
) -> str | None:
    assert purchase.hex is not None
    if purchase.hex not in _ports(campaign, kingdom.id):
        return f"{list(purchase.hex)} is not a city on the coast or a river."
    if _docked(campaign, purchase.hex):
        return f"A ship is already docked at {list(purchase.hex)}."
    return None


def _army_check(
    campaign: Campaign, kingdom: Kingdom, purchase: Purchase, made: list[tuple[str, Purchase]]
) -> str | None:
    assert purchase.hex is not None
    armies = _armies_of(campaign, kingdom.id)
    if any(p.kind is PurchaseKind.ARMY and p.hex == purchase.hex for _, p in made):
        return f"The fortress at {list(purchase.hex)} has already raised an army this winter."
    if len(armies) >= MAX_ARMIES:
        return f"{kingdom.id} already has {MAX_ARMIES} armies: disband one to make room."
    if purchase.ally is not None:
        if any(a.ally for a in armies):
            return f"{kingdom.id} already has its one allied army."
        if sum(1 for a in armies if not a.ally) < 3:
            return "An allied army needs 3 or more other armies of the kingdom's own race."
    return None


_SPECIAL_CHECKS: dict[
    PurchaseKind, Callable[[Campaign, Kingdom, Purchase, list[tuple[str, Purchase]]], str | None]
] = {
    PurchaseKind.CAPITAL: _capital_check,
    PurchaseKind.SHIP: _ship_check,
    PurchaseKind.ARMY: _army_check,
}


def _buy(campaign: Campaign, kingdom_id: str, purchase: Purchase, turn: Turn) -> Campaign:
    kingdom = campaign.kingdom(kingdom_id)
    if purchase.kind is PurchaseKind.DISBAND:
        turn.record(EventType.DISBANDED, kingdom=kingdom_id, army=purchase.army)
        return campaign.without_unit(purchase.army or "")
    added = optional.purchase_rule(campaign, purchase.kind)
    if added is not None:
        return added.make(campaign, kingdom_id, purchase, turn)
    assert purchase.hex is not None
    gold, food = cost(campaign, kingdom_id, purchase.kind)
    kingdom = replace(kingdom, gold=kingdom.gold - gold, food=kingdom.food - food)
    if purchase.kind is PurchaseKind.ARMY:
        kingdom = replace(kingdom, armies_raised=kingdom.armies_raised + 1)
        raised = Army(
            f"{kingdom_id}-{kingdom.armies_raised}", kingdom_id, purchase.hex, ally=purchase.ally
        )
        army = optional.army_raised(campaign, raised, purchase.hex)  # OA1 at its fortress
        turn.record(
            EventType.RECRUITED,
            kingdom=kingdom_id,
            army=army.id,
            hex=list(purchase.hex),
            ally=purchase.ally,
        )
        return campaign.with_kingdom(kingdom).with_army(army)
    if purchase.kind is PurchaseKind.SHIP:
        kingdom = replace(kingdom, ships_built=kingdom.ships_built + 1)
        ship = Ship(f"{kingdom_id}-s{kingdom.ships_built}", kingdom_id, purchase.hex)
        turn.record(EventType.SHIP_BUILT, kingdom=kingdom_id, ship=ship.id, hex=list(purchase.hex))
        return campaign.with_kingdom(kingdom).with_ship(ship)
    if purchase.kind is PurchaseKind.CAPITAL:
        turn.record(EventType.CAPITAL_NAMED, kingdom=kingdom_id, hex=list(purchase.hex))
        return campaign.with_kingdom(replace(kingdom, capital=purchase.hex))
    settlement = Settlement(str(purchase.kind))
    turn.record(
        EventType.BUILT, kingdom=kingdom_id, settlement=str(settlement), hex=list(purchase.hex)
    )
    campaign = campaign.with_kingdom(kingdom).with_holding(
        Holding(purchase.hex, kingdom_id, settlement)
    )
    return optional.settlement_built(campaign, kingdom_id, purchase.hex, turn)


# --- C iii) Feed -------------------------------------------------------------------------


def feed(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling W6: each army eats 1 food; a kingdom short of food picks which armies go
    (default: the most recently raised first). Then unspent gold and food are lost."""
    short = {
        k.id: len(_armies_of(campaign, k.id)) - k.food
        for k in _standing(campaign)
        if len(_armies_of(campaign, k.id)) > k.food
    }
    for kingdom_id, chosen in campaign.inputs.feed.items():  # judged as soon as given
        _check_hungry(campaign, kingdom_id, chosen)
    missing = [k for k in short if k not in campaign.inputs.feed]
    asked = [k for k in missing if not turn.takes_default(PendingKind.FEED, k)]
    if asked:
        for kingdom_id in asked:
            turn.wait(
                PendingKind.FEED,
                kingdom_id,
                armies=[a.id for a in _armies_of(campaign, kingdom_id)],
                short=short[kingdom_id],
            )
        return campaign
    for kingdom_id, count in short.items():
        campaign = _starve(
            campaign, kingdom_id, count, campaign.inputs.feed.get(kingdom_id, ()), turn
        )
    for kingdom in _standing(campaign):
        left = kingdom.food - len(_armies_of(campaign, kingdom.id))  # each army ate 1 food
        if kingdom.gold or left:
            turn.record(EventType.RESOURCES_LOST, kingdom=kingdom.id, gold=kingdom.gold, food=left)
        campaign = campaign.with_kingdom(replace(kingdom, gold=0, food=0))
    return replace(campaign, inputs=replace(campaign.inputs, feed={})).at(Step.DEPLOY)


def _check_hungry(campaign: Campaign, kingdom_id: str, chosen: Sequence[str]) -> None:
    own = {a.id for a in _armies_of(campaign, kingdom_id)}
    for index, army_id in enumerate(chosen):
        if army_id not in own or army_id in chosen[:index]:
            raise RuleError(
                "feed-not-your-army",
                f"inputs.feed.{kingdom_id}.disband[{index}]",
                f"{army_id} is not an army of {kingdom_id}.",
                army_id,
            )


def _starve(
    campaign: Campaign, kingdom_id: str, count: int, chosen: Sequence[str], turn: Turn
) -> Campaign:
    own = _armies_of(campaign, kingdom_id)
    newest_first = [a.id for a in reversed(own) if a.id not in chosen]
    going = [*chosen, *newest_first][:count]
    for army_id in going:
        turn.record(EventType.STARVED, kingdom=kingdom_id, army=army_id)
        campaign = campaign.without_unit(army_id)
    return campaign


# --- D) Deploy ---------------------------------------------------------------------------


def deploy(campaign: Campaign, turn: Turn) -> Campaign:
    """Ruling W7: every army goes to a settlement connected to the capital, within the
    limits; one with no room is lost. Armies raised in a fortress cut off from the
    capital stay there. Then the player order is set by armies, and a new year begins."""
    for kingdom_id, plan in campaign.inputs.deploy.items():  # judged as soon as given
        _placed(campaign, kingdom_id, plan)
        optional.deploy_given(campaign, kingdom_id, plan)
    plans: dict[str, tuple[Placement | Allocation, ...]] = {}
    for kingdom in _standing(campaign):
        staging = _staging(campaign, kingdom.id)
        given = campaign.inputs.deploy.get(kingdom.id)
        if given is None and staging and not turn.takes_default(PendingKind.DEPLOY, kingdom.id):
            turn.wait(PendingKind.DEPLOY, kingdom.id, armies=[a.id for a in staging])
        plans[kingdom.id] = given or ()
    if turn.pending:
        return campaign
    # The rulebook redetermines the player order when the armies are taken up, before
    # they are placed (so an army later lost for want of room still counts).
    counts = {k: army_count(campaign, k) for k in campaign.player_order}
    order = order_by_count(counts, campaign.player_order, turn)
    turn.record(EventType.PLAYER_ORDER, order=order, armies=counts)
    for kingdom_id in order:
        campaign = _deploy_kingdom(campaign, kingdom_id, plans[kingdom_id], turn)
    for kingdom_id in order:  # the optional rules' placing (OA9), once every army stands
        campaign = optional.deployed(campaign, kingdom_id, plans[kingdom_id])
    campaign = replace(
        campaign, player_order=tuple(order), inputs=replace(campaign.inputs, deploy={})
    )
    if campaign.clock.year >= campaign.options.years:
        turn.record(EventType.CAMPAIGN_ENDED, year=campaign.clock.year)
        return replace(
            campaign, clock=replace(campaign.clock, season=Season.ENDED, month=0, step=Step.FINAL)
        )
    clock = replace(
        campaign.clock,
        year=campaign.clock.year + 1,
        season=Season.SUMMER,
        month=1,
        step=Step.ORDERS,
    )
    return replace(campaign, clock=clock)


def _staging(campaign: Campaign, kingdom_id: str) -> list[Army]:
    """The armies to deploy: all but those raised in a fortress cut off from the capital."""
    reach = _reach(campaign, kingdom_id, home(campaign, kingdom_id))
    return [
        a
        for a in _armies_of(campaign, kingdom_id)
        if not (campaign.settlement(a.hex) is Settlement.FORTRESS and a.hex not in reach)
    ]


def _room(campaign: Campaign, kingdom_id: str, reach: frozenset[Hex]) -> dict[Hex, int]:
    """Free places at each settlement connected to the capital (W7 limits)."""
    capital = campaign.kingdom(kingdom_id).capital
    room: dict[Hex, int] = {}
    for hex_ in sorted(reach):
        settlement = campaign.settlement(hex_)
        if settlement is None:
            continue
        room[hex_] = CAPITAL_LIMIT if hex_ == capital else DEPLOYMENT_LIMIT[settlement]
    return room


def _default_order(
    campaign: Campaign, kingdom_id: str, base: Hex, room: dict[Hex, int]
) -> list[Hex]:
    """Capital, then fortresses, then cities, then villages; nearest to the capital first,
    [q, r] order on ties (ruling W7)."""
    rank = {Settlement.FORTRESS: 1, Settlement.CITY: 2, Settlement.VILLAGE: 3}
    capital = campaign.kingdom(kingdom_id).capital

    def key(h: Hex) -> tuple[int, int, Hex]:
        settlement = campaign.settlement(h)
        first = 0 if h == capital else rank[settlement] if settlement else 4
        return (first, distance(base, h), h)

    return sorted(room, key=key)


def _placed(
    campaign: Campaign, kingdom_id: str, plan: Sequence[Placement | Allocation]
) -> tuple[dict[str, Hex], dict[Hex, int]]:
    """Where the plan puts each army, and the room left at each settlement: refused if it
    places an army that is not waiting, or twice, or where there is no room (W7)."""
    staged = {a.id for a in _staging(campaign, kingdom_id)}
    room = _room(campaign, kingdom_id, _reach(campaign, kingdom_id, home(campaign, kingdom_id)))
    placed: dict[str, Hex] = {}
    for index, placement in enumerate(plan):
        if not isinstance(placement, Placement):
            continue  # an artefact's entry (OA9)
        where = f"inputs.deploy.{kingdom_id}[{index}]"
        if placement.army not in staged or placement.army in placed:
            raise RuleError(
                "deploy-not-your-army",
                f"{where}.army",
                f"{placement.army} is not an army of {kingdom_id} waiting to deploy.",
                placement.army,
            )
        if placement.hex not in room:
            raise RuleError(
                "deploy-not-connected",
                f"{where}.hex",
                f"{list(placement.hex)} is not a settlement of {kingdom_id} connected to its capital.",
                placement.army,
            )
        if room[placement.hex] == 0:
            raise RuleError(
                "deploy-no-room",
                f"{where}.hex",
                f"{list(placement.hex)} has no room left for {placement.army} (ruling W7 limits).",
                placement.army,
            )
        room[placement.hex] -= 1
        placed[placement.army] = placement.hex
    return placed, room


def _deploy_kingdom(
    campaign: Campaign, kingdom_id: str, plan: Sequence[Placement | Allocation], turn: Turn
) -> Campaign:
    staging = _staging(campaign, kingdom_id)
    base = home(campaign, kingdom_id)
    placed, room = _placed(campaign, kingdom_id, plan)
    for army in staging:
        if army.id not in placed:
            spot = (
                next(
                    (h for h in _default_order(campaign, kingdom_id, base, room) if room[h] > 0),
                    None,
                )
                if base
                else None
            )
            if spot is None:
                turn.record(EventType.NO_ROOM, kingdom=kingdom_id, army=army.id)
                campaign = campaign.without_unit(army.id)
                continue
            room[spot] -= 1
            placed[army.id] = spot
        turn.record(EventType.DEPLOYED, kingdom=kingdom_id, army=army.id, hex=list(placed[army.id]))
        campaign = campaign.with_army(_fresh(army, placed[army.id]))
    return campaign


# --- Choices, for a player planning a winter ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class PurchaseChoice:
    """A purchase a kingdom could add to its list, its price in gold and food, and why it
    could not be made then (None: it could)."""

    purchase: Purchase
    reason: str | None
    gold: int
    food: int


def purchase_choices(
    campaign: Campaign, kingdom_id: str, planned: Sequence[Purchase]
) -> list[PurchaseChoice]:
    """Ruling W5, for a player writing its list: the purchases it could add after the
    planned ones, judged by the same checks as the build step, as if the other kingdoms
    bought nothing. The candidates are what fits each tile it controls (a village on an
    empty tile, a city or fortress on a village, a new capital or a ship at a city, an
    army and the allied army at a fortress) and disbanding each of its armies."""
    turn = Turn(defaults=True, dice=Dice(0, 0, ()), clock=campaign.clock)
    made: list[tuple[str, Purchase]] = []
    for purchase in planned:
        if _why_not(campaign, kingdom_id, purchase, made) is None:
            if purchase.kind is not PurchaseKind.QUEST:  # a quest's dice are the step's own
                campaign = _buy(campaign, kingdom_id, purchase, turn)
            made.append((kingdom_id, purchase))
    candidates: list[Purchase] = []
    for hex_ in _own(campaign, kingdom_id):
        settlement = campaign.settlement(hex_)
        for kind, (needs, _, _) in BUILDS.items():
            if needs is settlement:
                candidates.append(Purchase(kind, hex_))
                if kind is PurchaseKind.ARMY:
                    candidates.append(Purchase(kind, hex_, ally="allied"))
    candidates += [
        Purchase(PurchaseKind.DISBAND, army=a.id) for a in _armies_of(campaign, kingdom_id)
    ]
    return [
        PurchaseChoice(
            p, _why_not(campaign, kingdom_id, p, made), *cost(campaign, kingdom_id, p.kind)
        )
        for p in candidates
    ]


@dataclass(frozen=True, slots=True)
class DeployChoices:
    """Ruling W7, for a player placing its armies: those still to place, and the room
    left at each settlement connected to its capital."""

    armies: tuple[str, ...]
    room: Mapping[Hex, int]


def deploy_choices(
    campaign: Campaign, kingdom_id: str, planned: Sequence[Placement | Allocation]
) -> DeployChoices:
    """What is left to place after the planned placements, and where; refused as the
    deploy step refuses a plan."""
    placed, room = _placed(campaign, kingdom_id, planned)
    armies = tuple(a.id for a in _staging(campaign, kingdom_id) if a.id not in placed)
    return DeployChoices(armies, room)
