"""Who may see a campaign's pages: the signed-in user's membership (a 404 for anyone else,
so a campaign one does not belong to stays invisible), who may read a public campaign's
story, and its newest snapshot. Shared by every app's pages (campaign, battles,
notifications)."""

from collections.abc import Callable
from functools import cached_property, wraps
from typing import Any, cast

from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse

from accounts.models import User
from campaign.models import Campaign, Membership, Snapshot
from campaign.reads import rows_of


class PageRead:
    """What a page's ETag read of its campaign `slug` (`views.freshness`), kept on the
    request for its view, which then does not read it again: the campaign (bar its map),
    the signed-in user's membership of it (None: not a member), and what the letters the
    viewer's kingdom reads stood at (`letters`, "" when the tag did not read them). The
    models are made from the row (`make`) only if the view asks: a poll answered 304 never
    does."""

    def __init__(
        self, slug: str, letters: str, make: Callable[[], tuple[Campaign, Membership | None]]
    ) -> None:
        self.slug, self.letters, self._make = slug, letters, make

    @cached_property
    def _made(self) -> tuple[Campaign, Membership | None]:
        return self._make()

    @property
    def campaign(self) -> Campaign:
        return self._made[0]

    @property
    def membership(self) -> Membership | None:
        return self._made[1]


def keep_page_read(request: HttpRequest, read: PageRead) -> None:
    request.page_read = read  # type: ignore[attr-defined]  # as django-htmx keeps request.htmx


def page_read(request: HttpRequest, slug: str) -> PageRead | None:
    """What the page's tag read of the campaign `slug`, if it read it in this request."""
    read = getattr(request, "page_read", None)
    return read if isinstance(read, PageRead) and read.slug == slug else None


def _campaign(request: HttpRequest, slug: str) -> Campaign | None:
    """The campaign, bar the map it was created with (read once, as it starts: the
    snapshots hold the map since), as the page's tag read it if it did."""
    read = page_read(request, slug)
    if read is not None:
        return read.campaign
    found = rows_of(Campaign, slug, where=("slug",), leaving=("map",))
    return found[0] if found else None


def _membership_of(request: HttpRequest, campaign: Campaign) -> Membership | None:
    """The signed-in user's membership of the campaign (with it), if they are a member; as
    the page's tag read it if it did."""
    read = page_read(request, campaign.slug)
    if read is not None:
        return read.membership
    user = request.user
    return Membership.of(campaign, user.pk) if isinstance(user, User) else None


def membership_for(request: HttpRequest, slug: str) -> Membership:
    """The signed-in user's membership of the campaign; 404 for anyone else, so a campaign
    one doesn't belong to stays invisible."""
    campaign = _campaign(request, slug) if isinstance(request.user, User) else None
    return _member(_membership_of(request, campaign) if campaign else None)


def admin_for(request: HttpRequest, slug: str) -> tuple[Membership, User]:
    """The signed-in admin's membership and user; 404 for everyone else, players included.
    The dashboard asks it, and the desks it loads from other apps (battles, notifications)."""
    membership = membership_for(request, slug)
    if not membership.is_admin or not isinstance(request.user, User):
        raise Http404("No such campaign.")
    return membership, request.user


def _member(membership: Membership | None) -> Membership:
    """The membership found, or a 404 that does not tell a campaign one doesn't belong to
    from one that doesn't exist."""
    if membership is None:
        raise Http404("No such campaign.")
    return membership


def _ruler(membership: Membership) -> Membership:
    """The membership, if it rules a kingdom; a 404 for an admin who rules none."""
    if not membership.kingdom:
        raise Http404("You don't rule a kingdom in this campaign.")
    return membership


def reader_for(request: HttpRequest, slug: str) -> tuple[Campaign, Membership | None]:
    """The campaign and the signed-in user's membership of it; for a public campaign,
    anyone else reads it as a visitor (no membership). 404 for anyone else. Only the pages
    a public campaign shows everyone ask this: its map, might, chronicle and end."""
    campaign = _campaign(request, slug)
    if campaign is None:
        raise Http404("No such campaign.")
    membership = _membership_of(request, campaign)
    if membership is None and not campaign.public:
        raise Http404("No such campaign.")
    return campaign, membership


def signed_in_unless_public[View: Callable[..., HttpResponse]](view: View) -> View:
    """`login_required`, except for a public campaign: a signed-out visitor reads it."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated and not (
            Campaign.objects.filter(slug=kwargs.get("slug"), public=True).exists()
        ):
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return cast(View, wrapped)


def player_for(request: HttpRequest, slug: str) -> Membership:
    """The signed-in user's membership, as the ruler of a kingdom: 404 for anyone else."""
    return _ruler(membership_for(request, slug))


def players_of(request: HttpRequest, slug: str) -> tuple[Membership, list[Membership]]:
    """`player_for`, with the campaign's players of kingdoms (the user's own among them), in
    two queries: the pages that draw every kingdom ask for both."""
    user = request.user
    campaign = _campaign(request, slug) if isinstance(user, User) else None
    members = _members_of(campaign) if campaign else []
    membership = _ruler(_member(next((m for m in members if m.user_id == user.pk), None)))
    return membership, [m for m in members if m.kingdom]


def _members_of(campaign: Campaign) -> list[Membership]:
    """The campaign's memberships, each sharing the one campaign read: its fields are read
    once, not once for every player (the gazetteer alone is kilobytes of JSON)."""
    members = rows_of(Membership, campaign.pk, where=("campaign_id",))
    for member in members:
        member.campaign = campaign
    return members


def signed_in_user(request: HttpRequest) -> User:
    """The user of a page that asks to be signed in (`login_required`); 404 otherwise."""
    if not isinstance(request.user, User):
        raise Http404("No such page.")
    return request.user


def newest_or_404(campaign: Campaign) -> Snapshot:
    """The campaign's newest snapshot; 404 before it has started."""
    snapshot = Snapshot.objects.newest(campaign)
    if snapshot is None:
        raise Http404("The campaign has not started yet.")
    return snapshot
