"""clarification, external-event and custom end to end on moto: a real execution suspends, the
snapshot and the event log tell it, the run surface refuses a bad answer and takes a good one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.kind_steps import KindSteps, types_of
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.event_schema import problems_of, stored_events

CLARIFICATION = {
    "kind": "clarification",
    "key": "deployment-details",
    "data": {
        "questions": [
            {"id": "region", "question": "Which region?", "schema": {"enum": ["eu-west-1", "us-east-1"]}},
            {"id": "replicas", "question": "How many replicas?", "schema": {"type": "integer", "minimum": 1}},
            {"id": "notes", "question": "Anything else?"},
        ]
    },
}
ANSWERS = {"answers": {"region": "eu-west-1", "replicas": 3, "notes": "Deploy after 18:00."}}
PAYMENT = {
    "kind": "external-event",
    "key": "payment",
    "data": {"eventType": "payment.succeeded", "correlation": {"orderId": "ord_1042"}},
    "resumeSchema": {
        "type": "object",
        "required": ["paymentId", "amount"],
        "properties": {"paymentId": {"type": "string"}, "amount": {"type": "integer", "minimum": 1}},
    },
}
CUSTOM = {
    "kind": "custom",
    "key": "shipping-label",
    "data": {"customKind": "acme.shipping-label", "payload": {"carrier": "DHL", "parcels": [1, 2]}},
    "metadata": {"team": "logistics"},
}


@pytest.fixture
def steps(environment: None, dynamodb: Any, table_name: str) -> Iterator[KindSteps]:
    yield KindSteps(WorkflowHarness())
    # Then, whatever the flow did: every event it stored is valid against the event payload schemas
    assert problems_of(stored_events(dynamodb, table_name)) == []


def test_clarification_waits_for_input_and_takes_every_answer(steps: KindSteps) -> None:
    # Given a run suspended on a clarification
    run, outcome = steps.suspend(CLARIFICATION)
    assert outcome["status"] == "requested"
    # Then its snapshot says waiting-input at the node, with the pending interrupt
    status, snapshot = steps.snapshot(run.run_id)
    assert status == 200
    assert snapshot == {
        "runId": run.run_id,
        "tenantId": "default",
        "status": "waiting-input",
        "currentNodeId": "Interrupt",
        "pendingInterrupt": {
            "interruptId": outcome["interruptId"],
            "nodeId": "Interrupt",
            "kind": "clarification",
        },
    }
    # When an answer is missing, Then 400 names the unanswered question
    status, problem = steps.resolve(
        run.run_id, "Interrupt", {"answers": {"region": "eu-west-1", "notes": ""}}
    )
    assert (status, problem["code"], problem["path"]) == (
        400,
        "validation_error",
        "resumeValue.answers.replicas",
    )
    assert "replicas" in problem["detail"]
    # When an answer fails its question's schema, Then 400 names that question
    wrong = {"answers": {**ANSWERS["answers"], "region": "mars-1"}}
    status, problem = steps.resolve(run.run_id, "Interrupt", wrong)
    assert (status, problem["path"]) == (400, "resumeValue.answers.region")
    # When every question is answered well, Then 200 and the execution's output is the answers
    status, body = steps.resolve(run.run_id, "Interrupt", ANSWERS)
    assert (status, body["status"], body["resumeValue"]) == (200, "resolved", ANSWERS)
    assert steps.output_of(run) == ANSWERS
    # And the log holds both events with their legacy clarification twins, the same in both modes
    expected = [
        "interrupt.requested",
        "clarification.requested",
        "interrupt.resolved",
        "clarification.resolved",
    ]
    assert types_of(steps.events(run.run_id, "updates")) == expected
    assert types_of(steps.events(run.run_id, "debug")) == expected
    assert steps.snapshot(run.run_id)[1]["status"] == "running"


def test_an_unknown_answer_id_is_refused(steps: KindSteps) -> None:
    # Given a suspended clarification / When an answer names no question
    run, _ = steps.suspend(CLARIFICATION)
    stranger = {"answers": {**ANSWERS["answers"], "colour": "blue"}}
    status, problem = steps.resolve(run.run_id, "Interrupt", stranger)
    # Then 400 names it, and the run still waits
    assert (status, problem["path"]) == (400, "resumeValue.answers.colour")
    assert steps.snapshot(run.run_id)[1]["status"] == "waiting-input"


def test_external_event_waits_externally_and_enforces_the_resume_schema(steps: KindSteps) -> None:
    # Given a run waiting for a payment provider's event
    run, _ = steps.suspend(PAYMENT)
    status, snapshot = steps.snapshot(run.run_id)
    assert status == 200
    assert (snapshot["status"], snapshot["pendingInterrupt"]["kind"]) == (
        "waiting-external",
        "external-event",
    )
    # Then eventType and correlation are recorded as sent
    requested = steps.events(run.run_id, "updates")[0]
    assert requested["payload"]["data"] == {
        "eventType": "payment.succeeded",
        "correlation": {"orderId": "ord_1042"},
    }
    assert requested["nodeId"] == "Interrupt"
    # When the event fails the declared resumeSchema, Then 400 with the failing path
    status, problem = steps.resolve(run.run_id, "Interrupt", {"paymentId": "pay_1", "amount": 0})
    assert (status, problem["code"], problem["path"]) == (400, "validation_error", "resumeValue.amount")
    # When a valid event arrives, Then the execution goes on with it
    payment = {"paymentId": "pay_1", "amount": 4200}
    assert steps.resolve(run.run_id, "Interrupt", payment)[0] == 200
    assert steps.output_of(run) == payment
    # And the log has no legacy twin for this kind, in either mode
    expected = ["interrupt.requested", "interrupt.resolved"]
    assert types_of(steps.events(run.run_id, "updates")) == expected
    assert types_of(steps.events(run.run_id, "debug")) == expected


def test_custom_is_persisted_as_sent_and_takes_any_value(steps: KindSteps) -> None:
    # Given a run suspended on a custom kind this host knows nothing about
    run, _ = steps.suspend(CUSTOM)
    assert steps.snapshot(run.run_id)[1]["status"] == "waiting-input"
    # Then interrupt.requested carries it verbatim
    assert steps.events(run.run_id, "updates")[0]["payload"] == CUSTOM
    # When the body is not {resumeValue}, Then 400 and nothing changes
    status, problem = steps.resolve(run.run_id, "Interrupt", None, raw_body='{"value": 1}')
    assert (status, problem["code"]) == (400, "validation_error")
    # When any JSON value answers it, Then it is delivered as is
    label = ["printed", {"tracking": "JD0142"}]
    status, body = steps.resolve(run.run_id, "Interrupt", label)
    assert (status, body["resumeValue"]) == (200, label)
    assert steps.output_of(run) == label
    resolved = steps.events(run.run_id, "debug")[-1]
    assert resolved["payload"] == {
        "nodeId": "Interrupt",
        "interruptId": body["interruptId"],
        "kind": "custom",
        "resumeValue": label,
        "via": "run",
    }


def test_a_declared_resume_schema_binds_a_custom_kind_too(steps: KindSteps) -> None:
    # Given a custom interrupt that declares its resumeSchema
    run, _ = steps.suspend({**CUSTOM, "resumeSchema": {"type": "object", "required": ["printed"]}})
    # When the answer fails it, Then 400 with the failing path; a fitting one resolves
    status, problem = steps.resolve(run.run_id, "Interrupt", {"printer": "dock-3"})
    assert (status, problem["path"]) == (400, "resumeValue")
    assert "printed" in problem["detail"]
    assert steps.resolve(run.run_id, "Interrupt", {"printed": True})[0] == 200
