"""Each kind's page, filled in as a person would and posted as a browser posts it, read back as the
resume value the workflow gets (pure: no store, no HTTP). The page and the reader are one
`PageForm`, so what the page offers is exactly what the server reads."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.html_form import submitted_fields
from waitgate.errors import ValidationFailedError
from waitgate.page import PageContext, interrupt_page
from waitgate.page.form_resume import page_form_of, resume_value_from_form
from waitgate.payloads import json_rules

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


def test_only_the_interrupts_actions_are_offered() -> None:
    assert [a.value for a in page_form_of(APPROVAL).actions] == [
        "accept",
        "reject",
        "refine",
        "edit-accept",
        "ask",
    ]
    assert [a.value for a in page_form_of(ACCEPT_ONLY).actions] == ["accept", "reject"]
    html = page(ACCEPT_ONLY)
    assert 'value="refine"' not in html and "editedArtifactData" not in html and 'name="question"' not in html


def test_an_accept_is_the_pressed_button_the_comment_trimmed_and_the_time_it_arrived() -> None:
    typed = {"feedback": "  fine & well\r\n "}
    assert answer(APPROVAL, "accept", typed=typed) == {
        "action": "accept",
        "decidedAt": NOW,
        "feedback": "fine & well",
    }
    # an empty comment is no comment; the other sections' fields, posted too, are not read
    assert answer(APPROVAL, "reject", typed={"feedback": " ", "text": "ignored"}) == {
        "action": "reject",
        "decidedAt": NOW,
    }


@pytest.mark.parametrize(
    ("changes", "refine"),
    [
        ({"typed": {"text": " Fix it "}}, {"scope": "whole", "text": "Fix it"}),
        (
            {"typed": {"sectionPath": " notes ", "text": "Shorter"}, "ticked": {"scope=section"}},
            {"scope": "section", "text": "Shorter", "sectionPath": "notes"},
        ),
        (
            {"typed": {"text": "x"}, "ticked": {"scope=items", "itemIds[1]"}},
            {"scope": "items", "text": "x", "itemIds": ["c2"]},
        ),
    ],
)
def test_request_changes_builds_the_refine_feedback(changes: dict[str, Any], refine: dict[str, Any]) -> None:
    assert answer(APPROVAL, "refine", **changes) == {
        "action": "refine",
        "decidedAt": NOW,
        "refineFeedback": refine,
    }


def test_items_are_ids_typed_when_the_artifact_has_none_to_choose() -> None:
    plain = {**APPROVAL, "data": {**APPROVAL["data"], "artifact": "text"}}
    resume = answer(plain, "refine", typed={"itemIds": "a, b,,c ", "text": "x"}, ticked={"scope=items"})
    assert resume["refineFeedback"] == {"scope": "items", "text": "x", "itemIds": ["a", "b", "c"]}


@pytest.mark.parametrize(
    ("pressed", "changes", "path", "detail"),
    [
        ("refine", {"typed": {"text": " "}}, "resumeValue.refineFeedback.text", "Say what should change"),
        (
            "refine",
            {"typed": {"text": "x"}, "ticked": {"scope=section"}},
            "resumeValue.refineFeedback.sectionPath",
            "section",
        ),
        (
            "refine",
            {"typed": {"text": "x"}, "ticked": {"scope=items"}},
            "resumeValue.refineFeedback.itemIds",
            "items",
        ),
        (
            "refine",
            {"typed": {"text": "x"}, "unticked": {"scope"}},
            "resumeValue.refineFeedback.scope",
            "Choose one.",
        ),
        ("ask", {"typed": {"question": "  "}}, "resumeValue.feedback", "Write your question"),
        (
            "edit-accept",
            {"typed": {"editedArtifactData.changes": "many"}},
            "resumeValue.editedArtifactData.changes",
            "whole number",
        ),
        (
            "edit-accept",
            {"typed": {"editedArtifactData.items": "{"}},
            "resumeValue.editedArtifactData.items",
            "not valid JSON",
        ),
    ],
)
def test_an_approval_form_is_refused_naming_the_field(
    pressed: str, changes: dict[str, Any], path: str, detail: str
) -> None:
    refusal = refused(APPROVAL, posted(APPROVAL, pressed, **changes))
    assert refusal.extensions["path"] == path
    assert detail in refusal.detail


def test_a_question_is_its_own_required_field() -> None:
    resume = answer(APPROVAL, "ask", typed={"question": " Which DB? ", "feedback": "not read"})
    assert resume == {"action": "ask", "decidedAt": NOW, "feedback": "Which DB?"}


def test_accept_with_edits_sends_the_artifact_as_edited() -> None:
    untouched = answer(APPROVAL, "edit-accept")
    assert untouched["editedArtifactData"] == ARTIFACT
    edited = answer(
        APPROVAL,
        "edit-accept",
        typed={"editedArtifactData.version": "4.2.1", "editedArtifactData.notes": "a\r\nc"},
    )
    assert edited["editedArtifactData"] == {**ARTIFACT, "version": "4.2.1", "notes": "a\nc"}


def test_the_fields_and_buttons_are_those_of_this_interrupts_page() -> None:
    assert refused(ACCEPT_ONLY, {"action": "accept", "text": "x"}).extensions["path"] == "form:text"
    assert refused(ACCEPT_ONLY, {"action": "accept", "question": "?"}).detail.startswith(
        "The form has a field"
    )
    assert refused(ACCEPT_ONLY, {"action": "refine"}).extensions["path"] == "form:action"
    assert refused(APPROVAL, {"feedback": "no button"}).extensions["path"] == "form:action"
    assert (
        refused(APPROVAL, {"action": "accept", "decidedBy": "mallory"}).extensions["path"] == "form:decidedBy"
    )


def test_clarification_answers_are_typed_by_their_questions_schemas() -> None:
    # When every question is answered as a person would (the JS-less date-time is UTC)
    typed = {
        "answers.count": "3",
        "answers.when": "2026-12-24T18:30",
        "answers.meta": '{"a": 1}',
        "answers.why%2Enot": " x ",
    }
    resume = answer(
        CLARIFICATION,
        "submit",
        typed=typed,
        ticked={"answers.region=us", "answers.size=2", "answers.tags[1]"},
    )
    # Then each answer has its schema's type; the unticked box is false
    assert resume == {
        "answers": {
            "region": "us",
            "size": 2,
            "dry": False,
            "count": 3,
            "when": "2026-12-24T18:30:00Z",
            "tags": ["api"],
            "meta": {"a": 1},
            "why.not": " x ",
        }
    }


@pytest.mark.parametrize(
    ("typed", "path", "detail"),
    [
        ({"answers.count": ""}, "resumeValue.answers.count", "Enter a whole number."),
        ({"answers.count": "0"}, "resumeValue.answers.count", "at least 1"),
        ({"answers.when": ""}, "resumeValue.answers.when", "Enter a date and time."),
        ({"answers.meta": "[1,"}, "resumeValue.answers.meta", "not valid JSON"),
    ],
)
def test_a_clarification_form_names_the_question_it_refuses(
    typed: dict[str, str], path: str, detail: str
) -> None:
    base = {"answers.count": "3", "answers.when": "2026-12-24T18:30", "answers.meta": "{}"}
    form = posted(
        CLARIFICATION, "submit", typed={**base, **typed}, ticked={"answers.region=eu", "answers.size=1"}
    )
    refusal = refused(CLARIFICATION, form)
    assert (refusal.extensions["path"], detail in refusal.detail) == (path, True), refusal.detail


def test_low_confidence_confirms_or_decides_otherwise_on_the_agents_fields() -> None:
    # Confirm: the agent's decision without what describes its call
    assert answer(LOW_CONFIDENCE, "confirm") == {
        "confirmed": True,
        "decision": {"label": "refund", "amount": 20},
    }
    # Decide otherwise: the same fields, changed, with a comment
    changed = answer(
        LOW_CONFIDENCE, "otherwise", typed={"decision.label": "chargeback", "comment": " fraud "}
    )
    assert changed == {
        "confirmed": False,
        "decision": {"label": "chargeback", "amount": 20},
        "comment": "fraud",
    }


def test_low_confidence_with_a_resume_schema_sends_values_of_it() -> None:
    schema = {
        "type": "object",
        "required": ["label"],
        "properties": {"label": {"enum": ["refund", "chargeback", "none"]}},
    }
    shaped = {
        **LOW_CONFIDENCE,
        "resumeSchema": schema,
        "data": {**LOW_CONFIDENCE["data"], "decision": {"label": "refund"}},
    }
    assert answer(shaped, "confirm") == {"label": "refund"}
    assert answer(shaped, "otherwise", ticked={"resumeValue.label=none"}) == {"label": "none"}
    # A decision outside the schema cannot be confirmed as it is
    unfit = {**shaped, "data": {**LOW_CONFIDENCE["data"], "decision": {**DECISION, "label": "maybe"}}}
    assert [a.value for a in page_form_of(unfit).actions] == ["otherwise"]


def test_an_external_event_by_hand_is_a_form_of_its_resume_schema() -> None:
    event = {
        "kind": "external-event",
        "key": "k",
        "data": {"eventType": "paid", "correlation": {"o": "1"}},
        "resumeSchema": PAYMENT_SCHEMA,
    }
    typed = {"resumeValue.paymentId": "pay_1", "resumeValue.amount": "4200", "resumeValue.currency": "EUR"}
    assert answer(event, "submit", typed=typed) == {"paymentId": "pay_1", "amount": 4200, "currency": "EUR"}
    refusal = refused(event, posted(event, "submit", typed={**typed, "resumeValue.currency": "euro"}))
    assert refusal.extensions["path"] == "resumeValue.currency"


def test_custom_without_a_schema_is_a_json_editor_checked_by_the_json_rules() -> None:
    assert answer(CUSTOM, "submit", typed={"resumeValue": '{"printed": true, "label": "ü"}'}) == {
        "printed": True,
        "label": "ü",
    }
    assert refused(CUSTOM, {"action": "submit", "resumeValue": "1e400"}).extensions["path"] == "resumeValue"
    assert refused(CUSTOM, {"action": "submit", "resumeValue": ""}).detail == "Write a value, as JSON."
    assert (
        'name="resumeValue"' in page(CUSTOM) and "{}" not in page(CUSTOM).split('name="resumeValue"')[1][:80]
    )


def test_conversations_reply_from_the_outcome_schema_or_in_words() -> None:
    scope = {
        "type": "object",
        "required": ["services"],
        "properties": {"services": {"type": "array", "items": {"type": "string"}, "minItems": 1}},
    }
    exchange = {
        "kind": "conversation.exchange",
        "key": "k",
        "data": {"conversationId": "c", "prompt": "Which?", "outcomeSchema": scope},
    }
    assert answer(exchange, "submit", typed={"resumeValue.services": "api\r\nweb"}) == {
        "services": ["api", "web"]
    }
    assert refused(exchange, posted(exchange, "submit")).extensions["path"] == "resumeValue.services"
    plain = {"kind": "conversation.exchange", "key": "k", "data": {"conversationId": "c", "prompt": "Hi?"}}
    assert answer(plain, "submit", typed={"reply": " Hello "}) == {"reply": "Hello"}
    start = {"kind": "conversation.start", "key": "k", "data": {"conversationId": "c"}}
    assert answer(start, "submit") == {"joined": True}
    close = {"kind": "conversation.close", "key": "k", "data": {"conversationId": "c"}}
    assert answer(close, "submit", typed={"summary": "done"}) == {"closed": True, "summary": "done"}
    assert answer(close, "submit") == {"closed": True}


PAYLOADS = [APPROVAL, ACCEPT_ONLY, CLARIFICATION, CUSTOM, LOW_CONFIDENCE]
FIELD_VALUES = st.sampled_from(
    [
        "accept",
        "refine",
        "edit-accept",
        "ask",
        "submit",
        "confirm",
        "otherwise",
        "section",
        "items",
        "true",
        "3",
        "[1]",
        "{",
        "NaN",
    ]
) | st.text(max_size=40)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), payload=st.sampled_from(PAYLOADS))
def test_any_form_is_a_resume_value_of_json_or_a_400(data: st.DataObject, payload: dict[str, Any]) -> None:
    # Given any fields at all, of this page's and others
    names = st.sampled_from(sorted(page_form_of(payload).names)) | st.text(max_size=8)
    form = data.draw(st.dictionaries(names, FIELD_VALUES, max_size=8))
    # When they are read back, Then a 400 or a value the JSON rules accept
    try:
        resume = resume_value_from_form(payload, form, NOW)
    except ValidationFailedError:
        return
    json_rules.check_value(resume)
