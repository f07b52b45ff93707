"""What a side decides around its battles: it concedes or makes a Last Stand (ruling
B4), chooses where its next battle is fought and where its units retreat; and when the
game is played. What reaches the engine goes through the campaign's submissions."""

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from battles.models import (
    Battle,
    PlayTime,
)
from battles.services.common import locked_open, pending_of, side_of
from campaign.models import Campaign
from campaign.rules.state import HORDE, PendingKind
from campaign.services import common, submissions
from campaign.services.common import ServiceError

# --- before the game: concession and Last Stand (ruling B4) ----------------------------------


@transaction.atomic
def battle_concede(*, battle: Battle, user: User, seen: int | None = None) -> None:
    """A side concedes the field instead of playing: a loss, and a win for the other side
    worth no might (ruling B4)."""
    battle = locked_open(battle, seen)
    kingdom = side_of(battle, user)
    if kingdom == HORDE:
        raise ServiceError(
            "The marauders never concede (option OW5): report the game's result instead.",
            code="never-concedes",
        )
    submissions.submission_save(
        campaign=battle.campaign,
        user=user,
        kind="battles",
        payload=[{"hex": battle.hex, "concede": kingdom}],
        seen=seen,
    )


@transaction.atomic
def battle_last_stand(
    *, campaign: Campaign, user: User, hex: list[int], stand: bool, seen: int | None = None
) -> None:
    """A side that must concede may make a Last Stand where the rules allow (ruling B4):
    `stand` fights a pitched battle, else it concedes. Only where it is asked: the engine
    judges a Last Stand when its battle is picked, and one for another tile would be
    refused then, at the advance, rather than now (ruling B12)."""
    kingdom = common.kingdom_of(campaign, user)
    if not any(p["hex"] == hex for p in pending_of(campaign, kingdom, PendingKind.LAST_STAND)):
        raise ServiceError(
            "Your kingdom is not asked to make a Last Stand or concede there.",
            code="not-asked",
            field="hex",
        )
    entry = {"hex": hex, "last_stand" if stand else "concede": kingdom}
    submissions.submission_save(
        campaign=campaign, user=user, kind="battles", payload=[entry], seen=seen
    )


@transaction.atomic
def battle_retreat(
    *, campaign: Campaign, user: User, retreats: dict[str, list[int]], seen: int | None = None
) -> None:
    """Where the kingdom's beaten units go (ruling B10): given and marked ready at once. Only
    for the units asked about: a retreat for a unit that does not retreat addresses no
    battle, and the engine would refuse it when the month's battles end (ruling B12)."""
    kingdom = common.kingdom_of(campaign, user)
    asked = {p["unit"] for p in pending_of(campaign, kingdom, PendingKind.RETREAT)}
    if not set(retreats) <= asked:
        raise ServiceError(
            "Only a unit asked where to retreat may be told where to go.",
            code="not-asked",
            field="retreats",
        )
    submissions.submission_save(
        campaign=campaign, user=user, kind="retreats", payload=retreats, seen=seen
    )
    submissions.submission_set_ready(campaign=campaign, user=user, seen=seen)


@transaction.atomic
def battle_choose(
    *, campaign: Campaign, user: User, hex: list[int], naval: bool = False, seen: int | None = None
) -> None:
    """The tile the kingdom picks for its next battle (ruling B2), and whether it fights
    there at sea where both sides have ships and armies (B3)."""
    submissions.submission_save(
        campaign=campaign, user=user, kind="battle_choices", payload=[hex], seen=seen
    )
    if naval:
        entry = {"hex": hex, "naval": common.kingdom_of(campaign, user)}
        submissions.submission_save(
            campaign=campaign, user=user, kind="battles", payload=[entry], seen=seen
        )
    submissions.submission_set_ready(campaign=campaign, user=user, seen=seen)


# --- when to play ----------------------------------------------------------------------------


@transaction.atomic
def battle_propose_time(*, battle: Battle, user: User, at: Any) -> PlayTime:
    """A side proposes a time to play; the other side may accept it."""
    battle = locked_open(battle, None)
    kingdom = side_of(battle, user)
    if at <= timezone.now():
        raise ServiceError("Propose a time in the future.", code="in-the-past", field="at")
    return PlayTime.objects.create(battle=battle, kingdom=kingdom, proposed_by=user, at=at)


@transaction.atomic
def battle_accept_time(*, play_time: PlayTime, user: User) -> PlayTime:
    """The other side accepts a proposed time: it is the agreed one."""
    battle = locked_open(play_time.battle, None)
    kingdom = side_of(battle, user)
    if kingdom == play_time.kingdom:
        raise ServiceError("Your opponent accepts the times you propose.", code="own-time")
    battle.play_times.exclude(pk=play_time.pk).update(accepted_at=None)
    play_time.accepted_at = timezone.now()
    play_time.save()
    return play_time
