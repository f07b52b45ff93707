from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponse
from django.utils import timezone

from accounts.models import User


class UserTimeZoneMiddleware:
    """Shows dates in the signed-in user's own time zone (User.time_zone); everyone else
    sees the site's zone, UTC."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        zone = _zone_of(request.user)
        if zone is None:
            timezone.deactivate()
        else:
            timezone.activate(zone)
        try:
            return self.get_response(request)
        finally:
            # The thread serves other visitors next.
            timezone.deactivate()


def _zone_of(user: object) -> ZoneInfo | None:
    if not isinstance(user, User) or user.time_zone == "UTC":
        return None
    try:
        return ZoneInfo(user.time_zone)
    except (ZoneInfoNotFoundError, ValueError):
        # A zone saved once and since dropped from the machine's tz database.
        return None
