"""A posted form read back through the same fields the page rendered (`schema_fields`): each control's
text becomes the JSON value it stands for, and whatever the field's schema refuses is refused here
too (400 naming the field's path), with the schema itself as the last word. Pure.

Empty means not given: an optional field left empty is left out, a required one that has no empty
form is refused ("Enter a number."), a required text is the empty string, an unticked box is false.
Browsers post a text area's line breaks as CRLF: they are read as LF, as the page shows them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from typing import Any

from waitgate.errors import ValidationFailedError
from waitgate.page.constraint_words import bounds_words
from waitgate.page.schema_controls import encode_choice
from waitgate.page.schema_fields import Field, property_key
from waitgate.payloads import json_rules
from waitgate.payloads.schema_cache import validate_against_schema


class _Absent:
    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Any = _Absent()
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_EMAIL = re.compile(r"[^@\s]+@[^@\s]+")
_DATE_TIME = re.compile(r"(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})(:\d{2}(?:\.\d+)?)?Z?")


def refused(message: str, target: Field) -> ValidationFailedError:
    return ValidationFailedError(message, path=target.path)


def read_value(target: Field, form: Mapping[str, str]) -> Any:
    """The value `target` stands for in `form` (ABSENT when an optional field was left empty),
    held to the field's schema."""
    value, _ = _read(target, form)
    if value is not ABSENT and target.schema:
        validate_against_schema(value, target.schema, target.path)
    return value


def _read(target: Field, form: Mapping[str, str]) -> tuple[Any, bool]:
    """The value and whether the person gave it (an unticked box is false, but not given)."""
    control = target.control
    if control == "group":
        return _group(target, form)
    if control == "checkbox":
        ticked = _ticked(form, target.name, target)
        return ticked, ticked
    if control == "checkboxes":
        chosen = [
            choice
            for index, choice in enumerate(target.choices)
            if _ticked(form, target.choice_name(index), target)
        ]
        if not chosen and not target.required:
            return ABSENT, False
        return _counted(target, chosen, "Choose"), bool(chosen)
    text = form.get(target.name, "").replace("\r\n", "\n")
    if control not in {"text", "textarea"} or target.trim:
        text = text.strip()
    if not text:
        if target.refuses_empty:
            raise refused(target.empty_text, target)
        if control == "lines" and target.required:
            return _counted(target, [], "Give"), False
        empty: Any = "" if control in {"text", "textarea"} else ABSENT
        return (empty if target.required else ABSENT), False
    return _parsed(target, text), True


def _parsed(target: Field, text: str) -> Any:
    control = target.control
    if control in {"number", "integer"}:
        return _number(target, text, control)
    if control in {"radios", "select"}:
        for choice in target.choices:
            if encode_choice(target, choice) == text:
                return choice
        raise refused("That is not one of the choices.", target)
    if control == "lines":
        lines = [
            _line(target, line.strip(), row) for row, line in enumerate(text.split("\n"), 1) if line.strip()
        ]
        return _counted(target, lines, "Give")
    if control == "json":
        return _json(target, text)
    if control == "date":
        return _date(target, text)
    if control == "date-time":
        return _date_time(target, text)
    if control == "email" and not _EMAIL.fullmatch(text):
        raise refused("Enter an e-mail address, like name@example.com.", target)
    return _string(target, text)


def _counted(target: Field, items: list[Any], verb: str) -> list[Any]:
    """An array's count against its minItems and maxItems, in words."""
    low, high = target.schema.get("minItems"), target.schema.get("maxItems")
    if isinstance(low, int) and len(items) < low:
        raise refused(f"{verb} at least {low}.", target)
    if isinstance(high, int) and len(items) > high:
        raise refused(f"{verb} at most {high}.", target)
    return items


def _group(target: Field, form: Mapping[str, str]) -> tuple[Any, bool]:
    members: dict[str, Any] = {}
    given = False
    for child in target.children:
        value, child_given = _read(child, form)
        given = given or child_given
        if value is not ABSENT:
            members[property_key(target, child)] = value
    if not given and not target.required:
        return ABSENT, False
    return members, given


def _ticked(form: Mapping[str, str], name: str, target: Field) -> bool:
    """A checkbox is sent (as `true`) when it is ticked and not at all otherwise."""
    if name not in form:
        return False
    if form[name] != "true":
        raise refused("A ticked box is sent as true.", target)
    return True


def _string(target: Field, text: str) -> str:
    low, high = target.schema.get("minLength"), target.schema.get("maxLength")
    if isinstance(low, int) and len(text) < low:
        raise refused(f"Enter at least {low} character{'s' if low != 1 else ''}.", target)
    if isinstance(high, int) and len(text) > high:
        raise refused(f"Enter at most {high} character{'s' if high != 1 else ''}.", target)
    pattern = target.schema.get("pattern")
    if isinstance(pattern, str):
        try:
            matches = re.search(pattern, text) is not None
        except re.error:
            matches = True  # the schema itself has the last word
        if not matches:
            raise refused(f"This does not have the form asked for (the pattern {pattern}).", target)
    return text


def _number(target: Field, text: str, control: str) -> int | float:
    if not _NUMBER.fullmatch(text):
        raise refused("Enter a whole number." if control == "integer" else "Enter a number.", target)
    value = _json_number(target, text)
    if isinstance(value, float) and not value.is_integer() and control == "integer":
        raise refused("Enter a whole number.", target)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    schema = target.schema
    outside = (
        _below(value, schema.get("minimum"), inclusive=True)
        or _below(-value, _negated(schema.get("maximum")), inclusive=True)
        or _below(value, schema.get("exclusiveMinimum"), inclusive=False)
        or _below(-value, _negated(schema.get("exclusiveMaximum")), inclusive=False)
    )
    if outside:
        words = bounds_words(schema, control)
        raise refused(f"Enter {words[:1].lower()}{words[1:]}.", target)
    return value  # type: ignore[no-any-return]


def _json_number(target: Field, text: str) -> Any:
    try:
        return json_rules.loads(text)
    except ValidationFailedError as error:  # past ±1.8e308
        raise refused(error.detail, target) from error


def _below(value: float, bound: Any, *, inclusive: bool) -> bool:
    if not isinstance(bound, int | float) or isinstance(bound, bool):
        return False
    return value < bound if inclusive else value <= bound


def _negated(bound: Any) -> Any:
    return -bound if isinstance(bound, int | float) and not isinstance(bound, bool) else None


def _line(target: Field, text: str, row: int) -> Any:
    if target.item_type == "string":
        return text
    if not _NUMBER.fullmatch(text):
        raise refused(f"Line {row} is not a number: {text[:40]!r}.", target)
    value = _json_number(target, text)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if target.item_type == "integer" and not isinstance(value, int):
        raise refused(f"Line {row} is not a whole number: {text[:40]!r}.", target)
    return value


def _json(target: Field, text: str) -> Any:
    try:
        return json_rules.loads(text)
    except ValidationFailedError as error:
        # json_rules speaks of "the body": here it is one field of the form
        reason = error.detail.removeprefix("The body is not valid JSON")
        detail = f"This is not valid JSON{reason}" if reason != error.detail else error.detail
        raise refused(detail.replace("the body", "this field").replace("The body", "This"), target) from error


def _date(target: Field, text: str) -> str:
    if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
        try:
            return date.fromisoformat(text).isoformat()
        except ValueError:
            pass
    raise refused("Enter a real date, as YYYY-MM-DD.", target)


def _date_time(target: Field, text: str) -> str:
    """A datetime-local input's value (UTC: the page's script converts the person's own time)."""
    match = _DATE_TIME.fullmatch(text)
    seconds = (match.group(3) or ":00") if match else ""
    try:
        if match is None:
            raise ValueError("not a date and time")
        moment = datetime.fromisoformat(f"{match.group(1)}T{match.group(2)}{seconds}")
    except ValueError:
        raise refused("Enter a real date and time.", target) from None
    return moment.isoformat(timespec="milliseconds" if "." in seconds else "seconds") + "Z"
