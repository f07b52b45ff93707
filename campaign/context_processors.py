"""The game's words every template may name, as the engine spells them: a template compares
`board.step == steps.RACES` or `board.kind == kinds.TITHES`, never a literal, so a renamed
step or kind fails where it is declared (tests/test_vocabulary.py), not on a page."""

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from django.http import HttpRequest

from campaign.rules.state import PendingKind, Step

KINDS: Mapping[str, PendingKind] = MappingProxyType({kind.name: kind for kind in PendingKind})
STEPS: Mapping[str, Step] = MappingProxyType({step.name: step for step in Step})


def vocabulary(request: HttpRequest) -> dict[str, Mapping[str, StrEnum]]:
    """`kinds` (each `PendingKind` by its name) and `steps` (each `Step` by its name)."""
    return {"kinds": KINDS, "steps": STEPS}
