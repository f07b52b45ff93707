"""What the campaign app announces to the apps that listen (`battles`, `notifications`), so
that it never imports them. Each signal is sent inside the transaction of the change it
announces, so what a listener writes commits with the change or not at all.

- `snapshot_stored`: a new snapshot is stored. Arguments: `campaign`, `snapshot`, and
  `imported` (True when it came with a campaign imported from a file: its battles get their
  rows, and nobody is told what happened on another site).
- `campaign_full`: the last kingdom a campaign needs has joined; its admins may start it.
  Argument: `campaign`.
- `invitations_made`: an admin invites people by e-mail. Arguments: `campaign`, `actor`,
  `addresses` (each once, lower-case), `link` (the join page's whole address) and
  `invitation` (an id unique to this act: the same call announced twice is one act). A
  receiver returns the addresses it has taken on to send, so that the admin is told only
  what is true.

- `decisions_set_aside`: at a deadline, the engine refused part of what kingdoms had
  drafted (an admin's correction made it illegal, say), and that part took the deadline
  default instead of stopping the campaign. Arguments: `campaign`, `snapshot` (the one the
  advance stored) and `set_aside` (`services.inputs.SetAside`: kingdom, kind, why).

`quietly()` tells the listeners to keep their rows but tell nobody: see its docstring."""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.dispatch import Signal

snapshot_stored = Signal()
campaign_full = Signal()
invitations_made = Signal()
decisions_set_aside = Signal()

_quiet: ContextVar[bool] = ContextVar("campaign_quiet", default=False)


@contextmanager
def quietly() -> Iterator[None]:
    """Tell nobody of what happens inside: the apps that listen keep their rows (the battles)
    and write no message (the notifications). For tools that play a campaign's history in
    bulk, such as seeding the demo, whose hundreds of bot-played steps nobody should be told."""
    token = _quiet.set(True)
    try:
        yield
    finally:
        _quiet.reset(token)


def is_quiet() -> bool:
    """Whether nobody is to be told, now (inside `quietly()`)."""
    return _quiet.get()
