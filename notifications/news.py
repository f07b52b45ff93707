"""What each event tells, and to whom: a step opens for a kingdom (or it is its turn), a
deadline nears, a month is over, the campaign has ended, an invitation. Each is `News`: a
key unique to the event, its kind, its e-mails (`Letter`) and its Discord post. Built from
facts gathered here (`snapshot_news` compares a new snapshot with the one before it); the
outbox writes them (`outbox.write`)."""

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign.asks import WORDS, in_order_of_play
from campaign.display.optional import kingdom_warnings, warns
from campaign.gazetteer import HORDE_NAME, Names
from campaign.models import Campaign, Membership, Snapshot
from campaign.rules.optional.marauders import general_for
from campaign.rules.options import orders_in_cycle
from campaign.rules.state import HORDE, OrdersMode, PendingKind, Season
from campaign.services import advancing, common
from campaign.words import absolute, capitalised, chapter_words, joined, kingdom_names, shown, when
from campaign.words import names_of as campaign_names
from notifications.discord import DISCORD_LENGTH, discord_time
from notifications.models import Notification, Reminder

type Json = dict[str, Any]

Kind = Notification.Kind


# --- the news: what each event says, to whom (pure, once the facts are gathered) --------------


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


# What a mail program makes a link of: an address with a scheme, "www." or a domain name.
ADDRESS = re.compile(r"\S*(?:://|www\.)\S*|\S+\.[a-z]{2,}(?:[/:?#]\S*)?\b", re.IGNORECASE)


def without_addresses(name: str) -> str:
    """A name as a subject carries it: nothing in it a mail program makes a link of."""
    return " ".join(ADDRESS.sub("", name).split()) or "a campaign"


def subject_line(campaign_name: str, text: str) -> str:
    return f"[{without_addresses(campaign_name)}] {text}"[:200]


# What Discord's Markdown reads as formatting, a masked link or a mention, escaped with a
# backslash in every text of a post (names come from players, so a name shows as typed);
# "://" loses its slashes' meaning, so no name becomes a link. The post's own timestamps
# (<t:SECONDS:STYLE>, each reader's local time) are kept.
MARKDOWN = re.compile(r"([\\*_~`|\[\]<>])")
TIMESTAMP = re.compile(r"(<t:\d+:[tTdDfFR]>)")


def as_text(words: str) -> str:
    """Words shown in Discord as they are, never as formatting or a link."""
    parts = TIMESTAMP.split(words)
    return "".join(
        part if i % 2 else MARKDOWN.sub(r"\\\1", part).replace("://", ":\\/\\/")
        for i, part in enumerate(parts)
    )


def post_text(campaign_name: str, chapter: str, *lines: str, link: str) -> str:
    name = as_text(campaign_name)
    head = f"**{name}** · {as_text(chapter)}" if chapter else f"**{name}**"
    return "\n".join([head, *map(as_text, lines), f"<{link}>"])[:DISCORD_LENGTH]


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
            Letter(
                ask.player.user, subject_line(campaign.name, subject), body, ask.page(campaign.slug)
            )
        )
    pages = {ask.page(campaign.slug) for ask in asked}
    link = pages.pop() if len(pages) == 1 else absolute(campaign_path(campaign))
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
        key, Kind.STEP, letters, post_text(campaign.name, chapter, *lines, link=link), link, summary
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
        subject = subject_line(campaign.name, f"{left} left to {ask.words}")
        letters.append(Letter(ask.player.user, subject, body, ask.page(campaign.slug), reminder))
    link = absolute(campaign_path(campaign))
    lines = [
        f"{left} left, until {discord_time(deadline)}. Still waiting for: "
        + "; ".join(f"{ask.player.named}, to {ask.words}" for ask, _ in owed)
        + "."
    ]
    summary = f"{left} left: " + ", ".join(ask.player.named for ask, _ in owed)
    return News(
        key,
        Kind.REMINDER,
        letters,
        post_text(campaign.name, chapter, *lines, link=link),
        link,
        summary,
    )


def month_news(
    *, campaign: Campaign, key: str, before: Json, now: Json, everyone: list[User], report: str
) -> News:
    """A month (or the setup, or a winter) is over: everyone may read its report."""
    over, begins = chapter_words(before), chapter_words(now)
    subject = subject_line(campaign.name, f"{capitalised(over)} is over: read its report")
    body = (
        f"{campaign.name} has moved on from {over} to {begins}.\n\n"
        f"What happened in {over}, every event and every die: its report."
    )
    letters = [Letter(user, subject, body, report) for user in everyone]
    post = post_text(
        campaign.name, begins, f"{capitalised(over)} is over. Its report:", link=report
    )
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
    subject = subject_line(campaign.name, "The campaign has ended")
    body = (
        f"{campaign.name} is over, after year {year}. {winners}\n\n"
        "The podium, the final standings and each kingdom's best moments: on its last page."
    ).replace(". \n", ".\n")
    letters = [Letter(user, subject, body, end) for user in everyone]
    post = post_text(campaign.name, "", f"The campaign has ended. {winners}".strip(), link=end)
    return News(key, Kind.ENDED, letters, post, end, "The campaign has ended")


def result_words(result: str, winner: str, names: Mapping[str, str]) -> str:
    return f"{names.get(winner, winner)} won" if result == "win" else "a draw"


def _chapter(clock: Json | None) -> tuple[Any, ...]:
    clock = clock or {}
    return clock.get("year"), clock.get("season"), clock.get("month")


def invitation_letter(campaign: Campaign, admin: User, link: str) -> tuple[str, str]:
    """The subject and text of an invitation by e-mail, with the join page's `link`."""
    players = campaign.memberships.exclude(kingdom="").count()
    mode = {OrdersMode.SEALED: "sealed orders", OrdersMode.CYCLE: "orders given in turn"}
    name = without_addresses(campaign.name)
    subject = f"{admin.get_username()} invites you to {name}, a Mighty Kingdoms campaign"
    body = (
        f"{admin.get_username()} invites you to rule a kingdom in {campaign.name}, a Mighty "
        f"Kingdoms campaign for Kings of War: {campaign.kingdoms} kingdoms "
        f"({players} joined so far), {campaign.options.get('years', 6)} years, "
        f"{mode.get(campaign.options.get('orders', ''), 'sealed orders')}.\n\n"
        f"Join here (sign in or make an account first):\n{link}\n"
    )
    return subject, body


# --- facts from the database ------------------------------------------------------------------


def campaign_path(campaign: Campaign) -> str:
    return reverse("campaign:campaign", args=[campaign.slug])


def members_of(campaign: Campaign) -> list[Membership]:
    return list(campaign.memberships.select_related("user"))


def players_of(members: Iterable[Membership], names: Mapping[str, str]) -> dict[str, Player]:
    return {
        m.kingdom: Player(m.kingdom, m.kingdom_name or names.get(m.kingdom, m.kingdom), m.user)
        for m in members
        if m.kingdom
    }


def with_general(
    campaign: Campaign,
    members: Iterable[Membership],
    players: dict[str, Player],
    sides: Sequence[str],
) -> dict[str, Player]:
    """The players of a battle's sides, the horde's its general (option marauders, OW5: a
    kingdom's player, or the first admin where that is the admin)."""
    if HORDE not in sides:
        return players
    general = general_for(campaign.options.get("marauder_general"), sides)
    if general in players:
        return {**players, HORDE: replace(players[general], kingdom=HORDE, name=HORDE_NAME)}
    admin = next((m for m in members if m.is_admin), None)
    if admin is None:
        return players
    return {**players, HORDE: Player(HORDE, HORDE_NAME, admin.user)}


def warnings_news(
    campaign: Campaign, key: str, data: Json, players: dict[str, Player]
) -> News | None:
    """What the options warn each kingdom of as a snapshot stands (a marauder band arrived
    near its settlements, its ruler dead), once a chapter: e-mailed to each kingdom's
    player, posted to Discord."""
    if not warns(data["options"]):
        return None
    names = campaign_names(data, campaign.gazetteer)
    warned = {k: told for k, told in kingdom_warnings(data, names).items() if k in players}
    if not warned:
        return None
    page = absolute(campaign_path(campaign))
    chapter = chapter_words(data["clock"])
    letters = [
        Letter(
            players[kingdom].user,
            subject_line(campaign.name, _subjects(told)),
            f"{campaign.name}, {chapter}.\n\n" + "\n".join(line for _, line in told),
            page,
        )
        for kingdom, told in warned.items()
    ]
    # Public, so each line is addressed to the kingdom it warns.
    said = [f"{names.kingdom(k)}: {line}" for k, told in sorted(warned.items()) for _, line in told]
    post = post_text(campaign.name, chapter, *said, link=page)
    everything = [pair for told in warned.values() for pair in told]
    return News(
        key,
        Kind.STEP,
        letters,
        post,
        page,
        f"{capitalised(chapter)}: {_subjects(everything).lower()}",
    )


def _subjects(told: list[tuple[str, str]]) -> str:
    return "; ".join(dict.fromkeys(subject for subject, _ in told))


def names_of(campaign: Campaign) -> Names:
    """The names the campaign's messages say: its kingdoms' as their players named them,
    and its places' and units' (`campaign.words.names_of`) as its newest file reads."""
    members = campaign.memberships.exclude(kingdom="").values_list("kingdom", "kingdom_name")
    kingdoms = {kingdom: name or kingdom for kingdom, name in members}
    data = common.latest_snapshot(campaign).data
    return Names.of(data, campaign.gazetteer, kingdom_names(data) | kingdoms)


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
        if entry["kind"] != PendingKind.BATTLE_RESULT and pair not in asked_before:
            kinds = opened.setdefault(entry["kingdom"], [])
            if entry["kind"] not in kinds:
                kinds.append(entry["kind"])
    return opened


def _your_turn(data: Json, kingdom: str, kinds: list[str]) -> bool:
    """Orders in the cycle (ruling O1), or a decision asked of this kingdom alone while the
    others wait their turn (a capital, the tithes, the next battle's choice)."""
    if PendingKind.ORDERS in kinds and orders_in_cycle(data.get("options", {})):
        return True
    if len(data.get("kingdoms", [])) < 2:
        return False
    pending = data.get("pending", [])
    return all({p["kingdom"] for p in pending if p["kind"] == kind} == {kingdom} for kind in kinds)


def _coming_deadline(campaign: Campaign, snapshot: Snapshot) -> datetime | None:
    """The deadline the step opened by this snapshot gets: the one `advancing.open_deadline`
    sets right after storing it (a correction keeps the deadline there is)."""
    if campaign.status == Campaign.Status.PAUSED:
        return None
    if snapshot.reason == Snapshot.Reason.CORRECTION:
        return campaign.deadline
    hours = advancing.step_hours(campaign, snapshot.data)
    return advancing.on_a_deadline_day(campaign, timezone.now() + timedelta(hours=hours))


def snapshot_news(campaign: Campaign, snapshot: Snapshot) -> list[News]:
    """What a new snapshot tells, compared with the one before it."""
    before = (
        campaign.snapshots.filter(number__lt=snapshot.number)
        .order_by("-number")
        .values_list("clock", "state__pending")
        .first()
    )
    before_clock, before_pending = before or (None, [])
    data = snapshot.data
    clock = data["clock"]
    names = kingdom_names(data)
    members = members_of(campaign)
    everyone = list({m.user.pk: m.user for m in members}.values())
    players = players_of(members, names)
    number = f"{campaign.pk}:{snapshot.number}"
    news = []
    if clock["season"] == Season.ENDED:
        if (before_clock or {}).get("season") != Season.ENDED:
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
    warned = warnings_news(
        campaign,
        f"warned:{campaign.pk}:{clock['year']}:{clock['season']}:{clock['month']}",
        data,
        players,
    )
    if warned is not None:
        news.append(warned)
    if asked:
        news.append(
            step_news(
                campaign=campaign, key=f"step:{number}", clock=clock, asked=asked,
                deadline=_coming_deadline(campaign, snapshot),
            )
        )  # fmt: skip
    return news
