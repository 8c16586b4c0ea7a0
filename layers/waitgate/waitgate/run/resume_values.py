"""What a resume value must be, per kind of interrupt (400 validation_error otherwise)."""

from __future__ import annotations

from typing import Any

from waitgate import payloads  # its models load with the first resume value checked (PEP 562), not here
from waitgate.approval.action_binding import bound_members, decision_of
from waitgate.run.identity import Caller
from waitgate.run.records import InterruptRecord, JSONObject


def validated_resume(record: InterruptRecord, raw: Any, caller: Caller) -> Any:
    """The resume value as it will be persisted and delivered to the workflow.

    approval: the decision rules; clarification: every question answered, each per its schema;
    conversation.exchange: the outcomeSchema; every kind: a declared resumeSchema.
    external-event, custom, low-confidence and conversation start/close take any JSON value.
    """
    value = resume_for(record.kind, record.payload, raw, caller.principal)
    if record.kind == "approval" and "boundAction" in value:
        value["decisionOf"] = decision_of(record.run.run_id, record.node_id, record.interrupt_id)
    return value


def resume_for(kind: str, payload: JSONObject, raw: Any, principal: str) -> Any:
    """`validated_resume` for an interrupt known by its payload (a deadline decision is checked
    before the interrupt is recorded); `principal` fills an approval's omitted `decidedBy`."""
    data: JSONObject = payload.get("data", {})
    if kind == "approval":
        return _approval(payload, raw, principal)
    if kind == "clarification":
        _clarification(data, raw)
    elif kind == "conversation.exchange" and "outcomeSchema" in data:
        payloads.validate_against_schema(raw, data["outcomeSchema"], "resumeValue")
    if "resumeSchema" in payload:
        payloads.validate_against_schema(raw, payload["resumeSchema"], "resumeValue")
    return raw


def _clarification(data: JSONObject, raw: Any) -> None:
    """{answers: {<questionId>: value}}: 400 naming the question whose answer is missing or wrong."""
    questions = payloads.ClarificationData.model_validate(data, by_alias=True).questions
    payloads.parse_clarification_resume(raw, questions)


def _approval(payload: JSONObject, raw: Any, principal: str) -> JSONObject:
    resume = payloads.parse_approval_resume(raw, payload["data"]["actions"])
    value: JSONObject = resume.model_dump(mode="json", by_alias=True, exclude_none=True)
    value.setdefault("decidedBy", principal)
    if "resumeSchema" in payload:
        payloads.validate_against_schema(value, payload["resumeSchema"], "resumeValue")
    return value | bound_members(payload["data"], value)  # the host's members, after the caller's schema
