"""Where things are on the drawn map: hexes pointy-top, laid out from axial [q, r]
(ruling M1), x growing with q and y with r (southward)."""

import math

from campaign.display.svg import coordinate
from campaign.rules.hexmap import Hex

SIZE = 30.0  # centre to corner of a hex, in SVG user units
LEAST_PX_PER_UNIT = 1.25  # a hex at least 65 px wide, its settlement symbols 16 px
HALF_WIDTH = SIZE * math.sqrt(3) / 2
MARGIN = 6.0

# Pointy-top corners, clockwise from the upper right (y grows downwards).
_CORNERS = tuple(
    (SIZE * math.cos(math.radians(60 * i - 30)), SIZE * math.sin(math.radians(60 * i - 30)))
    for i in range(6)
)

COMPASS = ("east", "south-east", "south", "south-west", "west", "north-west", "north", "north-east")


def centre(h: Hex) -> tuple[float, float]:
    q, r = h
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def direction(start: Hex, end: Hex) -> str:
    """Which way `end` lies from `start` on the drawn map, in compass words ("north-west")."""
    (ax, ay), (bx, by) = centre(start), centre(end)
    angle = math.degrees(math.atan2(by - ay, bx - ax))  # the map's y grows southward
    return COMPASS[round(angle / 45) % 8]


def points(x: float, y: float, scale: float = 1.0) -> str:
    """The corners of a hex centred on (x, y), `scale` times the map's size."""
    return " ".join(
        f"{coordinate(x + dx * scale)},{coordinate(y + dy * scale)}" for dx, dy in _CORNERS
    )


def shared_edge(a: Hex, b: Hex) -> tuple[float, float, float, float]:
    """The ends of the edge between two adjacent hexes."""
    (ax, ay), (bx, by) = centre(a), centre(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    length = math.hypot(bx - ax, by - ay)
    px, py = -(by - ay) / length * SIZE / 2, (bx - ax) / length * SIZE / 2
    return mx - px, my - py, mx + px, my + py
