"""Every other kind answered by a person in Debian's chromium, once with the page's script and once
without: open the link, read what the page shows to decide with, fill the form it made from the
schema as a person would, be told what to correct beside the field, send it, see the answer page,
and the execution SUCCEEDED with the resume value the page documents. axe-core checks each page."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.page.person import (
    Person,
    minted_link,
    new_run_id,
    output_of,
    resolve_on_the_run,
    start_run,
)
from tests.e2e.page.samples import QUESTIONS

pytestmark = [pytest.mark.e2e, pytest.mark.browser]


def is_the_answer_page(someone: Person, heading: str) -> None:
    assert heading == "Your answer was recorded"
    someone.assert_accessible("the answer page")


def test_a_clarification_is_answered_question_by_question(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given a run with questions of every kind the form can ask
    run_id = new_run_id("questions")
    interrupt = {
        "kind": "clarification",
        "key": "deploy",
        "data": {"questions": QUESTIONS, "context": {"service": "billing"}},
    }
    execution = start_run(local_stack, "interrupt", {"interrupt": interrupt}, run_id)
    link = minted_link(local_stack, run_id, "Interrupt", "alice")
    # When alice opens the link, Then each question is its own control
    assert anyone.open(link) == "A few questions need your answer"
    assert anyone.terms(".meta")["You decide as"] == "alice"
    assert [anyone.find(f'[name="answers.{q}"]').tag_name for q in ("size", "notes")] == ["select", "input"]
    assert anyone.has('input[type=radio][name="answers.region"]') and anyone.has(
        'input[name="answers.parts[2]"]'
    )
    anyone.assert_accessible("the questions page")
    # When she answers them, replicas out of bounds
    anyone.choose("answers.region", "us-east-1")
    anyone.select("answers.size", "medium")
    anyone.type("answers.replicas", "0")
    anyone.tick("answers.dry")
    anyone.pick("answers.start", "2026-12-24")
    anyone.type("answers.contact", "oncall@example.com")
    anyone.tick("answers.parts[0]")
    anyone.tick("answers.parts[2]")
    anyone.type("answers.notes", "after 18:00")
    if anyone.scripts:
        anyone.press_and_stay("submit")
    else:
        assert anyone.press("submit") == "A few questions need your answer"
        # the server's page keeps what she chose
        assert anyone.find('input[name="answers.region"][value="us-east-1"]').is_selected()
    # Then what to correct is beside the field, in the same words with or without the script
    assert anyone.error_beside("answers.replicas") == "Enter a whole number from 1 to 10."
    anyone.assert_accessible("the questions page with an error")
    # When she corrects it and sends
    anyone.type("answers.replicas", "3")
    is_the_answer_page(anyone, anyone.press("submit"))
    # Then the run goes on with her typed answers
    assert output_of(local_stack, execution) == {
        "answers": {
            "region": "us-east-1",
            "size": "medium",
            "replicas": 3,
            "dry": True,
            "start": "2026-12-24",
            "contact": "oncall@example.com",
            "parts": ["api", "jobs"],
            "notes": "after 18:00",
        }
    }


def low_confidence_run(stack: LocalStackHandle) -> tuple[str, str]:
    run_id = new_run_id("review")
    decision = {"agentId": "triage-agent", "confidence": 0.3, "label": "refund", "amount": 40}
    run_input = {"decision": decision, "configurable": {"run": {"escalationThreshold": 0.6}}}
    return run_id, start_run(stack, "lowConfidence", run_input, run_id)


def test_a_low_confidence_decision_is_confirmed(local_stack: LocalStackHandle, anyone: Person) -> None:
    # Given an agent that decided "refund" at 30%, below the run's 60%
    run_id, execution = low_confidence_run(local_stack)
    link = minted_link(local_stack, run_id, "Escalate", "alice")
    # When alice opens the link, Then the agent's decision is shown against its threshold
    assert anyone.open(link) == "An agent is unsure and asks for your review"
    assert (
        "triage-agent decided refund, with a confidence of 30%, below the threshold of 60%" in anyone.text()
    )
    assert anyone.terms(".meta")["Step"] == "Escalate"
    anyone.assert_accessible("the review page")
    # When she confirms it, Then the run goes on with the agent's decision, confirmed
    is_the_answer_page(anyone, anyone.press("confirm"))
    assert anyone.terms(".decided")["Review"] == "The agent's decision was confirmed"
    review = output_of(local_stack, execution)["review"]
    assert review == {"confirmed": True, "decision": {"label": "refund", "amount": 40}}


def test_a_low_confidence_decision_is_decided_otherwise(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    run_id, execution = low_confidence_run(local_stack)
    assert (
        anyone.open(minted_link(local_stack, run_id, "Escalate", "alice"))
        == "An agent is unsure and asks for your review"
    )
    # When she changes the label, says why and sends her decision
    assert anyone.field("decision.label").get_attribute("value") == "refund"
    anyone.type("decision.label", "chargeback")
    anyone.type("comment", "The card was stolen.")
    is_the_answer_page(anyone, anyone.press("otherwise"))
    # Then the run goes on with her decision
    review = output_of(local_stack, execution)["review"]
    assert review == {
        "confirmed": False,
        "decision": {"label": "chargeback", "amount": 40},
        "comment": "The card was stolen.",
    }


def test_an_external_event_is_resolved_by_hand_from_its_resume_schema(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given the payment sample waiting for order ord_42
    run_id = new_run_id("payment")
    execution = start_run(local_stack, "externalEvent", {"orderId": "ord_42"}, run_id)
    link = minted_link(local_stack, run_id, "AwaitPayment", "oncall")
    # When the operator opens the link, Then it says what is awaited and asks for the event's fields
    assert anyone.open(link) == "Waiting for payment.succeeded"
    assert "payment.succeeded" in anyone.text() and anyone.texts("table.kv th") == ["orderId"]
    anyone.assert_accessible("the external-event page")
    anyone.type("resumeValue.paymentId", "pay_42")
    anyone.type("resumeValue.amount", "4200")
    anyone.type("resumeValue.currency", "euro")
    # Then a currency not of its pattern is refused beside the field
    if anyone.scripts:
        anyone.press_and_stay("submit")
    else:
        assert anyone.press("submit") == "Waiting for payment.succeeded"
    assert "the pattern ^[A-Z]{3}$" in anyone.error_beside("resumeValue.currency")
    anyone.type("resumeValue.currency", "EUR")
    is_the_answer_page(anyone, anyone.press("submit"))
    assert output_of(local_stack, execution) == {"paymentId": "pay_42", "amount": 4200, "currency": "EUR"}


def test_a_custom_request_without_a_schema_takes_checked_json(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given the custom sample (a shipping label, no resumeSchema)
    run_id = new_run_id("label")
    execution = start_run(local_stack, "custom", {}, run_id)
    assert (
        anyone.open(minted_link(local_stack, run_id, "PrintLabel", "alice"))
        == "acme.shipping-label needs your input"
    )
    # Then its payload is shown readably, and the answer box starts empty
    assert anyone.texts("table.kv th") == ["carrier", "parcels", "printer"]
    assert anyone.field("resumeValue").get_attribute("value") == ""
    anyone.assert_accessible("the custom page")
    # When she writes JSON that is not valid, Then it is refused beside the editor
    anyone.type("resumeValue", '{"printed": tru}')
    if anyone.scripts:
        anyone.press_and_stay("submit")
        assert anyone.error_beside("resumeValue").startswith("This is not valid JSON")
    else:
        anyone.press("submit")
        assert "not valid JSON" in anyone.error_beside("resumeValue")
    anyone.type("resumeValue", '{"printed": true, "tracking": "JD0142"}')
    is_the_answer_page(anyone, anyone.press("submit"))
    assert output_of(local_stack, execution) == {"printed": True, "tracking": "JD0142"}


def test_a_conversation_turn_is_replied_from_its_outcome_schema(
    local_stack: LocalStackHandle, anyone: Person
) -> None:
    # Given the conversation sample, started, at its first exchange
    conversation_id = f"conv-{uuid.uuid4().hex[:8]}"
    run_id = new_run_id("conversation")
    execution = start_run(local_stack, "conversation", {"conversationId": conversation_id}, run_id)
    minted_link(local_stack, run_id, "Start", "alice")
    assert resolve_on_the_run(local_stack, run_id, "Start", "alice", {"joined": ["alice"]}) == 200
    link = minted_link(local_stack, run_id, "AskScope", "alice")
    # When alice opens it, Then the prompt, and a reply form from the outcomeSchema: one per line
    assert anyone.open(link) == "Which services are in scope?"
    anyone.assert_accessible("the conversation page")
    # When she sends no service, Then the server refuses it beside the field (minItems)
    assert anyone.press("submit") == "Which services are in scope?"
    assert anyone.error_beside("resumeValue.services") == "Give at least 1."
    anyone.type("resumeValue.services", "api\nweb")
    is_the_answer_page(anyone, anyone.press("submit"))
    # Then the turn's resume value is the services; the sample goes on to its next turns
    minted_link(local_stack, run_id, "AskWindow", "alice")
    resolve_on_the_run(local_stack, run_id, "AskWindow", "alice", {"window": "Tuesday 18:00"})
    minted_link(local_stack, run_id, "Close", "alice")
    resolve_on_the_run(local_stack, run_id, "Close", "alice", {"summary": "planned"})
    assert output_of(local_stack, execution)["services"] == ["api", "web"]


def test_json_clients_are_unchanged(local_stack: LocalStackHandle) -> None:
    """The page's forms are for browsers; a program still posts `{resumeValue}` and gets JSON."""
    run_id = new_run_id("json")
    execution = start_run(local_stack, "custom", {}, run_id)
    link = minted_link(local_stack, run_id, "PrintLabel", "alice")
    answer = local_stack.http.post(link.removeprefix(local_stack.api_url), {"resumeValue": {"printed": True}})
    assert (answer.status, answer.headers["content-type"]) == (200, "application/json")
    assert json.loads(answer.body)["resumeValue"] == {"printed": True}
    assert output_of(local_stack, execution) == {"printed": True}
