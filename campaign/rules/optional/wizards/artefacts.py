"""Option `wizards` (campaign-options.md, OA7 to OA10): the campaign-wide pool of magical
artefacts. Each exists once; it is free, or held by a kingdom, on one of its armies or at
its capital. The pool is filled from Kings of War's list (kings-of-war.md, in that table's
order: points, then name) unless the campaign's file names its own."""

from collections.abc import Callable, Sequence
from dataclasses import replace

from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex
from campaign.rules.picks import random_pick
from campaign.rules.state import (
    HORDE,
    Allocation,
    Artefact,
    Battle,
    BattleInput,
    Campaign,
    Holder,
    Placement,
    Purchase,
)
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

LOWEST, HIGHEST = Artefact.LOWEST, Artefact.HIGHEST  # an artefact's points (OA8)

# Kings of War's forty magical artefacts: (name, points), in the rulebook's order.
ARTEFACTS: tuple[tuple[str, int], ...] = (
    ("Blade of Slashing", 5),
    ("Fire-Oil", 5),
    ("Kevinar's Flying Hammer", 5),
    ("Mace of Crushing", 5),
    ("War-bow of Kaba", 5),
    ("Dwarven Ale", 10),
    ("Myrddin's Amulet of the Fire-heart", 10),
    ("Piercing Arrow", 10),
    ("Quicksilver Rapier", 10),
    ("Brew of Courage", 15),
    ("Brew of Haste", 15),
    ("Pipes of Terror", 15),
    ("Blade of the Beast Slayer", 20),
    ("Darklord's Onyx Ring", 20),
    ("Helm of Confidence", 20),
    ("Inspiring Talisman", 20),
    ("Maccwar's Potion of the Caterpillar", 20),
    ("Blessing of the Gods", 25),
    ("Chant of Hate", 25),
    ("Kaba's Holy Hand Grenades", 25),
    ("Scarletmaw's Fenulian Amulet", 25),
    ("Boots of Levitation", 30),
    ("Brew of Strength", 30),
    ("Crepognon's Scrying Gem of Zellak", 30),
    ("Diadem of Dragon-kind", 30),
    ("Healing Charm", 30),
    ("Heart-seeking Chant", 30),
    ("Mreb's Grimoire of Unspeakable Darkness", 30),
    ("The Boomstick", 30),
    ("Boots of the Seven Leagues", 35),
    ("Ensorcelled Armour", 35),
    ("Jar of the Four Winds", 35),
    ("Medallion of Life", 35),
    ("Orcsbain's Amulet of Thorns", 35),
    ("The Fog", 35),
    ("Wine of Elvenkind", 40),
    ("Wings of Honeymaze", 40),
    ("Brew of Keen-eyeness", 45),
    ("Brew of Sharpness", 45),
    ("Crystal Pendant of Retribution", 50),
)


def kings_of_war_pool() -> tuple[Artefact, ...]:
    """The forty, all free: the pool of a campaign whose file names none (OA8)."""
    return tuple(Artefact(name, points) for name, points in ARTEFACTS)


def left_behind(campaign: Campaign, turn: Turn) -> Campaign:
    """OA10: an army removed other than by a battle's capture (recalled, starved, disbanded)
    leaves its artefacts at its kingdom's capital, or, with none, to the pool. Checked after
    every step of the engine, so no artefact is ever held by an army that is gone. Which
    army held what is secret (OA9): only an artefact's return to the pool is told."""
    if not any(a.holder and a.holder.army for a in campaign.artefacts):
        return campaign
    pool = []
    for artefact in campaign.artefacts:
        holder = artefact.holder
        if holder is not None and holder.army is not None and holder.army not in campaign.armies:
            kept = campaign.kingdom(holder.kingdom).capital is not None
            artefact = replace(artefact, holder=Holder(holder.kingdom) if kept else None)
            if not kept:
                turn.record(
                    EventType.ARTEFACT_RETURNED, artefact=artefact.name, kingdom=holder.kingdom
                )
        pool.append(artefact)
    return replace(campaign, artefacts=tuple(pool))


# OA7: the quest's result (a die plus a hundredth of the hero's points) and, from 4 on,
# the band of points of the artefact it finds.
BANDS: tuple[tuple[int, int], ...] = ((5, 15), (20, 30), (35, 50))
QUEST_RESULTS = {1: "lost", 2: "hurt", 3: "nothing"}


def quest(campaign: Campaign, kingdom_id: str, purchase: Purchase, turn: Turn) -> Campaign:
    """OA7: one die + the hero's points // 100. 1 the hero is lost, 2 hurt, 3 nothing
    found; 4 an artefact of 5-15 points, 5 of 20-30, 6 or more of 35-50: a random pick
    (OG2, in pool order) among the free ones of that band, else of each lower band, then of
    each higher; it goes to the kingdom's capital, or with none to its first army."""
    die = turn.roll()
    score = die + (purchase.points or 0) // 100
    picks: list[int] = []

    def roll() -> int:
        picks.append(turn.roll())
        return picks[-1]

    found = _found(campaign, score, roll) if score >= 4 else None
    turn.record(
        EventType.QUEST,
        kingdom=kingdom_id,
        hero=purchase.hero,
        points=purchase.points,
        tower=list(purchase.hex or ()),
        result=score,
        outcome=QUEST_RESULTS.get(score, "artefact" if found else "nothing left"),
        artefact=found.name if found else None,
        dice=[die, *picks],  # the quest's die, then those of the pick (OG2)
    )
    if found is None:
        return campaign
    kingdom = campaign.kingdom(kingdom_id)
    first = next(a.id for a in campaign.armies.values() if a.kingdom == kingdom_id)
    holder = Holder(kingdom_id, None if kingdom.capital is not None else first)
    pool = tuple(replace(a, holder=holder) if a is found else a for a in campaign.artefacts)
    return replace(campaign, artefacts=pool)


def _found(campaign: Campaign, score: int, roll: Callable[[], int]) -> Artefact | None:
    """The settled band search of OA7, then the pick."""
    rolled = min(score, 6) - 4  # the index of the band rolled
    order = [*range(rolled, -1, -1), *range(rolled + 1, len(BANDS))]
    for band in order:
        low, high = BANDS[band]
        free = [a for a in campaign.artefacts if a.holder is None and low <= a.points <= high]
        if free:
            return random_pick(free, roll)
    return None


def check_allocations(
    campaign: Campaign, kingdom_id: str, plan: Sequence[Placement | Allocation]
) -> None:
    """OA9, judged as soon as given: each artefact entry of a kingdom's deploy list names,
    once, an artefact the kingdom holds, and one of its own armies or its capital."""
    held = {a.name for a in campaign.artefacts if a.holder and a.holder.kingdom == kingdom_id}
    seen: set[str] = set()
    for index, entry in enumerate(plan):
        if not isinstance(entry, Allocation):
            continue
        where = f"inputs.deploy.{kingdom_id}[{index}]"
        if entry.artefact not in held or entry.artefact in seen:
            raise RuleError(
                "artefact-not-yours",
                f"{where}.artefact",
                f"{kingdom_id} holds no artefact {entry.artefact!r} to place (option OA9).",
            )
        seen.add(entry.artefact)
        army = campaign.armies.get(entry.army or "")
        if entry.army is not None and (army is None or army.kingdom != kingdom_id):
            raise RuleError(
                "artefact-not-your-army",
                f"{where}.army",
                f"{entry.army} is not an army of {kingdom_id}: an artefact goes on one of its "
                "own armies or at its capital (option OA9).",
            )


def allocate(
    campaign: Campaign, kingdom_id: str, plan: Sequence[Placement | Allocation]
) -> Campaign:
    """OA9 at deployment: each artefact the kingdom holds goes where its list says (an army,
    or its capital); one it does not list stays on the same army if that still exists, else
    goes to its first army, with no army to its capital, with no capital back to the pool.
    Secret: nothing of it is told in the events."""
    listed = {e.artefact: e.army for e in plan if isinstance(e, Allocation)}
    armies = [a.id for a in campaign.armies.values() if a.kingdom == kingdom_id]
    capital = campaign.kingdom(kingdom_id).capital

    def placed(holder: Holder) -> Holder | None:
        if holder.army in armies:
            return holder
        if armies:
            return Holder(kingdom_id, armies[0])
        return Holder(kingdom_id) if capital is not None else None

    pool = []
    for artefact in campaign.artefacts:
        holder = artefact.holder
        if holder is not None and holder.kingdom == kingdom_id:
            if artefact.name in listed:
                wanted = listed[artefact.name]
                at_capital = wanted is None and capital is not None
                holder = Holder(kingdom_id) if at_capital else placed(Holder(kingdom_id, wanted))
            else:
                holder = placed(holder)
            artefact = replace(artefact, holder=holder)
        pool.append(artefact)
    return replace(campaign, artefacts=tuple(pool))


def taken(
    campaign: Campaign,
    armies: Sequence[str],
    winner: str | None,
    hex_: Hex,
    turn: Turn,
    *,
    names: Sequence[str] | None = None,
) -> Campaign:
    """OA10: the artefacts on `armies` (those named, with `names`) go to the battle's
    `winner`: to its first army in `hex_`, else its capital, else the pool; with no winner,
    to the pool. The winner's own are not taken. Public: each is told."""
    moving = [
        a
        for a in campaign.artefacts
        if a.holder is not None
        and a.holder.army in armies
        and a.holder.kingdom != winner
        and (names is None or a.name in names)
    ]
    return _handed_to(campaign, moving, winner, hex_, turn)


def capital_fallen(
    campaign: Campaign, loser: str, taker: str | None, hex_: Hex, turn: Turn
) -> Campaign:
    """OA10: what a capital held (its kingdom's artefacts at the capital) goes, when another
    kingdom takes it, to the taker's first army there, else the taker's capital, else the
    pool; a capital razed (`taker` None) sends them to the pool."""
    at_capital = [a for a in campaign.artefacts if a.holder == Holder(loser)]
    return _handed_to(campaign, at_capital, taker, hex_, turn)


def _handed_to(
    campaign: Campaign, moving: Sequence[Artefact], taker: str | None, hex_: Hex, turn: Turn
) -> Campaign:
    """The `moving` artefacts go to `taker` (its first army in `hex_`, else its capital),
    or to the pool; each move is told."""
    if not moving:
        return campaign
    to = _new_home(campaign, taker, hex_) if taker is not None else None
    for artefact in moving:
        assert artefact.holder is not None
        turn.record(
            EventType.ARTEFACT_TAKEN,
            artefact=artefact.name,
            **{"from": artefact.holder.kingdom},
            to=taker if to is not None else None,
            hex=list(hex_),
        )
    names = {a.name for a in moving}
    pool = tuple(replace(a, holder=to) if a.name in names else a for a in campaign.artefacts)
    return replace(campaign, artefacts=pool)


def _new_home(campaign: Campaign, kingdom_id: str, hex_: Hex) -> Holder | None:
    """Where a taken artefact goes: the kingdom's first army in the tile, else its capital,
    else nowhere (the pool). The horde keeps none: to the pool (where options meet)."""
    if kingdom_id == HORDE:
        return None
    army = next(
        (a.id for a in campaign.armies.values() if a.kingdom == kingdom_id and a.hex == hex_),
        None,
    )
    if army is not None:
        return Holder(kingdom_id, army)
    return Holder(kingdom_id) if campaign.kingdom(kingdom_id).capital is not None else None


def on_armies(campaign: Campaign, armies: Sequence[str]) -> tuple[str, ...]:
    """The artefacts on these armies (OA9), in the pool's order."""
    return tuple(
        a.name for a in campaign.artefacts if a.holder is not None and a.holder.army in armies
    )


def capture_refused(battle: Battle, entry: BattleInput) -> RuleError | None:
    """OA10: a win captures only what the card lists on the beaten side's armies (judged as
    soon as the result is given, not once the battle's turn comes)."""
    if not entry.captured or entry.winner is None:
        return None
    beaten = [s for s in battle.sides if s.kingdom != entry.winner]
    on_the_card = {name for side in beaten for name in side.artefacts or ()}
    strays = [name for name in entry.captured if name not in on_the_card]
    if not strays:
        return None
    return RuleError(
        "capture-not-in-battle",
        f"inputs.battles[{entry.position}].captured",
        f"{', '.join(strays)} was not on the beaten side's armies in the battle at "
        f"{list(battle.hex)}: only what its card lists can be captured (option OA10).",
    )
