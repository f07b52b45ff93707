"""`{% invited_to next as campaign %}`: the campaign an invitation link names, for the
sign-in and sign-up pages a signed-out visitor is sent to from it ("You are invited to
Autumn League"). None for any other address, or a code that names no campaign open to
players."""

from django import template
from django.urls import Resolver404, resolve

from campaign.models import Campaign

register = template.Library()


@register.simple_tag
def invited_to(next_url: str) -> Campaign | None:
    if not next_url:
        return None
    try:
        match = resolve(next_url.split("?", 1)[0])
    except Resolver404:
        return None
    if match.view_name != "campaign:join":
        return None
    return Campaign.objects.filter(
        join_code=match.kwargs.get("code", ""), status=Campaign.Status.OPEN
    ).first()
