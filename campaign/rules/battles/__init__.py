"""Summer phase C: battles (rulings B1 to B12), by phase.

`picking` picks and fights them until the engine must wait (its `fight_battles` is the
step); `kinds` says what each kind of battle is and what its card holds; `fights` fights
each kind; `reported` applies the results reported from the tabletop; `results` judges an
entry against a battle and applies a result; `retreats` moves the beaten; `ledger` keeps
this month's battles and their inputs for all of them."""
