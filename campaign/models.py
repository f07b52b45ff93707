"""Campaigns in the database. The state of a campaign is its newest snapshot (the whole
campaign file); rows exist for what must be queried: who plays which kingdom, what each
kingdom has submitted, deadlines, the audit trail."""

import secrets
from collections.abc import Iterable
from datetime import datetime
from functools import lru_cache
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.db.models import Q
from django.db.models.functions import Lower

from campaign import storage
from campaign.reads import rows_of
from campaign.rules.optional.marauders import ADMIN
from campaign.rules.state import HORDE


class WorkerHeartbeat(models.Model):
    """When each Celery worker last ran the beat's heartbeat task: proof the
    background half of the app is alive, shown on /healthz."""

    worker = models.CharField(max_length=255, unique=True)
    seen_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.worker} at {self.seen_at:%Y-%m-%d %H:%M:%S}"


KINGDOM_NAME_LENGTH = 60
CAMPAIGN_NAME_LENGTH = 120


def new_join_code() -> str:
    return secrets.token_urlsafe(6)


def default_deadlines() -> dict[str, int]:
    """Hours allowed for each kind of step, and for one kingdom's turn in a step taken one
    kingdom at a time (a capital, the order cycle)."""
    return {"setup": 48, "orders": 72, "battles": 168, "winter": 48, "turn": 12}


# The days of the week as Python numbers them (date.weekday()): Monday is 0.
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def every_day() -> list[int]:
    return list(range(len(WEEKDAYS)))


class Campaign(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Open for players"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        ENDED = "ended", "Ended"

    name = models.CharField(max_length=CAMPAIGN_NAME_LENGTH)
    slug = models.SlugField(max_length=60, unique=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    kingdoms = models.PositiveSmallIntegerField(help_text="How many kingdoms the campaign needs.")
    options: models.JSONField[dict[str, Any]] = models.JSONField(
        default=dict, help_text="The campaign file's options: years, months, orders, battles, seed."
    )
    deadlines: models.JSONField[dict[str, int]] = models.JSONField(
        default=default_deadlines,
        help_text="Hours allowed per step (setup, orders, battles, winter) and per kingdom's "
        "turn in a step taken one kingdom at a time.",
    )
    map_name = models.CharField(max_length=60, help_text="A built-in map, or 'generated'.")
    map: models.JSONField[dict[str, Any]] = models.JSONField(help_text="The campaign file's map.")
    gazetteer: models.JSONField[dict[str, Any]] = models.JSONField(
        default=dict,
        blank=True,
        help_text="The names of its places and units (campaign.gazetteer), made when it "
        "starts: the app's, not the campaign file's.",
    )
    join_code = models.CharField(max_length=20, unique=True, default=new_join_code)
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When the current step is due."
    )
    paused_with = models.DurationField(
        null=True, blank=True, help_text="Time that was left before the deadline when paused."
    )
    deadline_days: models.JSONField[list[int]] = models.JSONField(
        default=every_day,
        help_text="The days of the week a deadline may fall on (0 is Monday), in `time_zone`: "
        "a deadline due on another day moves to the same time on the next of them.",
    )
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        help_text="The IANA zone whose days `deadline_days` names: its creator's.",
    )
    public = models.BooleanField(
        default=False,
        help_text="Anyone may read its map, might, chronicle and end, members or not.",
    )
    barred: models.JSONField[list[int]] = models.JSONField(
        default=list,
        blank=True,
        help_text="Ids of users removed before the start: they may not join again until "
        "the admin makes a new join code.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    creation_key = models.CharField(
        max_length=40,
        blank=True,
        default="",
        help_text="The new-campaign form it was made from: the same form posted again (Back "
        "and Create) finds it instead of making a second campaign.",
    )
    archived_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Archived by an admin: left off its members' home pages, still readable.",
    )

    class Letters(models.TextChoices):
        """Who may write to whom (issue 28), chosen when the campaign is created."""

        ON = "on", "Letters: kingdoms write to each other, and to all through the herald"
        HERALD = "herald", "The herald only: every letter is public"
        NONE = "none", "No letters (a game with no press)"

    letters = models.CharField(max_length=6, choices=Letters.choices, default=Letters.ON)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["creation_key"],
                condition=~Q(creation_key=""),
                name="one_campaign_per_creation_key",
            )
        ]

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    """A user in a campaign: ruling a kingdom, administering it, or both."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    kingdom = models.SlugField(
        max_length=20, blank=True, help_text="The kingdom's id in the campaign file."
    )
    kingdom_name = models.CharField(max_length=KINGDOM_NAME_LENGTH, blank=True)
    colour = models.CharField(max_length=7, blank=True, help_text="#rrggbb")
    heraldry = models.CharField(
        max_length=2, blank=True, help_text="A letter or sign shown with the colour."
    )
    is_admin = models.BooleanField(default=False)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user"),
            models.UniqueConstraint(
                fields=["campaign", "kingdom"],
                condition=~Q(kingdom=""),
                name="one_player_per_kingdom",
            ),
            # A kingdom's name, colour and heraldry tell it apart from the others.
            models.UniqueConstraint(
                "campaign",
                Lower("kingdom_name"),
                condition=~Q(kingdom_name=""),
                name="one_kingdom_per_name",
            ),
            models.UniqueConstraint(
                "campaign", Lower("colour"), condition=~Q(colour=""), name="one_kingdom_per_colour"
            ),
            models.UniqueConstraint(
                fields=["campaign", "heraldry"],
                condition=~Q(heraldry=""),
                name="one_kingdom_per_heraldry",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign}" + (f" as {self.kingdom}" if self.kingdom else "")

    @classmethod
    def of(cls, campaign: Campaign, user_id: object) -> "Membership | None":
        """The user's membership of the campaign (sharing the campaign read), if they are a
        member (by SQL written once: `campaign.reads`)."""
        found = rows_of(cls, campaign.pk, user_id, where=("campaign_id", "user_id"))
        for membership in found:
            membership.campaign = campaign
        return found[0] if found else None


class KingdomOffer(models.Model):
    """An admin's offer of a kingdom, under way, to a person by username: the kingdom
    changes hands only when they accept it (issue 26). An offer to a username nobody has
    is kept and shown like any other, so that the dashboard never tells which usernames
    exist; nobody can accept it."""

    class Status(models.TextChoices):
        OPEN = "open", "waiting for an answer"
        ACCEPTED = "accepted", "accepted"
        DECLINED = "declined", "declined"
        WITHDRAWN = "withdrawn", "withdrawn"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="offers")
    kingdom = models.SlugField(max_length=20)
    username = models.CharField(max_length=150, help_text="As the admin typed it.")
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE,
        related_name="kingdom_offers", help_text="None: nobody has that username.",
    )  # fmt: skip
    offered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    reason = models.TextField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"{self.kingdom} of {self.campaign} offered to {self.username}"


class InvitationsSent(models.Model):
    """E-mails an account had the app send to people it names: invitations by e-mail and
    offers of a kingdom (each counted, whether or not anyone has the username), for the
    day's caps (`INVITATIONS_PER_...` settings). Kept when their campaign is deleted, so
    that deleting one gives its admin no new invitations."""

    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    campaign = models.ForeignKey(
        Campaign, null=True, on_delete=models.SET_NULL, related_name="invitations_sent"
    )
    count = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    def __str__(self) -> str:
        return f"{self.count} sent by {self.actor_id} for {self.campaign_id}"


HERALD = "herald"  # the key of the herald's correspondence, public to every member
# The words the app and the campaign file use as keys beside kingdom ids: the herald's
# correspondence, a drawn result, the marauders' side and the admin as their general
# (campaign-options part B). No kingdom's id is one of them, so that no form or key
# mistakes a kingdom for one.
RESERVED_KINGDOM_IDS = frozenset({HERALD, "draw", HORDE, ADMIN})
LETTER_LENGTH = 4000  # characters of a letter


def correspondence_key(kingdoms: Iterable[str]) -> str:
    """The key of the correspondence of a set of kingdoms: their ids sorted, each between
    commas, so that `key__contains=",id,"` finds those a kingdom is in."""
    return "," + ",".join(sorted(set(kingdoms))) + ","


class Correspondence(models.Model):
    """A conversation: one per set of kingdoms, private to them (whoever rules them: a
    kingdom handed over brings its letters), or the herald's, public to every member."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="correspondences")
    key = models.CharField(
        max_length=500, help_text='"herald", or the kingdoms\' ids sorted, between commas.'
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "key"], name="one_correspondence_per_set")
        ]

    def __str__(self) -> str:
        return f"{self.key} in {self.campaign}"

    @property
    def herald(self) -> bool:
        return self.key == HERALD

    @property
    def kingdoms(self) -> list[str]:
        """The kingdoms it is between (none for the herald: everyone)."""
        return [] if self.herald else self.key.strip(",").split(",")


class Letter(models.Model):
    """A letter of a kingdom's, in a correspondence: plain text, shown escaped."""

    correspondence = models.ForeignKey(
        Correspondence, on_delete=models.CASCADE, related_name="letters"
    )
    kingdom = models.SlugField(max_length=20, help_text="The writer's kingdom.")
    writer = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    text = models.TextField(max_length=LETTER_LENGTH)
    written_at = models.DateTimeField(auto_now_add=True)
    edited_at = models.DateTimeField(null=True, blank=True)
    posted = models.BooleanField(
        default=False,
        help_text="Its words were posted outside the site as written (the campaign's "
        "channel), so it is no longer changed.",
    )

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.kingdom}'s letter {self.pk}"


class LettersRead(models.Model):
    """How far a kingdom has read a correspondence: its letters up to `up_to` (a letter's
    id). A kingdom's, not a user's: a kingdom handed over keeps what it has read."""

    correspondence = models.ForeignKey(
        Correspondence, on_delete=models.CASCADE, related_name="reads"
    )
    kingdom = models.SlugField(max_length=20)
    up_to = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["correspondence", "kingdom"], name="one_read_mark_per_kingdom"
            )
        ]

    def __str__(self) -> str:
        return f"{self.kingdom} read {self.correspondence} up to {self.up_to}"


class CampaignMap(models.Model):
    """A map as snapshots use it, stored once however many snapshots (or campaigns) use it,
    under the SHA-256 of its canonical JSON (`storage.map_digest`)."""

    digest = models.CharField(max_length=64, primary_key=True)
    data: models.JSONField[dict[str, Any]] = models.JSONField()

    def __str__(self) -> str:
        return f"{self.data.get('name', 'map')} {self.digest[:12]}"


class SnapshotQuerySet(models.QuerySet["Snapshot"]):
    def bulk_create(
        self, objs: Iterable["Snapshot"], *args: Any, **kwargs: Any
    ) -> list["Snapshot"]:
        snapshots = list(objs)
        with transaction.atomic(using=self.db, savepoint=False):
            _store_files(snapshots)
            return super().bulk_create(snapshots, *args, **kwargs)


class SnapshotManager(models.Manager["Snapshot"]):
    def get_queryset(self) -> SnapshotQuerySet:
        return SnapshotQuerySet(self.model, using=self._db)

    def newest(self, campaign: "Campaign") -> "Snapshot | None":
        """The campaign's newest snapshot (the state every page and post reads, by SQL
        written once: `campaign.reads`); None before it has started. Its events, the whole
        story, are read only if its file is (`Snapshot.data`), and then kept."""
        found = rows_of(
            Snapshot, campaign.pk, where=("campaign_id",), leaving=("own_events",), newest="number"
        )
        if not found:
            return None
        found[0].campaign = campaign
        return found[0]


MAPS_KEPT = 32  # maps each process keeps read


@lru_cache(maxsize=MAPS_KEPT)
def map_data(digest: str) -> dict[str, Any]:
    """A stored map's JSON, read from the database once in each process: a `CampaignMap`
    never changes, its key being the digest of its content. So a snapshot's file is read
    in one query, as when it was kept whole, without its map's tens of kilobytes. Shared by
    every snapshot that reads it: read-only."""
    data: dict[str, Any] = CampaignMap.objects.values_list("data", flat=True).get(pk=digest)
    return data


class Snapshot(models.Model):
    """The campaign file after a start, an advance, an undo, a correction or an import.
    The newest is the campaign's state; `decisions` are the inputs that produced it.
    `data` is the whole file; it is stored apart (`campaign.storage`): the map once in a
    `CampaignMap`, the events as what changed from one snapshot to the next."""

    class Reason(models.TextChoices):
        START = "start"
        ADVANCE = "advance"
        UNDO = "undo"
        CORRECTION = "correction"
        IMPORT = "import"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="snapshots")
    number = models.PositiveIntegerField()
    state: models.JSONField[dict[str, Any]] = models.JSONField(
        help_text="The campaign file with null in the places of its map and events."
    )
    clock: models.JSONField[dict[str, Any]] = models.JSONField(
        default=dict,
        help_text="The file's clock, a copy of the state's: the pages that list the months "
        "read every snapshot's clock, and reading it out of the state reads the whole state.",
    )
    map = models.ForeignKey(
        CampaignMap, null=True, blank=True, on_delete=models.PROTECT, related_name="snapshots"
    )
    events_shared = models.PositiveIntegerField(
        null=True,
        blank=True,
        help_text="How many first events it shares with the next snapshot; "
        "empty when own_events are all its events (the newest snapshot).",
    )
    own_events: models.JSONField[list[Any]] = models.JSONField(default=list)
    event_count = models.PositiveIntegerField(default=0)
    decisions: models.JSONField[dict[str, Any]] = models.JSONField(default=dict)
    reason = models.CharField(max_length=12, choices=Reason.choices)
    defaults = models.BooleanField(
        default=False,
        help_text="Made at a deadline: the missing decisions it was set for took their defaults.",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    objects = SnapshotManager()

    _file: dict[str, Any] | None = None
    _unstored = False

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_snapshot_per_number")
        ]

    def __str__(self) -> str:
        clock = self.state.get("clock", {})
        return f"{self.campaign} #{self.number} ({clock.get('season')} {clock.get('step')})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._unstored:
            super().save(*args, **kwargs)
            return
        if not self._state.adding:
            raise ValueError("A snapshot is never rewritten: store a new one.")
        with transaction.atomic(using=kwargs.get("using"), savepoint=False):
            _store_files([self])
            super().save(*args, **kwargs)

    def refresh_from_db(self, *args: Any, **kwargs: Any) -> None:
        super().refresh_from_db(*args, **kwargs)
        self._file = None

    @property
    def data(self) -> dict[str, Any]:
        """The whole campaign file: at most one query (for the events of an older snapshot)."""
        if self._file is None:
            hexmap = map_data(self.map_id) if self.map_id else None
            self._file = storage.put_together(self.state, hexmap, self._events())
        return self._file

    @data.setter
    def data(self, file: dict[str, Any]) -> None:
        self._file = file
        self._unstored = True

    def _events(self) -> list[Any]:
        if self.events_shared is None and "own_events" not in self.__dict__:
            try:
                return newest_events(self.pk, self.created_at, self.event_count)
            except Snapshot.DoesNotExist:  # a newer one was stored since this was read
                self.refresh_from_db(fields=["events_shared", "own_events"])
        if self.events_shared is None:
            whole: list[Any] = self.own_events
            return whole
        rows = (
            Snapshot.objects.filter(campaign_id=self.campaign_id, number__gt=self.number)
            .order_by("number")
            .values_list("events_shared", "own_events")
        )
        return storage.events_from([(self.events_shared, self.own_events), *rows])


EVENTS_KEPT = 32  # newest snapshots' stories each process keeps read


@lru_cache(maxsize=EVENTS_KEPT)
def newest_events(pk: int, stored: datetime, count: int) -> list[Any]:
    """The events of a snapshot that was its campaign's newest when read (all of them are
    its own), read from the database once in each process: a snapshot's story never
    changes, and a long campaign's is a hundred kilobytes of JSON that a page reads again
    and again until the next advance. Kept by the snapshot's id, the time it was stored and
    its count of events (a database restored or recreated gives its ids again to other
    snapshots). Raises Snapshot.DoesNotExist once a newer one is stored (it then holds only
    what it does not share with that one: Snapshot._events puts them together). Shared by
    every snapshot that reads it: read-only. Read by SQL written once (`campaign.reads`): a
    busy server has more campaigns than a process keeps stories, and reads them often."""
    found = rows_of(Snapshot, pk, where=("id",), unset=("events_shared",), leaving=_BUT_EVENTS)
    if not found:
        raise Snapshot.DoesNotExist(f"Snapshot {pk} is no longer its campaign's newest.")
    events: list[Any] = found[0].own_events
    return events


_BUT_EVENTS = tuple(
    f.name for f in Snapshot._meta.concrete_fields if f.name not in ("id", "own_events")
)


def read_files(snapshots: Iterable[Snapshot]) -> None:
    """Put together the files of many snapshots of a campaign with one query for their
    events (an export reads every snapshot)."""
    waiting = [s for s in snapshots if s._file is None and s.events_shared is not None]
    if not waiting:
        return
    campaigns = {s.campaign_id for s in waiting}
    rows = (
        Snapshot.objects.filter(
            campaign_id__in=campaigns, number__gte=min(s.number for s in waiting)
        )
        .order_by("campaign_id", "-number")
        .values_list("campaign_id", "number", "events_shared", "own_events")
    )
    events_at: dict[tuple[int, int], list[Any]] = {}
    newer: dict[int, list[Any]] = {}
    for campaign_id, number, shared, own in rows:
        events = own if shared is None else newer[campaign_id][:shared] + own
        newer[campaign_id] = events_at[campaign_id, number] = events
    for snapshot in waiting:
        hexmap = map_data(snapshot.map_id) if snapshot.map_id else None
        snapshot._file = storage.put_together(
            snapshot.state, hexmap, events_at[snapshot.campaign_id, snapshot.number]
        )


def _store_files(snapshots: list[Snapshot]) -> None:
    """Fill the stored fields of new snapshots from their files, in the order of their
    numbers, and turn the newest snapshot already stored before each campaign's first into
    one that holds only what it does not share with it. Called inside a transaction."""
    new = sorted((s for s in snapshots if s._unstored), key=lambda s: (s.campaign_id, s.number))
    befores = {
        first.campaign_id: Snapshot.objects.filter(
            campaign_id=first.campaign_id, number__lt=first.number
        )
        .order_by("-number")
        .values_list("pk", "events_shared", "own_events", "map_id")
        .first()
        for first in reversed(new)
    }
    stored_maps = {before[3] for before in befores.values() if before and before[3]}
    newer_events: dict[int, list[Any]] = {}
    for snapshot in reversed(new):
        kept = storage.take_apart(snapshot.data)
        snapshot.state = kept.state
        snapshot.clock = kept.state.get("clock") or {}
        snapshot.map_id = _map_stored(kept.hexmap, stored_maps) if kept.hexmap else None
        snapshot.event_count = len(kept.events)
        if snapshot.campaign_id in newer_events:
            shared = storage.shared_events(kept.events, newer_events[snapshot.campaign_id])
            snapshot.events_shared, snapshot.own_events = shared, kept.events[shared:]
        else:
            snapshot.events_shared, snapshot.own_events = None, kept.events
        newer_events[snapshot.campaign_id] = kept.events
        snapshot._unstored = False
    for campaign_id, before in befores.items():
        if before is None or before[1] is not None:
            continue  # the first snapshot, or one under a newer (the insert refuses its number)
        pk, _, events, _ = before
        shared = storage.shared_events(events, newer_events[campaign_id])
        Snapshot.objects.filter(pk=pk).update(events_shared=shared, own_events=events[shared:])


def _map_stored(hexmap: dict[str, Any], stored: set[str]) -> str:
    """The digest of a map, stored as a `CampaignMap` unless it is already."""
    digest = storage.map_digest(hexmap)
    if digest not in stored:
        CampaignMap.objects.get_or_create(digest=digest, defaults={"data": hexmap})
        stored.add(digest)
    return digest


class Submission(models.Model):
    """A kingdom's decision of one kind (an `inputs` key of the campaign file) for the
    step that stood at `snapshot`: editable until it is ready, consumed by an advance."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="submissions")
    kingdom = models.SlugField(max_length=20)
    kind = models.CharField(max_length=20)
    payload: models.JSONField[Any] = models.JSONField()
    snapshot = models.PositiveIntegerField(help_text="The snapshot number it was given against.")
    ready = models.BooleanField(default=False)
    consumed_by = models.ForeignKey(
        Snapshot, null=True, blank=True, on_delete=models.SET_NULL, related_name="submissions"
    )
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "kingdom", "kind"],
                condition=Q(consumed_by__isnull=True),
                name="one_open_submission_per_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kingdom} {self.kind} for #{self.snapshot}"

    @classmethod
    def open_in(cls, campaign: Campaign, kingdom: str = "") -> list["Submission"]:
        """The campaign's decisions no advance has consumed yet (of one `kingdom`, if
        given), in the order they were first given (by SQL written once: `campaign.reads`)."""
        if kingdom:
            return rows_of(
                cls,
                campaign.pk,
                kingdom,
                where=("campaign_id", "kingdom"),
                unset=("consumed_by_id",),
            )
        return rows_of(cls, campaign.pk, where=("campaign_id",), unset=("consumed_by_id",))


class AuditEntry(models.Model):
    """Something an admin (or the deadline) did to a campaign, and why."""

    class Action(models.TextChoices):
        """What was done, and its words in the dashboard's log."""

        IMPORTED = "imported", "imported the campaign from a file"
        CREATED = "created", "created the campaign"
        STARTED = "started", "started the campaign"
        PAUSED = "paused", "paused"
        RESUMED = "resumed", "resumed"
        EXTENDED = "extended", "extended the deadline"
        ADVANCED = "advanced", "advanced"
        ADVANCED_NOW = "advanced-now", "advanced at once"
        ADVANCE_REFUSED = "advance-refused", "could not advance"
        SET_ASIDE = "set-aside", "set aside decisions the rules refused as the campaign moved on"
        ARCHIVED = "archived", "archived the campaign"
        UNARCHIVED = "unarchived", "put the campaign back on the home pages"
        UNDONE = "undone", "undid the last step"
        CORRECTED = "corrected", "corrected the state"
        BATTLE_RESULT = "battle-result", "settled a battle"
        BATTLE_DECIDED = "battle-decided", "decided a battle's result"
        BATTLE_RERECORDED = "battle-rerecorded", "recorded a battle's result again"
        BATTLE_SIMPLE = "battle-simple", "settled a battle as a simple battle"
        BATTLE_EXTENDED = "battle-extended", "extended a battle's deadline"
        INVITED = "invited", "sent invitations by e-mail"
        NEW_CODE = "new-code", "made a new invitation link (the old one no longer works)"
        PLAYER_REMOVED = "player-removed", "removed a player"
        ADMIN_ADDED = "admin-added", "made an admin"
        STEPPED_DOWN = "stepped-down", "stepped down as admin"
        HANDED_OVER = "handed-over", "handed a kingdom over"
        OFFERED = "offered", "offered a kingdom"
        OFFER_DECLINED = "offer-declined", "declined a kingdom offered"
        DISCORD_SET = "discord-set", "set the Discord webhook"
        DISCORD_REMOVED = "discord-removed", "removed the Discord webhook"
        BATTLE_REPORT_HIDDEN = "battle-report-hidden", "hid a battle report"
        BATTLE_REPORT_SHOWN = "battle-report-shown", "showed a hidden battle report again"
        BATTLE_PHOTO_REMOVED = "battle-photo-removed", "removed a photograph of a battle report"
        PLACE_RENAMED = "place-renamed", "renamed a place"
        GENERAL_CHOSEN = "general-chosen", "chose the marauders' general"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=30, choices=Action.choices)
    reason = models.TextField(blank=True)
    details: models.JSONField[dict[str, Any]] = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} on {self.campaign}"
