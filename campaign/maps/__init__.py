"""The built-in maps. Each `<name>.json` beside this file holds exactly a campaign file's
`map` object, written by `map_json_text` so that diffs show one tile per line."""

import json
from dataclasses import dataclass
from importlib import resources

from campaign.rules.hexmap import HexMap, map_from_json, map_to_json


@dataclass(frozen=True)
class BuiltinMap:
    title: str
    description: str
    min_kingdoms: int
    max_kingdoms: int


BUILTIN_MAPS: dict[str, BuiltinMap] = {
    "borderlands": BuiltinMap(
        title="The Borderlands",
        description="A small frontier of forests and mountain passes on a bay of the sea.",
        min_kingdoms=2,
        max_kingdoms=3,
    ),
    "river-kingdoms": BuiltinMap(
        title="The River Kingdoms",
        description="Valleys cut by rivers that run down to the sea: hold the bridges, or sail.",
        min_kingdoms=4,
        max_kingdoms=5,
    ),
    "great-continent": BuiltinMap(
        title="The Great Continent",
        description="Wide plains, forests and marshes on a long coast, for a crowded table.",
        min_kingdoms=6,
        max_kingdoms=8,
    ),
}


def load_builtin_map(name: str) -> HexMap:
    """The built-in map called `name`; KeyError if there is none."""
    if name not in BUILTIN_MAPS:
        known = ", ".join(sorted(BUILTIN_MAPS))
        raise KeyError(f"There is no built-in map called {name!r}; the built-in maps are {known}.")
    text = resources.files(__name__).joinpath(f"{name}.json").read_text(encoding="utf-8")
    return map_from_json(json.loads(text))


def map_json_text(hexmap: HexMap) -> str:
    """The map object as the built-in files hold it: one tile and one water edge a line."""
    data = map_to_json(hexmap)
    return "\n".join(
        [
            "{",
            '  "tiles": [',
            *_lines(data["tiles"]),
            "  ],",
            '  "water_edges": [',
            *_lines(data["water_edges"]),
            "  ]",
            "}",
            "",
        ]
    )


def _lines(items: object) -> list[str]:
    assert isinstance(items, list)
    return [
        f"    {json.dumps(item)}{',' if i < len(items) - 1 else ''}" for i, item in enumerate(items)
    ]
