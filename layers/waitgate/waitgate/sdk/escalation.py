"""The escalation policy builder: what the host does while nobody answers, and at the deadline.

    Escalation(
        steps=[
            EscalationStep(after=timedelta(hours=4), remind=True),
            EscalationStep(after=timedelta(hours=8), remind=True, add_approvers=Approvers(
                approvers_list=["carol"], approver_group_refs=["release-leads"])),
        ],
        on_deadline=ResolveWith({"action": "reject", "feedback": "No decision in time."}),
    ).to_json()

The policy rides beside the interrupt (`interrupt_task_state(..., escalation=...)`), never inside the
payload. `to_json()` checks it against schemas/v2/escalation-policy.schema.json and its timeline rule;
`for_interrupt(payload)` also against the interrupt (steps before its deadline, approvers only where
there are some, a deadline for `resolveWith`). Whether `resolveWith` is a resume value the interrupt
accepts the host checks when the interrupt is requested (docs/escalation.md).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from waitgate.escalation import check_policy, parse_policy
from waitgate.sdk.builders import timeout_ms


@dataclass(frozen=True)
class Approvers:
    """Who a step adds: the eligibility fields of an approval (honoured as the host's refKinds say)."""

    approvers_list: Sequence[str] | None = None
    approver_group_refs: Sequence[str] | None = None
    approver_role_refs: Sequence[str] | None = None

    def to_json(self) -> dict[str, list[str]]:
        fields = {
            "approversList": self.approvers_list,
            "approverGroupRefs": self.approver_group_refs,
            "approverRoleRefs": self.approver_role_refs,
        }
        return {name: list(value) for name, value in fields.items() if value is not None}


@dataclass(frozen=True)
class EscalationStep:
    """`after` the request: remind those who have not voted, add approvers, or both."""

    after: timedelta
    remind: bool = False
    add_approvers: Approvers | None = None

    def to_json(self) -> dict[str, Any]:
        step: dict[str, Any] = {"afterMs": timeout_ms(self.after)}
        if self.remind:
            step["remind"] = True
        if self.add_approvers is not None:
            step["addApprovers"] = self.add_approvers.to_json()
        return step


@dataclass(frozen=True)
class ResolveWith:
    """The decision at the deadline: a resume value of the interrupt's kind (an approval's without
    `decidedAt`/`decidedBy`: the host sets them, `decidedBy: "waitgate:deadline"`)."""

    value: Any


@dataclass(frozen=True)
class Escalation:
    steps: Sequence[EscalationStep] = ()
    on_deadline: Literal["fail"] | ResolveWith = "fail"

    def to_json(self) -> dict[str, Any]:
        """The policy as the Task sends it, checked on its own (InterruptPayloadInvalidError if not)."""
        policy: dict[str, Any] = {"steps": [step.to_json() for step in self.steps]}
        if isinstance(self.on_deadline, ResolveWith):
            policy["onDeadline"] = {"resolveWith": self.on_deadline.value}
        return checked_policy(policy)

    def for_interrupt(self, payload: Mapping[str, Any]) -> dict[str, Any]:
        """`to_json()`, also checked against the interrupt it rides beside."""
        return checked_policy(self.to_json(), payload)


def checked_policy(
    policy: Escalation | Mapping[str, Any], payload: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """The policy's JSON, checked on its own and, given the interrupt's payload, against it too."""
    document = policy.to_json() if isinstance(policy, Escalation) else dict(policy)
    if payload is None:
        check_policy(document)
    else:
        timeout = payload.get("timeoutMs")
        parse_policy(
            document, kind=str(payload.get("kind")), timeout_ms=timeout if isinstance(timeout, int) else None
        )
    return document
