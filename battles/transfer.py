"""The battles' parts of a campaign's export (campaign/transfer.py names every field): each
kingdom's book of army lists, the lists attached to its battles, and the sides' battle
reports with their photographs. Written into the document when the campaign app announces
`campaign_exporting`; read, checked whole and written back when it announces
`campaign_importing`. A battle is named by its number in the newest campaign file, the
number of the row the import's newest snapshot has just made for it (`battles.sync`).

A photograph goes as its kept copy, in base64, and comes back developed again from it as
an upload is (`battles.photos`): whatever a document holds, nothing but a picture drawn
here is kept (never an HTML or SVG file calling itself a JPEG), and its thumbnail is made
anew."""

import base64
import io
import logging
from dataclasses import dataclass
from typing import Any

from django.core.files.storage import default_storage
from django.db.models import Prefetch

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
)
from campaign.models import Campaign
from campaign.services.common import ServiceError
from campaign.transfer.document import (
    STAMPS,
    Stamps,
    Writer,
    check_unique,
    fields_of,
    kingdom_in,
    list_of,
    number_of,
    put_back_times,
    refused,
    stamps_of,
    text_of,
    time_of,
    username_of,
)

type Json = dict[str, Any]

logger = logging.getLogger(__name__)

ARMY_LIST = ("kingdom", "name", "points", "race", "text")
ATTACHED_LIST = ("battle", "kingdom", "name", "points", "race", "text", "attached_at")
BATTLE_REPORT = ("battle", "kingdom", "text", "hidden_at", "photos")
PHOTO = ("content_type", "data")


# --- export ----------------------------------------------------------------------------


def exported(*, campaign: Campaign, kingdoms: set[str], **_: Any) -> Json:
    """`campaign_exporting`: the books of the campaign's kingdoms, and what its battles'
    sides attached and reported."""
    books = campaign.army_lists.filter(kingdom__in=kingdoms).order_by("pk")
    attached = (
        AttachedList.objects.filter(battle__campaign=campaign)
        .select_related("battle", "attached_by")
        .order_by("battle__number", "kingdom")
    )
    pictures = BattlePhoto.objects.select_related("added_by").order_by("created_at", "pk")
    reports = (
        BattleReport.objects.filter(battle__campaign=campaign)
        .select_related("battle", "written_by")
        .prefetch_related(Prefetch("photos", queryset=pictures))
        .order_by("battle__number", "kingdom")
    )
    return {
        "army_lists": [
            {"kingdom": book.kingdom, **_list_fields_of(book), **_stamped(book)} for book in books
        ],
        "attached_lists": [_attached(a) for a in attached if a.kingdom in a.battle.kingdoms],
        "battle_reports": [_report(r) for r in reports if r.kingdom in r.battle.kingdoms],
    }


def _list_fields_of(army_list: ArmyList | AttachedList) -> Json:
    return {
        "name": army_list.name,
        "points": army_list.points,
        "race": army_list.race,
        "text": army_list.text,
    }


def _stamped(row: ArmyList | BattleReport) -> Json:
    return {"created_at": row.created_at.isoformat(), "updated_at": row.updated_at.isoformat()}


def _attached(attached: AttachedList) -> Json:
    return {
        "battle": attached.battle.number,
        "kingdom": attached.kingdom,
        **_list_fields_of(attached),
        "attached_by": _username(attached.attached_by),
        "attached_at": attached.attached_at.isoformat(),
    }


def _report(report: BattleReport) -> Json:
    return {
        "battle": report.battle.number,
        "kingdom": report.kingdom,
        "text": report.text,
        "written_by": _username(report.written_by),
        "hidden_at": None if report.hidden_at is None else report.hidden_at.isoformat(),
        **_stamped(report),
        "photos": [p for p in map(_photo, report.photos.all()) if p is not None],
    }


def _photo(photo: BattlePhoto) -> Json | None:
    """The photograph's kept copy, in base64; None (and a warning) if its file is gone
    from the storage, as the photograph's page would say."""
    name = photo.large.name or ""
    content_type = photos.CONTENT_TYPES.get(name.rpartition(".")[2])
    try:
        with default_storage.open(name, "rb") as file:
            data = file.read()
    except OSError:
        data = None
    if content_type is None or data is None:
        logger.warning("The export leaves out %s: its file %r is gone.", photo, name)
        return None
    return {
        "content_type": content_type,
        "data": base64.b64encode(data).decode("ascii"),
        "added_by": _username(photo.added_by),
        "created_at": photo.created_at.isoformat(),
    }


def _username(user: User | None) -> str | None:
    return None if user is None else user.get_username()


# --- import ----------------------------------------------------------------------------

# The rows read from the document, unsaved, with the usernames they name and the times to
# put back once saved; attached lists and reports with the number of their battle.
type BookRow = tuple[ArmyList, Stamps]
type AttachedRow = tuple[int, AttachedList, str | None]
type PhotoRow = tuple[photos.Developed, str | None, Stamps]


@dataclass(frozen=True)
class ReportRow:
    """A side's report read from the document, unsaved, with its developed photographs."""

    battle: int
    report: BattleReport
    writer: str | None
    stamps: Stamps
    photos: list[PhotoRow]


def importing(*, document: Json, kingdoms: set[str], battles: list[Json], **_: Any) -> Writer:
    """`campaign_importing`: the battles' parts of the document checked, its photographs
    developed again; what writes them once the campaign and its battles' rows are."""
    books = _army_lists(document.get("army_lists", []), kingdoms)
    attached = _attached_lists(document.get("attached_lists", []), battles)
    reports = _battle_reports(document.get("battle_reports", []), battles)

    def write(campaign: Campaign) -> None:
        _write(campaign, books, attached, reports)

    return write


def _army_lists(value: object, kingdoms: set[str]) -> list[BookRow]:
    rows: list[BookRow] = []
    for i, item in enumerate(list_of(value, "army_lists")):
        where = f"army_lists[{i}]"
        obj = fields_of(item, where, ARMY_LIST, STAMPS)
        kingdom = kingdom_in(obj["kingdom"], f"{where}.kingdom", kingdoms, "the campaign")
        book = ArmyList(kingdom=kingdom, **_list_fields(obj, where))
        rows.append((book, stamps_of(obj, where, STAMPS)))
    for kingdom in kingdoms:
        if sum(1 for book, _ in rows if book.kingdom == kingdom) > LISTS_PER_BOOK:
            raise refused(
                "army_lists", f"The book of {kingdom} holds more than {LISTS_PER_BOOK} lists."
            )
    return rows


def _attached_lists(value: object, battles: list[Json]) -> list[AttachedRow]:
    rows: list[AttachedRow] = []
    for i, item in enumerate(list_of(value, "attached_lists")):
        where = f"attached_lists[{i}]"
        obj = fields_of(item, where, ATTACHED_LIST, ("attached_by",))
        number, kingdom = _side(obj, where, battles)
        attached_at = time_of(obj, "attached_at", where)
        assert attached_at is not None  # not null=True
        attached = AttachedList(
            kingdom=kingdom, attached_at=attached_at, **_list_fields(obj, where)
        )
        rows.append((number, attached, username_of(obj, "attached_by", where)))
    check_unique(
        [f"{a.kingdom} in battle {number}" for number, a, _ in rows],
        "attached_lists",
        "Two lists are attached for",
    )
    return rows


def _battle_reports(value: object, battles: list[Json]) -> list[ReportRow]:
    rows: list[ReportRow] = []
    for i, item in enumerate(list_of(value, "battle_reports")):
        where = f"battle_reports[{i}]"
        obj = fields_of(item, where, BATTLE_REPORT, ("written_by", *STAMPS))
        number, kingdom = _side(obj, where, battles)
        report = BattleReport(
            kingdom=kingdom,
            text=text_of(obj, "text", where, longest=REPORT_LENGTH),
            hidden_at=time_of(obj, "hidden_at", where, null=True),
        )
        pictures = _photos(obj["photos"], f"{where}.photos")
        writer = username_of(obj, "written_by", where)
        rows.append(ReportRow(number, report, writer, stamps_of(obj, where, STAMPS), pictures))
    check_unique(
        [f"{r.report.kingdom} of battle {r.battle}" for r in rows],
        "battle_reports",
        "There are two reports by",
    )
    return rows


def _list_fields(obj: Json, where: str) -> Json:
    """A list's name, points, race and text, as the book keeps them."""
    points = number_of(obj, "points", where)
    if not 1 <= points <= LIST_POINTS_MAX:
        raise refused(f"{where}.points", f"{where}.points must be 1 to {LIST_POINTS_MAX:,}.")
    return {
        "name": text_of(obj, "name", where, blank=False, longest=LIST_NAME_LENGTH),
        "points": points,
        "race": text_of(obj, "race", where, longest=LIST_RACE_LENGTH),
        "text": text_of(obj, "text", where, blank=False, longest=LIST_TEXT_LENGTH),
    }


def _side(obj: Json, where: str, battles: list[Json]) -> tuple[int, str]:
    """The battle named, by its number in the newest campaign file, and one of its two
    sides."""
    number = number_of(obj, "battle", where)
    if not 1 <= number <= len(battles):
        raise refused(
            f"{where}.battle",
            f"{where}.battle: there is no battle {number} in the newest campaign file.",
        )
    entry = battles[number - 1]
    sides = [entry.get(side) for side in ("attacker", "defender")]
    kingdom = kingdom_in(
        obj["kingdom"],
        f"{where}.kingdom",
        [s for s in sides if isinstance(s, str)],
        f"battle {number}",
    )
    return number, kingdom


def _photos(value: object, where: str) -> list[PhotoRow]:
    items = list_of(value, where)
    if len(items) > PHOTOS_PER_REPORT:
        raise refused(
            where,
            f"{where}: a report has at most {PHOTOS_PER_REPORT} photographs, not {len(items)}.",
        )
    return [_photo_row(item, f"{where}[{j}]") for j, item in enumerate(items)]


def _photo_row(item: object, where: str) -> PhotoRow:
    obj = fields_of(item, where, PHOTO, ("added_by", "created_at"))
    content_type = text_of(obj, "content_type", where)
    if content_type not in photos.CONTENT_TYPES.values():
        kept_as = " or ".join(sorted(photos.CONTENT_TYPES.values()))
        raise refused(
            f"{where}.content_type",
            f"{where}.content_type must be {kept_as}: a photograph is kept as one of these.",
        )
    developed = _developed(text_of(obj, "data", where, blank=False), f"{where}.data")
    return developed, username_of(obj, "added_by", where), stamps_of(obj, where)


def _developed(data: str, where: str) -> photos.Developed:
    """The photograph developed again from its copy in the document, as an upload is:
    read as a picture and drawn here, or refused."""
    try:
        picture = base64.b64decode(data, validate=True)
    except ValueError:  # not base64, or not ASCII
        raise refused(where, f"{where} must be a photograph's bytes in base64.") from None
    try:
        return photos.develop(io.BytesIO(picture), len(picture))
    except ServiceError as refusal:
        if refusal.code == "unreadable":
            raise refused(
                where, f"{where} is not a picture this site reads (a JPEG, PNG or WebP, whole)."
            ) from None
        raise refused(where, f"{where}: {refusal.message}") from None


def _write(
    campaign: Campaign, books: list[BookRow], attached: list[AttachedRow], reports: list[ReportRow]
) -> None:
    users = _users_named(
        [name for _, _, name in attached]
        + [r.writer for r in reports]
        + [name for r in reports for _, name, _ in r.photos]
    )
    battles = {battle.number: battle for battle in Battle.objects.filter(campaign=campaign)}
    for book, _ in books:
        book.campaign = campaign
    put_back_times(ArmyList.objects.bulk_create([b for b, _ in books]), [s for _, s in books])
    for number, row, name in attached:
        row.battle, row.attached_by = battles[number], users.get(name or "")
    AttachedList.objects.bulk_create([row for _, row, _ in attached])
    for r in reports:
        r.report.battle, r.report.written_by = battles[r.battle], users.get(r.writer or "")
    put_back_times(
        BattleReport.objects.bulk_create([r.report for r in reports]), [r.stamps for r in reports]
    )
    _keep_photos(reports, users)


def _keep_photos(reports: list[ReportRow], users: dict[str, User]) -> None:
    """The photographs' files written to the storage, and their rows; the files already
    written are deleted if one fails. Written last of the import, so that nothing which
    could fail comes after them."""
    names: list[str] = []
    rows: list[BattlePhoto] = []
    stamps: list[Stamps] = []
    try:
        for r in reports:
            for developed, added_by, times in r.photos:
                large, thumbnail = photos.keep(developed)
                names += [large, thumbnail]
                by = users.get(added_by or "")
                rows.append(_photo_kept(r.report, developed, (large, thumbnail), by))
                stamps.append(times)
        put_back_times(BattlePhoto.objects.bulk_create(rows), stamps)
    except BaseException:
        photos.forget(names)
        raise


def _photo_kept(
    report: BattleReport, developed: photos.Developed, names: tuple[str, str], by: User | None
) -> BattlePhoto:
    (width, height), (thumbnail_width, thumbnail_height) = developed.size, developed.thumbnail_size
    return BattlePhoto(
        report=report, large=names[0], thumbnail=names[1], width=width, height=height,
        thumbnail_width=thumbnail_width, thumbnail_height=thumbnail_height, added_by=by,
    )  # fmt: skip


def _users_named(names: list[str | None]) -> dict[str, User]:
    """The users of these usernames who are here (the import has made every member)."""
    wanted = {name for name in names if name}
    return {u.get_username(): u for u in User.objects.filter(username__in=wanted)}
