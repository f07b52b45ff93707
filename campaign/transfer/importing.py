"""Recreating a campaign from its export document (its shape: campaign.transfer): checked
whole before anything is written, and written in one transaction."""

from dataclasses import dataclass
from typing import cast
from zoneinfo import available_timezones

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.dateparse import parse_duration

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
)
from campaign.rules.decisions import ANSWER_KEYS
from campaign.rules.errors import RuleError
from campaign.rules.fileformat import parse_campaign
from campaign.rules.hexmap import map_from_json
from campaign.services.common import ServiceError
from campaign.signals import campaign_importing, snapshot_stored
from campaign.transfer.document import (
    CAMPAIGN,
    CAMPAIGN_OPTIONAL,
    CORRESPONDENCE,
    EXPORT_FORMAT,
    GAZETTEER,
    HEX_KEY,
    KINGDOM_LENGTH,
    LETTER,
    MEMBER,
    READ,
    SNAPSHOT,
    STAMPS,
    SUBMISSION,
    TOP,
    TOP_OPTIONAL,
    Json,
    LetterRow,
    MemberRow,
    SnapshotRow,
    Stamps,
    SubmissionRow,
    Writer,
    check_slug,
    check_storable,
    check_unique,
    dict_of,
    fields_of,
    flag_of,
    kingdom_in,
    kingdoms_of,
    list_of,
    number_of,
    put_back_times,
    refused,
    refused_by_engine,
    stamps_of,
    text_of,
    time_of,
    username_of,
)

# --- import ---------------------------------------------------------------------------


@transaction.atomic
def campaign_import(data: object, *, slug: str | None = None) -> Campaign:
    """Recreate an exported campaign, under `slug` if given. Members are matched to users
    by username; a user missing here is created with no usable password (the audit entry
    of the import lists them). A bad document raises a ServiceError and writes nothing."""
    check_storable(data)
    top = fields_of(data, "the document", TOP, TOP_OPTIONAL)
    if top["export"] != EXPORT_FORMAT or isinstance(top["export"], bool):
        raise refused("export", f"This server reads export format {EXPORT_FORMAT}.")
    campaign, hexmap, stamps = _campaign(top["campaign"])
    members = _members(top["members"])
    snapshots = _snapshots(top["snapshots"])
    submissions = _submissions(top.get("submissions", []))
    newest = snapshots[-1][0].data if snapshots else None
    kingdoms = kingdoms_of([m.kingdom for _, _, m in members if m.kingdom], newest)
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
    check_slug(campaign.slug, where)
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
    deadlines = dict_of(obj, "deadlines", where)
    for step, hours in deadlines.items():
        if not isinstance(hours, int) or isinstance(hours, bool) or hours < 0:
            raise refused(
                f"{where}.deadlines.{step}", f"{where}.deadlines.{step} must be a number of hours."
            )
    hexmap: Json | None = None
    if obj.get("map") is not None:
        hexmap = dict_of(obj, "map", where)
        try:
            map_from_json(hexmap, f"{where}.map")
        except RuleError as error:
            raise refused_by_engine(error) from None
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
        options=dict_of(obj, "options", where),
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
        for key, name in dict_of(obj, "settlements", where).items()
    } if "settlements" in obj else {}  # fmt: skip
    settled = [_hex_key(key, f"{where}.settled") for key in list_of(obj.get("settled", []), where)]
    units = {
        unit: _name_of(name, f"{where}.units.{unit[:KINGDOM_LENGTH + 6]}")
        for unit, name in dict_of(obj, "units", where).items()
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
            check_slug(kingdom, f"{where}.kingdom")
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
        data = dict_of(obj, "data", where)
        try:
            parse_campaign(data)
        except RuleError as error:
            raise refused_by_engine(error, f"{where}.data") from None
        snapshot = Snapshot(
            number=number,
            reason=reason,
            defaults=flag_of(obj, "defaults", where),
            decisions=dict_of(obj, "decisions", where),
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
