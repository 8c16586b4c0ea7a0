"""Typed errors of the HTTP API, one class per problem `code` (RFC 9457 problem+json).

Every answer with status >= 400 raises a `WaitgateApiError` subclass carrying `status`, `code`,
`detail` and the raw `problem` dict; catch the specific class (`InterruptAlreadyResolved`) or the
base. A host that is unreachable after the retries raises `WaitgateUnreachable`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar


class WaitgateClientError(Exception):
    """Base of every error the client raises."""


class WaitgateUnreachable(WaitgateClientError):
    """No HTTP answer after every retry (connection refused, reset, timed out)."""


class WaitgateApiError(WaitgateClientError):
    """An HTTP error answer. `problem` is the decoded problem+json (or {} when the body was not one)."""

    code_name: ClassVar[str | None] = None

    def __init__(self, status: int, code: str, detail: str, problem: Mapping[str, Any]) -> None:
        super().__init__(f"{status} {code}: {detail}")
        self.status = status
        self.code = code
        self.detail = detail
        self.problem = dict(problem)


class ValidationError(WaitgateApiError):
    """400 validation_error; `path` names the failing member (e.g. "resumeValue.answers.region")."""

    code_name = "validation_error"

    @property
    def path(self) -> str | None:
        path = self.problem.get("path")
        return path if isinstance(path, str) else None


class Unauthorized(WaitgateApiError):
    code_name = "unauthorized"


class InterruptTokenInvalid(WaitgateApiError):
    code_name = "interrupt_token_invalid"


class Forbidden(WaitgateApiError):
    code_name = "forbidden"


class SelfApprovalRefused(Forbidden):
    """403: the requester of an approval voted on it (docs/approvals.md, "Separation of duties")."""

    code_name = "self_approval_refused"


class NotFound(WaitgateApiError):
    code_name = "not_found"


class InterruptAlreadyResolved(WaitgateApiError):
    code_name = "interrupt_already_resolved"


class AlreadyVoted(WaitgateApiError):
    code_name = "already_voted"


class DecisionAlreadyConsumed(WaitgateApiError):
    """409: the decision was consumed before; its action must not be done again."""

    code_name = "decision_already_consumed"


class IdempotencyKeyInFlight(WaitgateApiError):
    """409: a request with the same Idempotency-Key is still being processed (retried by the client)."""

    code_name = "idempotency_key_in_flight"


class TaskGone(WaitgateApiError):
    code_name = "task_gone"


class InterruptExpired(WaitgateApiError):
    code_name = "interrupt_expired"


class PayloadTooLarge(WaitgateApiError):
    code_name = "payload_too_large"


class UnsupportedMediaType(WaitgateApiError):
    code_name = "unsupported_media_type"


class IdempotencyKeyReused(WaitgateApiError):
    """422: the Idempotency-Key was used before with a different request."""

    code_name = "idempotency_key_reused"


class RateLimited(WaitgateApiError):
    code_name = "rate_limited"


class InternalError(WaitgateApiError):
    code_name = "internal"


class Unavailable(WaitgateApiError):
    code_name = "unavailable"


class DeliveryFailed(WaitgateApiError):
    code_name = "delivery_failed"


class OutcomeUnknown(WaitgateApiError):
    """The change was sent and its outcome is not known (504 `outcome_unknown`, or a gateway's own 503
    or 504: the function may still have finished). Retried with the same Idempotency-Key, which replays
    the answer if the change landed."""

    code_name = "outcome_unknown"


ERROR_BY_CODE: Mapping[str, type[WaitgateApiError]] = {
    cls.code_name: cls
    for cls in (
        ValidationError,
        Unauthorized,
        InterruptTokenInvalid,
        Forbidden,
        SelfApprovalRefused,
        NotFound,
        InterruptAlreadyResolved,
        AlreadyVoted,
        DecisionAlreadyConsumed,
        IdempotencyKeyInFlight,
        TaskGone,
        InterruptExpired,
        PayloadTooLarge,
        UnsupportedMediaType,
        IdempotencyKeyReused,
        RateLimited,
        InternalError,
        Unavailable,
        DeliveryFailed,
        OutcomeUnknown,
    )
    if cls.code_name is not None
}

# When the body is not problem+json (e.g. API Gateway's own 401 {"message": "Unauthorized"}). The
# gateway's own 503 and 504 come when the function did not answer in time: it may still have finished.
CODE_BY_STATUS: Mapping[int, str] = {
    400: "validation_error",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    410: "interrupt_expired",
    413: "payload_too_large",
    415: "unsupported_media_type",
    422: "idempotency_key_reused",
    429: "rate_limited",
    500: "internal",
    503: "outcome_unknown",
    504: "outcome_unknown",
}


def api_error(status: int, problem: Mapping[str, Any]) -> WaitgateApiError:
    """The typed error for an error answer's status and decoded body."""
    code = problem.get("code")
    if not isinstance(code, str):
        code = CODE_BY_STATUS.get(status, f"http_{status}")
    detail = problem.get("detail")
    if not isinstance(detail, str):
        message = problem.get("message")
        detail = message if isinstance(message, str) else f"HTTP {status}"
    return ERROR_BY_CODE.get(code, WaitgateApiError)(status, code, detail, problem)
