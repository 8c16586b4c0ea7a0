"""A real Step Functions execution on moto that suspends on a real task token.

In-process moto cannot run a Lambda Task (it wants Docker), so the harness's state machine hands its
task token to an SQS queue (`sqs:sendMessage.waitForTaskToken`, which moto runs as is); the test then
gives that message to request_interrupt exactly as the Lambda Task would have.
"""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from typing import Any

import boto3

REGION = "us-east-1"


@dataclass
class SuspendedRun:
    run_id: str
    execution_arn: str
    task_event: dict[str, Any]


class WorkflowHarness:
    def __init__(self) -> None:
        self.sfn = boto3.client("stepfunctions", region_name=REGION)
        self.sqs = boto3.client("sqs", region_name=REGION)
        self.queue_url = self.sqs.create_queue(QueueName=f"tasks-{uuid.uuid4().hex[:8]}")["QueueUrl"]
        definition = {
            "StartAt": "Interrupt",
            "States": {
                "Interrupt": {
                    "Type": "Task",
                    "Resource": "arn:aws:states:::sqs:sendMessage.waitForTaskToken",
                    "Parameters": {
                        "QueueUrl": self.queue_url,
                        "MessageBody": {
                            "taskToken.$": "$$.Task.Token",
                            "runId.$": "$$.Execution.Name",
                            "nodeId.$": "$$.State.Name",
                            "tenantId.$": "$.tenantId",
                            "interrupt.$": "$.interrupt",
                        },
                    },
                    "End": True,
                }
            },
        }
        self.state_machine_arn = self.sfn.create_state_machine(
            name=f"waitgate-harness-{uuid.uuid4().hex[:8]}",
            definition=json.dumps(definition),
            roleArn="arn:aws:iam::123456789012:role/waitgate-harness",
        )["stateMachineArn"]

    def suspend(
        self, interrupt: dict[str, Any], tenant_id: str = "default", run_id: str | None = None
    ) -> SuspendedRun:
        run_id = run_id or f"run-{uuid.uuid4().hex[:12]}"
        execution_arn = self.sfn.start_execution(
            stateMachineArn=self.state_machine_arn,
            name=run_id,
            input=json.dumps({"tenantId": tenant_id, "interrupt": interrupt}),
        )["executionArn"]
        return SuspendedRun(run_id, execution_arn, self._task_event_for(run_id))

    def _task_event_for(self, run_id: str) -> dict[str, Any]:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            answer = self.sqs.receive_message(
                QueueUrl=self.queue_url, MaxNumberOfMessages=10, WaitTimeSeconds=0
            )
            for message in answer.get("Messages", []):
                body: dict[str, Any] = json.loads(message["Body"])
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
                if body["runId"] == run_id:
                    return body
            time.sleep(0.05)
        raise AssertionError(f"run {run_id} never reached its Interrupt state")

    def wait_for_end(self, execution_arn: str, timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            description: dict[str, Any] = self.sfn.describe_execution(executionArn=execution_arn)
            if description["status"] != "RUNNING":
                return description
            time.sleep(0.05)
        raise AssertionError("the execution is still running")
