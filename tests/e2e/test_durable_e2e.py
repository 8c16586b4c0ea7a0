"""The second engine on the local stack (issue 20, "How we will know"): the sample Lambda durable
function, run by the Durable Execution testing SDK's runner, suspends on an approval only alice may
give; her link resolves it and the execution SUCCEEDED with her decision; a 2-second deadline fails
the callback with InterruptTimedOut; two resolves racing give one delivery; the replay after the
answer asks nobody again. The tests wait for what the runner, the log or the inbox shows."""

from __future__ import annotations

import json
import threading
import uuid
from typing import Any

import boto3
import pytest

from tests.e2e.conftest import HttpAnswer, HttpClient, LocalStackHandle, run_local
from tests.e2e.test_escalation_e2e import approval
from tests.e2e.waiting import wait_for

pytestmark = pytest.mark.e2e

ACCEPT = {"action": "accept", "decidedAt": "2026-12-01T10:00:00Z"}


class DurableRun:
    """One execution of the stack's sample durable function (its name is the run's id)."""

    def __init__(self, stack: LocalStackHandle, **extra: Any) -> None:
        self.stack = stack
        self.run_id = f"durable-{uuid.uuid4().hex[:12]}"
        durable = stack.description["durable"]
        self.lambdas = boto3.client(
            "lambda",
            endpoint_url=durable["endpointUrl"],
            region_name=stack.region,
            aws_access_key_id="local",
            aws_secret_access_key="local",
        )
        started = self.lambdas.invoke(
            FunctionName=f"{durable['functions']['approval']}:live",
            InvocationType="Event",
            DurableExecutionName=self.run_id,
            Payload=json.dumps({"interrupt": approval(self.run_id, **extra)}),
        )
        assert started["StatusCode"] == 202
        self.arn: str = started["DurableExecutionArn"]

    def ended(self) -> dict[str, Any]:
        def finished() -> dict[str, Any] | None:
            execution: dict[str, Any] = self.lambdas.get_durable_execution(DurableExecutionArn=self.arn)
            return None if execution["Status"] == "RUNNING" else execution

        execution: dict[str, Any] = wait_for(finished, what="the durable execution's end")
        return execution

    def history(self) -> list[dict[str, Any]]:
        answer = self.lambdas.get_durable_execution_history(
            DurableExecutionArn=self.arn, IncludeExecutionData=True
        )
        events: list[dict[str, Any]] = answer["Events"]
        return events

    def link(self, recipient: str) -> str:
        def sent() -> str | None:
            found = run_local(
                ["dev-inbox", "--recipient", recipient, "--run-id", self.run_id, "--link"],
                self.stack.environment,
            )
            return found.stdout.strip() or None if found.returncode == 0 else None

        link: str = wait_for(sent)
        return link

    def notices(self, recipient: str) -> list[dict[str, Any]]:
        listed = run_local(
            ["dev-inbox", "--recipient", recipient, "--run-id", self.run_id, "--json"], self.stack.environment
        )
        return [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]

    def vote(self, sub: str) -> HttpAnswer:
        return self.stack.http.post(
            f"/runs/{self.run_id}/interrupts/{self.run_id}",
            {"resumeValue": ACCEPT},
            token=self.stack.jwt(sub, "approvals:respond"),
        )

    def types(self) -> list[str]:
        found: list[str] = []
        after, token = 0, self.stack.jwt("reader", "runs:read")
        while True:
            page = self.stack.http.get(
                f"/runs/{self.run_id}/events?mode=debug&after={after}", token=token
            ).json()
            found += [event["type"] for event in page["events"]]
            if page.get("next") is None:
                return found
            after = page["next"]

    def snapshot(self) -> dict[str, Any]:
        body: dict[str, Any] = self.stack.http.get(
            f"/runs/{self.run_id}", token=self.stack.jwt("reader", "runs:read")
        ).json()
        return body


def post_link(link: str) -> HttpAnswer:
    return HttpClient("").post(link, {"resumeValue": ACCEPT})


def test_alices_link_resumes_the_durable_function_with_her_decision(local_stack: LocalStackHandle) -> None:
    # Given the sample durable function suspended on an approval only alice may give
    run = DurableRun(local_stack)
    link = run.link("alice")
    # When bob tries, he is refused; when alice presses Accept through her link, it resolves
    assert run.vote("bob").status == 403
    answer = post_link(link)
    assert answer.status == 200, answer.body
    # Then the durable execution SUCCEEDED with her decision as its result
    execution = run.ended()
    assert execution["Status"] == "SUCCEEDED", execution
    result = json.loads(execution["Result"])
    assert (result["action"], result["decidedBy"]) == ("accept", "alice")
    assert [vote["principal"] for vote in result["votes"]] == ["alice"]
    # And it is the resume value itself, as a Step Functions workflow's output holds it (one shape)
    assert result["votes"][0]["eligibility"]["matchedBy"] == "list" and "matchedBy" not in result["votes"][0]
    # And the run followed its execution's end (the status change reached the run lifecycle)
    wait_for(lambda: True if run.snapshot()["status"] == "completed" else None)


def test_a_two_second_deadline_fails_the_callback_with_interrupt_timed_out(
    local_stack: LocalStackHandle,
) -> None:
    # Given a durable function suspended on an approval with a 2-second deadline
    run = DurableRun(local_stack, timeoutMs=2000)
    # When nobody answers, Then the execution fails with waitgate's InterruptTimedOut
    execution = run.ended()
    assert execution["Status"] == "FAILED", execution
    assert "InterruptTimedOut" in execution["Error"]["ErrorType"]
    # And the callback itself was failed by name (SendDurableExecutionCallbackFailure)
    (failed,) = [event for event in run.history() if event["EventType"] == "CallbackFailed"]
    assert failed["CallbackFailedDetails"]["Error"]["Payload"]["ErrorType"] == "InterruptTimedOut"
    assert "interrupt.expired" in run.types()


def test_two_resolves_racing_give_exactly_one_delivery(local_stack: LocalStackHandle) -> None:
    # Given a durable function suspended on an approval, alice's link and her JWT at hand
    run = DurableRun(local_stack)
    link = run.link("alice")
    token = local_stack.jwt("alice", "approvals:respond")
    answers: list[int] = []

    def by_link() -> None:
        answers.append(post_link(link).status)

    def by_run() -> None:
        path = f"/runs/{run.run_id}/interrupts/{run.run_id}"
        answers.append(local_stack.http.post(path, {"resumeValue": ACCEPT}, token=token).status)

    # When both resolve at once
    racers = [threading.Thread(target=by_link), threading.Thread(target=by_run)]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join()
    # Then one won, the other was told it was resolved already
    assert sorted(answers) == [200, 409]
    assert run.ended()["Status"] == "SUCCEEDED"
    # And the callback was answered exactly once, the resolution logged once
    history = run.history()
    assert [event["EventType"] for event in history].count("CallbackSucceeded") == 1
    assert run.types().count("interrupt.resolved") == 1


def test_the_replay_after_the_answer_asks_nobody_again(local_stack: LocalStackHandle) -> None:
    # Given a durable function that suspended on its wait (its first invocation ended), resolved by alice
    run = DurableRun(local_stack)
    link = run.link("alice")
    wait_for(
        lambda: "InvocationCompleted" in [event["EventType"] for event in run.history()] or None,
        what="the first invocation's end: the function suspended on the callback",
    )
    assert post_link(link).status == 200
    assert run.ended()["Status"] == "SUCCEEDED"
    # Then the function ran again from the top (a replay: two invocations) ...
    history = run.history()
    types = [event["EventType"] for event in history]
    assert types.count("InvocationCompleted") >= 2
    # ... yet its submitter ran once, waitgate was asked once and alice notified once
    submitters = [
        e for e in history if e["EventType"] == "StepStarted" and str(e.get("Name")).endswith("submitter")
    ]
    assert len(submitters) == 1
    assert run.types().count("interrupt.requested") == 1
    assert len(run.notices("alice")) == 1
