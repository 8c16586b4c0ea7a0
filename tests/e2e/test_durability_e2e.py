"""Durability on the local stack (docs/durability.md): a deadline fails the task and its link answers
410; a stopped execution cancels the run and its link answers 409; a key asked twice in one run is
answered from the first answer, with one interrupt.requested and nobody notified again."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle, run_local
from tests.e2e.test_kinds_e2e import SampleRun, token_for, wait_for

pytestmark = pytest.mark.e2e

CUSTOM = {"kind": "custom", "key": "label-run", "data": {"customKind": "acme.label"}}


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


def inbox_run_ids(stack: LocalStackHandle) -> list[str]:
    """The runIds of every notice the stack sent, as `waitgate dev-inbox --json` lists them."""
    listed = run_local(["dev-inbox", "--json"], stack.environment)
    return [str(json.loads(line)["runId"]) for line in listed.stdout.splitlines() if line.strip()]


def test_a_deadline_fails_the_task_and_its_link_answers_410(local_stack: LocalStackHandle) -> None:
    # Given a run waiting on an interrupt with a 2-second deadline, and a link to it
    run = SampleRun(local_stack, "interrupt", {"interrupt": {**CUSTOM, "timeoutMs": 2000}})
    run.suspended_at("Interrupt")
    token = mint(local_stack, run)
    # When the deadline passes, Then the execution fails with InterruptTimedOut
    execution = ended(local_stack, run)
    assert (execution["status"], execution.get("error")) == ("FAILED", "InterruptTimedOut")
    # And the link answers 410, the run surface 409
    late = local_stack.http.post(f"/interrupts/{token}", {"resumeValue": {"label": "late"}})
    assert (late.status, late.json()["code"]) == (410, "interrupt_expired")
    status, problem = run.resolve("Interrupt", {"label": "late"})
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
    run = SampleRun(local_stack, "reentry", {"interrupt": approval})
    run.suspended_at("FirstAsk")
    notified_before = wait_for(lambda: inbox_run_ids(local_stack).count(run.run_id) or None)
    # When alice accepts the first ask
    decision = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}
    status, body = run.resolve("FirstAsk", decision)
    assert status == 200, body
    # Then the second ask got the first answer at once: both outputs are the same decision
    output = run.output()
    assert output["first"] == output["second"] == body["resumeValue"]
    # And the log holds one interrupt.requested, the replay in debug, and nobody was notified again
    assert run.types("updates").count("interrupt.requested") == 1
    assert "interrupt.replayed" in run.types("debug")
    assert inbox_run_ids(local_stack).count(run.run_id) == notified_before
