from collections.abc import Callable
from urllib.parse import urlencode, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth import REDIRECT_FIELD_NAME
from django.http import HttpRequest, HttpResponse
from django.shortcuts import resolve_url
from django.utils import timezone
from django_htmx.http import HttpResponseClientRedirect

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


class HtmxSignInMiddleware:
    """A request htmx makes inside an open page (a fragment loading, a poll, a post) whose
    session has expired is sent to sign in as a whole page would be: htmx is told to take
    the browser to the sign-in page, and back to the page it was on once signed in. Django's
    own answer, a redirect, would be followed by htmx and the sign-in page swapped into a
    section of the page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if getattr(request, "htmx", False) and _sends_to_sign_in(response):
            page = request.htmx.current_url_abs_path or "/"  # type: ignore[attr-defined]
            return HttpResponseClientRedirect(sign_in_url(page))
        return response


def sign_in_url(then: str) -> str:
    """The sign-in page, and where it sends the player once signed in."""
    return f"{resolve_url(settings.LOGIN_URL)}?{urlencode({REDIRECT_FIELD_NAME: then}, safe='/')}"


def _sends_to_sign_in(response: HttpResponse) -> bool:
    return response.status_code == 302 and (
        urlsplit(response["Location"]).path == resolve_url(settings.LOGIN_URL)
    )
