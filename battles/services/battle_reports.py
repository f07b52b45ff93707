"""Once a battle is resolved, each side's player writes its battle report and adds or
removes its photographs (`battles.photos` develops and keeps them); the admin may remove a
photograph, and hide a report or show it again, audited."""

from typing import IO

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from battles import photos
from battles.models import (
    PHOTOS_PER_REPORT,
    REPORT_LENGTH,
    Battle,
    BattlePhoto,
    BattleReport,
)
from battles.services.common import side_of
from campaign.models import AuditEntry
from campaign.services import common
from campaign.services.common import ServiceError

# --- after the game: the sides' battle reports and their photographs ------------------------


def _locked_resolved(battle: Battle, user: User) -> tuple[Battle, str]:
    """The battle, its row locked, and the user's side in it, once it is resolved; refused
    to anyone not in it, and before its result is in."""
    locked = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .defer("campaign__map")
    )
    battle = locked.get(pk=battle.pk)
    kingdom = side_of(battle, user)
    if battle.awaiting:
        raise ServiceError(
            "A battle report is written once the battle is resolved: play it and report "
            "its result first.",
            code="not-resolved",
        )
    return battle, kingdom


@transaction.atomic
def battle_report_write(*, battle: Battle, user: User, text: str) -> BattleReport:
    """The side's report of a resolved battle, written or edited by its player: plain
    text, a few paragraphs of at most 4,000 characters. Kept once written (emptied, it is
    not shown): one the admin hid stays hidden."""
    battle, kingdom = _locked_resolved(battle, user)
    text = text.strip()
    if len(text) > REPORT_LENGTH:
        raise ServiceError(
            f"A battle report is at most {REPORT_LENGTH:,} characters: yours has {len(text):,}.",
            code="too-long",
            field="text",
        )
    report = BattleReport.objects.filter(battle=battle, kingdom=kingdom).first()
    if report is None and not text:
        raise ServiceError(
            "Write a few words about the battle, or add a photograph.", code="empty", field="text"
        )
    if report is None:
        return BattleReport.objects.create(
            battle=battle, kingdom=kingdom, text=text, written_by=user
        )
    report.text, report.written_by = text, user
    report.save()
    return report


def battle_photo_add(*, battle: Battle, user: User, upload: IO[bytes], size: int) -> BattlePhoto:
    """A photograph on the side's report of a resolved battle (the report begun if there
    is none), at most six to a report. Developing it takes a moment, so it is done once the
    cheap checks pass and before the battle's row is locked; the files written for a
    photograph then refused are deleted."""
    with transaction.atomic():
        _room_for_a_photo(*_locked_resolved(battle, user))
    developed = photos.develop(upload, size)
    names = photos.keep(developed)
    try:
        return _photo_saved(battle, user, developed, names)
    except BaseException:
        photos.forget(names)
        raise


def _room_for_a_photo(battle: Battle, kingdom: str) -> None:
    if BattlePhoto.objects.filter(report__battle=battle, report__kingdom=kingdom).count() >= (
        PHOTOS_PER_REPORT
    ):
        raise ServiceError(
            f"Your report has its {PHOTOS_PER_REPORT} photographs: remove one to add another.",
            code="photos-full",
            field="photo",
        )


@transaction.atomic
def _photo_saved(
    battle: Battle, user: User, developed: photos.Developed, names: tuple[str, str]
) -> BattlePhoto:
    battle, kingdom = _locked_resolved(battle, user)
    _room_for_a_photo(battle, kingdom)
    report, _ = BattleReport.objects.get_or_create(
        battle=battle, kingdom=kingdom, defaults={"written_by": user}
    )
    (width, height), (thumbnail_width, thumbnail_height) = developed.size, developed.thumbnail_size
    return BattlePhoto.objects.create(
        report=report, large=names[0], thumbnail=names[1], width=width, height=height,
        thumbnail_width=thumbnail_width, thumbnail_height=thumbnail_height, added_by=user,
    )  # fmt: skip


@transaction.atomic
def battle_photo_remove(*, photo: BattlePhoto, user: User, reason: str = "") -> None:
    """A photograph taken off its report by the side's player, or by the campaign's admin
    (audited when it is not the admin's own side); its files go once this is committed."""
    found = BattlePhoto.objects.filter(pk=photo.pk).select_related("report").first()
    if found is None:
        raise ServiceError("That photograph is removed already.", code="no-such-photo")
    report = found.report
    locked = (
        Battle.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .defer("campaign__map")
    )
    battle = locked.get(pk=report.battle_id)
    campaign = battle.campaign
    own = campaign.memberships.filter(user=user, kingdom=report.kingdom).exists()
    if not own and not common.is_admin(campaign, user):
        raise ServiceError(
            "Only the player of the side whose report it is, or the campaign's admin, may "
            "remove a photograph.",
            code="not-yours",
        )
    found.delete()
    if not own:
        common.record_audit(
            campaign, user, AuditEntry.Action.BATTLE_PHOTO_REMOVED, reason,
            {"battle": battle.number, "hex": battle.hex, "kingdom": report.kingdom},
        )  # fmt: skip


@transaction.atomic
def battle_report_hide(
    *, report: BattleReport, actor: User, hidden: bool, reason: str = ""
) -> BattleReport:
    """The admin hides a side's battle report, its text and photographs (only the admin
    and that side's player still see it, wherever it is shown), or shows it again;
    audited."""
    report = (
        BattleReport.objects.select_for_update(of=("self",))
        .select_related("battle__campaign")
        .get(pk=report.pk)
    )
    battle = report.battle
    common.require_admin(battle.campaign, actor)
    if report.hidden == hidden:
        shown = "hidden" if hidden else "shown"
        raise ServiceError(f"This report is {shown} already.", code="unchanged")
    report.hidden_at = timezone.now() if hidden else None
    report.save(update_fields=["hidden_at"])
    common.record_audit(
        battle.campaign,
        actor,
        AuditEntry.Action.BATTLE_REPORT_HIDDEN if hidden else AuditEntry.Action.BATTLE_REPORT_SHOWN,
        reason,
        {"battle": battle.number, "hex": battle.hex, "kingdom": report.kingdom},
    )
    return report
