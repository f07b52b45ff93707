"""Export and import: a campaign as one JSON document, to back it up or move it between
servers. The document holds what is needed to recreate the campaign row, its members
(matched to users by username), every snapshot with its number, and the decisions not
yet used; `file` is the newest snapshot's campaign file (the public contract of
../shared/design/campaign-file.md).

    {"export": 1,
     "campaign": {"name", "slug", "status", "kingdoms", "options", "deadlines", "map_name",
                  "map", "join_code", "deadline", "paused_with", "created_at", "public",
                  "deadline_days", "time_zone", "letters", "names"},
     "members": [{"username", "kingdom", "kingdom_name", "colour", "heraldry", "is_admin",
                  "joined_at"}],
     "snapshots": [{"number", "reason", "defaults", "data", "decisions", "created_by",
                    "created_at"}],
     "submissions": [{"kingdom", "kind", "payload", "snapshot", "ready", "submitted_by",
                      "created_at", "updated_at"}],
     "correspondences": [{"herald", "kingdoms", "created_at",
                          "letters": [{"kingdom", "writer", "text", "written_at",
                                       "edited_at"}],
                          "read": [{"kingdom", "letters"}]}],
     "army_lists": [{"kingdom", "name", "points", "race", "text", "created_at",
                     "updated_at"}],
     "attached_lists": [{"battle", "kingdom", "name", "points", "race", "text",
                         "attached_by", "attached_at"}],
     "battle_reports": [{"battle", "kingdom", "text", "written_by", "hidden_at",
                         "created_at", "updated_at",
                         "photos": [{"content_type", "data", "added_by", "created_at"}]}],
     "file": <the newest snapshot's data, or null before the start>}

Times are ISO 8601 with their offset; `paused_with` is an ISO 8601 duration. An import is
checked whole before anything is written, and written in one transaction: a bad document
changes nothing. The audit trail, the reminders and the decisions already used (they are
in each snapshot's `decisions`) are not exported.

What the players say and show (issue 28) comes after the submissions; a document without
these parts (an older export) imports with none. Each names kingdoms by their ids, which
must be the campaign's (those of the newest campaign file, or the players' before the
start), and users by username (a user missing here leaves the writer unknown, as for a
deleted account). `campaign.letters` is the campaign's choice of who writes to whom (on,
herald or none). `campaign.names` is the campaign's gazetteer (campaign.gazetteer: its
places' and units' names, which the campaign file does not hold); a started campaign
imported without it (an older export) has its places named anew from its map and seed.

- `correspondences`: the herald's (`herald` true, `kingdoms` empty: every member's) and
  those between the `kingdoms` listed (two or more), each once. Its `letters` are in the
  order written (`written_at` is needed); a letter's `kingdom` is its writer's, one of the
  correspondence's. A read mark says how many of its letters, the first ones, the kingdom
  has read (`letters`: 0 to all of them).
- `army_lists`: the lists of each kingdom's book.
- `attached_lists` and `battle_reports`: each names its `battle` by its number in the
  newest campaign file's `battles` (the first is 1) and its side by its `kingdom`, one of
  the battle's two, at most one of each for a side. `hidden_at` is when the admin hid the
  report (null: it is shown).
- A photograph's `data` is the copy kept of it (at most 1,600 pixels), in base64, and
  `content_type` its type (image/jpeg or image/webp). An import develops it again as an
  upload is developed (battles.photos: read as a picture or refused, drawn again, its
  thumbnail made anew), so that nothing but a picture drawn here is kept: its bytes change
  on each move, not what it shows.

The lists and reports are the battles app's: it writes and reads them (battles.transfer)
when this module announces `campaign_exporting` and `campaign_importing`. A kingdom no
longer in the campaign (its player left before the start) has its letters, read marks and
lists left out of the export."""

import json
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast
from zoneinfo import available_timezones

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import models, transaction
from django.db.models import Prefetch
from django.utils.dateparse import parse_datetime, parse_duration
from django.utils.duration import duration_iso_string

from accounts.models import User
from accounts.names import plain_name
from campaign.gazetteer import NAME_LENGTH, make_gazetteer, record_settled
from campaign.models import (
    HERALD,
    LETTER_LENGTH,
    RESERVED_KINGDOM_IDS,
    AuditEntry,
    Campaign,
    Correspondence,
    Letter,
    LettersRead,
    Membership,
    Snapshot,
    Submission,
    correspondence_key,
    new_join_code,
    read_files,
)
from campaign.rules.decisions import ANSWER_KEYS
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import map_from_json
from campaign.services.common import ServiceError
from campaign.signals import campaign_exporting, campaign_importing, snapshot_stored

type Json = dict[str, Any]

EXPORT_FORMAT = 1
TOP = ("export", "campaign", "members", "snapshots")
TOP_OPTIONAL = (
    "submissions", "correspondences", "army_lists", "attached_lists", "battle_reports", "file",
)  # fmt: skip
CAMPAIGN = ("name", "slug", "status", "kingdoms", "options", "deadlines", "map_name")
CAMPAIGN_OPTIONAL = (
    "map", "join_code", "deadline", "paused_with", "created_at", "public", "deadline_days",
    "time_zone", "letters", "names",
)  # fmt: skip
GAZETTEER = ("regions", "settlements", "settled", "units")
MEMBER = ("username", "kingdom", "kingdom_name", "colour", "heraldry", "is_admin")
SNAPSHOT = ("number", "reason", "defaults", "data", "decisions", "created_at")
SUBMISSION = ("kingdom", "kind", "payload", "snapshot", "ready")
STAMPS = ("created_at", "updated_at")
CORRESPONDENCE = ("herald", "kingdoms", "letters")
LETTER = ("kingdom", "text", "written_at")
READ = ("kingdom", "letters")
SLUG_LENGTH = 60  # Campaign.slug
KINGDOM_LENGTH = 20  # a kingdom's id (Membership.kingdom)
HEX_KEY = re.compile(r"-?[0-9]{1,5},-?[0-9]{1,5}")


# --- export ---------------------------------------------------------------------------


def campaign_export(campaign: Campaign) -> Json:
    """The export document of a campaign, read while its row is locked so that no advance
    lands halfway through."""
    with transaction.atomic():
        campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
        members = list(campaign.memberships.select_related("user").order_by("joined_at", "pk"))
        snapshots = list(campaign.snapshots.select_related("created_by").order_by("number"))
        read_files(snapshots)
        submissions = (
            campaign.submissions.filter(consumed_by=None)
            .select_related("submitted_by")
            .order_by("created_at", "pk")
        )
        newest = snapshots[-1].data if snapshots else None
        kingdoms = _kingdoms([m.kingdom for m in members if m.kingdom], newest)
        document: Json = {
            "export": EXPORT_FORMAT,
            "campaign": {
                "name": campaign.name,
                "slug": campaign.slug,
                "status": campaign.status,
                "kingdoms": campaign.kingdoms,
                "options": campaign.options,
                "deadlines": campaign.deadlines,
                "map_name": campaign.map_name,
                "map": campaign.map,
                "join_code": campaign.join_code,
                "deadline": _iso(campaign.deadline),
                "paused_with": None
                if campaign.paused_with is None
                else duration_iso_string(campaign.paused_with),
                "created_at": _iso(campaign.created_at),
                "public": campaign.public,
                "deadline_days": campaign.deadline_days,
                "time_zone": campaign.time_zone,
                "letters": campaign.letters,
                "names": campaign.gazetteer,
            },
            "members": [
                {
                    "username": m.user.get_username(),
                    "kingdom": m.kingdom,
                    "kingdom_name": m.kingdom_name,
                    "colour": m.colour,
                    "heraldry": m.heraldry,
                    "is_admin": m.is_admin,
                    "joined_at": _iso(m.joined_at),
                }
                for m in members
            ],
            "snapshots": [
                {
                    "number": s.number,
                    "reason": s.reason,
                    "defaults": s.defaults,
                    "data": s.data,
                    "decisions": s.decisions,
                    "created_by": _username(s.created_by),
                    "created_at": _iso(s.created_at),
                }
                for s in snapshots
            ],
            "submissions": [
                {
                    "kingdom": s.kingdom,
                    "kind": s.kind,
                    "payload": s.payload,
                    "snapshot": s.snapshot,
                    "ready": s.ready,
                    "submitted_by": _username(s.submitted_by),
                    "created_at": _iso(s.created_at),
                    "updated_at": _iso(s.updated_at),
                }
                for s in submissions
            ],
            "correspondences": _correspondences_of(campaign, kingdoms),
        }
        answers = campaign_exporting.send(sender=Campaign, campaign=campaign, kingdoms=kingdoms)
        for _, parts in answers:
            document |= cast(Json, parts)
        document["file"] = newest
        return document


def _correspondences_of(campaign: Campaign, kingdoms: set[str]) -> list[Json]:
    """The campaign's correspondences with their letters and read marks, the oldest first;
    only what its kingdoms wrote and read."""
    letters = Letter.objects.select_related("writer").order_by("pk")
    found = (
        campaign.correspondences.order_by("pk")
        .prefetch_related(Prefetch("letters", queryset=letters), "reads")
    )  # fmt: skip
    return [_correspondence(c, kingdoms) for c in found if set(c.kingdoms) <= kingdoms]


def _correspondence(correspondence: Correspondence, kingdoms: set[str]) -> Json:
    letters = [x for x in correspondence.letters.all() if x.kingdom in kingdoms]
    reads = sorted(correspondence.reads.all(), key=lambda mark: mark.kingdom)
    return {
        "herald": correspondence.herald,
        "kingdoms": correspondence.kingdoms,
        "created_at": _iso(correspondence.created_at),
        "letters": [
            {
                "kingdom": letter.kingdom,
                "writer": _username(letter.writer),
                "text": letter.text,
                "written_at": _iso(letter.written_at),
                "edited_at": _iso(letter.edited_at),
            }
            for letter in letters
        ],
        "read": [
            {"kingdom": mark.kingdom, "letters": sum(1 for x in letters if x.pk <= mark.up_to)}
            for mark in reads
            if mark.kingdom in kingdoms
        ],
    }


def _kingdoms(players: list[str], newest: Json | None) -> set[str]:
    """The ids of the campaign's kingdoms: those of its newest campaign file, or its
    players' before the start."""
    return {k.get("id") for k in newest["kingdoms"]} if newest is not None else set(players)


def _iso(when: datetime | None) -> str | None:
    return None if when is None else when.isoformat()


def _username(user: User | None) -> str | None:
    return None if user is None else user.get_username()


# --- import ---------------------------------------------------------------------------


@transaction.atomic
def campaign_import(data: object, *, slug: str | None = None) -> Campaign:
    """Recreate an exported campaign, under `slug` if given. Members are matched to users
    by username; a user missing here is created with no usable password (the audit entry
    of the import lists them). A bad document raises a ServiceError and writes nothing."""
    _check_storable(data)
    top = fields_of(data, "the document", TOP, TOP_OPTIONAL)
    if top["export"] != EXPORT_FORMAT or isinstance(top["export"], bool):
        raise refused("export", f"This server reads export format {EXPORT_FORMAT}.")
    campaign, hexmap, stamps = _campaign(top["campaign"])
    members = _members(top["members"])
    snapshots = _snapshots(top["snapshots"])
    submissions = _submissions(top.get("submissions", []))
    newest = snapshots[-1][0].data if snapshots else None
    kingdoms = _kingdoms([m.kingdom for _, _, m in members if m.kingdom], newest)
    _check_consistent(campaign, members, snapshots, submissions, kingdoms)
    if "file" in top and top["file"] != newest:
        raise refused("file", "file is not the newest snapshot's data.")
    if hexmap is None:
        if newest is None:
            raise refused(
                "campaign.map", "campaign.map is needed for a campaign with no snapshots."
            )
        hexmap = newest["map"]
    where = "campaign.slug" if slug is None else "--slug"
    campaign.slug = campaign.slug if slug is None else slug
    _check_slug(campaign.slug, where)
    if Campaign.objects.filter(slug=campaign.slug).exists():
        raise ServiceError(
            f"A campaign with the slug {campaign.slug!r} exists already: "
            "import it under another slug (--slug).",
            code="slug-taken",
            field=where,
        )
    if Campaign.objects.filter(join_code=campaign.join_code).exists():
        campaign.join_code = new_join_code()
    correspondences = _correspondences(top.get("correspondences", []), kingdoms)
    others_written = _parts_of_listeners(top, kingdoms, newest)

    users, created = _users(
        [name for name, _, _ in members],
        [name for _, name, _ in snapshots]
        + [name for _, name, _ in submissions]
        + [name for row in correspondences for _, name, _ in row.letters],
    )
    campaign.map = hexmap
    if not campaign.gazetteer and newest is not None:  # an older export: named anew
        seed = campaign.options.get("seed")
        named = [m.kingdom_name for _, _, m in members if m.kingdom_name]
        campaign.gazetteer = make_gazetteer(hexmap, seed if isinstance(seed, int) else 0, named)
    if campaign.gazetteer and newest is not None:
        record_settled(campaign.gazetteer, newest)
    campaign.save()
    put_back_times([campaign], [stamps])
    for name, _, membership in members:
        membership.campaign, membership.user = campaign, users[name]
    for snapshot, creator, _ in snapshots:
        snapshot.campaign, snapshot.created_by = campaign, users.get(creator or "")
    for submission, submitter, _ in submissions:
        submission.campaign, submission.submitted_by = campaign, users.get(submitter or "")
    put_back_times(
        Membership.objects.bulk_create([m for _, _, m in members]), [t for _, t, _ in members]
    )
    put_back_times(
        Snapshot.objects.bulk_create([s for s, _, _ in snapshots]), [t for _, _, t in snapshots]
    )
    put_back_times(
        Submission.objects.bulk_create([s for s, _, _ in submissions]),
        [t for _, _, t in submissions],
    )
    if snapshots:  # the battles' rows of the newest state, as after any new snapshot
        last = max((s for s, _, _ in snapshots), key=lambda s: s.number)
        snapshot_stored.send(sender=Snapshot, campaign=campaign, snapshot=last, imported=True)
    AuditEntry.objects.create(
        campaign=campaign,
        action=AuditEntry.Action.IMPORTED,
        details={"snapshots": len(snapshots), "created_users": created},
    )
    _write_correspondences(campaign, correspondences, users)
    for write in others_written:  # last: the battles' photographs are files
        write(campaign)
    return campaign


def created_users(campaign: Campaign) -> list[str]:
    """The usernames the import of this campaign had to create."""
    entry = campaign.audit.filter(action=AuditEntry.Action.IMPORTED).order_by("-pk").first()
    return [] if entry is None else list(entry.details.get("created_users", []))


# The rows read from the document, unsaved, with the usernames they refer to and the
# times to restore once saved (the models stamp `created_at` themselves on insert).
type Stamps = dict[str, datetime]
type MemberRow = tuple[str, Stamps, Membership]
type SnapshotRow = tuple[Snapshot, str | None, Stamps]
type SubmissionRow = tuple[Submission, str | None, Stamps]
type LetterRow = tuple[Letter, str | None, Stamps]
type Writer = Callable[[Campaign], None]


@dataclass(frozen=True)
class CorrespondenceRow:
    """A correspondence read from the document, unsaved, with its letters in the order
    written and its read marks: each kingdom's, with how many of the letters it read."""

    correspondence: Correspondence
    stamps: Stamps
    letters: list[LetterRow]
    read: list[tuple[str, int]]


def _campaign(value: object) -> tuple[Campaign, Json | None, Stamps]:
    """The campaign row (unsaved, with no map yet), its map if the document gives one,
    and its creation time."""
    where = "campaign"
    obj = fields_of(value, where, CAMPAIGN, CAMPAIGN_OPTIONAL)
    status = text_of(obj, "status", where)
    if status not in Campaign.Status.values:
        raise refused(
            f"{where}.status", f"{where}.status must be one of {', '.join(Campaign.Status.values)}."
        )
    kingdoms = number_of(obj, "kingdoms", where)
    if not 2 <= kingdoms <= 8:
        raise refused(f"{where}.kingdoms", f"{where}.kingdoms must be 2 to 8.")
    deadlines = _dict(obj, "deadlines", where)
    for step, hours in deadlines.items():
        if not isinstance(hours, int) or isinstance(hours, bool) or hours < 0:
            raise refused(
                f"{where}.deadlines.{step}", f"{where}.deadlines.{step} must be a number of hours."
            )
    hexmap: Json | None = None
    if obj.get("map") is not None:
        hexmap = _dict(obj, "map", where)
        try:
            map_from_json(hexmap, f"{where}.map")
        except RuleError as error:
            raise _refused_by_engine(error) from None
    paused_with = None
    if obj.get("paused_with") is not None:
        paused_with = parse_duration(text_of(obj, "paused_with", where))
        if paused_with is None:
            raise refused(
                f"{where}.paused_with", f"{where}.paused_with must be an ISO 8601 duration."
            )
    campaign = Campaign(
        name=text_of(obj, "name", where, blank=False, longest=120),
        slug=text_of(obj, "slug", where),
        status=status,
        kingdoms=kingdoms,
        options=_dict(obj, "options", where),
        deadlines=deadlines,
        map_name=text_of(obj, "map_name", where, blank=False, longest=60),
        deadline=time_of(obj, "deadline", where, null=True),
        paused_with=paused_with,
    )
    if obj.get("join_code") is not None:
        campaign.join_code = text_of(obj, "join_code", where, blank=False, longest=20)
    if obj.get("public") is not None:
        campaign.public = flag_of(obj, "public", where)
    if obj.get("deadline_days") is not None:
        campaign.deadline_days = _deadline_days(obj, where)
    if obj.get("time_zone") is not None:
        campaign.time_zone = _time_zone(obj, where)
    if obj.get("letters") is not None:
        campaign.letters = _letters_choice(obj, where)
    if obj.get("names") is not None:
        campaign.gazetteer = _gazetteer(obj["names"], f"{where}.names")
    return campaign, hexmap, stamps_of(obj, where, ("created_at",))


def _gazetteer(value: object, where: str) -> Json:
    """The campaign's names as `campaign.gazetteer` keeps them, each a plain name."""
    obj = fields_of(value, where, (), GAZETTEER)
    regions = []
    for i, region in enumerate(list_of(obj.get("regions", []), f"{where}.regions")):
        at = f"{where}.regions[{i}]"
        row = fields_of(region, at, ("name", "hexes"))
        hexes = [_hex_of(h, f"{at}.hexes[{n}]") for n, h in enumerate(list_of(row["hexes"], at))]
        regions.append({"name": _name_of(row["name"], f"{at}.name"), "hexes": hexes})
    settlements = {
        _hex_key(key, f"{where}.settlements"): _name_of(name, f"{where}.settlements.{key}")
        for key, name in _dict(obj, "settlements", where).items()
    } if "settlements" in obj else {}  # fmt: skip
    settled = [_hex_key(key, f"{where}.settled") for key in list_of(obj.get("settled", []), where)]
    units = {
        unit: _name_of(name, f"{where}.units.{unit[:KINGDOM_LENGTH + 6]}")
        for unit, name in _dict(obj, "units", where).items()
    } if "units" in obj else {}  # fmt: skip
    return {"regions": regions, "settlements": settlements, "settled": settled, "units": units}


def _name_of(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise refused(where, f"{where} must be a text.")
    try:
        return plain_name(value, max_length=NAME_LENGTH, what=where)
    except ValidationError as error:
        raise refused(where, str(error.messages[0])) from None


def _hex_of(value: object, where: str) -> list[int]:
    if (
        not isinstance(value, list)
        or len(value) != 2
        or not all(isinstance(n, int) and not isinstance(n, bool) for n in value)
    ):
        raise refused(where, f"{where} must be a hex, two whole numbers [q, r].")
    return [value[0], value[1]]


def _hex_key(value: object, where: str) -> str:
    """A hex as the gazetteer's keys write it, "q,r"."""
    if not isinstance(value, str) or HEX_KEY.fullmatch(value) is None:
        raise refused(where, f'{where}: {str(value)[:40]!r} is not a hex written "q,r".')
    return value


def _deadline_days(obj: Json, where: str) -> list[int]:
    days = list_of(obj["deadline_days"], f"{where}.deadline_days")
    if not days or not all(isinstance(d, int) and not isinstance(d, bool) for d in days):
        raise refused(f"{where}.deadline_days", f"{where}.deadline_days must list days 0 to 6.")
    if not set(days) <= set(range(7)):
        raise refused(f"{where}.deadline_days", f"{where}.deadline_days must list days 0 to 6.")
    return sorted(set(days))


def _time_zone(obj: Json, where: str) -> str:
    name = text_of(obj, "time_zone", where, blank=False, longest=64)
    if name not in available_timezones():
        raise refused(f"{where}.time_zone", f"{where}.time_zone {name!r} is not a time zone.")
    return name


def _letters_choice(obj: Json, where: str) -> str:
    choice = text_of(obj, "letters", where)
    if choice not in Campaign.Letters.values:
        allowed = ", ".join(Campaign.Letters.values)
        raise refused(f"{where}.letters", f"{where}.letters must be one of {allowed}.")
    return choice


def _members(value: object) -> list[MemberRow]:
    rows: list[MemberRow] = []
    for i, item in enumerate(list_of(value, "members")):
        where = f"members[{i}]"
        obj = fields_of(item, where, MEMBER, ("joined_at",))
        kingdom = text_of(obj, "kingdom", where, longest=KINGDOM_LENGTH)
        if kingdom:
            _check_slug(kingdom, f"{where}.kingdom")
        row = Membership(
            kingdom=kingdom,
            kingdom_name=text_of(obj, "kingdom_name", where, longest=60),
            colour=text_of(obj, "colour", where, longest=7),
            heraldry=text_of(obj, "heraldry", where, longest=2),
            is_admin=flag_of(obj, "is_admin", where),
        )
        username = text_of(obj, "username", where, blank=False, longest=150)
        try:
            User.username_validator(username)
        except ValidationError:
            raise refused(
                f"{where}.username", f"{where}.username {username!r} is not a username."
            ) from None
        rows.append((username, stamps_of(obj, where, ("joined_at",)), row))
    check_unique([name for name, _, _ in rows], "members", "Two members have the username")
    check_unique(
        [m.kingdom for _, _, m in rows if m.kingdom], "members", "Two members rule the kingdom"
    )
    check_unique(
        [m.kingdom_name.lower() for _, _, m in rows if m.kingdom_name],
        "members", "Two kingdoms are named",
    )  # fmt: skip
    check_unique([m.colour.lower() for _, _, m in rows if m.colour], "members", "Two kingdoms fly")
    check_unique([m.heraldry for _, _, m in rows if m.heraldry], "members", "Two kingdoms bear")
    return rows


def _snapshots(value: object) -> list[SnapshotRow]:
    rows: list[SnapshotRow] = []
    for i, item in enumerate(list_of(value, "snapshots")):
        where = f"snapshots[{i}]"
        obj = fields_of(item, where, SNAPSHOT, ("created_by",))
        number = number_of(obj, "number", where)
        if number != i + 1:
            raise refused(
                f"{where}.number",
                f"The snapshots must be numbered 1, 2, 3... in order: {where} is number {number}.",
            )
        reason = text_of(obj, "reason", where)
        if reason not in Snapshot.Reason.values:
            raise refused(
                f"{where}.reason",
                f"{where}.reason must be one of {', '.join(Snapshot.Reason.values)}.",
            )
        data = _dict(obj, "data", where)
        try:
            parse_campaign(data)
        except RuleError as error:
            raise _refused_by_engine(error, f"{where}.data") from None
        snapshot = Snapshot(
            number=number,
            reason=reason,
            defaults=flag_of(obj, "defaults", where),
            decisions=_dict(obj, "decisions", where),
        )
        snapshot.data = data
        rows.append((snapshot, username_of(obj, "created_by", where), stamps_of(obj, where)))
    return rows


def _submissions(value: object) -> list[SubmissionRow]:
    rows: list[SubmissionRow] = []
    for i, item in enumerate(list_of(value, "submissions")):
        where = f"submissions[{i}]"
        obj = fields_of(item, where, SUBMISSION, ("submitted_by", *STAMPS))
        kind = text_of(obj, "kind", where)
        if kind not in ANSWER_KEYS:
            allowed = ", ".join(sorted(ANSWER_KEYS))
            raise refused(f"{where}.kind", f"{where}.kind must be one of {allowed}.")
        if obj["payload"] is None:
            raise refused(f"{where}.payload", f"{where}.payload must be a decision, not null.")
        submission = Submission(
            kingdom=text_of(obj, "kingdom", where, longest=KINGDOM_LENGTH),
            kind=kind,
            payload=obj["payload"],
            snapshot=number_of(obj, "snapshot", where),
            ready=flag_of(obj, "ready", where),
        )
        rows.append(
            (submission, username_of(obj, "submitted_by", where), stamps_of(obj, where, STAMPS))
        )
    check_unique(
        [f"{s.kind} of {s.kingdom or 'the admin'}" for s, _, _ in rows],
        "submissions",
        "Two open submissions are the",
    )
    return rows


def _correspondences(value: object, kingdoms: set[str]) -> list[CorrespondenceRow]:
    rows: list[CorrespondenceRow] = []
    for i, item in enumerate(list_of(value, "correspondences")):
        where = f"correspondences[{i}]"
        obj = fields_of(item, where, CORRESPONDENCE, ("read", "created_at"))
        between = _between(obj, where, kingdoms)
        # The herald's is written to and read by every kingdom; another by its own.
        among, writers = (
            ("the campaign", kingdoms) if between is None else ("the correspondence", between)
        )
        letters = _letters(obj["letters"], f"{where}.letters", writers, among)
        read = _read_marks(obj.get("read", []), f"{where}.read", writers, among, len(letters))
        key = HERALD if between is None else correspondence_key(between)
        rows.append(
            CorrespondenceRow(Correspondence(key=key), stamps_of(obj, where), letters, read)
        )
    check_unique(
        [", ".join(r.correspondence.kingdoms) or "the herald" for r in rows],
        "correspondences",
        "There are two correspondences of",
    )
    return rows


def _between(obj: Json, where: str, kingdoms: set[str]) -> set[str] | None:
    """The kingdoms a correspondence is between; None for the herald's."""
    herald = flag_of(obj, "herald", where)
    named = [
        kingdom_in(kingdom, f"{where}.kingdoms[{j}]", kingdoms, "the campaign")
        for j, kingdom in enumerate(list_of(obj["kingdoms"], f"{where}.kingdoms"))
    ]
    if herald and named:
        raise refused(
            f"{where}.kingdoms",
            f"{where}.kingdoms must be empty: the herald's correspondence is every member's.",
        )
    if not herald and (len(set(named)) < 2 or len(set(named)) != len(named)):
        raise refused(
            f"{where}.kingdoms", f"{where}.kingdoms must name two kingdoms or more, once each."
        )
    return None if herald else set(named)


def _letters(value: object, where: str, writers: set[str], among: str) -> list[LetterRow]:
    rows: list[LetterRow] = []
    for i, item in enumerate(list_of(value, where)):
        at = f"{where}[{i}]"
        obj = fields_of(item, at, LETTER, ("writer", "edited_at"))
        letter = Letter(
            kingdom=kingdom_in(obj["kingdom"], f"{at}.kingdom", writers, among),
            text=text_of(obj, "text", at, blank=False, longest=LETTER_LENGTH),
            edited_at=time_of(obj, "edited_at", at, null=True),
        )
        written_at = time_of(obj, "written_at", at)
        assert written_at is not None
        if rows and written_at < rows[-1][2]["written_at"]:
            raise refused(
                f"{at}.written_at",
                f"{at}.written_at is earlier than the letter before it: a correspondence's "
                "letters are listed in the order written.",
            )
        rows.append((letter, username_of(obj, "writer", at), {"written_at": written_at}))
    return rows


def _read_marks(
    value: object, where: str, readers: set[str], among: str, letters: int
) -> list[tuple[str, int]]:
    marks: list[tuple[str, int]] = []
    for i, item in enumerate(list_of(value, where)):
        at = f"{where}[{i}]"
        obj = fields_of(item, at, READ)
        kingdom = kingdom_in(obj["kingdom"], f"{at}.kingdom", readers, among)
        read = number_of(obj, "letters", at)
        if read > letters:
            raise refused(f"{at}.letters", f"{at}.letters: {read} read, of {letters} written.")
        marks.append((kingdom, read))
    check_unique([kingdom for kingdom, _ in marks], where, "Two read marks are of")
    return marks


def kingdom_in(value: object, where: str, kingdoms: Collection[str], among: str) -> str:
    """A kingdom's id, one of `kingdoms`: those of the campaign, or of what names it
    (`among`, as the refusal says)."""
    if not isinstance(value, str) or len(value) > KINGDOM_LENGTH:
        raise refused(where, f"{where} must be a kingdom's id.")
    if value not in kingdoms:
        raise refused(where, f"{where}: there is no kingdom {value!r} in {among}.")
    return value


def _parts_of_listeners(top: Json, kingdoms: set[str], newest: Json | None) -> list[Writer]:
    """The parts of the document the listening apps keep (the battles' lists and reports),
    checked by them now: the functions that write them once the campaign is written."""
    answers = campaign_importing.send(
        sender=Campaign,
        document=top,
        kingdoms=kingdoms,
        battles=list(newest.get("battles", [])) if newest is not None else [],
    )
    return [cast(Writer, write) for _, write in answers if write is not None]


def _check_consistent(
    campaign: Campaign,
    members: list[MemberRow],
    snapshots: list[SnapshotRow],
    submissions: list[SubmissionRow],
    in_file: set[str],
) -> None:
    """What the services rely on: a started campaign has snapshots and an open one none;
    every player's kingdom is in the newest campaign file (`in_file`, its kingdoms); open
    decisions answer a snapshot of the campaign, from a kingdom of it; no kingdom's id is a
    word the app keeps (`RESERVED_KINGDOM_IDS`)."""
    started = campaign.status != Campaign.Status.OPEN
    if started and not snapshots:
        raise refused("snapshots", f"A {campaign.status} campaign has at least one snapshot.")
    if not started and snapshots:
        raise refused("snapshots", "A campaign open for players has no snapshots yet.")
    reserved = sorted(in_file & RESERVED_KINGDOM_IDS)
    if reserved:
        raise refused(
            "snapshots" if snapshots else "members",
            f"No kingdom's id may be {reserved[0]!r}: the app keeps that word for itself.",
        )
    players = [m.kingdom for _, _, m in members if m.kingdom]
    if len(players) > campaign.kingdoms:
        raise refused(
            "members", f"The campaign has {campaign.kingdoms} kingdoms, not {len(players)}."
        )
    for i, (_, _, member) in enumerate(members):
        if member.kingdom and member.kingdom not in in_file:
            raise refused(
                f"members[{i}].kingdom",
                f"members[{i}].kingdom: there is no kingdom {member.kingdom!r} "
                "in the newest campaign file.",
            )
    for i, (submission, _, _) in enumerate(submissions):
        where = f"submissions[{i}]"
        if submission.kingdom and submission.kingdom not in in_file:
            raise refused(
                f"{where}.kingdom",
                f"{where}.kingdom: there is no kingdom {submission.kingdom!r} in the campaign.",
            )
        if not 1 <= submission.snapshot <= len(snapshots):
            raise refused(
                f"{where}.snapshot", f"{where}.snapshot: there is no snapshot of that number."
            )


def _users(members: list[str], others: list[str | None]) -> tuple[dict[str, User], list[str]]:
    """The users by username: every member, created when missing (with no usable
    password), and those of the other names who exist here (a snapshot's author)."""
    names = set(members) | {name for name in others if name}
    users = {u.get_username(): u for u in User.objects.filter(username__in=names)}
    created = []
    for name in members:
        if name not in users:
            users[name] = User.objects.create_user(username=name)
            created.append(name)
    return users, created


def _write_correspondences(
    campaign: Campaign, rows: list[CorrespondenceRow], users: dict[str, User]
) -> None:
    """The letters are written in the order they were, whichever their correspondence,
    so that the newest is still the newest; each read mark then reads up to its last
    letter read."""
    for row in rows:
        row.correspondence.campaign = campaign
    put_back_times(
        Correspondence.objects.bulk_create([r.correspondence for r in rows]),
        [r.stamps for r in rows],
    )
    written = sorted(
        ((row, letter) for row in rows for letter in row.letters),
        key=lambda pair: pair[1][2]["written_at"],
    )
    for row, (letter, writer, _) in written:
        letter.correspondence, letter.writer = row.correspondence, users.get(writer or "")
    put_back_times(
        Letter.objects.bulk_create([letter for _, (letter, _, _) in written]),
        [stamps for _, (_, _, stamps) in written],
    )
    LettersRead.objects.bulk_create(
        LettersRead(
            correspondence=row.correspondence,
            kingdom=kingdom,
            up_to=row.letters[read - 1][0].pk if read else 0,
        )
        for row in rows
        for kingdom, read in row.read
    )


def put_back_times[M: models.Model](rows: list[M], stamps: list[Stamps]) -> None:
    """Put back the times the document gave, which saving replaced with now."""
    fields: set[str] = set()
    for row, times in zip(rows, stamps, strict=True):
        for field, when in times.items():
            setattr(row, field, when)
            fields.add(field)
    if rows and fields:
        type(rows[0])._default_manager.bulk_update(rows, sorted(fields))


# --- reading the document -------------------------------------------------------------


def refused(field: str, message: str) -> ServiceError:
    return ServiceError(message, code="bad-export", field=field)


def _refused_by_engine(error: RuleError, where: str | None = None) -> ServiceError:
    field = f"{where}.{error.field}" if where else error.field
    unit = f" (unit {error.unit})" if error.unit else ""
    return ServiceError(
        f"{field}{unit}: the rules engine refuses it: {error.message} ({error.code})",
        code="refused-file",
        field=field,
    )


def fields_of(
    value: object, where: str, required: Collection[str], optional: Collection[str] = ()
) -> Json:
    if not isinstance(value, dict):
        raise refused(where, f"{where} must be a JSON object.")
    missing = [key for key in required if key not in value]
    if missing:
        raise refused(where, f"{where} has no {', '.join(missing)}.")
    unknown = sorted(str(key) for key in value if key not in required and key not in optional)
    if unknown:
        raise refused(where, f"{where} has unknown fields: {', '.join(unknown)}.")
    return value


def _check_storable(data: object) -> None:
    """The document is JSON the database can store: Python's reader lets NaN and Infinity
    in, which no JSON column takes, and PostgreSQL stores no NUL character in a text."""
    try:
        json.dumps(data, allow_nan=False)
    except RecursionError:
        raise refused("the document", "The document is nested too deeply to read.") from None
    except (TypeError, ValueError):
        raise refused(
            "the document",
            "The document holds a value JSON cannot store: NaN, Infinity or a number "
            "of more than 4,300 digits.",
        ) from None
    if _holds_nul(data):
        raise refused("the document", "The document holds a NUL character (\\u0000) in a text.")


def _holds_nul(data: object) -> bool:
    """Whether any text of the document, a key or a value, holds a NUL character."""
    waiting = [data]
    while waiting:
        value = waiting.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return True
        elif isinstance(value, dict):
            waiting.extend(value.keys())
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
    return False


def list_of(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise refused(where, f"{where} must be a JSON list.")
    return value


def _dict(obj: Json, key: str, where: str) -> Json:
    value = obj[key]
    if not isinstance(value, dict):
        raise refused(f"{where}.{key}", f"{where}.{key} must be a JSON object.")
    return value


def text_of(
    obj: Json, key: str, where: str, *, blank: bool = True, longest: int | None = None
) -> str:
    value = obj[key]
    if not isinstance(value, str) or (not blank and not value.strip()):
        what = "a text" if blank else "a text that is not empty"
        raise refused(f"{where}.{key}", f"{where}.{key} must be {what}.")
    if longest is not None and len(value) > longest:
        raise refused(f"{where}.{key}", f"{where}.{key} is longer than {longest} characters.")
    return value


def number_of(obj: Json, key: str, where: str) -> int:
    value = obj[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise refused(f"{where}.{key}", f"{where}.{key} must be a whole number.")
    return value


def flag_of(obj: Json, key: str, where: str) -> bool:
    value = obj[key]
    if not isinstance(value, bool):
        raise refused(f"{where}.{key}", f"{where}.{key} must be true or false.")
    return value


def username_of(obj: Json, key: str, where: str) -> str | None:
    return None if obj.get(key) is None else text_of(obj, key, where, blank=False)


def time_of(obj: Json, key: str, where: str, *, null: bool = False) -> datetime | None:
    value = obj.get(key)
    if value is None and null:
        return None
    try:
        when = parse_datetime(value) if isinstance(value, str) else None
    except ValueError:  # well formed, but no such time (a 13th month)
        when = None
    if when is None or when.tzinfo is None:
        raise refused(
            f"{where}.{key}", f"{where}.{key} must be an ISO 8601 time with its UTC offset."
        )
    return when


def stamps_of(obj: Json, where: str, keys: Collection[str] = ("created_at",)) -> Stamps:
    stamps: Stamps = {}
    for key in keys:
        if obj.get(key) is not None:
            when = time_of(obj, key, where)
            assert when is not None
            stamps[key] = when
    return stamps


def check_unique(values: list[str], field: str, saying: str) -> None:
    seen: set[str] = set()
    for value in values:
        if value in seen:
            raise refused(field, f"{saying} {value}.")
        seen.add(value)


def _check_slug(slug: str, where: str) -> None:
    try:
        validate_slug(slug)
    except ValidationError:
        raise refused(
            where, f"{where} must be letters, digits, hyphens or underscores, not {slug!r}."
        ) from None
    if len(slug) > SLUG_LENGTH:
        raise refused(where, f"{where} is longer than {SLUG_LENGTH} characters.")
