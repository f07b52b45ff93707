from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.cache import patch_vary_headers
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it, for type checking."""

    htmx: HtmxDetails


def page_or_fragment(
    request: HttpRequest,
    template: str,
    context: dict[str, Any],
    *,
    fragment: str,
    status: int = 200,
) -> HttpResponse:
    """The whole page, or for htmx only its `fragment` partial (the part the page swaps).
    A history restore (htmx asking again for a page it no longer holds in its cache) gets
    the whole page, never a bare fragment; `Vary: HX-Request`, so that no cache hands the
    fragment to a browser asking for the page, or the page to htmx."""
    htmx: HtmxDetails | None = getattr(request, "htmx", None)
    partial = htmx is not None and bool(htmx) and not htmx.history_restore_request
    shown = f"{template}#{fragment}" if partial else template
    response = render(request, shown, context, status=status)
    patch_vary_headers(response, ("HX-Request",))
    return response
