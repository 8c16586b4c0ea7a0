"""One approval end to end on moto: a real execution suspends on a real task token, the run surface
resolves it, the execution goes on with the decision."""

from __future__ import annotations

import json
import threading
from collections import Counter
from typing import Any

import pytest

from tests.integration.workflow_harness import WorkflowHarness
from tests.support.handlers import Handler, http_event, sample_event

APPROVAL = sample_event("request_interrupt")["interrupt"]
ACCEPT = {"action": "accept", "feedback": "Ship it.", "decidedAt": "2026-11-30T10:00:00Z"}


@pytest.fixture
def harness(environment: None) -> WorkflowHarness:
    return WorkflowHarness()


def events_of(dynamodb: Any, table_name: str, run_id: str) -> list[dict[str, Any]]:
    answer = dynamodb.query(
        TableName=table_name,
        KeyConditionExpression="pk = :pk AND begins_with(sk, :evt)",
        ExpressionAttributeValues={":pk": {"S": f"RUN#default#{run_id}"}, ":evt": {"S": "EVT#"}},
    )
    return [
        {"type": i["type"]["S"], "seq": int(i["seq"]["N"]), "payload": json.loads(i["payload"]["S"])}
        for i in answer["Items"]
    ]


def snapshot_of(dynamodb: Any, table_name: str, run_id: str) -> dict[str, Any]:
    item = dynamodb.get_item(
        TableName=table_name,
        ConsistentRead=True,
        Key={"pk": {"S": f"RUN#default#{run_id}"}, "sk": {"S": "RUN"}},
    )["Item"]
    return {name: next(iter(value.values())) for name, value in item.items()}


def test_suspend_then_resolve_completes_the_execution(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given a run suspended on an approval
    run = harness.suspend(APPROVAL)
    Handler("request_interrupt")(run.task_event)
    snapshot = snapshot_of(dynamodb, table_name, run.run_id)
    assert snapshot["status"] == "waiting-approval"
    assert snapshot["currentNodeId"] == "Interrupt"
    # When alice accepts on the run surface
    response = Handler("resolve_by_run")(http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}))
    # Then she gets 200 with the resume value, and the execution's output is that decision
    assert response["statusCode"] == 200
    body = json.loads(response["body"])
    assert body["status"] == "resolved"
    votes = body["resumeValue"].pop("votes")
    assert body["resumeValue"] == {**ACCEPT, "decidedBy": "alice"}
    assert [(v["principal"], v["action"], v["eligibility"]["matchedBy"]) for v in votes] == [
        ("alice", "accept", "open")
    ]
    body["resumeValue"]["votes"] = votes
    ended = harness.wait_for_end(run.execution_arn)
    assert ended["status"] == "SUCCEEDED"
    assert json.loads(ended["output"]) == body["resumeValue"]
    # And the log holds requested and resolved, each with its legacy twin, in order
    types = [event["type"] for event in events_of(dynamodb, table_name, run.run_id)]
    assert types == ["interrupt.requested", "approval.requested", "interrupt.resolved", "approval.resolved"]
    assert snapshot_of(dynamodb, table_name, run.run_id)["status"] == "running"


def test_requested_event_carries_the_payload_verbatim(
    harness: WorkflowHarness, dynamodb: Any, table_name: str
) -> None:
    # Given / When a run suspends
    run = harness.suspend(APPROVAL)
    Handler("request_interrupt")(run.task_event)
    # Then interrupt.requested's payload is exactly what the workflow sent
    requested = events_of(dynamodb, table_name, run.run_id)[0]
    assert requested["payload"] == APPROVAL


def test_invalid_payload_fails_the_task_by_name(harness: WorkflowHarness) -> None:
    # Given a workflow that asks with a payload missing its data
    run = harness.suspend({"kind": "approval", "key": "k"})
    # When request_interrupt receives it
    outcome = Handler("request_interrupt")(run.task_event)
    # Then the task fails with InterruptPayloadInvalid, which a Catch can match
    assert outcome["status"] == "rejected"
    ended = harness.wait_for_end(run.execution_arn)
    assert ended["status"] == "FAILED"
    history = harness.sfn.get_execution_history(executionArn=run.execution_arn)["events"]
    failures = [e for e in history if e["type"] in {"TaskFailed", "ExecutionFailed"}]
    details = failures[-1].get("executionFailedEventDetails") or failures[-1]["taskFailedEventDetails"]
    assert details["error"] == "InterruptPayloadInvalid"


def test_eight_concurrent_resolves_one_wins(harness: WorkflowHarness, dynamodb: Any, table_name: str) -> None:
    # Given a suspended run and eight Lambda instances of resolve_by_run
    run = harness.suspend(APPROVAL)
    Handler("request_interrupt")(run.task_event)
    instances = [Handler("resolve_by_run") for _ in range(8)]
    from waitgate.wiring import composition

    sends = Counter[str]()
    composition.aws_client("stepfunctions").meta.events.register(
        "before-call.sfn.SendTaskSuccess", lambda **_: sends.update(["SendTaskSuccess"])
    )
    barrier = threading.Barrier(8)
    results: list[dict[str, Any]] = []

    def resolve(instance: Handler, n: int) -> None:
        event = http_event(
            run.run_id, "Interrupt", {"resumeValue": {**ACCEPT, "feedback": f"#{n}"}}, sub=f"approver-{n}"
        )
        barrier.wait()
        results.append(instance(event))

    # When all eight resolve at once
    threads = [threading.Thread(target=resolve, args=(h, n)) for n, h in enumerate(instances)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then exactly one gets 200 and seven get 409 interrupt_already_resolved
    statuses = Counter(result["statusCode"] for result in results)
    assert statuses == {200: 1, 409: 7}
    for result in results:
        if result["statusCode"] == 409:
            assert result["headers"]["Content-Type"] == "application/problem+json"
            assert json.loads(result["body"])["code"] == "interrupt_already_resolved"
    # And one interrupt.resolved was logged, and Step Functions was answered once
    types = Counter(event["type"] for event in events_of(dynamodb, table_name, run.run_id))
    assert types["interrupt.resolved"] == 1
    assert sends["SendTaskSuccess"] == 1
    winner = json.loads(next(r for r in results if r["statusCode"] == 200)["body"])
    assert json.loads(harness.wait_for_end(run.execution_arn)["output"]) == winner["resumeValue"]


def test_a_resolver_that_loses_the_race_answers_409_from_what_its_cancelled_commit_found(
    harness: WorkflowHarness,
) -> None:
    # Given a suspended run and eight Lambda instances of resolve_by_run, released together
    run = harness.suspend(APPROVAL)
    Handler("request_interrupt")(run.task_event)
    instances = [Handler("resolve_by_run") for _ in range(8)]
    from waitgate.wiring import composition

    calls = Counter[str]()
    composition.aws_client("dynamodb").meta.events.register(
        "before-call.dynamodb", lambda model, **_: calls.update([model.name])
    )
    barrier = threading.Barrier(8)
    statuses = Counter[int]()

    def resolve(instance: Handler, n: int) -> None:
        event = http_event(run.run_id, "Interrupt", {"resumeValue": ACCEPT}, sub=f"approver-{n}")
        barrier.wait()
        statuses.update([instance(event)["statusCode"]])

    # When all eight resolve at once
    threads = [threading.Thread(target=resolve, args=(h, n)) for n, h in enumerate(instances)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # Then one 200 and seven 409, and each resolver read the run once: a loser whose commit was
    # cancelled plans its 409 from the items the cancellation returned, not from a second read
    assert statuses == {200: 1, 409: 7}
    assert calls["BatchGetItem"] == 8
    assert calls["TransactWriteItems"] <= 8
