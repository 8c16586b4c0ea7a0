"""A tool call that waits for a person, as every agent framework has one (docs/agents.md): the approval
waitgate asks for it, and the verdict its decision gives back. Pure: no framework is imported here.

    call = ToolCall("send_email", {"to": "bob"}, call_id="call-1")
    asked = await asks.request_approval(call.approval(approvers=["alice"], request_key=key))
    verdict = ToolVerdict.of(await asks.outcome(asked.run_id), call)

The approval's artifact is the call's arguments themselves (so "Accept with edits" edits them field by
field), its title names the tool; `accept`, `edit-accept` and `reject` are offered. An interrupt that
ended without a decision (expired, cancelled) is a refusal: the tool never runs unless a person said so.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from waitgate.sdk.decisions import ApprovalDecision, ClarificationAnswers

TOOL_CALL_ARTIFACT_TYPE: Final = "tool-call"
TOOL_CALL_ACTIONS: Final = ("accept", "edit-accept", "reject")
NO_DECISION: Final = "No decision was made in time: the tool call was not run."
ANSWER_ID: Final = "answer"  # the one question of a tool a person answers on its behalf
KEY_CHARS: Final = 40


class MappingRefused(ValueError):
    """A framework's value waitgate cannot carry, or a decision the framework cannot take back; the
    message names the field (`review_configs[0].args_schema: ...`)."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field


def re_entry_key(*parts: str) -> str:
    """The request key of an interrupt from the framework's own identities (thread, interrupt, call):
    the same parts give the same key, so a retried hand-over asks nobody twice."""
    canonical = json.dumps(list(parts), separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:KEY_CHARS]


def json_arguments(arguments: Any, field: str) -> dict[str, Any]:
    """A tool call's arguments as a JSON object (a JSON string is parsed); anything else is refused."""
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments) if arguments.strip() else {}
        except ValueError:
            raise MappingRefused(field, "the arguments are not JSON") from None
    if not isinstance(arguments, Mapping):
        raise MappingRefused(field, "the arguments must be a JSON object")
    try:
        plain: dict[str, Any] = json.loads(json.dumps(dict(arguments)))
    except (TypeError, ValueError):
        raise MappingRefused(field, "the arguments must be JSON values") from None
    return plain


@dataclass(frozen=True)
class ToolCall:
    """One call a model made: the tool's name, its arguments (a JSON object) and the call's id."""

    name: str
    arguments: Mapping[str, Any]
    call_id: str
    description: str | None = None

    def approval(
        self,
        *,
        request_key: str,
        approvers: Sequence[str] | None = None,
        approver_groups: Sequence[str] | None = None,
        approver_roles: Sequence[str] | None = None,
        actions: Sequence[str] = TOOL_CALL_ACTIONS,
        title: str | None = None,
        timeout_seconds: int | None = None,
    ) -> dict[str, Any]:
        """The arguments of the MCP tool `request_approval` (docs/mcp.md) that ask for this call."""
        asked = {
            "title": title or f"Run {self.name}?",
            "description": self.description or f"The agent asks to call the tool {self.name}.",
            "artifact_id": self.call_id,
            "artifact_type": TOOL_CALL_ARTIFACT_TYPE,
            "artifact": dict(self.arguments),
            "actions": list(actions),
            "approvers": _listed(approvers),
            "approver_groups": _listed(approver_groups),
            "approver_roles": _listed(approver_roles),
            "timeout_seconds": timeout_seconds,
            "request_key": request_key,
        }
        return {name: value for name, value in asked.items() if value is not None}

    def question(
        self, *, request_key: str, timeout_seconds: int | None = None, prompt: str | None = None
    ) -> dict[str, Any]:
        """The arguments of the MCP tool `ask_question`: a person answers on the tool's behalf."""
        question = prompt or self.description or f"Answer for the tool {self.name}."
        asked: dict[str, Any] = {
            "questions": [{"id": ANSWER_ID, "question": question, "schema": {"type": "string"}}],
            "context": {"tool": self.name, "arguments": dict(self.arguments)},
            "request_key": request_key,
        }
        return asked | ({} if timeout_seconds is None else {"timeout_seconds": timeout_seconds})


@dataclass(frozen=True)
class ToolVerdict:
    """What a person decided about a call: run it (with `arguments`, edited or not) or not (`message`,
    the reviewer's comment, goes back to the model). `answer` is set when they answered on the tool's
    behalf (a clarification)."""

    approved: bool
    arguments: dict[str, Any] | None = None
    edited: bool = False
    message: str | None = None
    decided_by: str | None = None
    answer: str | None = None

    @classmethod
    def of(cls, status: str, resume_value: Any, call: ToolCall) -> ToolVerdict:
        """The verdict of an ended interrupt (`status`, `resumeValue` as get_interrupt shows them)."""
        if status != "resolved":
            return cls(approved=False, message=NO_DECISION)
        if isinstance(resume_value, Mapping) and "answers" in resume_value:
            answer = ClarificationAnswers.from_resume(resume_value).get(ANSWER_ID)
            return cls(approved=False, answer=str(answer), decided_by=_decider(resume_value))
        decision = ApprovalDecision.from_resume(resume_value)
        if decision.action == "edit-accept":
            edited = json_arguments(decision.edited_artifact_data, "resumeValue.editedArtifactData")
            return cls(True, edited, True, decision.feedback, decision.decided_by)
        if decision.accepted:
            return cls(True, dict(call.arguments), False, decision.feedback, decision.decided_by)
        if decision.rejected:
            return cls(False, message=decision.feedback, decided_by=decision.decided_by)
        raise MappingRefused("resumeValue.action", f"{decision.action!r} is not a decision on a tool call")


def _listed(names: Sequence[str] | None) -> list[str] | None:
    return None if names is None else list(names)


def _decider(resume_value: Mapping[str, Any]) -> str | None:
    decided_by = resume_value.get("decidedBy")
    return decided_by if isinstance(decided_by, str) else None
