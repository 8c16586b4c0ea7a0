"""Idempotency-Key: the first answer to a keyed request is kept 24 h and given again, byte for byte.

What is kept: answers that depend on the interrupt's state — 200/201/202, and the refusals 409 and 410
(the loser of a race replays its 409). What is not: refusals of the request itself (400, 401, 403,
404, 413, 415, 422), which a corrected retry should not inherit.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from waitgate.errors import (
    AlreadyVotedError,
    IdempotencyKeyReusedError,
    InterruptAlreadyResolvedError,
    InterruptExpiredError,
    WaitgateError,
)
from waitgate.run.answers import Answer, problem_answer
from waitgate.run.records import IdempotencyRef, StoredAnswer

RETENTION = timedelta(hours=24)
KEPT_REFUSALS: tuple[type[WaitgateError], ...] = (
    InterruptAlreadyResolvedError,
    AlreadyVotedError,
    InterruptExpiredError,
)


def stored(ref: IdempotencyRef, answer: Answer, now: datetime) -> StoredAnswer:
    return StoredAnswer(
        fingerprint=ref.fingerprint,
        status=answer.status,
        body=answer.body,
        content_type=answer.content_type,
        expires_at_epoch=int((now + RETENTION).timestamp()),
        problem=answer.problem,
        value=answer.value,
    )


def replay(earlier: StoredAnswer, ref: IdempotencyRef, now: datetime) -> Answer | None:
    """The earlier answer again; 422 if the key came with another request; None if it has expired
    (DynamoDB's TTL deletes within days, not at the second: an expired record counts as absent)."""
    if earlier.expires_at_epoch <= now.timestamp():
        return None
    if earlier.fingerprint != ref.fingerprint:
        raise IdempotencyKeyReusedError(
            "This Idempotency-Key was used with a different request; use a new key for a new request."
        )
    return Answer(earlier.status, earlier.body, earlier.content_type, True, earlier.problem, earlier.value)


def refusal_to_keep(error: WaitgateError) -> Answer | None:
    return problem_answer(error) if isinstance(error, KEPT_REFUSALS) else None
