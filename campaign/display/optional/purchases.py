"""What an optional rule adds to the winter page's purchases (ruling W5): a purchase of its
own, made by tapping the map (a first tap on a tile, a second on a tile it lights) or with
a form that needs no JavaScript, and what the page refuses at once of it (what the engine
would only skip at the build step). The winter board walks the parts of the options a
campaign turns on; it never names one."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from campaign.gazetteer import Names
from campaign.rules.hexmap import Hex
from campaign.rules.state import Campaign

type Json = dict[str, Any]


@dataclass(frozen=True)
class Offer:
    """A purchase a tap or a button adds to the list as it is: its words, its value as the
    campaign file writes it (JSON) and its price in words."""

    words: str
    value: str
    price: str


@dataclass(frozen=True)
class Offered:
    """What a part offers one kingdom, with its list as it stands: `starts`, the tiles lit
    for a first tap (each shows, under the map, what may be added from it); `ends`, after
    a first tap on a tile, the tiles a second tap adds a purchase at, with it; `context`,
    what its templates draw."""

    starts: frozenset[Hex] = frozenset()
    ends: Mapping[Hex, Offer] = field(default_factory=dict)
    context: Json = field(default_factory=dict)


@dataclass(frozen=True)
class PurchasePart:
    """An option's part of the purchases: `offered(state, kingdom, names, tapped)`, what
    it offers the kingdom in the campaign read with its list (`tapped`: the tile tapped
    first, or None); `section`, its template in the list of purchases, and `here`, its
    template under the map after a first tap, each given `part` (the `Offered`);
    `refused(data, kingdom, purchases, names)`, why the page refuses the list now, in
    words, or None."""

    option: str
    offered: Callable[[Campaign, str, Names, Hex | None], Offered]
    section: str
    here: str
    refused: Callable[[Mapping[str, Any], str, Sequence[Any], Names], str | None]
