from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it, for type checking."""

    htmx: HtmxDetails
