"""Any JSON value as a policy: refused by name (InterruptPayloadInvalidError) or accepted — never
another exception, which would fail the Task's invocation instead of its task."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from waitgate.errors import InterruptPayloadInvalidError
from waitgate.escalation import parse_policy
from waitgate.escalation.deadline_decision import check_resolve_with

APPROVAL = {
    "kind": "approval",
    "key": "k",
    "timeoutMs": 60_000,
    "data": {"artifactId": "a", "artifactType": "t", "title": "x", "actions": ["accept", "reject"]},
}
CLARIFICATION = {
    "kind": "clarification",
    "key": "k",
    "timeoutMs": 60_000,
    "data": {"questions": [{"id": "q", "question": "?", "schema": {"type": "integer"}}]},
}
scalars = (
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text()
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
)
step = st.fixed_dictionaries(
    {"afterMs": st.integers(-5, 70_000) | json_values},
    optional={
        "remind": st.booleans() | json_values,
        "addApprovers": st.dictionaries(
            st.sampled_from(["approversList", "approverGroupRefs", "approverRoleRefs", "audience"]),
            st.lists(st.text(max_size=4), max_size=3) | json_values,
            max_size=3,
        ),
    },
)
policies = json_values | st.fixed_dictionaries(
    {},
    optional={
        "steps": st.lists(step, max_size=4) | json_values,
        "onDeadline": st.just("fail") | st.fixed_dictionaries({"resolveWith": json_values}) | json_values,
    },
)


def outcome(raw: Any, payload: dict[str, Any]) -> str:
    try:
        policy = parse_policy(raw, kind=payload["kind"], timeout_ms=payload["timeoutMs"])
        check_resolve_with(payload["kind"], payload, policy, "2026-11-30T10:00:00.000Z")
    except InterruptPayloadInvalidError as refused:
        assert refused.detail.startswith("escalation"), refused.detail
        return "refused"
    return "accepted"


@settings(max_examples=examples(300), deadline=None)
@given(policies)
def test_any_policy_is_accepted_or_refused_by_name(raw: Any) -> None:
    assert outcome(raw, APPROVAL) in ("accepted", "refused")
    assert outcome(raw, CLARIFICATION) in ("accepted", "refused")


@settings(max_examples=examples(200), deadline=None)
@given(json_values)
def test_any_deadline_value_is_accepted_or_refused_by_name(value: Any) -> None:
    raw = {"onDeadline": {"resolveWith": value}}
    assert outcome(raw, APPROVAL) in ("accepted", "refused")
    assert outcome(raw, CLARIFICATION) in ("accepted", "refused")
