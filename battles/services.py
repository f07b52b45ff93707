"""Every write about a battle: a player reports the tabletop result, the opponent confirms
or disputes it, the reporter may withdraw it; a side concedes or makes a Last Stand
(ruling B4); the admin decides a result, settles it as a simple battle (B6, B7) or extends
its deadline. Who may say what is checked here; what reaches the engine goes through the
campaign's services (`battle_entry_save`, `submission_save`), which check it with the
engine and queue the advance. A refusal is a `ServiceError` and changes nothing. A report
and a dispute write their notifications (`notifications.events`) in their transaction.

Once a battle is resolved, each side's player writes its battle report and adds or removes
its photographs (`battles.photos` develops and keeps them); the admin may remove a
photograph, and hide a report or show it again, audited.

Each kingdom's player keeps a book of army lists in the campaign, and before a battle is
played attaches one of them to it (a copy), of at most its side's points; a report of the
result takes the attached lists."""

from collections.abc import Sequence
from datetime import timedelta
from typing import IO, Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from battles import photos
from battles.models import (
    LIST_NAME_LENGTH,
    LIST_POINTS_MAX,
    LIST_RACE_LENGTH,
    LIST_TEXT_LENGTH,
    LISTS_PER_BOOK,
    PHOTOS_PER_REPORT,
    REPORT_LENGTH,
    ArmyList,
    AttachedList,
    Battle,
    BattlePhoto,
    BattleReport,
    PlayTime,
    ResultReport,
    list_text,
)
from campaign import services
from campaign.models import AuditEntry, Campaign
from campaign.services import ServiceError
from notifications import events

type Json = dict[str, Any]


# --- who is asking --------------------------------------------------------------------


def side_of(battle: Battle, user: User) -> str:
    """The user's kingdom, if it fights this battle; refused otherwise."""
    membership = battle.campaign.memberships.filter(user=user).exclude(kingdom="").first()
    if membership is None or membership.kingdom not in battle.kingdoms:
        raise ServiceError("Only this battle's two players may do that.", code="not-in-battle")
    return membership.kingdom


def _locked_open(battle: Battle, seen: int | None) -> Battle:
    """The battle, with its campaign's row locked, still waiting for its result and still
    as the player saw it; refused otherwise."""
    battle = _locked_awaiting(battle)
    if services.battle_settled_meanwhile(battle.campaign, battle.hex):
        raise ServiceError("This battle is settled already.", code="settled")
    if seen is not None and seen != services.latest_snapshot(battle.campaign).number:
        raise ServiceError(
            "The campaign has moved on since you looked: check the battle and try again.",
            code="moved-on",
        )
    return battle


def _locked_awaiting(battle: Battle) -> Battle:
    """The battle, with its campaign's row locked, still in its month (waiting for its
    result, or with its result in and the month not advanced); refused otherwise."""
    Campaign.objects.select_for_update().get(pk=battle.campaign_id)
    battle = Battle.objects.select_related("campaign").get(pk=battle.pk)
    if not battle.awaiting:
        raise ServiceError("This battle is settled already.", code="settled")
    return battle


def _asked(campaign: Campaign, kingdom: str, kind: str) -> list[Json]:
    """What the newest snapshot waits for from the kingdom, of one kind."""
    pending = services.latest_snapshot(campaign).data.get("pending", [])
    return [p for p in pending if p["kingdom"] == kingdom and p["kind"] == kind]


def _entry(battle: Battle, result: str, winner: str, captured: Sequence[str] = ()) -> Json:
    entry: Json = {"hex": battle.hex, "result": result}
    if result == "win":
        entry["winner"] = winner
        if captured:  # option wizards (OA10): checked by the engine against the card
            entry["captured"] = list(captured)
    return entry


def _check_result(battle: Battle, result: str, winner: str) -> None:
    if result not in ("win", "draw"):
        raise ServiceError("A result is a win or a draw.", code="bad-result", field="result")
    if result == "win" and winner not in battle.kingdoms:
        raise ServiceError(
            "The winner must be one of the battle's two kingdoms.",
            code="bad-winner",
            field="winner",
        )


# --- the players' reports -------------------------------------------------------------


@transaction.atomic
def battle_report(
    *,
    battle: Battle,
    user: User,
    result: str,
    winner: str = "",
    seen: int | None = None,
    captured: Sequence[str] = (),
    **details: Any,
) -> ResultReport:
    """One side's report of the game: win (and who won) or draw, with the optional Kings of
    War details (scores, turns, note, lists) and, with option wizards, the artefacts the
    winner took (OA10). The opponent confirms or disputes it. A side that attached a list
    to the battle played it: the report takes that list, not one written in it."""
    battle = _locked_open(battle, seen)
    kingdom = side_of(battle, user)
    winner = winner if result == "win" else ""
    captured = list(captured) if winner else []
    _check_result(battle, result, winner)
    if battle.reports.filter(kingdom=kingdom, status__in=ResultReport.OPEN).exists():
        raise ServiceError(
            "You have a report of this battle open already: withdraw it to report again.",
            code="already-reported",
        )
    if battle.reports.filter(status=ResultReport.Status.REPORTED).exists():
        raise ServiceError(
            "Your opponent's report waits for your answer: confirm it, or dispute it and then "
            "report the result as you saw it.",
            code="answer-first",
        )
    services.check_battle_entry(battle.campaign, _entry(battle, result, winner, captured))
    attached = dict(battle.attached_lists.values_list("kingdom", "text"))
    for role, side in zip(("attacker", "defender"), battle.kingdoms, strict=True):
        if side in attached:
            details[f"{role}_list"] = attached[side]
    report = ResultReport.objects.create(
        battle=battle,
        kingdom=kingdom,
        reported_by=user,
        result=result,
        winner=winner,
        captured=captured,
        **details,
    )
    events.result_reported(
        campaign=battle.campaign, report_id=report.pk, reporter=user, kingdom=kingdom,
        opponent=battle.opponent_of(kingdom), hex=battle.hex, result=result, winner=winner,
        link=card_url(battle),
    )  # fmt: skip
    return report


def card_url(battle: Battle, section: str = "") -> str:
    """The battle's card; at one of its sections (an element's id), if given."""
    card = reverse("battles:card", args=[battle.campaign.slug, battle.number])
    return f"{card}#{section}" if section else card


def _answerable(report: ResultReport, user: User, seen: int | None) -> ResultReport:
    """The report, for its opponent to answer; refused to anyone else."""
    battle = _locked_open(report.battle, seen)
    kingdom = side_of(battle, user)
    report = ResultReport.objects.select_related("battle__campaign").get(pk=report.pk)
    if kingdom == report.kingdom:
        raise ServiceError(
            "You can't confirm or dispute your own report: your opponent does.",
            code="own-report",
        )
    if not report.is_open:
        raise ServiceError(
            f"This report is {report.get_status_display().lower()} already.", code="answered"
        )
    return report


@transaction.atomic
def battle_confirm(*, report: ResultReport, user: User, seen: int | None = None) -> ResultReport:
    """The opponent agrees: the result goes to the engine and the campaign moves on."""
    report = _answerable(report, user, seen)
    battle = report.battle
    services.battle_entry_save(
        campaign=battle.campaign,
        actor=user,
        entry=_entry(battle, report.result, report.winner, report.captured),
        seen=seen,
    )
    report.status, report.answered_by, report.answered_at = (
        ResultReport.Status.CONFIRMED,
        user,
        timezone.now(),
    )
    report.save()
    battle.reports.filter(status__in=ResultReport.OPEN).update(
        status=ResultReport.Status.SET_ASIDE, set_aside_why="another report was confirmed"
    )
    return report


@transaction.atomic
def battle_dispute(
    *, report: ResultReport, user: User, reason: str, seen: int | None = None
) -> ResultReport:
    """The opponent does not agree, and says why: the admin decides."""
    if not reason.strip():
        raise ServiceError("Say why you dispute the report.", code="no-reason", field="reason")
    report = _answerable(report, user, seen)
    if report.status == ResultReport.Status.DISPUTED:
        raise ServiceError("This report is disputed already.", code="answered")
    report.status, report.dispute_reason = ResultReport.Status.DISPUTED, reason.strip()
    report.answered_by, report.answered_at = user, timezone.now()
    report.save()
    battle = report.battle
    events.result_disputed(
        campaign=battle.campaign, report_id=report.pk, disputer=user, reporter=report.reported_by,
        kingdom=report.kingdom, hex=battle.hex, result=report.result, winner=report.winner,
        reason=report.dispute_reason, link=card_url(battle),
        desk=reverse("battles:admin", args=[battle.campaign.slug]),
    )  # fmt: skip
    return report


@transaction.atomic
def battle_withdraw(*, report: ResultReport, user: User) -> ResultReport:
    """The reporter takes back a report the opponent has not confirmed."""
    battle = _locked_open(report.battle, None)
    kingdom = side_of(battle, user)
    report = ResultReport.objects.get(pk=report.pk)
    if kingdom != report.kingdom:
        raise ServiceError("Only the side that made a report may withdraw it.", code="not-yours")
    if not report.is_open:
        raise ServiceError(
            f"This report is {report.get_status_display().lower()}: it can't be withdrawn.",
            code="answered",
        )
    report.status = ResultReport.Status.WITHDRAWN
    report.save()
    return report


# --- before the game: concession and Last Stand (ruling B4) ----------------------------------


@transaction.atomic
def battle_concede(*, battle: Battle, user: User, seen: int | None = None) -> None:
    """A side concedes the field instead of playing: a loss, and a win for the other side
    worth no might (ruling B4)."""
    battle = _locked_open(battle, seen)
    kingdom = side_of(battle, user)
    services.submission_save(
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
    kingdom = services.kingdom_of(campaign, user)
    if not any(p["hex"] == hex for p in _asked(campaign, kingdom, "last_stand")):
        raise ServiceError(
            "Your kingdom is not asked to make a Last Stand or concede there.",
            code="not-asked",
            field="hex",
        )
    entry = {"hex": hex, "last_stand" if stand else "concede": kingdom}
    services.submission_save(
        campaign=campaign, user=user, kind="battles", payload=[entry], seen=seen
    )


@transaction.atomic
def battle_retreat(
    *, campaign: Campaign, user: User, retreats: dict[str, list[int]], seen: int | None = None
) -> None:
    """Where the kingdom's beaten units go (ruling B10): given and marked ready at once. Only
    for the units asked about: a retreat for a unit that does not retreat addresses no
    battle, and the engine would refuse it when the month's battles end (ruling B12)."""
    kingdom = services.kingdom_of(campaign, user)
    asked = {p["unit"] for p in _asked(campaign, kingdom, "retreat")}
    if not set(retreats) <= asked:
        raise ServiceError(
            "Only a unit asked where to retreat may be told where to go.",
            code="not-asked",
            field="retreats",
        )
    services.submission_save(
        campaign=campaign, user=user, kind="retreats", payload=retreats, seen=seen
    )
    services.submission_set_ready(campaign=campaign, user=user, seen=seen)


@transaction.atomic
def battle_choose(
    *, campaign: Campaign, user: User, hex: list[int], naval: bool = False, seen: int | None = None
) -> None:
    """The tile the kingdom picks for its next battle (ruling B2), and whether it fights
    there at sea where both sides have ships and armies (B3)."""
    services.submission_save(
        campaign=campaign, user=user, kind="battle_choices", payload=[hex], seen=seen
    )
    if naval:
        entry = {"hex": hex, "naval": services.kingdom_of(campaign, user)}
        services.submission_save(
            campaign=campaign, user=user, kind="battles", payload=[entry], seen=seen
        )
    services.submission_set_ready(campaign=campaign, user=user, seen=seen)


# --- when to play ----------------------------------------------------------------------------


@transaction.atomic
def battle_propose_time(*, battle: Battle, user: User, at: Any) -> PlayTime:
    """A side proposes a time to play; the other side may accept it."""
    battle = _locked_open(battle, None)
    kingdom = side_of(battle, user)
    if at <= timezone.now():
        raise ServiceError("Propose a time in the future.", code="in-the-past", field="at")
    return PlayTime.objects.create(battle=battle, kingdom=kingdom, proposed_by=user, at=at)


@transaction.atomic
def battle_accept_time(*, play_time: PlayTime, user: User) -> PlayTime:
    """The other side accepts a proposed time: it is the agreed one."""
    battle = _locked_open(play_time.battle, None)
    kingdom = side_of(battle, user)
    if kingdom == play_time.kingdom:
        raise ServiceError("Your opponent accepts the times you propose.", code="own-time")
    battle.play_times.exclude(pk=play_time.pk).update(accepted_at=None)
    play_time.accepted_at = timezone.now()
    play_time.save()
    return play_time


# --- the admin ---------------------------------------------------------------------------


@transaction.atomic
def battle_decide(
    *,
    battle: Battle,
    actor: User,
    result: str,
    winner: str = "",
    reason: str = "",
    captured: Sequence[str] = (),
    seen: int | None = None,
) -> bool:
    """The admin records the result for both sides (a dispute, an overdue report, a game
    played without the app), with option wizards the artefacts the winner took (OA10);
    audited. A battle whose result is in (agreed, decided, conceded) but whose month has
    not advanced has its result recorded again, with a reason, in place of the one given:
    the way out of a result agreed in error; both players are told. True if it was.
    `seen`: the snapshot the admin's desk showed (`services.check_admin_saw`)."""
    battle = _locked_awaiting(battle)
    campaign = battle.campaign
    services.require_admin(campaign, actor)
    services.check_admin_saw(campaign, seen)
    winner = winner if result == "win" else ""
    _check_result(battle, result, winner)
    entry = _entry(battle, result, winner, captured)
    if not services.battle_settled_meanwhile(campaign, battle.hex):
        services.battle_entry_save(
            campaign=campaign, actor=actor, entry=entry,
            audit=AuditEntry.Action.BATTLE_DECIDED, reason=reason,
        )  # fmt: skip
        battle.reports.filter(status__in=ResultReport.OPEN).update(
            status=ResultReport.Status.SET_ASIDE, set_aside_why="the campaign's admin decided"
        )
        return False
    services.battle_entry_rerecord(campaign=campaign, actor=actor, entry=entry, reason=reason)
    battle.reports.filter(status=ResultReport.Status.CONFIRMED).update(
        status=ResultReport.Status.SET_ASIDE,
        set_aside_why="the campaign's admin recorded the result again",
    )
    audit = campaign.audit.filter(action=AuditEntry.Action.BATTLE_RERECORDED).latest("pk")
    events.result_rerecorded(
        campaign=campaign, admin=actor, audit_id=audit.pk, kingdoms=battle.kingdoms,
        hex=battle.hex, result=result, winner=winner, reason=reason, link=card_url(battle),
    )  # fmt: skip
    return True


@transaction.atomic
def battle_resolve_simply(
    *, battle: Battle, actor: User, reason: str = "", seen: int | None = None
) -> None:
    """The admin settles the battle as a simple land battle (rulings B6, B7): the dice
    are rolled by the engine, recorded, and shown on the card; audited. `seen` as for
    `battle_decide`."""
    battle = _locked_open(battle, None)
    services.require_admin(battle.campaign, actor)
    services.check_admin_saw(battle.campaign, seen)
    services.battle_entry_save(
        campaign=battle.campaign,
        actor=actor,
        entry={"hex": battle.hex, "resolve": "simple"},
        audit=AuditEntry.Action.BATTLE_SIMPLE,
        reason=reason,
    )
    battle.reports.filter(status__in=ResultReport.OPEN).update(
        status=ResultReport.Status.SET_ASIDE, set_aside_why="settled as a simple battle"
    )


@transaction.atomic
def battle_extend(
    *, battle: Battle, actor: User, hours: int, reason: str = "", seen: int | None = None
) -> Battle:
    """More time for the two players to play and report; audited. `seen` as for
    `battle_decide`."""
    battle = _locked_open(battle, None)
    services.require_admin(battle.campaign, actor)
    services.check_admin_saw(battle.campaign, seen)
    if hours < 1:
        raise ServiceError("Extend by at least one hour.", code="bad-hours", field="hours")
    due = max(battle.deadline or timezone.now(), timezone.now()) + timedelta(hours=hours)
    battle.deadline = services.on_a_deadline_day(battle.campaign, due)
    battle.save()
    services.record_audit(
        battle.campaign,
        actor,
        AuditEntry.Action.BATTLE_EXTENDED,
        reason,
        {"battle": battle.number, "hex": battle.hex, "hours": hours},
    )
    return battle


# --- after the game: the sides' battle reports and their photographs ------------------------


def _locked_resolved(battle: Battle, user: User) -> tuple[Battle, str]:
    """The battle, its row locked, and the user's side in it, once it is resolved; refused
    to anyone not in it, and before its result is in."""
    locked = Battle.objects.select_for_update(of=("self",)).select_related("campaign")
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
    locked = Battle.objects.select_for_update(of=("self",)).select_related("campaign")
    battle = locked.get(pk=report.battle_id)
    campaign = battle.campaign
    own = campaign.memberships.filter(user=user, kingdom=report.kingdom).exists()
    if not own and not services.is_admin(campaign, user):
        raise ServiceError(
            "Only the player of the side whose report it is, or the campaign's admin, may "
            "remove a photograph.",
            code="not-yours",
        )
    found.delete()
    if not own:
        services.record_audit(
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
    services.require_admin(battle.campaign, actor)
    if report.hidden == hidden:
        shown = "hidden" if hidden else "shown"
        raise ServiceError(f"This report is {shown} already.", code="unchanged")
    report.hidden_at = timezone.now() if hidden else None
    report.save(update_fields=["hidden_at"])
    services.record_audit(
        battle.campaign,
        actor,
        AuditEntry.Action.BATTLE_REPORT_HIDDEN if hidden else AuditEntry.Action.BATTLE_REPORT_SHOWN,
        reason,
        {"battle": battle.number, "hex": battle.hex, "kingdom": report.kingdom},
    )
    return report


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
    locked = ArmyList.objects.select_for_update(of=("self",)).select_related("campaign")
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
    (`_locked_open`) is refused before."""
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
    battle = _locked_open(battle, None)
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
    battle = _locked_open(battle, None)
    kingdom = side_of(battle, user)
    attached = battle.attached_lists.filter(kingdom=kingdom).first()
    if attached is None:
        raise ServiceError("You have attached no list to this battle.", code="no-list")
    _check_lists_open(battle, kingdom)
    attached.delete()
