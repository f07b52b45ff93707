"""What the campaign's pages share: what the campaign waits for from a kingdom, with where
to give it, and how a player's decision post is read. Who may see a page is
campaign.access."""

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.urls import reverse

from campaign.asks import WORDS, in_order_of_play
from campaign.forms import DecisionForm
from campaign.rules import decisions
from campaign.services import common


@dataclass(frozen=True)
class Ask:
    """Something the campaign waits for from a kingdom, and where to give it."""

    words: str
    url: str | None

    def __str__(self) -> str:
        return self.words


def asks_of(
    slug: str, pending: list[dict[str, Any]] | None, kingdom: str, ready: Collection[str] = ()
) -> list[Ask]:
    """What the newest `pending` asks of this kingdom, in the campaign's order of play, bar
    what it has given and marked ready (`ready`: the kinds of its open decisions marked
    ready, `common.marked_ready`): that waits for the others, not for it. A battle entry
    answers one battle of those asked, never the ask."""
    answered = {
        kind
        for kind, given in decisions.ANSWERS.items()
        if given in ready and given not in decisions.LISTED
    }
    kinds = {
        p["kind"]
        for p in pending or []
        if kingdom and p["kingdom"] == kingdom and p["kind"] not in answered
    }
    return [
        Ask(WORDS[kind].ask, reverse(WORDS[kind].page, args=[slug]))
        for kind in in_order_of_play(kinds)
    ]


@dataclass(frozen=True)
class Decision:
    """A decision post's `seen`, `ready` and `draft` (campaign.forms.DecisionForm)."""

    seen: int
    ready: bool
    draft: str | None


def decision_of(post: Any) -> Decision:
    """The post's `seen`, `ready` and `draft`; a post without a readable `seen` (a page
    from before the campaign moved on, or a forged one) is refused in words."""
    form = DecisionForm(post)
    if not form.is_valid():
        raise common.ServiceError(
            "This page is out of date: reload it and decide again.", code="no-seen"
        )
    given = form.cleaned_data
    return Decision(given["seen"], given["ready"] != "no", given["draft"] or None)
