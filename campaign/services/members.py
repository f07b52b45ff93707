"""The campaign's people: joining by code, invitations, players removed or handed over,
admins made and stepping down."""

import re
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Sum
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.text import slugify

from accounts.models import User
from campaign.models import (
    KINGDOM_NAME_LENGTH,
    RESERVED_KINGDOM_IDS,
    AuditEntry,
    Campaign,
    InvitationsSent,
    KingdomOffer,
    Membership,
    new_join_code,
)
from campaign.services.common import (
    ServiceError,
    latest_snapshot,
    locked_for_admin,
    plain,
    record_audit,
)
from campaign.signals import campaign_full, invitations_made, kingdom_offered
from campaign.words import kingdom_names


def campaign_for_code(code: str) -> Campaign:
    """The campaign a join code (from the invitation link) belongs to."""
    campaign = Campaign.objects.filter(join_code=code.strip()).first()
    if campaign is None:
        raise ServiceError("No campaign has that join code.", code="unknown-code", field="code")
    return campaign


def join_refusal(campaign: Campaign, user: User) -> ServiceError | None:
    """Why `user` may not take a kingdom in the campaign now, whatever its name: None if
    they may. The join page asks before it offers its form; `campaign_join` asks again."""
    players = campaign.memberships.exclude(kingdom="")
    if players.filter(user=user).exists():
        return ServiceError("You already rule a kingdom in this campaign.", code="already-joined")
    if campaign.status != Campaign.Status.OPEN:
        return ServiceError(
            "This campaign has already started: its admin may hand you a kingdom whose "
            "player leaves.",
            code="not-open",
        )
    if user.pk in campaign.barred:
        return ServiceError(
            "You were removed from this campaign: this invitation no longer lets you in. "
            "Ask its admin for a new one.",
            code="removed",
        )
    if players.count() >= campaign.kingdoms:
        return ServiceError("Every kingdom of this campaign is taken.", code="full")
    return None


COLOUR = re.compile(r"#[0-9a-f]{6}")


HERALDRY_SIGNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _free_heraldry(name: str, taken: set[str]) -> str:
    """The first letter of the name not taken by another kingdom, else another letter."""
    candidates = [c for c in name.upper() if c.isalnum()] + list(HERALDRY_SIGNS)
    return next(c for c in candidates if c not in taken)


@transaction.atomic
def campaign_join(
    *, campaign: Campaign, user: User, kingdom_name: str, colour: str = "", heraldry: str = ""
) -> Membership:
    """Take a kingdom in a campaign that is open for players. Its name, colour (#rrggbb)
    and heraldry (a letter or sign) must differ from every other kingdom's; without a
    heraldry it gets the first letter of its name not taken, and without a colour the map
    gives it one."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    refusal = join_refusal(campaign, user)
    if refusal is not None:
        raise refusal
    players = campaign.memberships.exclude(kingdom="")
    colour = colour.strip().lower()
    heraldry = heraldry.strip().upper()
    taken = set(players.values_list("heraldry", flat=True))
    refusals = _kingdom_refusals(players, kingdom_name, colour, heraldry, taken)
    if refusals:
        raise ServiceError(
            refusals[0].message, code=refusals[0].code, field=refusals[0].field, also=refusals[1:]
        )
    name = _kingdom_name(kingdom_name)
    base = slugify(name)[:12].strip("-") or "kingdom"
    kingdom, n = base, 1
    while kingdom in RESERVED_KINGDOM_IDS or players.filter(kingdom=kingdom).exists():
        n += 1
        kingdom = f"{base}{n}"
    membership, _ = Membership.objects.update_or_create(
        campaign=campaign,
        user=user,
        defaults={
            "kingdom": kingdom,
            "kingdom_name": name,
            "colour": colour,
            "heraldry": heraldry or _free_heraldry(name, taken),
        },
    )
    if campaign.memberships.exclude(kingdom="").count() == campaign.kingdoms:
        campaign_full.send(sender=Campaign, campaign=campaign)
    return membership


def _kingdom_name(name: str) -> str:
    return plain(
        name, max_length=KINGDOM_NAME_LENGTH, what="Your kingdom's name", field="kingdom_name"
    )


def _kingdom_refusals(
    players: Any, name: str, colour: str, heraldry: str, taken: set[str]
) -> list[ServiceError]:
    """What is wrong with a new kingdom's name, colour (#rrggbb) and heraldry, all at once."""
    refusals = []
    try:
        name = _kingdom_name(name)
    except ServiceError as not_plain:
        refusals.append(not_plain)
    else:
        if players.filter(kingdom_name__iexact=name).exists():
            refusals.append(ServiceError(
                f"Another kingdom is called {name} already: choose another name.",
                code="name-taken", field="kingdom_name",
            ))  # fmt: skip
    if colour and not COLOUR.fullmatch(colour):
        refusals.append(
            ServiceError("Give the colour as #rrggbb.", code="bad-colour", field="colour")
        )
    elif colour and players.filter(colour__iexact=colour).exists():
        refusals.append(ServiceError(
            "Another kingdom has that colour already: choose another.",
            code="colour-taken", field="colour",
        ))  # fmt: skip
    if heraldry and (len(heraldry) > 2 or not heraldry.isalnum()):
        refusals.append(ServiceError(
            "Heraldry is one letter or sign.", code="bad-heraldry", field="heraldry"
        ))  # fmt: skip
    elif heraldry and heraldry in taken:
        refusals.append(ServiceError(
            f"Another kingdom bears {heraldry} already: choose another letter.",
            code="heraldry-taken", field="heraldry",
        ))  # fmt: skip
    return refusals


@transaction.atomic
def campaign_invite_by_email(
    *, campaign: Campaign, actor: User, emails: Iterable[str], link: str
) -> list[str]:
    """Invite each address to the campaign with its join page's `link`: announced
    (`signals.invitations_made`) for the outbox to send, one e-mail each (nobody sees the
    others' addresses), after this transaction commits; nothing is sent while the request
    waits. Recorded in the audit log. Returns the addresses the listeners took on to send.
    Nothing is sent for a campaign that has started."""
    campaign = locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError("This campaign has already started.", code="not-open")
    addresses = list(dict.fromkeys(e.strip().lower() for e in emails if e.strip()))
    if not addresses:
        raise ServiceError("Give at least one e-mail address.", code="no-emails", field="emails")
    for address in addresses:
        try:
            validate_email(address)
        except ValidationError:
            raise ServiceError(
                f"{address} is not an e-mail address.", code="bad-email", field="emails"
            ) from None
    _count_invitations(campaign, actor, len(addresses), field="emails")
    entry = record_audit(campaign, actor, AuditEntry.Action.INVITED, details={"to": addresses})
    answers = invitations_made.send(
        sender=Campaign, campaign=campaign, actor=actor, addresses=addresses, link=link,
        invitation=entry.pk,
    )  # fmt: skip
    taken = {address for _, said in answers for address in said or ()}
    return [address for address in addresses if address in taken]


def _count_invitations(campaign: Campaign, actor: User, asked: int, *, field: str) -> None:
    """Count `asked` more e-mails to people the admin names (invitations, offers), or refuse
    them, nothing sent, past a day's: INVITATIONS_PER_CAMPAIGN for the campaign,
    INVITATIONS_PER_ACCOUNT for the admin across their campaigns (fewer,
    INVITATIONS_PER_NEW_ACCOUNT, for an account younger than a day). Counted over the last
    24 hours in rows a campaign's deletion does not take with it (`InvitationsSent`)."""
    since = timezone.now() - timedelta(days=1)
    sent = InvitationsSent.objects.filter(created_at__gte=since)
    per_account = (
        settings.INVITATIONS_PER_NEW_ACCOUNT
        if actor.date_joined > since
        else settings.INVITATIONS_PER_ACCOUNT
    )
    for counted, cap, whose in (
        (sent.filter(campaign=campaign), settings.INVITATIONS_PER_CAMPAIGN, "this campaign"),
        (sent.filter(actor=actor), per_account, "your account"),
    ):
        count = counted.aggregate(n=Coalesce(Sum("count"), 0))["n"]
        if count + asked > cap:
            left = max(cap - count, 0)
            raise ServiceError(
                f"At most {cap} invitations and offers a day go out for {whose}, and {left} "
                "are left today: nothing was sent. Share the invitation link instead, or wait "
                "a day.",
                code="too-many-invitations", field=field,
            )  # fmt: skip
    InvitationsSent.objects.create(actor=actor, campaign=campaign, count=asked)


@transaction.atomic
def campaign_new_code(*, campaign: Campaign, actor: User) -> Campaign:
    """A new join code: the old invitation link stops working, and players removed before
    the start may join again with the new one."""
    campaign = locked_for_admin(campaign, actor)
    code = new_join_code()
    while Campaign.objects.filter(join_code=code).exists():
        code = new_join_code()
    campaign.join_code, campaign.barred = code, []
    campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.NEW_CODE)
    return campaign


@transaction.atomic
def campaign_remove_player(
    *, campaign: Campaign, actor: User, username: str, reason: str = ""
) -> None:
    """Before the start, a player leaves the campaign and their kingdom is free again. A
    removed player who is not an admin may not join again until the admin makes a new join
    code; an admin who played stays an admin."""
    campaign = locked_for_admin(campaign, actor)
    if campaign.status != Campaign.Status.OPEN:
        raise ServiceError(
            "Players are removed only before the start; now, hand their kingdom to someone else.",
            code="not-open",
        )
    membership = (
        campaign.memberships.exclude(kingdom="")
        .filter(user__username=username)
        .select_related("user")
        .first()
    )
    if membership is None:
        raise ServiceError(
            f"{username} rules no kingdom in this campaign.", code="not-a-player", field="player"
        )
    details = {"player": username, "kingdom": membership.kingdom_name}
    if membership.is_admin:
        _clear_kingdom(membership)
    else:
        membership.delete()
        campaign.barred = [*campaign.barred, membership.user.pk]
        campaign.save()
    record_audit(campaign, actor, AuditEntry.Action.PLAYER_REMOVED, reason, details)


def _clear_kingdom(membership: Membership) -> None:
    membership.kingdom = membership.kingdom_name = membership.colour = membership.heraldry = ""
    membership.save()


@transaction.atomic
def campaign_make_admin(*, campaign: Campaign, actor: User, username: str) -> Membership:
    """Another member runs the campaign too."""
    campaign = locked_for_admin(campaign, actor)
    membership = campaign.memberships.filter(user__username=username).first()
    if membership is None:
        raise ServiceError(
            f"{username} is not in this campaign.", code="not-a-member", field="member"
        )
    if membership.is_admin:
        raise ServiceError(f"{username} is an admin already.", code="already-admin", field="member")
    membership.is_admin = True
    membership.save()
    record_audit(campaign, actor, AuditEntry.Action.ADMIN_ADDED, details={"admin": username})
    return membership


@transaction.atomic
def campaign_step_down(*, campaign: Campaign, actor: User) -> None:
    """The actor stops running the campaign, which another admin goes on running. They stay
    in it: still ruling their kingdom if they have one, else following it."""
    campaign = locked_for_admin(campaign, actor)
    admins = campaign.memberships.filter(is_admin=True)
    if not admins.exclude(user=actor).exists():
        raise ServiceError(
            "You are its only admin: make another member an admin first.", code="last-admin"
        )
    admins.filter(user=actor).update(is_admin=False)
    record_audit(campaign, actor, AuditEntry.Action.STEPPED_DOWN)


@transaction.atomic
def campaign_hand_over(
    *, campaign: Campaign, actor: User, kingdom: str, username: str, reason: str
) -> KingdomOffer:
    """After the start, an admin offers a kingdom to `username` (a member without a
    kingdom, or any user): it changes hands when they accept (`offer_accept`), at once
    when the admin offers it to themself. An earlier open offer of the kingdom is
    withdrawn. Whether anyone has the username is never told: an offer to nobody waits
    like any other, and nobody can accept it; each counts under the day's caps of
    invitations, and its e-mail is the recipient's, never counted on the campaign's
    notifications desk."""
    campaign = locked_for_admin(campaign, actor)
    _check_under_way(campaign)
    if not reason.strip():
        raise ServiceError("Say why the kingdom changes hands.", code="no-reason", field="reason")
    ruled = campaign.memberships.filter(kingdom=kingdom).exists()
    if not ruled and kingdom not in kingdom_names(latest_snapshot(campaign).data):
        raise ServiceError(
            f"There is no kingdom {kingdom}.", code="unknown-kingdom", field="kingdom"
        )
    username = username.strip()
    _check_may_rule(campaign, kingdom, username)
    if username != actor.get_username():  # an e-mail, if anyone has the username
        _count_invitations(campaign, actor, 1, field="username")
    campaign.offers.filter(kingdom=kingdom, status=KingdomOffer.Status.OPEN).update(
        status=KingdomOffer.Status.WITHDRAWN, answered_at=timezone.now()
    )
    offer = KingdomOffer.objects.create(
        campaign=campaign, kingdom=kingdom, username=username, offered_by=actor, reason=reason,
        to_user=User.objects.filter(username=username, is_active=True).first(),
    )  # fmt: skip
    details = {"kingdom": name_of_kingdom(campaign, kingdom), "to": username}
    record_audit(campaign, actor, AuditEntry.Action.OFFERED, reason, details)
    if offer.to_user == actor:  # they ask for it: accepted as it is asked
        _change_hands(campaign, offer)
    elif offer.to_user is not None:
        kingdom_offered.send(sender=KingdomOffer, campaign=campaign, offer=offer)
    return offer


def _check_under_way(campaign: Campaign) -> None:
    if campaign.status not in (Campaign.Status.RUNNING, Campaign.Status.PAUSED):
        raise ServiceError(
            "Kingdoms are handed over in a campaign under way; before the start, remove the "
            "player and let someone else join.",
            code="not-running",
        )


def _check_may_rule(campaign: Campaign, kingdom: str, username: str) -> None:
    """Refused if `username` rules this kingdom, or another, in the campaign: its admins
    see who plays, so this tells them nothing new."""
    member = campaign.memberships.filter(user__username=username).exclude(kingdom="").first()
    if member is None:
        return
    if member.kingdom == kingdom:
        raise ServiceError(
            f"{username} rules that kingdom already.", code="same-player", field="username"
        )
    raise ServiceError(
        f"{username} rules {member.kingdom_name} in this campaign already.",
        code="already-plays", field="username",
    )  # fmt: skip


def name_of_kingdom(campaign: Campaign, kingdom: str) -> str:
    """The kingdom's name: its player's, else the campaign file's."""
    ruler = campaign.memberships.filter(kingdom=kingdom).first()
    if ruler is not None:
        return ruler.kingdom_name
    return kingdom_names(latest_snapshot(campaign).data).get(kingdom, kingdom)


def offers_to(user: User) -> list[tuple[KingdomOffer, str]]:
    """The open offers made to `user` in campaigns under way, each with its kingdom's name."""
    offers = KingdomOffer.objects.filter(
        to_user=user,
        status=KingdomOffer.Status.OPEN,
        campaign__status__in=(Campaign.Status.RUNNING, Campaign.Status.PAUSED),
    ).select_related("campaign", "offered_by")
    return [(offer, name_of_kingdom(offer.campaign, offer.kingdom)) for offer in offers]


def _open_offer(offer_id: int, user: User) -> tuple[Campaign, KingdomOffer]:
    """The open offer `offer_id` made to `user`, read under its campaign's lock (taken
    first, as an admin's new offer takes it), and the campaign; refused as unknown for
    anyone else."""
    mine = KingdomOffer.objects.filter(pk=offer_id, to_user=user, to_user__is_active=True)
    campaign_id = mine.values_list("campaign_id", flat=True).first()
    if campaign_id is None:
        raise ServiceError("There is no such offer.", code="not-yours")
    campaign = Campaign.objects.select_for_update().get(pk=campaign_id)
    offer = mine.get()
    if offer.status != KingdomOffer.Status.OPEN:
        raise ServiceError(f"This offer is {offer.get_status_display()} already.", code="answered")
    return campaign, offer


@transaction.atomic
def offer_accept(*, offer_id: int, user: User) -> Membership:
    """`user` accepts the kingdom offered to them: they rule it from now on, with its drafts
    and battles; its old player no longer does (and leaves the campaign, unless an admin)."""
    campaign, offer = _open_offer(offer_id, user)
    _check_under_way(campaign)
    _check_may_rule(campaign, offer.kingdom, user.get_username())
    return _change_hands(campaign, offer)


@transaction.atomic
def offer_decline(*, offer_id: int, user: User) -> KingdomOffer:
    """`user` declines the kingdom offered to them; its admins see so in the log."""
    campaign, offer = _open_offer(offer_id, user)
    offer.status, offer.answered_at = KingdomOffer.Status.DECLINED, timezone.now()
    offer.save()
    details = {"kingdom": name_of_kingdom(campaign, offer.kingdom)}
    record_audit(campaign, user, AuditEntry.Action.OFFER_DECLINED, details=details)
    return offer


def _change_hands(campaign: Campaign, offer: KingdomOffer) -> Membership:
    """The accepted `offer`'s kingdom changes hands."""
    user, kingdom = offer.to_user, offer.kingdom
    assert user is not None
    old = campaign.memberships.filter(kingdom=kingdom).select_related("user").first()
    if old is not None:
        look = {"kingdom_name": old.kingdom_name, "colour": old.colour, "heraldry": old.heraldry}
    else:  # its player's account is gone: its name from the campaign file, a free letter
        signs = set(campaign.memberships.values_list("heraldry", flat=True))
        name = name_of_kingdom(campaign, kingdom)
        look = {"kingdom_name": name, "colour": "", "heraldry": _free_heraldry(name, signs)}
    if old is not None and old.is_admin:
        _clear_kingdom(old)
    elif old is not None:
        old.delete()
    new = campaign.memberships.filter(user=user).first() or Membership(campaign=campaign, user=user)
    new.kingdom = kingdom
    for field, value in look.items():
        setattr(new, field, value)
    new.save()
    offer.status, offer.answered_at = KingdomOffer.Status.ACCEPTED, timezone.now()
    offer.save()
    details = {"kingdom": look["kingdom_name"], "from": old.user.get_username() if old else None,
               "to": user.get_username()}  # fmt: skip
    record_audit(campaign, offer.offered_by, AuditEntry.Action.HANDED_OVER, offer.reason, details)
    return new
