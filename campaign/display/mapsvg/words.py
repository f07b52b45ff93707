"""What a tap on a hex says: the hex's `<title>`, in the words a player would use for what
is there."""

from collections.abc import Iterable, Mapping

from campaign.display.mapsvg.scene import Look, Scene, as_text
from campaign.display.mapsvg.units import unit_list
from campaign.rules.hexmap import Hex, hex_label

FORTIFIED_WORDS = (
    "fortified: a tabletop battle here while its kingdom's army holds Defend is a siege "
    "assault (option OA14)"
)
TOWER_WORDS = (
    "a Wizard's tower: nobody enters it; a kingdom with a tile next to it may send a hero "
    "on a quest each winter (options OA5, OA6)"
)


def hex_words(h: Hex, scene: Scene) -> str:
    """The hex's `<title>`: what a player would say is there, in words."""
    tile = scene.terrain[h]
    holding = scene.explored.get(h)
    kind = as_text(tile.get("terrain"))
    flags = [f for f in ("river", "coast", "bridge") if tile.get(f)]
    if tile.get("start"):
        flags.append("start tile")
    names = scene.names
    place = names.place(h, picking=True)
    where = place if place.endswith(hex_label(h)) else f"{place} {hex_label(h)}"
    words = [", ".join([f"{where} {kind}", *flags])]
    if scene.water_edges.get(h):
        edges = ", ".join(names.place(n, picking=True) for n in scene.water_edges[h])
        words.append(f"water edge to {edges}")
    owner = as_text(holding.get("owner")) if holding else ""
    if h in scene.towers:
        words.append(TOWER_WORDS)
    elif holding is not None:
        words.append(scene.looks[owner].name if owner in scene.looks else "explored, no owner")
    elif kind != "ocean":
        words.append("unexplored")
    capital_of = scene.capitals.get(h)
    if capital_of is not None and (capital_of == owner or not owner):
        words.append("capital city")
    elif holding is not None and holding.get("settlement"):
        words.append(as_text(holding.get("settlement")))
    fortress = holding is not None and holding.get("settlement") == "fortress"
    if scene.sieges and owner and (fortress or capital_of == owner):
        words.append(FORTIFIED_WORDS)
    units = scene.units.get(h, ())
    contesting = list(dict.fromkeys(u.kingdom for u in units))
    if len(contesting) > 1:
        words.append(f"contested by {_names(contesting, scene.looks)}")
    armies = [u for u in units if not u.ship]
    ships = [u for u in units if u.ship]
    if armies:
        words.append(unit_list(armies, names))
    if ships:
        words.append(unit_list(ships, names))
    return " · ".join(words)


def _names(kingdom_ids: Iterable[str], looks: Mapping[str, Look]) -> str:
    return " and ".join(looks[k].name if k in looks else k for k in kingdom_ids)
