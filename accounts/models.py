from functools import cache
from zoneinfo import available_timezones

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower

# In the tz database's folder but not a place anyone lives: the machine's own zone and
# tzdata's placeholder.
NOT_PLACES = frozenset({"localtime", "Factory", "posixrules"})


@cache
def known_time_zones() -> frozenset[str]:
    """Every IANA time zone name this machine knows (reading them walks the tz database)."""
    return frozenset(available_timezones() - NOT_PLACES)


def validate_time_zone(value: str) -> None:
    if value not in known_time_zones():
        raise ValidationError(
            "%(value)s is not a time zone we know.", code="invalid", params={"value": value}
        )


DISPLAY_NAME_LENGTH = 60


class User(AbstractUser):
    """A person who plays in or runs campaigns.

    Custom from the first migration so that later fields (time zone,
    notification settings) are plain migrations, never a swap of the user model.
    """

    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        validators=[validate_time_zone],
        help_text="IANA name, such as Europe/London: deadlines are shown in this zone.",
    )
    display_name = models.CharField(
        max_length=DISPLAY_NAME_LENGTH,
        blank=True,
        help_text="Shown instead of your username. Leave it empty to use your username.",
    )

    class Meta(AbstractUser.Meta):
        constraints = [
            # One account per e-mail address, whatever its case; many may have none (an
            # account made by an import, or closed).
            models.UniqueConstraint(
                Lower("email"),
                condition=~Q(email=""),
                name="one_account_per_email",
                violation_error_message="An account with this e-mail address already exists.",
            ),
        ]

    def __str__(self) -> str:
        return self.get_username()
