"""An optional rule is one module and one row (issue 36): every switch of the options table
has its module in `campaign.rules.optional`, every field a module declares is owned by its
row, and no module of the engine but the rule's own, the registries and the state names an
option."""

import importlib
import re
from pathlib import Path

import pytest

from campaign.rules import optional
from campaign.rules.optional.rule import OptionRow
from campaign.rules.options import OPTION_FIELDS, OPTION_ROWS, OPTIONS

RULES_DIR = Path(__file__).resolve().parents[2] / "campaign" / "rules"
OPTIONAL_DIR = RULES_DIR / "optional"
SWITCHES = [row.name for row in OPTIONS if row.switch]
# What may name every option: the options table, the optional rules' registry of hooks,
# the state the rules add to (whose comments name each field's option module), and the
# vocabulary (OptionName, and the option each event type belongs to).
REGISTRIES = {
    RULES_DIR / "options.py",
    OPTIONAL_DIR / "__init__.py",
    RULES_DIR / "state.py",
    RULES_DIR / "vocabulary.py",
}


def _own_files(name: str) -> set[Path]:
    """The option's own module, or every file of its package."""
    package = OPTIONAL_DIR / name
    if package.is_dir():
        return set(package.rglob("*.py"))
    return {OPTIONAL_DIR / f"{name}.py"}


def test_every_optional_rule_of_the_table_has_its_module_and_is_registered_in_its_order():
    """A switch row with no module, or a module's rule the registry misses, fails."""
    for name in SWITCHES:
        module = importlib.import_module(f"campaign.rules.optional.{name}")
        assert module.RULE.row is OPTION_ROWS[name], name
    assert [rule.row.name for rule in optional.RULES] == SWITCHES


def test_every_module_of_the_optional_package_is_a_registered_rule():
    """A module in campaign/rules/optional/ other than the hooks' own is an option's."""
    names = {p.stem for p in OPTIONAL_DIR.glob("*.py")} | {
        p.name for p in OPTIONAL_DIR.iterdir() if (p / "__init__.py").exists()
    }
    assert names - {"__init__", "rule"} == set(SWITCHES)


def test_every_field_a_rule_declares_is_owned_by_its_row():
    """OPTION_FIELDS holds exactly the fields the rules declare, each by its rule's row
    (a switch of the table); no rule declares a field twice."""
    declared = {
        (where, rule.row.name, key)
        for rule in optional.RULES
        for where, keys in rule.fields.items()
        for key in keys
    }
    registered = [
        (where, option, key) for where, pairs in OPTION_FIELDS.items() for option, key in pairs
    ]
    assert len(registered) == len(set(registered))
    assert set(registered) == declared
    for _, option, _ in registered:
        assert OPTION_ROWS[option].switch, option


def test_no_module_of_the_engine_names_an_option_but_its_own_and_the_registries():
    """Outside an option's module(s), the registries and the state, no source of
    campaign/rules/ names it: not as a string, not in `.on("...")`, not in a comment. The
    steps call the hook points of campaign.rules.optional instead."""
    found = []
    for path in sorted(RULES_DIR.rglob("*.py")):
        if path in REGISTRIES:
            continue
        text = path.read_text()
        for name in SWITCHES:
            if path in _own_files(name):
                continue
            for number, line in enumerate(text.splitlines(), 1):
                if re.search(rf"\b{name}\b", line):
                    found.append(f"{path.relative_to(RULES_DIR)}:{number}: {name}")
    assert found == []


def test_a_rule_reads_and_writes_its_fields_at_the_places_it_declares_them():
    """Each place a rule adds fields to is read and written by the rule itself (a reader and
    a writer there, or an entry of its own in a list), and it reads and writes nowhere else:
    the file format calls it by the place, never by its fields' names."""
    for rule in optional.RULES:
        entries = {"inputs.purchases[]" for _ in rule.purchases.values()}
        if rule.deploy_entry is not None:
            entries.add("inputs.deploy[]")
        assert set(rule.read) | entries == set(rule.fields), rule.row.name
        assert set(rule.write) | entries == set(rule.fields), rule.row.name
        assert not set(rule.read) & entries, rule.row.name


@pytest.mark.parametrize(
    ("name", "value", "refused"),
    [
        ("years", 6, None),
        ("years", 1, None),
        ("years", 20, None),
        ("years", 0, "Years is 1 to 20."),
        ("years", 21, "Years is 1 to 20."),
        ("months", 13, "Summer months a year is 1 to 12."),
        ("years", "6", "Years is a whole number."),
        ("years", True, "Years is a whole number."),
        ("seed", -7, None),
        ("orders", "cycle", None),
        ("orders", "secret", "Orders is sealed or cycle."),
        ("battles", "simple", None),
        ("wizards", True, None),
        ("wizards", False, None),
        ("wizards", 1, "Wizard's towers is true or false."),
        ("sieges", "yes", "Siege assaults is true or false."),
    ],
)
def test_an_options_value_is_refused_in_its_rows_words(name, value, refused):
    """What the new-campaign form says of a value for an option (a row's `refusal`): a
    switch takes true or false, a choice one of its choices, a number a whole number in
    its range (a seed any)."""
    assert OPTION_ROWS[name].refusal(value) == refused


def test_a_number_with_no_top_is_said_to_be_its_least_or_more():
    row = OptionRow("armies", "Armies", "At least one.", default=1, low=1)
    assert (row.refusal(0), row.refusal(99)) == ("Armies is 1 or more.", None)
