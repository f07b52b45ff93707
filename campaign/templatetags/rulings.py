"""`{% ruling "O1" %}`: a ruling named in a player's page, linked to where the rules page
explains it (campaign.views.rules gives each ruling the anchor `ruling-o1`), so no page
shows a bare ruling id."""

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def ruling(ruling_id: str, *, word: str = "ruling") -> SafeString:
    href = f"{reverse('campaign:rules')}#ruling-{ruling_id.lower()}"
    said = f"{word} {ruling_id}" if word else ruling_id
    return format_html('<a href="{}" class="ruling">{}</a>', href, said)
