"""agentflow interop: the reference's own examples read back with the right kind, and convert to
valid waitgate payloads (field by field as docs/sdk.md says)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from tests.unit.sdk.agentflow_doubles import (
    ClarificationRequest,
    PermissionRequest,
    QualityGateReview,
    interrupt_type,
)
from waitgate.payloads import INTERRUPT_KINDS
from waitgate.sdk import (
    Approval,
    Custom,
    artifact_id_of,
    from_agentflow,
    from_clarification,
    from_permission,
    from_quality_gate,
    interrupt_kind,
)
from waitgate.sdk.builders import InterruptBuilder

ASK = ClarificationRequest(question="Which region?", options=["eu", "us"])
REVIEW = QualityGateReview(
    artifact={"summary": "Q3 report", "sections": ["intro", "numbers"]},
    criteria=["cites sources", "no PII"],
    auto_score=0.55,
    reasons=["two uncited claims"],
    gate="report-quality",
)
PERMISSION = PermissionRequest(tool="shell", options=["allow", "deny"], arguments={"cmd": "rm -rf build"})


def valid(builder: InterruptBuilder, schema: Draft202012Validator) -> dict[str, Any]:
    payload = builder.to_payload()
    assert list(schema.iter_errors(payload)) == []
    return payload


@pytest.mark.parametrize(
    ("payload", "kind"),
    [
        (ASK.to_payload(), "clarification"),
        (REVIEW.to_payload(), "quality_gate"),
        ({"type": "budget_check", "limit": 10}, "budget_check"),
        (PERMISSION, "permission"),
        (SimpleNamespace(tool="http", options=[]), "permission"),
        ({"free": "form"}, None),
        ("just a string", None),
        (None, None),
        ({"type": 3}, None),
        ({"tool": "x", "options": []}, None),  # a dict is read by its type, as agentflow does
    ],
)
def test_agentflow_payloads_read_as_agentflow_reads_them(payload: Any, kind: str | None) -> None:
    # Given any agentflow-style payload
    # Then our reader gives the kind agentflow's own interrupt_type gives
    assert interrupt_kind(payload) == kind == interrupt_type(payload)


def test_our_payloads_read_by_kind() -> None:
    # Given our payloads as dicts, builders and parsed models
    builder = Custom("k", custom_kind="acme.x")
    # Then the kind is read from `kind`
    assert interrupt_kind(builder) == "custom"
    assert interrupt_kind(builder.to_payload()) == "custom"
    for kind in INTERRUPT_KINDS:
        assert interrupt_kind({"kind": kind, "key": "k", "data": {}}) == kind
    # And an unknown `kind` falls back to agentflow's `type`, else None
    assert interrupt_kind({"kind": "nope", "type": "clarification"}) == "clarification"
    assert interrupt_kind({"kind": "nope"}) is None


@pytest.mark.parametrize("source", [ASK, ASK.to_payload()], ids=["object", "dict"])
def test_clarification_becomes_one_enum_question(source: Any, schema: Draft202012Validator) -> None:
    # Given the reference's own ClarificationRequest (object or its dict)
    # When adapted
    payload = valid(from_clarification(source, key="region"), schema)
    # Then it is one question whose schema is the options' enum
    assert payload == {
        "kind": "clarification",
        "key": "region",
        "data": {
            "questions": [{"id": "answer", "question": "Which region?", "schema": {"enum": ["eu", "us"]}}]
        },
    }


def test_clarification_without_options_is_free_text(schema: Draft202012Validator) -> None:
    # Given a request with no options and a context
    request = ClarificationRequest(question="Why?", context={"step": 3})
    # Then the answer is a string and the context is carried
    data = valid(from_clarification(request, key="why", question_id="why"), schema)["data"]
    assert data == {
        "questions": [{"id": "why", "question": "Why?", "schema": {"type": "string"}}],
        "context": {"step": 3},
    }


@pytest.mark.parametrize("source", [REVIEW, REVIEW.to_payload()], ids=["object", "dict"])
def test_quality_gate_becomes_an_approval_with_its_assessment(
    source: Any, schema: Draft202012Validator
) -> None:
    # Given a QualityGateReview (object or dict)
    # When adapted, with an extra approver
    payload = valid(from_quality_gate(source, key="report", approvers_list=("alice",)), schema)
    data = payload["data"]
    # Then criteria, score and reasons travel, titled by the gate, over the artifact
    assert data["artifactType"] == "quality-gate"
    assert data["title"] == "Quality gate: report-quality"
    assert data["artifact"] == REVIEW.artifact
    assert (data["criteria"], data["autoScore"], data["reasons"]) == (
        ["cites sources", "no PII"],
        0.55,
        ["two uncited claims"],
    )
    assert data["actions"] == ["accept", "reject"]
    assert data["approversList"] == ["alice"]
    # And the artifact id is the artifact's JSON hash, the same for an equal artifact in any key order
    reordered = {"sections": ["intro", "numbers"], "summary": "Q3 report"}
    assert data["artifactId"] == artifact_id_of(reordered)
    assert data["artifactId"].startswith("sha256-") and len(data["artifactId"]) == 7 + 32


def test_quality_gate_minimal(schema: Draft202012Validator) -> None:
    # Given a review with only an artifact
    payload = valid(from_quality_gate(QualityGateReview(artifact="draft text"), key="q"), schema)
    # Then empty lists and the missing score are omitted, with a generic title
    assert set(payload["data"]) == {"artifactId", "artifactType", "title", "artifact", "actions"}
    assert payload["data"]["title"] == "Quality gate review"


def test_permission_becomes_an_approval_of_the_tool_call(schema: Draft202012Validator) -> None:
    # Given a permission request
    # When adapted
    payload = valid(from_permission(PERMISSION, key="shell-1"), schema)
    data = payload["data"]
    # Then accept/reject decide over the tool call, carried as the artifact
    assert (data["artifactType"], data["title"], data["actions"]) == (
        "tool-call",
        "Allow shell?",
        ["accept", "reject"],
    )
    assert data["artifact"] == {
        "tool": "shell",
        "options": ["allow", "deny"],
        "arguments": {"cmd": "rm -rf build"},
    }
    # And a tool given as an object is named by its `name`
    tool = SimpleNamespace(name="browser")
    assert from_permission(SimpleNamespace(tool=tool, options=[]), key="b").title == "Allow browser?"


def test_from_agentflow_dispatches_on_the_kind() -> None:
    # Given each agentflow payload, object or dict, Then the builder of the matching kind comes back
    assert isinstance(from_agentflow(REVIEW, key="q"), Approval)
    assert isinstance(from_agentflow(REVIEW.to_payload(), key="q"), Approval)
    assert from_agentflow(ASK, key="c").kind == "clarification"  # type: ignore[union-attr]
    assert from_agentflow(PERMISSION, key="p").artifact_type == "tool-call"  # type: ignore[union-attr]
    # And a free-form or unknown payload gives None
    assert from_agentflow({"type": "budget_check"}, key="x") is None
    assert from_agentflow("free", key="x") is None
