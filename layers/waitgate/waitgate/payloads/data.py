"""The `data` member of each interrupt kind: closed, strict models agreeing with the schema."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field, JsonValue, field_validator, model_validator

from waitgate.payloads.action_fingerprint import action_fingerprint
from waitgate.payloads.primitives import (
    MODEL_CONFIG,
    Id200,
    JsonObject,
    JsonPointer,
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


class BoundAction(_Closed):
    """What an approval allows to be done (`data.action`): its fingerprint binds the decision."""

    name: NonEmptyStr
    args: JsonObject
    target: Omittable[NonEmptyStr] = None

    @model_validator(mode="after")
    def _has_a_fingerprint(self) -> BoundAction:
        action_fingerprint(self.as_json())
        return self

    def as_json(self) -> JsonObject:
        """`{name, args, target?}` as it is fingerprinted and returned in the decision."""
        action: JsonObject = {"name": self.name, "args": self.args}
        if self.target is not None:
            action["target"] = self.target
        return action


class PatchOperation(_Closed):
    """One RFC 6902 operation: `value` for add, replace and test; `from` for move and copy."""

    op: Literal["add", "remove", "replace", "move", "copy", "test"]
    path: JsonPointer
    value: JsonValue = None
    from_: Omittable[JsonPointer] = Field(default=None, alias="from")

    @model_validator(mode="after")
    def _operation_has_its_members(self) -> PatchOperation:
        needs_value = self.op in ("add", "replace", "test")
        if needs_value != ("value" in self.model_fields_set):
            raise ValueError(f"op {self.op!r} {'needs' if needs_value else 'takes no'} value")
        needs_from = self.op in ("move", "copy")
        if needs_from != (self.from_ is not None):
            raise ValueError(f"op {self.op!r} {'needs' if needs_from else 'takes no'} from")
        return self


class BeforeAfter(_Closed):
    """What the action changes, as the state before and after it."""

    before: JsonValue
    after: JsonValue


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
    action: Omittable[BoundAction] = None
    changes: Omittable[list[PatchOperation] | BeforeAfter] = None
    requested_by: Omittable[NonEmptyStr] = None
    allow_self_approval: bool = False


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
