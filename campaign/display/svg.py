"""Building SVG with ElementTree, for the map and the might chart: every text from the file
or from users is escaped by ElementTree, never pasted into markup."""

import xml.etree.ElementTree as ET
from collections.abc import Mapping

SVG_NS = "http://www.w3.org/2000/svg"
FONTS = "system-ui, -apple-system, 'Segoe UI', sans-serif"


def coordinate(value: float) -> str:
    """A coordinate rounded to 1 decimal, without a trailing ".0"."""
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def element(parent: ET.Element, tag: str, attrs: Mapping[str, str] | None = None) -> ET.Element:
    return ET.SubElement(parent, tag, dict(attrs) if attrs else {})


def text_element(parent: ET.Element, text: str, attrs: Mapping[str, str]) -> ET.Element:
    made = element(parent, "text", attrs)
    made.text = text
    return made


def title_element(parent: ET.Element, text: str) -> None:
    """A tooltip (and what a screen reader says) for its parent."""
    element(parent, "title").text = text
