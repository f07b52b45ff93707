"""Notifications: what the campaign tells its people, by e-mail and on its Discord channel.

What is told, and where it comes from (never a call sprinkled through the services):
- a step opens for a kingdom, the month is over, the campaign has ended: `on_snapshot_stored`,
  a receiver of `signals.snapshot_stored` comparing the new snapshot's clock and `pending`
  with the snapshot before it;
- a reminder 24 and 2 hours before the deadline: `remind`, run by the beat;
- a battle handed off to the tabletop: `battle_handed_off`, from `battles.sync` as it makes
  the battle's row; a result reported, a dispute: `result_reported` and `result_disputed`,
  from `battles.services`.

The outbox. Each message is a `Notification` row: an e-mail to one user, or one post to the
campaign's Discord webhook naming the players concerned. Rows are written in the transaction
of the change that causes them (so they commit with it or not at all), with a `dedupe_key`
made of the event and the recipient and unique in the table: the same code run twice, or a
receiver called twice, makes no second row (`bulk_create(ignore_conflicts=True)`). A user's
choices decide at writing which e-mails are made at all, and which are `held` for the daily
digest; they are checked again at sending.

Sending, exactly once. `send(pk)` runs in the Celery task `tasks.send_notifications`, one
task for the rows one change wrote, queued on commit. It locks the row
(`select_for_update(skip_locked=True)`: a row another worker is sending is skipped, not
waited for), sends it only if it is neither sent nor given up and is due, and marks it sent
in the same transaction. So a task run twice, a task and the sweep racing, or a retry and
its duplicate send it once. A failure (the mail server's error, Discord's non-2xx answer or
a timeout) counts an attempt and sets the next one after an exponential back-off (Discord's
429 sets it after its `retry_after`), queued with that countdown; after `MAX_ATTEMPTS` the
row is given up. A task lost with its broker (Redis down when the row was written) or with
its worker (the worker died; its lock went with its database connection and its transaction
rolled back) leaves the row unsent and due: the beat runs `sweep` every minute and sends
every row due for more than `SWEEP_AFTER`.

The one window that remains: a worker that dies after the mail server (or Discord) accepted
the message and before its transaction commits leaves the row unsent, and the sweep sends it
again. There, and only there, delivery is at least once: no protocol can make an SMTP server
and a database commit together.

On SQLite (`make run`) `select_for_update` is a no-op, but the project's immediate
transactions hold the database's write lock while a row is sent, which serialises senders
just as well (and holds other writers back for as long as a send takes: the mail server's
and Discord's timeouts bound it)."""

import contextlib
import email.message
import email.policy
import json
import logging
import urllib.error
import urllib.request
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from email.policy import Policy
from typing import Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import Count, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign import services
from campaign.asks import WORDS, in_order_of_play
from campaign.models import (
    AuditEntry,
    Campaign,
    DiscordWebhook,
    Membership,
    Notification,
    NotificationChoices,
    Reminder,
    Snapshot,
)
from campaign.services import ServiceError

logger = logging.getLogger(__name__)

type Json = dict[str, Any]

Kind = Notification.Kind
Channel = Notification.Channel

# The kinds a user may turn off (the digest is a way of getting them, not a kind of news).
EMAIL_KINDS: tuple[str, ...] = tuple(k.value for k in Kind if k != Kind.DIGEST)
ALL = "all"  # an unsubscribe link's kind for every e-mail at once

MAX_ATTEMPTS = 10
FIRST_RETRY = timedelta(minutes=1)
LONGEST_WAIT = timedelta(hours=6)
SWEEP_AFTER = timedelta(seconds=30)  # a row's own task has had its chance by then
SWEEP_BATCH = 200
LEAD_TIMES = (2, 24)  # reminders, in hours before a deadline, nearest first
DIGEST_HOUR = 7  # the digest goes at 07:00 in each user's time zone, or soon after
DISCORD_TIMEOUT = 10
DISCORD_LENGTH = 2000
DISCORD_HOSTS = frozenset(
    {"discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"}
)
UNSUBSCRIBE_SALT = "campaign.notifications.unsubscribe"


# --- addresses and times ----------------------------------------------------------------------


def site_url() -> str:
    """Where the site is served, for the links of messages written far from any request:
    `SITE_URL` if the settings have one, else the first `CSRF_TRUSTED_ORIGINS` origin (the
    site's own, in a deployment), else the first allowed host."""
    configured: str = settings.SITE_URL or next(iter(settings.CSRF_TRUSTED_ORIGINS), "")
    if configured:
        return configured.rstrip("/")
    hosts = [h for h in settings.ALLOWED_HOSTS if h != "*" and not h.startswith(".")]
    host = hosts[0] if hosts else "localhost"
    return f"http://{host}:8000" if settings.DEBUG else f"https://{host}"


def absolute(path: str) -> str:
    return f"{site_url()}{path}"


def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def when(moment: datetime, zone: str) -> str:
    """A deadline as its reader says it, in the reader's time zone."""
    local = moment.astimezone(_zone(zone))
    return f"{local:%a} {local.day} {local:%b}, {local:%H:%M} ({zone})"


def discord_time(moment: datetime) -> str:
    """A time Discord shows in each reader's own zone, with how far off it is."""
    stamp = int(moment.timestamp())
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"


def chapter_words(clock: Json) -> str:
    """The part of the campaign a clock stands in: the setup, a summer month, a winter."""
    season, year = clock.get("season"), clock.get("year")
    if season == "setup":
        return "the setup"
    if season == "summer":
        return f"year {year}, summer month {clock.get('month')}"
    if season == "winter":
        return f"the winter of year {year}"
    return f"the end of year {year}"


def _chapter(clock: Json | None) -> tuple[Any, ...]:
    clock = clock or {}
    return clock.get("year"), clock.get("season"), clock.get("month")


def capitalised(words: str) -> str:
    return words[:1].upper() + words[1:]


def joined(words: Sequence[str]) -> str:
    if len(words) < 2:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


# --- the news: what each event says, to whom (pure, once the facts are gathered) --------------


def shown(user: User) -> str:
    """How a person is named to others: the display name they chose, else the username."""
    return user.display_name or user.get_username()


@dataclass(frozen=True)
class Player:
    """A kingdom and the user who rules it."""

    kingdom: str
    name: str
    user: User

    @property
    def named(self) -> str:
        return f"{shown(self.user)} ({self.name})"


@dataclass(frozen=True)
class Letter:
    """One e-mail: to whom, what it says and the page that does what it asks."""

    user: User
    subject: str
    body: str
    link: str
    reminder: Reminder | None = None


@dataclass(frozen=True)
class News:
    """One event: its key (unique to it), its kind, its e-mails and its Discord post."""

    key: str
    kind: str
    letters: list[Letter] = field(default_factory=list)
    post: str = ""
    link: str = ""
    summary: str = ""


def _subject(campaign_name: str, text: str) -> str:
    return f"[{campaign_name}] {text}"[:200]


def _post(campaign_name: str, chapter: str, *lines: str, link: str) -> str:
    head = f"**{campaign_name}** · {chapter}" if chapter else f"**{campaign_name}**"
    return "\n".join([head, *lines, f"<{link}>"])[:DISCORD_LENGTH]


@dataclass(frozen=True)
class Asked:
    """What a step asks of one kingdom, and where it is answered."""

    player: Player
    kinds: list[str]
    your_turn: bool

    @property
    def words(self) -> str:
        return joined([WORDS[kind].ask for kind in in_order_of_play(self.kinds)])

    def page(self, slug: str) -> str:
        first = in_order_of_play(self.kinds)[0]
        return absolute(reverse(WORDS[first].page, args=[slug]))


def step_news(
    *, campaign: Campaign, key: str, clock: Json, asked: list[Asked], deadline: datetime | None
) -> News:
    """A step opens: each kingdom asked is told what to do, where, and by when; in turns
    (orders in the cycle, a winter list asked of one kingdom at a time) it is its turn."""
    chapter = chapter_words(clock)
    letters = []
    for ask in asked:
        zone = ask.player.user.time_zone
        if ask.your_turn:
            opening, subject = f"It is your turn, {ask.player.name}:", f"Your turn: {ask.words}"
        else:
            opening, subject = f"{ask.player.name}, it is time to", capitalised(ask.words)
        if deadline is not None:
            subject += f" by {when(deadline, zone)}"
            due = (
                f"The deadline is {when(deadline, zone)}: after it the rulings' defaults "
                "decide for whoever is not ready."
            )
        else:
            due = "The campaign is paused: no deadline runs until its admin resumes it."
        body = f"{campaign.name}, {chapter}.\n\n{opening} {ask.words}.\n{due}"
        letters.append(
            Letter(ask.player.user, _subject(campaign.name, subject), body, ask.page(campaign.slug))
        )
    pages = {ask.page(campaign.slug) for ask in asked}
    link = pages.pop() if len(pages) == 1 else absolute(_campaign_path(campaign))
    due_line = f"Deadline: {discord_time(deadline)}" if deadline else "No deadline while paused."
    lines = [
        "; ".join(
            f"{ask.player.named}'s turn: {ask.words}"
            if ask.your_turn
            else f"{ask.player.named}, {ask.words}"
            for ask in asked
        )
        + ".",
        due_line,
    ]
    summary = f"{capitalised(chapter)}: " + "; ".join(f"{a.player.named}" for a in asked)
    return News(
        key, Kind.STEP, letters, _post(campaign.name, chapter, *lines, link=link), link, summary
    )


def reminder_news(
    *,
    campaign: Campaign,
    key: str,
    clock: Json,
    hours: int,
    deadline: datetime,
    owed: list[tuple[Asked, Reminder]],
) -> News:
    """A deadline nears: each kingdom not ready is told what it still owes."""
    left = f"{hours} hours" if hours != 1 else "1 hour"
    chapter = chapter_words(clock)
    letters = []
    for ask, reminder in owed:
        zone = ask.player.user.time_zone
        body = (
            f"{campaign.name}, {chapter}.\n\n{ask.player.name} is not ready yet: "
            f"{ask.words} by {when(deadline, zone)}.\nAfter the deadline the rulings' defaults "
            "decide for you (a draft you have not marked ready counts as given)."
        )
        subject = _subject(campaign.name, f"{left} left to {ask.words}")
        letters.append(Letter(ask.player.user, subject, body, ask.page(campaign.slug), reminder))
    link = absolute(_campaign_path(campaign))
    lines = [
        f"{left} left, until {discord_time(deadline)}. Still waiting for: "
        + "; ".join(f"{ask.player.named}, to {ask.words}" for ask, _ in owed)
        + "."
    ]
    summary = f"{left} left: " + ", ".join(ask.player.named for ask, _ in owed)
    return News(
        key, Kind.REMINDER, letters, _post(campaign.name, chapter, *lines, link=link), link, summary
    )


def month_news(
    *, campaign: Campaign, key: str, before: Json, now: Json, everyone: list[User], report: str
) -> News:
    """A month (or the setup, or a winter) is over: everyone may read its report."""
    over, begins = chapter_words(before), chapter_words(now)
    subject = _subject(campaign.name, f"{capitalised(over)} is over: read its report")
    body = (
        f"{campaign.name} has moved on from {over} to {begins}.\n\n"
        f"What happened in {over}, every event and every die: its report."
    )
    letters = [Letter(user, subject, body, report) for user in everyone]
    post = _post(campaign.name, begins, f"{capitalised(over)} is over. Its report:", link=report)
    return News(key, Kind.MONTH, letters, post, report, f"{capitalised(over)} is over")


def winners_words(scores: list[Json], names: dict[str, str]) -> str:
    """Who came first, in the final standings (a shared first place is said so)."""
    first = [s for s in scores if s.get("rank") == 1]
    if not first:
        return ""
    who = joined([str(names.get(s["kingdom"], s["kingdom"])) for s in first])
    might = first[0].get("might")
    if len(first) == 1:
        return f"{who} wins, with {might} might."
    return f"{who} share the first place, with {might} might."


def ended_news(
    *,
    campaign: Campaign,
    key: str,
    data: Json,
    everyone: list[User],
    end: str,
    names: dict[str, str],
) -> News:
    """The campaign is over: everyone may read how it ended."""
    year = data["clock"].get("year")
    winners = winners_words(data.get("scores", []), names)
    subject = _subject(campaign.name, "The campaign has ended")
    body = (
        f"{campaign.name} is over, after year {year}. {winners}\n\n"
        "The podium, the final standings and each kingdom's best moments: on its last page."
    ).replace(". \n", ".\n")
    letters = [Letter(user, subject, body, end) for user in everyone]
    post = _post(campaign.name, "", f"The campaign has ended. {winners}".strip(), link=end)
    return News(key, Kind.ENDED, letters, post, end, "The campaign has ended")


def _result_words(result: str, winner: str, names: dict[str, str]) -> str:
    return f"{names.get(winner, winner)} won" if result == "win" else "a draw"


# --- facts from the database ------------------------------------------------------------------


def _campaign_path(campaign: Campaign) -> str:
    return reverse("campaign:campaign", args=[campaign.slug])


def _members(campaign: Campaign) -> list[Membership]:
    return list(campaign.memberships.select_related("user"))


def _players(members: Iterable[Membership], names: dict[str, str]) -> dict[str, Player]:
    return {
        m.kingdom: Player(m.kingdom, m.kingdom_name or names.get(m.kingdom, m.kingdom), m.user)
        for m in members
        if m.kingdom
    }


def _names(campaign: Campaign) -> dict[str, str]:
    members = campaign.memberships.exclude(kingdom="").values_list("kingdom", "kingdom_name")
    return {kingdom: name or kingdom for kingdom, name in members}


def newly_asked(
    before_clock: Json | None, before: list[Json] | None, clock: Json, pending: list[Json]
) -> dict[str, list[str]]:
    """The kinds each kingdom is asked now and was not asked at the snapshot before (all of
    them when the clock moved). A tabletop result is told by its battle's hand-off."""
    asked_before = (
        {(p["kingdom"], p["kind"]) for p in before or []} if before_clock == clock else set()
    )
    opened: dict[str, list[str]] = {}
    for entry in pending:
        pair = (entry["kingdom"], entry["kind"])
        if entry["kind"] != "battle_result" and pair not in asked_before:
            kinds = opened.setdefault(entry["kingdom"], [])
            if entry["kind"] not in kinds:
                kinds.append(entry["kind"])
    return opened


def _your_turn(data: Json, kingdom: str, kinds: list[str]) -> bool:
    """Orders in the cycle (ruling O1), or a decision asked of this kingdom alone while the
    others wait their turn (a capital, the tithes, the next battle's choice)."""
    if "orders" in kinds and data.get("options", {}).get("orders") == "cycle":
        return True
    if len(data.get("kingdoms", [])) < 2:
        return False
    pending = data.get("pending", [])
    return all({p["kingdom"] for p in pending if p["kind"] == kind} == {kingdom} for kind in kinds)


def _coming_deadline(campaign: Campaign, snapshot: Snapshot) -> datetime | None:
    """The deadline the step opened by this snapshot gets: the one `services._open_deadline`
    sets right after storing it (a correction keeps the deadline there is)."""
    if campaign.status == Campaign.Status.PAUSED:
        return None
    if snapshot.reason == Snapshot.Reason.CORRECTION:
        return campaign.deadline
    hours = services.step_hours(campaign, snapshot.data)
    return services.on_a_deadline_day(campaign, timezone.now() + timedelta(hours=hours))


def snapshot_news(campaign: Campaign, snapshot: Snapshot) -> list[News]:
    """What a new snapshot tells, compared with the one before it."""
    before = (
        campaign.snapshots.filter(number__lt=snapshot.number)
        .order_by("-number")
        .values_list("state__clock", "state__pending")
        .first()
    )
    before_clock, before_pending = before or (None, [])
    data = snapshot.data
    clock = data["clock"]
    names = {k["id"]: k["name"] for k in data.get("kingdoms", [])}
    members = _members(campaign)
    everyone = list({m.user.pk: m.user for m in members}.values())
    players = _players(members, names)
    number = f"{campaign.pk}:{snapshot.number}"
    news = []
    if clock["season"] == "ended":
        if (before_clock or {}).get("season") != "ended":
            end = absolute(reverse("campaign:end", args=[campaign.slug]))
            news.append(
                ended_news(
                    campaign=campaign, key=f"ended:{number}", data=data, everyone=everyone,
                    end=end, names={p.kingdom: p.name for p in players.values()} | names,
                )
            )  # fmt: skip
        return news
    if (
        snapshot.reason == Snapshot.Reason.ADVANCE
        and before_clock
        and _chapter(before_clock) != _chapter(clock)
    ):
        report = absolute(reverse("campaign:report", args=[campaign.slug, snapshot.number]))
        news.append(
            month_news(
                campaign=campaign, key=f"month:{number}", before=before_clock, now=clock,
                everyone=everyone, report=report,
            )
        )  # fmt: skip
    opened = newly_asked(before_clock, before_pending, clock, data.get("pending", []))
    asked = [
        Asked(players[kingdom], kinds, _your_turn(data, kingdom, kinds))
        for kingdom, kinds in opened.items()
        if kingdom in players
    ]
    if asked:
        news.append(
            step_news(
                campaign=campaign, key=f"step:{number}", clock=clock, asked=asked,
                deadline=_coming_deadline(campaign, snapshot),
            )
        )  # fmt: skip
    return news


# --- writing the outbox -----------------------------------------------------------------------


def choices_of(user: User) -> NotificationChoices:
    """The user's choices (every kind, one e-mail each, unless saved otherwise)."""
    found = NotificationChoices.objects.filter(user=user).first()
    return found or NotificationChoices(user=user)


def _email_row(campaign: Campaign | None, news: News, letter: Letter, digest: bool) -> Notification:
    return Notification(
        campaign=campaign,
        user=letter.user,
        channel=Channel.EMAIL,
        kind=news.kind,
        subject=letter.subject,
        body=letter.body,
        link=letter.link,
        dedupe_key=f"{news.key}:u{letter.user.pk}"[:200],
        held=digest,
        reminder=letter.reminder,
    )


def write(campaign: Campaign, news: News) -> int:
    """Write the event's rows (none already written), to be sent once this transaction
    commits: an e-mail to each recipient who takes this kind and has an address, held for
    the digest of those who take one; a post if the campaign has a Discord webhook."""
    if _silenced.get():
        return 0
    users = {letter.user.pk for letter in news.letters}
    choices = {c.user_id: c for c in NotificationChoices.objects.filter(user__in=users)}
    rows = []
    for letter in news.letters:
        chosen = choices.get(letter.user.pk) or NotificationChoices(user=letter.user)
        if letter.user.email and letter.user.is_active and news.kind not in chosen.email_off:
            rows.append(_email_row(campaign, news, letter, chosen.digest))
    if news.post and DiscordWebhook.objects.filter(campaign=campaign).exists():
        rows.append(
            Notification(
                campaign=campaign,
                channel=Channel.DISCORD,
                kind=news.kind,
                subject=_subject(campaign.name, news.summary or news.kind),
                body=news.post,
                link=news.link,
                dedupe_key=f"{news.key}:discord"[:200],
            )
        )
    if not rows:
        return 0
    Notification.objects.bulk_create(rows, ignore_conflicts=True)
    _send_after_commit([row.dedupe_key for row in rows])
    return len(rows)


def _send_after_commit(keys: list[str]) -> None:
    to_send = list(
        Notification.objects.filter(
            dedupe_key__in=keys, sent_at=None, given_up_at=None, held=False
        ).values_list("pk", flat=True)
    )
    if to_send:
        queue(to_send)


def queue(pks: list[int], countdown: float | None = None) -> None:
    """Send these rows in the background once this transaction commits. If the broker is
    down the rows wait for the sweep: an error here is logged and never undoes the change."""
    from campaign.tasks import send_notifications

    # Nobody reads the result: ignoring it keeps this process off the result backend, which,
    # with Redis away, would hold the request for many seconds before the error.
    options: dict[str, Any] = {"ignore_result": True}
    if countdown is not None:
        options["countdown"] = countdown

    def send() -> None:
        if pks:
            send_notifications.apply_async((list(pks),), **options)

    transaction.on_commit(send, robust=True)


# --- the receivers and the callers' entry points ----------------------------------------------


# The snapshots created one by one here (`services.store_snapshot` saves each, which sends
# `post_save`). An import bulk-creates a campaign's history, which sends none, and then
# announces its newest snapshot so that the battles get their rows: what that snapshot
# tells happened on another site, and nobody is told it again.
_stored_here: "weakref.WeakSet[Snapshot]" = weakref.WeakSet()


def on_snapshot_created(*, instance: Snapshot, created: bool, **_: Any) -> None:
    if created:
        _stored_here.add(instance)


# Set by `silenced()`: nothing is written to the outbox while it is.
_silenced: ContextVar[bool] = ContextVar("notifications_silenced", default=False)


@contextmanager
def silenced() -> Iterator[None]:
    """Write no notifications inside: for tools that play a campaign's history in bulk,
    such as seeding the demo, whose hundreds of bot-played steps nobody should be told."""
    token = _silenced.set(True)
    try:
        yield
    finally:
        _silenced.reset(token)


def on_snapshot_stored(*, campaign: Campaign, snapshot: Snapshot, **_: Any) -> None:
    """Write what a new snapshot tells (not an imported one). In a savepoint, and logged if
    it fails: a notification never blocks the campaign."""
    if snapshot not in _stored_here or snapshot.reason == Snapshot.Reason.IMPORT:
        return
    try:
        with transaction.atomic():
            for news in snapshot_news(campaign, snapshot):
                write(campaign, news)
    except Exception:
        logger.exception("The notifications of %s could not be written.", snapshot)


def on_campaign_full(*, campaign: Campaign, **_: Any) -> None:
    """The last kingdom has joined: each admin is told that the campaign may start, with
    its dashboard's address (the campaign page offers Start to them too)."""
    dashboard = absolute(reverse("campaign:dashboard", args=[campaign.slug]))
    players = campaign.memberships.exclude(kingdom="").order_by("pk")
    kingdoms = joined(
        [f"{m.kingdom_name} ({shown(m.user)})" for m in players.select_related("user")]
    )
    body = (
        f"Every kingdom has joined {campaign.name}: {kingdoms}.\n\n"
        "Start the campaign from its dashboard (or its page): the kingdoms then choose their "
        "races."
    )
    subject = _subject(campaign.name, "Every kingdom has joined: start the campaign")
    letters = [
        Letter(m.user, subject, body, dashboard)
        for m in campaign.memberships.filter(is_admin=True).select_related("user")
    ]
    post = _post(campaign.name, "", f"Every kingdom has joined: {kingdoms}.", link=dashboard)
    last = players.last()
    key = f"full:{campaign.pk}:{last.pk if last else 0}"  # full again after a removal: told again
    news = News(key, Kind.STEP, letters, post, dashboard, "Every kingdom has joined")
    try:
        with transaction.atomic():
            write(campaign, news)
    except Exception:
        logger.exception("The news that %s is full could not be written.", campaign)


def battle_handed_off(
    *,
    campaign: Campaign,
    snapshot: Snapshot,
    number: int,
    entry: Json,
    deadline: datetime | None,
    link: str,
) -> int:
    """A battle goes to the tabletop: both its players are told, with its card (`link`, a
    path) and when its result is due. Called by `battles.sync` as it makes the row (not
    for an imported snapshot's battles)."""
    if snapshot not in _stored_here or snapshot.reason == Snapshot.Reason.IMPORT:
        return 0
    names = {k["id"]: k["name"] for k in snapshot.data.get("kingdoms", [])}
    players = _players(_members(campaign), names)
    attacker, defender = str(entry["attacker"]), str(entry["defender"])
    entry_sides = (attacker, defender)
    card = absolute(link)
    hex_ = f"[{entry['hex'][0]}, {entry['hex'][1]}]"
    kind = entry.get("kind", "pitched")
    letters = []
    for side, other in ((attacker, defender), (defender, attacker)):
        player = players.get(side)
        if player is None:
            continue
        opponent = players.get(other)
        zone = player.user.time_zone
        due = f" by {when(deadline, zone)}" if deadline else ""
        body = (
            f"{campaign.name}, {chapter_words(snapshot.data['clock'])}.\n\n"
            f"The {kind} battle at {hex_} between {names.get(attacker, attacker)} (who picked "
            f"it) and {names.get(defender, defender)} goes to the tabletop. Agree a time with "
            f"{opponent.named if opponent else names.get(other, other)}, play it, and report "
            f"the result on its card{due}."
        )
        subject = f"Your battle against {names.get(other, other)} goes to the tabletop"
        letters.append(Letter(player.user, _subject(campaign.name, subject), body, card))
    sides = joined(
        [players[k].named if k in players else str(names.get(k, k)) for k in entry_sides]
    )
    lines = [
        f"A {kind} battle at {hex_} goes to the tabletop: {sides}."
        + (f" Its result is due {discord_time(deadline)}." if deadline else "")
    ]
    news = News(
        f"battle:{campaign.pk}:{snapshot.number}:{number}",
        Kind.BATTLE,
        letters,
        _post(campaign.name, chapter_words(snapshot.data["clock"]), *lines, link=card),
        card,
        f"Battle at {hex_}: {sides}",
    )
    return write(campaign, news)


def result_reported(
    *,
    campaign: Campaign,
    report_id: int,
    reporter: User,
    kingdom: str,
    opponent: str,
    hex: list[int],
    result: str,
    winner: str,
    link: str,
) -> int:
    """A side reports a result: the other side's player is asked to confirm it."""
    names = _names(campaign)
    players = _players(campaign.memberships.select_related("user"), names)
    card = absolute(link)
    said = _result_words(result, winner, names)
    hex_ = f"[{hex[0]}, {hex[1]}]"
    who = f"{shown(reporter)} ({names.get(kingdom, kingdom)})"
    letters = []
    if opponent in players:
        body = (
            f"{who} reports the result of your battle at {hex_}: {said}.\n\n"
            "Confirm it, or dispute it and say why, on the battle's card: the campaign moves "
            "on once you confirm."
        )
        subject = f"Confirm the result of your battle against {names.get(kingdom, kingdom)}"
        letters.append(Letter(players[opponent].user, _subject(campaign.name, subject), body, card))
    other = players[opponent].named if opponent in players else names.get(opponent, opponent)
    post = _post(
        campaign.name,
        "",
        f"{who} reports the battle at {hex_}: {said}. Waiting for {other} to confirm.",
        link=card,
    )
    news = News(f"report:{report_id}", Kind.REPORT, letters, post, card, f"Report at {hex_}")
    return write(campaign, news)


def result_disputed(
    *,
    campaign: Campaign,
    report_id: int,
    disputer: User,
    reporter: User | None,
    kingdom: str,
    hex: list[int],
    result: str,
    winner: str,
    reason: str,
    link: str,
    desk: str,
) -> int:
    """The opponent disputes a report: its reporter and the campaign's admins are told (the
    admins decide, on the battles desk: `desk`, a path)."""
    names = _names(campaign)
    hex_ = f"[{hex[0]}, {hex[1]}]"
    said = _result_words(result, winner, names)
    who = shown(disputer)
    reporting = f"{shown(reporter) if reporter else 'a player'} ({names.get(kingdom, kingdom)})"
    body = (
        f"{who} disputes the report of the battle at {hex_} by {reporting}: {said}.\n"
        f"Their reason: “{reason}”\n\nThe campaign's admins decide the result."
    )
    letters = []
    if reporter is not None:
        subject = f"{who} disputes your report of the battle at {hex_}"
        letters.append(Letter(reporter, _subject(campaign.name, subject), body, absolute(link)))
    admins = campaign.memberships.filter(is_admin=True).select_related("user")
    for admin in admins:
        if reporter is None or admin.user.pk != reporter.pk:
            subject = f"A result to decide: {who} disputes the battle at {hex_}"
            letters.append(
                Letter(admin.user, _subject(campaign.name, subject), body, absolute(desk))
            )
    post = _post(
        campaign.name,
        "",
        f"{who} disputes the report of the battle at {hex_} by {reporting}: the admins decide.",
        link=absolute(link),
    )
    news = News(
        f"dispute:{report_id}", Kind.DISPUTE, letters, post, absolute(link), f"Dispute at {hex_}"
    )
    return write(campaign, news)


def remind(now: datetime | None = None) -> int:
    """Run by the beat each minute: each running campaign whose deadline is within a lead
    time (24 hours, then 2) records a `Reminder` for every kingdom that still owes a
    decision, once per kingdom, step and lead time, and tells its player. Once the deadline
    has passed the defaults apply instead: no reminder then. Returns the reminders made."""
    now = now or timezone.now()
    running = Campaign.objects.filter(
        status=Campaign.Status.RUNNING,
        deadline__gt=now,
        deadline__lte=now + timedelta(hours=max(LEAD_TIMES)),
    )
    made = 0
    for campaign in running:
        assert campaign.deadline is not None
        hours = next(h for h in LEAD_TIMES if campaign.deadline <= now + timedelta(hours=h))
        with transaction.atomic():
            made += _remind(campaign, hours)
    return made


def _remind(campaign: Campaign, hours: int) -> int:
    assert campaign.deadline is not None
    snapshot = services.latest_snapshot(campaign)
    data = snapshot.data
    if services.step_hours(campaign, data) <= hours:
        return 0  # a step (a kingdom's turn) no longer than the lead time: told when it opened
    late = services.owing(data) - services.ready_kingdoms(campaign)
    if not late:
        return 0
    names = {k["id"]: k["name"] for k in data.get("kingdoms", [])}
    players = _players(_members(campaign), names)
    made_now, owed = 0, []
    for kingdom in sorted(late):
        reminder, made = Reminder.objects.get_or_create(
            campaign=campaign, kingdom=kingdom, snapshot=snapshot.number, hours_before=hours,
            defaults={"deadline": campaign.deadline},
        )  # fmt: skip
        if not made:
            continue
        made_now += 1
        if kingdom in players:
            kinds = [p["kind"] for p in data.get("pending", []) if p["kingdom"] == kingdom]
            owed.append((Asked(players[kingdom], kinds, your_turn=False), reminder))
    if owed:
        write(
            campaign,
            reminder_news(
                campaign=campaign, key=f"reminder:{campaign.pk}:{snapshot.number}:{hours}",
                clock=data["clock"], hours=hours, deadline=campaign.deadline, owed=owed,
            ),
        )  # fmt: skip
    return made_now


# --- sending ----------------------------------------------------------------------------------


class DeliveryError(Exception):
    """A message not delivered this time. `wait`: how long the other side asked us to wait."""

    def __init__(self, message: str, *, wait: timedelta | None = None) -> None:
        super().__init__(message)
        self.wait = wait


def back_off(attempts: int) -> timedelta:
    """The wait after `attempts` failed attempts: a minute, doubled each time, 6 hours at most."""
    wait: timedelta = FIRST_RETRY * 2 ** max(attempts - 1, 0)
    return min(wait, LONGEST_WAIT)


def send(pk: int, *, now: datetime | None = None) -> str:
    """Send one row of the outbox, once: see the module's docstring. Returns what happened:
    sent, failed, gave up, dropped (its recipient no longer takes it), or skipped (sent or
    given up already, not due yet, or being sent by another worker right now)."""
    now = now or timezone.now()
    with transaction.atomic():
        row = Notification.objects.select_for_update(skip_locked=True).filter(pk=pk).first()
        if row is None or row.sent_at or row.given_up_at or row.held or row.due_at > now:
            return "skipped"
        refusal = _refusal(row)
        if refusal:
            row.given_up_at, row.last_error = now, refusal
            row.save(update_fields=["given_up_at", "last_error"])
            return "dropped"
        try:
            _deliver(row)
        except Exception as error:  # anything: a failed message never stops the others
            return _failed(row, error, now)
        row.sent_at, row.attempts, row.last_error = now, row.attempts + 1, ""
        row.save(update_fields=["sent_at", "attempts", "last_error"])
        if row.reminder_id:
            Reminder.objects.filter(pk=row.reminder_id, sent_at=None).update(sent_at=now)
    return "sent"


def _refusal(row: Notification) -> str:
    """Why a row may no longer be sent, if it may not."""
    if row.channel == Channel.DISCORD:
        has_webhook = DiscordWebhook.objects.filter(campaign=row.campaign).exists()
        return "" if has_webhook else "The campaign's Discord webhook was removed."
    user = row.user
    if user is None or not user.is_active or not user.email:
        return "Its recipient has no e-mail address now."
    if row.kind != Kind.DIGEST and row.kind in choices_of(user).email_off:
        return "Its recipient turned this kind of e-mail off."
    return ""


def _deliver(row: Notification) -> None:
    if row.channel == Channel.DISCORD:
        webhook = DiscordWebhook.objects.get(campaign=row.campaign)
        try:
            post_to_discord(webhook.url, row.body)
        except DeliveryError as error:
            said = str(error).replace(webhook.url, "(the webhook)")
            raise DeliveryError(said, wait=error.wait) from None
        return
    assert row.user is not None
    _email(row, row.user).send()


def _failed(row: Notification, error: Exception, now: datetime) -> str:
    row.attempts += 1
    row.last_error = f"{type(error).__name__}: {error}"[:1000]
    wait = error.wait if isinstance(error, DeliveryError) and error.wait else back_off(row.attempts)
    if row.attempts >= MAX_ATTEMPTS:
        row.given_up_at = now
    else:
        row.due_at = now + wait
        queue([row.pk], countdown=wait.total_seconds())
    row.save(update_fields=["attempts", "last_error", "due_at", "given_up_at"])
    logger.warning("Notification %s, attempt %s: %s", row.pk, row.attempts, row.last_error)
    return "gave up" if row.given_up_at else "failed"


def sweep(now: datetime | None = None) -> int:
    """Run by the beat each minute: send every row due for more than `SWEEP_AFTER` (its
    task was lost with the broker or its worker, or its retry is late). Returns how many
    were sent."""
    now = now or timezone.now()
    due = Notification.objects.filter(
        sent_at=None, given_up_at=None, held=False, due_at__lte=now - SWEEP_AFTER
    ).order_by("due_at", "pk")
    return sum(send(pk, now=now) == "sent" for pk in due.values_list("pk", flat=True)[:SWEEP_BATCH])


# --- the channels -----------------------------------------------------------------------------


class NotificationEmail(EmailMessage):
    """An e-mail whose header lines are not folded at 78 characters: Python folds a long
    List-Unsubscribe address into RFC 2047 encoded words, which mail clients do not read as
    an address. RFC 5322 allows lines of 998."""

    def message(self, *, policy: Policy | None = None) -> email.message.EmailMessage:
        unfolded = (policy or email.policy.default).clone(max_line_length=998)
        return super().message(policy=unfolded)


def _email(row: Notification, user: User) -> EmailMessage:
    """The e-mail of a row, with its unsubscribe link in the text and in the headers."""
    kind = ALL if row.kind == Kind.DIGEST else row.kind
    unsubscribe = absolute(reverse("campaign:unsubscribe", args=[unsubscribe_token(user, kind)]))
    text = render_to_string(
        "campaign/notifications/email.txt",
        {
            "row": row,
            "user": user,
            "unsubscribe": unsubscribe,
            "stops": kind_words(kind),
            "choices": absolute(reverse("campaign:notifications")),
        },
    )
    return NotificationEmail(
        subject=row.subject,
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook that answers with a redirect has failed (and is not followed elsewhere)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def post_to_discord(url: str, text: str) -> None:
    """Post one message to a Discord webhook; mentions are never pinged. Raises
    `DeliveryError` unless Discord answers 2xx (after Discord's `retry_after` for a 429)."""
    payload = {"content": text[:DISCORD_LENGTH], "allowed_mentions": {"parse": []}}
    request = urllib.request.Request(
        url,
        data=json.dumps(payload).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "User-Agent": "MightyKingdoms/1.0"},
    )
    try:
        with _opener.open(request, timeout=DISCORD_TIMEOUT) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        if error.code == 429:
            raise DeliveryError(
                "Discord answered 429: too many", wait=_retry_after(error)
            ) from None
        raise DeliveryError(f"Discord answered {error.code}") from None
    except (urllib.error.URLError, TimeoutError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise DeliveryError(f"Discord did not answer: {reason}") from None
    if not 200 <= status < 300:
        raise DeliveryError(f"Discord answered {status}")


def _retry_after(error: urllib.error.HTTPError) -> timedelta:
    """Discord's `retry_after` (seconds, in its JSON answer), else the Retry-After header."""
    seconds: float = 0
    with contextlib.suppress(ValueError, AttributeError, OSError):
        seconds = float(json.loads(error.read() or b"{}").get("retry_after") or 0)
    if not seconds:
        try:
            seconds = float(error.headers.get("Retry-After") or 0)
        except (ValueError, AttributeError):
            seconds = 0
    return min(max(timedelta(seconds=seconds), timedelta(seconds=1)), LONGEST_WAIT)


# --- the daily digest -------------------------------------------------------------------------


def send_digests(now: datetime | None = None) -> int:
    """Run by the beat: each user who takes a digest gets, once a day from `DIGEST_HOUR` in
    their time zone, one e-mail of everything held for it since the last (none if nothing
    was). Returns how many digests were written."""
    now = now or timezone.now()
    written = 0
    for choices in NotificationChoices.objects.filter(digest=True).select_related("user"):
        today = now.astimezone(_zone(choices.user.time_zone))
        if today.hour < DIGEST_HOUR or choices.digest_sent_on == today.date():
            continue
        with transaction.atomic():
            locked = (
                NotificationChoices.objects.select_for_update()
                .filter(pk=choices.pk, digest=True)
                .exclude(digest_sent_on=today.date())
                .first()
            )
            if locked is None:
                continue  # another run did it
            written += bundle(choices.user, now)
            locked.digest_sent_on = today.date()
            locked.save(update_fields=["digest_sent_on"])
    return written


def digest_text(rows: Sequence[Notification], campaigns: dict[int | None, str]) -> str:
    """One e-mail of the messages held for a digest, campaign by campaign."""
    lines = ["What the campaigns asked of you and told you since your last digest."]
    for campaign_id in dict.fromkeys(row.campaign_id for row in rows):
        lines += ["", campaigns.get(campaign_id, "Mighty Kingdoms")]
        for row in rows:
            if row.campaign_id == campaign_id:
                subject = row.subject.removeprefix(f"[{campaigns.get(campaign_id)}] ")
                lines += [f"- {subject}", f"  {row.link}"]
    return "\n".join(lines)


def bundle(user: User, now: datetime | None = None) -> int:
    """Put every message held for the user's digest into one e-mail, sent after commit.
    The messages held are marked sent with it (by the digest that carried them)."""
    now = now or timezone.now()
    held = list(
        Notification.objects.select_for_update()
        .filter(user=user, held=True, sent_at=None, given_up_at=None)
        .order_by("created_at", "pk")
    )
    off = set(choices_of(user).email_off)
    keep = [row for row in held if row.kind not in off]
    dropped = [row.pk for row in held if row.kind in off]
    if not user.email:
        dropped, keep = [row.pk for row in held], []
    if dropped:
        Notification.objects.filter(pk__in=dropped).update(
            given_up_at=now, last_error="Its recipient turned it off before the digest."
        )
    if not keep:
        return 0
    campaigns: dict[int | None, str] = dict(
        Campaign.objects.filter(pk__in={row.campaign_id for row in keep}).values_list("pk", "name")
    )
    count = len(keep)
    digest = Notification.objects.create(
        user=user,
        channel=Channel.EMAIL,
        kind=Kind.DIGEST,
        subject=f"Mighty Kingdoms: {count} message{'s' if count != 1 else ''} for you",
        body=digest_text(keep, campaigns),
        link=absolute(reverse("campaign:home")),
        dedupe_key=f"digest:u{user.pk}:{keep[0].pk}-{keep[-1].pk}",
    )
    Notification.objects.filter(pk__in=[row.pk for row in keep]).update(sent_at=now, digest=digest)
    queue([digest.pk])
    return 1


# --- a user's choices, and unsubscribing ------------------------------------------------------


# What each kind of e-mail is about, as the choices page and an unsubscribe link say it.
KIND_WORDS = {
    Kind.STEP: "when a step opens for you, or it is your turn",
    Kind.REMINDER: "reminders a day and two hours before a deadline you have not met",
    Kind.BATTLE: "when a battle of yours goes to the tabletop",
    Kind.REPORT: "when a result waits for your confirmation",
    Kind.DISPUTE: "when a result is disputed",
    Kind.MONTH: "when a month is over, with its report",
    Kind.ENDED: "when a campaign ends",
}


def kind_words(kind: str) -> str:
    """What an unsubscribe link stops."""
    if kind == ALL:
        return "every e-mail from Mighty Kingdoms"
    return f"e-mails {KIND_WORDS[Kind(kind)]}"


@transaction.atomic
def choices_save(*, user: User, email_off: Iterable[str], digest: bool) -> NotificationChoices:
    """Save which kinds the user does not want by e-mail, and whether they come as a daily
    digest. Turning the digest off sends what it held at once, in one e-mail."""
    unknown = set(email_off) - set(EMAIL_KINDS)
    if unknown:
        raise ServiceError("There is no such kind of e-mail.", code="bad-kind", field="email_off")
    choices, _ = NotificationChoices.objects.select_for_update().get_or_create(user=user)
    was_digest = choices.digest
    choices.email_off = sorted(set(email_off), key=EMAIL_KINDS.index)
    choices.digest = digest
    choices.save()
    if was_digest and not digest:
        bundle(user)
    return choices


def unsubscribe_token(user: User, kind: str) -> str:
    """A signed token for an e-mail's unsubscribe link: the user and the kind it stops."""
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object([user.pk, kind])


BAD_LINK = (
    "This unsubscribe link is not valid: it may have been cut short or changed. Sign in and "
    "choose which e-mails you get on your notifications page."
)


def unsubscribe_from(token: str) -> tuple[User, str]:
    """The user and the kind of a token; refused if it was not made here."""
    try:
        pk, kind = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except (signing.BadSignature, ValueError, TypeError):
        raise ServiceError(BAD_LINK, code="bad-token") from None
    user = User.objects.filter(pk=pk).first() if isinstance(pk, int) else None
    if user is None or kind not in (*EMAIL_KINDS, ALL):
        raise ServiceError(BAD_LINK, code="bad-token")
    return user, kind


@transaction.atomic
def unsubscribe(*, user: User, kind: str) -> NotificationChoices:
    """Turn off e-mails of one kind (or all of them) for the user."""
    choices, _ = NotificationChoices.objects.select_for_update().get_or_create(user=user)
    kinds = EMAIL_KINDS if kind == ALL else (kind,)
    choices.email_off = [k for k in EMAIL_KINDS if k in set(choices.email_off) | set(kinds)]
    choices.save(update_fields=["email_off"])
    return choices


# --- the campaign's Discord webhook -----------------------------------------------------------


def webhook_refusal(url: str) -> str:
    """Why a webhook URL is refused, if it is: in production an https address of Discord's
    own webhooks; with DEBUG on (or `NOTIFICATIONS_ANY_WEBHOOK` set, for the tests' local
    stand-in for Discord) any http or https address."""
    parts = urlsplit(url)
    if settings.DEBUG or getattr(settings, "NOTIFICATIONS_ANY_WEBHOOK", False):
        if parts.scheme in ("http", "https") and parts.hostname:
            return ""
        return "Give a web address (http or https)."
    if (
        parts.scheme != "https"
        or (parts.hostname or "") not in DISCORD_HOSTS
        or parts.port is not None
        or parts.username
        or not parts.path.startswith("/api/webhooks/")
    ):
        return (
            "Give the address of a Discord webhook, https://discord.com/api/webhooks/…: "
            "the channel's settings, Integrations, Webhooks, Copy Webhook URL."
        )
    return ""


@transaction.atomic
def webhook_set(*, campaign: Campaign, actor: User, url: str) -> DiscordWebhook:
    """Set (or replace) the campaign's Discord webhook; audited with its last characters."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    services.require_admin(campaign, actor)
    url = url.strip()
    refusal = webhook_refusal(url)
    if refusal:
        raise ServiceError(refusal, code="bad-webhook", field="url")
    webhook, _ = DiscordWebhook.objects.update_or_create(
        campaign=campaign, defaults={"url": url, "set_by": actor}
    )
    services.record_audit(
        campaign, actor, AuditEntry.Action.DISCORD_SET, details={"ending": webhook.ending}
    )
    return webhook


@transaction.atomic
def webhook_remove(*, campaign: Campaign, actor: User) -> None:
    """Remove the campaign's Discord webhook: its posts not yet sent are dropped."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    services.require_admin(campaign, actor)
    deleted, _ = DiscordWebhook.objects.filter(campaign=campaign).delete()
    if not deleted:
        raise ServiceError("The campaign has no Discord webhook.", code="no-webhook")
    services.record_audit(campaign, actor, AuditEntry.Action.DISCORD_REMOVED)


# --- what the dashboard shows -----------------------------------------------------------------


@dataclass(frozen=True)
class Outbox:
    """How a campaign's messages stand, and the newest that failed."""

    sent: int
    waiting: int
    given_up: int
    troubles: list[Notification]


TROUBLES_SHOWN = 5


def outbox_of(campaign: Campaign) -> Outbox:
    """Two queries, however many messages the campaign has sent."""
    rows = Notification.objects.filter(campaign=campaign)
    counts = rows.aggregate(
        sent=Count("pk", filter=Q(sent_at__isnull=False)),
        waiting=Count("pk", filter=Q(sent_at__isnull=True, given_up_at__isnull=True)),
        given_up=Count("pk", filter=Q(given_up_at__isnull=False)),
    )
    troubles = rows.filter(sent_at=None).exclude(last_error="").select_related("user")
    return Outbox(**counts, troubles=list(troubles.order_by("-pk")[:TROUBLES_SHOWN]))
