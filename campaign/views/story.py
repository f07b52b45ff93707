"""The campaign's story, for its members: every kingdom's might month by month as a chart
and a table, and the territory each held."""

from collections.abc import Iterable

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.views.decorators.http import require_GET

from campaign.display import story
from campaign.models import Membership
from campaign.views.common import membership_for


def banners_of(players: Iterable[Membership]) -> dict[str, story.Banner]:
    """How each kingdom is shown, from its player's membership."""
    return {
        p.kingdom: story.Banner(p.kingdom_name, p.colour, p.heraldry, p.user.get_username())
        for p in players
        if p.kingdom
    }


@login_required
@require_GET
def might_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Might over time: a line chart of every kingdom's might month by month (as the newest
    snapshot of each month left it), the same numbers as a table, and the tiles each held.
    One query reads the whole history."""
    membership = membership_for(request, slug)
    campaign = membership.campaign
    history = list(
        campaign.snapshots.order_by("number").values_list(
            "number", "data__clock", "data__scores", "data__tiles"
        )
    )
    if not history:
        raise Http404("The campaign has not started yet.")
    players = campaign.memberships.exclude(kingdom="").select_related("user")
    told = story.story_of(history, banners=banners_of(players))
    return render(
        request,
        "campaign/might.html",
        {
            "campaign": campaign,
            "membership": membership,
            "story": told,
            "chart": story.might_chart(told),
        },
    )


urlpatterns: list[URLPattern] = [
    path("c/<slug:slug>/story/might/", might_page, name="might"),
]
