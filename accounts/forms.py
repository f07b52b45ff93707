import logging
from functools import cache, lru_cache
from typing import Any

from django import forms
from django.contrib.auth import authenticate
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm, UserCreationForm
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import MaxLengthValidator
from django.http import HttpRequest
from django.utils.safestring import SafeString

from accounts.models import DISPLAY_NAME_LENGTH, User, known_time_zones
from accounts.names import confusable_refusal, plain_name
from accounts.services import DEPARTED_PREFIX
from accounts.tasks import send_password_reset

logger = logging.getLogger(__name__)
EMAIL_MAX_LENGTH = 254

# Where most groups play, offered first; every other zone follows, grouped by region.
COMMON_ZONES = (
    "UTC",
    "Europe/London",
    "Europe/Paris",
    "Europe/Berlin",
    "America/New_York",
    "America/Chicago",
    "America/Denver",
    "America/Los_Angeles",
    "Australia/Sydney",
    "Pacific/Auckland",
)
REGIONS = (
    "Africa",
    "America",
    "Antarctica",
    "Arctic",
    "Asia",
    "Atlantic",
    "Australia",
    "Europe",
    "Indian",
    "Pacific",
)

Choices = list[tuple[str, str | list[tuple[str, str]]]]


def _place(zone: str) -> str:
    return zone.replace("_", " ")


@cache
def time_zone_choices() -> Choices:
    """Common zones first, then each region's zones, by place name. Old aliases outside the
    regions ("US/Pacific", "Etc/GMT+5") are left out."""
    known = known_time_zones()
    choices: Choices = [("Common", [(z, _place(z)) for z in COMMON_ZONES if z in known])]
    for region in REGIONS:
        zones = sorted(z for z in known if z.startswith(f"{region}/"))
        choices.append((region, [(z, _place(z.removeprefix(f"{region}/"))) for z in zones]))
    return choices


class ZoneSelect(forms.Select):
    """Django's select of the time zones, drawn by Django once for each zone chosen and its
    attributes: its 600 options take a template each, a tenth of a second a page."""

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        chosen = value if isinstance(value, str) else None
        return _zone_select(name, chosen, tuple((attrs or {}).items()))


@lru_cache(maxsize=64)
def _zone_select(name: str, chosen: str | None, attrs: tuple[tuple[str, Any], ...]) -> SafeString:
    select = forms.Select(choices=time_zone_choices())
    return SafeString(select.render(name, chosen, dict(attrs)))


class TimeZoneForm(forms.ModelForm[User]):
    time_zone = forms.ChoiceField(
        label="Time zone",
        choices=time_zone_choices,
        widget=ZoneSelect,
        help_text="Deadlines are shown in this zone.",
        error_messages={
            "required": "Choose your time zone.",
            "invalid_choice": "%(value)s is not a time zone we know: choose one from the list.",
        },
    )

    class Meta:
        model = User
        fields = ("time_zone",)


class SignInForm(AuthenticationForm):
    """Django's sign-in form, taking a username or an e-mail address
    (accounts.backends.UsernameOrEmailBackend)."""

    def __init__(self, request: HttpRequest | None = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(request, *args, **kwargs)
        field = self.fields["username"]
        assert isinstance(field, forms.CharField)
        field.label = "Username or e-mail"
        field.max_length = EMAIL_MAX_LENGTH
        field.validators = [MaxLengthValidator(EMAIL_MAX_LENGTH)]
        field.widget.attrs["maxlength"] = str(EMAIL_MAX_LENGTH)


def _check_email_is_free(email: str, *, user: User | None = None) -> str:
    taken = User.objects.filter(email__iexact=email)
    if user is not None:
        taken = taken.exclude(pk=user.pk)
    if taken.exists():
        raise ValidationError(
            "An account with this e-mail address already exists. Sign in with it, or reset "
            "its password if it is yours and you have forgotten it.",
            code="email_taken",
        )
    return email


class SignUpForm(UserCreationForm[User]):
    """Django's sign-up form (a username unique whatever its case, the password twice
    through the password validators) with a required e-mail address, unique too."""

    email = forms.EmailField(
        label="E-mail",
        max_length=EMAIL_MAX_LENGTH,
        help_text="To reset your password if you forget it. Never shown to other players.",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )

    time_zone = forms.ChoiceField(
        label="Time zone",
        choices=time_zone_choices,
        widget=ZoneSelect,
        required=False,
        initial="UTC",
        help_text="Deadlines are shown in this zone.",
        error_messages={
            "invalid_choice": "%(value)s is not a time zone we know: choose one from the list.",
        },
    )

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email", "time_zone")

    def clean_time_zone(self) -> str:
        return str(self.cleaned_data.get("time_zone") or "UTC")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields[
            "username"
        ].help_text = "Shown to the other players. Letters, digits and . + - _ only."

    def clean_username(self) -> str:
        username = super().clean_username()
        if username and "@" in username:
            raise ValidationError(
                "A username cannot contain @: you can sign in with your e-mail address as "
                "well as your username.",
                code="at_sign",
            )
        if username and username.lower().startswith(DEPARTED_PREFIX):
            raise ValidationError(
                f"Usernames starting with {DEPARTED_PREFIX} are kept for closed accounts.",
                code="reserved",
            )
        refusal = username and confusable_refusal(
            username, lambda name: User.objects.filter(username__iexact=name).exists()
        )
        if refusal:
            raise ValidationError(refusal, code="confusable")
        return username

    def clean_email(self) -> str:
        return _check_email_is_free(User.objects.normalize_email(self.cleaned_data["email"]))


class CurrentPasswordForm(forms.Form):
    """Asks for the signed-in user's password before a change that matters. The password is
    checked as a sign-in is (`authenticate`), so django-axes counts a wrong one as a failed
    sign-in, and past its limit answers with its pause page (429), even to the right one,
    until the pause is over."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        error_messages={"required": "Type your password to confirm."},
    )

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        self.request = request

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        checked = authenticate(self.request, username=self.user.get_username(), password=password)
        if checked is None or checked.pk != self.user.pk:
            raise ValidationError(
                "That is not your password: nothing was changed.", code="password_incorrect"
            )
        return password


class EmailChangeForm(CurrentPasswordForm):
    email = forms.EmailField(
        label="New e-mail",
        max_length=EMAIL_MAX_LENGTH,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        error_messages={"required": "Type the new e-mail address."},
    )
    field_order = ("email", "password")

    def clean_email(self) -> str:
        email = User.objects.normalize_email(self.cleaned_data["email"])
        return _check_email_is_free(email, user=self.user)

    def save(self) -> User:
        old = self.user.email
        self.user.email = self.cleaned_data["email"]
        self.user.save(update_fields=["email"])
        if old and old.lower() != self.user.email.lower():
            tell_the_old_address(self.user, old)
        return self.user


def tell_the_old_address(user: User, old: str) -> None:
    """A changed e-mail address is told to the address it replaces, so that someone whose
    account was taken over learns it where they still read their mail. A mail server that
    fails is logged, as Django's password reset does; the change is saved all the same."""
    try:
        send_mail(
            "Your Mighty Kingdoms e-mail address was changed",
            f"Hello {user.get_username()},\n\n"
            f"The e-mail address of your Mighty Kingdoms account is now {user.email}; "
            "mail about your campaigns goes there from now on.\n\n"
            "If you did not change it, someone else knows your password: tell the admin "
            "of your campaign, who can hand your kingdom to a new account.\n",
            None,  # DEFAULT_FROM_EMAIL
            [old],
        )
    except Exception:
        logger.exception("The notice of a changed e-mail address to %s was not sent", old)


class DisplayNameForm(forms.ModelForm[User]):
    class Meta:
        model = User
        fields = ("display_name",)

    def clean_display_name(self) -> str:
        given = str(self.cleaned_data.get("display_name") or "")
        if not given.strip():
            return ""  # none: the username is shown
        return plain_name(given, max_length=DISPLAY_NAME_LENGTH, what="A display name")


class QueuedPasswordResetForm(PasswordResetForm):
    """Django's reset form, its e-mail sent by the worker (accounts.tasks): the page does the
    same, in the same time, for an address an account has and one nobody has."""

    def save(self, *args: Any, request: HttpRequest | None = None, **kwargs: Any) -> None:
        assert request is not None  # PasswordResetView passes it
        send_password_reset.delay(
            self.cleaned_data["email"], request.get_host(), request.is_secure()
        )
