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
