"""The engine never reads the events a file already holds: it only adds to them. The winter
page's forecast relies on it (campaign.display.winter.forecast tries the player's plans on
the file without its events, so a long campaign's whole story is neither read nor written
for a forecast). Checked at every call of a whole campaign played by bots with every
option on: the file without its events advances to the same file, with only the new
events."""

import random
from typing import Any

from campaign.rules.engine import advance
from campaign.rules.mapgen import generate_map
from campaign.rules.options import OPTIONS
from campaign.rules.simulation import campaign_files, new_campaign

EVERY_OPTION = tuple(row.name for row in OPTIONS if row.switch)


def test_a_file_advances_the_same_without_the_events_it_holds():
    seed = 4
    hexmap = generate_map(4, seed, 90)
    data = new_campaign(4, seed, hexmap, battles="tabletop", switches=EVERY_OPTION)
    calls = []

    def both_ways(file: Any) -> dict[str, Any]:
        after = advance(file)
        held = len(file.get("events") or [])
        alone = advance({**file, "events": []})
        assert alone == {**after, "events": after["events"][held:]}, file["clock"]
        calls.append(held)
        return after

    final = list(campaign_files(data, random.Random(seed), hexmap, advance=both_ways))[-1]
    assert final["clock"]["season"] == "ended"
    assert max(calls) > 100  # the files tried held a story of their own
