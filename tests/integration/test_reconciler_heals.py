"""Each hop's loss injected on moto, then one pass of the reconciler's real handler: the run ends as
docs/durability.md's invariant says (resumed with its one resolution, failed by name, or ended and
its interrupt cancelled), found through the sparse index OutstandingByDue alone."""

from __future__ import annotations

import json
import time
from typing import Any

import boto3
import pytest

from local.patches import stopped_executions
from tests.integration.durability_faults import ProcessDeath, error_response, hooked
from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.handlers import Handler, http_event
from tests.support.links import Inbox
from tests.support.run_reads import get_run_event, list_events_event

REGION = "us-east-1"
CUSTOM = {"kind": "custom", "key": "ship-label", "data": {"customKind": "acme.label"}}
APPROVAL = {
    "kind": "approval",
    "key": "ship",
    "data": {
        "artifactId": "a1",
        "artifactType": "doc",
        "title": "Ship it?",
        "actions": ["accept", "reject"],
        "approversList": ["alice", "bob"],
    },
}
ANSWER = {"label": "printed"}
A_PASS = {"periodSeconds": 300, "graceSeconds": 0}  # no grace: each test injects its loss first


@pytest.fixture
def harness(inbox: Inbox) -> WorkflowHarness:
    return WorkflowHarness()


def client(service: str) -> Any:
    from waitgate.wiring import composition

    return composition.aws_client(service)


def suspended(harness: WorkflowHarness, interrupt: dict[str, Any] = CUSTOM) -> SuspendedRun:
    run = harness.suspend(interrupt)
    run.task_event["executionArn"] = run.execution_arn  # as the samples' Task states pass it
    assert Handler("request_interrupt")(run.task_event)["status"] == "requested"
    return run


def reconcile_pass() -> dict[str, Any]:
    report: dict[str, Any] = Handler("reconcile_interrupts")(A_PASS)
    return report


def node(run: SuspendedRun, table_name: str) -> dict[str, Any]:
    item = boto3.client("dynamodb", region_name=REGION).get_item(
        TableName=table_name,
        Key={"pk": {"S": f"RUN#default#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}},
        ConsistentRead=True,
    )["Item"]
    return {name: next(iter(value.values())) for name, value in item.items()}


def debug_events(run: SuspendedRun, kind: str) -> list[dict[str, Any]]:
    answer = Handler("list_run_events")(list_events_event(run.run_id, mode="debug"))
    events = json.loads(answer["body"])["events"]
    return [event["payload"] for event in events if event["type"] == kind]


def resolve(run: SuspendedRun, value: Any = ANSWER) -> dict[str, Any]:
    answer: dict[str, Any] = Handler("resolve_by_run")(
        http_event(run.run_id, "Interrupt", {"resumeValue": value})
    )
    return answer


def test_a_resolution_committed_then_lost_with_its_process_is_delivered_by_one_pass(
    harness: WorkflowHarness, table_name: str
) -> None:
    # Given a resolver that dies between its commit and its SendTaskSuccess, and no outbox run
    run = suspended(harness)

    def die(**_: Any) -> None:
        raise ProcessDeath

    with hooked(client("stepfunctions"), "before-call.sfn.SendTaskSuccess", die), pytest.raises(ProcessDeath):
        resolve(run)
    assert node(run, table_name)["status"] == "resolved" and "deliveredAt" not in node(run, table_name)
    # When the reconciler passes
    report = reconcile_pass()
    # Then the run resumes with its one resolution, and the log says who healed it
    assert report["healed"] == {"redelivered": 1}
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == ANSWER
    assert node(run, table_name)["deliveryOutcome"] == "delivered"
    assert "outstandingShard" not in node(run, table_name)  # nothing owed: out of the index
    assert debug_events(run, "interrupt.reconciled")[0]["heal"] == "redelivered"
    assert debug_events(run, "interrupt.delivered")[0]["via"] == "reconciler"
    assert reconcile_pass()["examined"] == 0


def test_a_deadline_whose_schedule_never_fired_fails_the_run_by_name(
    harness: WorkflowHarness, table_name: str
) -> None:
    # Given an interrupt of one second and no scheduler at all (no schedule will fire)
    run = suspended(harness, {**CUSTOM, "timeoutMs": 1000})
    deadline = node(run, table_name)["deadline"]
    while time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime()) <= deadline[:19]:
        time.sleep(0.05)  # the condition: the deadline has passed
    # When the reconciler passes
    assert reconcile_pass()["healed"] == {"expired": 1}
    # Then the execution failed with the named error, and the interrupt is expired and delivered
    ended = harness.wait_for_end(run.execution_arn)
    assert (ended["status"], ended.get("error")) == ("FAILED", "InterruptTimedOut")
    assert node(run, table_name)["status"] == "expired"
    assert node(run, table_name)["deliveryOutcome"] == "delivered"


def test_an_execution_that_ended_without_its_event_has_its_interrupt_cancelled(
    harness: WorkflowHarness, table_name: str
) -> None:
    # Given an execution stopped while it waits, and its status change never delivered
    stopped_executions.install()
    run = suspended(harness)
    harness.sfn.stop_execution(executionArn=run.execution_arn)
    assert harness.wait_for_end(run.execution_arn)["status"] == "ABORTED"
    # When the reconciler passes (it asks Step Functions: DescribeExecution)
    assert reconcile_pass()["healed"] == {"cancelled": 1}
    # Then the run ended as the run lifecycle ends it, and the interrupt is cancelled
    assert node(run, table_name)["status"] == "cancelled"
    answer = Handler("get_run")(get_run_event(run.run_id))
    assert json.loads(answer["body"])["status"] == "cancelled"
    assert debug_events(run, "interrupt.reconciled")[0]["executionStatus"] == "ABORTED"
    assert resolve(run)["statusCode"] == 409


def test_an_approval_whose_notices_were_all_lost_is_announced_once(
    harness: WorkflowHarness, table_name: str, inbox: Inbox
) -> None:
    # Given SNS refuses every publish while the interrupt is requested: nobody is told
    def refuse(**_: Any) -> Any:
        return error_response("InternalError", 500)

    with hooked(client("sns"), "before-call.sns.Publish", refuse):
        run = suspended(harness, APPROVAL)
    assert inbox.envelopes() == [] and "noticedAt" not in node(run, table_name)
    # When the reconciler passes
    assert reconcile_pass()["healed"] == {"notified": 1}
    # Then each recipient gets their notice, once; the next pass tells nobody again
    recipients = sorted(json.loads(envelope["Message"])["recipient"] for envelope in inbox.envelopes())
    assert recipients == ["alice", "bob"]
    assert "noticedAt" in node(run, table_name)
    assert reconcile_pass()["healed"] == {}
    assert inbox.envelopes() == []


def test_an_answer_the_engine_refuses_is_parked_not_retried(
    harness: WorkflowHarness, table_name: str
) -> None:
    # Given Step Functions answers InvalidOutput to the resolver's SendTaskSuccess
    run = suspended(harness)

    def invalid(**_: Any) -> Any:
        return error_response("InvalidOutput")

    with hooked(client("stepfunctions"), "before-call.sfn.SendTaskSuccess", invalid):
        assert resolve(run)["statusCode"] == 200
    # Then the delivery is parked: in the index's PARKED partition, not retried by a pass
    assert node(run, table_name)["deliveryOutcome"] == "refused"
    assert node(run, table_name)["outstandingShard"] == "PARKED"
    assert reconcile_pass()["examined"] == 0
    assert debug_events(run, "interrupt.delivery_failed")[0]["reason"] == "InvalidOutput"
    from waitgate.adapters.dynamodb_outstanding import DynamoDbOutstanding

    parked = DynamoDbOutstanding(boto3.client("dynamodb", region_name=REGION), table_name).parked(10)
    assert [(ref.run.run_id, ref.node_id) for ref in parked] == [(run.run_id, "Interrupt")]
    assert harness.sfn.describe_execution(executionArn=run.execution_arn)["status"] == "RUNNING"


def test_a_healthy_wait_is_looked_at_and_left_as_it_is(harness: WorkflowHarness, table_name: str) -> None:
    run = suspended(harness, APPROVAL)
    before = node(run, table_name)
    report = reconcile_pass()
    assert report == {"examined": 1, "healed": {}, "failed": 0}
    after = node(run, table_name)
    assert after["status"] == "pending" and after["version"] == before["version"]
    assert after["outstandingDue"] > before["outstandingDue"]  # the next look is further off
    assert reconcile_pass()["examined"] == 0


def test_waitgate_deliveries_lists_a_parked_delivery_and_redrives_it(
    harness: WorkflowHarness, table_name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from local.cli.main import main

    # Given a delivery parked by a refusal (the engine has since been set right)
    run = suspended(harness)

    def invalid(**_: Any) -> Any:
        return error_response("InvalidOutput")

    with hooked(client("stepfunctions"), "before-call.sfn.SendTaskSuccess", invalid):
        resolve(run)
    interrupt_id = node(run, table_name)["interruptId"]
    capsys.readouterr()  # what the handlers printed (their log lines)
    # When an operator lists the parked deliveries of the deployed table
    assert main(["deliveries", "list", "--table", table_name, "--json"]) == 0
    listed = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    # Then it is there, with what the engine said
    assert [(d["runId"], d["interruptId"], d["outcome"]) for d in listed] == [
        (run.run_id, interrupt_id, "refused")
    ]
    # When they redrive a delivery that is not parked, Then they are told so in one line
    assert main(["deliveries", "redrive", "--table", table_name, "--interrupt", "01NOSUCH"]) == 1
    assert "no parked delivery" in capsys.readouterr().err
    # When they redrive it, Then the run resumes with its one resolution and nothing is parked
    assert main(["deliveries", "redrive", "--table", table_name, "--interrupt", interrupt_id]) == 0
    assert capsys.readouterr().out.strip().endswith(f"{interrupt_id}: delivered")
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == ANSWER
    assert node(run, table_name)["deliveryOutcome"] == "delivered"
    assert main(["deliveries", "list", "--table", table_name]) == 0
    assert capsys.readouterr().out == ""
