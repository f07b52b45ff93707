"""What a tap on a hex says: the hex's `<title>`, in the words a player would use for what
is there."""

from collections.abc import Iterable, Mapping

from campaign.display.mapsvg.layer import WordsAt
from campaign.display.mapsvg.reading import as_text
from campaign.display.mapsvg.scene import Look, Scene
from campaign.display.mapsvg.units import unit_list
from campaign.rules.hexmap import Hex, hex_label


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
    said_instead = _optional_words(h, scene, WordsAt.HOLDER)
    if said_instead:
        words += said_instead
    elif holding is not None:
        words.append(scene.looks[owner].name if owner in scene.looks else "explored, no owner")
    elif kind != "ocean":
        words.append("unexplored")
    capital_of = scene.capitals.get(h)
    if capital_of is not None and (capital_of == owner or not owner):
        words.append("capital city")
    elif holding is not None and holding.get("settlement"):
        words.append(as_text(holding.get("settlement")))
    words += _optional_words(h, scene, WordsAt.SETTLEMENT)
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


def _optional_words(h: Hex, scene: Scene, at: WordsAt) -> list[str]:
    """What the optional rules' layers say on the hex, at that place in its title."""
    return [m.hexes[h] for m in scene.optional if m.layer.words_at is at and h in m.hexes]
