"""AWS as it really is, on the local stack (issue 27, "How we will know"): a 130 KB answer in Russian
resumes its run; an answer over the engine's limit fails the run by name at once; an expiry that fails
three times reaches its OnFailure queue, which has its alarm."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.test_quorum_e2e import Run
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e

SCOPE = "approvals:respond"
DECIDED_AT = "2026-11-30T10:00:00Z"
WORDS = "Согласовано после проверки всех изменений, кроме миграции базы. "


def russian(utf8_bytes: int) -> str:
    text = (WORDS * (utf8_bytes // len(WORDS.encode("utf-8")) + 1)).encode("utf-8")[:utf8_bytes]
    return text.decode("utf-8", errors="ignore")


def approval(key: str) -> dict[str, Any]:
    return {
        "kind": "approval",
        "key": key,
        "data": {
            "artifactId": "migration-7",
            "artifactType": "release",
            "title": "Выпустить 4.2?",
            "actions": ["accept", "edit-accept", "reject"],
            "approversList": ["alice"],
        },
    }


def node_key(run: Run, tenant: str = "default") -> dict[str, Any]:
    return {"pk": {"S": f"RUN#{tenant}#{run.run_id}"}, "sk": {"S": "NODE#Interrupt"}}


def test_a_130_kb_answer_in_russian_resumes_its_run(local_stack: LocalStackHandle) -> None:
    # Given a run waiting on an approval, and an edited answer in Russian as large as one vote may be
    run = Run(local_stack, approval("ru-130"))
    edit = {"action": "edit-accept", "decidedAt": DECIDED_AT, "editedArtifactData": russian(63_500)}
    # When alice decides with it (the resume value: her vote, and every vote again)
    answer = local_stack.http.post(
        f"/runs/{run.run_id}/interrupts/Interrupt",
        {"resumeValue": edit},
        token=local_stack.jwt("alice", SCOPE),
    )
    assert answer.status == 200, answer.json()
    resume_value = answer.json()["resumeValue"]
    size = len(json.dumps(resume_value, ensure_ascii=False, separators=(",", ":")).encode("utf-8"))
    assert size >= 127_000
    assert len(json.dumps(resume_value)) > 262_144  # escaped as ASCII it would never have fitted
    # Then the run SUCCEEDS with it, every letter as sent
    output = run.output()
    assert output["editedArtifactData"] == edit["editedArtifactData"]
    assert output == resume_value


def test_an_answer_over_the_engines_limit_fails_the_run_with_interrupt_result_too_large(
    local_stack: LocalStackHandle,
) -> None:
    # Given a run waiting on an approval, and its interrupt then resolved with a value no task output
    # can carry (as an item kept by an older version without the budget would hold it): committed,
    # not delivered, as a resolver that died before its send leaves it
    run = Run(local_stack, approval("too-large"))
    table = local_stack.table_names["InterruptsTable"]
    item = local_stack.dynamodb.get_item(TableName=table, Key=node_key(run), ConsistentRead=True)["Item"]
    too_large = {"action": "accept", "decidedAt": DECIDED_AT, "feedback": "ok " * 100_000}
    item.update(
        status={"S": "resolved"},
        resumeValue={"S": json.dumps(too_large, separators=(",", ":"))},
        version={"N": str(int(item["version"]["N"]) + 1)},
    )
    local_stack.dynamodb.put_item(TableName=table, Item=item)
    # When the outbox delivers it (the table's stream)
    execution = wait_for(
        lambda: (
            (d := local_stack.sfn.describe_execution(executionArn=run.execution_arn))["status"] != "RUNNING"
            and d
        ),
        what="the run to end",
    )
    # Then the run fails at once by name, and the item says it was not sent
    assert (execution["status"], execution.get("error")) == ("FAILED", "InterruptResultTooLarge")
    # (the outbox fails the run first and marks the item after, so the mark is waited for)
    marked = wait_for(
        lambda: (
            (
                i := local_stack.dynamodb.get_item(TableName=table, Key=node_key(run), ConsistentRead=True)[
                    "Item"
                ]
            )
            and "deliveryOutcome" in i
            and i
        ),
        what="the item's delivery mark",
    )
    assert marked["deliveryOutcome"]["S"] == "result-too-large"


def test_an_expiry_that_fails_three_times_reaches_its_on_failure_queue_and_its_alarm(
    local_stack: LocalStackHandle,
) -> None:
    # Given a run waiting on an interrupt with a ten-minute deadline, and its deadline's schedule
    tenant = f"t-{uuid.uuid4().hex[:8]}"
    run_id = f"run-{uuid.uuid4().hex}"
    execution_arn = local_stack.sfn.start_execution(
        stateMachineArn=local_stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps(
            {
                "tenantId": tenant,
                "interrupt": {
                    "kind": "custom",
                    "key": "k",
                    "data": {"customKind": "acme.survey"},
                    "timeoutMs": 600_000,
                },
            }
        ),
    )["executionArn"]
    scheduler, group = local_stack.client("scheduler"), "waitgate-local-deadlines"

    def deadline_schedule() -> dict[str, Any] | None:
        for summary in scheduler.list_schedules(GroupName=group)["Schedules"]:
            found: dict[str, Any] = scheduler.get_schedule(Name=summary["Name"], GroupName=group)
            if json.loads(found["Target"]["Input"]).get("runId") == run_id:
                return found
        return None

    schedule = wait_for(deadline_schedule, what="the deadline's schedule")
    # When the schedule fires nine minutes early (it is made again to fire in a few seconds): the
    # expiry fails (not due), and Lambda runs it twice more
    scheduler.delete_schedule(Name=schedule["Name"], GroupName=group)
    soon = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=3)
    scheduler.create_schedule(
        Name=schedule["Name"],
        GroupName=group,
        ScheduleExpression=f"at({soon:%Y-%m-%dT%H:%M:%S})",
        ScheduleExpressionTimezone="UTC",
        FlexibleTimeWindow={"Mode": "OFF"},
        ActionAfterCompletion="DELETE",
        Target=schedule["Target"],
    )
    # Then Lambda's invocation record reaches the function's OnFailure queue after three runs
    sqs = local_stack.client("sqs")
    queue_url = local_stack.description["queueUrls"]["InvocationFailuresQueue"]

    def failure_record() -> dict[str, Any] | None:
        for message in sqs.receive_message(QueueUrl=queue_url, MaxNumberOfMessages=10).get("Messages", []):
            record: dict[str, Any] = json.loads(message["Body"])
            if record["requestPayload"].get("runId") == run_id:
                sqs.delete_message(QueueUrl=queue_url, ReceiptHandle=message["ReceiptHandle"])
                return record
        return None

    record = wait_for(failure_record, what="the failed expiry in InvocationFailuresQueue")
    assert record["requestContext"]["approximateInvokeCount"] == 3
    assert (
        record["requestContext"]["functionArn"]
        .split(":function:")[1]
        .startswith("waitgate-local-expire-interrupt")
    )
    assert record["responsePayload"]["errorType"] == "NotDueError"
    assert record["requestPayload"] == json.loads(schedule["Target"]["Input"])
    # And the alarm on that queue exists
    alarms = local_stack.client("cloudwatch").describe_alarms()["MetricAlarms"]
    queue_name = queue_url.rsplit("/", 1)[-1]
    assert [
        a["MetricName"] for a in alarms if {"Name": "QueueName", "Value": queue_name} in a["Dimensions"]
    ] == ["ApproximateNumberOfMessagesVisible"]
    local_stack.sfn.stop_execution(executionArn=execution_arn)
