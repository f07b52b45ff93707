"""Refusals: every bad file or illegal decision raises a RuleError with a stable code."""


class RuleError(Exception):
    """The engine refuses a file or a decision.

    code:    stable, kebab-case, for programs and tests ("unknown-field", "move-not-adjacent").
    field:   where in the campaign file, as a path ("armies[2].hex", "inputs.orders.red[0].to").
    message: one sentence a player understands, in the game's words.
    unit:    the id of the army or ship at fault, if one is.
    """

    def __init__(self, code: str, field: str, message: str, unit: str | None = None) -> None:
        super().__init__(f"{code} at {field}: {message}")
        self.code = code
        self.field = field
        self.message = message
        self.unit = unit

    def as_dict(self) -> dict[str, str]:
        data = {"code": self.code, "field": self.field, "message": self.message}
        if self.unit is not None:
            data["unit"] = self.unit
        return data
