"""Forms for the admin's dashboard. They check the shape of what is typed (a hex, a number,
a kingdom of this campaign); whether the change is allowed is the services' to say."""

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from types import MappingProxyType
from typing import Any

from django import forms
from django.core.validators import validate_email
from django.utils.safestring import SafeString

from campaign.asks import WORDS
from campaign.gazetteer import NAME_LENGTH
from campaign.models import Membership
from campaign.rules.hexmap import Hex
from campaign.rules.optional.marauders import ADMIN
from campaign.rules.state import PendingKind
from campaign.words import names_of

type Choices = list[tuple[str, str]]

HEX = re.compile(r"^\s*\[?\s*(-?[0-9]{1,4})\s*,\s*(-?[0-9]{1,4})\s*\]?\s*$")
# A whole number as a form reads it: the digits 0 to 9 only. Python's int() reads the
# digits of other scripts ("٣" is 3) and fails on others ("²"): neither is a number here.
WHOLE_NUMBER = re.compile(r"-?[0-9]{1,18}")
NOT_A_NUMBER = "Write a whole number, in the digits 0 to 9."
SETTLEMENTS: Choices = [
    ("", "No settlement"),
    ("village", "Village"),
    ("city", "City"),
    ("fortress", "Fortress"),
]
NOT_A_HEX = "Give a hex as two whole numbers, like 3, -2."
MAX_EXTENSION_HOURS = 24 * 28


def whole_number(text: str | None) -> int | None:
    """`text` (spaces around it allowed) as a whole number in the digits 0 to 9, else None."""
    found = WHOLE_NUMBER.fullmatch((text or "").strip())
    return int(found.group()) if found else None


class WholeNumberField(forms.IntegerField):
    """Django's IntegerField, reading only the digits 0 to 9 (`whole_number`): every
    number a form of the app reads."""

    default_error_messages = {"invalid": NOT_A_NUMBER}  # noqa: RUF012 (Django's, merged)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        number = whole_number(str(value))
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def read_hex(text: str) -> Hex | None:
    """A hex as a player or a form writes it, `q, r` (brackets allowed), or None."""
    found = HEX.match(text)
    return (int(found.group(1)), int(found.group(2))) if found else None


class HexField(forms.CharField):
    """A hex typed as two whole numbers, `q, r` (brackets allowed): cleaned to [q, r]."""

    def to_python(self, value: Any) -> list[int] | None:  # type: ignore[override]
        text = super().to_python(value)
        if not text:
            return None
        hex_ = read_hex(text)
        if hex_ is None:
            raise forms.ValidationError(NOT_A_HEX, code="invalid")
        return list(hex_)


def reason_field(*, required: bool) -> forms.CharField:
    return forms.CharField(
        required=required,
        max_length=500,
        strip=True,
        label="Reason" if required else "Reason (optional)",
        help_text="Recorded in the audit log."
        if not required
        else "Required: recorded in the audit log.",
        error_messages={"required": "Say why."},
    )


MAX_SNAPSHOT = 2**31 - 1
OUT_OF_DATE = "This page is out of date: reload it and try again."


def seen_field() -> WholeNumberField:
    """The snapshot a page was drawn at, which its form carries back (hidden), so that a
    post from a page the campaign has moved on from since is refused, never applied to a
    state its sender did not see. A post without it (a forged one) is told to reload."""
    return WholeNumberField(
        min_value=1,
        max_value=MAX_SNAPSHOT,
        widget=forms.HiddenInput,
        error_messages=dict.fromkeys(
            ("required", "invalid", "min_value", "max_value"), OUT_OF_DATE
        ),
    )


# The HTML of the unbound forms drawn, by what each is drawn from (`Remembered`).
_DRAWN: dict[str, SafeString] = {}
FORMS_KEPT = 512


class RememberedField(forms.BoundField):
    """A field of a `Remembered` form drawn on its own (`as_field_group`, as the battle
    card draws its report form), remembered like the whole form."""

    form: "Remembered"

    def render(
        self, template_name: str | None = None, context: Any = None, renderer: Any = None
    ) -> SafeString:
        if self.form.is_bound or context is not None or renderer is not None:
            return super().render(template_name, context, renderer)
        drawn_with = template_name or self.template_name
        return self.form.remembered(
            f"{self.form.fields_key}{self.name!r}{drawn_with!r}",
            lambda: super(RememberedField, self).render(template_name),
        )


class Remembered(forms.Form):
    """A form whose HTML, while it is unbound, is drawn once for what it is drawn from (its
    class and template, its ids, and each field's kind, words, choices, widget and initial
    value) and then remembered in this process (at most `FORMS_KEPT`, all forgotten when
    that many are kept): drawing the dashboard's forms through Django's form templates was
    most of what its first visit cost (issue 37 point 2), and they are the same from one
    visit to the next until the campaign changes. The same holds for a field drawn on its
    own (`RememberedField`). A bound form (sent back with its errors) is always drawn."""

    bound_field_class = RememberedField

    def render(
        self, template_name: str | None = None, context: Any = None, renderer: Any = None
    ) -> SafeString:
        if self.is_bound or context is not None or renderer is not None:
            return super().render(template_name, context, renderer)
        drawn_with = template_name or self.template_name
        return self.remembered(
            f"{self.fields_key}{drawn_with!r}", lambda: super(Remembered, self).render(drawn_with)
        )

    @staticmethod
    def remembered(key: str, draw: Callable[[], SafeString]) -> SafeString:
        html = _DRAWN.get(key)
        if html is None:
            if len(_DRAWN) >= FORMS_KEPT:
                _DRAWN.clear()
            html = _DRAWN[key] = draw()
        return html

    @cached_property
    def fields_key(self) -> str:
        """What the form's HTML is drawn from, as the key it is remembered by (worked out
        when the form is first drawn, after its fields are set up)."""
        fields = [
            (
                name, type(field).__qualname__, str(field.label), str(field.help_text),
                field.required, field.disabled, field.show_hidden_initial,
                self.get_initial_for_field(field, name), getattr(field, "choices", None),
                type(field.widget).__qualname__, field.widget.attrs,
            )
            for name, field in self.fields.items()
        ]  # fmt: skip
        form = type(self)
        return repr(
            (form.__module__, form.__qualname__, self.auto_id, self.prefix,
             self.label_suffix, self.use_required_attribute, fields)
        )  # fmt: skip


class DrawnAt(Remembered):
    """Every form of the admin's that changes the campaign carries `seen`, the snapshot its
    page showed (services.check_admin_saw): a second tab's Advance now, extension, pause or
    correction is refused once the campaign has moved on from what that tab shows."""

    seen = seen_field()


class AdminActionForm(DrawnAt):
    """Pause, resume, advance now: an optional reason for the audit log."""

    reason = reason_field(required=False)


class UndoForm(DrawnAt):
    """An undo is of the advance the admin saw."""

    reason = reason_field(required=True)


class ExtendForm(DrawnAt):
    """The deadline moved later, or nearer (`direction`), by some hours."""

    hours = WholeNumberField(
        min_value=1,
        max_value=MAX_EXTENSION_HOURS,
        initial=24,
        label="Hours",
        error_messages={"invalid": "Give the hours as a whole number."},
    )
    direction = forms.ChoiceField(
        choices=[("later", "Later"), ("earlier", "Earlier")],
        initial="later",
        widget=forms.RadioSelect,
        label="Move the deadline",
        required=False,
    )
    reason = reason_field(required=False)


class StartForm(Remembered):
    """Starting takes no input: the form only carries the CSRF token."""


class CampaignForm(DrawnAt):
    """A form whose choices come from the newest campaign file (its kingdoms and armies),
    the one its page was drawn at (`seen`)."""

    def __init__(
        self,
        *args: Any,
        kingdoms: Choices | None = None,
        armies: Choices | None = None,
        places: Choices | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.places = places or []
        self.setup_choices(kingdoms or [], armies or [])

    def setup_choices(self, kingdoms: Choices, armies: Choices) -> None:
        """Fill the choice fields; each form knows which it has (`self.places`: the places
        the campaign's pages name)."""

    def set_choices(self, field: str, choices: Choices) -> None:
        choice_field = self.fields[field]
        assert isinstance(choice_field, forms.ChoiceField)
        choice_field.choices = choices


class TileForm(CampaignForm):
    hex = HexField(label="Hex (q, r)")
    owner = forms.ChoiceField(label="Owner", required=False)
    settlement = forms.ChoiceField(label="Settlement", choices=SETTLEMENTS, required=False)
    reason = reason_field(required=True)

    def setup_choices(self, kingdoms: Choices, armies: Choices) -> None:
        self.set_choices("owner", [("", "Nobody (unexplored)"), *kingdoms])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("owner") and cleaned.get("settlement"):
            self.add_error("settlement", "A tile with a settlement needs an owner.")
        return cleaned


class ArmyForm(CampaignForm):
    army = forms.ChoiceField(label="Army")
    hex = HexField(label="Move to hex (q, r)", required=False)
    upright = forms.BooleanField(label="Upright", required=False, initial=True)
    remove = forms.BooleanField(label="Remove the army", required=False)
    reason = reason_field(required=True)

    def setup_choices(self, kingdoms: Choices, armies: Choices) -> None:
        self.set_choices("army", armies)

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if not cleaned.get("remove") and cleaned.get("hex") is None and "hex" not in self.errors:
            self.add_error("hex", "Say where the army stands, or remove it.")
        return cleaned


class PlaceForm(CampaignForm):
    """Issue 35: a place renamed, chosen by the name it has now (a place renamed meanwhile
    is no longer in the list, and the service refuses it)."""

    place = forms.ChoiceField(label="Place")
    name = forms.CharField(label="Its new name", max_length=NAME_LENGTH)
    reason = reason_field(required=True)

    def setup_choices(self, kingdoms: Choices, armies: Choices) -> None:
        self.set_choices("place", self.places)


class ArtefactsForm(DrawnAt):
    """Option wizards (OA8): the campaign's magical artefacts, one a line: "name, points"."""

    artefacts = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12}),
        max_length=8000,
        required=False,
        label="The magical artefacts, one a line: name, points",
    )
    reason = reason_field(required=True)

    def clean_artefacts(self) -> list[tuple[str, int]]:
        pool: list[tuple[str, int]] = []
        for number, line in enumerate(self.cleaned_data["artefacts"].splitlines(), 1):
            if not line.strip():
                continue
            name, _, written = line.rpartition(",")
            name = " ".join(name.split())
            points = whole_number(written)
            if not name or points is None:
                raise forms.ValidationError(f"Line {number}: write the name, a comma, the points.")
            pool.append((name, points))
        return pool


class ResourcesForm(CampaignForm):
    kingdom = forms.ChoiceField(label="Kingdom")
    gold = WholeNumberField(min_value=0, max_value=999, label="Gold")
    food = WholeNumberField(min_value=0, max_value=999, label="Food")
    reason = reason_field(required=True)

    def setup_choices(self, kingdoms: Choices, armies: Choices) -> None:
        self.set_choices("kingdom", kingdoms)


class DecisionForm(Remembered):
    """What every post of a player's decision carries besides the decision (setup, orders,
    battles, winter): `seen`, the snapshot its page was drawn at, required, so that a post
    from a page the campaign has moved past is refused, never applied to a step the player
    did not see; `ready` (yes or no; Ready unless told otherwise) and `draft`, the digest
    of the decisions the page showed (services.draft_digest)."""

    seen = seen_field()
    ready = forms.ChoiceField(choices=[("yes", "yes"), ("no", "no")], required=False)
    draft = forms.CharField(required=False, max_length=64)


class LastStandForm(DecisionForm):
    """Make a Last Stand, outnumbered, or concede the field (ruling B4)."""

    hex = HexField(widget=forms.HiddenInput)
    stand = forms.TypedChoiceField(
        choices=[("yes", "Make a Last Stand"), ("no", "Concede the field")],
        coerce=lambda value: value == "yes",
        widget=forms.RadioSelect,
        label="Your choice",
    )


class ChooseForm(DecisionForm):
    """The tile of the kingdom's next battle (ruling B2), at sea if it says so (B3)."""

    hex = HexField(widget=forms.HiddenInput)
    naval = forms.BooleanField(required=False, widget=forms.HiddenInput)


class RetreatForm(DecisionForm):
    """`retreat-<unit>` = "q, r" for each unit it names; cleaned to `retreats`, the shape
    the engine reads."""

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        retreats: dict[str, list[int]] = {}
        for key, value in self.data.items():
            if key.startswith("retreat-"):
                hex_ = read_hex(str(value))
                if hex_ is None:
                    raise forms.ValidationError("Choose a tile to retreat to.")
                retreats[key.removeprefix("retreat-")] = list(hex_)
        if not retreats:
            raise forms.ValidationError("Choose where your units retreat.")
        cleaned["retreats"] = retreats
        return cleaned


@dataclass(frozen=True)
class Made:
    """How a kind of decision is made: `form`, the form its post is read by (the battle's
    card reads a result's report with `battles.forms.ReportForm`, a `DecisionForm` made
    with the battle's two kingdoms); `section`, the template of the board section that
    shows it; `page`, the URL name of the page where it is made (campaign.asks)."""

    form: type[DecisionForm]
    section: str
    page: str


# Each kind's form and board section; its page is the one campaign.asks names.
_SHOWN: dict[PendingKind, tuple[type[DecisionForm], str]] = {
    PendingKind.RACE: (DecisionForm, "campaign/setup.html"),
    PendingKind.CAPITAL: (DecisionForm, "campaign/setup.html"),
    PendingKind.SETTLEMENTS: (DecisionForm, "campaign/setup.html"),
    PendingKind.STARTING_ARMY: (DecisionForm, "campaign/setup.html"),
    PendingKind.ORDERS: (DecisionForm, "campaign/orders.html#board"),
    PendingKind.BATTLE_CHOICE: (ChooseForm, "battles/_decide_battle_choice.html"),
    PendingKind.LAST_STAND: (LastStandForm, "battles/_decide_last_stand.html"),
    PendingKind.BATTLE_RESULT: (DecisionForm, "battles/card.html"),
    PendingKind.RETREAT: (RetreatForm, "battles/_decide_retreat.html"),
    PendingKind.TITHES: (DecisionForm, "campaign/_winter_tithes.html"),
    PendingKind.PURCHASES: (DecisionForm, "campaign/_winter_purchases.html"),
    PendingKind.FEED: (DecisionForm, "campaign/_winter_feed.html"),
    PendingKind.DEPLOY: (DecisionForm, "campaign/_winter_deploy.html"),
    PendingKind.SUCCESSION: (DecisionForm, "campaign/_winter_succession.html"),
}
# The one table of decisions: each kind the campaign waits for, how it is posted and shown.
DECISIONS: Mapping[PendingKind, Made] = MappingProxyType(
    {kind: Made(form, section, WORDS[kind].page) for kind, (form, section) in _SHOWN.items()}
)


# --- the dashboard's forms of who plays ----------------------------------------------------

MAX_INVITATIONS = 30


@dataclass(frozen=True)
class People:
    """The campaign's members, as the forms that change who plays offer them."""

    players: Choices  # members ruling a kingdom
    kingdoms: Choices  # the kingdoms of the members ruling one, by id
    others: Choices  # members who are not admins
    free: Choices  # members without a kingdom


def people_of(members: list[Membership]) -> People:
    def name(m: Membership) -> str:
        return m.user.get_username()

    return People(
        players=[(name(m), f"{m.kingdom_name} ({name(m)})") for m in members if m.kingdom],
        kingdoms=[(m.kingdom, f"{m.kingdom_name} ({name(m)})") for m in members if m.kingdom],
        others=[(name(m), name(m)) for m in members if not m.is_admin],
        free=[(name(m), name(m)) for m in members if not m.kingdom],
    )


class PeopleForm(Remembered):
    """A form whose choices are the campaign's members (and, for a hand-over, kingdoms)."""

    def __init__(
        self, *args: Any, people: People, kingdoms: Choices | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.setup_choices(people, kingdoms or [])

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        """Fill the choice fields; each form knows which it has."""

    def set_choices(self, field: str, choices: Choices) -> None:
        choice_field = self.fields[field]
        assert isinstance(choice_field, forms.ChoiceField)
        choice_field.choices = choices


class InviteForm(Remembered):
    emails = forms.CharField(
        label="E-mail addresses, one a line",
        widget=forms.Textarea(attrs={"rows": 3, "autocomplete": "off", "spellcheck": "false"}),
        max_length=5000,
        help_text="Each gets the invitation link by e-mail.",
    )

    def clean_emails(self) -> list[str]:
        lines = [line.strip() for line in self.cleaned_data["emails"].splitlines()]
        addresses = list(dict.fromkeys(line for line in lines if line))
        if len(addresses) > MAX_INVITATIONS:
            raise forms.ValidationError(f"At most {MAX_INVITATIONS} addresses at a time.")
        bad = []
        for address in addresses:
            try:
                validate_email(address)
            except forms.ValidationError:
                bad.append(address)
        if bad:
            raise forms.ValidationError(f"Not an e-mail address: {', '.join(bad)}.")
        return addresses


class RemovePlayerForm(PeopleForm):
    player = forms.ChoiceField(label="Player")
    reason = reason_field(required=False)

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        self.set_choices("player", people.players)


class MakeAdminForm(PeopleForm):
    member = forms.ChoiceField(label="Member")

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        self.set_choices("member", people.others)


class GeneralForm(PeopleForm):
    """Option marauders (OW5): who plays the horde's tabletop battles, chosen before the
    campaign starts: the admin, or a player."""

    general = forms.ChoiceField(label="The marauders' general")

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        # By kingdom: no kingdom's id is "admin" (RESERVED_KINGDOM_IDS), a username may be.
        self.set_choices("general", [(ADMIN, "The admin"), *people.kingdoms])


class HandOverForm(PeopleForm):
    kingdom = forms.ChoiceField(label="Kingdom")
    member = forms.ChoiceField(label="To a member without a kingdom", required=False)
    username = forms.CharField(
        label="Or to a user, by username", required=False, max_length=150, strip=True
    )
    reason = reason_field(required=True)

    def setup_choices(self, people: People, kingdoms: Choices) -> None:
        self.set_choices("kingdom", kingdoms)
        self.set_choices("member", [("", "Nobody chosen"), *people.free])

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        member, username = cleaned.get("member"), cleaned.get("username")
        if member and username:
            self.add_error("username", "Choose a member or type a username, not both.")
        elif not member and not username and "member" not in self.errors:
            self.add_error("username", "Say who rules the kingdom from now on.")
        cleaned["to"] = member or username
        return cleaned


def correction_choices(
    data: dict[str, Any] | None, gazetteer: dict[str, Any] | None = None
) -> dict[str, Choices]:
    """The kingdoms, armies and places the dashboard's corrections offer, from the newest
    file and the campaign's names (`gazetteer`)."""
    data = data or {}
    names = names_of(data, gazetteer)
    return {
        "kingdoms": list(names.items()),
        "armies": [
            (a["id"], f"{names.unit(a['id'], whose=True)} {names.at(a['hex'], picking=True)}"
             f"{'' if a['upright'] else ', on its side'}")
            for a in data.get("armies", [])
        ],
        "places": [(place, place) for place in names.places()],
    }  # fmt: skip
