"""Read agentflow's interrupt payloads and turn them into waitgate kinds.

agentflow (its convention in short: docs/agentflow-interrupts.md) passes plain dataclasses' dicts with a
`type` discriminator to `ctx.interrupt`: `QualityGateReview` ("quality_gate"), `ClarificationRequest`
("clarification"), and raises a `PermissionRequest` (duck-typed: it has `tool` and `options`).
Nothing here imports agentflow: both the objects and their `to_payload()` dicts are read by shape.
Field by field mapping: docs/sdk.md, "agentflow interop".
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from waitgate.payloads import INTERRUPT_KINDS, ApprovalAction
from waitgate.sdk.builders import DEFAULT_ACTIONS, Approval, Clarification, InterruptBuilder, Question

QUALITY_GATE_ARTIFACT_TYPE = "quality-gate"
PERMISSION_ARTIFACT_TYPE = "tool-call"
CLARIFICATION_QUESTION_ID = "answer"
# Members of a permission request carried into the approval's artifact when present.
PERMISSION_MEMBERS = ("tool", "options", "arguments", "input", "reason")


def interrupt_kind(payload: Any) -> str | None:
    """The kind of any interrupt payload, or None for a free-form one.

    - ours: a dict (or builder, or parsed model) whose `kind` is one of the eight kinds;
    - agentflow's: a dict whose `type` is a string ("quality_gate", "clarification", any other);
    - a permission request: an object with attributes `tool` and `options` → "permission";
    - anything else → None (treat it as free-form).
    """
    if isinstance(payload, (InterruptBuilder, BaseModel)):
        kind = getattr(payload, "kind", None)
        return kind if isinstance(kind, str) else None
    if isinstance(payload, Mapping):
        kind, type_ = payload.get("kind"), payload.get("type")
        if isinstance(kind, str) and kind in INTERRUPT_KINDS:
            return kind
        return type_ if isinstance(type_, str) else None
    if hasattr(payload, "tool") and hasattr(payload, "options"):
        return "permission"
    return None


def artifact_id_of(artifact: Any) -> str:
    """`sha256-<32 hex>` of the artifact's canonical JSON (sorted keys, no spaces): the same
    artifact gives the same id in every process."""
    canonical = json.dumps(_plain(artifact), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return "sha256-" + hashlib.sha256(canonical.encode("utf-8")).hexdigest()[:32]


def from_quality_gate(review: Any, *, key: str, **approval: Any) -> Approval:
    """A QualityGateReview (or its `to_payload()` dict) as an approval of its artifact.

    `approval` passes further Approval arguments (approvers_list, timeout, actions, ...).
    """
    members = _members_of(review, ("artifact", "criteria", "auto_score", "reasons", "gate"))
    artifact = _plain(members.get("artifact"))
    gate = members.get("gate")
    fields: dict[str, Any] = {
        "artifact_id": artifact_id_of(artifact),
        "artifact_type": QUALITY_GATE_ARTIFACT_TYPE,
        "title": f"Quality gate: {gate}" if gate else "Quality gate review",
        "artifact": artifact,
        "criteria": tuple(members.get("criteria") or ()) or None,
        "auto_score": members.get("auto_score"),
        "reasons": tuple(members.get("reasons") or ()) or None,
    }
    return Approval(key, **(fields | approval))


def from_clarification(
    request: Any, *, key: str, question_id: str = CLARIFICATION_QUESTION_ID, **clarification: Any
) -> Clarification:
    """A ClarificationRequest (or its dict) as one question: `options` become an `enum` schema,
    no options a free-text answer (`{"type": "string"}`); `context` becomes `data.context`."""
    members = _members_of(request, ("question", "options", "context"))
    options = list(members.get("options") or ())
    schema: dict[str, Any] = {"enum": options} if options else {"type": "string"}
    context = _plain(members.get("context")) or None
    question = Question(question_id, str(members.get("question", "")), schema)
    return Clarification(key, questions=(question,), context=context, **clarification)


def from_permission(
    request: Any,
    *,
    key: str,
    actions: Sequence[ApprovalAction] = DEFAULT_ACTIONS,
    **approval: Any,
) -> Approval:
    """A permission request (an object with `tool` and `options`) as an approval of the tool call:
    accept allows it, reject refuses it."""
    present = {name: getattr(request, name) for name in PERMISSION_MEMBERS if hasattr(request, name)}
    artifact = _plain(present | {"tool": tool_name(request.tool)})
    fields: dict[str, Any] = {
        "artifact_id": artifact_id_of(artifact),
        "artifact_type": PERMISSION_ARTIFACT_TYPE,
        "title": f"Allow {tool_name(request.tool)}?",
        "artifact": artifact,
        "actions": actions,
    }
    return Approval(key, **(fields | approval))


def from_agentflow(payload: Any, *, key: str) -> InterruptBuilder | None:
    """Any agentflow payload as a builder by its kind, or None when it is not one of the three."""
    kind = interrupt_kind(payload) if not dataclasses.is_dataclass(payload) else _dataclass_kind(payload)
    if kind == "quality_gate":
        return from_quality_gate(payload, key=key)
    if kind == "clarification":
        return from_clarification(payload, key=key)
    if kind == "permission":
        return from_permission(payload, key=key)
    return None


def tool_name(tool: Any) -> str:
    """A tool named by a string, or an object with a `name`."""
    return tool if isinstance(tool, str) else str(getattr(tool, "name", tool))


def _dataclass_kind(payload: Any) -> str | None:
    if hasattr(payload, "tool") and hasattr(payload, "options"):
        return "permission"
    to_payload = getattr(payload, "to_payload", None)
    return interrupt_kind(to_payload()) if callable(to_payload) else None


def _members_of(source: Any, names: Sequence[str]) -> dict[str, Any]:
    """The named members of a dict or an object that has them as attributes."""
    if isinstance(source, Mapping):
        return {name: source[name] for name in names if name in source}
    return {name: getattr(source, name) for name in names if hasattr(source, name)}


def _plain(value: Any) -> Any:
    """Dataclasses as dicts, tuples as lists: the JSON shape agentflow's `asdict` would give."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _plain(dataclasses.asdict(value))
    if isinstance(value, Mapping):
        return {str(name): _plain(member) for name, member in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    return value
