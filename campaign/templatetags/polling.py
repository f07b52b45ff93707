"""`{% poll_every %}`: how often a page that waits for the other players asks whether the
campaign has moved on, as htmx's `hx-trigger="every 10s"` takes it (settings.POLL_SECONDS)."""

from django import template
from django.conf import settings

register = template.Library()


@register.simple_tag
def poll_every() -> str:
    return f"{settings.POLL_SECONDS}s"
