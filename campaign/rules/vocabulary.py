"""The game's words that the campaign file spells, declared once: the types of event the
engine records (`events[].type`), the kinds of battle (`battles[].kind`) and the names of
the options (`options`), as campaign-file.md spells them. The kinds of decision and the
steps are `PendingKind` and `Step` (campaign.rules.state).

Each value is the file's own string, so a StrEnum compares equal to it: the app keys its
tables and tests by these, never by a literal, and `tests/test_vocabulary.py` fails when
one of them has no words. The options' rows (campaign.rules.options) stay the source of
truth for what an option is; `OptionName` only names them."""

from enum import StrEnum


class EventType(StrEnum):
    """What an event of the campaign file's `events` tells (its `type`), in the order the
    campaign plays them."""

    # Setup
    RACES_REVEALED = "races-revealed"
    ROLL_OFF = "roll-off"
    PLAYER_ORDER = "player-order"
    CAPITAL_FOUNDED = "capital-founded"
    SETTLEMENTS_PLACED = "settlements-placed"
    ARMY_PLACED = "army-placed"
    # A summer month opens: option marauders (OW2, OW3)
    NO_MARAUDERS = "no-marauders"  # the arrival die brought none
    MARAUDERS_ARRIVED = "marauders-arrived"
    MARAUDER_ORDERS = "marauder-orders"
    # A summer month: orders resolved
    MOVED = "moved"
    EXPLORED = "explored"
    TOWER_RAISED = "tower-raised"  # option wizards (OA4)
    TOWER_BLOCKED = "tower-blocked"  # option wizards (OA5)
    TILE_TAKEN = "tile-taken"
    CAPITAL_LOST = "capital-lost"
    RAZE_NOTHING_LEFT = "raze-nothing-left"
    RAZE_FAILED = "raze-failed"
    RAZED = "razed"
    DEFENDED = "defended"
    REGROUPED = "regrouped"
    STAYED = "stayed"
    ARMY_LANDED = "army-landed"
    ARMY_BOARDED = "army-boarded"
    SLOWED_BY_TERRAIN = "slowed-by-terrain"
    # A summer month: battles
    BATTLE = "battle"
    BATTLE_RESTATED = "battle-restated"
    STRATEGY_LEARNED = "strategy-learned"
    RETREATED = "retreated"
    DESTROYED = "destroyed"
    MARAUDERS_MOVED_OFF = "marauders-moved-off"  # option marauders (OW6)
    PLUNDERED = "plundered"  # option marauders (OW7)
    ARTEFACT_TAKEN = "artefact-taken"  # option wizards (OA10)
    ARTEFACT_RETURNED = "artefact-returned"  # option wizards (OA11)
    # Winter
    RECALLED = "recalled"
    SUPPLY_LOST = "supply-lost"
    SHIP_LOST = "ship-lost"
    SHIP_DOCKED = "ship-docked"
    ELIMINATED = "eliminated"
    YEARLY_EVENT = "yearly_event"  # option yearly_event (OW15): its type is the rule's
    REVOLTED = "revolted"  # option yearly_event (OW15)
    GATHERED = "gathered"
    # The succession step opens: option succession (OB5, OB6)
    RULER_LIVED = "ruler-lived"
    RULER_DIED = "ruler-died"
    CIVIL_WAR_RAZED = "civil-war-razed"
    TITHE = "tithe"
    PURCHASE_SKIPPED = "purchase-skipped"
    DISBANDED = "disbanded"
    RECRUITED = "recruited"
    SHIP_BUILT = "ship-built"
    CAPITAL_NAMED = "capital-named"
    BUILT = "built"
    QUEST = "quest"  # option wizards (OA6)
    ROAD_BUILT = "road-built"  # option roads (OW9)
    RESOURCES_LOST = "resources-lost"
    STARVED = "starved"
    NO_ROOM = "no-room"
    DEPLOYED = "deployed"
    CAMPAIGN_ENDED = "campaign-ended"
    # Any step: a decision missing at its deadline took its default (ruling A22)
    DEADLINE_DEFAULT = "deadline-default"
    # Glory won, taken and traded for honours: option glory (OB1, OB2)
    GLORY_GAINED = "glory-gained"
    GLORY_LOST = "glory-lost"
    HONOUR_CLAIMED = "honour-claimed"
    # The end of a reform, gather or deploy step: option milestones (OW13)
    MILESTONE_GAINED = "milestone-gained"
    MILESTONE_LOST = "milestone-lost"


class BattleKind(StrEnum):
    """How a battle of the campaign file's `battles` is fought (its `kind`)."""

    PITCHED = "pitched"  # at the tabletop, a Kings of War game
    SIMPLE = "simple"  # rolled by the app (ruling B6)
    SLAUGHTER = "slaughter"
    NAVAL = "naval"
    LAND_WATER = "land_water"
    CONCESSION = "concession"


class OptionName(StrEnum):
    """The name of each option of the campaign file's `options`: one per row of
    `campaign.rules.options.OPTIONS`, in its order."""

    YEARS = "years"
    MONTHS = "months"
    ORDERS = "orders"
    BATTLES = "battles"
    SEED = "seed"
    ARMY_LIMITS = "army_limits"  # options OA1 to OA3
    WIZARDS = "wizards"  # options OA4 to OA11
    COMMON_DECK = "common_deck"  # options OA12 and OA13
    SIEGES = "sieges"  # options OA14 and OA15
    MARAUDERS = "marauders"  # options OW1 to OW8
    ROADS = "roads"  # options OW9 to OW11
    MILESTONES = "milestones"  # options OW12 to OW14
    YEARLY_EVENT = "yearly_event"  # option OW15
    GLORY = "glory"  # options OB1 to OB4
    SUCCESSION = "succession"  # options OB5 to OB7
    MARAUDER_RACE = "marauder_race"  # option marauders (OW1), while it is on
    MARAUDER_GENERAL = "marauder_general"  # option marauders (OW5), while it is on


# The official Kings of War races a kingdom may choose (rulebook, Initial Kingdom A).
RACES = (
    "Abyssal Dwarfs",
    "Basileans",
    "Dwarfs",
    "Elves",
    "Empire of Dust",
    "Forces of Nature",
    "Kingdoms of Men",
    "Nightstalkers",
    "Ogres",
    "Orcs",
    "Undead",
)
