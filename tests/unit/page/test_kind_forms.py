"""Every other kind's page, filled in as a person would and posted as a browser posts it, read back as
the resume value docs/human-page.md documents for it: forms from the question schemas, resumeSchema
and outcomeSchema, low-confidence confirm or decide otherwise, a JSON editor where no schema says."""

from __future__ import annotations

import pytest

from tests.unit.page.filled_pages import (
    CLARIFICATION,
    CUSTOM,
    DECISION,
    LOW_CONFIDENCE,
    PAYMENT_SCHEMA,
    answer,
    page,
    posted,
    refused,
)
from waitgate.page.form_resume import page_form_of


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
