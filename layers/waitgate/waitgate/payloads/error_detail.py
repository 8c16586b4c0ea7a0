"""Readable one-line details from pydantic errors: "data.actions[0]: Input should be ..."."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import ValidationError
from pydantic_core import ErrorDetails

_MAX_ERRORS = 5


def error_path(loc: Sequence[int | str], root: str = "") -> str:
    """Render a pydantic `loc` as a dotted path with [i] for list indexes."""
    path = root
    for part in loc:
        if isinstance(part, int):
            path += f"[{part}]"
        else:
            path += f".{part}" if path else part
    return path


def _message(error: ErrorDetails) -> str:
    message = error["msg"]
    for prefix in ("Value error, ", "Assertion failed, "):
        message = message.removeprefix(prefix)
    return message


def _path(error: ErrorDetails, loc: Sequence[int | str], root: str) -> str:
    path = error_path(loc, root)
    if not loc and error["type"].startswith("union_tag"):
        path = error_path(["kind"], root)  # the discriminator is missing or unknown
    context = error.get("ctx") or {}
    if "path" in context:  # a model-level rule naming the member it is about
        path = f"{path}.{context['path']}" if path else str(context["path"])
    return path


def describe(exc: ValidationError, *, root: str = "", drop_tag: bool = False) -> str:
    """Join the first few errors as "<path>: <message>", most useful first.

    `drop_tag` removes the discriminated union's tag (the kind) that pydantic puts first
    in each location.
    """
    parts: list[str] = []
    for error in exc.errors(include_url=False)[:_MAX_ERRORS]:
        loc = list(error["loc"])
        if drop_tag and loc:
            loc = loc[1:]
        path = _path(error, loc, root)
        parts.append(f"{path or root or '(root)'}: {_message(error)}")
    more = exc.error_count() - len(parts)
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


def first_path(exc: ValidationError, *, root: str = "") -> str:
    """The path of the first error, for an error's `path` extension."""
    error = exc.errors(include_url=False)[0]
    return _path(error, list(error["loc"]), root) or root
