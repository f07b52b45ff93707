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

- `decisions_refused`: an admin's correction or undo made part of what kingdoms had drafted
  illegal (`cause` "correction" or "undo": each player may still change it), or at a
  deadline the engine refused it and that part took the deadline default instead of
  stopping the campaign (`cause` "deadline"). Arguments: `campaign`, `snapshot` (the one
  stored), `refused` (a list of `Refused`: kingdom, kind, why, unit) and `cause`.

- `kingdom_offered`: an admin offers a kingdom under way to a person with an account.
  Arguments: `campaign` and `offer` (a `KingdomOffer`, with `to_user`).

- `letter_written`: a kingdom writes a letter (issue 28). Arguments: `campaign` and
  `letter` (a `Letter`, with its correspondence). A receiver that posts the letter's words
  outside the site (the herald's, to Discord) returns True: the letter is then no longer
  changed, since the post would keep its first words.

- `campaign_exporting`: a campaign's export document is being written (`campaign.transfer`),
  its row locked. Arguments: `campaign` and `kingdoms` (the ids of its kingdoms). A
  receiver returns the top-level parts of the document it keeps (the battles' reports and
  lists), only of those kingdoms.
- `campaign_importing`: an export document is being imported, checked and not yet written.
  Arguments: `document` (the whole document), `kingdoms` (the ids of the campaign's
  kingdoms) and `battles` (the battles of its newest campaign file, the first numbered 1).
  A receiver checks its parts, refusing a bad one with a ServiceError (`campaign.transfer`
  reads them) before anything is written, and returns a function that writes them (or
  None): called with the new `campaign`, in the import's transaction, once the campaign, its
  members, its snapshots (so its battles' rows) and its letters are written.

- `demo_made`: `seed_demo` has made a demo campaign, whose other parts the listening apps
  may add (the battles' reports). Arguments: `campaign` and `users` (by username).

`quietly()` tells the listeners to keep their rows but tell nobody: see its docstring."""

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.dispatch import Signal


@dataclass(frozen=True)
class Refused:
    """A kingdom's decision (one entry of it, or all of it) that the engine refuses on the
    state as it stands, given before an admin's correction or undo changed that state, or
    refused at an advance: its page says so and its player is told. Set aside at an
    advance, its unit (or kingdom) takes the deadline default at a deadline, and is asked
    again otherwise; a battle's result (`kingdom` "": both players agreed, or the admin
    decided) is asked again of the battle's players."""

    kingdom: str
    kind: str
    why: str
    unit: str | None = None  # the unit whose order it is, when it is one unit's
    unit_name: str = ""  # that unit's name (campaign.gazetteer), as its player reads it
    hex: list[int] | None = None  # the battle's tile, for a battle entry


snapshot_stored = Signal()
campaign_full = Signal()
invitations_made = Signal()
decisions_refused = Signal()
kingdom_offered = Signal()
letter_written = Signal()
campaign_exporting = Signal()
campaign_importing = Signal()
demo_made = Signal()

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
