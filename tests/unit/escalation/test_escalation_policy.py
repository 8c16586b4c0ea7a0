"""The escalation policy's own rules (waitgate/escalation): the published schema, a timeline of steps
before the deadline, addApprovers only where eligibility applies, and the host's default per tenant."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from waitgate.approval import ApproverFields
from waitgate.errors import InterruptPayloadInvalidError
from waitgate.escalation import (
    EscalationPolicy,
    check_host_defaults,
    default_for,
    parse_policy,
    policy_from_json,
    to_json,
)
from waitgate.payloads.schema_cache import validator_for
from waitgate.run.size_limits import MAX_ESCALATION_BYTES
from waitgate.schemas import load_schema

ISSUE_EXAMPLE = {
    "steps": [
        {"afterMs": 14400000, "remind": True},
        {
            "afterMs": 28800000,
            "addApprovers": {"approversList": ["carol"], "approverGroupRefs": ["release-leads"]},
            "remind": True,
        },
    ],
    "onDeadline": "fail",
}


def refusal(raw: Any, kind: str = "approval", timeout_ms: int | None = None) -> str:
    with pytest.raises(InterruptPayloadInvalidError) as refused:
        parse_policy(raw, kind=kind, timeout_ms=timeout_ms)
    return refused.value.detail


def test_the_issues_example_is_a_valid_policy() -> None:
    # Given the policy of issue 17, When it is parsed for an approval
    policy = parse_policy(ISSUE_EXAMPLE, kind="approval", timeout_ms=None)
    # Then it has two steps, numbered in order, and fails at the deadline
    assert [(step.index, step.after_ms, step.remind) for step in policy.steps] == [
        (0, 14400000, True),
        (1, 28800000, True),
    ]
    assert policy.steps[1].add_approvers == ApproverFields(("carol",), ("release-leads",), None)
    assert not policy.resolves_at_deadline
    # And it is what the published schema accepts, stored as it reads
    validator_for(load_schema("escalation-policy")).validate(ISSUE_EXAMPLE)
    assert to_json(policy) == {k: v for k, v in ISSUE_EXAMPLE.items() if k != "onDeadline"}


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ({"steps": [{"afterMs": 1000}]}, "escalation.steps[0]: 'remind' is a required property"),
        ({"steps": [{"afterMs": 1000, "remind": False}]}, "escalation.steps[0].remind"),
        ({"steps": [{"afterMs": 0, "remind": True}]}, "escalation.steps[0].afterMs"),
        ({"steps": [{"afterMs": "1000", "remind": True}]}, "escalation.steps[0].afterMs"),
        ({"steps": [{"afterMs": 1, "addApprovers": {}}]}, "escalation.steps[0].addApprovers"),
        ({"steps": [{"afterMs": 1, "addApprovers": {"approversList": []}}]}, "approversList"),
        (
            {"steps": [{"afterMs": 1, "addApprovers": {"audience": ["x"]}}]},
            "escalation.steps[0].addApprovers",
        ),
        ({"onDeadline": "pass"}, "escalation.onDeadline"),
        ({"onDeadline": {"resolveWith": 1, "also": 2}}, "escalation.onDeadline"),
        ({"onDeadline": {}}, "escalation.onDeadline"),
        ({"steps": [], "later": True}, "escalation"),
        ([], "escalation"),
        ({"steps": [{"afterMs": i + 1, "remind": True} for i in range(9)]}, "escalation.steps"),
    ],
)
def test_a_policy_the_schema_refuses_is_refused_by_name(raw: Any, named: str) -> None:
    assert named in refusal(raw)


def test_steps_come_in_strictly_increasing_order() -> None:
    raw = {"steps": [{"afterMs": 2000, "remind": True}, {"afterMs": 2000, "remind": True}]}
    assert refusal(raw).startswith("escalation.steps[1].afterMs: steps come in strictly increasing")


def test_a_step_at_or_after_the_deadline_is_refused() -> None:
    raw = {"steps": [{"afterMs": 1000, "remind": True}, {"afterMs": 5000, "remind": True}]}
    assert "escalation.steps[1].afterMs: 5000 is not before" in refusal(raw, timeout_ms=5000)
    assert len(parse_policy(raw, kind="custom", timeout_ms=5001).steps) == 2


@pytest.mark.parametrize("kind", ["clarification", "external-event", "custom", "conversation.start"])
def test_add_approvers_is_only_for_kinds_with_approvers(kind: str) -> None:
    raw = {"steps": [{"afterMs": 1000, "addApprovers": {"approversList": ["carol"]}}]}
    assert refusal(raw, kind=kind).startswith("escalation.steps[0].addApprovers: a " + kind)
    # And reminders work for every kind
    assert parse_policy({"steps": [{"afterMs": 1000, "remind": True}]}, kind=kind, timeout_ms=None).steps


@pytest.mark.parametrize("kind", ["approval", "low-confidence"])
def test_add_approvers_is_for_approvals_and_low_confidence(kind: str) -> None:
    raw = {"steps": [{"afterMs": 1000, "addApprovers": {"approverRoleRefs": ["sre"]}}]}
    (step,) = parse_policy(raw, kind=kind, timeout_ms=None).steps
    assert step.add_approvers == ApproverFields(None, None, ("sre",)) and not step.remind


def test_resolve_with_needs_a_deadline() -> None:
    raw = {"onDeadline": {"resolveWith": {"received": False}}}
    assert refusal(raw, kind="external-event") == (
        "escalation.onDeadline.resolveWith: the interrupt has no deadline (set its timeoutMs)."
    )
    policy = parse_policy(raw, kind="external-event", timeout_ms=60_000)
    assert policy.resolves_at_deadline and policy.resolve_with == {"received": False}


def test_a_policy_over_its_size_limit_is_refused() -> None:
    huge = {"onDeadline": {"resolveWith": {"note": "x" * MAX_ESCALATION_BYTES}}}
    assert refusal(huge, timeout_ms=1000).startswith("escalation: the policy is 16,")


def test_the_approvers_of_fired_steps_are_added_in_step_order() -> None:
    policy = policy_from_json(
        {
            "steps": [
                {"afterMs": 1, "addApprovers": {"approversList": ["carol"]}},
                {"afterMs": 2, "remind": True},
                {"afterMs": 3, "addApprovers": {"approverGroupRefs": ["leads"]}},
            ]
        }
    )
    assert policy.added_approvers(()) == ()
    assert [a.matched_by for a in policy.added_approvers((2, 0))] == ["escalation:0", "escalation:2"]
    assert [a.matched_by for a in policy.added_approvers((1,))] == []


def test_a_step_is_due_after_the_request() -> None:
    (step,) = policy_from_json({"steps": [{"afterMs": 1500, "remind": True}]}).steps
    requested = datetime(2026, 11, 30, 10, 0, tzinfo=UTC)
    assert step.due(requested) == datetime(2026, 11, 30, 10, 0, 1, 500000, tzinfo=UTC)


DEFAULTS = {
    "*": {"steps": [{"afterMs": 3_600_000, "remind": True}]},
    "acme": {
        "steps": [
            {"afterMs": 1000, "remind": True},
            {"afterMs": 2000, "addApprovers": {"approverGroupRefs": ["acme-leads"]}},
            {"afterMs": 3000, "addApprovers": {"approversList": ["boss"]}, "remind": True},
        ]
    },
}


def test_a_tenant_has_its_own_default_else_the_wildcard() -> None:
    defaults = check_host_defaults(DEFAULTS)
    own = default_for(defaults, "acme", kind="approval", timeout_ms=None)
    other = default_for(defaults, "globex", kind="approval", timeout_ms=None)
    assert own is not None and len(own.steps) == 3
    assert other is not None and [s.after_ms for s in other.steps] == [3_600_000]
    assert default_for({}, "acme", kind="approval", timeout_ms=None) is None


def test_a_default_is_fitted_to_the_interrupt() -> None:
    defaults = check_host_defaults(DEFAULTS)
    # a kind without approvers keeps the reminders only (renumbered as stored)
    fitted = default_for(defaults, "acme", kind="clarification", timeout_ms=None)
    assert fitted is not None
    assert to_json(fitted) == {
        "steps": [{"afterMs": 1000, "remind": True}, {"afterMs": 3000, "remind": True}]
    }
    # steps at or after the deadline are dropped; nothing left: no policy
    assert default_for(defaults, "acme", kind="approval", timeout_ms=2000) == EscalationPolicy(
        policy_from_json({"steps": [{"afterMs": 1000, "remind": True}]}).steps
    )
    assert default_for(defaults, "globex", kind="approval", timeout_ms=60_000) is None


@pytest.mark.parametrize(
    ("raw", "named"),
    [
        ([], "must be a JSON object"),
        ({"": {}}, "must be a JSON object"),
        (
            {"acme": {"steps": [{"afterMs": 0, "remind": True}]}},
            "EscalationDefaults['acme']: escalation.steps",
        ),
        ({"*": {"onDeadline": {"resolveWith": {"action": "accept"}}}}, "a host default never decides"),
    ],
)
def test_wrong_host_defaults_fail_loudly(raw: Any, named: str) -> None:
    with pytest.raises(ValueError, match="EscalationDefaults") as refused:
        check_host_defaults(raw)
    assert named in str(refused.value)
