"""The durable binding {callbackId, runId, nodeId, tenantId?, interrupt, configurable?, escalation?}:
parsed beside the Step Functions one, stored as a `durable-callback:` handle, routed to its engine."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakes.memory import RecordingWorkflow
from tests.unit.service.world import APPROVAL, RUN, World
from waitgate.adapters.workflow_engines import WorkflowEngines
from waitgate.errors import InterruptPayloadInvalidError
from waitgate.run.resume_handles import callback_id_of, durable_callback_handle, handle_kind
from waitgate.run.workflow_event import DurableCallbackEvent, handle_in, parse_workflow_event
from waitgate.service.request_interrupt import request_from_task_event
from waitgate.service.run_lifecycle import ExecutionEnded, LifecycleDependencies, end_runs

CALLBACK = "eyJhcm4iOiJ4Iiwib3AiOiIxIn0="
DURABLE_ARN = "arn:aws:lambda:us-east-1:123456789012:function:orders:$LATEST/durable-execution/run-1/0b9e"


def binding(**members: Any) -> dict[str, Any]:
    return {"callbackId": CALLBACK, "runId": "run-1", "nodeId": "ship", "interrupt": APPROVAL, **members}


def test_a_callback_binding_names_a_durable_callback_handle() -> None:
    # Given the binding the durable SDK's submitter sends
    event = parse_workflow_event(binding(tenantId="acme", executionArn=DURABLE_ARN))
    # Then it is the durable binding, and the run waits on a durable-callback handle
    assert isinstance(event, DurableCallbackEvent)
    assert (event.run_id, event.node_id, event.tenant_id) == ("run-1", "ship", "acme")
    assert event.handle == durable_callback_handle(CALLBACK)
    assert (handle_kind(event.handle), callback_id_of(event.handle)) == ("durable-callback", CALLBACK)
    # And a task token stays a task token, as interrupts stored before the second engine are
    assert handle_kind("AAAAKgAAAAIAAAAA+/token==") == "task-token"


@pytest.mark.parametrize("callback_id", ["", "not:base64", "a" * 1025])
def test_a_malformed_callback_id_is_refused_without_quoting_it(callback_id: str) -> None:
    with pytest.raises(InterruptPayloadInvalidError) as refused:
        parse_workflow_event(binding(callbackId=callback_id))
    detail = refused.value.detail
    assert "callbackId" in detail and (not callback_id or callback_id not in detail)
    assert handle_in(binding(callbackId=callback_id)) is None


def test_a_malformed_binding_with_a_callback_fails_that_callback_by_name() -> None:
    # Given a binding with a callback id but no nodeId
    world = World()
    event = binding()
    del event["nodeId"]
    # When it is requested
    outcome = request_from_task_event(event, world.requesting())
    # Then the callback is failed with InterruptPayloadInvalid (the function's wait raises it)
    assert outcome.status == "rejected"
    ((handle, error, _),) = world.workflow.failures
    assert (handle, error) == (durable_callback_handle(CALLBACK), "InterruptPayloadInvalid")


def test_a_callback_request_waits_on_its_handle_and_its_resolution_answers_it() -> None:
    # Given a durable function asking for an approval
    world = World()
    outcome = request_from_task_event(binding(executionArn=DURABLE_ARN), world.requesting())
    assert outcome.status == "requested"
    assert world.interrupt(node="ship").task_token == durable_callback_handle(CALLBACK)
    # When alice resolves it
    world.resolve({"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}, node="ship")
    # Then the answer goes to the callback's handle
    ((handle, output),) = world.workflow.successes
    assert handle == durable_callback_handle(CALLBACK) and output["action"] == "accept"


def test_a_durable_executions_end_ends_its_run() -> None:
    # Given a run a durable execution asked in
    world = World()
    request_from_task_event(binding(executionArn=DURABLE_ARN), world.requesting())
    deps = LifecycleDependencies(world.store, world.index, world.clock)
    # When another function's execution of the same name stops, nothing happens to it
    other = DURABLE_ARN.replace("function:orders", "function:other")
    assert end_runs(ExecutionEnded("run-1", other, "STOPPED"), deps) == ()
    # When its own execution is stopped (StopDurableExecution)
    assert end_runs(ExecutionEnded("run-1", DURABLE_ARN, "STOPPED"), deps) == (RUN,)
    # Then the run is cancelled, as for an aborted Step Functions execution
    assert world.store.snapshots[RUN].status == "cancelled"
    assert world.interrupt(node="ship").status == "cancelled"


def test_each_handle_goes_to_its_engine() -> None:
    # Given both engines behind the Workflow port
    step_functions, durable = RecordingWorkflow(), RecordingWorkflow()
    engines = WorkflowEngines(step_functions, lambda: durable)
    # When a task token and a durable callback are answered
    engines.send_success("task-1", {"a": 1})
    engines.send_failure(durable_callback_handle(CALLBACK), "InterruptTimedOut", "late")
    # Then Step Functions got the token, the durable engine the bare callback id
    assert step_functions.successes == [("task-1", {"a": 1})] and not step_functions.failures
    assert durable.failures == [(CALLBACK, "InterruptTimedOut", "late")] and not durable.successes


def test_a_new_callback_asking_an_answered_key_gets_the_answer_at_once() -> None:
    # Given a durable function's approval, asked and resolved
    world = World()
    request_from_task_event(binding(executionArn=DURABLE_ARN), world.requesting())
    world.resolve({"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}, node="ship")
    # When the function's wait_for_callback asks the same key again with another callback (a replay
    # whose checkpoint was lost, or a second wait on the same key)
    again = "c2Vjb25kLWNhbGxiYWNr"
    outcome = request_from_task_event(binding(callbackId=again), world.requesting())
    # Then the new callback gets the persisted answer, and nobody is asked again
    assert outcome.status == "replayed"
    (first, second) = world.workflow.successes
    assert second[0] == durable_callback_handle(again) and second[1] == first[1]
    assert world.types().count("interrupt.requested") == 1


def test_lambdas_status_change_event_names_the_durable_execution() -> None:
    # Given the event Lambda sends when a durable execution ends (events/durable_status_change.json)
    from aws_lambda_powertools.utilities.data_classes import EventBridgeEvent

    from tests.support.handlers import Handler, sample_event

    lifecycle = Handler("run_lifecycle").module
    # When the run lifecycle reads it
    ended = lifecycle.execution_ended(EventBridgeEvent(sample_event("durable_status_change")))
    # Then it names the execution by its name and ARN, as a Step Functions one
    assert ended.execution_name == "release-42" and ended.status == "STOPPED"
    assert "/durable-execution/release-42/" in ended.execution_arn
