"""Nothing lost, nothing asked twice, with faults injected into the real moto clients the handlers
use: each test proves one resolution, at most one effective delivery, no lost resolution, events in
order (docs/durability.md)."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from tests.integration.durability_faults import (
    ProcessDeath,
    SendCounter,
    TableStream,
    error_response,
    hooked,
)
from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, http_event

CUSTOM = {"kind": "custom", "key": "ship-label", "data": {"customKind": "acme.label"}}
ANSWER = {"label": "printed"}
SUCCESS = "before-call.sfn.SendTaskSuccess"


@pytest.fixture
def harness(environment: None) -> WorkflowHarness:
    return WorkflowHarness()


@pytest.fixture
def sfn_client(environment: None) -> Any:
    from waitgate.wiring import composition

    return composition.aws_client("stepfunctions")


@pytest.fixture
def accepted(sfn_client: Any) -> Any:
    counter = SendCounter()
    with hooked(sfn_client, "after-call.sfn.SendTaskSuccess", counter):
        yield counter


def items_of(dynamodb: Any, table: str, run_id: str, prefix: str) -> list[dict[str, Any]]:
    answer = dynamodb.query(
        TableName=table,
        ConsistentRead=True,
        KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
        ExpressionAttributeValues={":pk": {"S": f"RUN#default#{run_id}"}, ":prefix": {"S": prefix}},
    )
    return [{name: next(iter(value.values())) for name, value in item.items()} for item in answer["Items"]]


def event_types(dynamodb: Any, table: str, run_id: str) -> list[str]:
    events = sorted(items_of(dynamodb, table, run_id, "EVT#"), key=lambda event: int(event["seq"]))
    return [event["type"] for event in events]


def node(dynamodb: Any, table: str, run_id: str) -> dict[str, Any]:
    return items_of(dynamodb, table, run_id, "NODE#")[0]


def resolve(run: SuspendedRun) -> dict[str, Any]:
    response: dict[str, Any] = Handler("resolve_by_run")(
        http_event(run.run_id, "Interrupt", {"resumeValue": ANSWER})
    )
    return response


def suspended(harness: WorkflowHarness, interrupt: dict[str, Any] = CUSTOM) -> SuspendedRun:
    run = harness.suspend(interrupt)
    Handler("request_interrupt")(run.task_event)
    return run


def test_the_process_dies_after_the_commit_and_the_outbox_delivers(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, sfn_client: Any, accepted: SendCounter
) -> None:
    # Given a suspended run, and a resolver whose process dies right before SendTaskSuccess
    run = suspended(harness)
    stream = TableStream(table_name)

    def die(**_: Any) -> None:
        raise ProcessDeath

    # When it is resolved, Then the process dies with the resolution committed, undelivered
    with hooked(sfn_client, SUCCESS, die), pytest.raises(ProcessDeath):
        resolve(run)
    assert harness.sfn.describe_execution(executionArn=run.execution_arn)["status"] == "RUNNING"
    assert node(dynamodb, table_name, run.run_id)["status"] == "resolved"
    assert "deliveredAt" not in node(dynamodb, table_name, run.run_id)
    # When the outbox consumer gets the stream's records (twice: a duplicate batch)
    batch = stream.next_batch()
    assert Handler("dispatch_stream")(batch) == {"batchItemFailures": []}
    assert Handler("dispatch_stream")(batch) == {"batchItemFailures": []}
    # Then the execution goes on with the answer, delivered exactly once, and the log says so in order
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == ANSWER
    assert accepted.accepted == 1
    assert event_types(dynamodb, table_name, run.run_id) == [
        "interrupt.requested",
        "interrupt.resolved",
        "interrupt.delivered",
    ]
    assert node(dynamodb, table_name, run.run_id)["deliveryOutcome"] == "delivered"


def test_a_throttled_send_is_retried_by_the_outbox_until_it_succeeds(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, sfn_client: Any, accepted: SendCounter
) -> None:
    # Given Step Functions throttles the next two SendTaskSuccess calls
    run = suspended(harness)
    stream = TableStream(table_name)
    throttles = iter([error_response("ThrottlingException"), error_response("ThrottlingException")])

    def throttle(**_: Any) -> Any:
        return next(throttles, None)

    with hooked(sfn_client, SUCCESS, throttle):
        # When it is resolved, Then the answer is 200 (committed) though the inline send was throttled
        assert resolve(run)["statusCode"] == 200
        batch = stream.next_batch()
        # When the outbox is throttled too, Then that record fails alone (the mapping retries it)
        failures = Handler("dispatch_stream")(batch)["batchItemFailures"]
        assert len(failures) == 1
        # When the mapping retries it, Then it is delivered
        assert Handler("dispatch_stream")(batch) == {"batchItemFailures": []}
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == ANSWER
    assert accepted.accepted == 1
    types = event_types(dynamodb, table_name, run.run_id)
    assert types == ["interrupt.requested", "interrupt.resolved", "interrupt.delivered"]


def test_a_task_timed_out_after_our_commit_is_recorded_and_never_retried(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, sfn_client: Any, accepted: SendCounter
) -> None:
    # Given Step Functions says the task timed out once the resolution is committed
    run = suspended(harness)
    stream = TableStream(table_name)
    with hooked(sfn_client, SUCCESS, lambda **_: error_response("TaskTimedOut")):
        # When it is resolved, Then the resolution stands and the task's end is recorded
        assert resolve(run)["statusCode"] == 200
        # And the outbox, handed the records, sees it handled and retries nothing
        assert Handler("dispatch_stream")(stream.next_batch()) == {"batchItemFailures": []}
    assert accepted.accepted == 0
    stored = node(dynamodb, table_name, run.run_id)
    assert (stored["status"], stored["deliveryOutcome"]) == ("resolved", "task-gone")
    types = event_types(dynamodb, table_name, run.run_id)
    assert types == ["interrupt.requested", "interrupt.resolved", "interrupt.delivery_failed"]
    harness.sfn.stop_execution(executionArn=run.execution_arn)


def test_duplicate_stream_records_of_a_delivered_resolution_deliver_nothing_more(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, accepted: SendCounter
) -> None:
    # Given a resolution delivered inline
    run = suspended(harness)
    stream = TableStream(table_name)
    assert resolve(run)["statusCode"] == 200
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == ANSWER
    # When the stream's records reach the outbox twice
    batch = stream.next_batch()
    for _ in range(2):
        assert Handler("dispatch_stream")(batch) == {"batchItemFailures": []}
    # Then nothing more was sent and the log holds the resolution once
    assert accepted.accepted == 1
    assert event_types(dynamodb, table_name, run.run_id) == ["interrupt.requested", "interrupt.resolved"]
    assert node(dynamodb, table_name, run.run_id)["deliveryOutcome"] == "delivered"


def test_a_lambda_retry_of_request_interrupt_asks_nobody_twice(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, accepted: SendCounter
) -> None:
    # Given a run whose request_interrupt invocation is retried with the same event
    run = harness.suspend(CUSTOM)
    first = Handler("request_interrupt")(run.task_event)
    second = Handler("request_interrupt")(run.task_event)
    # Then the retry took the interrupt over: one interrupt, one interrupt.requested
    assert (first["status"], second["status"]) == ("requested", "taken-over")
    assert first["interruptId"] == second["interruptId"]
    assert resolve(run)["statusCode"] == 200
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == ANSWER
    assert accepted.accepted == 1
    assert event_types(dynamodb, table_name, run.run_id) == ["interrupt.requested", "interrupt.resolved"]


def test_a_crash_before_the_commit_then_a_retry_requests_once(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, accepted: SendCounter
) -> None:
    from waitgate.wiring import composition

    # Given request_interrupt's process dies as it sends its transaction
    run = harness.suspend(CUSTOM)

    def die(**_: Any) -> None:
        raise ProcessDeath

    dynamodb_client = composition.aws_client("dynamodb")
    with hooked(dynamodb_client, "before-call.dynamodb.TransactWriteItems", die), pytest.raises(ProcessDeath):
        Handler("request_interrupt")(run.task_event)
    # Then nothing of the run was written
    assert items_of(dynamodb, table_name, run.run_id, "RUN") == []
    assert items_of(dynamodb, table_name, run.run_id, "NODE#") == []
    # When Lambda retries the invocation, Then the interrupt is requested once and resolves once
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    assert resolve(run)["statusCode"] == 200
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == ANSWER
    assert accepted.accepted == 1
    assert event_types(dynamodb, table_name, run.run_id) == ["interrupt.requested", "interrupt.resolved"]


def test_a_resolved_key_asked_again_gets_its_answer_at_once(
    harness: WorkflowHarness, dynamodb: Any, table_name: str, accepted: SendCounter
) -> None:
    # Given a run whose interrupt with key K was resolved
    run = suspended(harness)
    assert resolve(run)["statusCode"] == 200
    # When the run asks K again from another state, with a new task token
    again = harness.suspend(CUSTOM)
    event = {**again.task_event, "runId": run.run_id, "nodeId": "AskAgain"}
    outcome = Handler("request_interrupt")(event)
    # Then the new task gets the first answer at once, and nobody is asked again
    assert outcome["status"] == "replayed"
    assert json.loads(harness.wait_for_end(again.execution_arn)["output"]) == ANSWER
    assert accepted.accepted == 2
    assert event_types(dynamodb, table_name, run.run_id) == [
        "interrupt.requested",
        "interrupt.resolved",
        "interrupt.replayed",
    ]
    assert items_of(dynamodb, table_name, run.run_id, "KEY#")[0]["status"] == "resolved"


def test_a_pending_key_asked_from_another_state_takes_the_interrupt_over(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given a run waiting on key K at Interrupt
    run = suspended(harness)
    # When K is asked again from another state with a new task token (a retried branch)
    again = harness.suspend(CUSTOM)
    event = {**again.task_event, "runId": run.run_id, "nodeId": "Retried"}
    # Then that task takes the waiting interrupt over, and its resolution reaches the new task
    assert Handler("request_interrupt")(event)["status"] == "taken-over"
    assert resolve(run)["statusCode"] == 200
    assert json.loads(harness.wait_for_end(again.execution_arn)["output"]) == ANSWER
    assert event_types(dynamodb, table_name, run.run_id) == ["interrupt.requested", "interrupt.resolved"]
    harness.sfn.stop_execution(executionArn=run.execution_arn)


def test_at_the_deadline_the_task_fails_and_no_resolve_wins(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given an interrupt with a 50 ms deadline, now passed
    run = suspended(harness, {**CUSTOM, "timeoutMs": 50})
    stored = node(dynamodb, table_name, run.run_id)
    time.sleep(0.1)
    # When its schedule fires
    target = {"tenantId": "default", "runId": run.run_id, "nodeId": "Interrupt"}
    assert Handler("expire_interrupt")({**target, "interruptId": stored["interruptId"]}) == {
        "result": "expired"
    }
    # Then the task failed with InterruptTimedOut, and a late resolve is refused (409 expired)
    ended = harness.wait_for_end(run.execution_arn)
    assert (ended["status"], ended.get("error")) == ("FAILED", "InterruptTimedOut")
    refused = resolve(run)
    assert (refused["statusCode"], json.loads(refused["body"])["code"]) == (409, "interrupt_already_resolved")
    assert event_types(dynamodb, table_name, run.run_id) == [
        "interrupt.requested",
        "interrupt.expired",
        "interrupt.delivered",
    ]
    # And a schedule firing again changes nothing
    assert Handler("expire_interrupt")({**target, "interruptId": stored["interruptId"]}) == {
        "result": "not-pending"
    }


def test_a_stopped_execution_cancels_the_run_and_its_interrupt(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given a suspended run whose execution is stopped
    run = suspended(harness)
    harness.sfn.stop_execution(executionArn=run.execution_arn)
    execution = harness.sfn.describe_execution(executionArn=run.execution_arn)
    # When the "Execution Status Change" event reaches run_lifecycle
    event = {
        "version": "0",
        "id": "6b9b9f0e-0000-4000-8000-000000000000",
        "detail-type": "Step Functions Execution Status Change",
        "source": "aws.states",
        "account": "123456789012",
        "time": "2026-11-30T10:00:00Z",
        "region": "us-east-1",
        "resources": [run.execution_arn],
        "detail": {
            "executionArn": run.execution_arn,
            "stateMachineArn": execution["stateMachineArn"],
            "name": run.run_id,
            "status": "ABORTED",
        },
    }
    assert Handler("run_lifecycle")(event) == {"runs": [run.run_id]}
    # Then the snapshot is cancelled, the interrupt too, and a resolve is refused with 409
    snapshot = items_of(dynamodb, table_name, run.run_id, "RUN")[0]
    assert snapshot["status"] == "cancelled"
    assert node(dynamodb, table_name, run.run_id)["status"] == "cancelled"
    refused = resolve(run)
    assert (refused["statusCode"], json.loads(refused["body"])["code"]) == (409, "interrupt_already_resolved")
    assert event_types(dynamodb, table_name, run.run_id) == [
        "interrupt.requested",
        "run.status_changed",
        "interrupt.cancelled",
    ]
