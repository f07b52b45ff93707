"""What a file's `pending` asks of a kingdom (`decisions.asked_of`: the `inputs` keys the
services take from its player), which options a file turns on (`options.switched_on`), and
whether it gives orders in the cycle (`options.orders_in_cycle`, ruling O1): the engine's
answers the app reads before it takes a decision."""

from typing import Any

from campaign.rules.decisions import asked_of
from campaign.rules.options import orders_in_cycle, switched_on


def test_a_kingdom_is_asked_for_the_inputs_its_pending_names_and_what_it_may_give_meanwhile():
    pending: list[dict[str, Any]] = [
        {"kind": "battle_choice", "kingdom": "red", "battle": 1},
        {"kind": "retreat", "kingdom": "red", "unit": "red-1"},
        {"kind": "orders", "kingdom": "blue"},
    ]
    # while the tile of its next battle is asked, a kingdom may also give a battle entry (B3)
    assert asked_of(pending, "red") == {"battle_choices", "battles", "retreats"}
    assert asked_of(pending, "blue") == {"orders"}
    assert asked_of(pending, "green") == set()


def test_the_options_a_file_turns_on_are_its_optional_rules_set_true_in_the_tables_order():
    options = {"years": 6, "orders": "cycle", "sieges": True, "wizards": True, "army_limits": False}
    assert [row.name for row in switched_on(options)] == ["wizards", "sieges"]
    assert switched_on({"years": 6, "months": 6}) == []


def test_orders_are_given_in_the_cycle_only_when_the_file_says_so():
    assert orders_in_cycle({"orders": "cycle"}) is True
    assert orders_in_cycle({"orders": "sealed"}) is False
    assert orders_in_cycle({}) is False
