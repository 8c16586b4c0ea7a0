"""The one rule for an integer in a query string (`limit`, `after`, …), on every route.

An integer parameter is ASCII digits only (no sign, no exponent, no space, no `²` or `①` that
`str.isdigit` would let through), at most as many digits as its maximum has, and within its bounds:
anything else is `400 validation_error` naming the parameter. Absent or empty is its default. The
OpenAPI document advertises each parameter from the same object (`schema`), so the document and the
code cannot say different things.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from waitgate.errors import ValidationFailedError

MAX_SAFE_INTEGER: Final = 2**53 - 1  # what every JSON client holds exactly
_DIGITS: Final = frozenset("0123456789")


@dataclass(frozen=True)
class IntegerParameter:
    name: str
    minimum: int
    maximum: int
    default: int

    def __post_init__(self) -> None:
        if not 0 <= self.minimum <= self.default <= self.maximum <= MAX_SAFE_INTEGER:
            raise ValueError(f"the bounds of {self.name} are not 0 <= minimum <= default <= maximum")

    @property
    def max_digits(self) -> int:
        return len(str(self.maximum))

    def parse(self, text: str | None) -> int:
        """The parameter's value; ValidationFailedError(path=name) for anything but an integer in bounds."""
        if text is None or text == "":
            return self.default
        if len(text) > self.max_digits or not set(text) <= _DIGITS:
            raise self._refusal()
        value = int(text)
        if not self.minimum <= value <= self.maximum:
            raise self._refusal()
        return value

    def schema(self) -> dict[str, Any]:
        """The parameter's JSON Schema, as the OpenAPI document advertises it."""
        return {"type": "integer", "minimum": self.minimum, "maximum": self.maximum, "default": self.default}

    def _refusal(self) -> ValidationFailedError:
        return ValidationFailedError(
            f"{self.name} must be a whole number from {self.minimum} to {self.maximum} (ASCII digits only).",
            path=self.name,
        )
