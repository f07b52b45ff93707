"""How big a request's body may be. Every form of the app is small: its body may be
DATA_UPLOAD_MAX_MEMORY_SIZE (256 KB) at most. A view that takes a file says how big its
body may be with `body_limit`: a battle report's photograph, 12 MB. Django counts only a
post's fields against its own limit, never the files in it; this counts the whole body
(its Content-Length) before anything reads it, so that a file is taken only where one is
asked for, and no bigger than it may be. A body too big is refused with a 400 page in
words, and nothing is saved. nginx has the same limits (deploy/nginx-mighty-kingdoms.conf)."""

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template.defaultfilters import filesizeformat
from django.template.loader import render_to_string

type View = Callable[..., HttpResponse]


def body_limit[V: View](max_bytes: int, words: str) -> Callable[[V], V]:
    """The view takes a body of up to `max_bytes`; `words` say so to one who sends more."""

    def limited(view: V) -> V:
        view.body_limit = (max_bytes, words)  # type: ignore[attr-defined]
        return view

    return limited


def limit_of(view: Callable[..., Any]) -> tuple[int, str]:
    default = (settings.DATA_UPLOAD_MAX_MEMORY_SIZE, "")
    limit: tuple[int, str] = getattr(view, "body_limit", default)
    return limit


def too_large(request: HttpRequest, max_bytes: int, words: str) -> HttpResponse:
    """The 400 page: what was sent was bigger than the page takes, and nothing was saved."""
    context = {"limit": filesizeformat(max_bytes), "words": words}
    page = render_to_string("errors/too_large.html", context, request=request)
    return HttpResponse(page, status=400)


class BodySizeMiddleware:
    """Refuses a body bigger than its view takes; placed before CsrfViewMiddleware, whose
    check reads the body."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: View, args: Any, kwargs: Any
    ) -> HttpResponse | None:
        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            length = 0  # Django reads such a body as empty
        max_bytes, words = limit_of(view)
        if length > max_bytes:
            return too_large(request, max_bytes, words)
        return None
