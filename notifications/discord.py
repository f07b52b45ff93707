"""The campaign's Discord channel: posting to its webhook, and the admin setting it (an https
address of Discord's own webhooks in production; a secret, never shown back whole)."""

import contextlib
import json
import urllib.error
import urllib.request
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

from accounts.models import User
from campaign.models import AuditEntry, Campaign
from campaign.services import common
from campaign.services.common import ServiceError
from notifications.models import DiscordWebhook

DISCORD_TIMEOUT = 10
DISCORD_LENGTH = 2000
DISCORD_HOSTS = frozenset(
    {"discord.com", "discordapp.com", "ptb.discord.com", "canary.discord.com"}
)


class DeliveryError(Exception):
    """A message not delivered this time. `wait`: how long the other side asked us to wait."""

    def __init__(self, message: str, *, wait: timedelta | None = None) -> None:
        super().__init__(message)
        self.wait = wait


def discord_time(moment: datetime) -> str:
    """A time Discord shows in each reader's own zone, with how far off it is."""
    stamp = int(moment.timestamp())
    return f"<t:{stamp}:f> (<t:{stamp}:R>)"


# --- posting ----------------------------------------------------------------------------------


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A webhook that answers with a redirect has failed (and is not followed elsewhere)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_opener = urllib.request.build_opener(_NoRedirects)


def post_to_discord(url: str, text: str) -> None:
    """Post one message to a Discord webhook; mentions are never pinged. Raises
    `DeliveryError` unless Discord answers 2xx (with Discord's `retry_after` for a 429)."""
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
    """Discord's `retry_after` (seconds, in its JSON answer), else the Retry-After header;
    a second at least (the outbox caps it)."""
    seconds: float = 0
    with contextlib.suppress(ValueError, AttributeError, OSError):
        seconds = float(json.loads(error.read() or b"{}").get("retry_after") or 0)
    if not seconds:
        try:
            seconds = float(error.headers.get("Retry-After") or 0)
        except (ValueError, AttributeError):
            seconds = 0
    return max(timedelta(seconds=seconds), timedelta(seconds=1))


# --- the campaign's webhook -------------------------------------------------------------------


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
def webhook_set(
    *, campaign: Campaign, actor: User, url: str, herald: bool = False
) -> DiscordWebhook:
    """Set (or replace) the campaign's Discord webhook, and whether the herald's letters
    are posted there (issue 28); audited with its last characters."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    common.require_admin(campaign, actor)
    url = url.strip()
    refusal = webhook_refusal(url)
    if refusal:
        raise ServiceError(refusal, code="bad-webhook", field="url")
    webhook, _ = DiscordWebhook.objects.update_or_create(
        campaign=campaign, defaults={"url": url, "herald": herald, "set_by": actor}
    )
    common.record_audit(
        campaign, actor, AuditEntry.Action.DISCORD_SET, details={"ending": webhook.ending}
    )
    return webhook


@transaction.atomic
def webhook_remove(*, campaign: Campaign, actor: User) -> None:
    """Remove the campaign's Discord webhook: its posts not yet sent are dropped."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    common.require_admin(campaign, actor)
    deleted, _ = DiscordWebhook.objects.filter(campaign=campaign).delete()
    if not deleted:
        raise ServiceError("The campaign has no Discord webhook.", code="no-webhook")
    common.record_audit(campaign, actor, AuditEntry.Action.DISCORD_REMOVED)
