from functools import cache
from zoneinfo import available_timezones

from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import models

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

    def __str__(self) -> str:
        return self.get_username()
