"""The units' layer: each army's and ship's token with its owner's letter and number,
upright or on its side, defending or not, laid in a grid on its hex, and the words that
say it."""

import math
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence

from campaign.display.mapsvg.palette import NEUTRAL, OUTLINE
from campaign.display.mapsvg.scene import Look, Unit, unit_number
from campaign.display.svg import coordinate, element, text_element, title_element
from campaign.gazetteer import Names

_ARMY_SHAPE = "M-7.5,-5.5 H7.5 V5.5 H-7.5 Z"
_SHIP_SHAPE = "M-9,-5 H9 Q7,5.5 0,5.5 Q-7,5.5 -9,-5 Z"
_DEFEND_SHAPE = "M-3,-3.5 H3 V0 Q3,2.5 0,4 Q-3,2.5 -3,0 Z"


def draw_unit(
    parent: ET.Element,
    x: float,
    y: float,
    unit: Unit,
    look: Look | None,
    scale: float,
    names: Names,
) -> None:
    colour, ink, letter = (look.colour, look.ink, look.letter) if look else (NEUTRAL, "#111", "")
    kind = "ship" if unit.ship else "army"
    stance = "upright" if unit.upright else "lying"
    transform = f"translate({coordinate(x)},{coordinate(y)})"
    if scale != 1:
        transform += f" scale({scale:.2f})"
    token = element(
        parent,
        "g",
        {"class": f"unit {kind} {stance}", "data-unit": unit.id, "transform": transform},
    )
    title_element(token, _unit_words(unit, names))
    body = element(token, "g", {} if unit.upright else {"transform": "rotate(90)"})
    shape = {
        "d": _SHIP_SHAPE if unit.ship else _ARMY_SHAPE,
        "fill": colour,
        "stroke": OUTLINE,
        "stroke-width": "1.1",
    }
    if not unit.upright:
        shape["stroke-dasharray"] = "2 1.5"
    element(body, "path", shape)
    label = letter + unit_number(unit.id)
    text_element(
        body,
        label,
        {
            "class": "unit-label",
            "y": "2.8",
            "text-anchor": "middle",
            "font-size": "7.5" if len(label) <= 2 else "6",
            "font-weight": "bold",
            "fill": ink,
        },
    )
    if unit.defending:
        element(
            token,
            "path",
            {
                "class": "defend",
                "d": _DEFEND_SHAPE,
                "transform": "translate(7,-6)",
                "fill": "#ffffff",
                "stroke": OUTLINE,
                "stroke-width": "1",
            },
        )


def draw_units(
    parent: ET.Element,
    x: float,
    y: float,
    units: Sequence[Unit],
    looks: Mapping[str, Look],
    names: Names,
) -> None:
    count = len(units)
    columns = 3 if count <= 6 else math.ceil(math.sqrt(2 * count))
    rows = math.ceil(count / columns)
    scale = min(1.0, 3 / columns)
    pitch_x, pitch_y = 19 * scale, 13 * scale
    top = y + 12 - (rows - 1) * pitch_y / 2
    for i, unit in enumerate(units):
        row, column = divmod(i, columns)
        in_row = min(columns, count - row * columns)
        ux = x + (column - (in_row - 1) / 2) * pitch_x
        draw_unit(parent, ux, top + row * pitch_y, unit, looks.get(unit.kingdom), scale, names)


def _unit_details(unit: Unit, names: Names) -> str:
    details = ["upright" if unit.upright else "on its side"]
    if unit.defending:
        details.append("defending")
    if unit.ally:
        details.append(f"allied {unit.ally}")
    if unit.carrying:
        details.append(f"carrying {names.unit(unit.carrying)}")
    if unit.aboard:
        details.append(f"aboard {names.unit(unit.aboard)}")
    return ", ".join(details)


def _unit_words(unit: Unit, names: Names) -> str:
    return f"{names.unit(unit.id, whose=True)} ({_unit_details(unit, names)})"


def unit_list(units: Iterable[Unit], names: Names) -> str:
    """The units in words, each with its details, for a hex's title."""
    return ", ".join(_unit_words(u, names) for u in units)
