"""How a page that waits for the other players follows the campaign: `{% poll_every %}`,
how often it asks (settings.POLL_SECONDS, as htmx's `every 10s` takes it), and
`{% poll_trigger %}`, the whole of its `hx-trigger`: every so often while the page is
shown, and at once when it is shown again (static/js/polls-when-shown.js holds its polls
while it is hidden: a tab in the background, a phone's locked screen)."""

from django import template
from django.conf import settings

register = template.Library()

SHOWN = "shown"  # the event polls-when-shown.js sends the document as the page is shown again


@register.simple_tag
def poll_every() -> str:
    return f"{settings.POLL_SECONDS}s"


@register.simple_tag
def poll_trigger(every: str = "") -> str:
    """Every `every` (POLL_SECONDS by default), and as the page is shown again."""
    return f"every {every or poll_every()}, {SHOWN} from:document"
