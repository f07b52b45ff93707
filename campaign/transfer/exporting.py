"""Writing a campaign's export document (its shape: campaign.transfer)."""

from datetime import datetime
from typing import cast

from django.db import transaction
from django.db.models import Prefetch
from django.utils.duration import duration_iso_string

from accounts.models import User
from campaign.models import (
    Campaign,
    Correspondence,
    Letter,
    read_files,
)
from campaign.signals import campaign_exporting
from campaign.transfer.document import (
    EXPORT_FORMAT,
    Json,
    kingdoms_of,
)

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
        kingdoms = kingdoms_of([m.kingdom for m in members if m.kingdom], newest)
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


def _iso(when: datetime | None) -> str | None:
    return None if when is None else when.isoformat()


def _username(user: User | None) -> str | None:
    return None if user is None else user.get_username()
