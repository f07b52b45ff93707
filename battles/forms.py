"""The battle pages' forms: they check the shape of what was typed; who may say it and
whether the rules accept it is for the services."""

from collections.abc import Sequence
from typing import Any

from django import forms

from battles.models import (
    LIST_NAME_LENGTH,
    LIST_POINTS_MAX,
    LIST_RACE_LENGTH,
    LIST_TEXT_LENGTH,
    REPORT_LENGTH,
    list_text,
)
from battles.photos import MAX_BYTES
from campaign.forms import (
    MAX_EXTENSION_HOURS,
    DecisionForm,
    DrawnAt,
    Remembered,
    WholeNumberField,
    reason_field,
)

Choices = list[tuple[str, str]]


class BattleForm(Remembered):
    """Every battle form may be made with the battle's two kingdoms, `(id, name)`, the
    attacker's (the side that picked the battle) first, and the magical artefacts its card
    lists (option wizards); those that name a side or an artefact use them."""

    def __init__(
        self,
        *args: Any,
        kingdoms: Sequence[tuple[str, str]] = (),
        artefacts: Sequence[str] = (),
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.setup_kingdoms(list(kingdoms))
        self.setup_artefacts(list(artefacts))

    def setup_kingdoms(self, kingdoms: Choices) -> None:
        pass

    def setup_artefacts(self, artefacts: list[str]) -> None:
        """A form's `captured` offers the artefacts on the card; with none, it has none."""
        if "captured" not in self.fields:
            return
        if artefacts:
            self.fields["captured"].choices = [(name, name) for name in artefacts]  # type: ignore[attr-defined]
        else:
            del self.fields["captured"]


def captured_field() -> forms.MultipleChoiceField:
    """Option wizards (OA10): the artefacts on the card the winner took."""
    return forms.MultipleChoiceField(
        required=False,
        widget=forms.CheckboxSelectMultiple,
        label="Magical artefacts the winner took (those on the beaten side's routed units)",
    )


def outcome_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        widget=forms.RadioSelect, label="Result", error_messages={"required": "Choose the result."}
    )


def outcome_choices(kingdoms: Choices) -> Choices:
    return [(k, f"{name} won") for k, name in kingdoms] + [("draw", "Draw")]


def read_outcome(outcome: str) -> tuple[str, str]:
    """(result, winner) for the engine, from the form's choice."""
    return ("draw", "") if outcome == "draw" else ("win", outcome)


DETAILS = ("attacker_score", "defender_score", "turns", "note", "attacker_list", "defender_list")


def report_details(data: dict[str, Any]) -> dict[str, Any]:
    """The optional Kings of War details of a report, as the report's fields (a side's list
    is not asked when it has one attached)."""
    return {name: data[name] for name in DETAILS if name in data}


class ReportForm(BattleForm, DecisionForm):
    """A player's report of the result (a decision: it carries `seen`).
    `listed`: the kingdoms that attached a list to the battle, whose list the form does
    not ask for again (the report takes the attached one)."""

    outcome = outcome_field()
    attacker_score = WholeNumberField(required=False, min_value=0, max_value=99999)
    defender_score = WholeNumberField(required=False, min_value=0, max_value=99999)
    turns = WholeNumberField(required=False, min_value=1, max_value=30, label="Turns played")
    note = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )
    attacker_list = forms.CharField(
        required=False, max_length=10000, widget=forms.Textarea(attrs={"rows": 3})
    )
    defender_list = forms.CharField(
        required=False, max_length=10000, widget=forms.Textarea(attrs={"rows": 3})
    )
    captured = captured_field()

    def __init__(self, *args: Any, listed: Sequence[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        kingdoms = kwargs.get("kingdoms", ())
        for role, (kingdom, _) in zip(("attacker", "defender"), kingdoms, strict=False):
            if kingdom in listed:
                del self.fields[f"{role}_list"]

    def setup_kingdoms(self, kingdoms: Choices) -> None:
        self.fields["outcome"].choices = outcome_choices(kingdoms)  # type: ignore[attr-defined]
        for role, (_, name) in zip(("attacker", "defender"), kingdoms, strict=False):
            self.fields[
                f"{role}_score"
            ].label = f"{name}'s scenario score (points routed, objectives or loot)"
            self.fields[f"{role}_list"].label = f"{name}'s list"


class AnswerForm(BattleForm, DecisionForm):
    """Confirm or withdraw a report."""

    report = WholeNumberField(widget=forms.HiddenInput, min_value=1)


class DisputeForm(AnswerForm):
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Why you dispute it",
        error_messages={"required": "Say why you dispute the report."},
    )


class ProposeForm(BattleForm):
    at = forms.DateTimeField(
        label="When (your time)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )


class AcceptForm(BattleForm):
    play_time = WholeNumberField(widget=forms.HiddenInput, min_value=1)


class ConcedeForm(BattleForm, DecisionForm):
    """Concede the field instead of playing (ruling B4)."""


# The admin's desk: each form carries the snapshot the desk showed (`DrawnAt`).


class DecideForm(BattleForm, DrawnAt):
    outcome = outcome_field()
    captured = captured_field()
    reason = reason_field(required=False)

    def setup_kingdoms(self, kingdoms: Choices) -> None:
        self.fields["outcome"].choices = outcome_choices(kingdoms)  # type: ignore[attr-defined]


class SimpleForm(BattleForm, DrawnAt):
    reason = reason_field(required=False)


class ExtendForm(BattleForm, DrawnAt):
    hours = WholeNumberField(min_value=1, max_value=MAX_EXTENSION_HOURS, label="Hours")
    reason = reason_field(required=False)


# --- battle reports, once the battle is resolved ------------------------------------------


class BattleReportForm(forms.Form):
    text = forms.CharField(
        required=False,
        max_length=REPORT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 8}),
        label="Your report",
        help_text=f"Plain text: a few paragraphs, up to {REPORT_LENGTH:,} characters. Links "
        "become clickable.",
    )


class PhotoForm(forms.Form):
    """One photograph at a time. Its kind is read from the file's content, never from its
    name or what the browser says (`battles.photos`): `accept` only helps the file picker."""

    photo = forms.FileField(
        label="Add a photograph",
        help_text="A JPEG, PNG or WebP picture of at most 12 MB and 40 megapixels. What it "
        "says of where and when it was taken (EXIF, GPS) is removed.",
        widget=forms.FileInput(
            attrs={
                "accept": "image/jpeg,image/png,image/webp",
                # static/js/photo-size.js says so before a photograph too large is sent.
                "data-max-bytes": str(MAX_BYTES),
                "data-too-large": "That photograph is more than 12 MB: send a smaller one.",
            }
        ),
        error_messages={
            "required": "Choose a photograph to add.",
            "empty": "That file is empty: choose a photograph.",
            "invalid": "That is not a file: choose a photograph.",
        },
    )


class ReasonForm(forms.Form):
    """Removing a photograph, hiding a report or showing it again: the admin's reason is
    recorded in the audit log."""

    reason = reason_field(required=False)


# --- the book of army lists, and the list attached to a battle ------------------------------


class ArmyListForm(forms.Form):
    """A list of the book. Checked again by the service, in the same words."""

    name = forms.CharField(
        max_length=LIST_NAME_LENGTH,
        label="Name",
        help_text="Say, “Fast cavalry, 1,500”.",
        error_messages={
            "required": "Give the list a name.",
            "max_length": "A list's name is at most %(limit_value)d characters: yours has "
            "%(show_value)d.",
        },
    )
    points = WholeNumberField(
        min_value=1,
        max_value=LIST_POINTS_MAX,
        label="Points",
        widget=forms.NumberInput(attrs={"list": "rulebook-sizes", "step": 1}),
        error_messages={
            "required": "Give the list's points.",
            "invalid": f"A list's points are a whole number from 1 to {LIST_POINTS_MAX:,}.",
            "min_value": f"A list's points are a whole number from 1 to {LIST_POINTS_MAX:,}.",
            "max_value": f"A list's points are a whole number from 1 to {LIST_POINTS_MAX:,}.",
        },
    )
    race = forms.CharField(
        required=False,
        max_length=LIST_RACE_LENGTH,
        label="Race",
        help_text="Your kingdom's, or your allied army's.",
        error_messages={
            "max_length": "A list's race is at most %(limit_value)d characters: yours has "
            "%(show_value)d.",
        },
    )
    text = forms.CharField(
        strip=False,  # counted as it is kept (`list_text`)
        label="The list",
        help_text=f"Pasted from any list builder: plain text, up to {LIST_TEXT_LENGTH:,} "
        "characters.",
        widget=forms.Textarea(attrs={"rows": 12, "maxlength": LIST_TEXT_LENGTH}),
        error_messages={
            "required": "Paste the list itself: its units, as your list builder writes them."
        },
    )

    def clean_text(self) -> str:
        text = list_text(self.cleaned_data["text"])
        if not text:
            raise forms.ValidationError(self.fields["text"].error_messages["required"])
        if len(text) > LIST_TEXT_LENGTH:
            raise forms.ValidationError(
                f"A list is at most {LIST_TEXT_LENGTH:,} characters: yours has {len(text):,}."
            )
        return text


class AttachForm(forms.Form):
    """One of the player's lists, by its number; whose it is and whether it fits is for
    the service."""

    army_list = WholeNumberField(
        min_value=1,
        label="Your list",
        error_messages={
            "required": "Choose one of your lists to attach.",
            "invalid": "Choose one of your lists to attach.",
            "min_value": "Choose one of your lists to attach.",
        },
    )
