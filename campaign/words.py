"""Plain words that pages and messages share: where the site is served (for links written
far from any request), a moment in its reader's time zone, the part of the campaign a clock
stands in, a list said in English, how a kingdom and a person are named to others. No database, no
request: the dashboard, the deadlines' sentences and the notifications read them alike.
How places and units are named: `campaign.gazetteer`, read by `names_of`."""

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings

from campaign.gazetteer import Names
from campaign.rules.state import Season

if TYPE_CHECKING:  # no model is loaded here: the pure display modules read these words too
    from accounts.models import User

type Json = dict[str, Any]


class Ruler(Protocol):
    """A player's membership, as the words and the map read it."""

    kingdom: str
    kingdom_name: str
    colour: str
    heraldry: str


def kingdom_names(data: Json | None, players: Iterable[Ruler] = ()) -> dict[str, str]:
    """Each kingdom's name by its id: as its player named it, else as the campaign file
    does, else its id. The one way every page and message names a kingdom."""
    names = {k["id"]: k.get("name") or k["id"] for k in (data or {}).get("kingdoms", [])}
    return names | {p.kingdom: p.kingdom_name for p in players if p.kingdom and p.kingdom_name}


def names_of(data: Json | None, gazetteer: Json | None, players: Iterable[Ruler] = ()) -> Names:
    """Every name a page or message says in a campaign: its kingdoms' (`kingdom_names`), and
    its places' and units' (the campaign's gazetteer), as they read in the campaign file
    `data`. The one way every page and message names a place or a unit."""
    return Names.of(data, gazetteer, kingdom_names(data, players))


def site_url() -> str:
    """Where the site is served, for the links of messages written far from any request:
    `SITE_URL` if the settings have one, else the first `CSRF_TRUSTED_ORIGINS` origin (the
    site's own, in a deployment), else the first allowed host."""
    configured: str = settings.SITE_URL or next(iter(settings.CSRF_TRUSTED_ORIGINS), "")
    if configured:
        return configured.rstrip("/")
    hosts = [h for h in settings.ALLOWED_HOSTS if h != "*" and not h.startswith(".")]
    host = hosts[0] if hosts else "localhost"
    return f"http://{host}:8000" if settings.DEBUG else f"https://{host}"


def absolute(path: str) -> str:
    return f"{site_url()}{path}"


def zone(name: str) -> ZoneInfo:
    """A time zone by its IANA name; UTC for a name that is none."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def when(moment: datetime, zone_name: str) -> str:
    """A deadline as its reader says it, in the reader's time zone."""
    local = moment.astimezone(zone(zone_name))
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M} ({zone_name})"


def chapter_words(clock: Json) -> str:
    """The part of the campaign a clock stands in (the setup, a summer month, a winter, the
    end), as every page and message says it."""
    season, year = clock.get("season"), clock.get("year")
    if season == Season.SETUP:
        return "the setup"
    if season == Season.SUMMER:
        month = clock.get("month")
        return f"year {year}, summer month {month}" if month else f"year {year}, summer"
    if season == Season.WINTER:
        return f"the winter of year {year}"
    return f"the end of year {year}"


def capitalised(words: str) -> str:
    return words[:1].upper() + words[1:]


def joined(words: Sequence[str]) -> str:
    """Words as a list in English: "a", "a and b", "a, b and c"."""
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def shown(user: "User") -> str:
    """How a person is named to others: the display name they chose, else the username."""
    return user.display_name or user.get_username()


LICENCES = {"monsters": "Monsters", "war_engines": "War Engines"}


def licence_words(licence: list[str] | None) -> str:
    """An army's licence (option army_limits, OA1) as players say it: "Monsters, War
    Engines", or "none"."""
    return ", ".join(LICENCES.get(kind, kind) for kind in licence or ()) or "none"
