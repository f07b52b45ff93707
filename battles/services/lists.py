"""Each kingdom's player keeps a book of army lists in the campaign, and before a battle
is played attaches one of them to it (a copy), of at most its side's points; a report of
the result takes the attached lists."""

from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from battles.models import (
    LIST_NAME_LENGTH,
    LIST_POINTS_MAX,
    LIST_RACE_LENGTH,
    LIST_TEXT_LENGTH,
    LISTS_PER_BOOK,
    ArmyList,
    AttachedList,
    Battle,
    ResultReport,
    list_text,
)
from battles.services.common import locked_open, side_of
from campaign.models import Campaign
from campaign.services.common import ServiceError

# --- the book of army lists, and the lists attached to a battle -----------------------------


def _book_of(campaign: Campaign, user: User) -> str:
    """The user's kingdom, whose book it is; refused to anyone who rules none."""
    membership = campaign.memberships.filter(user=user).exclude(kingdom="").first()
    if membership is None:
        raise ServiceError("Only a kingdom's player keeps a book of lists.", code="no-kingdom")
    return membership.kingdom


def _checked_list(name: str, points: int, race: str, text: str) -> dict[str, Any]:
    """A list's fields as they are kept, or every refusal of them at once."""
    name, race, text = name.strip(), race.strip(), list_text(text)
    whole = isinstance(points, int) and not isinstance(points, bool)
    checks = [
        ("name", not name, "Give the list a name."),
        (
            "name",
            len(name) > LIST_NAME_LENGTH,
            f"A list's name is at most {LIST_NAME_LENGTH} characters: yours has {len(name):,}.",
        ),
        (
            "points",
            not whole or not 1 <= points <= LIST_POINTS_MAX,
            f"A list's points are a whole number from 1 to {LIST_POINTS_MAX:,}.",
        ),
        (
            "race",
            len(race) > LIST_RACE_LENGTH,
            f"A list's race is at most {LIST_RACE_LENGTH} characters: yours has {len(race):,}.",
        ),
        ("text", not text, "Paste the list itself: its units, as your list builder writes them."),
        (
            "text",
            len(text) > LIST_TEXT_LENGTH,
            f"A list is at most {LIST_TEXT_LENGTH:,} characters: yours has {len(text):,}.",
        ),
    ]
    refusals = [
        ServiceError(why, code=f"bad-{field}", field=field)
        for field, failed, why in checks
        if failed
    ]
    if refusals:
        first, *also = refusals
        raise ServiceError(first.message, code=first.code, field=first.field, also=also)
    return {"name": name, "points": points, "race": race, "text": text}


@transaction.atomic
def army_list_add(
    *, campaign: Campaign, user: User, name: str, points: int, race: str = "", text: str
) -> ArmyList:
    """A list written into the user's kingdom's book: a name, its points (1 to 10,000),
    its race (free text: an allied army's list is of another race) and the list itself, as
    text pasted from any list builder."""
    kingdom = _book_of(campaign, user)
    fields = _checked_list(name, points, race, text)
    if ArmyList.objects.filter(campaign=campaign, kingdom=kingdom).count() >= LISTS_PER_BOOK:
        raise ServiceError(
            f"Your book has its {LISTS_PER_BOOK} lists: delete one to write another.",
            code="book-full",
        )
    return ArmyList.objects.create(campaign=campaign, kingdom=kingdom, **fields)


def _own_list(army_list: ArmyList, user: User) -> ArmyList:
    """The list, its row locked, if it is in the user's kingdom's book; refused otherwise."""
    locked = (
        ArmyList.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .defer("campaign__map")
    )
    found = locked.filter(pk=army_list.pk).first()
    if found is None:
        raise ServiceError("That list is deleted already.", code="no-such-list")
    kingdom = _book_of(found.campaign, user)
    if found.kingdom != kingdom:
        raise ServiceError("That list is not in your book.", code="not-your-list")
    return found


@transaction.atomic
def army_list_edit(
    *, army_list: ArmyList, user: User, name: str, points: int, race: str = "", text: str
) -> ArmyList:
    """A list of the book changed. What was attached to a battle from it stays as it was
    attached."""
    found = _own_list(army_list, user)
    for field, value in _checked_list(name, points, race, text).items():
        setattr(found, field, value)
    found.save()
    return found


@transaction.atomic
def army_list_delete(*, army_list: ArmyList, user: User) -> None:
    """A list taken out of the book; a copy attached to a battle stays."""
    _own_list(army_list, user).delete()


def _check_lists_open(battle: Battle, kingdom: str) -> None:
    """Refused once the side's list may no longer change: both sides have attached theirs
    (each has seen the other's), or the result is reported. The battle is settled already
    (`locked_open`) is refused before."""
    sides = set(battle.attached_lists.values_list("kingdom", flat=True))
    if sides >= {kingdom, battle.opponent_of(kingdom)}:
        raise ServiceError(
            "Both sides have attached their lists and each sees the other's: yours can't be "
            "changed now.",
            code="lists-revealed",
        )
    reported = (*ResultReport.OPEN, ResultReport.Status.CONFIRMED)
    if battle.reports.filter(status__in=reported).exists():
        raise ServiceError(
            "The result of this battle is reported: a list is attached before the game, not "
            "after it.",
            code="reported",
        )


@transaction.atomic
def battle_list_attach(*, battle: Battle, user: User, army_list_id: int) -> AttachedList:
    """One of the side's lists attached to a battle waiting for its game, as it stands in
    the book now (a copy): at most the side's points. It replaces the side's list attached
    before, until the other side has attached theirs."""
    battle = locked_open(battle, None)
    kingdom = side_of(battle, user)
    found = ArmyList.objects.filter(
        pk=army_list_id, campaign=battle.campaign, kingdom=kingdom
    ).first()
    if found is None:
        raise ServiceError(
            "That list is not in your book: attach one of your own lists.",
            code="not-your-list",
            field="army_list",
        )
    limit = battle.points_of(kingdom)
    if found.points > limit:
        raise ServiceError(
            f"{found.name} is a list of {found.points:,} points, and your side brings "
            f"{limit:,} to this battle: attach a list of at most {limit:,} points.",
            code="too-many-points",
            field="army_list",
        )
    _check_lists_open(battle, kingdom)
    attached, _ = AttachedList.objects.update_or_create(
        battle=battle,
        kingdom=kingdom,
        defaults={
            "name": found.name, "points": found.points, "race": found.race, "text": found.text,
            "attached_by": user, "attached_at": timezone.now(),
        },
    )  # fmt: skip
    return attached


@transaction.atomic
def battle_list_withdraw(*, battle: Battle, user: User) -> None:
    """The side's attached list taken off the battle, until the other side has attached
    theirs."""
    battle = locked_open(battle, None)
    kingdom = side_of(battle, user)
    attached = battle.attached_lists.filter(kingdom=kingdom).first()
    if attached is None:
        raise ServiceError("You have attached no list to this battle.", code="no-list")
    _check_lists_open(battle, kingdom)
    attached.delete()
