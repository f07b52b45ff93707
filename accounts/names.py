"""Names people read: of people, kingdoms and campaigns. One line of printable characters,
NFKC-normalised (full-width and compatibility forms become the plain ones), spaces run
together and trimmed, at most a given length: no line break can reach an e-mail's header
or a Discord post. A username that could be mistaken for another (Cyrillic U+0430 for Latin
"a") is refused: its skeleton (each letter read as the Latin one it looks like, by the
Unicode confusables table of `confusable_homoglyphs`) must not be an existing username,
nor may it mix alphabets where one's letters look like another's."""

import unicodedata
from collections.abc import Callable

from confusable_homoglyphs import confusables
from django.core.exceptions import ValidationError

# Unicode categories no name holds: controls (line breaks among them), format characters
# (invisible joiners and direction marks), private use, surrogates, unassigned, and the
# line and paragraph separators.
NOT_PRINTED = {"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"}


def plain_name(value: str, *, max_length: int, what: str = "A name") -> str:
    """`value` as a name is kept, or a ValidationError in words."""
    text = unicodedata.normalize("NFKC", value)
    if any(unicodedata.category(character) in NOT_PRINTED for character in text):
        raise ValidationError(
            f"{what} is one line of letters, digits, spaces and punctuation.", code="not-plain"
        )
    text = " ".join(text.split())
    if not text:
        raise ValidationError(f"{what} can't be empty.", code="empty")
    if len(text) > max_length:
        raise ValidationError(f"{what} is at most {max_length} characters long.", code="too-long")
    return text


def skeleton(username: str) -> str:
    """The username as it reads: NFKC, each letter that looks like a Latin one as that
    letter, lower case."""
    text = unicodedata.normalize("NFKC", username)
    looks = confusables.is_confusable(text, greedy=True, preferred_aliases=["latin"]) or []
    latin = {
        found["character"]: next(
            (h["c"] for h in found["homoglyphs"] if h["n"].startswith(("LATIN", "DIGIT"))),
            found["character"],
        )
        for found in looks
    }
    return "".join(latin.get(character, character) for character in text).casefold()


def confusable_refusal(username: str, taken: Callable[[str], bool]) -> str | None:
    """Why `username` may be mistaken for another, or None. `taken(name)`: whether an
    account has that username (whatever its case)."""
    if confusables.is_dangerous(username):
        return "This username mixes alphabets whose letters look alike: use one alphabet."
    seen_as = skeleton(username)
    if seen_as != username.casefold() and taken(seen_as):
        return "This username looks like one that is taken: choose another."
    return None
