"""What the notification tests share: e-mail addresses for a cast, a local HTTP server that
stands in for Discord (never the real one), and ways to read the outbox."""

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from django.core import mail

from accounts.models import User
from campaign.models import Campaign
from notifications.models import Notification


def with_addresses(cast: dict[str, User]) -> dict[str, User]:
    """Each of the cast gets an e-mail address: name@example.org."""
    for name, user in cast.items():
        user.email = f"{name}@example.org"
        user.save(update_fields=["email"])
    return cast


def rows(campaign: Campaign | None = None, **filters: Any) -> list[Notification]:
    found = Notification.objects.all() if campaign is None else campaign.notifications.all()
    return list(found.filter(**filters).select_related("user").order_by("pk"))


def username(row: Notification) -> str:
    """The recipient of an e-mail row."""
    assert row.user is not None
    return row.user.get_username()


def emails_of(campaign: Campaign, kind: str) -> dict[str, Notification]:
    """The e-mail rows of one kind, by recipient's username."""
    return {
        row.user.get_username(): row
        for row in rows(campaign, kind=kind, channel="email")
        if row.user is not None
    }


def sent_to(address: str) -> list[mail.EmailMessage]:
    return [message for message in mail.outbox if address in message.to]


@dataclass
class StandIn:
    """A local HTTP server in place of Discord's webhook: it answers each POST with the next
    of `answers` (status, JSON body), then 204, after `delay` seconds, and records what it
    was sent."""

    url: str = ""
    answers: list[tuple[int, Any]] = field(default_factory=list)
    bodies: list[dict[str, Any]] = field(default_factory=list)
    delay: float = 0.0

    @property
    def contents(self) -> list[str]:
        return [body["content"] for body in self.bodies]


@contextmanager
def discord_stand_in() -> Iterator[StandIn]:
    stand_in = StandIn()
    lock = threading.Lock()

    class Webhook(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            time.sleep(stand_in.delay)
            with lock:
                stand_in.bodies.append(body)
                status, answer = stand_in.answers.pop(0) if stand_in.answers else (204, None)
            payload = b"" if answer is None else json.dumps(answer).encode()
            try:
                self.send_response(status)
                if payload:
                    self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)
            except BrokenPipeError:
                pass  # the client gave up waiting (the timeout test)

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Webhook)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    stand_in.url = f"http://127.0.0.1:{server.server_port}/api/webhooks/42/stand-in-token-wxyz"
    try:
        yield stand_in
    finally:
        server.shutdown()
        server.server_close()
