"""What happens, told: the receivers of what the campaign announces (`campaign.signals`:
a new snapshot, a campaign full, invitations) and the entry points the battles call (a
battle handed off to the tabletop, a result reported, a dispute), each writing its news to
the outbox in the caller's transaction; and the reminders the beat asks for. Never a call
sprinkled through the campaign's services: they announce, and this listens.

- a step opens for a kingdom, the month is over, the campaign has ended: `on_snapshot_stored`
  (`news.snapshot_news`), not for a snapshot imported from a file;
- every kingdom has joined: `on_campaign_full`;
- an admin invites people by e-mail: `on_invitations_made`;
- a reminder 24 and 2 hours before the deadline: `remind`, run by the beat;
- a battle handed off to the tabletop: `battle_handed_off`, from `battles.sync` as it makes
  the battle's row; a result reported, a dispute: `result_reported` and `result_disputed`,
  from `battles.services`."""

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign.asks import WORDS
from campaign.models import Campaign, Snapshot
from campaign.rules.decisions import ANSWERS
from campaign.services import advancing, common
from campaign.words import absolute, chapter_words, joined, kingdom_names, shown, when
from campaign.words import names_of as campaign_names
from notifications import outbox
from notifications.discord import discord_time
from notifications.models import DiscordWebhook, Notification, Reminder
from notifications.news import (
    Asked,
    Letter,
    News,
    invitation_letter,
    members_of,
    names_of,
    players_of,
    post_text,
    reminder_news,
    result_words,
    snapshot_news,
    subject_line,
    with_general,
)

logger = logging.getLogger(__name__)

type Json = dict[str, Any]

Kind = Notification.Kind

LEAD_TIMES = (2, 24)  # reminders, in hours before a deadline, nearest first


def on_snapshot_stored(*, campaign: Campaign, snapshot: Snapshot, imported: bool, **_: Any) -> None:
    """Write what a new snapshot tells. Not an imported one: what it tells happened on
    another site, and nobody is told it again. In a savepoint, and logged if it fails: a
    notification never blocks the campaign."""
    if imported:
        return
    try:
        with transaction.atomic():
            for news in snapshot_news(campaign, snapshot):
                outbox.write(campaign, news)
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
    subject = subject_line(campaign.name, "Every kingdom has joined: start the campaign")
    letters = [
        Letter(m.user, subject, body, dashboard)
        for m in campaign.memberships.filter(is_admin=True).select_related("user")
    ]
    post = post_text(campaign.name, "", f"Every kingdom has joined: {kingdoms}.", link=dashboard)
    last = players.last()
    key = f"full:{campaign.pk}:{last.pk if last else 0}"  # full again after a removal: told again
    news = News(key, Kind.STEP, letters, post, dashboard, "Every kingdom has joined")
    try:
        with transaction.atomic():
            outbox.write(campaign, news)
    except Exception:
        logger.exception("The news that %s is full could not be written.", campaign)


def on_refused(
    *, campaign: Campaign, snapshot: Snapshot, refused: list[Any], cause: str, **_: Any
) -> None:
    """Part of a kingdom's draft no longer stands: an admin's correction or undo (`cause`)
    made it illegal, and its player may change it before the deadline; or at the deadline
    or an advance the rules refused it, and it was set aside (at the deadline taking its
    default, at an advance asked again). A battle's result set aside is told to both of its
    players. Each is told what, and why, with the page where it is given."""
    rulers = {m.kingdom: m for m in campaign.memberships.exclude(kingdom="").select_related("user")}
    letters = []
    for each in refused:
        for kingdom in _told_of_refusal(snapshot.data, each):
            ruler = rulers.get(kingdom)
            if ruler is not None:
                letters.append(_refusal_letter(campaign, ruler, each, cause))
    if not letters:
        return
    key = f"refused:{campaign.pk}:{snapshot.number}"
    about = {
        "deadline": "Decisions set aside at the deadline",
        "advance": "Decisions set aside at the advance",
    }.get(cause, "Decisions no longer stand")
    news = News(
        key,
        Kind.STEP,
        letters,
        "",
        absolute(reverse("campaign:campaign", args=[campaign.slug])),
        about,
    )
    try:
        with transaction.atomic():
            outbox.write(campaign, news)
    except Exception:
        logger.exception("The news of decisions refused in %s could not be written.", campaign)


def _told_of_refusal(data: Json, refused: Any) -> list[str]:
    """The kingdoms told: the decision's own, or, for a battle's agreed or decided result,
    both sides of the battle at its tile."""
    if refused.kingdom or refused.hex is None:
        return [refused.kingdom]
    battle = next(
        (
            b
            for b in reversed(data.get("battles", []))
            if b["hex"] == refused.hex and b["status"] == "awaiting_result"
        ),
        None,
    )
    return [] if battle is None else [battle["attacker"], battle["defender"]]


def _refusal_letter(campaign: Campaign, ruler: Any, each: Any, cause: str) -> Letter:
    words = next((w for kind, w in WORDS.items() if ANSWERS.get(kind) == each.kind), None)
    if each.hex is not None and not each.kingdom:
        page = absolute(reverse("battles:list", args=[campaign.slug]))
        subject = "A battle's result was set aside: report it again"
        why = (
            "The campaign's admin undid a step, and the result given for your battle was "
            "taken back."
            if cause == "undo"
            else "The result given for your battle no longer stood when the campaign moved "
            f"on: {each.why}"
        )
        body = (
            f"{why}\n\nThe battle waits for its result again: report it on the battle's "
            "card, or ask the admin to record it."
        )
        return Letter(ruler.user, subject_line(campaign.name, subject), body, page)
    page = absolute(reverse(words.page if words else "campaign:campaign", args=[campaign.slug]))
    what = (
        f"the order for {each.unit_name or each.unit}"
        if each.unit
        else f"{ruler.kingdom_name}'s decision"
    )
    if cause in ("deadline", "advance"):
        step = f" to {words.ask}" if words else ""
        when_ = "At the deadline" if cause == "deadline" else "When the campaign moved on"
        then = (
            "took the deadline's default instead, so that the campaign could go on"
            if cause == "deadline"
            else "is asked of you again, so that the campaign could go on"
        )
        subject = f"A decision of yours was set aside at the {cause}"
        body = (
            f"{when_}{step}, {what} no longer stood: {each.why}\n\nIt was set aside and "
            f"{then}. The campaign page shows where it stands now."
        )
    else:
        subject = f"Since the admin's {cause}, a decision of yours no longer stands"
        body = (
            f"Since the admin's {cause}, {what} no longer stands: "
            f"{each.why}\n\nChange it before the deadline; left as it is, it takes the "
            "deadline's default."
        )
    return Letter(ruler.user, subject_line(campaign.name, subject), body, page)


def on_kingdom_offered(*, campaign: Campaign, offer: Any, **_: Any) -> None:
    """An admin offers a kingdom under way to a person: they are told who offers it and why,
    and that it is theirs only if they accept it, on their home page."""
    home = absolute(reverse("campaign:home"))
    ruler = campaign.memberships.filter(kingdom=offer.kingdom).first()
    name = (
        ruler.kingdom_name
        if ruler
        else kingdom_names(common.latest_snapshot(campaign).data).get(offer.kingdom, offer.kingdom)
    )
    admin = shown(offer.offered_by) if offer.offered_by else "Its admin"
    body = (
        f"{admin} offers you the kingdom of {name} in {campaign.name}, a campaign under way, "
        f"saying: {offer.reason}\n\nIt becomes yours only if you accept it: accept or decline "
        "it on your home page."
    )
    subject = subject_line(campaign.name, f"You are offered the kingdom of {name}")
    news = News(f"offer:{offer.pk}", Kind.STEP, [Letter(offer.to_user, subject, body, home)])
    try:
        with transaction.atomic():
            # Not the campaign's message: its desk, which counts the campaign's, would tell
            # its admins whether anyone has the username (issue 34).
            outbox.write(None, news)
    except Exception:
        logger.exception("The offer of a kingdom in %s could not be written.", campaign)


def on_letter_written(*, campaign: Campaign, letter: Any, **_: Any) -> bool:
    """A kingdom wrote a letter: each other kingdom it goes to (every one, through the
    herald) is told by e-mail who wrote and where to read it, never what it says (a letter
    may still be changed for a few minutes, and is read on the site). A herald's letter is
    posted to Discord, words and all, if the campaign asks for it: then True (the letter is
    no longer changed, as its post keeps the words it was written with)."""
    correspondence = letter.correspondence
    players = campaign.memberships.exclude(kingdom="").exclude(kingdom=letter.kingdom)
    if not correspondence.herald:
        players = players.filter(kingdom__in=correspondence.kingdoms)
    writer = campaign.memberships.filter(kingdom=letter.kingdom).first()
    name = writer.kingdom_name if writer else letter.kingdom
    link = absolute(reverse("campaign:correspondence", args=[campaign.slug, correspondence.pk]))
    said = "wrote through the herald, to every kingdom" if correspondence.herald else "wrote to you"
    subject = subject_line(campaign.name, f"{name} {said}")
    body = f"{name} {said} in {campaign.name}. Read the letter, and answer it, on its page."
    letters = [Letter(p.user, subject, body, link) for p in players.select_related("user")]
    news = News(f"letter:{letter.pk}", Kind.LETTER, letters)
    if (
        correspondence.herald
        and DiscordWebhook.objects.filter(campaign=campaign, herald=True).exists()
    ):
        post = post_text(campaign.name, "", f"{name}, through the herald:", letter.text, link=link)
        news = replace(news, post=post, link=link, summary=f"{name} wrote through the herald")
    try:
        with transaction.atomic():
            written = outbox.write(campaign, news)
    except Exception:
        logger.exception("The news of a letter in %s could not be written.", campaign)
        return False
    return bool(news.post) and written > 0


def on_invitations_made(
    *,
    campaign: Campaign,
    actor: User,
    addresses: Sequence[str],
    link: str,
    invitation: int,
    **_: Any,
) -> list[str]:
    """An admin invites people by e-mail: one e-mail to each address, with the join page's
    `link`, sent by the outbox like any other (retried if the mail server fails). Returns
    the addresses it will be sent to. Not in a savepoint: an invitation that cannot be
    written is not made at all (the admin's request fails), rather than said to be sent."""
    subject, body = invitation_letter(campaign, actor, link)
    return outbox.write_to_addresses(
        campaign,
        key=f"invitation:{campaign.pk}:{invitation}",
        kind=Kind.INVITATION,
        addresses=addresses,
        subject=subject,
        body=body,
        link=link,
    )


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
    names = campaign_names(snapshot.data, campaign.gazetteer)
    attacker, defender = str(entry["attacker"]), str(entry["defender"])
    entry_sides = (attacker, defender)
    members = members_of(campaign)
    players = with_general(campaign, members, players_of(members, names), entry_sides)
    card = absolute(link)
    where = names.at(entry["hex"])
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
            f"The {kind} battle {where} between {names.kingdom(attacker)} (who picked "
            f"it) and {names.kingdom(defender)} goes to the tabletop. Agree a time with "
            f"{opponent.named if opponent else names.kingdom(other)}, play it, and report "
            f"the result on its card{due}."
        )
        subject = f"Your battle against {names.kingdom(other)} goes to the tabletop"
        letters.append(Letter(player.user, subject_line(campaign.name, subject), body, card))
    sides = joined(
        [players[k].named if k in players else str(names.get(k, k)) for k in entry_sides]
    )
    lines = [
        f"A {kind} battle {where} goes to the tabletop: {sides}."
        + (f" Its result is due {discord_time(deadline)}." if deadline else "")
    ]
    news = News(
        f"battle:{campaign.pk}:{snapshot.number}:{number}",
        Kind.BATTLE,
        letters,
        post_text(campaign.name, chapter_words(snapshot.data["clock"]), *lines, link=card),
        card,
        f"Battle {where}: {sides}",
    )
    return outbox.write(campaign, news)


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
    names = names_of(campaign)
    members = members_of(campaign)
    players = with_general(campaign, members, players_of(members, names), (kingdom, opponent))
    card = absolute(link)
    said = result_words(result, winner, names)
    where = names.at(hex)
    who = f"{shown(reporter)} ({names.get(kingdom, kingdom)})"
    letters = []
    if opponent in players:
        body = (
            f"{who} reports the result of your battle {where}: {said}.\n\n"
            "Confirm it, or dispute it and say why, on the battle's card: the campaign moves "
            "on once you confirm."
        )
        subject = f"Confirm the result of your battle against {names.get(kingdom, kingdom)}"
        letters.append(
            Letter(players[opponent].user, subject_line(campaign.name, subject), body, card)
        )
    other = players[opponent].named if opponent in players else names.get(opponent, opponent)
    post = post_text(
        campaign.name,
        "",
        f"{who} reports the battle {where}: {said}. Waiting for {other} to confirm.",
        link=card,
    )
    news = News(f"report:{report_id}", Kind.REPORT, letters, post, card, f"Report {where}")
    return outbox.write(campaign, news)


def result_rerecorded(
    *,
    campaign: Campaign,
    admin: User,
    audit_id: int,
    kingdoms: Sequence[str],
    hex: list[int],
    result: str,
    winner: str,
    reason: str,
    link: str,
) -> int:
    """The admin recorded again the result of a battle whose result was in: both of its
    players are told what stands now, and why."""
    names = names_of(campaign)
    players = players_of(campaign.memberships.select_related("user"), names)
    card = absolute(link)
    said = result_words(result, winner, names)
    body = (
        f"{shown(admin)}, the campaign's admin, recorded the result of your battle "
        f"{names.at(hex)} again: {said}. Their reason: “{reason}”\n\nThis result "
        "stands in place of the one given before, and takes effect when the campaign moves on."
    )
    subject = subject_line(campaign.name, "The result of your battle was recorded again")
    letters = [Letter(players[k].user, subject, body, card) for k in kingdoms if k in players]
    news = News(
        f"rerecorded:{audit_id}",
        Kind.REPORT,
        letters,
        "",
        card,
        "",
    )
    return outbox.write(campaign, news)


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
    names = names_of(campaign)
    where = names.at(hex)
    said = result_words(result, winner, names)
    who = shown(disputer)
    reporting = f"{shown(reporter) if reporter else 'a player'} ({names.get(kingdom, kingdom)})"
    body = (
        f"{who} disputes the report of the battle {where} by {reporting}: {said}.\n"
        f"Their reason: “{reason}”\n\nThe campaign's admins decide the result."
    )
    letters = []
    if reporter is not None:
        subject = f"{who} disputes your report of the battle {where}"
        letters.append(Letter(reporter, subject_line(campaign.name, subject), body, absolute(link)))
    admins = campaign.memberships.filter(is_admin=True).select_related("user")
    for admin in admins:
        if reporter is None or admin.user.pk != reporter.pk:
            subject = f"A result to decide: {who} disputes the battle {where}"
            letters.append(
                Letter(admin.user, subject_line(campaign.name, subject), body, absolute(desk))
            )
    post = post_text(
        campaign.name,
        "",
        f"{who} disputes the report of the battle {where} by {reporting}: the admins decide.",
        link=absolute(link),
    )
    news = News(
        f"dispute:{report_id}", Kind.DISPUTE, letters, post, absolute(link), f"Dispute {where}"
    )
    return outbox.write(campaign, news)


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
    snapshot = common.latest_snapshot(campaign)
    data = snapshot.data
    if advancing.step_hours(campaign, data) <= hours:
        return 0  # a step (a kingdom's turn) no longer than the lead time: told when it opened
    late = common.owing(data) - common.ready_kingdoms(campaign)
    if not late:
        return 0
    names = kingdom_names(data)
    players = players_of(members_of(campaign), names)
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
        outbox.write(
            campaign,
            reminder_news(
                campaign=campaign, key=f"reminder:{campaign.pk}:{snapshot.number}:{hours}",
                clock=data["clock"], hours=hours, deadline=campaign.deadline, owed=owed,
            ),
        )  # fmt: skip
    return made_now
