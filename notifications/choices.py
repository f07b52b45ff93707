"""A user's choices of e-mails (the kinds turned off; saving them, with the daily digest, is
`digest.choices_save`), and the unsubscribe link every e-mail carries: a signed token of
the user and the kind it stops, which works signed out."""

from collections.abc import Iterable

from django.core import signing
from django.db import transaction

from accounts.models import User
from campaign.services.common import ServiceError
from notifications.models import Notification, NotificationChoices

Kind = Notification.Kind

# The kinds a user may turn off (the digest is a way of getting them, not a kind of news; an
# invitation goes to an address, not to a user).
EMAIL_KINDS: tuple[str, ...] = tuple(
    k.value for k in Kind if k not in (Kind.DIGEST, Kind.INVITATION)
)
ALL = "all"  # an unsubscribe link's kind for every e-mail at once
UNSUBSCRIBE_SALT = "campaign.notifications.unsubscribe"  # the links already sent keep working

# What each kind of e-mail is about, as the choices page and an unsubscribe link say it.
KIND_WORDS = {
    Kind.STEP: "when a step opens for you, or it is your turn",
    Kind.REMINDER: "reminders a day and two hours before a deadline you have not met",
    Kind.BATTLE: "when a battle of yours goes to the tabletop",
    Kind.REPORT: "when a result waits for your confirmation",
    Kind.DISPUTE: "when a result is disputed",
    Kind.MONTH: "when a month is over, with its report",
    Kind.ENDED: "when a campaign ends",
    Kind.LETTER: "when another kingdom writes to you, or through the herald",
}


def kind_words(kind: str) -> str:
    """What an unsubscribe link stops."""
    if kind == ALL:
        return "every e-mail from Mighty Kingdoms"
    return f"e-mails {KIND_WORDS[Kind(kind)]}"


def choices_of(user: User) -> NotificationChoices:
    """The user's choices (every kind, one e-mail each, unless saved otherwise)."""
    found = NotificationChoices.objects.filter(user=user).first()
    return found or NotificationChoices(user=user)


def check_kinds(email_off: Iterable[str]) -> None:
    """Refuse a kind of e-mail that does not exist."""
    if set(email_off) - set(EMAIL_KINDS):
        raise ServiceError("There is no such kind of e-mail.", code="bad-kind", field="email_off")


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
