"""The one module that renders domain errors as RFC 9457 problem details with the spec's code.

Pure text (no HTTP framework): the HTTP layer sends it, `answers` keeps it for idempotent replays."""

from __future__ import annotations

import json
from typing import Any

from waitgate.errors import WaitgateError

PROBLEM_CONTENT_TYPE = "application/problem+json"
TYPE_BASE = "https://waitgate.dev/problems/"


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


def internal_problem() -> tuple[int, str]:
    """A bug: never a stack trace, never an internal name."""
    return 500, problem_body(
        500, "internal", "Internal error", "Something went wrong on our side; it has been logged."
    )
