"""Interrupts of every kind, their pages, and what a browser posts for them: the material of the page's
form tests (pure: the page rendered, its form filled in and read back as a browser would post it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.html_form import submitted_fields
from waitgate.errors import ValidationFailedError
from waitgate.page import PageContext, interrupt_page
from waitgate.page.form_resume import resume_value_from_form

NOW = "2026-12-01T10:00:00.000Z"
ARTIFACT = {"version": "4.2.0", "changes": 37, "items": [{"id": "c1"}, {"id": "c2"}], "notes": "a\nb"}
APPROVAL = {
    "kind": "approval",
    "key": "k",
    "data": {
        "artifactId": "a",
        "artifactType": "doc",
        "title": "Ship?",
        "artifact": ARTIFACT,
        "actions": ["accept", "reject", "refine", "edit-accept", "ask"],
    },
}
ACCEPT_ONLY = {**APPROVAL, "data": {**APPROVAL["data"], "actions": ["accept", "reject"]}}
CLARIFICATION = {
    "kind": "clarification",
    "key": "k",
    "data": {
        "questions": [
            {"id": "region", "question": "Where?", "schema": {"enum": ["eu", "us"]}},
            {"id": "size", "question": "Size?", "schema": {"enum": [1, 2, None]}},
            {"id": "dry", "question": "Dry run?", "schema": {"type": "boolean"}},
            {"id": "count", "question": "How many?", "schema": {"type": "integer", "minimum": 1}},
            {"id": "when", "question": "When?", "schema": {"type": "string", "format": "date-time"}},
            {
                "id": "tags",
                "question": "Tags?",
                "schema": {"type": "array", "items": {"enum": ["db", "api"]}},
            },
            {"id": "meta", "question": "Anything as JSON?", "schema": {"oneOf": [{"type": "object"}]}},
            {"id": "why.not", "question": "Why not?"},
        ]
    },
}
PAYMENT_SCHEMA = {
    "type": "object",
    "required": ["paymentId", "amount", "currency"],
    "properties": {
        "paymentId": {"type": "string", "minLength": 1},
        "amount": {"type": "integer", "minimum": 1},
        "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
    },
}
DECISION = {"agentId": "triage", "confidence": 0.3, "label": "refund", "amount": 20}
LOW_CONFIDENCE = {
    "kind": "low-confidence",
    "key": "k",
    "data": {"agentId": "triage", "threshold": 0.6, "observed": 0.3, "decision": DECISION},
}
CUSTOM = {"kind": "custom", "key": "k", "data": {"customKind": "acme.label"}}


def page(payload: dict[str, Any]) -> str:
    context = PageContext(payload=payload, run_id="r", node_id="Interrupt", expires_at="2026-12-01T10:30:00Z")
    return interrupt_page(context).html


def posted(payload: dict[str, Any], pressed: str, **changes: Any) -> dict[str, str]:
    """What the browser posts for the page of `payload` (typed=, ticked=, unticked=)."""
    return submitted_fields(page(payload), pressed, **changes)


def answer(payload: dict[str, Any], pressed: str, **changes: Any) -> Any:
    return resume_value_from_form(payload, posted(payload, pressed, **changes), NOW)


def refused(payload: dict[str, Any], form: dict[str, str]) -> ValidationFailedError:
    with pytest.raises(ValidationFailedError) as refusal:
        resume_value_from_form(payload, form, NOW)
    return refusal.value
