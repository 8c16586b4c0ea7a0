"""The one module that renders domain errors as RFC 9457 problem details with the spec's code.

Pure text (no HTTP framework): the HTTP layer sends it, `answers` keeps it for idempotent replays."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from waitgate.errors import WaitgateError

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_BASE = "https://waitgate.dev/problems/"


@dataclass(frozen=True)
class Problem:
    """What a refusal means, as its problem+json says it: the spec's code, the detail, and the field
    it names (`path`, "" for none). What the edges read, so none parses the body back."""

    code: str
    detail: str
    path: str = ""


INTERNAL = Problem("internal", "Something went wrong on our side; it has been logged.")


def problem_body(status: int, code: str, title: str, detail: str, **extensions: Any) -> str:
    problem: dict[str, Any] = {
        "type": f"{TYPE_BASE}{code}",
        "title": title,
        "status": status,
        "detail": detail,
        "code": code,
    }
    problem.update({key: value for key, value in extensions.items() if key not in problem})
    return json.dumps(problem, separators=(",", ":"), ensure_ascii=False)


def problem_for(error: WaitgateError) -> tuple[int, str]:
    """(status, body) for a domain error. Extensions are public by construction (path, ...)."""
    public = {key: value for key, value in error.extensions.items() if key in {"path"}}
    status = error.status if 400 <= error.status < 600 else 500
    return status, problem_body(status, error.code, error.title, error.detail, **public)


def problem_of(error: WaitgateError) -> Problem:
    """The meaning of `problem_for(error)`'s body, as fields."""
    path = error.extensions.get("path")
    return Problem(error.code, error.detail, path if isinstance(path, str) else "")


def internal_problem() -> tuple[int, str]:
    """A bug: never a stack trace, never an internal name (its meaning: `INTERNAL`)."""
    return 500, problem_body(500, INTERNAL.code, "Internal error", INTERNAL.detail)
