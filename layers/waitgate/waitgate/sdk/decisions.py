"""Typed readers of what comes back: the Task state's output (the resumeValue) per kind.

    decision = ApprovalDecision.from_resume(task_output)
    if decision.accepted: ...
    for vote in decision.votes: print(vote.principal, vote.matched_by)

Readers are lenient about members they do not know (a newer host may add some) and strict about
the ones they read; a value that is not a resume value of the kind raises `ResumeValueError`.
"""

from __future__ import annotations

import hmac
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal, TypeVar

from pydantic import AliasPath, BaseModel, ConfigDict, Field, JsonValue
from pydantic import ValidationError as PydanticValidationError
from pydantic.alias_generators import to_camel

from waitgate.payloads import ApprovalAction
from waitgate.payloads.action_fingerprint import NotCanonicalizableError, action_fingerprint
from waitgate.payloads.error_detail import describe

_R = TypeVar("_R", bound="_Reader")
DEADLINE_DECIDER = "waitgate:deadline"  # decidedBy of a decision made at the deadline (docs/escalation.md)


class ResumeValueError(ValueError):
    """The value is not a resume value of the expected kind; the message names the member."""


class _Reader(BaseModel):
    model_config = ConfigDict(
        frozen=True, extra="ignore", alias_generator=to_camel, validate_by_alias=True, validate_by_name=True
    )

    @classmethod
    def from_resume(cls: type[_R], value: Any) -> _R:
        """Read a resume value (the decoded JSON the Task state's output holds)."""
        try:
            return cls.model_validate(value)
        except PydanticValidationError as exc:
            raise ResumeValueError(describe(exc, root="resumeValue")) from None


class Refinement(_Reader):
    """`refineFeedback`: what to revise (`scope` whole | section | items) and how."""

    scope: Literal["whole", "section", "items"]
    section_path: str | None = None
    item_ids: tuple[str, ...] | None = None
    tags: tuple[str, ...] | None = None
    text: str | None = None


class Vote(_Reader):
    """One vote of the quorum, in cast order; `matched_by` is why the voter was eligible
    (`list`, `group:<ref>`, `role:<ref>`, `escalation:<step>`, `override`, `open`), recorded when the
    vote was cast."""

    principal: str
    action: ApprovalAction
    decided_at: datetime
    matched_by: str | None = Field(default=None, validation_alias=AliasPath("eligibility", "matchedBy"))
    eligibility_resolved_at: datetime | None = Field(
        default=None, validation_alias=AliasPath("eligibility", "resolvedAt")
    )
    decided_by: str | None = None
    feedback: str | None = None


class DecisionOf(_Reader):
    """Where an action-bound decision was made: what `WaitgateClient.consume` spends once."""

    run_id: str
    node_id: str
    interrupt_id: str


class ApprovalDecision(_Reader):
    """An approval's resume value: the deciding vote's members plus every vote (`votes`).

    For an action-bound approval (`data.action`), `bound_action` is the action decided on (the
    requested one, or the edited one of an edit-accept) and `action_fingerprint` its fingerprint."""

    action: ApprovalAction
    decided_at: datetime
    decided_by: str | None = None
    feedback: str | None = None
    refine_feedback: Refinement | None = None
    edited_artifact_data: JsonValue = None
    votes: tuple[Vote, ...] = ()
    bound_action: dict[str, JsonValue] | None = None
    action_fingerprint: str | None = None
    decision_of: DecisionOf | None = None

    def authorizes(self, action: Mapping[str, Any]) -> bool:
        """True only when this decision accepts exactly `action` (`{name, args, target?}`): the
        approved action, or the edited one of an edit-accept; any other action, a decision that
        did not accept, or one not bound to an action authorizes nothing (fails closed)."""
        if not self.accepted or self.action_fingerprint is None:
            return False
        try:
            return hmac.compare_digest(action_fingerprint(dict(action)), self.action_fingerprint)
        except (NotCanonicalizableError, TypeError):
            return False

    @property
    def accepted(self) -> bool:
        """accept, or edit-accept (then `edited_artifact_data` is the artifact to go on with)."""
        return self.action in ("accept", "edit-accept")

    @property
    def rejected(self) -> bool:
        return self.action == "reject"

    @property
    def by_deadline(self) -> bool:
        """Decided by the host at the deadline (an escalation policy's `onDeadline.resolveWith`)."""
        return self.decided_by == DEADLINE_DECIDER

    @property
    def needs_refinement(self) -> bool:
        """refine: revise the artifact as `refine_feedback` says, then ask again with a new key."""
        return self.action == "refine"

    def to_agentflow_resume(self) -> dict[str, Any]:
        """The resume value agentflow's QualityGateReview documents: `{decision, feedback?}`."""
        resume: dict[str, Any] = {"decision": "accept" if self.accepted else self.action}
        if self.feedback is not None:
            resume["feedback"] = self.feedback
        return resume


class ClarificationAnswers(_Reader):
    """A clarification's resume value `{answers: {<question id>: value}}`."""

    answers: dict[str, JsonValue]

    def __getitem__(self, question_id: str) -> JsonValue:
        return self.answers[question_id]

    def get(self, question_id: str, default: JsonValue = None) -> JsonValue:
        return self.answers.get(question_id, default)

    def to_agentflow_resume(self, question_id: str = "answer") -> JsonValue:
        """The answer alone, as agentflow's ClarificationRequest is resumed with."""
        return self.answers[question_id]
