"""Resume values: what a resolver sends back, checked against the pending interrupt.

Every failure is a ValidationFailedError (400 validation_error) whose detail names the rule
and whose `path` extension names the member, e.g. path="refineFeedback".
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from typing import Annotated, Final, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, JsonValue, ValidationError, model_validator
from pydantic_core import PydanticCustomError

from waitgate.errors import ValidationFailedError
from waitgate.payloads.data import BoundAction, ClarificationQuestion
from waitgate.payloads.error_detail import describe, first_path
from waitgate.payloads.primitives import MODEL_CONFIG, ApprovalAction, Omittable
from waitgate.payloads.schema_cache import validate_against_schema

_M = TypeVar("_M", bound=BaseModel)

_RFC3339: Final = re.compile(
    r"\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})", re.ASCII
)


def _rfc3339(value: str) -> str:
    if _RFC3339.fullmatch(value) is None:
        raise ValueError("must be an RFC 3339 date-time with a time zone offset")
    try:
        datetime.fromisoformat(value.upper())
    except ValueError:
        raise ValueError("is not a real date and time") from None
    return value


Rfc3339 = Annotated[str, AfterValidator(_rfc3339)]


def _rule(path: str, message: str) -> PydanticCustomError:
    return PydanticCustomError("resume_rule", message, {"path": path})


class RefineFeedback(BaseModel):
    model_config = MODEL_CONFIG

    scope: Literal["whole", "section", "items"]
    section_path: Omittable[str] = None
    item_ids: Omittable[list[str]] = None
    tags: Omittable[list[str]] = None
    text: Omittable[str] = None

    @model_validator(mode="after")
    def _scope_needs_its_target(self) -> RefineFeedback:
        if self.scope == "section" and self.section_path is None:
            raise _rule("sectionPath", "scope 'section' needs sectionPath")
        if self.scope == "items" and self.item_ids is None:
            raise _rule("itemIds", "scope 'items' needs itemIds")
        return self


class ApprovalResume(BaseModel):
    """An approval decision (closed). `decidedBy` is an opaque string when present."""

    model_config = MODEL_CONFIG

    action: ApprovalAction
    feedback: Omittable[str] = None
    refine_feedback: Omittable[RefineFeedback] = None
    edited_artifact_data: JsonValue = None
    edited_action: Omittable[BoundAction] = None  # edit-accept of an action-bound approval
    decided_at: Rfc3339
    decided_by: Omittable[str] = None

    @model_validator(mode="after")
    def _action_needs_its_fields(self) -> ApprovalResume:
        if self.action == "refine" and self.refine_feedback is None:
            raise _rule("refineFeedback", "action 'refine' needs refineFeedback")
        if self.edited_action is not None and self.action != "edit-accept":
            raise _rule("editedAction", "only action 'edit-accept' takes editedAction")
        if (
            self.action == "edit-accept"
            and self.edited_action is None
            and ("edited_artifact_data" not in self.model_fields_set or self.edited_artifact_data is None)
        ):
            raise _rule(
                "editedArtifactData", "action 'edit-accept' needs editedArtifactData (or editedAction)"
            )
        if self.action == "ask" and not (self.feedback or "").strip():
            raise _rule("feedback", "action 'ask' needs feedback: the question to ask")
        return self


class ClarificationResume(BaseModel):
    """`{answers: {<questionId>: value}}` (closed)."""

    model_config = MODEL_CONFIG

    answers: dict[str, JsonValue]


def _validate_model(model: type[_M], data: object, root: str) -> _M:
    try:
        return model.model_validate(data, strict=True, by_alias=True, by_name=False)
    except ValidationError as exc:
        raise ValidationFailedError(describe(exc, root=root), path=first_path(exc, root=root)) from None


def parse_approval_resume(data: object, allowed_actions: Sequence[str]) -> ApprovalResume:
    """Validate an approval resume value against the interrupt's `actions`.

    The action is checked first, against this interrupt's actions: a typo or an action the interrupt
    does not offer is told as such (not as the protocol's five, nor as a member the action needs)."""
    if isinstance(data, dict) and "action" in data and data["action"] not in allowed_actions:
        allowed = ", ".join(allowed_actions)
        raise ValidationFailedError(
            f"resumeValue.action: {data['action']!r} is not one of this interrupt's actions ({allowed})",
            path="resumeValue.action",
        )
    return _validate_model(ApprovalResume, data, "resumeValue")


def parse_clarification_resume(
    data: object, questions: Sequence[ClarificationQuestion]
) -> ClarificationResume:
    """Validate `{answers}`: every question answered, no stranger, each answer per its schema."""
    resume = _validate_model(ClarificationResume, data, "resumeValue")
    known = {question.id for question in questions}
    for answer_id in resume.answers:
        if answer_id not in known:
            path = f"resumeValue.answers.{answer_id}"
            raise ValidationFailedError(f"{path}: no question has id {answer_id!r}", path=path)
    for question in questions:
        path = f"resumeValue.answers.{question.id}"
        if question.id not in resume.answers:
            raise ValidationFailedError(f"{path}: question {question.id!r} is not answered", path=path)
        if question.answer_schema is not None:
            validate_against_schema(resume.answers[question.id], question.answer_schema, path)
    return resume
