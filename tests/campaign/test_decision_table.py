"""The one table of decisions (campaign.forms.DECISIONS): every kind the campaign waits
for has its form, read through `DecisionForm` (so `seen` is required), a board section
that exists, and the page campaign.asks names."""

import pytest
from django.template.loader import get_template

from campaign.asks import WORDS
from campaign.forms import DECISIONS, DecisionForm
from campaign.rules.state import PendingKind


def test_every_kind_of_decision_has_a_row() -> None:
    assert set(DECISIONS) == set(PendingKind)


@pytest.mark.parametrize("kind", list(PendingKind))
def test_a_kinds_row_names_its_form_section_and_page(kind: PendingKind) -> None:
    made = DECISIONS[kind]
    assert issubclass(made.form, DecisionForm)
    assert made.page == WORDS[kind].page
    get_template(made.section)  # raises if the section's template does not exist


@pytest.mark.parametrize("kind", list(PendingKind))
def test_a_decision_without_seen_is_refused(kind: PendingKind) -> None:
    form = DECISIONS[kind].form({})
    assert not form.is_valid()
    assert "seen" in form.errors
