"""What each optional rule shows in the app, one module an option (its map layer, the words
of its events, its part of the battle card, its part of the winter's purchases, its note on
a planned move, what it warns a kingdom of), and the registry the general code walks, keyed
by the option's row name in `campaign.rules.options`: the general code calls what the rules a campaign turns on
declare, and never names an option."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from campaign.display.describing import Wording
from campaign.display.mapsvg.layer import MapLayer
from campaign.display.optional import (
    army_limits,
    common_deck,
    glory,
    marauders,
    milestones,
    roads,
    sieges,
    succession,
    wizards,
    yearly_event,
)
from campaign.display.optional.card import CardPart
from campaign.display.optional.purchases import PurchasePart
from campaign.gazetteer import Names
from campaign.rules.hexmap import Hex
from campaign.rules.options import switched_on
from campaign.rules.vocabulary import EventType

MAP_LAYERS: Mapping[str, MapLayer] = MappingProxyType(
    {
        layer.option: layer
        for layer in (
            wizards.MAP_LAYER,
            sieges.MAP_LAYER,
            marauders.MAP_LAYER,
            roads.MAP_LAYER,
            succession.MAP_LAYER,
        )
    }
)

CARD_PARTS: Mapping[str, CardPart] = MappingProxyType(
    {
        part.option: part
        for part in (
            army_limits.CARD_PART,
            wizards.CARD_PART,
            common_deck.CARD_PART,
            sieges.CARD_PART,
            marauders.CARD_PART,
        )
    }
)

# What the options add to the winter page's purchases (W5): a purchase of their own, tapped
# on the map or chosen in a form, and what the page refuses of it at once.
PURCHASE_PARTS: Mapping[str, PurchasePart] = MappingProxyType(
    {part.option: part for part in (roads.PURCHASE_PART,)}
)

# What an option says of a move a player plans from one tile to the next (a march along a
# road, spared the terrain), or None.
MARCH_NOTES: Mapping[str, Callable[[Mapping[str, Any], Hex, Hex], str | None]] = MappingProxyType(
    {roads.OPTION: roads.march_note}
)

# What an option tells a player planning this month's orders (the marauders' coming moves,
# so a raid may be intercepted), line by line.
ORDERS_NEWS: Mapping[str, Callable[[Mapping[str, Any], Names], tuple[str, ...]]] = MappingProxyType(
    {marauders.OPTION: marauders.coming_moves}
)


@dataclass(frozen=True)
class KingdomWarning:
    """What an option warns a kingdom of, by kingdom, as a snapshot stands (`told`), under
    the e-mail's `subject`: told by the notifications once a chapter."""

    subject: str
    told: Callable[[Mapping[str, Any], Names], Mapping[str, tuple[str, ...]]]


# A marauder band arrived near a kingdom's settlements at the month's opening; a kingdom's
# ruler died this winter.
KINGDOM_WARNINGS: Mapping[str, KingdomWarning] = MappingProxyType(
    {
        marauders.OPTION: KingdomWarning("Marauders near your lands", marauders.arrivals_near),
        succession.OPTION: KingdomWarning("Your ruler has died", succession.deaths_told),
    }
)

# The words of the events only an optional rule's play records (the report, the chronicle
# and the winter ledger word them by this table beside the core game's).
EVENT_WORDINGS: Mapping[EventType, Wording] = MappingProxyType(
    {
        **wizards.EVENT_WORDINGS,
        **marauders.EVENT_WORDINGS,
        **roads.EVENT_WORDINGS,
        **milestones.EVENT_WORDINGS,
        **yearly_event.EVENT_WORDINGS,
        **glory.EVENT_WORDINGS,
        **succession.EVENT_WORDINGS,
    }
)

# What the optional rules add to or take from a kingdom's gathering, by the source a
# `gathered` event's `gains` name (OG7's gather).
GAIN_NAMES: Mapping[str, str] = MappingProxyType(
    {**marauders.GAIN_NAMES, **roads.GAIN_NAMES, **yearly_event.GAIN_NAMES, **glory.GAIN_NAMES}
)


# What an option adds to a kingdom's line on the leaderboard (the milestones it holds), and
# to the words of how might is counted (OG4).
STANDING_NOTES: Mapping[str, Callable[[Mapping[str, Any]], tuple[str, ...]]] = MappingProxyType(
    {milestones.OPTION: milestones.standing_notes, glory.OPTION: glory.standing_notes}
)
MIGHT_WORDS: Mapping[str, str] = MappingProxyType(
    {milestones.OPTION: milestones.MIGHT_WORDS, glory.OPTION: glory.MIGHT_WORDS}
)
MIGHT_SOURCES: Mapping[str, Callable[[Mapping[str, Any]], tuple[str, int]]] = MappingProxyType(
    {milestones.OPTION: milestones.might_source, glory.OPTION: glory.might_source}
)


def _declared[T](options: Mapping[str, object], table: Mapping[str, T]) -> list[T]:
    """What `table` declares for the optional rules a campaign's `options` turn on, in the
    order of the options' table."""
    return [table[row.name] for row in switched_on(options) if row.name in table]


def standing_notes(options: Mapping[str, object], kingdom: Mapping[str, Any]) -> tuple[str, ...]:
    """What the options a campaign turns on add to a kingdom's line on the leaderboard."""
    return tuple(note for notes in _declared(options, STANDING_NOTES) for note in notes(kingdom))


def might_sources(
    options: Mapping[str, object], kingdom: Mapping[str, Any]
) -> tuple[tuple[str, int], ...]:
    """The might each option a campaign turns on brings the kingdom (OG4), by its source."""
    return tuple(source(kingdom) for source in _declared(options, MIGHT_SOURCES))


def might_words(options: Mapping[str, object]) -> tuple[str, ...]:
    """What the options a campaign turns on add to might, in words (OG4)."""
    return tuple(_declared(options, MIGHT_WORDS))


def map_layers(options: Mapping[str, object]) -> list[MapLayer]:
    """The map layers of the optional rules a campaign's `options` turn on, in the order of
    the options' table."""
    return _declared(options, MAP_LAYERS)


def card_parts(options: Mapping[str, object]) -> list[CardPart]:
    """The parts of the battle card of the optional rules a campaign's `options` turn on,
    in the order of the options' table."""
    return _declared(options, CARD_PARTS)


def purchase_parts(options: Mapping[str, object]) -> list[PurchasePart]:
    """The parts of the winter's purchases of the optional rules a campaign's `options`
    turn on, in the order of the options' table."""
    return _declared(options, PURCHASE_PARTS)


def purchases_refused(
    data: Mapping[str, Any], kingdom: str, purchases: Sequence[Any], names: Names
) -> str | None:
    """Why the page refuses a kingdom's list of purchases at once, by the options the
    campaign file `data` turns on, in words; None if none does."""
    for part in purchase_parts(data.get("options") or {}):
        refusal = part.refused(data, kingdom, purchases, names)
        if refusal is not None:
            return refusal
    return None


def orders_news(data: Mapping[str, Any], names: Names) -> tuple[str, ...]:
    """What the options the campaign file `data` turns on tell a player planning orders."""
    return tuple(
        line
        for news in _declared(data.get("options") or {}, ORDERS_NEWS)
        for line in news(data, names)
    )


def warns(options: Mapping[str, object]) -> bool:
    """Whether any option the campaign turns on may warn a kingdom (`kingdom_warnings`)."""
    return bool(_declared(options, KINGDOM_WARNINGS))


def kingdom_warnings(data: Mapping[str, Any], names: Names) -> dict[str, list[tuple[str, str]]]:
    """What the options the campaign file `data` turns on warn each kingdom of now: its
    lines, each with its subject."""
    warned: dict[str, list[tuple[str, str]]] = {}
    for warning in _declared(data.get("options") or {}, KINGDOM_WARNINGS):
        for kingdom, lines in warning.told(data, names).items():
            warned.setdefault(kingdom, []).extend((warning.subject, line) for line in lines)
    return warned


def march_notes(data: Mapping[str, Any], start: Hex, end: Hex) -> tuple[str, ...]:
    """What the options the campaign file `data` turns on say of a move from `start` to
    `end` (a march along a road)."""
    notes = (note(data, start, end) for note in _declared(data.get("options") or {}, MARCH_NOTES))
    return tuple(note for note in notes if note)
