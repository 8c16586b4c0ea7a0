"""Builders: every kind's output is valid against the JSON Schema and the models, snake_case in,
camelCase out, defaults left to the host."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from waitgate.errors import InterruptPayloadInvalidError
from waitgate.payloads import parse_interrupt_payload
from waitgate.sdk import (
    Approval,
    Clarification,
    ConversationClose,
    ConversationExchange,
    ConversationStart,
    Custom,
    ExternalEvent,
    InterruptBuilder,
    LowConfidence,
    Question,
)

FULL_APPROVAL = Approval(
    "release-42",
    artifact_id="r42",
    artifact_type="release",
    title="Ship release 42?",
    actions=("accept", "reject", "refine", "edit-accept", "ask"),
    artifact={"version": "42", "notes": ["fix"]},
    description="Changes since 41",
    required_approvals=2,
    rejection_policy="majority",
    override_bypasses_quorum=True,
    approvers_list=("alice", "bob"),
    approver_group_refs=("release-managers",),
    approver_role_refs=("sre",),
    audience=("team-release",),
    criteria=("tests green",),
    auto_score=0.62,
    reasons=("coverage dropped",),
    timeout=timedelta(hours=4),
    resume_schema={"type": "object"},
    metadata={"ticket": "REL-42"},
)

EVERY_KIND: list[InterruptBuilder] = [
    Approval("a-min", artifact_id="a", artifact_type="doc", title="Approve?"),
    FULL_APPROVAL,
    Clarification(
        "deploy",
        questions=(
            Question.choice("region", "Which region?", ["eu-west-1", "us-east-1"]),
            Question("replicas", "How many?", {"type": "integer", "minimum": 1}),
            Question("notes", "Anything else?"),
        ),
        context={"service": "api"},
    ),
    ExternalEvent("payment", event_type="payment.succeeded", correlation={"orderId": "ord_9"}),
    Custom("label", custom_kind="acme.shipping-label", payload={"carrier": "DHL", "parcels": 2}),
    Custom("bare", custom_kind="acme.ping"),
    ConversationStart("start", conversation_id="c-1", topic="scope", participants=("alice",)),
    ConversationExchange(
        "turn-1", conversation_id="c-1", prompt="Which services?", outcome_schema={"type": "object"}
    ),
    ConversationClose("close", conversation_id="c-1", reason="done"),
    LowConfidence(
        "lc", agent_id="triage", threshold=0.7, observed=0.41, decision={"label": "spam"}, reasons=("short",)
    ),
]


@pytest.mark.parametrize("builder", EVERY_KIND, ids=lambda builder: f"{builder.kind}:{builder.key}")
def test_every_builder_output_is_schema_valid(
    builder: InterruptBuilder, schema: Draft202012Validator
) -> None:
    # Given a builder of some kind
    # When it renders its payload
    payload = builder.to_payload()
    # Then the JSON Schema and the models both accept it, with the builder's kind and key
    assert list(schema.iter_errors(payload)) == []
    assert parse_interrupt_payload(payload).kind == builder.kind
    assert (payload["kind"], payload["key"]) == (builder.kind, builder.key)


def test_every_kind_has_a_builder() -> None:
    # Given the eight kinds, Then each has a builder in the corpus above
    from waitgate.payloads import INTERRUPT_KINDS

    assert {builder.kind for builder in EVERY_KIND} == set(INTERRUPT_KINDS)


def test_approval_fields_are_the_json_members() -> None:
    # Given an approval with every field
    # When rendered
    payload = FULL_APPROVAL.to_payload()
    # Then each snake_case argument is its camelCase member; the timeout is in milliseconds
    assert payload["timeoutMs"] == 4 * 3600 * 1000
    assert payload["resumeSchema"] == {"type": "object"}
    assert payload["metadata"] == {"ticket": "REL-42"}
    data = payload["data"]
    assert data["requiredApprovals"] == 2
    assert data["rejectionPolicy"] == "majority"
    assert data["overrideBypassesQuorum"] is True
    assert data["approversList"] == ["alice", "bob"]
    assert data["approverGroupRefs"] == ["release-managers"]
    assert data["approverRoleRefs"] == ["sre"]
    assert data["audience"] == ["team-release"]
    assert (data["criteria"], data["autoScore"], data["reasons"]) == (
        ["tests green"],
        0.62,
        ["coverage dropped"],
    )


def test_defaults_are_left_to_the_host() -> None:
    # Given a minimal approval
    payload = Approval("k", artifact_id="a", artifact_type="doc", title="T").to_payload()
    # Then actions default to accept/reject, and nothing else is sent
    assert payload == {
        "kind": "approval",
        "key": "k",
        "data": {"artifactId": "a", "artifactType": "doc", "title": "T", "actions": ["accept", "reject"]},
    }


def test_choice_question_is_an_enum_schema() -> None:
    # Given a choice question, Then its schema is an enum of the options
    assert Question.choice("r", "Which?", ["eu", "us"]).to_json() == {
        "id": "r",
        "question": "Which?",
        "schema": {"enum": ["eu", "us"]},
    }


@pytest.mark.parametrize(
    ("builder", "path"),
    [
        (Approval("k", artifact_id="", artifact_type="doc", title="T"), "data.artifactId"),
        (
            Approval("k", artifact_id="a", artifact_type="doc", title="T", actions=("maybe",)),
            "data.actions[0]",
        ),  # type: ignore[arg-type]
        (
            Approval("k", artifact_id="a", artifact_type="doc", title="T", required_approvals=0),
            "data.requiredApprovals",
        ),
        (Clarification("k", questions=()), "data.questions"),
        (Clarification("k", questions=(Question("a", "A?"), Question("a", "B?"))), "data.questions"),
        (ExternalEvent("k", event_type="e", correlation={}), "data.correlation"),
        (LowConfidence("k", agent_id="x", threshold=1.5, observed=0.2), "data.threshold"),
        (Custom("", custom_kind="c"), "key"),
        (
            ConversationExchange("k", conversation_id="c", prompt="p", outcome_schema={"type": 3}),
            "data.outcomeSchema",
        ),
    ],
)
def test_invalid_builders_are_refused_naming_the_member(builder: InterruptBuilder, path: str) -> None:
    # Given a builder that breaks a schema rule
    # When it renders, Then InterruptPayloadInvalidError names the member
    with pytest.raises(InterruptPayloadInvalidError) as refused:
        builder.to_payload()
    assert refused.value.detail.startswith(path)


def test_a_zero_timeout_is_refused() -> None:
    # Given a timeout below one millisecond, Then it is refused before the schema
    with pytest.raises(InterruptPayloadInvalidError, match="timeoutMs"):
        Custom("k", custom_kind="c", timeout=timedelta(0)).to_payload()


def test_builders_are_frozen_and_key_is_positional() -> None:
    # Given a builder
    builder = Custom("k", custom_kind="c")
    # Then it cannot be changed, and every field but key is keyword-only
    with pytest.raises(AttributeError):
        builder.key = "other"  # type: ignore[misc]
    with pytest.raises(TypeError):
        Custom("k", "c")  # type: ignore[misc]


def test_integer_numbers_are_accepted_where_the_schema_says_number() -> None:
    # Given whole numbers for number members
    values: dict[str, Any] = {"threshold": 1, "observed": 0}
    # Then the payload is valid (JSON does not tell 1 from 1.0)
    assert LowConfidence("k", agent_id="a", **values).to_payload()["data"]["threshold"] == 1
