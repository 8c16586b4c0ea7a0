"""What a resume value must be, per kind of interrupt (400 validation_error otherwise)."""

from __future__ import annotations

from typing import Any

from waitgate.identity import Caller
from waitgate.payloads import (
    ClarificationData,
    parse_approval_resume,
    parse_clarification_resume,
    validate_against_schema,
)
from waitgate.records import InterruptRecord, JSONObject


def validated_resume(record: InterruptRecord, raw: Any, caller: Caller) -> Any:
    """The resume value as it will be persisted and delivered to the workflow.

    approval: the decision rules; clarification: every question answered, each per its schema;
    conversation.exchange: the outcomeSchema; every kind: a declared resumeSchema.
    external-event, custom, low-confidence and conversation start/close take any JSON value.
    """
    if record.kind == "approval":
        return _approval(record, raw, caller)
    if record.kind == "clarification":
        _clarification(record, raw)
    elif record.kind == "conversation.exchange" and "outcomeSchema" in record.data:
        validate_against_schema(raw, record.data["outcomeSchema"], "resumeValue")
    if "resumeSchema" in record.payload:
        validate_against_schema(raw, record.payload["resumeSchema"], "resumeValue")
    return raw


def _clarification(record: InterruptRecord, raw: Any) -> None:
    """{answers: {<questionId>: value}}: 400 naming the question whose answer is missing or wrong."""
    questions = ClarificationData.model_validate(record.data, by_alias=True).questions
    parse_clarification_resume(raw, questions)


def _approval(record: InterruptRecord, raw: Any, caller: Caller) -> JSONObject:
    resume = parse_approval_resume(raw, record.data["actions"])
    value: JSONObject = resume.model_dump(mode="json", by_alias=True, exclude_none=True)
    value.setdefault("decidedBy", caller.principal)
    if "resumeSchema" in record.payload:
        validate_against_schema(value, record.payload["resumeSchema"], "resumeValue")
    return value
