from django import forms

from accounts.models import User, known_time_zones

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


def time_zone_choices() -> Choices:
    """Common zones first, then each region's zones, by place name. Old aliases outside the
    regions ("US/Pacific", "Etc/GMT+5") are left out."""
    known = known_time_zones()
    choices: Choices = [("Common", [(z, _place(z)) for z in COMMON_ZONES if z in known])]
    for region in REGIONS:
        zones = sorted(z for z in known if z.startswith(f"{region}/"))
        choices.append((region, [(z, _place(z.removeprefix(f"{region}/"))) for z in zones]))
    return choices


class TimeZoneForm(forms.ModelForm[User]):
    time_zone = forms.ChoiceField(
        label="Time zone",
        choices=time_zone_choices,
        help_text="Deadlines are shown in this zone.",
        error_messages={
            "required": "Choose your time zone.",
            "invalid_choice": "%(value)s is not a time zone we know: choose one from the list.",
        },
    )

    class Meta:
        model = User
        fields = ("time_zone",)
