"""Durability on the local stack (docs/durability.md): a deadline fails the task and its link answers
410; a stopped execution cancels the run and its link answers 409; a key asked twice in one run is
answered from the first answer, with one interrupt.requested and nobody notified again."""

from __future__ import annotations

import json
import uuid
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.test_kinds_e2e import SampleRun, new_run_id, token_for, wait_for

pytestmark = pytest.mark.e2e

CUSTOM = {"kind": "custom", "key": "label-run", "data": {"customKind": "acme.label"}}
DEADLINE_APPROVAL = {
    "kind": "approval",
    "key": "late-approval",
    "timeoutMs": 2000,
    "data": {
        "artifactId": "rel-1",
        "artifactType": "release",
        "title": "Ship before the deadline?",
        "actions": ["accept", "reject"],
        "approversList": ["alice"],
    },
}
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


def mint(stack: LocalStackHandle, run: SampleRun) -> str:
    minted = stack.http.post(
        f"/runs/{run.run_id}/interrupts/Interrupt/tokens",
        {"intent": "resolve", "sub": "webhook"},
        token=token_for(stack, "backend", "interrupts:mint"),
    )
    assert minted.status == 201, minted.body
    token: str = minted.json()["token"]
    return token


def ended(stack: LocalStackHandle, run: SampleRun) -> dict[str, Any]:
    def finished() -> dict[str, Any] | None:
        execution: dict[str, Any] = stack.sfn.describe_execution(executionArn=run.execution_arn)
        return None if execution["status"] == "RUNNING" else execution

    execution: dict[str, Any] = wait_for(finished)
    return execution


class RunNotices:
    """A queue of the test's own, subscribed to the notifications topic for one run only (its runId
    attribute) before the run starts, so every notice the run causes lands there and nothing else."""

    def __init__(self, stack: LocalStackHandle, run_id: str) -> None:
        self.sqs = stack.client("sqs")
        self.queue_url = self.sqs.create_queue(QueueName=f"notices-{uuid.uuid4().hex[:12]}")["QueueUrl"]
        queue_arn = self.sqs.get_queue_attributes(QueueUrl=self.queue_url, AttributeNames=["QueueArn"])
        stack.client("sns").subscribe(
            TopicArn=stack.description["topicArns"]["NotificationsTopic"],
            Protocol="sqs",
            Endpoint=queue_arn["Attributes"]["QueueArn"],
            Attributes={"FilterPolicy": json.dumps({"runId": [run_id]})},
        )
        self.received: list[dict[str, Any]] = []

    def drain(self) -> list[dict[str, Any]]:
        """Every notice received so far (each message read once, then deleted)."""
        while messages := self.sqs.receive_message(QueueUrl=self.queue_url, MaxNumberOfMessages=10).get(
            "Messages"
        ):
            for message in messages:
                self.received.append(json.loads(json.loads(message["Body"])["Message"]))
                self.sqs.delete_message(QueueUrl=self.queue_url, ReceiptHandle=message["ReceiptHandle"])
        return self.received


def test_a_deadline_fails_the_task_and_its_link_answers_410(local_stack: LocalStackHandle) -> None:
    # Given a run asking alice for an approval with a 2-second deadline, and her link: the one her
    # notice carries, minted when the interrupt was requested (waiting for the run to be seen waiting,
    # then minting one, could come after a deadline that short on a busy machine)
    run_id = new_run_id("deadline")
    notices = RunNotices(local_stack, run_id)
    run = SampleRun(local_stack, "interrupt", {"interrupt": DEADLINE_APPROVAL}, run_id=run_id)
    (notice,) = wait_for(lambda: notices.drain() or None)
    token = str(notice["link"]).rsplit("/interrupts/", 1)[1]
    # When the deadline passes, Then the execution fails with InterruptTimedOut
    execution = ended(local_stack, run)
    assert (execution["status"], execution.get("error")) == ("FAILED", "InterruptTimedOut")
    # And the link answers 410, the run surface 409
    late = local_stack.http.post(f"/interrupts/{token}", {"resumeValue": ACCEPT})
    assert (late.status, late.json()["code"]) == (410, "interrupt_expired")
    status, problem = run.resolve("Interrupt", ACCEPT)
    assert (status, problem["code"]) == (409, "interrupt_already_resolved")
    assert "interrupt.expired" in run.types("updates")


def test_a_stopped_execution_cancels_the_run_and_its_link_answers_409(local_stack: LocalStackHandle) -> None:
    # Given a waiting run with a link
    run = SampleRun(local_stack, "interrupt", {"interrupt": CUSTOM})
    run.suspended_at("Interrupt")
    token = mint(local_stack, run)
    # When its execution is stopped
    local_stack.sfn.stop_execution(executionArn=run.execution_arn, error="Stopped", cause="e2e")

    def cancelled() -> dict[str, Any] | None:
        status, body = run.snapshot()
        return body if status == 200 and body["status"] == "cancelled" else None

    # Then the snapshot says cancelled, and the link answers 409
    assert wait_for(cancelled)["status"] == "cancelled"
    spent = local_stack.http.post(f"/interrupts/{token}", {"resumeValue": {"label": "late"}})
    assert (spent.status, spent.json()["code"]) == (409, "interrupt_already_resolved")
    assert run.types("updates")[-2:] == ["run.status_changed", "interrupt.cancelled"]


def test_a_key_asked_twice_is_answered_once(local_stack: LocalStackHandle) -> None:
    # Given the reentry sample: an approval asked at FirstAsk, then the same key at SecondAsk
    approval = {
        "kind": "approval",
        "key": "release-4.2",
        "data": {
            "artifactId": "rel-4.2",
            "artifactType": "release",
            "title": "Ship 4.2?",
            "actions": ["accept", "reject"],
            "approversList": ["alice"],
        },
    }
    run_id = new_run_id("reentry")
    notices = RunNotices(local_stack, run_id)
    run = SampleRun(local_stack, "reentry", {"interrupt": approval}, run_id=run_id)
    run.suspended_at("FirstAsk")
    # (alice's notice of the first ask is published after the ask commits: wait until it is there)
    assert len(wait_for(lambda: notices.drain() or None)) == 1
    # When alice accepts the first ask
    decision = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
    status, body = run.resolve("FirstAsk", decision)
    assert status == 200, body
    # Then the second ask got the first answer at once: both tasks' outputs are the same decision, and
    # it is the run's output (the state never carried the first: asking the key again returns it)
    assert run.output() == body["resumeValue"]
    history = local_stack.sfn.get_execution_history(executionArn=run.execution_arn)["events"]
    answers = [
        json.loads(e["taskSucceededEventDetails"]["output"]) for e in history if e["type"] == "TaskSucceeded"
    ]
    assert answers == [body["resumeValue"], body["resumeValue"]]
    # And the log holds one interrupt.requested, the replay in debug, and nobody was notified again
    # (the execution ended, so SecondAsk's request_interrupt had returned, and the local stack's SNS
    # hands a notice to its queues inside the Publish call: a second notice would be there by now)
    assert run.types("updates").count("interrupt.requested") == 1
    assert "interrupt.replayed" in run.types("debug")
    assert [(n["runId"], n["nodeId"]) for n in notices.drain()] == [(run_id, "FirstAsk")]
