"""Every ruling of ../shared/rules/rulings.md that the engine applies so far is named by
at least one test (a test function named `test_<id>_...`, e.g. `test_b4_...`)."""

import re
from pathlib import Path

RULINGS = {
    "M": 8,  # map
    "S": 3,  # setup
    "O": 8,  # orders
    "B": 12,  # battles
    "R": 3,  # reform
    "D": 2,  # dice
    "W": 7,  # winter
    "P": 2,  # scoring
}


def test_every_ruling_is_named_by_a_test():
    source = "\n".join(p.read_text() for p in Path(__file__).parent.rglob("test_*.py"))
    named = {m.upper() for m in re.findall(r"def test_([a-z]\d+)_", source)}
    expected = {f"{letter}{n}" for letter, count in RULINGS.items() for n in range(1, count + 1)}
    assert sorted(expected - named) == []


# The rules of campaign-options.md the engine plays so far: the general rules OG1 to OG7, and
# every rule of parts A, B and C (OA1 to OA15, OW1 to OW15, OB1 to OB7).
OPTION_RULES = {
    *("OG1", "OG2", "OG3", "OG4", "OG5", "OG6", "OG7"),
    *("OA1", "OA2", "OA3", "OA4", "OA5", "OA6", "OA7", "OA8", "OA9", "OA10", "OA11"),
    *("OA12", "OA13", "OA14", "OA15"),
    *("OW1", "OW2", "OW3", "OW4", "OW5", "OW6", "OW7", "OW8"),
    *("OB1", "OB2", "OB3", "OB4", "OB5", "OB6", "OB7"),
    *("OW9", "OW10", "OW11", "OW12", "OW13", "OW14", "OW15"),
}


def test_every_option_rule_the_engine_plays_is_named_by_a_test():
    """A test named `test_oa14_oa15_...` names both rules."""
    source = "\n".join(p.read_text() for p in Path(__file__).parent.rglob("test_*.py"))
    named = {
        rule.upper()
        for prefix in re.findall(r"def test_((?:o[gawb]\d+_)+)", source)
        for rule in prefix.strip("_").split("_")
    }
    assert sorted(OPTION_RULES - named) == []
