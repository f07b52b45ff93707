"""`{% when campaign.deadline %}`: a deadline in the viewer's own time zone. Until the viewer
has set one (the zone is still UTC, as for an account made before sign-up asked), it says so
beside the time and links to where it is set, so nobody misreads a deadline by hours.

`{{ letter.written_at|moment }}`: any other moment, in the viewer's zone, labelled with it."""

from datetime import datetime, tzinfo
from functools import lru_cache
from typing import Any

from django import template
from django.template.defaultfilters import date
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language

register = template.Library()


def _time(moment: datetime, style: str) -> SafeString:
    """`<time>` in the viewer's zone (accounts.middleware), its machine form to the second."""
    return _time_in(moment, style, timezone.get_current_timezone(), get_language())


@lru_cache(maxsize=4096)
def _time_in(moment: datetime, style: str, zone: tzinfo, language: str | None) -> SafeString:
    """Kept by each process: a page that polls draws the same moments again and again (a
    letter's, each time its letters are drawn), and formatting them was much of it (issue
    37). `language`: the one the month and day are named in."""
    here = timezone.localtime(moment, zone).replace(microsecond=0)
    return format_html('<time datetime="{}">{}</time>', here.isoformat(), date(here, style))


@register.filter
def moment(value: datetime) -> SafeString:
    return _time(value, "D j M, H:i e")


@register.simple_tag(takes_context=True)
def when(context: dict[str, Any], moment: datetime) -> SafeString:
    shown = _time(moment, "D j M, H:i e")
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.time_zone != "UTC":
        return shown
    href = f"{reverse('accounts:settings')}#time-zone"
    return format_html('{} <a class="zone-hint" href="{}">(set your time zone)</a>', shown, href)
