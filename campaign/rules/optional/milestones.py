"""Option `milestones` (campaign-options.md, OW12 to OW14): achievements worth 2 might each.
Shared ones are held by every kingdom that meets them: `heavily_fortified` (3 fortresses or
more), `empire` (a capital of its own, and a city on another kingdom's first capital). Sole
ones by one kingdom at most, the one with strictly the most: `largest_kingdom` (12 tiles or
more), `master_merchant` (5 gold or more gathered in this winter's gather step), `warlord`
(3 pitched battles won at the tabletop or more). They are checked at the end of each reform
and deploy step (`master_merchant` at the gather step alone); eliminated kingdoms hold none.
Fields: `kingdoms[].milestones`, in OW12's order, and `kingdoms[].first_capital`, the
capital chosen at the setup, never changed after."""

from collections.abc import Callable, Mapping
from dataclasses import replace

from campaign.rules.errors import RuleError
from campaign.rules.filevalues import Json, optional_field
from campaign.rules.hexmap import Hex
from campaign.rules.optional.rule import OptionalRule, OptionRow
from campaign.rules.state import Campaign, Kingdom, Settlement, Step
from campaign.rules.turn import Turn
from campaign.rules.vocabulary import EventType

HEAVILY_FORTIFIED = "heavily_fortified"
EMPIRE = "empire"
LARGEST_KINGDOM = "largest_kingdom"
MASTER_MERCHANT = "master_merchant"
WARLORD = "warlord"
# OW12's order, the order a kingdom's `milestones` are written in.
MILESTONES = (HEAVILY_FORTIFIED, EMPIRE, LARGEST_KINGDOM, MASTER_MERCHANT, WARLORD)
SOLE = frozenset({LARGEST_KINGDOM, MASTER_MERCHANT, WARLORD})
MILESTONE_MIGHT = 2  # OW14

FORTRESSES = 3  # heavily_fortified
TILES = 12  # largest_kingdom
GOLD = 5  # master_merchant
WINS = 3  # warlord

type Count = Callable[[Campaign, Kingdom, Turn], int]


# --- what each milestone counts (OW12) --------------------------------------------------------


def _fortresses(campaign: Campaign, kingdom: Kingdom) -> int:
    return sum(
        1
        for h in campaign.tiles.values()
        if h.owner == kingdom.id and h.settlement is Settlement.FORTRESS
    )


def _tiles(campaign: Campaign, kingdom: Kingdom) -> int:
    return sum(1 for h in campaign.tiles.values() if h.owner == kingdom.id)


def _gold_gathered(campaign: Campaign, kingdom: Kingdom, turn: Turn) -> int:
    """The gold the kingdom gathered at this winter's gather step, from every source (OG7:
    settlements and what the optional rules add), as its `gathered` event tells it."""
    return sum(
        int(str(e.get("gold") or 0))
        for e in turn.events
        if e["type"] == EventType.GATHERED.value and e.get("kingdom") == kingdom.id
    )


def _rules_an_empire(campaign: Campaign, kingdom: Kingdom) -> bool:
    """A capital of its own (not W1's stand-in), and a city it controls on another
    kingdom's first capital, an eliminated kingdom's too."""
    if kingdom.capital is None:
        return False
    return any(
        other.id != kingdom.id
        and other.first_capital is not None
        and campaign.owner(other.first_capital) == kingdom.id
        and campaign.settlement(other.first_capital) is Settlement.CITY
        for other in campaign.kingdoms
    )


SHARED: Mapping[str, Callable[[Campaign, Kingdom], bool]] = {
    HEAVILY_FORTIFIED: lambda campaign, kingdom: _fortresses(campaign, kingdom) >= FORTRESSES,
    EMPIRE: _rules_an_empire,
}
# A sole milestone's number (tiles, gold, wins) and the least that meets it.
SOLE_COUNTS: Mapping[str, tuple[Count, int]] = {
    LARGEST_KINGDOM: (lambda campaign, kingdom, turn: _tiles(campaign, kingdom), TILES),
    MASTER_MERCHANT: (_gold_gathered, GOLD),
    WARLORD: (lambda campaign, kingdom, turn: kingdom.pitched_wins, WINS),
}


# --- the checks (OW13) ---------------------------------------------------------------------------

# The milestones each step's end checks.
CHECKED_AT: Mapping[Step, tuple[str, ...]] = {
    Step.REFORM: (HEAVILY_FORTIFIED, EMPIRE, LARGEST_KINGDOM, WARLORD),
    Step.DEPLOY: (HEAVILY_FORTIFIED, EMPIRE, LARGEST_KINGDOM, WARLORD),
    Step.GATHER: (MASTER_MERCHANT,),
}


def _checked(campaign: Campaign, turn: Turn, step: Step) -> Campaign:
    """OW13 at the end of a step: each milestone it checks goes where it belongs now; an
    eliminated kingdom holds none. Each change is an event."""
    held = {k.id: set(k.milestones) for k in campaign.kingdoms}
    standing = [campaign.kingdom(k) for k in campaign.player_order]
    for kingdom in campaign.kingdoms:
        if kingdom.eliminated is not None:
            held[kingdom.id].clear()
    for milestone in CHECKED_AT.get(step, ()):
        if milestone in SOLE:
            holder = _sole_holder(campaign, turn, milestone, standing, held)
            for kingdom in standing:
                held[kingdom.id].discard(milestone)
            if holder is not None:
                held[holder].add(milestone)
        else:
            for kingdom in standing:
                if SHARED[milestone](campaign, kingdom):
                    held[kingdom.id].add(milestone)
                else:
                    held[kingdom.id].discard(milestone)
    for kingdom in campaign.kingdoms:
        now = tuple(m for m in MILESTONES if m in held[kingdom.id])
        if now != kingdom.milestones:
            _tell(turn, kingdom, now)
            campaign = campaign.with_kingdom(replace(kingdom, milestones=now))
    return campaign


def _sole_holder(
    campaign: Campaign,
    turn: Turn,
    milestone: str,
    standing: list[Kingdom],
    held: Mapping[str, set[str]],
) -> str | None:
    """OW13: the holder keeps a sole milestone while it meets it and no kingdom has strictly
    more; otherwise it goes to the kingdom that meets it with strictly the most, or to
    nobody while that most is tied."""
    count, least = SOLE_COUNTS[milestone]
    meeting = {k.id: n for k in standing if (n := count(campaign, k, turn)) >= least}
    if not meeting:
        return None
    most = max(meeting.values())
    holder = next((k for k, ms in held.items() if milestone in ms), None)
    if holder in meeting and meeting[holder] == most:
        return holder
    leaders = [k for k, n in meeting.items() if n == most]
    return leaders[0] if len(leaders) == 1 else None


def _tell(turn: Turn, kingdom: Kingdom, now: tuple[str, ...]) -> None:
    for milestone in MILESTONES:
        if milestone in now and milestone not in kingdom.milestones:
            turn.record(EventType.MILESTONE_GAINED, kingdom=kingdom.id, milestone=milestone)
        elif milestone in kingdom.milestones and milestone not in now:
            turn.record(EventType.MILESTONE_LOST, kingdom=kingdom.id, milestone=milestone)


def _step_ended(campaign: Campaign, turn: Turn, step: Step) -> Campaign:
    return _checked(campaign, turn, step) if step in CHECKED_AT else campaign


def _capital_founded(campaign: Campaign, kingdom_id: str, hex_: Hex) -> Campaign:
    """OW12: the first capital is the one chosen at the setup, never changed after."""
    kingdom = campaign.kingdom(kingdom_id)
    if kingdom.first_capital is not None:
        return campaign
    return campaign.with_kingdom(replace(kingdom, first_capital=hex_))


def _might(campaign: Campaign, kingdom: Kingdom) -> int:
    """OW14: +2 per milestone held."""
    return MILESTONE_MIGHT * len(kingdom.milestones)


# --- the campaign file: `kingdoms[].milestones`, `kingdoms[].first_capital` -------------------


def _read_milestones(json: Json) -> tuple[str, ...]:
    """The milestones held: each of OW12's at most once, kept in OW12's order."""
    given = []
    for item in json.as_list():
        name = item.as_str()
        if name not in MILESTONES:
            item.refuse("unknown-milestone", f"{name!r} is no milestone (OW12).")
        if name in given:
            item.refuse("milestone-twice", f"The milestone {name!r} is listed twice.")
        given.append(name)
    return tuple(m for m in MILESTONES if m in given)


def _kingdom_fields(fields: Mapping[str, Json]) -> Mapping[str, object]:
    """OG1: absent, a kingdom holds no milestone (held from the next check) and its first
    capital is its capital in this file."""
    capital = optional_field(fields, "capital", lambda j: j.optional(Json.as_hex), None)
    none_held: tuple[str, ...] = ()
    return {
        "milestones": optional_field(fields, "milestones", _read_milestones, none_held),
        "first_capital": optional_field(
            fields, "first_capital", lambda j: j.optional(Json.as_hex), capital
        ),
    }


def _kingdom_written(kingdom: Kingdom) -> Mapping[str, object]:
    first = list(kingdom.first_capital) if kingdom.first_capital is not None else None
    return {"milestones": list(kingdom.milestones), "first_capital": first}


def _one_holder_each(campaign: Campaign) -> None:
    """A sole milestone is held by one kingdom at most; an eliminated kingdom holds none."""
    for milestone in sorted(SOLE):
        holders = [i for i, k in enumerate(campaign.kingdoms) if milestone in k.milestones]
        if len(holders) > 1:
            raise RuleError(
                "sole-milestone-shared",
                f"kingdoms[{holders[1]}].milestones",
                f"Only one kingdom may hold {milestone} (OW12); "
                f"{campaign.kingdoms[holders[0]].id} holds it already.",
            )
    for i, kingdom in enumerate(campaign.kingdoms):
        if kingdom.eliminated is not None and kingdom.milestones:
            raise RuleError(
                "eliminated-holds-milestone",
                f"kingdoms[{i}].milestones",
                f"{kingdom.id} is eliminated and holds no milestone (OW13).",
            )


RULE = OptionalRule(
    row=OptionRow(
        "milestones",
        "Milestones",
        "Achievements worth 2 might each: fortresses, an empire over another's first "
        "capital, the largest kingdom, the master merchant, the warlord (options OW12 to "
        "OW14).",
        default=False,
        switch=True,
    ),
    fields={"kingdoms[]": ("milestones", "first_capital")},
    read={"kingdoms[]": _kingdom_fields},
    write={"kingdoms[]": _kingdom_written},
    checks={"units": _one_holder_each},
    capital_founded=_capital_founded,
    step_ended=_step_ended,
    might=_might,
)
