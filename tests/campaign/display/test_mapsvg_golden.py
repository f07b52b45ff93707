"""The map drawn byte for byte as it was: a whole campaign of three kingdoms played by the
bots with the optional rules of part A on (towers, fortified capitals and fortresses, contested
hexes, moves, ships), its map drawn at every eighth file, plus a viewer's overlay and the
legend, hashed together. Moving the drawing code between modules must not change a byte;
a change meant to be seen is checked by eye, and then its new digest replaces GOLDEN."""

import hashlib
import random

from campaign.display.mapsvg.legend import legend_items
from campaign.display.mapsvg.orders import Mark, Move, Pick
from campaign.display.mapsvg.render import render_map
from campaign.display.mapsvg.scene import KingdomLook
from campaign.gazetteer import Names
from campaign.rules.mapgen import generate_map
from campaign.rules.options import OPTIONS
from campaign.rules.simulation import campaign_files, new_campaign

SEED = 10  # its towers rise early and its kingdoms meet: every layer is drawn
GOLDEN = "1eed5189617e8d1b1a8f2e6cbe0c64a24385b4230397083a9cc602371c7f763f"
LOOKS = {
    "red": KingdomLook("Red Elves", "#c0392b", "E"),
    "blue": KingdomLook("Blue Dwarfs", "not a colour", ""),
}


# The options the digest was taken with: each option the bots play takes dice, so another
# plays another campaign (an option that draws on the map adds itself, checked by eye).
DRAWN_WITH = ("army_limits", "wizards", "common_deck", "sieges")


def drawings() -> list[str]:
    assert set(DRAWN_WITH) <= {row.name for row in OPTIONS if row.switch}
    hexmap = generate_map(3, SEED, 60)
    data = new_campaign(3, SEED, hexmap, battles="tabletop", switches=DRAWN_WITH)
    files = list(campaign_files(data, random.Random(SEED), hexmap))
    drawn = [render_map(file, kingdoms=LOOKS) for file in files[::8]]
    last = files[-1]
    a, b, c = (tuple(tile["hex"]) for tile in last["map"]["tiles"][:3])
    drawn.append(
        render_map(
            last,
            kingdoms={},
            names=Names({"red": "Rouge"}),
            focus=[a, b],
            picks=[Pick(a, "Here <&>", "/go?a=1&b=2", "unit", {"hx-post": "/go"})],
            moves=[Move("red-1", "red", a, b, planned=True), Move("blue-2", "blue", b, c)],
            marks=[Mark(b, "supplied", "supplied"), Mark(c, "cut-off", "cut off")],
        )
    )
    drawn += [item.label + item.svg for item in legend_items()]
    return drawn


def test_the_map_is_drawn_byte_for_byte_as_before():
    digest = hashlib.sha256("\n".join(drawings()).encode()).hexdigest()
    assert digest == GOLDEN
