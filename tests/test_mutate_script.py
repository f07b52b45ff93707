"""`make mutate`'s list of equivalent mutants (scripts/mutate, pyproject.toml's
`[tool.mutate] equivalent`): a surviving mutant that an entry names is left out of the
count, one that no entry names is not, and every entry names a function the engine has,
with its reason."""

import importlib
import importlib.machinery
import importlib.util
import inspect
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

BASE_DIR = Path(__file__).resolve().parent.parent

SHOWN = """# campaign.rules.optional.sieges.x_siege_of__mutmut_11: survived
--- campaign/rules/optional/sieges.py
+++ campaign/rules/optional/sieges.py
@@ -12,7 +12,7 @@
             if army.hex == battle.hex and army.kingdom == kingdom_id
         )
         if not defends:
-            continue
+            break
         if campaign.settlement(battle.hex) is Settlement.FORTRESS:
             return Siege(kingdom_id, Works.STONE)
"""
NAME = "campaign.rules.optional.sieges.x_siege_of__mutmut_11"


@pytest.fixture(scope="module")
def mutate() -> ModuleType:
    loader = importlib.machinery.SourceFileLoader("mutate", str(BASE_DIR / "scripts" / "mutate"))
    spec = importlib.util.spec_from_loader("mutate", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def test_a_mutants_change_is_read_from_mutmuts_diff(mutate):
    change = mutate.read_change(SHOWN)
    assert (change.removed, change.added, change.above) == (
        ("continue",),
        ("break",),
        "if not defends:",
    )


@pytest.mark.parametrize(
    ("name", "function"),
    [
        (NAME, "campaign.rules.optional.sieges.siege_of"),
        ("campaign.rules.orders.x__resolve__mutmut_6", "campaign.rules.orders._resolve"),
        (
            "campaign.rules.state.x\u01c1Campaign\u01c1owner__mutmut_2",
            "campaign.rules.state.Campaign.owner",
        ),
    ],
)
def test_a_mutants_function_is_named_from_mutmuts_name(mutate, name, function):
    assert mutate.function_of(name) == function


def test_a_survivor_an_entry_names_is_equivalent_and_another_is_not(mutate):
    entry = {
        "function": "campaign.rules.optional.sieges.siege_of",
        "after": "if not defends:",
        "mutant": "break",
        "why": "one kingdom owns the tile",
    }
    change = mutate.read_change(SHOWN)
    assert mutate.equivalent_of(NAME, change, [entry]) == entry
    # the same change after another line, in another function, or another change: counted
    assert mutate.equivalent_of(NAME, change, [{**entry, "after": "if owner != kingdom:"}]) is None
    assert (
        mutate.equivalent_of(
            NAME, change, [{**entry, "function": "campaign.rules.optional.sieges._card"}]
        )
        is None
    )
    assert mutate.equivalent_of(NAME, change, [{**entry, "mutant": "pass"}]) is None
    # without `after`, any place in the function; "*", any mutant of the function
    without_after = {k: v for k, v in entry.items() if k != "after"}
    assert mutate.equivalent_of(NAME, change, [without_after]) == without_after
    every = {**without_after, "mutant": "*"}
    assert mutate.equivalent_of(NAME, change, [every]) == every


def test_every_listed_equivalent_names_a_function_of_the_engine_and_why(mutate):
    listed = mutate.equivalents(BASE_DIR / "pyproject.toml")
    assert listed
    for entry in listed:
        assert set(entry) <= {"function", "after", "mutant", "why"}, entry
        assert entry["mutant"], entry
        assert len(entry["why"]) > 20, entry
        source = inspect.getsource(found(entry["function"]))
        if "after" in entry:
            assert entry["after"] in source, entry


def found(dotted: str) -> Any:
    """A function (or a class's method) by its dotted name."""
    parts = dotted.split(".")
    for cut in range(len(parts) - 1, 0, -1):
        try:
            thing: Any = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for name in parts[cut:]:
            thing = getattr(thing, name)
        return thing
    raise LookupError(dotted)
