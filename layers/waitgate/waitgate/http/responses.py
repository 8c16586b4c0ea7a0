"""The answers every HTTP handler sends: JSON, problem+json, kept answers and the human pages, with
the headers each needs (no-store, no-referrer and a strict CSP on anything that names a token)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from waitgate.errors import OutcomeUnknownError, TemporarilyUnavailableError, WaitgateError
from waitgate.http.idempotency import REPLAYED_HEADER
from waitgate.http.router import Response
from waitgate.run.answers import Answer
from waitgate.run.problem_details import PROBLEM_CONTENT_TYPE, Problem

if TYPE_CHECKING:
    from waitgate.page import RenderedPage

JSON_CONTENT_TYPE = "application/json"
HTML_CONTENT_TYPE = "text/html; charset=utf-8"


def json_response(status: int, body: Any, headers: dict[str, str] | None = None) -> Response[str]:
    return Response(
        status_code=status,
        content_type=JSON_CONTENT_TYPE,
        body=json.dumps(body, separators=(",", ":"), ensure_ascii=False),
        headers=headers or {},
    )


def answer_response(answer: Answer, headers: dict[str, str] | None = None) -> Response[str]:
    """An answer as first rendered (or replayed, byte for byte, under its Idempotency-Key)."""
    all_headers = dict(headers or {})
    if answer.content_type == PROBLEM_CONTENT_TYPE:
        all_headers.setdefault("Cache-Control", "no-store")
    if answer.replayed:
        all_headers[REPLAYED_HEADER] = "true"
    return Response(
        status_code=answer.status, content_type=answer.content_type, body=answer.body, headers=all_headers
    )


def problem_response(status: int, body: str, headers: dict[str, str] | None = None) -> Response[str]:
    return Response(
        status_code=status,
        content_type=PROBLEM_CONTENT_TYPE,
        body=body,
        headers={"Cache-Control": "no-store", **(headers or {})},
    )


def retry_headers(error: WaitgateError) -> dict[str, str]:
    """503 unavailable and 504 outcome_unknown say when to try again (the SDK client honours it)."""
    if isinstance(error, TemporarilyUnavailableError | OutcomeUnknownError):
        return {"Retry-After": str(error.retry_after_seconds)}
    return {}


TOKEN_RESPONSE_HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Vary": "Accept",
}


def page_response(status: int, page: RenderedPage) -> Response[str]:
    """The human page (or its error page): strict CSP with this response's nonce, never cached."""
    headers = {
        **TOKEN_RESPONSE_HEADERS,
        "Content-Security-Policy": page.content_security_policy,
        "X-Frame-Options": "DENY",
    }
    return Response(status_code=status, content_type=HTML_CONTENT_TYPE, body=page.html, headers=headers)


def refusal_page_response(status: int, problem: Problem) -> Response[str]:
    """A refusal as the page a person reads."""
    from waitgate.page import error_page

    return page_response(status, error_page(status, problem.code, problem.detail))


def answer_page_response(answer: Answer) -> Response[str]:
    """A token resolve's answer for a browser: what was recorded, or why it was not."""
    if answer.problem is not None:
        return refusal_page_response(answer.status, answer.problem)
    from waitgate.page import answer_page

    return page_response(answer.status, answer_page(answer.status, answer.value))
