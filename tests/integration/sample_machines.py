"""The template's own state machines run on moto as they are, but for their Lambda Tasks.

In-process moto cannot run a Lambda Task (it wants Docker), so every Lambda Task of a sample becomes
an `sqs:sendMessage.waitForTaskToken` Task with the same Payload as its message body (and the same
TimeoutSeconds, Retry, Catch, ResultSelector, ResultPath and OutputPath); the test answers each task
with SendTaskSuccess, as waitgate (or the Lambda's own return) would. What a state keeps of an answer
is then what Step Functions keeps: the execution's history shows every state's input and output.
"""

from __future__ import annotations

import copy
import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import boto3

from local.template.sam_template import load_state_machine_definition

REGION = "us-east-1"
LAMBDA_INVOKE = "arn:aws:states:::lambda:invoke"
Answer = Callable[[dict[str, Any]], Any]  # the task's message body → its output


def on_a_queue(definition: dict[str, Any], queue_url: str) -> dict[str, Any]:
    """The definition with each Lambda Task handing its Payload (and a task token) to the queue."""
    converted = copy.deepcopy(definition)
    for state in converted["States"].values():
        if state.get("Type") != "Task" or not str(state.get("Resource", "")).startswith(LAMBDA_INVOKE):
            continue
        payload = dict(state["Parameters"]["Payload"])
        payload.setdefault("taskToken.$", "$$.Task.Token")
        payload["stateName.$"] = "$$.State.Name"
        state["Resource"] = "arn:aws:states:::sqs:sendMessage.waitForTaskToken"
        state["Parameters"] = {"QueueUrl": queue_url, "MessageBody": payload}
    return converted


@dataclass
class SampleOnMoto:
    """One sample state machine on moto, its Lambda Tasks answered by the test."""

    sfn: Any
    sqs: Any
    queue_url: str
    state_machine_arn: str

    @classmethod
    def create(cls, asl_file: str, adjust: Callable[[dict[str, Any]], None] | None = None) -> SampleOnMoto:
        sfn = boto3.client("stepfunctions", region_name=REGION)
        sqs = boto3.client("sqs", region_name=REGION)
        queue_url = sqs.create_queue(QueueName=f"sample-tasks-{uuid.uuid4().hex[:8]}")["QueueUrl"]
        definition = on_a_queue(load_state_machine_definition(f"statemachines/{asl_file}"), queue_url)
        if adjust is not None:
            adjust(definition)
        arn = sfn.create_state_machine(
            name=f"sample-{uuid.uuid4().hex[:8]}",
            definition=json.dumps(definition),
            roleArn="arn:aws:iam::123456789012:role/waitgate-sample",
        )["stateMachineArn"]
        return cls(sfn, sqs, queue_url, arn)

    def start(self, execution_input: dict[str, Any]) -> str:
        arn: str = self.sfn.start_execution(
            stateMachineArn=self.state_machine_arn,
            name=f"run-{uuid.uuid4().hex[:12]}",
            input=json.dumps(execution_input, ensure_ascii=False),
        )["executionArn"]
        return arn

    def run(self, execution_input: dict[str, Any], answer: Answer, timeout: float = 60) -> dict[str, Any]:
        """Start an execution and answer each task it hands over until it ends; its description."""
        execution_arn = self.start(execution_input)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            described: dict[str, Any] = self.sfn.describe_execution(executionArn=execution_arn)
            if described["status"] != "RUNNING":
                return described
            for message in self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10).get(
                "Messages", []
            ):
                body = json.loads(message["Body"])
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
                output = json.dumps(answer(body), ensure_ascii=False)
                self.sfn.send_task_success(taskToken=body["taskToken"], output=output)
            time.sleep(0.02)
        raise AssertionError(f"{execution_arn} still runs after {timeout} s")

    def state_data(self, execution_arn: str) -> list[tuple[str, str]]:
        """Every state's input and output in the execution's history, as (event type, JSON text)."""
        found: list[tuple[str, str]] = []
        paginator = self.sfn.get_paginator("get_execution_history")
        for page in paginator.paginate(executionArn=execution_arn):
            for event in page["events"]:
                for key, member in (
                    ("stateEnteredEventDetails", "input"),
                    ("stateExitedEventDetails", "output"),
                    ("executionSucceededEventDetails", "output"),
                ):
                    if member in event.get(key, {}):
                        found.append((event["type"], event[key][member]))
        return found


def utf8_size(text: str) -> int:
    """How Step Functions measures state data: bytes of UTF-8."""
    return len(text.encode("utf-8"))
