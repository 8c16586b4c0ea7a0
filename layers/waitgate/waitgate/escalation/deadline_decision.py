"""A deadline decision (`onDeadline: {resolveWith}`): checked against the resume rules a person's answer
meets when the interrupt is requested, and made, as an ordinary resolution, when its deadline passes.

An approval's decision is `resolveWith` with `decidedAt` (the deadline's moment) and
`decidedBy: "waitgate:deadline"` filled in by the host, and `votes` (those cast before the deadline),
the shape every approval decision has. The other kinds' resume values are their own shapes (a
clarification's `{answers}` is closed), so `resolveWith` is delivered as given.
"""

from __future__ import annotations

from typing import Any

from waitgate.errors import InterruptPayloadInvalidError, PayloadTooLargeError, ValidationFailedError
from waitgate.escalation import EscalationPolicy
from waitgate.run.clock import parse_rfc3339
from waitgate.run.records import InterruptRecord, JSONObject
from waitgate.run.resume_values import resume_for
from waitgate.run.size_limits import check_comment, check_resume_value

DEADLINE_DECIDER = "waitgate:deadline"
WHERE = "escalation.onDeadline.resolveWith"
_HOST_FILLED = ("decidedAt", "decidedBy")


def check_resolve_with(kind: str, payload: JSONObject, policy: EscalationPolicy, now: str) -> None:
    """InterruptPayloadInvalidError, naming the member, unless `resolveWith` is a resume value this
    interrupt accepts (an approval's: one that ends it, without the members the host fills in)."""
    if not policy.resolves_at_deadline:
        return
    value = policy.resolve_with
    if kind == "approval":
        _check_approval_value(value)
        value = {**value, "decidedAt": now, "decidedBy": DEADLINE_DECIDER}
    try:
        resume_for(kind, payload, value, DEADLINE_DECIDER)
        check_resume_value(value)
        if kind == "approval":
            check_comment(value.get("feedback"))  # as long as a person's comment may be
    except (ValidationFailedError, PayloadTooLargeError) as error:
        raise InterruptPayloadInvalidError(_named(error)) from None


def decided_by_deadline(record: InterruptRecord) -> bool:
    """The interrupt was resolved by its escalation policy's decision at the deadline, not a person:
    an approval's decision says so (`decidedBy`); another kind's was resolved at or after a deadline
    its policy decides at (nobody may answer it then)."""
    if record.status != "resolved":
        return False
    value = record.resume_value
    if record.kind == "approval":
        return isinstance(value, dict) and value.get("decidedBy") == DEADLINE_DECIDER
    on_deadline = (record.escalation or {}).get("onDeadline")
    decides = isinstance(on_deadline, dict) and "resolveWith" in on_deadline
    if not (decides and record.deadline and record.resolved_at):
        return False
    return parse_rfc3339(record.resolved_at) >= parse_rfc3339(record.deadline)


def _named(error: ValidationFailedError | PayloadTooLargeError) -> str:
    """The resume rules' detail, about `resumeValue`, said about the policy's member."""
    detail = error.detail.replace("resumeValue", WHERE)
    if detail.startswith(WHERE):
        return detail
    path = str(error.extensions.get("path", "resumeValue"))
    return f"{WHERE}{path.removeprefix('resumeValue')}: {detail}"


def _check_approval_value(value: Any) -> None:
    if not isinstance(value, dict):
        raise InterruptPayloadInvalidError(f"{WHERE}: an approval's decision is an object {{action, ...}}.")
    for member in _HOST_FILLED:
        if member in value:
            raise InterruptPayloadInvalidError(f"{WHERE}.{member}: waitgate sets it at the deadline.")
    if value.get("action") == "ask":
        raise InterruptPayloadInvalidError(f"{WHERE}.action: 'ask' never ends an interrupt.")


def deadline_resume_value(record: InterruptRecord, policy: EscalationPolicy, now: str) -> Any:
    """The resume value the deadline resolves the interrupt with."""
    if record.kind != "approval":
        return policy.resolve_with
    return {
        **policy.resolve_with,
        "decidedAt": now,
        "decidedBy": DEADLINE_DECIDER,
        "votes": list(record.votes),
    }
