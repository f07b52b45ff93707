"""The names of a campaign's places and armies (issue 35): the app's, not the campaign
file's, which keeps its hexes and ids.

A campaign's gazetteer is made once, when it starts, from its map and its seed (the same
map and seed, the same names): the map is cut into regions, each of connected tiles of one
terrain and at most seven of them (app ruling A27), each with a name ("the Greywood", "the
Iron Hills", "the plains of Harrow", "Lake Mirren", "the Grey Sea"); and every tile an army
may enter has a settlement's name kept for it ("Harrowby"), taken when a settlement stands
there, however it came (placed at the setup, found exploring, built in a winter). Every
name is unique in the campaign and none is a kingdom's. An admin may rename a place; a
player may name their kingdom's armies and ships, which are otherwise "Aldermark's 1st
army", "Aldermark's 2nd ship".

It is stored as JSON (`Campaign.gazetteer`):

    {"regions": [{"name": "the Greywood", "hexes": [[0, 1], [1, 1]]}, ...],
     "settlements": {"0,1": "Harrowby", ...},
     "settled": ["0,1", ...],
     "units": {"aldermark-1": "the Iron Host"}}

`settled`: the tiles a settlement has stood on (`record_settled`, as each snapshot is
stored): they are called by their settlement's name from then on.

`Names` reads it for pages and messages: a kingdom by its id (it is the mapping of the
kingdoms' names, as `campaign.words.kingdom_names` makes it), a place by its hex, a unit by
its id, and an engine's message with its hexes and ids put into names. No Django, no
database."""

import copy
import hashlib
import json
import random
import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from itertools import product
from typing import Any

from campaign.rules.hexmap import ARMY_TERRAIN, Hex, hex_label, neighbours
from campaign.rules.state import HORDE
from campaign.rules.vocabulary import EventType

type Json = dict[str, Any]

REGION_SIZE = 7  # a hex and its six neighbours: the most tiles one name covers
NAME_LENGTH = 60  # a place's or a unit's name, as people give them

# --- Making the names -------------------------------------------------------------------------

_STEMS = (
    "Alder", "Amber", "Ash", "Bar", "Black", "Bram", "Brack", "Bryn", "Cael", "Cold",
    "Crow", "Dun", "Dusk", "Eld", "Elder", "Fell", "Fen", "Frost", "Gal", "Glen",
    "Gold", "Grey", "Hal", "Harrow", "Haw", "Hollin", "Iron", "Kel", "Lang", "Lor",
    "Mar", "Mor", "Oak", "Raven", "Red", "Rook", "Rush", "Salt", "Shield", "Stone",
    "Storm", "Tarn", "Thorn", "Wold", "Wyn", "Yar", "Wolf", "Briar",
)  # fmt: skip
_MIDDLES = (
    "en", "in", "ing", "el", "an", "wen", "dal", "ric", "mer", "bor",
    "lin", "ath", "ald", "orn", "ash", "ock", "ar", "im", "on", "ul",
)  # fmt: skip
_ENDS = (
    "by", "ford", "ham", "holm", "mere", "mark", "stead", "wick", "ton", "bury",
    "gate", "hold", "keep", "well", "moor", "brook", "dale", "crest", "haven", "hollow",
    "watch", "barrow", "march", "stow", "thorpe", "combe", "burn", "ley", "minster", "field",
    "bridge", "cote",
)  # fmt: skip
_ROOT_HEADS = (
    "Al", "Bel", "Cal", "Dor", "El", "Fen", "Gar", "Hal", "Ith", "Kel", "Lan", "Mir",
    "Nor", "Or", "Pel", "Quen", "Ros", "Sul", "Tor", "Ul", "Val", "Wen", "Yor", "Zan",
)  # fmt: skip
_ROOT_TAILS = (
    "dor", "ren", "ith", "mar", "wen", "gard", "mir", "an", "oth", "ric", "eth", "ia",
    "lin", "esk", "on",
)  # fmt: skip
_COLOURS = (
    "Grey", "Iron", "Black", "Silver", "Red", "Golden", "Dim", "Cold", "Ash", "Green",
    "Dark", "Pale", "White", "Bleak", "Amber", "Misty", "Stone", "Thorn", "Wolf", "Raven",
    "Elder", "Shadow", "High", "Long", "Broad", "Sun", "Moon", "Star", "Frost", "Storm",
)  # fmt: skip
# How a region of each terrain is named: {c} a colour, {r} a root.
_REGION_PATTERNS: Mapping[str, tuple[str, ...]] = {
    "forest": ("the {c}wood", "the {r} Forest", "the Woods of {r}"),
    "mountains": ("the {c} Hills", "the {r} Peaks", "the Mountains of {r}", "the {c} Crags"),
    "marsh": ("the {r} Fens", "the {c} Marsh", "the Mires of {r}"),
    "lake": ("Lake {r}", "the {r} Mere", "the {c} Water"),
    "ocean": ("the {c} Sea", "the Bay of {r}", "the {r} Sound", "the {c} Deep"),
    "plains": ("the plains of {r}", "the {r} Downs", "the {c} Fields", "the Vale of {r}"),
}

# Option marauders: the horde's name wherever a kingdom's would stand, and its armies' ids.
HORDE_NAME = "the marauders"
MARAUDER_ID = re.compile(r"m-([1-9][0-9]*)")


def _roots() -> list[str]:
    return [head + tail for head, tail in product(_ROOT_HEADS, _ROOT_TAILS)]


def _fills(pattern: str, roots: Sequence[str]) -> list[str]:
    words = _COLOURS if "{c}" in pattern else roots
    return [pattern.format(c=word, r=word) for word in words]


def _settlement_names() -> list[str]:
    return [stem + end for stem, end in product(_STEMS, _ENDS) if stem[-1] != end[0]]


def _long_settlement_names() -> list[str]:
    """More names, for the largest maps, once the two-part ones are spent."""
    return [
        stem + middle + end
        for stem, middle, end in product(_STEMS, _MIDDLES, _ENDS)
        if stem[-1] != middle[0] and middle[-1] != end[0]
    ]


class _NamePool:
    """Names drawn in a seeded order, never one already taken (in any case)."""

    def __init__(self, rng: random.Random, taken: Iterable[str]) -> None:
        self.rng = rng
        self.taken = {name.casefold() for name in taken}

    def draw(self, *pools: list[str]) -> str:
        """The next name of the first pool that has one not taken."""
        for pool in pools:
            name = self._take(pool)
            if name:
                return name
        raise ValueError("The names ran out.")  # only past tens of thousands of places

    def region(self, ways: list[list[str]], spare: list[str]) -> str:
        """A region's name: one way of naming its terrain, chosen at random, then a name
        made that way; the spare names once every way is spent."""
        while live := [way for way in ways if way]:
            name = self._take(self.rng.choice(live))
            if name:
                return name
        return self.draw(spare)

    def _take(self, pool: list[str]) -> str:
        """The pool's next name not taken ("" once it is spent), taken now."""
        while pool:
            name = pool.pop()
            if name.casefold() not in self.taken:
                self.taken.add(name.casefold())
                return name
        return ""

    def shuffled(self, names: list[str]) -> list[str]:
        self.rng.shuffle(names)
        return names


def draw_regions(terrain: Mapping[Hex, str]) -> list[list[Hex]]:
    """The map's regions (app ruling A27): from the first hex in [q, r] order not yet in a
    region, its region grows breadth-first (neighbours in ruling M1's order) through
    tiles of its terrain not yet in one, to at most `REGION_SIZE` tiles; and so on until
    every tile is in one. Each region's hexes in [q, r] order, the regions in the order of
    their first hex."""
    placed: set[Hex] = set()
    regions = []
    for start in sorted(terrain):
        if start in placed:
            continue
        region, frontier = [start], deque([start])
        placed.add(start)
        while frontier and len(region) < REGION_SIZE:
            for n in neighbours(frontier.popleft()):
                if n in terrain and n not in placed and terrain[n] == terrain[start]:
                    region.append(n)
                    placed.add(n)
                    frontier.append(n)
                    if len(region) == REGION_SIZE:
                        break
        regions.append(sorted(region))
    return regions


def make_gazetteer(hexmap: Json, seed: int, kingdoms: Iterable[str] = ()) -> Json:
    """The gazetteer of a campaign on this map (a campaign file's `map`) with this seed:
    a name for each region and one kept for a settlement on each tile an army may enter,
    all unique and none of them one of the `kingdoms`' names. Deterministic."""
    terrain = {(t["hex"][0], t["hex"][1]): str(t["terrain"]) for t in hexmap.get("tiles", [])}
    rng = random.Random(f"mighty kingdoms place names {seed}")
    names = _NamePool(rng, kingdoms)
    roots = _roots()
    ways = {
        kind: [names.shuffled(_fills(p, roots)) for p in patterns]
        for kind, patterns in _REGION_PATTERNS.items()
    }
    spare = names.shuffled([f"the {t} of {r}" for t in ("Reaches", "Marches") for r in roots])
    regions = [
        {"name": names.region(ways.get(terrain[r[0]], []), spare), "hexes": [list(h) for h in r]}
        for r in draw_regions(terrain)
    ]
    short, long = names.shuffled(_settlement_names()), list[str]()
    settlements = {}
    for h in sorted(terrain):
        if terrain[h] in ARMY_TERRAIN:
            if not short and not long:
                long = names.shuffled(_long_settlement_names())
            settlements[hex_key(h)] = names.draw(short, long)
    return {"regions": regions, "settlements": settlements, "settled": [], "units": {}}


def hex_key(h: Sequence[int]) -> str:
    """A hex as the gazetteer's keys hold it: "q,r"."""
    return f"{h[0]},{h[1]}"


def all_names(gazetteer: Json) -> list[str]:
    """Every name the gazetteer gives: its regions', its settlements', its units'."""
    return [
        *(r["name"] for r in gazetteer.get("regions", [])),
        *gazetteer.get("settlements", {}).values(),
        *gazetteer.get("units", {}).values(),
    ]


# --- Settlements, found in a campaign file ----------------------------------------------------

# The events that say a settlement stands on a tile: from then on the tile is called by it.
_SETTLING = {EventType.CAPITAL_FOUNDED, EventType.BUILT, EventType.CAPITAL_NAMED, EventType.RAZED}


def settled(tiles: Iterable[Any] = (), events: Iterable[Any] = ()) -> frozenset[Hex]:
    """The tiles that hold a settlement (`tiles` of a campaign file) or have held one
    since the campaign began (its `events`): a place keeps its settlement's name once it
    has one, razed or not."""
    found: list[object] = []
    for tile in tiles:
        if isinstance(tile, Mapping) and tile.get("settlement"):
            found.append(tile.get("hex"))
    for event in events:
        if not isinstance(event, Mapping):
            continue
        kind = event.get("type")
        if kind in _SETTLING or (kind == EventType.EXPLORED and event.get("settlement")):
            found.append(event.get("hex"))
        elif kind == EventType.SETTLEMENTS_PLACED and isinstance(event.get("settlements"), Mapping):
            for hexes in event["settlements"].values():
                found.extend(hexes if isinstance(hexes, list) else ())
    return frozenset(h for h in map(_as_hex, found) if h is not None)


def record_settled(gazetteer: Json, data: Mapping[str, Any]) -> bool:
    """Add to the gazetteer's `settled` the tiles the campaign file `data` has a settlement
    on, or had one on (`settled`); whether it changed."""
    before = set(gazetteer.get("settled", []))
    found = {hex_key(h) for h in settled(data.get("tiles") or (), data.get("events") or ())}
    if found <= before:
        return False
    gazetteer["settled"] = sorted(before | found)
    return True


# --- Reading the names ------------------------------------------------------------------------

_ORDINALS = {1: "st", 2: "nd", 3: "rd"}


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else _ORDINALS.get(n % 10, 'th')}"


def possessive(name: str) -> str:
    """Aldermark's, the Red Elves'."""
    return f"{name}'" if name.endswith("s") else f"{name}'s"


HEX = re.compile(r"(?:\b(at|in) )?\[(-?\d+), (-?\d+)\]")


class Names(Mapping[str, str]):
    """How pages and messages name a campaign's kingdoms, places and units. As a mapping,
    the kingdoms' names by their ids; `place`, `at`, `unit` and `said` name the rest.
    `settled`: the tiles called by their settlement's name (see `settled`)."""

    def __init__(
        self,
        kingdoms: Mapping[str, str] | None = None,
        gazetteer: Json | None = None,
        *,
        settled: Iterable[Hex] = (),
        file: Mapping[str, Any] | None = None,
    ) -> None:
        self.kingdoms = dict(kingdoms or {})
        self._said: Json = gazetteer or {}  # what `fingerprint` digests, as given
        self._settled_too = frozenset(settled)
        self._file: Mapping[str, Any] = file or {}  # whose settlements are found (`of`)

    @classmethod
    def of(
        cls, data: Mapping[str, Any] | None, gazetteer: Json | None, kingdoms: Mapping[str, str]
    ) -> "Names":
        """The names for reading the campaign file `data` (its tiles and events are read
        for the settlements they hold at the first place named: a page that names no
        place never scans them)."""
        return cls(kingdoms, gazetteer, file=data)

    def seeing(self, events: Iterable[Any]) -> "Names":
        """These names, with the settlements these events found or built as well."""
        more = copy.copy(self)
        more.settled = self.settled | settled((), events)
        return more

    # What the gazetteer says, read at the first name asked of it.
    @cached_property
    def settlements(self) -> dict[Hex, str]:
        return {_key_hex(key): name for key, name in self._said.get("settlements", {}).items()}

    @cached_property
    def regions(self) -> dict[Hex, str]:
        return {
            (h[0], h[1]): region["name"]
            for region in self._said.get("regions", [])
            for h in region["hexes"]
        }

    @cached_property
    def given(self) -> dict[str, str]:
        return dict(self._said.get("units", {}))

    @cached_property
    def settled(self) -> frozenset[Hex]:
        """The tiles called by their settlement's name: those given, those the campaign
        file holds or held a settlement on (`settled`), and those the gazetteer has seen
        settled."""
        found = settled(self._file.get("tiles") or (), self._file.get("events") or ())
        seen = {_key_hex(k) for k in self._said.get("settled", [])}
        return self._settled_too | found | seen

    # The mapping: the kingdoms' names.
    def __getitem__(self, kingdom: str) -> str:
        return self.kingdoms[kingdom]

    def __iter__(self) -> Iterator[str]:
        return iter(self.kingdoms)

    def __len__(self) -> int:
        return len(self.kingdoms)

    def fingerprint(self) -> str:
        """A short digest of every name these say: what a picture drawn with them is kept
        under (a renamed place or unit draws it anew)."""
        said = [self.kingdoms, self._said, sorted(self.settled)]
        return hashlib.sha256(json.dumps(said, sort_keys=True).encode()).hexdigest()[:16]

    def kingdom(self, kingdom: object) -> str:
        if str(kingdom) == HORDE and HORDE not in self.kingdoms:
            return HORDE_NAME
        return self.kingdoms.get(str(kingdom), str(kingdom))

    # Places.
    def settlement(self, h: Sequence[int]) -> str:
        """The name kept for a settlement on the tile (its coordinates if it has none)."""
        found = _as_hex(h)
        if found is None:
            return str(h)
        return self.settlements.get(found) or self.region(h)

    def region(self, h: Sequence[int]) -> str:
        found = _as_hex(h)
        if found is None:
            return str(h)
        return self.regions.get(found) or hex_label(found)

    def is_settlement(self, h: Sequence[int]) -> bool:
        """Whether the tile is called by its settlement's name (else by its region's)."""
        found = _as_hex(h)
        return found is not None and found in self.settled and found in self.settlements

    def place(self, h: Sequence[int], *, picking: bool = False) -> str:
        """A tile in words: its settlement's name if one stands (or stood) there, else its
        region's ("Harrowby", "the Greywood"). Where a player picks a tile (`picking`), a
        region's tile has its coordinates too, to tell it from the region's others ("the
        Greywood [2, 1]")."""
        found = _as_hex(h)
        if found is not None and self.is_settlement(found):
            return self.settlements[found]
        region = self.region(h)
        if picking and found is not None and found in self.regions:
            return f"{region} {hex_label(found)}"
        return region

    def at(self, h: Sequence[int], *, picking: bool = False) -> str:
        """The tile where something is: "at Harrowby", "in the Greywood" (and with
        `picking`, its coordinates: see `place`)."""
        found = _as_hex(h)
        if found is not None and not self.is_settlement(found) and found in self.regions:
            return f"in {self.place(h, picking=picking)}"
        return f"at {self.place(h)}"

    def places(self) -> list[str]:
        """Every place a page may say, in alphabetical order: the regions, and the
        settlements that stand or stood."""
        settled = {self.settlements[h] for h in self.settled if h in self.settlements}
        return sorted(set(self.regions.values()) | settled, key=str.casefold)

    def route(self, start: Sequence[int], end: Sequence[int]) -> str:
        """A move in words: "from Harrowby to the Greywood", or "within the Greywood" for
        one that stays in a region, between tiles without a settlement."""
        there, here = self.place(start), self.place(end)
        if there == here and not self.is_settlement(start) and not self.is_settlement(end):
            return f"within {there}"
        return f"from {there} to {here}"

    # Units.
    def owner(self, unit: object) -> str | None:
        """The kingdom a unit's id says it belongs to ("aldermark-2" → "aldermark")."""
        head = str(unit).rsplit("-", 1)[0]
        return head if head in self.kingdoms else None

    def unit(self, unit: object, *, whose: bool = False) -> str:
        """A unit by its name: the one its player gave it, with its kingdom if `whose`
        ("the Iron Host (Aldermark)"), else its kingdom's and its number's ("Aldermark's
        1st army", "Aldermark's 2nd ship")."""
        given = self.given.get(str(unit))
        owner = self.owner(unit)
        if given:
            return f"{given} ({self.kingdoms[owner]})" if whose and owner else given
        return self.default_unit(unit)

    def short(self, unit: object) -> str:
        """A unit by its name where its kingdom is said already: the name its player gave
        it, else "1st army", "2nd ship"."""
        return self.given.get(str(unit)) or self._numbered(unit)

    def default_unit(self, unit: object) -> str:
        """A unit by its kingdom's name and its number: "Aldermark's 1st army"; the horde's
        by its number: "the 3rd marauder army" (option marauders)."""
        owner = self.owner(unit)
        marauder = MARAUDER_ID.fullmatch(str(unit))
        if owner is None and marauder:
            return f"the {ordinal(int(marauder[1]))} marauder army"
        if owner is None:
            return str(unit)
        return f"{possessive(self.kingdoms[owner])} {self._numbered(unit)}"

    def _numbered(self, unit: object) -> str:
        """A unit by its number: "1st army" for "aldermark-1", "2nd ship" for "aldermark-s2"."""
        owner = self.owner(unit)
        if owner is None:
            return str(unit)
        number = str(unit)[len(owner) + 1 :]
        kind = "ship" if number.startswith("s") else "army"
        digits = number.removeprefix("s")
        return f"{ordinal(int(digits)) if digits.isdigit() else digits} {kind}"

    def units(self, units: Iterable[object], *, whose: bool = False) -> list[str]:
        return [self.unit(u, whose=whose) for u in units]

    # Messages.
    def said(self, message: str) -> str:
        """An engine's message in names: each hex ("[2, 1]", "at [2, 1]") as its place,
        each unit's id ("Army aldermark-1", "aldermark-s1") as its name, each kingdom's
        id as its name."""
        message = HEX.sub(self._hex_said, message)
        if self.kingdoms:
            ids = "|".join(re.escape(i) for i in sorted(self.kingdoms, key=len, reverse=True))
            unit = rf"(?:\b(?:[Aa]rmy|[Ss]hip) )?(?<![\w-])((?:{ids})-s?\d+)(?![\w-])"
            message = re.sub(unit, lambda m: self.unit(m[1]), message)
            kingdom = rf"(?<![\w-])({ids})(?![\w-])"
            message = re.sub(kingdom, lambda m: self.kingdoms[m[1]], message)
        return message[:1].upper() + message[1:]  # a place's or a unit's name may begin it

    def _hex_said(self, found: re.Match[str]) -> str:
        h = (int(found[2]), int(found[3]))
        return self.at(h) if found[1] else self.place(h)


def _key_hex(key: str) -> Hex:
    q, r = key.split(",")
    return (int(q), int(r))


def _as_hex(value: object) -> Hex | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        q, r = value
        if isinstance(q, int) and isinstance(r, int):
            return (q, r)
    return None
