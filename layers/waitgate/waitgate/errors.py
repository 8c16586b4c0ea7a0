"""Domain errors. Each carries the spec's code and its HTTP status; `http.problem` renders them."""

from __future__ import annotations

from typing import Any, ClassVar


class WaitgateError(Exception):
    """Base of every error the service raises on purpose."""

    code: ClassVar[str] = "internal"
    status: ClassVar[int] = 500
    title: ClassVar[str] = "Internal error"

    def __init__(self, detail: str, **extensions: Any) -> None:
        super().__init__(detail)
        self.detail = detail
        self.extensions = extensions


class ValidationFailedError(WaitgateError):
    code = "validation_error"
    status = 400
    title = "Validation failed"


class UnauthorizedError(WaitgateError):
    code = "unauthorized"
    status = 401
    title = "Unauthorized"


class InterruptTokenInvalidError(WaitgateError):
    code = "interrupt_token_invalid"
    status = 401
    title = "Interrupt token invalid"

    def __init__(self) -> None:
        # One detail whatever failed: shape, alg, kid or MAC must not be told apart.
        super().__init__("The interrupt token is not valid.")


class ForbiddenError(WaitgateError):
    code = "forbidden"
    status = 403
    title = "Forbidden"


class SelfApprovalRefusedError(ForbiddenError):
    """The requester voted on their own approval (docs/approvals.md, "Separation of duties")."""

    code = "self_approval_refused"
    title = "Self-approval refused"


class NotFoundError(WaitgateError):
    code = "not_found"
    status = 404
    title = "Not found"


class InterruptAlreadyResolvedError(WaitgateError):
    code = "interrupt_already_resolved"
    status = 409
    title = "Interrupt already resolved"


class AlreadyVotedError(WaitgateError):
    code = "already_voted"
    status = 409
    title = "Already voted"


class DecisionAlreadyConsumedError(WaitgateError):
    """An action-bound decision was consumed before (docs/approvals.md, "Consume once")."""

    code = "decision_already_consumed"
    status = 409
    title = "Decision already consumed"


class InterruptExpiredError(WaitgateError):
    code = "interrupt_expired"
    status = 410
    title = "Interrupt expired"


class PayloadTooLargeError(WaitgateError):
    code = "payload_too_large"
    status = 413
    title = "Payload too large"


class IdempotencyKeyReusedError(WaitgateError):
    code = "idempotency_key_reused"
    status = 422
    title = "Idempotency key reused"


class InterruptPayloadInvalidError(WaitgateError):
    """A workflow asked for an interrupt with a payload that fails the schema."""

    code = "InterruptPayloadInvalid"
    status = 400
    title = "Interrupt payload invalid"


class CapabilityNotSupportedError(WaitgateError):
    """A workflow asked for a kind gated on a capability this host has switched off."""

    code = "CapabilityNotSupported"
    status = 400
    title = "Capability not supported"


class ConversationAlreadyStartedError(WaitgateError):
    """conversation.start with a conversationId this tenant has already started."""

    code = "ConversationAlreadyStarted"
    status = 409
    title = "Conversation already started"


class ConversationNotOpenError(WaitgateError):
    """conversation.exchange or .close for a conversation this tenant has not open."""

    code = "ConversationNotOpen"
    status = 409
    title = "Conversation not open"


class GuardFailedError(WaitgateError):
    """A guarded item of a change did not hold what the change expected; `label` names the guard."""

    code = "internal"
    status = 500
    title = "Guard failed"

    def __init__(self, label: str) -> None:
        super().__init__(f"The guard {label} did not hold.")
        self.label = label


class ConcurrentUpdateError(WaitgateError):
    """An optimistic write lost to another writer; the use case re-reads and tries again. `current`:
    what the store found instead, when its refusal said (a `RunView`), so the retry can plan from it
    without reading again (`waitgate.run.optimistic.retry_from_current`); None: read again."""

    code = "internal"
    status = 500
    title = "Concurrent update"

    def __init__(self, detail: str, current: Any = None) -> None:
        super().__init__(detail)
        self.current = current


class StoreRefusedError(WaitgateError):
    """DynamoDB refused a write for a reason no retry changes (a malformed or oversized item): a bug
    of ours, answered 500 at once rather than retried as if it were a conflict."""

    code = "internal"
    status = 500
    title = "Internal error"


class TemporarilyUnavailableError(WaitgateError):
    """AWS throttled us, timed out or did not answer, past botocore's own retries; nothing is known to
    have changed, and the caller may send the same request again (503 with Retry-After)."""

    retry_after_seconds: ClassVar[int] = 1

    code = "unavailable"
    status = 503
    title = "Temporarily unavailable"


class OutcomeUnknownError(WaitgateError):
    """A commit was sent and no answer came back, even to its retries under the same
    ClientRequestToken: it may or may not have landed. Never a 503, which promises nothing changed; the
    caller retries with the same Idempotency-Key (which replays the answer if it landed) or reads the
    interrupt to learn what happened (docs/idempotency.md)."""

    retry_after_seconds: ClassVar[int] = 1

    code = "outcome_unknown"
    status = 504
    title = "Outcome unknown"


class TaskGoneError(WaitgateError):
    """Step Functions no longer waits for this task token (timed out, closed or never existed)."""

    code = "task_gone"
    status = 409
    title = "Task no longer waiting"


class AnswerRefusedError(WaitgateError):
    """The workflow engine will never take this answer (it refused its output): the delivery is parked."""

    code = "answer_refused"
    status = 409
    title = "Answer refused by the workflow engine"


class DeliveryFailedError(WaitgateError):
    """Step Functions did not take the answer now; the outbox delivers it later."""

    code = "delivery_failed"
    status = 503
    title = "Delivery failed"


class ResultTooLargeError(WaitgateError):
    """The engine cannot take a resume value this large (Step Functions: 262,144 characters of output;
    a durable callback: 1 MiB of result): nothing was sent. The run is failed with
    InterruptResultTooLarge instead (service._resume_delivery), never retried."""

    code = "interrupt_result_too_large"
    status = 500
    title = "Resume value too large for the workflow engine"


class DeliveryRefusedError(DeliveryFailedError):
    """A channel refused the message for good (SES: the recipient or sender is not verified, the
    message rejected): sending it again cannot succeed, so it is not retried."""

    code = "delivery_refused"


class ScheduleInPastError(WaitgateError):
    """EventBridge Scheduler refused a one-time schedule because its moment has passed: the deadline
    is due now, and the caller expires the interrupt itself (docs/durability.md, "Deadlines")."""

    code = "schedule_in_past"
    status = 500
    title = "Schedule in the past"


class UnsupportedMediaTypeError(WaitgateError):
    code = "unsupported_media_type"
    status = 415
    title = "Unsupported media type"


class SubscriptionUrlRefusedError(WaitgateError):
    """A subscription's URL a delivery may not go to (docs/webhooks-out.md)."""

    code = "subscription_url_refused"
    status = 400
    title = "Subscription URL refused"

    def __init__(self, detail: str) -> None:
        super().__init__(detail, path="url")


class UnknownEventTypeError(WaitgateError):
    code = "unknown_event_type"
    status = 400
    title = "Unknown event type"


class TooManySubscriptionsError(WaitgateError):
    code = "too_many_subscriptions"
    status = 409
    title = "Too many subscriptions"
