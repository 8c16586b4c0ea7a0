"""What JSON waitgate takes in: I-JSON (RFC 7493) with a nesting limit, on every surface.

- Nesting: at most `MAX_DEPTH` arrays/objects deep, counted on the text before anything parses
  (a parser recursing into 5,000 brackets would raise `RecursionError`).
- Strings (member names too) are sequences of Unicode scalar values: a lone surrogate (`"\\ud800"`)
  is valid JSON grammar but cannot be stored, sent on, or encoded as UTF-8.
- Numbers are finite IEEE doubles or integers: `NaN`, `Infinity` and `1e400` (which parses to
  infinity) are not JSON (RFC 8259) and would be echoed as non-JSON.
- Member names are unique within an object: two parsers must never disagree on what was sent.

`loads` reads request text; `check_value` holds an already-parsed value (the payload a workflow
hands to request_interrupt) to the same rules. Both raise `ValidationFailedError` naming the path.
`encoded_size` is the size a value takes as stored: compact JSON, UTF-8.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from waitgate.errors import ValidationFailedError

MAX_DEPTH = 64
_NOT_STRUCTURE = re.compile(r'[^"\[\]{}]+')


def loads(text: str | bytes) -> Any:
    """The JSON value of `text`, or 400 validation_error saying what is wrong and where."""
    try:
        decoded = text.decode("utf-8") if isinstance(text, bytes) else text
    except UnicodeDecodeError as error:
        raise ValidationFailedError("The body is not valid UTF-8.", path="$") from error
    _check_depth(decoded)
    try:
        value = json.loads(
            decoded, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique_members
        )
    except json.JSONDecodeError as error:
        detail = f"The body is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})."
        raise ValidationFailedError(detail, path="$") from error
    except ValueError as error:  # an integer past the interpreter's digit limit
        raise ValidationFailedError("A number in the body has too many digits.", path="$") from error
    except RecursionError as error:  # pragma: no cover - the depth check runs first
        raise _too_deep() from error
    if "\\u" in decoded:
        check_value(value)  # a lone surrogate can only come from a \u escape; depth and numbers are held
    return value


def check_value(value: Any, path: str = "$") -> None:
    """Walk `value` without recursion: depth, finite numbers, scalar-value strings."""
    pending: list[tuple[Any, str, int]] = [(value, path, 0)]
    while pending:
        item, where, depth = pending.pop()
        if isinstance(item, dict):
            if depth >= MAX_DEPTH:
                raise _too_deep(where)
            for name, member in item.items():
                _check_string(name, where)
                pending.append((member, _member_path(where, name), depth + 1))
        elif isinstance(item, list):
            if depth >= MAX_DEPTH:
                raise _too_deep(where)
            pending.extend((member, f"{where}[{index}]", depth + 1) for index, member in enumerate(item))
        elif isinstance(item, str):
            _check_string(item, where)
        elif isinstance(item, float) and not math.isfinite(item):
            raise ValidationFailedError(
                "Numbers must be finite: NaN, Infinity and numbers past ±1.8e308 are not JSON.", path=where
            )


def encoded_size(value: Any) -> int:
    """Bytes of `value` as compact UTF-8 JSON: what the store and the workflow carry."""
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8"))


def _check_depth(text: str) -> None:
    """The deepest nesting outside strings, counted at C speed: escapes out, then all but quotes and
    brackets out, then the strings (between quotes) out; what is left is the brackets, in order."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return  # cannot nest deeper than it has brackets
    unescaped = text.replace("\\\\", "").replace('\\"', "")
    outside_strings = "".join(_NOT_STRUCTURE.sub("", unescaped).split('"')[::2])
    depth = 0
    for bracket in outside_strings:
        depth += 1 if bracket in "[{" else -1
        if depth > MAX_DEPTH:
            raise _too_deep()


def _check_string(text: str, where: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValidationFailedError(
            "Strings must be Unicode text: a lone surrogate (\\ud800-\\udfff) is not allowed.", path=where
        ) from error


def _finite(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValidationFailedError(
            "Numbers must be finite: NaN, Infinity and numbers past ±1.8e308 are not JSON.", path="$"
        )
    return number


def _no_constant(name: str) -> Any:
    raise ValidationFailedError(f"{name} is not a JSON number; numbers must be finite.", path="$")


def _unique_members(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    members = dict(pairs)
    if len(members) != len(pairs):
        seen: set[str] = set()
        twice = next(name for name, _ in pairs if name in seen or seen.add(name))  # type: ignore[func-returns-value]
        raise ValidationFailedError(f"The member {twice!r} appears twice in one object.", path="$")
    return members


def _too_deep(where: str = "$") -> ValidationFailedError:
    return ValidationFailedError(
        f"JSON may nest arrays and objects at most {MAX_DEPTH} levels deep.", path=where
    )


def _is_plain(name: str) -> bool:
    return name.isidentifier()


def _member_path(where: str, name: str) -> str:
    return f"{where}.{name}" if _is_plain(name) else f"{where}[{json.dumps(name)}]"
