"""`{% when campaign.deadline %}`: a deadline in the viewer's own time zone. Until the viewer
has set one (the zone is still UTC, as for an account made before sign-up asked), it says so
beside the time and links to where it is set, so nobody misreads a deadline by hours."""

from datetime import datetime
from typing import Any

from django import template
from django.template.defaultfilters import date
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag(takes_context=True)
def when(context: dict[str, Any], moment: datetime) -> SafeString:
    here = timezone.localtime(moment)  # the viewer's zone (accounts.middleware)
    shown = format_html(
        '<time datetime="{}">{}</time>', date(here, "c"), date(here, "D j M, H:i e")
    )
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.time_zone != "UTC":
        return shown
    href = f"{reverse('accounts:settings')}#time-zone"
    return format_html('{} <a class="zone-hint" href="{}">(set your time zone)</a>', shown, href)
