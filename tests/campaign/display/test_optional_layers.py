"""The optional rules' map layers: each option that shows on the map declares its layer in
its own module of campaign/display/optional/, the registry holds it under the option's row
name, and the map's general code never names an option (issue 36)."""

import importlib
import re
from pathlib import Path

from campaign.display import events, mapsvg, optional
from campaign.display.mapsvg.layer import MapLayer
from campaign.display.optional import MAP_LAYERS, map_layers
from campaign.gazetteer import Names
from campaign.rules.options import OPTION_ROWS, OPTIONS
from campaign.rules.vocabulary import EventType

SWITCHES = [row.name for row in OPTIONS if row.switch]
# The optional rules with nothing on the map, and why; every other one has a layer.
NOT_ON_THE_MAP = {
    "army_limits": "its licences and limits are on the army lists and the battle card",
    "common_deck": "its deck is on the battle card",
    "milestones": "its holders are a matter of the standings, not of the map",
    "yearly_event": "a revolt's razed settlements are drawn as any razed tile",
    "glory": "glory and honours are a matter of the standings and the kingdom page",
}
DISPLAY = Path(mapsvg.__file__).parent.parent


def test_every_option_row_on_the_map_has_a_layer_and_every_layer_a_row():
    assert set(MAP_LAYERS) | set(NOT_ON_THE_MAP) == set(SWITCHES)
    assert not set(MAP_LAYERS) & set(NOT_ON_THE_MAP)
    for name, layer in MAP_LAYERS.items():
        assert isinstance(layer, MapLayer)
        assert layer.option == name
        assert OPTION_ROWS[name].switch


# The modules of campaign/display/optional/ that are no option's own: the registry, and
# the declarations of a part of the battle card and of the winter's purchases.
NOT_AN_OPTION = {"__init__", "card", "purchases"}


def option_modules() -> list[str]:
    """The options' own modules in campaign/display/optional/, each named as its row."""
    here = Path(optional.__file__).parent
    return sorted(p.stem for p in here.glob("*.py") if p.stem not in NOT_AN_OPTION)


def test_each_layer_is_declared_by_its_own_options_module():
    modules = option_modules()
    assert set(modules) <= set(SWITCHES)
    assert set(MAP_LAYERS) <= set(modules)
    for name in modules:
        module = importlib.import_module(f"campaign.display.optional.{name}")
        assert getattr(module, "MAP_LAYER", None) is MAP_LAYERS.get(name)


def test_the_map_code_outside_the_options_modules_names_no_option():
    """The general drawing (the mapsvg package, the map's cache and the SVG helpers) walks
    the layers of the options turned on; it never names one."""
    general = [*(DISPLAY / "mapsvg").glob("*.py"), DISPLAY / "mapcache.py", DISPLAY / "svg.py"]
    named = {
        f"{path.relative_to(DISPLAY)}: {name}"
        for path in general
        for name in SWITCHES
        if re.search(rf"\b{name}\b", path.read_text())
    }
    assert named == set()


def test_only_the_layers_of_the_options_turned_on_are_walked_in_the_tables_order():
    every = dict.fromkeys(SWITCHES, True)
    assert [layer.option for layer in map_layers(every)] == [
        name for name in SWITCHES if name in MAP_LAYERS
    ]
    assert map_layers({}) == []
    assert map_layers({name: False for name in SWITCHES}) == []


def test_an_options_events_are_worded_by_its_own_module_and_not_by_the_core_table():
    """The wizards' towers, quests and artefacts are told by campaign/display/optional/
    wizards.py; the core table words none of them, and together they word every type."""
    assert {EventType.TOWER_RAISED, EventType.QUEST, EventType.ARTEFACT_TAKEN} <= set(
        optional.EVENT_WORDINGS
    )
    assert not set(events.CORE_WORDINGS) & set(optional.EVENT_WORDINGS)
    assert set(events.CORE_WORDINGS) | set(optional.EVENT_WORDINGS) == set(EventType)
    quest = {
        "type": "quest", "kingdom": "red", "hero": "Ser Brand", "points": 160,
        "tower": [3, 0], "dice": [4, 5], "result": 5, "outcome": "artefact",
        "artefact": "Brew of Keen-eyeness",
    }  # fmt: skip
    line = events.describe(quest, Names())
    assert "Ser Brand (160 points) went on a quest" in line.text
    assert "rolled 4 + 1 = 5: Brew of Keen-eyeness was found" in line.text
