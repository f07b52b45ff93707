"""Reading a JSON document named on a command's line (a path, or - for standard input), for
`adjudicate` and `import_campaign`: one too big is refused before it is read, and every
way it can fail to be JSON is a refusal in words, never a traceback."""

import json
import sys
from pathlib import Path


class Unreadable(Exception):
    """Why a document cannot be read, as a code (the campaign file's refusal codes) and a
    sentence naming the document."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def read_json(name: str, *, max_bytes: int, what: str) -> object:
    """The JSON document in file `name` (- for standard input), at most `max_bytes` long;
    `what` names such documents in the refusal of one too big ("campaign file")."""
    try:
        if name == "-":
            text = sys.stdin.read(max_bytes + 1)
            too_big = len(text.encode("utf-8")) > max_bytes
        else:
            path = Path(name)
            too_big = path.stat().st_size > max_bytes
            text = "" if too_big else path.read_text(encoding="utf-8")
    except OSError as error:
        raise Unreadable("unreadable-file", f"Can't read {name}: {error.strerror}.") from None
    except UnicodeDecodeError:
        raise Unreadable("not-json", f"{name} is not UTF-8 text.") from None
    if too_big:
        raise Unreadable(
            "file-too-big",
            f"{name} is larger than {max_bytes // (1024 * 1024)} MB: no {what} is that big.",
        )
    try:
        document: object = json.loads(text)
    except RecursionError:
        raise Unreadable("not-json", f"{name} is nested too deeply to read.") from None
    except json.JSONDecodeError as error:
        raise Unreadable(
            "not-json", f"{name} is not valid JSON: {error.msg} at line {error.lineno}."
        ) from None
    except ValueError:  # a number of more than 4,300 digits
        raise Unreadable("not-json", f"{name} has a number too long to read.") from None
    if _holds_a_lone_surrogate(document):
        raise Unreadable(
            "not-json",
            f"{name} is not valid JSON text: it holds a lone surrogate (an escape such as "
            "\\ud800 without its pair), which is no character.",
        )
    return document


def _holds_a_lone_surrogate(document: object) -> bool:
    """Whether a text of `document` (a key or a value, at any depth) holds half of a
    surrogate pair: Python's reader lets it through, but it is no Unicode character, so
    it could be neither kept nor written back as UTF-8 (RFC 8259, section 8.2)."""
    waiting = [document]
    while waiting:
        value = waiting.pop()
        if isinstance(value, dict):
            waiting.extend(value)
            waiting.extend(value.values())
        elif isinstance(value, list):
            waiting.extend(value)
        elif isinstance(value, str) and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                return True
    return False
