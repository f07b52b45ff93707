"""Battles as rows: one for every battle the engine records (pitched, simple, naval,
land/water, slaughter, concession), mirroring the `battles` entries of the newest
snapshot, which stay the source of truth (`battles.sync`). The rows are what the battle
pages and the home page query; the reports of the result and the proposed times to play
are what the players add to them, and once a battle is resolved, each side's battle report
for the table's story, with its photographs. Each kingdom keeps a book of army lists, and
attaches one of them to a battle before it is played."""

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q

from campaign.models import Campaign, Snapshot
from campaign.rules.state import BattleStatus


class Battle(models.Model):
    """The `number`-th entry of the campaign's `battles` (1 for the first): a battle keeps
    its place in that list from its hand-off to its result (ruling B11). Its year, month
    and hex say where it was fought (two battles may share them: after one, a third
    kingdom still in the tile fights on)."""

    class Status(models.TextChoices):
        AWAITING = BattleStatus.AWAITING_RESULT.value, "Waiting for its result"
        RESOLVED = BattleStatus.RESOLVED.value, "Resolved"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="battles")
    number = models.PositiveIntegerField()
    year = models.PositiveSmallIntegerField()
    month = models.PositiveSmallIntegerField()
    hex: models.JSONField[list[int]] = models.JSONField(help_text="[q, r]")
    kind = models.CharField(max_length=12)
    attacker = models.SlugField(max_length=20, help_text="The kingdom that picked the battle.")
    defender = models.SlugField(max_length=20)
    sides: models.JSONField[list[dict[str, Any]]] = models.JSONField(default=list)
    board = models.CharField(max_length=4, blank=True)
    condition = models.CharField(max_length=40, blank=True)
    scenario = models.CharField(max_length=40, blank=True)
    defender_benefit = models.TextField(blank=True)
    last_stand = models.SlugField(max_length=20, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices)
    result = models.CharField(max_length=4, blank=True)
    winner = models.SlugField(max_length=20, blank=True)
    dice: models.JSONField[list[int]] = models.JSONField(default=list)
    details: models.JSONField[dict[str, Any]] = models.JSONField(
        default=dict, help_text="The engine's other facts: how to win, the dice of each side, …"
    )
    deadline = models.DateTimeField(
        null=True, blank=True, help_text="When its result is due (the campaign's battle deadline)."
    )
    handed_off_in = models.ForeignKey(
        Snapshot, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    resolved_in = models.ForeignKey(
        Snapshot, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_battle_per_number")
        ]
        indexes = [
            models.Index(fields=["campaign", "status"]),
            models.Index(fields=["campaign", "year", "month"]),
        ]

    def __str__(self) -> str:
        return f"{self.kind} battle {self.number} of {self.campaign} at {self.hex}"

    @property
    def awaiting(self) -> bool:
        return self.status == self.Status.AWAITING

    @property
    def kingdoms(self) -> tuple[str, str]:
        return self.attacker, self.defender

    def opponent_of(self, kingdom: str) -> str:
        return self.defender if kingdom == self.attacker else self.attacker

    def points_of(self, kingdom: str) -> int:
        """The points the kingdom's side brings: 500 for each of its upright armies in the
        tile. Its list may cost less, never more."""
        return next((side["points"] for side in self.sides if side["kingdom"] == kingdom), 0)


class ResultReport(models.Model):
    """A player's report of a tabletop battle's result, for the opponent to confirm or
    dispute. Only a confirmed report (or the admin's decision) reaches the engine."""

    class Status(models.TextChoices):
        REPORTED = "reported", "Waiting for confirmation"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"
        WITHDRAWN = "withdrawn", "Withdrawn"
        SET_ASIDE = "set_aside", "Set aside"

    OPEN = (Status.REPORTED, Status.DISPUTED)

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="reports")
    kingdom = models.SlugField(max_length=20, help_text="The reporting player's kingdom.")
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    result = models.CharField(max_length=4, choices=[("win", "Win"), ("draw", "Draw")])
    winner = models.SlugField(max_length=20, blank=True)
    attacker_score = models.PositiveIntegerField(null=True, blank=True)
    defender_score = models.PositiveIntegerField(null=True, blank=True)
    turns = models.PositiveSmallIntegerField(null=True, blank=True)
    note = models.TextField(blank=True)
    attacker_list = models.TextField(blank=True)
    defender_list = models.TextField(blank=True)
    # Option wizards (OA10): the artefacts on the beaten side's routed units, which the
    # winner takes.
    captured: models.JSONField[list[str]] = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.REPORTED)
    dispute_reason = models.TextField(blank=True)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    answered_at = models.DateTimeField(null=True, blank=True)
    set_aside_why = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["battle", "kingdom"],
                condition=Q(status__in=["reported", "disputed"]),
                name="one_open_report_per_side",
            )
        ]

    def __str__(self) -> str:
        return f"{self.kingdom}'s report of {self.battle}: {self.result} {self.winner}".strip()

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN


class PlayTime(models.Model):
    """A time one side proposes to play the battle; the other side may accept it."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="play_times")
    kingdom = models.SlugField(max_length=20, help_text="The proposing side.")
    proposed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self) -> str:
        return f"{self.kingdom} proposes {self.at:%Y-%m-%d %H:%M} for {self.battle}"


REPORT_LENGTH = 4000  # characters of a battle report's text
PHOTOS_PER_REPORT = 6


class BattleReport(models.Model):
    """A side's report of a resolved battle, for the table's story: a few paragraphs and
    up to six photographs. One for each side (its kingdom: whoever rules the kingdom may
    edit it), kept once written. The admin may hide it: then only the admin and the side's
    player see it, its photographs included."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="battle_reports")
    kingdom = models.SlugField(max_length=20, help_text="The side whose report it is.")
    text = models.TextField(blank=True, max_length=REPORT_LENGTH)
    written_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    hidden_at = models.DateTimeField(
        null=True, blank=True, help_text="When the admin hid it (none: it is shown)."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "kingdom"], name="one_battle_report_per_side")
        ]

    def __str__(self) -> str:
        return f"{self.kingdom}'s report of {self.battle}"

    @property
    def hidden(self) -> bool:
        return self.hidden_at is not None


class BattlePhoto(models.Model):
    """A photograph of a battle report, as `battles.photos` developed it: a copy at most
    1,600 pixels on its longer side and a thumbnail, in the default storage, each served
    only to those who may see the report (`battles.report_views.battle_photo`). Its files
    are deleted with it (`battles.photos.forget_when_deleted`)."""

    report = models.ForeignKey(BattleReport, on_delete=models.CASCADE, related_name="photos")
    # Named and written by `battles.photos.keep`, never from an upload's own name.
    large = models.FileField(max_length=200)
    thumbnail = models.FileField(max_length=200)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    thumbnail_width = models.PositiveIntegerField()
    thumbnail_height = models.PositiveIntegerField()
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return f"photograph {self.pk} of {self.report}"

    def files(self) -> list[str]:
        """The names of its files in the storage."""
        return [name for name in (self.large.name, self.thumbnail.name) if name]


# --- the book of army lists (issue 28) -----------------------------------------------------

LIST_NAME_LENGTH = 80
LIST_RACE_LENGTH = 60
LIST_TEXT_LENGTH = 20_000
LIST_POINTS_MAX = 10_000
# The sizes the rulebook asks players to write lists for in advance: one to six armies.
RULEBOOK_SIZES = (500, 1000, 1500, 2000, 2500, 3000)
LISTS_PER_BOOK = 60


def list_text(text: str) -> str:
    """A list's text as it is kept: one newline for a browser's CRLF, no blank lines or
    spaces around it. Its length is counted so."""
    return text.replace("\r\n", "\n").replace("\r", "\n").strip()


class ArmyList(models.Model):
    """A list in a kingdom's book of a campaign: its name, points, race and the list itself,
    as text pasted from any list builder. The kingdom's, not a user's: a kingdom handed
    over keeps its book. Only the kingdom's player reads the book; a list is shown to
    anyone else only as attached to a battle (`AttachedList`) or copied into a report of
    the battle's result, and then by the card's rule (`battles.access.sees_list`)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="army_lists")
    kingdom = models.SlugField(max_length=20, help_text="The kingdom whose book it is in.")
    name = models.CharField(max_length=LIST_NAME_LENGTH)
    points = models.PositiveIntegerField()
    race = models.CharField(max_length=LIST_RACE_LENGTH, blank=True)
    text = models.TextField(max_length=LIST_TEXT_LENGTH)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["points", "name", "pk"]
        indexes = [models.Index(fields=["campaign", "kingdom"])]

    def __str__(self) -> str:
        return f"{self.kingdom}'s list {self.name!r} ({self.points} points) in {self.campaign}"


class AttachedList(models.Model):
    """A side's list for a battle, attached before it is played: a copy of a list of the
    kingdom's book as it stood then (its name, points, race and text), so that changing or
    deleting the book's list later changes nothing here. One for each side. Its side may
    replace it or withdraw it until the other side has attached theirs, the result is
    reported or the battle is settled; the opponent (and the admin) see it once both sides
    have attached theirs, every member once the result is in (`battles.access`)."""

    battle = models.ForeignKey(Battle, on_delete=models.CASCADE, related_name="attached_lists")
    kingdom = models.SlugField(max_length=20, help_text="The side whose list it is.")
    name = models.CharField(max_length=LIST_NAME_LENGTH)
    points = models.PositiveIntegerField()
    race = models.CharField(max_length=LIST_RACE_LENGTH, blank=True)
    text = models.TextField(max_length=LIST_TEXT_LENGTH)
    attached_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    attached_at = models.DateTimeField()

    class Meta:
        ordering = ["attached_at", "pk"]
        constraints = [
            models.UniqueConstraint(fields=["battle", "kingdom"], name="one_attached_list_per_side")
        ]

    def __str__(self) -> str:
        return f"{self.kingdom}'s list {self.name!r} for {self.battle}"
