"""The map laid together, layer over layer: `draw_ground` (what every viewer of a snapshot
sees: hexes, shores, water edges, units, last month's arrows), `draw_overlay` (what one
viewer sees over it: planned moves, marks, picks), and `render_map`, the one laid over the
other (`laid_over`)."""

import xml.etree.ElementTree as ET
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from campaign.display.mapsvg.control import (
    draw_contested,
    draw_owner,
    draw_settlement,
    draw_unexplored,
)
from campaign.display.mapsvg.geometry import HALF_WIDTH, LEAST_PX_PER_UNIT, MARGIN, SIZE, centre
from campaign.display.mapsvg.orders import (
    Mark,
    Move,
    Pick,
    draw_marks,
    draw_moves,
    draw_picks,
    last_month_moves,
)
from campaign.display.mapsvg.reading import as_hex, as_text
from campaign.display.mapsvg.scene import (
    KingdomLook,
    Scene,
    map_tiles,
    names_for,
    read_looks,
    read_scene,
)
from campaign.display.mapsvg.terrain import (
    PATTERN_PREFIX,
    draw_shores,
    draw_start,
    draw_terrain,
    draw_water_edges,
    draw_waterways,
    terrain_patterns,
)
from campaign.display.mapsvg.units import draw_units
from campaign.display.mapsvg.words import hex_words
from campaign.display.svg import FONTS, SVG_NS, coordinate, element, title_element
from campaign.gazetteer import Names
from campaign.rules.hexmap import Hex


def render_map(
    data: Mapping[str, Any],
    *,
    kingdoms: Mapping[str, KingdomLook],
    picks: Sequence[Pick] = (),
    moves: Sequence[Move] | None = None,
    focus: Sequence[Hex] = (),
    marks: Sequence[Mark] = (),
    names: Names | None = None,
) -> str:
    """The campaign file's map as one inline SVG string (no script, no external file).

    `kingdoms` maps kingdom ids to how they look; a kingdom of the file without one is drawn
    with its name from the file, a colour of its own and its name's first letter. `picks`
    are the hexes the player may tap now, drawn on top as links. `moves` are the arrows to
    draw; by default the moves of the newest resolved summer month. With `focus`, the
    picture is framed on those hexes (a battle's tile and its neighbours). `marks` are
    outlined above the units (a winter's supply lines). `names`: the campaign's, which
    the titles say places and units by (`campaign.words.names_of`).

    It is `draw_ground` with `draw_overlay` laid over it (`laid_over`): the ground is the
    same for every viewer of a snapshot, so it can be kept once and the overlay drawn anew."""
    ground = draw_ground(
        data, kingdoms=kingdoms, focus=focus, last_moves=moves is None, names=names
    )
    overlay = draw_overlay(
        data, map_hexes(data), kingdoms=kingdoms, picks=picks, moves=moves or (), marks=marks,
        names=names,
    )  # fmt: skip
    return laid_over(ground, overlay)


def draw_ground(
    data: Mapping[str, Any],
    *,
    kingdoms: Mapping[str, KingdomLook],
    focus: Sequence[Hex] = (),
    last_moves: bool = True,
    names: Names | None = None,
) -> str:
    """The map as every viewer sees it: hexes, shores, units, and with `last_moves` the
    arrows of the newest resolved summer month."""
    scene = read_scene(data, kingdoms, names)
    root = _svg(data, scene, focus)
    defs = element(root, "defs")
    terrain_patterns(defs, PATTERN_PREFIX)
    layer = element(root, "g", {"class": "hexes"})
    for h in sorted(scene.terrain, key=lambda h: (h[1], h[0])):
        _draw_hex(layer, h, scene)
    draw_shores(root, scene.terrain)
    draw_water_edges(root, scene.water_edges)
    _draw_segments(root, data, scene)
    # Tokens go above every hex, so that one reaching past its hex's edge is never hidden.
    tokens = element(root, "g", {"class": "units"})
    for h in sorted(scene.units, key=lambda h: (h[1], h[0])):
        x, y = centre(h)
        group = element(tokens, "g", {"class": "hex-units", "data-hex": f"{h[0]},{h[1]}"})
        draw_units(group, x, y, scene.units[h], scene.looks, scene.names)
    if last_moves:
        draw_moves(root, defs, last_month_moves(data), scene.looks, scene.terrain, scene.names)
    return ET.tostring(root, encoding="unicode")


def _draw_segments(root: ET.Element, data: Mapping[str, Any], scene: Scene) -> None:
    """What the optional rules' layers join from tile to tile, drawn from hex centre to hex
    centre, those between two hexes of the map."""
    for marked in scene.optional:
        layer = marked.layer
        if layer.segments is None or layer.draw_segment is None:
            continue
        group = element(root, "g", {"class": f"{layer.option}-segments", "pointer-events": "none"})
        for a, b in layer.segments(data):
            if a in scene.terrain and b in scene.terrain:
                layer.draw_segment(group, *centre(a), *centre(b))


def _svg(data: Mapping[str, Any], scene: Scene, focus: Sequence[Hex]) -> ET.Element:
    """The map's `<svg>` element, framed on the `focus` hexes on the map, else on them all."""
    framed = [h for h in focus if h in scene.terrain] or list(scene.terrain)
    if framed:
        xs = [centre(h)[0] for h in framed]
        ys = [centre(h)[1] for h in framed]
        left, top = min(xs) - HALF_WIDTH - MARGIN, min(ys) - SIZE - MARGIN
        width = max(xs) - min(xs) + 2 * (HALF_WIDTH + MARGIN)
        height = max(ys) - min(ys) + 2 * (SIZE + MARGIN)
    else:
        left, top, width, height = 0.0, 0.0, 1.0, 1.0
    name = as_text(data.get("name")) or "the campaign"
    return ET.Element(
        "svg",
        {
            "xmlns": SVG_NS,
            "class": "campaign-map",
            "viewBox": f"{coordinate(left)} {coordinate(top)} {coordinate(width)} {coordinate(height)}",
            # Never drawn smaller than its own units, so that a village stays about 16 px
            # wide on a phone: a wider map scrolls and pans inside its frame.
            "style": f"min-width: {round(width * LEAST_PX_PER_UNIT)}px",
            # No role: an <svg>'s own (graphics-document, not "img") lets screen readers
            # reach each hex's title; HTML takes no role="group" on it.
            "aria-label": f"Map of {name}: {len(scene.terrain)} hexes, "
            f"{len(scene.explored)} explored; hover or tap a hex for what is on it.",
            "font-family": FONTS,
        },
    )


def _draw_hex(layer: ET.Element, h: Hex, scene: Scene) -> None:
    tile = scene.terrain[h]
    holding = scene.explored.get(h)
    kind = as_text(tile.get("terrain"))
    x, y = centre(h)
    owner = as_text(holding.get("owner")) if holding else ""
    look = scene.looks.get(owner)
    settlement = as_text(holding.get("settlement")) if holding else ""
    capital_of = scene.capitals.get(h)
    capital = capital_of is not None and (capital_of == owner or not owner)
    units = scene.units.get(h, ())
    contested = len({u.kingdom for u in units}) > 1
    classes = ["hex", kind or "unknown"]
    if holding is not None:
        classes.append("explored")
    elif kind != "ocean":
        classes.append("unexplored")
    if contested:
        classes.append("contested")
    classes += [m.layer.hex_class for m in scene.optional if m.layer.hex_class and h in m.hexes]
    group = element(layer, "g", {"class": " ".join(classes), "data-hex": f"{h[0]},{h[1]}"})
    group.set("id", f"hex-{h[0]}_{h[1]}")
    title_element(group, hex_words(h, scene))

    draw_terrain(group, x, y, kind, PATTERN_PREFIX)
    draw_waterways(group, x, y, tile, scene.rivers.get(h, ()))
    if holding is None and kind != "ocean":
        draw_unexplored(group, x, y)
    if holding is not None and look is not None:
        draw_owner(group, x, y, owner, look)
    if tile.get("start"):
        draw_start(group, x, y)
    if settlement or capital:
        settled_by = scene.looks.get(owner or capital_of or "")
        draw_settlement(group, x, y - 10, settlement, settled_by, capital=capital)
    for marked in scene.optional:
        if marked.layer.draw is not None and h in marked.hexes:
            marked.layer.draw(group, x, y)
        if marked.layer.draw_news is not None and h in marked.news:
            marked.layer.draw_news(group, x, y)
    if contested:
        draw_contested(group, x, y)


def map_hexes(data: Mapping[str, Any]) -> frozenset[Hex]:
    """The hexes of the file's map: the only ones an overlay draws on."""
    return frozenset(h for h in (as_hex(t.get("hex")) for t in map_tiles(data)) if h is not None)


def draw_overlay(
    data: Mapping[str, Any],
    on_map: Collection[Hex],
    *,
    kingdoms: Mapping[str, KingdomLook],
    picks: Sequence[Pick] = (),
    moves: Sequence[Move] = (),
    marks: Sequence[Mark] = (),
    names: Names | None = None,
) -> str:
    """What one viewer sees over the ground, as SVG elements to lay over it: `moves` (a
    player's planned arrows), `marks`, then `picks` on top; each only on the map's hexes
    (`on_map`, the file's `map_hexes`)."""
    root = ET.Element("g")
    if moves:
        defs = element(root, "defs")
        looks = read_looks(data, kingdoms)
        draw_moves(root, defs, moves, looks, on_map, names_for(data, looks, names))
    draw_marks(root, [m for m in marks if m.hex in on_map])
    draw_picks(root, [p for p in picks if p.hex in on_map])
    return "".join(ET.tostring(layer, encoding="unicode") for layer in root)


def laid_over(ground: str, overlay: str) -> str:
    """The ground's SVG with the overlay's elements last inside it, so drawn on top."""
    closing = "</svg>"
    if not overlay or not ground.endswith(closing):
        return ground
    return ground[: -len(closing)] + overlay + closing
