"""An optional rule's part of the battle card, declared by the rule's own module in
`campaign.display.optional`: the card (`battles.card`) asks the parts of the rules a
battle's campaign turns on and never names an option itself. A part reads the battle as
plain data (`Fought`: its sides and details as the campaign file writes them)."""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from campaign.gazetteer import Names

type Side = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Cite:
    """A ruling the card links to, and the words before it: `option OA2`, or after
    `; public once on a card, ` the `ruling A24`."""

    ruling: str
    word: str = "option"
    before: str = ""


@dataclass(frozen=True, slots=True)
class Note:
    """Words on the card and the rulings they cite, in brackets after them."""

    text: str
    cites: tuple[Cite, ...]


@dataclass(frozen=True, slots=True)
class Fact:
    """A fact of the game that stands in place of the defender's benefit, under its own
    term: the set-up steps say its words before the first unit is deployed."""

    term: str
    note: Note


@dataclass(frozen=True, slots=True)
class Fought:
    """A battle as a card part reads it: its sides and details (the battle's entry in the
    campaign file), whether it is played at the tabletop, and the kingdoms' names."""

    sides: Sequence[Side]
    details: Mapping[str, Any]
    tabletop: bool
    names: Mapping[str, str]

    def name(self, kingdom: str) -> str:
        return self.names.get(kingdom, kingdom)


type SideWords = Callable[[Fought, Side], Note | None]


@dataclass(frozen=True, slots=True)
class CardPart:
    """What an optional rule adds to the battle card. `option` is its row's name in
    `campaign.rules.options`. Under each side: `side_note`, a line of its own, and
    `reckoning`, how its strategy cards were counted (in brackets after them); `stance`, a
    side's part in the battle, in place of the general "picked this battle" (None: it has
    none to say). In the game: `instead_of_benefit`, a fact in place of the defender's
    benefit. In the set-up steps: `first_steps` before all others, `draws_condition`
    false when the Battlefields condition card is not drawn (the tile's roll chose it),
    and `before_deployment`, steps just before the units deploy."""

    option: str
    # What it says of an event of its own that follows the battle at a hex, in the card's
    # "what each result does" (a band falling back, plunder), or None.
    after_battle: Callable[[Mapping[str, Any], list[int], Names], str | None] | None = None
    side_note: SideWords | None = None
    reckoning: SideWords | None = None
    stance: Callable[[Fought, str], str | None] | None = None
    instead_of_benefit: Callable[[Fought], Fact | None] | None = None
    first_steps: tuple[str, ...] = ()
    draws_condition: bool = True
    before_deployment: tuple[str, ...] = ()
