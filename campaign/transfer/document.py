"""Reading an export document: each part's fields checked, with the refusal naming the
field; what the importer (campaign.transfer.importing) and the battles app's parts
(battles.transfer) read with."""

import json
import re
from collections.abc import Callable, Collection
from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.core.validators import validate_slug
from django.db import models
from django.utils.dateparse import parse_datetime

from campaign.models import (
    Campaign,
    Letter,
    Membership,
    Snapshot,
    Submission,
)
from campaign.rules.errors import RuleError
from campaign.services.common import ServiceError

type Json = dict[str, Any]
type Stamps = dict[str, datetime]
type MemberRow = tuple[str, Stamps, Membership]
type SnapshotRow = tuple[Snapshot, str | None, Stamps]
type SubmissionRow = tuple[Submission, str | None, Stamps]
type LetterRow = tuple[Letter, str | None, Stamps]
type Writer = Callable[[Campaign], None]

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


# --- reading the document -------------------------------------------------------------


def refused(field: str, message: str) -> ServiceError:
    return ServiceError(message, code="bad-export", field=field)


def refused_by_engine(error: RuleError, where: str | None = None) -> ServiceError:
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


def check_storable(data: object) -> None:
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


def dict_of(obj: Json, key: str, where: str) -> Json:
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


def check_slug(slug: str, where: str) -> None:
    try:
        validate_slug(slug)
    except ValidationError:
        raise refused(
            where, f"{where} must be letters, digits, hyphens or underscores, not {slug!r}."
        ) from None
    if len(slug) > SLUG_LENGTH:
        raise refused(where, f"{where} is longer than {SLUG_LENGTH} characters.")


def kingdoms_of(players: list[str], newest: Json | None) -> set[str]:
    """The ids of the campaign's kingdoms: those of its newest campaign file, or its
    players' before the start."""
    return {k.get("id") for k in newest["kingdoms"]} if newest is not None else set(players)


def kingdom_in(value: object, where: str, kingdoms: Collection[str], among: str) -> str:
    """A kingdom's id, one of `kingdoms`: those of the campaign, or of what names it
    (`among`, as the refusal says)."""
    if not isinstance(value, str) or len(value) > KINGDOM_LENGTH:
        raise refused(where, f"{where} must be a kingdom's id.")
    if value not in kingdoms:
        raise refused(where, f"{where}: there is no kingdom {value!r} in {among}.")
    return value


def put_back_times[M: models.Model](rows: list[M], stamps: list[Stamps]) -> None:
    """Put back the times the document gave, which saving replaced with now."""
    fields: set[str] = set()
    for row, times in zip(rows, stamps, strict=True):
        for field, when in times.items():
            setattr(row, field, when)
            fields.add(field)
    if rows and fields:
        type(rows[0])._default_manager.bulk_update(rows, sorted(fields))
