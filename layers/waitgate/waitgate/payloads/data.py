"""The `data` member of each interrupt kind: closed, strict models agreeing with the schema."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, JsonValue, field_validator

from waitgate.payloads.primitives import (
    MODEL_CONFIG,
    Id200,
    JsonObject,
    JsonSchemaObject,
    NonEmptyStr,
    Omittable,
    PositiveInt,
    Probability,
    QuestionId,
    StrList,
    UniqueActions,
)


class _Closed(BaseModel):
    model_config = MODEL_CONFIG


class ApprovalData(_Closed):
    artifact_id: NonEmptyStr
    artifact_type: NonEmptyStr
    title: NonEmptyStr
    actions: UniqueActions
    artifact: JsonValue = None
    description: Omittable[str] = None
    required_approvals: PositiveInt = 1
    rejection_policy: Literal["single-veto", "majority"] = "single-veto"
    override_bypasses_quorum: bool = False
    approvers_list: Omittable[StrList] = None
    approver_group_refs: Omittable[StrList] = None
    approver_role_refs: Omittable[StrList] = None
    audience: Omittable[StrList] = None
    criteria: Omittable[StrList] = None
    auto_score: Omittable[float] = None
    reasons: Omittable[StrList] = None


class ClarificationQuestion(_Closed):
    id: QuestionId
    question: NonEmptyStr
    answer_schema: Omittable[JsonSchemaObject] = Field(default=None, alias="schema")


class ClarificationData(_Closed):
    """`questions` ids must be unique: a rule the JSON Schema cannot express."""

    questions: list[ClarificationQuestion] = Field(min_length=1)
    context: Omittable[JsonObject] = None

    @field_validator("questions")
    @classmethod
    def _ids_unique(cls, questions: list[ClarificationQuestion]) -> list[ClarificationQuestion]:
        seen: set[str] = set()
        for question in questions:
            if question.id in seen:
                raise ValueError(f"question id {question.id!r} is used more than once")
            seen.add(question.id)
        return questions


class ExternalEventData(_Closed):
    """`correlation` names what identifies the event at its source: {"paymentId": "pay_1"}."""

    event_type: NonEmptyStr
    correlation: dict[str, str] = Field(min_length=1)


class CustomData(_Closed):
    custom_kind: NonEmptyStr
    payload: JsonValue = None


class ConversationStartData(_Closed):
    conversation_id: Id200
    topic: Omittable[str] = None
    participants: Omittable[StrList] = None


class ConversationExchangeData(_Closed):
    conversation_id: Id200
    prompt: NonEmptyStr
    outcome_schema: Omittable[JsonSchemaObject] = None


class ConversationCloseData(_Closed):
    conversation_id: Id200
    reason: Omittable[str] = None


class LowConfidenceData(_Closed):
    agent_id: NonEmptyStr
    threshold: Probability
    observed: Probability
    decision: JsonValue = None
    reasons: Omittable[StrList] = None
