"""The escalation policy: what the host does while nobody answers an interrupt, and at its deadline.

Pure rules. The policy rides beside the InterruptPayload in the Task input (`escalation`), or comes
from the host's default for the tenant. `parse_policy` checks it against
schemas/v2/escalation-policy.schema.json and then the rules a JSON Schema cannot say:

- steps come in strictly increasing `afterMs` (a timeline, each step "from then on");
- every step comes before the interrupt's deadline (a step after it could never fire);
- `addApprovers` only where eligibility applies (approval, low-confidence);
- `onDeadline.resolveWith` needs a deadline (`timeoutMs`).

Whether `resolveWith` is a resume value the interrupt accepts is the resume rules' question
(escalation/deadline_decision.py). Every refusal is an InterruptPayloadInvalidError naming the member.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from waitgate.approval import AddedApprovers, ApproverFields
from waitgate.errors import InterruptPayloadInvalidError, ValidationFailedError
from waitgate.payloads.json_rules import encoded_size
from waitgate.payloads.schema_cache import validate_against_schema
from waitgate.run.size_limits import MAX_ESCALATION_BYTES
from waitgate.schemas import load_schema

ESCALATION_POLICY = "escalation-policy"
MEMBER = "escalation"
ELIGIBILITY_KINDS: frozenset[str] = frozenset({"approval", "low-confidence"})
_APPROVER_FIELDS = ("approversList", "approverGroupRefs", "approverRoleRefs")


@dataclass(frozen=True)
class Step:
    """One step of the timeline: `after_ms` after the request; `index` is its place in `steps`."""

    index: int
    after_ms: int
    remind: bool = False
    add_approvers: ApproverFields | None = None

    def due(self, requested_at: datetime) -> datetime:
        return requested_at + timedelta(milliseconds=self.after_ms)

    def added(self) -> AddedApprovers | None:
        return None if self.add_approvers is None else AddedApprovers(self.index, self.add_approvers)


@dataclass(frozen=True)
class EscalationPolicy:
    """A checked policy. `resolves_at_deadline`: `onDeadline` is `{resolveWith}`, else `"fail"`."""

    steps: tuple[Step, ...] = ()
    resolves_at_deadline: bool = False
    resolve_with: Any = None

    @property
    def is_empty(self) -> bool:
        return not self.steps and not self.resolves_at_deadline

    def step(self, index: int) -> Step | None:
        return self.steps[index] if 0 <= index < len(self.steps) else None

    def added_approvers(self, fired: tuple[int, ...]) -> tuple[AddedApprovers, ...]:
        """What the fired steps added, in step order: eligible from each step on."""
        found = (step.added() for step in self.steps if step.index in fired)
        return tuple(added for added in found if added is not None)


def check_policy(raw: Any) -> EscalationPolicy:
    """The policy on its own: the schema, the size limit and increasing steps (what the SDK and the
    host defaults can check without an interrupt); InterruptPayloadInvalidError otherwise."""
    _check_shape(raw)
    policy = policy_from_json(raw)
    _check_timeline(policy, None)
    return policy


def parse_policy(raw: Any, *, kind: str, timeout_ms: int | None) -> EscalationPolicy:
    """The policy a workflow sent with its interrupt, checked; InterruptPayloadInvalidError otherwise."""
    policy = check_policy(raw)
    _check_timeline(policy, timeout_ms)
    for step in policy.steps:
        if step.add_approvers is not None and kind not in ELIGIBILITY_KINDS:
            raise InterruptPayloadInvalidError(
                f"{MEMBER}.steps[{step.index}].addApprovers: a {kind} interrupt has no approvers "
                "(only approval and low-confidence do)."
            )
    if policy.resolves_at_deadline and timeout_ms is None:
        raise InterruptPayloadInvalidError(
            f"{MEMBER}.onDeadline.resolveWith: the interrupt has no deadline (set its timeoutMs)."
        )
    return policy


def policy_from_json(document: Mapping[str, Any]) -> EscalationPolicy:
    """The policy of a document already checked against the schema (as stored with the interrupt)."""
    steps = tuple(_step(index, step) for index, step in enumerate(document.get("steps", ())))
    on_deadline = document.get("onDeadline", "fail")
    if isinstance(on_deadline, Mapping):
        return EscalationPolicy(steps, resolves_at_deadline=True, resolve_with=on_deadline["resolveWith"])
    return EscalationPolicy(steps)


def _step(index: int, step: Mapping[str, Any]) -> Step:
    added = step.get("addApprovers")
    fields = None
    if added is not None:
        fields = ApproverFields(
            approvers_list=_strings(added.get("approversList")),
            approver_group_refs=_strings(added.get("approverGroupRefs")),
            approver_role_refs=_strings(added.get("approverRoleRefs")),
        )
    return Step(index, int(step["afterMs"]), bool(step.get("remind", False)), fields)


def _strings(value: Any) -> tuple[str, ...] | None:
    return None if value is None else tuple(value)


def _check_shape(raw: Any) -> None:
    size = encoded_size(raw)
    if size > MAX_ESCALATION_BYTES:
        raise InterruptPayloadInvalidError(
            f"{MEMBER}: the policy is {size:,} bytes as JSON; at most {MAX_ESCALATION_BYTES:,} are allowed."
        )
    try:
        validate_against_schema(raw, load_schema(ESCALATION_POLICY), MEMBER)
    except ValidationFailedError as error:
        raise InterruptPayloadInvalidError(error.detail) from None


def _check_timeline(policy: EscalationPolicy, timeout_ms: int | None) -> None:
    previous = 0
    for step in policy.steps:
        where = f"{MEMBER}.steps[{step.index}].afterMs"
        if step.after_ms <= previous:
            raise InterruptPayloadInvalidError(
                f"{where}: steps come in strictly increasing afterMs ({step.after_ms} follows {previous})."
            )
        if timeout_ms is not None and step.after_ms >= timeout_ms:
            raise InterruptPayloadInvalidError(
                f"{where}: {step.after_ms} is not before the interrupt's deadline (timeoutMs {timeout_ms})."
            )
        previous = step.after_ms


def to_json(policy: EscalationPolicy) -> dict[str, Any]:
    """The policy as stored with the interrupt (and as the schema reads it)."""
    document: dict[str, Any] = {}
    if policy.steps:
        document["steps"] = [_step_json(step) for step in policy.steps]
    if policy.resolves_at_deadline:
        document["onDeadline"] = {"resolveWith": policy.resolve_with}
    return document


def _step_json(step: Step) -> dict[str, Any]:
    document: dict[str, Any] = {"afterMs": step.after_ms}
    if step.remind:
        document["remind"] = True
    if step.add_approvers is not None:
        fields = step.add_approvers
        values = (fields.approvers_list, fields.approver_group_refs, fields.approver_role_refs)
        document["addApprovers"] = {
            name: list(value) for name, value in zip(_APPROVER_FIELDS, values, strict=True) if value
        }
    return document
