"""The answers of a function with one route whose cold start counts (Slack's interactivity URL,
which wants its 200 within 3 seconds): the proxy result API Gateway's HTTP API takes, built without
the Powertools resolver, whose import a cold start would pay (docs/performance.md). The same answers
`http.resolver` gives: problem+json with the spec's code for a refusal, Retry-After on a 503, never
a stack trace for a bug."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aws_lambda_powertools import Logger

from waitgate.errors import OutcomeUnknownError, TemporarilyUnavailableError, WaitgateError
from waitgate.run.problem_details import PROBLEM_CONTENT_TYPE, internal_problem, problem_for

logger = Logger(child=True)
ProxyResult = dict[str, Any]


def empty_answer(status: int = 200) -> ProxyResult:
    return {
        "statusCode": status,
        "headers": {"Content-Type": "text/plain"},
        "body": "",
        "isBase64Encoded": False,
    }


def problem_answer(status: int, body: str, headers: dict[str, str] | None = None) -> ProxyResult:
    return {
        "statusCode": status,
        "headers": {"Content-Type": PROBLEM_CONTENT_TYPE, "Cache-Control": "no-store", **(headers or {})},
        "body": body,
        "isBase64Encoded": False,
    }


def answered(handle: Callable[[], ProxyResult]) -> ProxyResult:
    """`handle`'s answer; a domain error as its problem, anything else as a bug's 500 (logged)."""
    try:
        return handle()
    except WaitgateError as error:
        if error.status >= 500:
            logger.error("request failed", extra={"code": error.code, "detail": error.detail})
        return problem_answer(*problem_for(error), _retry_headers(error))
    except Exception as error:
        logger.exception("unhandled error", extra={"error_type": type(error).__name__})
        return problem_answer(*internal_problem())


def _retry_headers(error: WaitgateError) -> dict[str, str]:
    """503 unavailable and 504 outcome_unknown say when to try again, as `http.responses` does."""
    if isinstance(error, TemporarilyUnavailableError | OutcomeUnknownError):
        return {"Retry-After": str(error.retry_after_seconds)}
    return {}
