"""The reconciler on the local stack, with a short period (WAITGATE_RECONCILE_SECONDS=1): a run of a
state machine of your own, whose execution's end no rule delivers (the template's rule matches only
the stack's own machines), still ends: the reconciler asks Step Functions, finds it ABORTED and
cancels its interrupt, as docs/durability.md's invariant says."""

from __future__ import annotations

import json
import uuid

import pytest

from tests.e2e.conftest import OWN_STACKS, LocalStackHandle
from tests.e2e.test_kinds_e2e import SampleRun
from tests.e2e.waiting import wait_for
from waitgate.sdk import interrupt_task_state

pytestmark = [pytest.mark.e2e, OWN_STACKS]  # its stack is test_hop_faults_e2e.py's (conftest)

CUSTOM = {"kind": "custom", "key": "label-run", "data": {"customKind": "acme.label"}}


def own_machine(stack: LocalStackHandle) -> str:
    """A state machine the stack did not create: its executions' ends reach no run lifecycle."""
    generic = stack.sfn.describe_state_machine(stateMachineArn=stack.state_machines["interrupt"])
    function_arn = json.loads(generic["definition"])["States"]["Interrupt"]["Parameters"]["FunctionName"]
    state = interrupt_task_state(None, function_arn=function_arn, payload_path="$.interrupt")
    created = stack.sfn.create_state_machine(
        name=f"my-own-{uuid.uuid4().hex[:8]}",
        definition=json.dumps({"StartAt": "Interrupt", "States": {"Interrupt": state}}),
        roleArn="arn:aws:iam::123456789012:role/my-own",
    )
    return str(created["stateMachineArn"])


def test_a_run_whose_end_no_event_delivers_is_cancelled_by_the_reconciler(
    reconciling_stack: LocalStackHandle,
) -> None:
    stack = reconciling_stack
    machine = own_machine(stack)
    stack.description["stateMachines"]["mine"] = machine
    run = SampleRun(stack, "mine", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    stack.sfn.stop_execution(executionArn=run.execution_arn)

    def cancelled() -> dict[str, object] | None:
        status, body = run.snapshot()
        return body if status == 200 and body.get("status") == "cancelled" else None

    wait_for(cancelled, what=run.what_happened)
    healed = [e["payload"] for e in run.events("debug") if e["type"] == "interrupt.reconciled"]
    assert healed and healed[0]["heal"] == "cancelled" and healed[0]["executionStatus"] == "ABORTED"
    status, answer = run.resolve("Interrupt", {"late": True})
    assert status == 409, answer
