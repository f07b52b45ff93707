"""Writes to accounts that are more than saving a form."""

from axes.utils import reset as axes_reset
from django.db import transaction
from django.db.models import QuerySet

from accounts.models import User
from campaign.models import Campaign, Membership

DEPARTED_PREFIX = "departed-"


class AccountError(Exception):
    """A change refused, with a sentence the person can act on."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def campaigns_only_run_by(user: User) -> list[Campaign]:
    """Campaigns not yet ended that nobody else active runs: they would be left with nobody
    to run them if `user` went."""
    others = Membership.objects.filter(is_admin=True, user__is_active=True).exclude(user=user)
    return list(_run_by(user).exclude(pk__in=others.values("campaign")).order_by("name", "pk"))


def _run_by(user: User) -> QuerySet[Campaign]:
    return Campaign.objects.filter(memberships__user=user, memberships__is_admin=True).exclude(
        status=Campaign.Status.ENDED
    )


@transaction.atomic
def account_close(*, user: User) -> None:
    """Closes an account for good, keeping what it did in its campaigns.

    The user is not deleted: their memberships, orders and reports stay, and the campaigns
    go on with their kingdoms shown as ruled by a departed player. What says who they were
    is cleared: the username becomes departed-<id>, the e-mail address, names and password
    go, and the account can never sign in again.

    Refused while they alone run a campaign that has not ended: it would be left with
    nobody to run it.
    """
    # Two admins of one campaign closing their accounts at once would each see the other
    # still there: the campaigns' rows are locked until this one is done.
    list(_run_by(user).select_for_update(of=("self",)).values_list("pk", flat=True))
    stranded = campaigns_only_run_by(user)
    if stranded:
        names = " and ".join(campaign.name for campaign in stranded)
        raise AccountError(
            f"You are the only admin of {names}. Make another player an admin there, or end "
            "the campaign, before you close your account. Nothing was changed."
        )
    identities = [user.get_username(), user.email.lower()]
    user.username = f"{DEPARTED_PREFIX}{user.pk}"
    user.email = ""
    user.display_name = ""
    user.first_name = ""
    user.last_name = ""
    user.is_active = False
    user.set_unusable_password()
    user.save()
    # The failed sign-ins django-axes keeps name the account too.
    for identity in filter(None, identities):
        axes_reset(username=identity)
