"""The battle pages' forms: they check the shape of what was typed; who may say it and
whether the rules accept it is for the services."""

from typing import Any

from django import forms

from campaign.forms import MAX_EXTENSION_HOURS, HexField, reason_field

Choices = list[tuple[str, str]]


class SeenForm(forms.Form):
    """Every player's form carries the snapshot the player was looking at: a form from a
    step the campaign has moved on from is refused."""

    seen = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


def outcome_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        widget=forms.RadioSelect, label="Result", error_messages={"required": "Choose the result."}
    )


def outcome_choices(kingdoms: Choices) -> Choices:
    return [(k, f"{name} won") for k, name in kingdoms] + [("draw", "Draw")]


def read_outcome(outcome: str) -> tuple[str, str]:
    """(result, winner) for the engine, from the form's choice."""
    return ("draw", "") if outcome == "draw" else ("win", outcome)


class ReportForm(SeenForm):
    outcome = outcome_field()
    attacker_score = forms.IntegerField(
        required=False, min_value=0, max_value=99999, label="Attacker's scenario score"
    )
    defender_score = forms.IntegerField(
        required=False, min_value=0, max_value=99999, label="Defender's scenario score"
    )
    turns = forms.IntegerField(required=False, min_value=1, max_value=30, label="Turns played")
    note = forms.CharField(
        required=False, max_length=2000, widget=forms.Textarea(attrs={"rows": 3})
    )
    attacker_list = forms.CharField(
        required=False, max_length=10000, widget=forms.Textarea(attrs={"rows": 3}),
        label="Attacker's list",
    )  # fmt: skip
    defender_list = forms.CharField(
        required=False, max_length=10000, widget=forms.Textarea(attrs={"rows": 3}),
        label="Defender's list",
    )  # fmt: skip

    def __init__(self, *args: Any, kingdoms: Choices, **kwargs: Any) -> None:
        """`kingdoms`: the attacker's (the side that picked the battle), then the defender's."""
        super().__init__(*args, **kwargs)
        self.fields["outcome"].choices = outcome_choices(kingdoms)  # type: ignore[attr-defined]
        for role, (_, name) in zip(("attacker", "defender"), kingdoms, strict=True):
            self.fields[
                f"{role}_score"
            ].label = f"{name}'s scenario score (points routed, objectives or loot)"
            self.fields[f"{role}_list"].label = f"{name}'s list"

    def details(self) -> dict[str, Any]:
        """The optional Kings of War details, as the report's fields."""
        data = self.cleaned_data
        return {
            "attacker_score": data["attacker_score"],
            "defender_score": data["defender_score"],
            "turns": data["turns"],
            "note": data["note"],
            "attacker_list": data["attacker_list"],
            "defender_list": data["defender_list"],
        }


class AnswerForm(SeenForm):
    """Confirm or withdraw a report."""

    report = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class DisputeForm(AnswerForm):
    reason = forms.CharField(
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label="Why you dispute it",
        error_messages={"required": "Say why you dispute the report."},
    )


class ProposeForm(forms.Form):
    at = forms.DateTimeField(
        label="When (your time)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )


class AcceptForm(forms.Form):
    play_time = forms.IntegerField(widget=forms.HiddenInput, min_value=1)


class LastStandForm(SeenForm):
    hex = HexField(widget=forms.HiddenInput)
    stand = forms.TypedChoiceField(
        choices=[("yes", "Make a Last Stand"), ("no", "Concede the field")],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
        label="Your choice",
    )


class ChooseForm(SeenForm):
    hex = HexField(widget=forms.HiddenInput)


class DecideForm(forms.Form):
    outcome = outcome_field()
    reason = reason_field(required=False)

    def __init__(self, *args: Any, kingdoms: Choices, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["outcome"].choices = outcome_choices(kingdoms)  # type: ignore[attr-defined]


class SimpleForm(forms.Form):
    reason = reason_field(required=False)


class ExtendForm(forms.Form):
    hours = forms.IntegerField(min_value=1, max_value=MAX_EXTENSION_HOURS, label="Hours")
    reason = reason_field(required=False)
