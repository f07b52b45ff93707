"""The daily digest: a user who takes one gets, once a day from `DIGEST_HOUR` in their time
zone, one e-mail of every message held for it since the last. Saving a user's choices is
here too, since turning the digest off sends at once what it held."""

from collections.abc import Iterable, Sequence
from datetime import datetime

from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from campaign.models import Campaign
from campaign.words import absolute, zone
from notifications.choices import EMAIL_KINDS, check_kinds, choices_of
from notifications.models import Notification, NotificationChoices
from notifications.outbox import queue

Kind = Notification.Kind
Channel = Notification.Channel

DIGEST_HOUR = 7  # the digest goes at 07:00 in each user's time zone, or soon after


def send_digests(now: datetime | None = None) -> int:
    """Run by the beat: each user who takes a digest gets, once a day from `DIGEST_HOUR` in
    their time zone, one e-mail of everything held for it since the last (none if nothing
    was). Returns how many digests were written."""
    now = now or timezone.now()
    written = 0
    for choices in NotificationChoices.objects.filter(digest=True).select_related("user"):
        today = now.astimezone(zone(choices.user.time_zone))
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


@transaction.atomic
def choices_save(*, user: User, email_off: Iterable[str], digest: bool) -> NotificationChoices:
    """Save which kinds the user does not want by e-mail, and whether they come as a daily
    digest. Turning the digest off sends what it held at once, in one e-mail."""
    email_off = set(email_off)
    check_kinds(email_off)
    choices, _ = NotificationChoices.objects.select_for_update().get_or_create(user=user)
    was_digest = choices.digest
    choices.email_off = sorted(email_off, key=EMAIL_KINDS.index)
    choices.digest = digest
    choices.save()
    if was_digest and not digest:
        bundle(user)
    return choices
