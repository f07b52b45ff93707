"""The app's URLs plus one minimal view at /bench/minimal/, behind the same middleware: the
yardstick of `manage.py bench_pages`, served only by its gunicorn (`bench_wsgi`), so the
minimal view is no URL of the app (nor of its permission matrix)."""

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern, URLResolver, include, path

MINIMAL_PATH = "/bench/minimal/"


def minimal(request: HttpRequest) -> HttpResponse:
    return HttpResponse("ok", content_type="text/plain")


urlpatterns: list[URLPattern | URLResolver] = [
    path(MINIMAL_PATH.lstrip("/"), minimal),
    path("", include("config.urls")),
]
