"""Escalation on moto, through the real handlers: the schedules a request makes in EventBridge Scheduler,
a step firing (twice), reminders on SNS, the decision at the deadline delivered once through the outbox,
and the schedules of an ended interrupt deleted by the stream consumer (docs/escalation.md)."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from typing import Any

import boto3
import pytest

from tests.integration.durability_faults import ProcessDeath, SendCounter, TableStream, hooked
from tests.integration.workflow_harness import SuspendedRun, WorkflowHarness
from tests.support.event_schema import problems_of, stored_events
from tests.support.handlers import Handler, http_event
from tests.support.links import Inbox
from waitgate.wiring.composition import forget_instances

REGION = "us-east-1"
GROUP = "waitgate-test-deadlines"
FUNCTION_ARN = "arn:aws:lambda:us-east-1:123456789012:function:waitgate-test-{}"
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


def approval(**data: Any) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": "ship",
        "data": {
            "artifactId": "r1",
            "artifactType": "release",
            "title": "Ship 4.2?",
            "actions": ["accept", "reject"],
            **data,
        },
    }


@pytest.fixture
def scheduler(environment: None, monkeypatch: pytest.MonkeyPatch) -> Any:
    client = boto3.client("scheduler", region_name=REGION)
    client.create_schedule_group(Name=GROUP)
    monkeypatch.setenv("SCHEDULE_GROUP_NAME", GROUP)
    monkeypatch.setenv("EXPIRE_FUNCTION_ARN", FUNCTION_ARN.format("expire-interrupt"))
    monkeypatch.setenv("ESCALATE_FUNCTION_ARN", FUNCTION_ARN.format("escalate-interrupt"))
    monkeypatch.setenv("SCHEDULER_ROLE_ARN", "arn:aws:iam::123456789012:role/waitgate-test-scheduler")
    forget_instances()
    return client


@pytest.fixture
def inbox(scheduler: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Inbox]:
    sns = boto3.client("sns", region_name=REGION)
    topic_arn = sns.create_topic(Name="waitgate-notifications")["TopicArn"]
    monkeypatch.setenv("TOPIC_ARN", topic_arn)
    forget_instances()
    yield Inbox.subscribe(boto3.client("sqs", region_name=REGION), sns, topic_arn)
    forget_instances()


@pytest.fixture
def harness(inbox: Inbox) -> WorkflowHarness:
    return WorkflowHarness()


def requested(harness: WorkflowHarness, interrupt: dict[str, Any], escalation: Any) -> SuspendedRun:
    run = harness.suspend(interrupt)
    assert Handler("request_interrupt")({**run.task_event, "escalation": escalation})["status"] == "requested"
    return run


def schedules(client: Any) -> dict[str, dict[str, Any]]:
    names = [s["Name"] for s in client.list_schedules(GroupName=GROUP)["Schedules"]]
    return {name: client.get_schedule(Name=name, GroupName=GROUP) for name in names}


def fired(handler: str, schedule: dict[str, Any]) -> Any:
    """The schedule's target invoked with its Input, as the scheduler does: again while it is not due
    (the scheduler's retry), so the test waits for the condition, not for a time."""
    function = Handler(handler)
    event = json.loads(schedule["Target"]["Input"])
    deadline = time.monotonic() + 10
    while True:
        try:
            return function(event)
        except Exception as error:  # NotDueError: the invocation fails, the scheduler retries
            if type(error).__name__ != "NotDueError" or time.monotonic() > deadline:
                raise
            time.sleep(0.01)


def vote(run: SuspendedRun, sub: str, value: dict[str, Any] = ACCEPT) -> tuple[int, Any]:
    answer = Handler("resolve_by_run")(http_event(run.run_id, "Interrupt", {"resumeValue": value}, sub=sub))
    return answer["statusCode"], json.loads(answer["body"])


def notices(inbox: Inbox) -> list[tuple[str, str]]:
    found = []
    for envelope in inbox.envelopes():
        attributes = {name: value["Value"] for name, value in envelope["MessageAttributes"].items()}
        found.append((attributes["recipient"], attributes["notice"]))
    return found


def event_types(dynamodb: Any, table: str, run_id: str) -> list[str]:
    answer = dynamodb.query(
        TableName=table,
        ConsistentRead=True,
        KeyConditionExpression="pk = :pk AND begins_with(sk, :evt)",
        ExpressionAttributeValues={":pk": {"S": f"RUN#default#{run_id}"}, ":evt": {"S": "EVT#"}},
    )
    return [item["type"]["S"] for item in answer["Items"]]


POLICY = {
    "steps": [
        {"afterMs": 20, "remind": True},
        {"afterMs": 40, "addApprovers": {"approversList": ["carol"]}},
    ]
}


def test_a_request_makes_one_schedule_per_step_and_the_deadline(
    harness: WorkflowHarness, scheduler: Any
) -> None:
    # Given an approval with a deadline and a two-step policy
    run = requested(harness, {**approval(approversList=["alice"]), "timeoutMs": 3_600_000}, POLICY)
    made = schedules(scheduler)
    # Then EventBridge Scheduler holds three one-time schedules, each deleting itself after it ran
    (interrupt_id,) = {json.loads(s["Target"]["Input"])["interruptId"] for s in made.values()}
    assert set(made) == {f"expire-{interrupt_id}", f"step0-{interrupt_id}", f"step1-{interrupt_id}"}
    step = made[f"step1-{interrupt_id}"]
    assert step["ScheduleExpression"].startswith("at(") and step["ActionAfterCompletion"] == "DELETE"
    assert step["Target"]["Arn"] == FUNCTION_ARN.format("escalate-interrupt")
    assert json.loads(step["Target"]["Input"]) == {
        "tenantId": "default",
        "runId": run.run_id,
        "nodeId": "Interrupt",
        "interruptId": interrupt_id,
        "step": 1,
    }


def test_steps_fire_once_carol_gets_in_and_alice_is_reminded(
    harness: WorkflowHarness, scheduler: Any, inbox: Inbox, dynamodb: Any, table_name: str
) -> None:
    # Given a suspended approval of alice's with the policy; alice was told
    run = requested(harness, approval(approversList=["alice"]), POLICY)
    assert notices(inbox) == [("alice", "interrupt.requested")]
    made = schedules(scheduler)
    first, second = (made[name] for name in sorted(made))
    # When carol votes first, Then she is refused
    assert vote(run, "carol")[0] == 403
    # When the reminding step fires, Then alice gets a reminder
    assert fired("escalate_interrupt", first) == {"result": "escalated"}
    assert notices(inbox) == [("alice", "interrupt.reminded")]
    # When the escalation step fires twice (the scheduler delivers at least once)
    assert fired("escalate_interrupt", second) == {"result": "escalated"}
    assert fired("escalate_interrupt", second) == {"result": "already-fired"}
    # Then carol was told once and is in now, matched by the step
    assert notices(inbox) == [("carol", "interrupt.escalated")]
    status, body = vote(run, "carol")
    assert status == 200 and body["resumeValue"]["votes"][0]["eligibility"]["matchedBy"] == "escalation:1"
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"])["action"] == "accept"
    # And the log holds each step once, every event valid against the published schema
    types = event_types(dynamodb, table_name, run.run_id)
    assert types.count("interrupt.escalated") == 1 and types.count("interrupt.reminded") == 1
    assert problems_of(stored_events(dynamodb, table_name)) == []


def test_the_deadline_decision_is_delivered_once_by_the_outbox(
    harness: WorkflowHarness, scheduler: Any, dynamodb: Any, table_name: str
) -> None:
    # Given an approval that rejects at its deadline (2 s: a busy machine may take longer than a
    # shorter one between the Task and its request, which would find it past due and decide at once)
    escalation = {"onDeadline": {"resolveWith": {"action": "reject", "feedback": "No answer in time."}}}
    run = requested(harness, {**approval(approversList=["alice"]), "timeoutMs": 2000}, escalation)
    (deadline,) = schedules(scheduler).values()
    stream = TableStream(table_name)
    from waitgate.wiring import composition

    sfn_client, counter = composition.aws_client("stepfunctions"), SendCounter()

    def die(**_: Any) -> None:
        raise ProcessDeath

    # When the deadline fires and its process dies before SendTaskSuccess
    with hooked(sfn_client, "before-call.sfn.SendTaskSuccess", die), pytest.raises(ProcessDeath):
        fired("expire_interrupt", deadline)
    # And the outbox gets the stream's records twice (a duplicate batch)
    batch = stream.next_batch()
    with hooked(sfn_client, "after-call.sfn.SendTaskSuccess", counter):
        assert Handler("dispatch_stream")(batch) == {"batchItemFailures": []}
        assert Handler("dispatch_stream")(batch) == {"batchItemFailures": []}
    # Then the run goes on with the reject, decided by waitgate at the deadline, delivered once
    output = json.loads(harness.wait_for_end(run.execution_arn)["output"])
    assert (output["action"], output["decidedBy"], output["votes"]) == ("reject", "waitgate:deadline", [])
    assert counter.accepted == 1
    assert event_types(dynamodb, table_name, run.run_id) == [
        "interrupt.requested",
        "approval.requested",
        "interrupt.resolved",
        "approval.resolved",
        "interrupt.delivered",
    ]
    # And alice, too late, is refused
    assert vote(run, "alice")[0] == 409


def test_an_ended_interrupts_schedules_are_deleted(
    harness: WorkflowHarness, scheduler: Any, table_name: str
) -> None:
    # Given an approval with a deadline and two steps, resolved before any of them ran
    stream = TableStream(table_name)
    run = requested(harness, {**approval(approversList=["alice"]), "timeoutMs": 3_600_000}, POLICY)
    assert len(schedules(scheduler)) == 3
    assert vote(run, "alice")[0] == 200
    # When the stream consumer gets the table's records (twice: a duplicate batch)
    batch = stream.next_batch()
    consumer: Callable[[Any], Any] = Handler("dispatch_stream")
    assert consumer(batch) == {"batchItemFailures": []}
    assert consumer(batch) == {"batchItemFailures": []}
    # Then no schedule of it is left to fire
    assert schedules(scheduler) == {}
