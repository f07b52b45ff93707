"""What every write about a battle shares: who is asking, the battle locked as it
stands, the result as the engine reads it, and the link to its card."""

from collections.abc import Sequence
from typing import Any

from django.urls import reverse

from accounts.models import User
from battles.access import side_for
from battles.models import (
    Battle,
)
from campaign.models import Campaign
from campaign.services import battle_entries, common
from campaign.services.common import ServiceError

type Json = dict[str, Any]


# --- who is asking --------------------------------------------------------------------


def side_of(battle: Battle, user: User) -> str:
    """The side the user speaks for: their kingdom, if it fights this battle, or the horde's
    if they are its general here (OW5); refused otherwise."""
    membership = battle.campaign.memberships.filter(user=user).first()
    side = side_for(battle, membership)
    if not side:
        raise ServiceError("Only this battle's two players may do that.", code="not-in-battle")
    return side


def locked_open(battle: Battle, seen: int | None) -> Battle:
    """The battle, with its campaign's row locked, still waiting for its result and still
    as the player saw it; refused otherwise."""
    battle = locked_awaiting(battle)
    if battle_entries.battle_settled_meanwhile(battle.campaign, battle.hex):
        raise ServiceError("This battle is settled already.", code="settled")
    if seen is not None and seen != common.latest_snapshot(battle.campaign).number:
        raise ServiceError(
            "The campaign has moved on since you looked: check the battle and try again.",
            code="moved-on",
        )
    return battle


def locked_awaiting(battle: Battle) -> Battle:
    """The battle, with its campaign's row locked, still in its month (waiting for its
    result, or with its result in and the month not advanced); refused otherwise."""
    Campaign.objects.select_for_update().get(pk=battle.campaign_id)
    battle = Battle.objects.select_related("campaign").defer("campaign__map").get(pk=battle.pk)
    if not battle.awaiting:
        raise ServiceError("This battle is settled already.", code="settled")
    return battle


def pending_of(campaign: Campaign, kingdom: str, kind: str) -> list[Json]:
    """What the newest snapshot waits for from the kingdom, of one kind."""
    pending = common.latest_snapshot(campaign).data.get("pending", [])
    return [p for p in pending if p["kingdom"] == kingdom and p["kind"] == kind]


def entry_of(battle: Battle, result: str, winner: str, captured: Sequence[str] = ()) -> Json:
    entry: Json = {"hex": battle.hex, "result": result}
    if result == "win":
        entry["winner"] = winner
        if captured:  # option wizards (OA10): checked by the engine against the card
            entry["captured"] = list(captured)
    return entry


def check_result(battle: Battle, result: str, winner: str) -> None:
    if result not in ("win", "draw"):
        raise ServiceError("A result is a win or a draw.", code="bad-result", field="result")
    if result == "win" and winner not in battle.kingdoms:
        raise ServiceError(
            "The winner must be one of the battle's two kingdoms.",
            code="bad-winner",
            field="winner",
        )


def card_url(battle: Battle, section: str = "") -> str:
    """The battle's card; at one of its sections (an element's id), if given."""
    card = reverse("battles:card", args=[battle.campaign.slug, battle.number])
    return f"{card}#{section}" if section else card
