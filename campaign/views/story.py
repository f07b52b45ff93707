"""The campaign's story, for its members (and anyone, if the campaign is public): every kingdom's might month by month as a chart
and a table, and the territory each held; and the chronicle, the campaign month by month
in words."""

import hashlib
from collections.abc import Iterable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import URLPattern, path
from django.views.decorators.http import require_GET

from campaign.access import reader_for, signed_in_unless_public
from campaign.display import chronicle, history, story
from campaign.display.mapcache import derived
from campaign.gazetteer import Names
from campaign.models import Membership, Snapshot


def banners_of(players: Iterable[Membership]) -> dict[str, story.Banner]:
    """How each kingdom is shown, from its player's membership."""
    return {
        p.kingdom: story.Banner(p.kingdom_name, p.colour, p.heraldry, p.user.get_username())
        for p in players
        if p.kingdom
    }


@signed_in_unless_public
@require_GET
def might_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Might over time: a line chart of every kingdom's might at the end of each month, the
    same numbers as a table, and the tiles each held. Two queries read the whole history
    (`history.months_of`)."""
    campaign, membership = reader_for(request, slug)
    months = history.months_of(campaign.pk)
    if not months:
        raise Http404("The campaign has not started yet.")
    players = campaign.memberships.exclude(kingdom="").select_related("user")
    told = story.story_of(months, banners=banners_of(players))
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


# --- The chronicle ----------------------------------------------------------------------------


@signed_in_unless_public
@require_GET
def chronicle_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The chronicle: the campaign month by month in words, newest month first (what a
    player returning to the campaign wants first), from the newest snapshot's events alone;
    `?kingdom=<id>` keeps the events that name that kingdom; each battle's reports linked
    to its result (the template asks `battle_reports`). Four queries of its own and three
    for the battle reports, however long the campaign and however large its map."""
    campaign, membership = reader_for(request, slug)
    newest = (  # the newest snapshot holds its events whole
        campaign.snapshots.order_by("-number")
        .values_list("own_events", "state__battles", "state__tiles")
        .first()
    )
    if newest is None:
        raise Http404("The campaign has not started yet.")
    events, battles, tiles = newest
    kingdoms = dict(
        campaign.memberships.exclude(kingdom="")
        .order_by("kingdom_name")
        .values_list("kingdom", "kingdom_name")
    )
    names = {kingdom: name or kingdom for kingdom, name in kingdoms.items()}
    said = Names.of({"tiles": tiles, "events": events}, campaign.gazetteer, names)
    chosen = request.GET.get("kingdom", "")
    chosen = chosen if chosen in names else ""
    history = campaign.snapshots.values_list("number", "clock")
    return render(
        request,
        "campaign/chronicle.html",
        {
            "campaign": campaign,
            "membership": membership,
            "kingdoms": names,
            "chosen": chosen,
            "chosen_name": names.get(chosen, ""),
            "chronicle": chronicle.chronicle_of(
                events or [],
                battles or [],
                names=said,
                months=chronicle.snapshots_of_months(history),
                kingdom=chosen,
            ),
        },
    )


@signed_in_unless_public
@require_GET
def end_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The end of a campaign: the podium and the final standings with the tiebreakers that
    decided them (ruling P2), each kingdom's best moments with its battle reports, and the
    whole chronicle, oldest first. The moments and the chronicle are told once for the
    campaign's names and looks and kept (`derived`): four queries of its own (three more
    the first time, to read the whole history) and three for the battle reports (the
    template asks `battle_reports`), however long the campaign."""
    campaign, membership = reader_for(request, slug)
    newest = Snapshot.objects.newest(campaign)
    if newest is None or newest.clock.get("season") != "ended":
        raise Http404("The campaign has not ended.")
    data = newest.data
    scores, kingdoms = data["scores"], data["kingdoms"]
    players = list(campaign.memberships.exclude(kingdom="").select_related("user"))
    banners = banners_of(players)
    names = {k: banner.name for k, banner in banners.items()}
    said = Names.of(data, campaign.gazetteer, names)
    moments = derived(  # each kingdom's best months, told once for its looks
        newest,
        f"moments:{_digest(sorted(banners.items()))}",
        lambda: story.best_moments(
            story.story_of(history.months_of(campaign.pk), banners=banners), kingdoms
        ),
    )
    whole_chronicle = derived(  # an ended campaign's chronicle, told once for its names
        newest,
        f"chronicle:{said.fingerprint()}",
        lambda: chronicle.chronicle_of(
            data["events"],
            data["battles"],
            names=said,
            months=chronicle.snapshots_of_months(campaign.snapshots.values_list("number", "clock")),
        ),
    )
    standings = story.leaderboard(
        {"scores": scores, "kingdoms": kingdoms, "options": data["options"]}, banners=banners
    )
    return render(
        request,
        "campaign/end.html",
        {
            "campaign": campaign,
            "membership": membership,
            "kingdoms": names,  # each kingdom's name, as the battle reports name its side
            "standings": standings,
            "podium": [s for s in standings.standings if s.rank <= 3],
            "tiebreaks": story.tiebreaks(scores, kingdoms, names),
            "moments": moments,
            "chronicle": whole_chronicle[::-1],  # oldest first: the story from its beginning
        },
    )


def _digest(looks: object) -> str:
    """A short fingerprint of what the kingdoms look like (their banners), for a key."""
    return hashlib.sha256(repr(looks).encode()).hexdigest()[:16]


urlpatterns: list[URLPattern] = [
    path("c/<slug:slug>/story/might/", might_page, name="might"),
    path("c/<slug:slug>/story/chronicle/", chronicle_page, name="chronicle"),
    path("c/<slug:slug>/story/end/", end_page, name="end"),
]
