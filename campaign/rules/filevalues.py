"""The campaign file's values, read with their place in the file: `Json` knows where in the
file it is, so a refusal names the field ("armies[2].hex") and carries a stable code. It
depends on nothing but the errors and the map's hexes, so every reader of the file (the
general ones in `fileformat`, an optional rule's own in `optional`) can use it."""

from collections.abc import Callable, Collection, Mapping
from enum import StrEnum
from typing import NoReturn

from campaign.rules.errors import RuleError
from campaign.rules.hexmap import Hex


class Json:
    """A JSON value and its path in the campaign file."""

    __slots__ = ("path", "value")

    def __init__(self, value: object, path: str) -> None:
        self.value = value
        self.path = path

    def refuse(self, code: str, message: str, unit: str | None = None) -> NoReturn:
        raise RuleError(code, self.path or "(file)", message, unit)

    def child(self, key: str) -> "Json":
        value = self.value.get(key) if isinstance(self.value, dict) else None
        return Json(value, f"{self.path}.{key}" if self.path else key)

    def as_object(
        self, required: Collection[str] = (), optional: Collection[str] = ()
    ) -> dict[str, "Json"]:
        if not isinstance(self.value, dict):
            self.refuse("wrong-type", f"{self.path or 'The file'} must be a JSON object.")
        for key in self.value:
            if key not in required and key not in optional:
                self.child(key).refuse(
                    "unknown-field", f"{key!r} is not a field of the campaign file here."
                )
        for key in required:
            if key not in self.value:
                self.child(key).refuse("missing-field", f"{key!r} is missing.")
        return {key: self.child(key) for key in self.value}

    def as_mapping(self) -> dict[str, "Json"]:
        """An object whose keys are ids (kingdoms, units) rather than field names."""
        if not isinstance(self.value, dict):
            self.refuse("wrong-type", f"{self.path} must be a JSON object.")
        return {key: self.child(key) for key in self.value}

    def as_list(self) -> list["Json"]:
        return [self.item(index) for index in range(len(self.as_values()))]

    def as_values(self) -> list[object]:
        """The list's items as they are, for a shortcut that reads plain ones directly."""
        if not isinstance(self.value, list):
            self.refuse("wrong-type", f"{self.path} must be a list.")
        return self.value

    def item(self, index: int) -> "Json":
        """The list's item at `index`, with its path."""
        assert isinstance(self.value, list)
        return Json(self.value[index], f"{self.path}[{index}]")

    def as_int(self, minimum: int | None = None, maximum: int | None = None) -> int:
        value = self.value
        if isinstance(value, bool) or not isinstance(value, int):
            self.refuse("wrong-type", f"{self.path} must be a whole number.")
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            low = "" if minimum is None else f" from {minimum}"
            high = "" if maximum is None else f" to {maximum}"
            self.refuse(
                "out-of-range", f"{self.path} must be a whole number{low}{high}, not {value}."
            )
        return value

    def as_bool(self) -> bool:
        if not isinstance(self.value, bool):
            self.refuse("wrong-type", f"{self.path} must be true or false.")
        return self.value

    def as_str(self) -> str:
        if not isinstance(self.value, str) or not self.value:
            self.refuse("wrong-type", f"{self.path} must be a non-empty string.")
        return self.value

    def as_hex(self) -> Hex:
        value = self.value
        if (
            not isinstance(value, list)
            or len(value) != 2
            or any(isinstance(c, bool) or not isinstance(c, int) for c in value)
        ):
            self.refuse(
                "bad-hex", f"{self.path} must be a hex: a list of two whole numbers [q, r]."
            )
        return (value[0], value[1])

    def is_null(self) -> bool:
        return self.value is None

    def optional[T](self, read: Callable[["Json"], T]) -> T | None:
        return None if self.value is None else read(self)

    def choice[E: StrEnum](self, enum: type[E]) -> E:
        text = self.as_str()
        try:
            return enum(text)
        except ValueError:
            allowed = ", ".join(member.value for member in enum)
            self.refuse("unknown-value", f"{self.path} must be one of {allowed}, not {text!r}.")


def optional_field[T](
    fields: Mapping[str, Json], key: str, read: Callable[[Json], T], default: T
) -> T:
    return read(fields[key]) if key in fields else default
