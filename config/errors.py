"""The server's answer when a request fails: while the database does not answer (a restart,
a lost connection) or the session store does not take a sign-out (Redis away:
accounts.sessions), a 503 page that says so and asks to try again in a minute, instead of
the 500 of a fault in the code. Rendered without the database: no session, no user."""

import sys

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.views.defaults import server_error as django_server_error

from accounts.sessions import SessionsAway

RETRY_AFTER_SECONDS = 60


def server_error(request: HttpRequest, template_name: str = "500.html") -> HttpResponse:
    """Django's `handler500`, called while the exception is being handled."""
    failed = sys.exc_info()[1]
    if isinstance(failed, SessionsAway):
        away = "The store of who is signed in is not answering just now (a restart, most likely)."
    elif isinstance(failed, OperationalError | InterfaceError) or _lost_connection(failed):
        away = "The campaigns' database is not answering just now (a restart, most likely)."
    else:
        return django_server_error(request, template_name)
    page = render_to_string("errors/database_away.html", {"away": away})
    response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


def _lost_connection(failed: BaseException | None) -> bool:
    """psycopg reports a server gone mid-query as a DatabaseError whose cause says so."""
    return isinstance(failed, DatabaseError) and "connection" in str(failed).lower()
