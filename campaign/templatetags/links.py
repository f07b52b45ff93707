"""`{{ text|honest_links }}`: what players write (letters, battle reports), escaped, with its
addresses made links as Django's `urlize` makes them (`rel="nofollow"`), except an address
that may not go where it reads: one holding an invisible or direction-changing character
(a right-to-left override shows "gro.live" for "evil.org"), a host in other letters than
a to z (a Cyrillic a reads as a Latin one), or a name before an `@` in a web address
("https://bank.example@evil.example" goes to evil.example). Those stay plain text, as
written (issue 34)."""

import unicodedata
from functools import lru_cache
from urllib.parse import urlsplit

from django import template
from django.template.defaultfilters import stringfilter
from django.utils.html import Urlizer, escape
from django.utils.safestring import SafeData, SafeString, mark_safe

register = template.Library()


def misleading(address: str) -> bool:
    """Whether an address a player wrote may not go where it reads."""
    if any(unicodedata.category(c) in ("Cc", "Cf") for c in address):
        return True
    if "://" not in address and not address.lower().startswith("www."):
        host = address.rpartition("@")[2]  # an e-mail address, or a bare domain
        return not host.isascii()
    try:
        parts = urlsplit(address if "://" in address else f"http://{address}")
        return parts.username is not None or not (parts.hostname or "").isascii()
    except ValueError:  # a host Python can't read: not a link
        return True


class HonestUrlizer(Urlizer):
    def handle_word(
        self,
        word: str,
        *,
        safe_input: bool,
        trim_url_limit: int | None = None,
        nofollow: bool = False,
        autoescape: bool = False,
    ) -> str:
        _, address, _ = self.trim_punctuation(word)
        if ("." in word or "@" in word or ":" in word) and misleading(address):
            return mark_safe(word) if safe_input else escape(word)
        return str(
            super().handle_word(
                word,
                safe_input=safe_input,
                trim_url_limit=trim_url_limit,
                nofollow=nofollow,
                autoescape=autoescape,
            )
        )


honest_urlizer = HonestUrlizer()


@register.filter(is_safe=True)
@stringfilter
def honest_links(text: str) -> SafeString:
    if isinstance(text, SafeData):  # drawn as it comes: its escaping differs
        return mark_safe(honest_urlizer(text, nofollow=True, autoescape=True))
    return _linked(text)


@lru_cache(maxsize=512)
def _linked(text: str) -> SafeString:
    """Kept by each process for the texts it draws most: a letter is drawn again on every
    poll of its page, and looking at each word for an address is most of a letter's
    drawing (issue 37)."""
    return mark_safe(honest_urlizer(text, nofollow=True, autoescape=True))
