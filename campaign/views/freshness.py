"""ETags for the campaign pages players keep open and htmx polls: a second identical request
is answered 304 Not Modified without drawing the page again.

The tag is a digest of everything the page shows for its viewer: the campaign's row (its
status, deadline, options...), its newest snapshot, its members and their kingdoms' looks,
the decisions given and not yet consumed (who is ready), the viewer (their account, session,
time zone, CSRF cookie), the request itself (path and query, htmx fragment or whole page),
and the code and templates of this release. A few small queries, none that grows with the
map or the campaign's length. When a message waits to be shown, there is no tag: the page is
always drawn, and the message shown once.

The browser revalidates (`Cache-Control: private, no-cache`), sends If-None-Match itself on
htmx's polls and hands htmx the stored page on a 304 (htmx 2 sees a 200 and swaps the same
board), so polling goes on as before."""

import hashlib
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path
from typing import Any, cast

from django.conf import settings
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.views.decorators.http import condition

from accounts.models import User
from campaign.models import Campaign, Membership

_RELEASE_FILES = ("templates", "campaign", "battles", "accounts")


@cache
def _release() -> str:
    """A fingerprint of this release's code and templates: a deployment changes every tag."""
    digest = hashlib.sha256()
    base = Path(settings.BASE_DIR)
    for folder in _RELEASE_FILES:
        for path in sorted((base / folder).rglob("*")):
            if path.suffix in {".py", ".html"} and "migrations" not in path.parts:
                digest.update(path.relative_to(base).as_posix().encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _viewer(request: HttpRequest) -> list[object]:
    user = request.user
    session = getattr(request, "session", None)
    return [
        _release(),
        [user.pk, user.get_username(), user.display_name, user.time_zone]
        if isinstance(user, User)
        else None,
        None if session is None else [session.session_key, sorted(session.items())],
        _csrf_secret(request),
        request.get_full_path(),
        request.headers.get("HX-Request"),
        request.headers.get("HX-History-Restore-Request"),
    ]


def _csrf_secret(request: HttpRequest) -> str | None:
    """The secret the page's CSRF token is made from: the cookie's, or the one this answer
    sets (`get_token` makes it, as the page's `{% csrf_token %}` would)."""
    get_token(request)
    return request.META.get("CSRF_COOKIE")


def _campaign(campaign: Campaign) -> list[object]:
    """What the campaign's pages show of it, bar the snapshots' own (unchanging) files."""
    row = [
        getattr(campaign, field.attname)
        for field in Campaign._meta.concrete_fields
        if field.name != "map"
    ]
    newest = campaign.snapshots.order_by("-number").values_list("pk", "number").first()
    members = campaign.memberships.order_by("pk").values_list(
        "pk",
        "user_id",
        "kingdom",
        "kingdom_name",
        "colour",
        "heraldry",
        "is_admin",
        "user__username",
        "user__display_name",
    )
    given = (
        campaign.submissions.filter(consumed_by=None)
        .order_by("pk")
        .values_list("pk", "kingdom", "kind", "ready", "snapshot", "updated_at")
    )
    return [row, newest, list(members), list(given)]


def campaign_tag(request: HttpRequest, slug: str) -> str | None:
    """The ETag of a campaign page for this viewer; None (always drawn) when a message waits,
    or when the viewer cannot read the campaign (the view then says why)."""
    if len(messages.get_messages(request)):
        return None
    campaign = Campaign.objects.defer("map").filter(slug=slug).first()
    if campaign is None:
        return None
    user = request.user
    member = isinstance(user, User) and (
        Membership.objects.filter(campaign=campaign, user=user).exists()
    )
    if not member and not campaign.public:
        return None
    parts = repr([_viewer(request), _campaign(campaign)])
    return hashlib.sha256(parts.encode()).hexdigest()[:32]


def _tag_of_page(request: HttpRequest, *args: Any, slug: str, **kwargs: Any) -> str | None:
    return campaign_tag(request, slug)


def revalidated[View: Callable[..., HttpResponse]](view: View) -> View:
    """Answers a GET whose If-None-Match holds the page's current tag with 304 Not Modified;
    every answer tells the browser to ask again each time, and that htmx's fragment and the
    whole page differ."""
    conditional = condition(etag_func=_tag_of_page)(view)

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = conditional(request, *args, **kwargs)
        if response.status_code not in (200, 304):
            del response["ETag"]  # a refusal or a redirect is never kept and revalidated
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("HX-Request", "Cookie"))
        return response

    return cast(View, wrapped)
