"""What a field's constraints ask, in words a person reads beside it ("A whole number from 1 to 10",
"At most 4 KB", "One per line"). Pure."""

from __future__ import annotations

from typing import Any

from waitgate.page.schema_fields import Field


def number_text(value: Any) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def size_text(size: int) -> str:
    return f"{size // 1024} KB" if size % 1024 == 0 else f"{size:,} bytes"


def describe(target: Field) -> str:
    control = target.control
    if control in {"text", "textarea", "email"}:
        said = "An e-mail address." if control == "email" else ""
        said = _join(said, _length_words(target.schema, "character"))
        if target.max_bytes:
            said = _join(said, f"At most {size_text(target.max_bytes)}.")
        return said
    if control in {"number", "integer"}:
        return bounds_words(target.schema, control) + "."
    if control == "date-time":
        return "Date and time, in UTC."
    if control == "checkboxes":
        return _count_words(target.schema, "Choose")
    if control == "lines":
        item = {"number": "a number", "integer": "a whole number"}.get(target.item_type, "")
        said = "One per line" + (f", each {item}" if item else "") + "."
        return _join(said, _count_words(target.schema, "Give"))
    if control == "json":
        return "Written as JSON; checked before it is sent."
    return ""


def bounds_words(schema: Any, control: str) -> str:
    """ "A whole number from 1 to 10", "A number more than 0", "A number" ..."""
    words = "A whole number" if control == "integer" else "A number"
    low, high = schema.get("minimum"), schema.get("maximum")
    if _is_number(low) and _is_number(high):
        words += f" from {number_text(low)} to {number_text(high)}"
    elif _is_number(low):
        words += f", at least {number_text(low)}"
    elif _is_number(high):
        words += f", at most {number_text(high)}"
    if _is_number(schema.get("exclusiveMinimum")):
        words += f", more than {number_text(schema['exclusiveMinimum'])}"
    if _is_number(schema.get("exclusiveMaximum")):
        words += f", less than {number_text(schema['exclusiveMaximum'])}"
    if _is_number(schema.get("multipleOf")):
        words += f", a multiple of {number_text(schema['multipleOf'])}"
    return words


def _length_words(schema: Any, unit: str) -> str:
    low, high = schema.get("minLength"), schema.get("maxLength")
    if _is_number(low) and _is_number(high):
        return f"{low} to {high} {unit}s." if low != high else f"Exactly {low} {_plural(low, unit)}."
    if _is_number(low) and low > 1:  # at least one is what any required field asks
        return f"At least {low} {_plural(low, unit)}."
    if _is_number(high):
        return f"At most {high} {_plural(high, unit)}."
    return ""


def _count_words(schema: Any, verb: str) -> str:
    low, high = schema.get("minItems"), schema.get("maxItems")
    if _is_number(low) and _is_number(high):
        return f"{verb} {low} to {high}." if low != high else f"{verb} exactly {low}."
    if _is_number(low) and low > 0:
        return f"{verb} at least {low}."
    if _is_number(high):
        return f"{verb} at most {high}."
    return "Choose any." if verb == "Choose" else ""


def _plural(count: int, unit: str) -> str:
    return unit if count == 1 else unit + "s"


def _join(first: str, second: str) -> str:
    return f"{first} {second}".strip()


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
