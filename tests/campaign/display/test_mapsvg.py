"""The map page's SVG, read the way a player reads the map: a hex for every tile, who holds
what, where the settlements and units are, what is contested, last month's moves, and the
words behind every hex. No database: the map is drawn from a campaign file alone."""

import re
import xml.etree.ElementTree as ET

from campaign.display.mapsvg.legend import LegendItem, legend_items
from campaign.display.mapsvg.render import render_map
from campaign.display.mapsvg.scene import KingdomLook
from campaign.gazetteer import Names
from campaign.rules.hexmap import map_to_json
from campaign.rules.mapgen import generate_map
from tests.rules.casebook import Hex, Json, army, make_map, position, ship, tile

NS = {"svg": "http://www.w3.org/2000/svg"}
SVG = "{http://www.w3.org/2000/svg}"
RED = KingdomLook(name="Red Elves", colour="#c0392b", heraldry="E")
BLUE = KingdomLook(name="Blue Dwarfs", colour="#2e6fd1", heraldry="D")
LOOKS = {"red": RED, "blue": BLUE}


def draw(data: Json, looks: dict[str, KingdomLook] = LOOKS) -> ET.Element:
    return ET.fromstring(render_map(data, kingdoms=looks))


def hex_group(root: ET.Element, q: int, r: int) -> ET.Element:
    found = root.find(f".//svg:g[@id='hex-{q}_{r}']", NS)
    assert found is not None, f"no hex group for [{q}, {r}]"
    return found


def classes(element: ET.Element) -> set[str]:
    return set(element.get("class", "").split())


def children(group: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in group.iter() if cls in classes(e) and e is not group]


def title(group: ET.Element) -> str:
    found = group.find("svg:title", NS)
    assert found is not None
    assert found.text is not None
    return found.text


def token(root: ET.Element, unit_id: str) -> ET.Element:
    found = [
        e for e in root.iter(f"{SVG}g") if e.get("data-unit") == unit_id and "unit" in classes(e)
    ]
    assert len(found) == 1, f"{len(found)} tokens for {unit_id}"
    return found[0]


def tokens_at(root: ET.Element, q: int, r: int) -> list[ET.Element]:
    layer = root.find(f".//svg:g[@class='hex-units'][@data-hex='{q},{r}']", NS)
    return [] if layer is None else [e for e in layer if "unit" in classes(e)]


def label(element: ET.Element) -> str:
    return "".join(element.find(".//svg:text", NS).itertext())  # type: ignore[union-attr]


def moved(unit_id: str, start: Hex, end: Hex, *, year: int = 1, month: int = 1) -> Json:
    return {
        "year": year,
        "season": "summer",
        "month": month,
        "step": "resolution",
        "type": "moved",
        "unit": unit_id,
        "kingdom": unit_id.rsplit("-", 1)[0],
        "from": list(start),
        "to": list(end),
    }


def arrows(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter(f"{SVG}g") if "move" in classes(e)]


# --- Hexes ----------------------------------------------------------------------------------


def test_every_map_tile_is_one_hex_group_with_its_coordinates():
    """A radius-2 map has 19 tiles: 19 hex groups, each with data-hex "q,r" and id
    "hex-q_r", and nothing else carries the class "hex"."""
    data = position(map=make_map(2))
    root = draw(data)
    groups = [g for g in root.iter(f"{SVG}g") if "hex" in classes(g)]
    wanted = {f"{t['hex'][0]},{t['hex'][1]}" for t in data["map"]["tiles"]}
    assert len(groups) == 19
    assert {g.get("data-hex") for g in groups} == wanted
    for g in groups:
        q, r = g.get("data-hex", "").split(",")
        assert g.get("id") == f"hex-{q}_{r}"


def test_the_svg_is_one_accessible_image_with_no_script():
    """The root is an <svg> with its own role (not "img") and a label naming the campaign; no
    script, and nothing is loaded from outside (no href but to its own <defs>)."""
    svg = render_map(position(), kingdoms=LOOKS)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("role") is None
    assert "Casebook" in root.get("aria-label", "")
    assert root.find(".//svg:script", NS) is None
    assert "<script" not in svg
    assert "javascript:" not in svg
    assert re.findall(r"url\((?!#)", svg) == []


def test_the_viewbox_fits_every_hex_and_coordinates_have_one_decimal():
    """Every corner of every hex lies inside the viewBox, and no number in a polygon has
    more than one decimal."""
    root = draw(position(map=make_map(4)))
    left, top, width, height = map(float, root.get("viewBox", "").split())
    for polygon in root.iter(f"{SVG}polygon"):
        for point in polygon.get("points", "").split():
            x, y = point.split(",")
            assert re.fullmatch(r"-?\d+(\.\d)?", x)
            assert re.fullmatch(r"-?\d+(\.\d)?", y)
            assert left <= float(x) <= left + width
            assert top <= float(y) <= top + height


def test_each_terrain_has_its_fill_and_its_marks():
    """Forest, mountains, marsh, lake and ocean hexes are filled with their own pattern
    (colour plus tree, peak, reed or wave marks), defined in the SVG's <defs>."""
    terrains = {(1, 0): "forest", (0, 1): "mountains", (-1, 0): "marsh", (0, -1): "lake"}
    terrains[(2, 0)] = "ocean"
    root = draw(position(map=make_map(2, terrain=terrains)))
    pattern_ids = {p.get("id") for p in root.iter(f"{SVG}pattern")}
    fills = {}
    for (q, r), terrain in [*terrains.items(), ((0, 0), "plains")]:
        group = hex_group(root, q, r)
        assert terrain in classes(group)
        (polygon,) = children(group, "terrain")
        fill = polygon.get("fill", "")
        pattern = re.match(r"url\(#([^)]+)\) (#[0-9a-f]{6})$", fill)
        assert pattern is not None, fill
        assert pattern.group(1) in pattern_ids
        fills[terrain] = fill
    assert len(set(fills.values())) == 6


def test_river_bridge_start_and_water_edge_are_drawn():
    """A river tile has a river line, a bridge tile a bridge mark, a start tile a dashed
    outline, and a water edge is a thick line between its two hexes."""
    data = position(
        map=make_map(2, river=[(0, 0), (1, 0)], bridge=[(1, 0)], start=[(-1, 0)],
                     water_edges=[((0, 1), (1, 1))]),
    )  # fmt: skip
    root = draw(data)
    assert children(hex_group(root, 0, 0), "river")
    assert children(hex_group(root, 1, 0), "bridge")
    assert not children(hex_group(root, 0, 1), "river")
    (start,) = children(hex_group(root, -1, 0), "start")
    assert start.get("stroke-dasharray")
    (edge,) = [e for e in root.iter(f"{SVG}line") if "water-edge" in classes(e)]
    assert edge.get("data-hexes") == "0,1 1,1"
    assert float(edge.get("stroke-width", "0")) >= 4


def test_unexplored_land_is_shaded_and_explored_tiles_carry_their_owners_colour():
    """[0, 0] is Red's, [1, 0] Blue's; [-1, 0] is unexplored land and [2, 0] ocean. The
    unexplored hex has a grey overlay; the ocean has none; each explored hex is outlined
    and tinted in its owner's colour and has no overlay."""
    data = position(
        map=make_map(2, terrain={(2, 0): "ocean"}),
        tiles=[tile((0, 0), "red"), tile((1, 0), "blue")],
    )
    root = draw(data)
    (shade,) = children(hex_group(root, -1, 0), "shade")
    assert shade.get("fill-opacity")
    assert float(shade.get("fill-opacity", "1")) < 1
    assert "unexplored" in classes(hex_group(root, -1, 0))
    assert not children(hex_group(root, 2, 0), "shade")
    for (q, r), look in (((0, 0), RED), ((1, 0), BLUE)):
        group = hex_group(root, q, r)
        assert "explored" in classes(group)
        assert not children(group, "shade")
        (owner,) = children(group, "owner")
        assert owner.get("stroke") == look.colour
        assert owner.get("fill") == look.colour


def test_settlements_and_the_capital_have_their_own_symbols_and_the_owners_letter():
    """Red holds a village, a city, a fortress and its capital (a city); Blue a city. Each
    has its symbol, only the capital is marked capital, and each shows its owner's letter."""
    data = position(
        tiles=[
            tile((0, 0), "red", "city"),
            tile((1, 0), "red", "village"),
            tile((0, 1), "red", "fortress"),
            tile((-1, 1), "red", "city"),
            tile((2, -2), "blue", "city"),
            tile((-1, 0), "red"),
        ],
        capitals={"red": (0, 0)},
    )
    root = draw(data)
    expected = {
        (0, 0): ("capital", "E"),
        (1, 0): ("village", "E"),
        (0, 1): ("fortress", "E"),
        (-1, 1): ("city", "E"),
        (2, -2): ("city", "D"),
    }
    for (q, r), (kind, letter) in expected.items():
        (settlement,) = children(hex_group(root, q, r), "settlement")
        assert kind in classes(settlement), (q, r)
        assert label(settlement) == letter
    assert not children(hex_group(root, -1, 0), "settlement")
    assert len(children(root, "capital")) == 1


# --- Units --------------------------------------------------------------------------------


def test_each_army_and_ship_has_a_token_with_its_number():
    """red-3 and blue-1 stand in [1, 0], red-s2 sails the ocean at [2, 0]: three tokens,
    an army token each at [1, 0], side by side, each showing its owner's letter and
    number, and a ship token (a boat) at [2, 0]."""
    data = position(
        map=make_map(2, terrain={(2, 0): "ocean"}),
        armies=[army("red-3", (1, 0)), army("blue-1", (1, 0), upright=False)],
        ships=[ship("red-s2", (2, 0))],
    )
    root = draw(data)
    units = [e for e in root.iter(f"{SVG}g") if "unit" in classes(e)]
    assert len(units) == 3
    red, blue = tokens_at(root, 1, 0)
    assert red.get("data-unit") == "red-3"
    assert "army" in classes(red)
    assert blue.get("data-unit") == "blue-1"
    assert "army" in classes(blue)
    assert label(red) == "E3"
    assert label(blue) == "D1"
    assert red.get("transform") != blue.get("transform")  # side by side, not stacked
    (boat,) = tokens_at(root, 2, 0)
    assert "ship" in classes(boat)
    assert label(boat) == "E2"


def test_a_unit_on_its_side_lies_down():
    """blue-1 is on its side: its token is turned 90 degrees and styled "lying";
    red-3 stands upright and is not turned."""
    data = position(armies=[army("red-3", (1, 0)), army("blue-1", (1, 0), upright=False)])
    root = draw(data)
    lying, upright = token(root, "blue-1"), token(root, "red-3")
    assert "lying" in classes(lying)
    assert "upright" not in classes(lying)
    assert any("rotate(90)" in e.get("transform", "") for e in lying.iter())
    assert "upright" in classes(upright)
    assert not any("rotate" in e.get("transform", "") for e in upright.iter())


def test_a_ship_on_its_side_lies_down_too():
    """A ship on its side is drawn lying, like an army."""
    data = position(
        map=make_map(2, terrain={(2, 0): "ocean"}), ships=[ship("red-s1", (2, 0), upright=False)]
    )
    assert "lying" in classes(token(draw(data), "red-s1"))


def test_a_defending_army_shows_a_shield():
    """red-1 was ordered to defend: its token carries a shield mark; red-2's does not."""
    data = position(armies=[army("red-1", (0, 0), defending=True), army("red-2", (1, 0))])
    root = draw(data)
    assert children(token(root, "red-1"), "defend")
    assert not children(token(root, "red-2"), "defend")


def test_a_tile_with_units_of_two_kingdoms_is_contested():
    """Red and Blue armies share [1, 0]: it is ringed and marked contested. Two Red armies
    in [0, 0] are no contest."""
    data = position(
        armies=[
            army("red-1", (0, 0)),
            army("red-2", (0, 0)),
            army("red-3", (1, 0)),
            army("blue-1", (1, 0)),
        ]
    )
    root = draw(data)
    contested = hex_group(root, 1, 0)
    assert "contested" in classes(contested)
    assert children(contested, "contested")
    assert "contested by Red Elves and Blue Dwarfs" in title(contested)
    calm = hex_group(root, 0, 0)
    assert "contested" not in classes(calm)
    assert len(tokens_at(root, 0, 0)) == 2


def test_a_ship_and_an_army_of_two_kingdoms_also_contest():
    """A Blue ship in a coastal tile with a Red army: contested."""
    data = position(
        map=make_map(2, terrain={(2, 0): "ocean"}, coast=[(1, 0)]),
        armies=[army("red-1", (1, 0))],
        ships=[ship("blue-s1", (1, 0))],
    )
    assert "contested" in classes(hex_group(draw(data), 1, 0))


def test_many_units_in_one_hex_each_have_their_own_place():
    """Eight Red armies in [0, 0]: eight tokens, no two in the same place."""
    data = position(armies=[army(f"red-{i}", (0, 0)) for i in range(1, 9)])
    placed = [t.get("transform") for t in tokens_at(draw(data), 0, 0)]
    assert len(placed) == 8
    assert len(set(placed)) == 8


# --- Last month's moves ---------------------------------------------------------------------


def test_last_months_moves_are_arrows_and_older_ones_are_not():
    """At the orders step of month 3, the moves of month 2 are arrows (red-1 from [0, 0] to
    [1, 0], blue-1 from [-1, 0] to [-1, 1]); red-1's move of month 1 is not."""
    data = position(
        clock=(1, "summer", 3, "orders"),
        armies=[army("red-1", (1, 0)), army("blue-1", (-1, 1))],
        events=[
            moved("red-1", (-1, 0), (0, 0), month=1),
            moved("red-1", (0, 0), (1, 0), month=2),
            moved("blue-1", (-1, 0), (-1, 1), month=2),
        ],
    )
    root = draw(data)
    drawn = {a.get("data-unit", ""): a for a in arrows(root)}
    assert sorted(drawn) == ["blue-1", "red-1"]
    assert len(arrows(root)) == 2
    assert title(drawn["red-1"]) == "Red Elves' 1st army moved from [0, 0] to [1, 0]"
    line = next(e for e in drawn["red-1"].iter(f"{SVG}line") if e.get("marker-end"))
    assert line.get("stroke") == RED.colour
    marker_id = re.fullmatch(r"url\(#(.+)\)", line.get("marker-end", ""))
    assert marker_id is not None
    assert root.find(f"svg:defs/svg:marker[@id='{marker_id.group(1)}']", NS) is not None
    # The arrow runs from [0, 0] (left) to [1, 0] (right).
    assert float(line.get("x1", "0")) < float(line.get("x2", "0"))


def test_moves_of_the_clocks_month_are_shown_once_resolved():
    """At the battles step of month 2, month 2's moves are drawn, month 1's are not."""
    data = position(
        clock=(1, "summer", 2, "battles"),
        events=[moved("red-1", (-1, 0), (0, 0), month=1), moved("red-1", (0, 0), (1, 0), month=2)],
    )
    (arrow,) = arrows(draw(data))
    assert title(arrow) == "Red Elves' 1st army moved from [0, 0] to [1, 0]"


def test_no_arrows_at_the_first_orders_of_a_year():
    """At the orders step of month 1 of year 2 the last summer's moves are old news."""
    data = position(clock=(2, "summer", 1, "orders"), events=[moved("red-1", (0, 0), (1, 0))])
    assert arrows(draw(data)) == []


def test_in_winter_the_last_summer_months_moves_are_shown():
    """In winter of year 1, the moves of the last summer month (6) are drawn."""
    data = position(
        clock=(1, "winter", 0, "build"),
        events=[moved("red-1", (0, 0), (1, 0), month=5), moved("red-2", (0, 0), (0, 1), month=6)],
    )
    assert [a.get("data-unit") for a in arrows(draw(data))] == ["red-2"]


# --- Words ----------------------------------------------------------------------------------


def test_a_hex_title_says_what_is_there():
    """[2, -1] is a forest with a river, Red's city, with red-3 upright and blue-1 on its
    side in it: its title says all of that in words."""
    data = position(
        map=make_map(3, terrain={(2, -1): "forest"}, river=[(2, -1)]),
        tiles=[tile((2, -1), "red", "city")],
        armies=[army("red-3", (2, -1)), army("blue-1", (2, -1), upright=False)],
    )
    assert title(hex_group(draw(data), 2, -1)) == (
        "[2, -1] forest, river · Red Elves · city · contested by Red Elves and Blue Dwarfs"
        " · Red Elves' 3rd army (upright), Blue Dwarfs' 1st army (on its side)"
    )


def test_other_hex_titles():
    """An unexplored start tile, a capital with a defending army, an ocean hex with a ship
    carrying an army, and a hex beside a water edge."""
    data = position(
        map=make_map(2, terrain={(2, 0): "ocean"}, start=[(-2, 0)], coast=[(1, 0)],
                     water_edges=[((0, 1), (1, 1))]),
        tiles=[tile((0, 0), "red", "city")],
        capitals={"red": (0, 0)},
        armies=[army("red-1", (0, 0), defending=True), army("blue-2", (2, 0))],
        ships=[ship("blue-s1", (2, 0), carrying="blue-2")],
    )  # fmt: skip
    root = draw(data)
    assert title(hex_group(root, -2, 0)) == "[-2, 0] plains, start tile · unexplored"
    assert title(hex_group(root, 0, 0)) == (
        "[0, 0] plains · Red Elves · capital city · Red Elves' 1st army (upright, defending)"
    )
    assert title(hex_group(root, 2, 0)) == (
        "[2, 0] ocean · Blue Dwarfs' 2nd army (upright, aboard Blue Dwarfs' 1st ship)"
        " · Blue Dwarfs' 1st ship (upright, carrying Blue Dwarfs' 2nd army)"
    )
    assert title(hex_group(root, 1, 0)) == "[1, 0] plains, coast · unexplored"
    assert title(hex_group(root, 0, 1)) == "[0, 1] plains · water edge to [1, 1] · unexplored"


def test_with_the_campaigns_names_a_title_says_the_place_and_its_coordinates_beside():
    """Issue 35: a tile's title names it (its settlement, else its region) with its
    coordinates as a small detail; a unit its player named is said by that name."""
    data = position(
        tiles=[tile((0, 0), "red", "city")],
        armies=[army("red-1", (0, 0)), army("red-2", (1, 0))],
        events=[moved("red-2", (0, 0), (1, 0), month=1)],
        clock=(1, "summer", 2, "orders"),
    )
    gazetteer = {
        "regions": [{"name": "the Greywood", "hexes": [[0, 0], [1, 0]]}],
        "settlements": {"0,0": "Harrowby", "1,0": "Ashford"},
        "units": {"red-2": "the Iron Host"},
    }
    names = Names.of(data, gazetteer, {"red": "Red Elves", "blue": "Blue Dwarfs"})
    root = ET.fromstring(render_map(data, kingdoms=LOOKS, names=names))
    assert title(hex_group(root, 0, 0)) == (
        "Harrowby [0, 0] plains · Red Elves · city · Red Elves' 1st army (upright)"
    )
    assert title(hex_group(root, 1, 0)) == (
        "the Greywood [1, 0] plains · unexplored · the Iron Host (Red Elves) (upright)"
    )
    (arrow,) = arrows(root)
    assert title(arrow) == "the Iron Host (Red Elves) moved from Harrowby to the Greywood"


def test_user_text_is_escaped():
    """A kingdom named <script>alert(1)</script>, a campaign name with quotes and a unit id
    with markup come out as text, never as markup."""
    evil = KingdomLook(name="<script>alert(1)</script>", colour="#2e6fd1", heraldry="<")
    data = position(
        name='"><svg onload=alert(1)>',
        tiles=[tile((0, 0), "blue", "city")],
        armies=[army("blue-<b>1</b>", (0, 0)), army("red-1", (0, 0))],
        events=[moved("blue-<b>1</b>", (1, 0), (0, 0), month=1)],
        clock=(1, "summer", 2, "orders"),
    )
    svg = render_map(data, kingdoms={"red": RED, "blue": evil})
    assert "<script" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svg
    assert "<b>" not in svg
    assert "<svg onload" not in svg
    root = ET.fromstring(svg)  # still well-formed
    assert "<script>alert(1)</script>" in title(hex_group(root, 0, 0))
    assert root.get("aria-label", "").startswith('Map of "><svg onload=alert(1)>')
    assert token(root, "blue-<b>1</b>") is not None
    assert label(token(root, "blue-<b>1</b>")).startswith("<")


def test_a_kingdom_without_a_look_is_drawn_from_the_file():
    """The view passes no look for Blue: its tile still shows, named from the file, in a
    colour of its own, with its name's first letter."""
    data = position(tiles=[tile((0, 0), "blue", "city")])
    root = draw(data, looks={"red": RED})
    group = hex_group(root, 0, 0)
    assert " · Blue · " in title(group)
    (owner,) = children(group, "owner")
    assert re.fullmatch(r"#[0-9a-f]{6}", owner.get("stroke", ""))
    assert owner.get("stroke") != RED.colour
    assert label(children(group, "settlement")[0]) == "B"


def test_a_colour_that_is_not_rrggbb_is_drawn_grey():
    """A look with colour "red;stroke:url(x)" does not reach the SVG as given: Red's tile
    [0, 0] is outlined and tinted in the neutral grey #9a9a9a, its letter still on it."""
    data = position(tiles=[tile((0, 0), "red", "city")])
    bad = KingdomLook(name="Red", colour="red;stroke:url(x)", heraldry="R")
    svg = render_map(data, kingdoms={"red": bad})
    assert "url(x)" not in svg
    group = hex_group(ET.fromstring(svg), 0, 0)
    (owner,) = children(group, "owner")
    assert (owner.get("stroke"), owner.get("fill")) == ("#9a9a9a", "#9a9a9a")
    assert label(children(group, "settlement")[0]) == "R"


# --- Legend and size ---------------------------------------------------------------------


def test_the_legend_explains_terrain_settlements_and_units():
    """legend_items() gives a label and a small, well-formed SVG for every symbol."""
    items = legend_items()
    labels = " ".join(item.label for item in items)
    for word in ("Forest", "Mountains", "Marsh", "Ocean", "River", "Bridge", "Village",
                 "City", "Capital", "Fortress", "Army on its side", "Ship", "Contested",
                 "Unexplored", "Start tile"):  # fmt: skip
        assert word in labels
    ids: list[str] = []
    for item in items:
        assert isinstance(item, LegendItem)
        symbol = ET.fromstring(item.svg)
        assert symbol.tag == f"{SVG}svg"
        ids.extend(e.get("id", "") for e in symbol.iter() if e.get("id"))
    assert len(ids) == len(set(ids))  # one page may hold every symbol


def test_a_1000_hex_map_renders_a_hex_group_per_tile():
    """A generated 1,000-hex map for 8 kingdoms, with an army on each start tile, renders
    with a hex group per tile (its pages' speed is `make bench`'s)."""
    hexmap = generate_map(8, 1, 1000)
    starts = hexmap.start_tiles()
    kingdoms = [f"k{i}" for i in range(len(starts))]
    data = position(
        map=map_to_json(hexmap),
        kingdoms=kingdoms,
        tiles=[tile(h, k, "city") for h, k in zip(starts, kingdoms, strict=True)],
        armies=[army(f"{k}-1", h) for h, k in zip(starts, kingdoms, strict=True)],
    )
    svg = render_map(data, kingdoms={})
    root = ET.fromstring(svg)
    groups = [g for g in root.iter(f"{SVG}g") if "hex" in classes(g)]
    assert len(groups) == len(hexmap.tiles) >= 1000


def test_a_wizards_tower_is_drawn_and_explained_on_its_hex():
    """Option wizards (OA5): the tower's hex carries the class "tower", a tower symbol,
    and a title that says nobody enters it and who may quest there; other hexes none."""
    data = position(options={"wizards": True}, towers=[[1, 0]], map=make_map(2))
    root = draw(data)
    tower = hex_group(root, 1, 0)
    assert "tower" in classes(tower)
    assert len(children(tower, "tower")) == 1
    title = tower.find("svg:title", NS)
    assert title is not None
    assert "a Wizard's tower: nobody enters it" in (title.text or "")
    assert "tower" not in classes(hex_group(root, 0, 0))


def test_with_sieges_a_fortress_and_a_capital_say_fortified_and_a_city_does_not():
    """Option sieges (OA14): siege works are not drawn, but a fortress or a capital of the
    kingdom that controls it says "fortified" on tap; a plain city, or the same map without
    the option, does not."""
    tiles = [
        tile((0, 0), "red", "city"),
        tile((1, 0), "red", "fortress"),
        tile((0, 1), "blue", "city"),
    ]
    for sieges, said in ((True, True), (False, False)):
        data = position(
            options={"sieges": True} if sieges else {},
            map=make_map(2),
            tiles=tiles,
            capitals={"red": (0, 0)},
        )
        root = draw(data)
        titles = {
            h: hex_group(root, *h).findtext("svg:title", "", NS) for h in ((0, 0), (1, 0), (0, 1))
        }
        fortified = {h for h, title in titles.items() if "fortified" in title}
        assert fortified == ({(0, 0), (1, 0)} if said else set())
