"""How big what people send may be, so that everything accepted always fits where it is kept.

A DynamoDB item holds at most 400 KB and a Step Functions task output at most 256 KB. The node item
of an approval keeps the payload, every vote, the questions asked and, once decided, the resume value
(the deciding vote plus every vote again). So every part has a budget, checked at the edge before
anything is written, and the budgets add up to less than an item (docs/protocol-profile.md, "Limits"):

    payload 64 KB + escalation policy 16 KB + votes 80 KB + resume value (80 KB + 64 KB)
    + asks 8 × 5 KB + task token 8 KB + the inbox's summary 4 KB (while pending: `inbox_summary`)
    = 356 KB < 400 KB;  delivered resume value <= 144 KB < 256 KB

(A deadline decision is the policy's `resolveWith`, at most 16 KB, plus the votes: <= 96 KB.)

A vote's limit is its share of the vote budget: 80 KB divided by the most votes the interrupt's quorum
can record before it decides. The share is fixed when the interrupt is requested, so no vote can
ever be accepted that leaves a later voter without room (the lock-out a shared budget would cause).
Sizes are bytes of compact UTF-8 JSON (`json_rules.encoded_size`).
"""

from __future__ import annotations

from typing import Any

from waitgate.errors import PayloadTooLargeError, UnauthorizedError, ValidationFailedError
from waitgate.payloads.json_rules import encoded_size

KB = 1024
MAX_BODY_BYTES = 256 * KB  # a request body (413 before it is parsed)
MAX_INTERRUPT_BYTES = 64 * KB  # the InterruptPayload a workflow hands request_interrupt
MAX_RESUME_VALUE_BYTES = 64 * KB  # one resolve's resumeValue, of any kind
MAX_COMMENT_BYTES = 4 * KB  # an approval's `feedback` (a vote's comment, an ask's question)
VOTES_BUDGET_BYTES = 80 * KB  # all the votes of one approval, as stored
MAX_REQUIRED_APPROVALS = 8  # the largest quorum: at most 8 + 5 - 1 = 12 votes (majority)
MAX_ASKS = 8  # questions kept on one approval
MAX_ASK_BYTES = 4 * KB + 1 * KB  # one stored question: its comment and who asked when
MAX_PRINCIPAL_BYTES = 255  # a JWT `sub` (OpenID Connect's own limit) or a token's `sub`
MAX_ESCALATION_BYTES = 16 * KB  # the escalation policy beside an interrupt (docs/escalation.md)
MAX_ESCALATION_STEPS = 8  # steps of one policy: one schedule each (schemas/v2/escalation-policy)


def most_votes(required_approvals: int, rejections_needed: int) -> int:
    """Votes an undecided tally can hold, plus the deciding one: every accept but the last needed,
    every reject but the last needed, and one more (override votes count like any other)."""
    return (required_approvals - 1) + (rejections_needed - 1) + 1


def vote_share(required_approvals: int, rejections_needed: int) -> int:
    """The most bytes one stored vote of this quorum may take."""
    share = VOTES_BUDGET_BYTES // most_votes(required_approvals, rejections_needed)
    return min(share, MAX_RESUME_VALUE_BYTES)


def check_required_approvals(required_approvals: int) -> None:
    if required_approvals > MAX_REQUIRED_APPROVALS:
        raise ValidationFailedError(
            f"requiredApprovals may be at most {MAX_REQUIRED_APPROVALS}.", path="data.requiredApprovals"
        )


def check_resume_value(value: Any) -> None:
    _at_most(encoded_size(value), MAX_RESUME_VALUE_BYTES, "The resumeValue", "resumeValue")


def check_comment(feedback: Any) -> None:
    if isinstance(feedback, str):
        _at_most(len(feedback.encode("utf-8")), MAX_COMMENT_BYTES, "feedback", "resumeValue.feedback")


def check_vote(stored_vote: Any, share: int) -> None:
    """A vote as it will be stored (with its eligibility record) against its quorum's share."""
    _at_most(encoded_size(stored_vote), share, "This vote, as stored,", "resumeValue")


def check_ask(stored_ask: Any, asks_so_far: int) -> None:
    if asks_so_far >= MAX_ASKS:
        raise ValidationFailedError(
            f"This interrupt already holds its {MAX_ASKS} questions; answer with a decision instead.",
            path="resumeValue.action",
        )
    _at_most(encoded_size(stored_ask), MAX_ASK_BYTES, "This question, as stored,", "resumeValue")


def check_principal(principal: str, *, bearer: bool) -> None:
    """A principal longer than the limit: 401 for a bearer JWT's `sub`, 400 for a requested one."""
    if len(principal.encode("utf-8")) <= MAX_PRINCIPAL_BYTES:
        return
    detail = f"A principal may be at most {MAX_PRINCIPAL_BYTES} bytes of UTF-8."
    if bearer:
        raise UnauthorizedError(detail)
    raise ValidationFailedError(detail, path="sub")


def _at_most(size: int, limit: int, what: str, path: str) -> None:
    if size > limit:
        raise PayloadTooLargeError(
            f"{what} is {size:,} bytes; at most {limit:,} bytes are allowed here.", path=path
        )
