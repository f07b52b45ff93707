"""The dashboard's forms are drawn once for what they are drawn from, then remembered
(campaign.forms.Remembered, issue 37 point 2): what a form shows still follows its choices,
its values and its errors. No database."""

import pytest
from django.test import signals

from battles.forms import ReportForm
from campaign.forms import PlaceForm, RemovePlayerForm, TileForm, people_of

KINGDOMS = [("k1", "Aldermark"), ("k2", "Duskhollow")]


@pytest.fixture
def drawn_templates():
    """The names of the templates drawn while the test runs."""
    names: list[str] = []

    def seen(sender, template, context, **kwargs):
        names.append(template.name)

    signals.template_rendered.connect(seen)
    yield names
    signals.template_rendered.disconnect(seen)


def place_form(*places: str, seen: int = 3) -> PlaceForm:
    form = PlaceForm(auto_id="place-%s", kingdoms=KINGDOMS, places=[(p, p) for p in places])
    form.initial["seen"] = seen
    return form


def test_a_form_drawn_again_is_the_same_html_without_drawing_its_templates_again(
    drawn_templates,
):
    first = str(place_form("Ashford", "Brackenmoor").as_div())
    drawn_templates.clear()
    again = str(place_form("Ashford", "Brackenmoor").as_div())
    assert again == first
    assert drawn_templates == []
    assert '<option value="Brackenmoor">Brackenmoor</option>' in again


def test_a_place_renamed_is_offered_under_its_new_name():
    before = str(place_form("Ashford", "Brackenmoor").as_div())
    after = str(place_form("Ashford", "Coldharbour").as_div())
    assert '<option value="Brackenmoor">' in before
    assert '<option value="Coldharbour">Coldharbour</option>' in after
    assert "Brackenmoor" not in after
    assert str(place_form("Ashford", "Brackenmoor").as_div()) == before


def test_the_snapshot_a_form_carries_is_the_one_its_page_shows():
    assert 'name="seen" value="3"' in str(place_form("Ashford", seen=3).as_div())
    assert 'name="seen" value="4"' in str(place_form("Ashford", seen=4).as_div())


def test_the_same_fields_with_other_ids_or_another_kind_of_form_are_drawn_apart():
    tile = TileForm(auto_id="tile-%s", kingdoms=KINGDOMS)
    other_ids = TileForm(auto_id="other-%s", kingdoms=KINGDOMS)
    fewer = TileForm(auto_id="tile-%s", kingdoms=KINGDOMS[:1])
    assert 'id="tile-hex"' in str(tile.as_div())
    assert 'id="other-hex"' in str(other_ids.as_div())
    assert "Duskhollow" in str(tile.as_div())
    assert "Duskhollow" not in str(fewer.as_div())


def test_a_form_sent_back_shows_its_errors_and_the_next_unbound_one_shows_none():
    people = people_of([])
    unbound = str(RemovePlayerForm(auto_id="remove-%s", people=people).as_div())
    sent = RemovePlayerForm({"player": "nobody"}, auto_id="remove-%s", people=people)
    assert not sent.is_valid()
    assert "Select a valid choice" in str(sent.as_div())
    again = str(RemovePlayerForm(auto_id="remove-%s", people=people).as_div())
    assert again == unbound
    assert "Select a valid choice" not in again


def report_form(*kingdoms: tuple[str, str]) -> ReportForm:
    form = ReportForm(auto_id="report-%s", kingdoms=list(kingdoms))
    form.initial["seen"] = 3
    return form


def test_a_field_drawn_on_its_own_is_remembered_and_follows_its_words(drawn_templates):
    """The battle card draws its report form a field at a time (`as_field_group`)."""
    first = str(report_form(*KINGDOMS)["outcome"].as_field_group())
    assert "Aldermark won" in first
    drawn_templates.clear()
    assert str(report_form(*KINGDOMS)["outcome"].as_field_group()) == first
    assert drawn_templates == []
    renamed = str(report_form(("k1", "Eastmarch"), KINGDOMS[1])["outcome"].as_field_group())
    assert "Eastmarch won" in renamed
    assert "Aldermark" not in renamed
    score = str(report_form(*KINGDOMS)["attacker_score"].as_field_group())
    assert "Aldermark&#x27;s scenario score" in score


def test_a_field_sent_back_shows_its_error_and_the_next_unbound_one_shows_none():
    sent = ReportForm({"outcome": "k3", "seen": "3"}, auto_id="report-%s", kingdoms=KINGDOMS)
    assert not sent.is_valid()
    assert "Select a valid choice" in str(sent["outcome"].as_field_group())
    assert "Select a valid choice" not in str(report_form(*KINGDOMS)["outcome"].as_field_group())
