"""Real task tokens without a Lambda Task: a tiny state machine whose one state hands its token to an
SQS queue (`sqs:sendMessage.waitForTaskToken`, which moto runs as is); the message is the task event
request_interrupt would get. Works on in-process moto and on a local stack's moto server alike."""

from __future__ import annotations

import json
import time
import uuid
from typing import Any


class TaskTokens:
    def __init__(self, sfn: Any, sqs: Any) -> None:
        self.sfn = sfn
        self.sqs = sqs
        self.queue_url = sqs.create_queue(QueueName=f"bench-tasks-{uuid.uuid4().hex[:8]}")["QueueUrl"]
        state = {
            "Type": "Task",
            "Resource": "arn:aws:states:::sqs:sendMessage.waitForTaskToken",
            "Parameters": {
                "QueueUrl": self.queue_url,
                "MessageBody": {
                    "taskToken.$": "$$.Task.Token",
                    "runId.$": "$$.Execution.Name",
                    "nodeId.$": "$$.State.Name",
                    "tenantId": "default",
                    "executionArn.$": "$$.Execution.Id",
                    "interrupt.$": "$.interrupt",
                },
            },
            "End": True,
        }
        self.state_machine_arn = sfn.create_state_machine(
            name=f"bench-tasks-{uuid.uuid4().hex[:8]}",
            definition=json.dumps({"StartAt": "Interrupt", "States": {"Interrupt": state}}),
            roleArn="arn:aws:iam::123456789012:role/bench-tasks",
        )["stateMachineArn"]

    def task_event(self, interrupt: Any, run_id: str | None = None) -> dict[str, Any]:
        """Start an execution and wait (≤ 30 s) for its task event, token included."""
        run_id = run_id or f"bench-{uuid.uuid4().hex[:12]}"
        self.sfn.start_execution(
            stateMachineArn=self.state_machine_arn, name=run_id, input=json.dumps({"interrupt": interrupt})
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            answer = self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10)
            for message in answer.get("Messages", []):
                body: dict[str, Any] = json.loads(message["Body"])
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
                if body["runId"] == run_id:
                    return body
            time.sleep(0.05)
        raise TimeoutError(f"execution {run_id} never reached its waitForTaskToken state")
