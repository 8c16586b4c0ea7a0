"""The escalation policy builder and the Task state helper's `escalation` (docs/sdk.md)."""

from __future__ import annotations

from datetime import timedelta

import pytest

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.payloads.schema_cache import validator_for
from waitgate.schemas import load_schema
from waitgate.sdk import (
    Approval,
    ApprovalDecision,
    Approvers,
    Clarification,
    Escalation,
    EscalationStep,
    Question,
    ResolveWith,
    interrupt_task_state,
)

FUNCTION = "arn:aws:lambda:us-east-1:123456789012:function:waitgate-RequestInterrupt"
RELEASE = Approval(
    "release", artifact_id="r42", artifact_type="release", title="Ship 42?", timeout=timedelta(hours=12)
)
POLICY = Escalation(
    steps=[
        EscalationStep(after=timedelta(hours=4), remind=True),
        EscalationStep(
            after=timedelta(hours=8),
            remind=True,
            add_approvers=Approvers(approvers_list=["carol"], approver_group_refs=["release-leads"]),
        ),
    ],
    on_deadline=ResolveWith({"action": "reject", "feedback": "No decision in time."}),
)


def test_the_builder_gives_the_policy_the_schema_accepts() -> None:
    policy = POLICY.to_json()
    assert policy == {
        "steps": [
            {"afterMs": 14400000, "remind": True},
            {
                "afterMs": 28800000,
                "remind": True,
                "addApprovers": {"approversList": ["carol"], "approverGroupRefs": ["release-leads"]},
            },
        ],
        "onDeadline": {"resolveWith": {"action": "reject", "feedback": "No decision in time."}},
    }
    validator_for(load_schema("escalation-policy")).validate(policy)


def test_the_task_state_carries_the_policy_beside_the_interrupt() -> None:
    state = interrupt_task_state(RELEASE, function_arn=FUNCTION, escalation=POLICY)
    payload = state["Parameters"]["Payload"]
    assert payload["escalation"] == POLICY.to_json()
    assert "escalation" not in payload["interrupt"]


def test_the_policy_is_checked_against_the_interrupt() -> None:
    # a step after the interrupt's deadline, and approvers for a kind without any
    late = Escalation(steps=[EscalationStep(after=timedelta(hours=13), remind=True)])
    with pytest.raises(InterruptPayloadInvalidError, match=r"escalation.steps\[0\].afterMs"):
        interrupt_task_state(RELEASE, function_arn=FUNCTION, escalation=late)
    question = Clarification("region", questions=[Question.choice("region", "Which region?", ["eu", "us"])])
    adding = Escalation(steps=[EscalationStep(after=timedelta(hours=1), add_approvers=Approvers(["carol"]))])
    with pytest.raises(InterruptPayloadInvalidError, match="addApprovers"):
        interrupt_task_state(question, function_arn=FUNCTION, escalation=adding)
    # a template payload is left to the host, the policy checked on its own
    template = {"kind": "approval", "key": "k", "data.$": "$.data"}
    state = interrupt_task_state(template, function_arn=FUNCTION, escalation=adding)
    assert state["Parameters"]["Payload"]["escalation"]["steps"][0]["addApprovers"] == {
        "approversList": ["carol"]
    }


def test_a_policy_path_or_json_and_never_both() -> None:
    state = interrupt_task_state(RELEASE, function_arn=FUNCTION, escalation_path="$.escalation")
    assert state["Parameters"]["Payload"]["escalation.$"] == "$.escalation"
    as_json = {"steps": [{"afterMs": 1000, "remind": True}]}
    assert (
        interrupt_task_state(RELEASE, function_arn=FUNCTION, escalation=as_json)["Parameters"]["Payload"][
            "escalation"
        ]
        == as_json
    )
    with pytest.raises(ValueError, match="not both"):
        interrupt_task_state(RELEASE, function_arn=FUNCTION, escalation=as_json, escalation_path="$.e")
    with pytest.raises(InterruptPayloadInvalidError, match="strictly increasing"):
        Escalation(
            steps=[EscalationStep(timedelta(2), remind=True), EscalationStep(timedelta(1), remind=True)]
        ).to_json()


def test_a_decision_made_at_the_deadline_reads_as_one() -> None:
    value = {
        "action": "reject",
        "decidedAt": "2026-11-30T22:00:00.000Z",
        "decidedBy": "waitgate:deadline",
        "votes": [],
    }
    decision = ApprovalDecision.from_resume(value)
    assert decision.rejected and decision.by_deadline
    assert not ApprovalDecision.from_resume({**value, "decidedBy": "alice"}).by_deadline
