"""How often one visitor may post: a signed-in player is counted by their account (however
many share an address: a club's wifi, the load test), anyone else by their address. Over
the limit a post is refused with a 429 page in words before any view runs, so nothing
changes. The counts live in the cache (Redis when configured, shared by every web process);
while the cache does not answer, posts are let through rather than refused.

The visitor's address is also what django-axes counts sign-in failures by
(AXES_CLIENT_IP_CALLABLE): behind TRUSTED_PROXY_COUNT proxies it is read from the
X-Forwarded-For header they add to."""

import ipaddress
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass

import redis
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string

logger = logging.getLogger(__name__)

POSTING_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
PERIOD_WORDS = {1: "second", 60: "minute", 3600: "hour", 86400: "day"}


@dataclass(frozen=True)
class Rate:
    """At most `posts` in each window of `seconds`."""

    posts: int
    seconds: int

    @property
    def in_words(self) -> str:
        period = PERIOD_WORDS.get(self.seconds, f"{self.seconds} seconds")
        return f"{self.posts} a {period}"


def client_address(request: HttpRequest) -> str:
    """The visitor's address. Behind N trusted proxies (nginx is one), each appends the
    address it was reached from to X-Forwarded-For, so the visitor's is the Nth from the
    right; anything left of it was written by the visitor and is not believed."""
    remote: str = request.META.get("REMOTE_ADDR") or ""
    proxies: int = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    header: str = request.META.get("HTTP_X_FORWARDED_FOR", "")
    forwarded = [address.strip() for address in header.split(",") if address.strip()]
    if len(forwarded) < proxies:
        return remote
    try:
        return str(ipaddress.ip_address(forwarded[-proxies]))
    except ValueError:
        return remote


def post_rate(request: HttpRequest) -> tuple[str, Rate | None]:
    """Who is counted, and at what rate (None: no limit)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        who, limit = f"user:{user.pk}", settings.POST_RATE_LIMIT
    else:
        who, limit = f"address:{client_address(request)}", settings.ANONYMOUS_POST_RATE_LIMIT
    return who, None if limit is None else Rate(*limit)


def over_the_limit(who: str, rate: Rate) -> bool:
    """Count one post by `who` in the current window; True once it is past the rate."""
    window = int(time.time()) // rate.seconds
    key = f"post-rate:{who}:{rate.seconds}:{window}"
    try:
        cache.add(key, 0, timeout=rate.seconds + 5)
        posts = cache.incr(key)
    except ValueError:  # the key expired between add and incr: a new window
        return False
    except (redis.RedisError, OSError) as error:
        logger.warning("Post rate not counted, the cache does not answer: %s", error)
        return False
    return posts > rate.posts


def too_many_posts(
    request: HttpRequest, rate: Rate, done: str = "sent from here, so it was not saved"
) -> HttpResponse:
    """The 429 page: past `rate`, what was asked (`done`: what became of it) was refused."""
    context = {"rate": rate, "done": done}
    page = render_to_string("errors/too_many_posts.html", context, request=request)
    response = HttpResponse(page, status=429)
    response["Retry-After"] = str(rate.seconds)
    return response


def too_often(request: HttpRequest, what: str, limit: tuple[int, int] | None) -> Rate | None:
    """Count one `what` (a costly page, such as a map preview) by the signed-in user; the
    rate (settings' `limit`) once it is past it, else None."""
    user = getattr(request, "user", None)
    if limit is None or user is None or not user.is_authenticated:
        return None
    rate = Rate(*limit)
    return rate if over_the_limit(f"{what}:user:{user.pk}", rate) else None


class PostRateLimitMiddleware:
    """Refuses a visitor's posts past their rate; placed after AuthenticationMiddleware."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method in POSTING_METHODS:
            who, rate = post_rate(request)
            if rate is not None and over_the_limit(who, rate):
                logger.warning("Too many posts from %s to %s", who, request.path)
                return too_many_posts(request, rate)
        return self.get_response(request)
