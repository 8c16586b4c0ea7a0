"""The limits moto lacks, enforced where waitgate's promise depends on them (local/patches), each shown:
SendTaskSuccess.output in characters, state data of 256 KiB, a one-time schedule in the past, and
what a failed asynchronous invocation becomes."""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import boto3
import pytest
from botocore.exceptions import ClientError

from local.patches import strict_requests
from tests.integration.workflow_harness import WorkflowHarness
from waitgate.adapters.scheduler_deadlines import SchedulerDeadlines
from waitgate.adapters.sfn_workflow import OUTPUT_LIMIT_CHARACTERS, StepFunctionsWorkflow
from waitgate.errors import ResultTooLargeError, ScheduleInPastError
from waitgate.run.records import InterruptRecord, RunRef
from waitgate.run.workflow_errors import RESULT_TOO_LARGE
from waitgate.service._resume_delivery import send_resume_value

REGION = "us-east-1"
ROLE = "arn:aws:iam::123456789012:role/waitgate-test"


def cyrillic_answer(utf8_bytes: int) -> dict[str, Any]:
    """An approval-like answer of about `utf8_bytes` bytes of compact UTF-8 JSON, in Russian."""
    words = "Согласовано после проверки всех изменений. "
    feedback = (words * (utf8_bytes // len(words.encode("utf-8")) + 1)).encode("utf-8")[:utf8_bytes]
    return {"action": "accept", "feedback": feedback.decode("utf-8", errors="ignore")}


def wait_until(condition: Callable[[], Any], timeout: float = 20) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError("the condition did not hold in time")


@pytest.fixture
def harness(aws: None) -> WorkflowHarness:
    return WorkflowHarness()


def test_a_130_kb_cyrillic_answer_resumes_the_run(harness: WorkflowHarness) -> None:
    # Given a suspended run, and a 130 KB answer in Russian (inside the 144 KB budget)
    run = harness.suspend({"kind": "custom"})
    answer = cyrillic_answer(130_000)
    assert len(json.dumps(answer, ensure_ascii=False).encode("utf-8")) >= 129_000
    # (escaped as ASCII it was three times longer: over Step Functions' limit)
    assert len(json.dumps(answer)) > OUTPUT_LIMIT_CHARACTERS
    # When the workflow adapter sends it
    StepFunctionsWorkflow(boto3.client("stepfunctions", region_name=REGION)).send_success(
        run.task_event["taskToken"], answer
    )
    # Then the run succeeds with it, letter for letter
    ended = harness.wait_for_end(run.execution_arn)
    assert ended["status"] == "SUCCEEDED"
    assert json.loads(ended["output"]) == answer


def test_an_output_over_262144_characters_is_refused_as_aws_refuses_it(harness: WorkflowHarness) -> None:
    # Given a suspended run
    run = harness.suspend({"kind": "custom"})
    # When SendTaskSuccess carries one character more than the model's max
    with strict_requests.expected_refusals() as refused, pytest.raises(ClientError) as error:
        harness.sfn.send_task_success(taskToken=run.task_event["taskToken"], output='"' + "x" * 262_143 + '"')
    # Then it is answered as AWS answers it, naming the member and the rule, and the run still waits
    assert error.value.response["Error"]["Code"] == "ValidationException"
    assert [(v.operation, v.path, v.rule) for v in refused] == [
        ("stepfunctions.SendTaskSuccess", "output", "max")
    ]
    assert harness.sfn.describe_execution(executionArn=run.execution_arn)["status"] == "RUNNING"


def test_an_answer_over_the_engines_limit_fails_the_run_with_interrupt_result_too_large(
    harness: WorkflowHarness,
) -> None:
    # Given a suspended run, and a value longer than any task output Step Functions takes
    run = harness.suspend({"kind": "custom"})
    too_large = {"feedback": "ok " * 90_000}
    workflow = StepFunctionsWorkflow(harness.sfn)
    with pytest.raises(ResultTooLargeError):
        workflow.send_success(run.task_event["taskToken"], too_large)  # nothing is sent
    # When it is delivered as every answer is
    assert send_resume_value(workflow, run.task_event["taskToken"], too_large) is False
    # Then the run fails at once, by name, with the size in the cause
    ended = harness.wait_for_end(run.execution_arn)
    assert (ended["status"], ended.get("error")) == ("FAILED", RESULT_TOO_LARGE)


def test_state_data_over_256_kib_fails_the_execution_even_under_a_catch_on_states_all(aws: None) -> None:
    # Given a state machine that keeps the answer beside its 150 KB input, with a Catch on States.ALL
    sfn, sqs = boto3.client("stepfunctions", region_name=REGION), boto3.client("sqs", region_name=REGION)
    queue_url = sqs.create_queue(QueueName=f"tasks-{uuid.uuid4().hex[:8]}")["QueueUrl"]
    definition = {
        "StartAt": "Ask",
        "States": {
            "Ask": {
                "Type": "Task",
                "Resource": "arn:aws:states:::sqs:sendMessage.waitForTaskToken",
                "Parameters": {"QueueUrl": queue_url, "MessageBody": {"taskToken.$": "$$.Task.Token"}},
                "ResultPath": "$.answer",
                "Catch": [{"ErrorEquals": ["States.ALL"], "Next": "Caught"}],
                "End": True,
            },
            "Caught": {"Type": "Pass", "End": True},
        },
    }
    machine = sfn.create_state_machine(
        name=f"keeps-{uuid.uuid4().hex[:8]}", definition=json.dumps(definition), roleArn=ROLE
    )
    execution = sfn.start_execution(
        stateMachineArn=machine["stateMachineArn"], name="big", input=json.dumps({"kept": "k" * 150_000})
    )["executionArn"]
    message = wait_until(lambda: sqs.receive_message(QueueUrl=queue_url).get("Messages"))[0]
    # When a 150 KB answer (a valid task output) comes back into it
    sfn.send_task_success(
        taskToken=json.loads(message["Body"])["taskToken"], output=json.dumps("a" * 150_000)
    )
    # Then the execution fails with States.DataLimitExceeded, as on AWS: States.ALL does not catch it
    ended = wait_until(
        lambda: (d := sfn.describe_execution(executionArn=execution))["status"] != "RUNNING" and d
    )
    assert (ended["status"], ended.get("error")) == ("FAILED", "States.DataLimitExceeded")


def past_record(deadline: datetime) -> InterruptRecord:
    stamp = deadline.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"
    return InterruptRecord(
        run=RunRef.parse("default", "r1"),
        node_id="Gate",
        interrupt_id=f"01{uuid.uuid4().hex[:24].upper()}",
        kind="custom",
        key="k",
        payload={"kind": "custom"},
        task_token="t",
        requested_at=stamp,
        version=1,
        deadline=stamp,
    )


def test_scheduler_refuses_a_one_time_schedule_in_the_past(aws: None) -> None:
    # Given a schedule group, and a deadline ten seconds ago
    client = boto3.client("scheduler", region_name=REGION)
    client.create_schedule_group(Name="deadlines")
    arn = "arn:aws:lambda:us-east-1:123456789012:function:expire"
    record = past_record(datetime.now(UTC) - timedelta(seconds=10))
    # When a schedule is created for it, directly and through the adapter
    with pytest.raises(ClientError) as refused:
        client.create_schedule(
            Name="past",
            GroupName="deadlines",
            ScheduleExpression=f"at({(datetime.now(UTC) - timedelta(seconds=10)):%Y-%m-%dT%H:%M:%S})",
            FlexibleTimeWindow={"Mode": "OFF"},
            Target={"Arn": arn, "RoleArn": ROLE},
        )
    # Then Scheduler answers ValidationException, which the adapter reads as a deadline due now
    assert refused.value.response["Error"]["Code"] == "ValidationException"
    with pytest.raises(ScheduleInPastError):
        SchedulerDeadlines(client, "deadlines", arn, ROLE).schedule_expiry(record)
    # And a deadline in the future is scheduled, with the dead-letter queue on its target
    queue = "arn:aws:sqs:us-east-1:123456789012:schedule-dead-letters"
    future = past_record(datetime.now(UTC) + timedelta(minutes=5))
    SchedulerDeadlines(client, "deadlines", arn, ROLE, dead_letter_arn=queue).schedule_expiry(future)
    target = client.get_schedule(Name=f"expire-{future.interrupt_id}", GroupName="deadlines")["Target"]
    assert target["DeadLetterConfig"] == {"Arn": queue}
