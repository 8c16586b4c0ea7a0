"""The local stack keeps its state across restarts (docs/local-stack.md): a run suspended before a
SIGINT is resolved after the next start through the link sent before it; --fresh starts empty. The
tests of what a restart keeps share one restart (`restarted`): each start costs the CPU of a few
hundred AWS calls, and their runs are apart (each its own run id)."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import OWN_STACKS, LocalStackHandle, run_local, running_stack
from tests.e2e.test_durable_e2e import DurableRun
from tests.e2e.waiting import wait_for
from tests.support.links import BROWSER_ACCEPT

pytestmark = [pytest.mark.e2e, OWN_STACKS]

DECISION = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


def link_of(stack: LocalStackHandle, run_id: str) -> str | None:
    listed = run_local(["dev-inbox", "--run-id", run_id, "--link"], stack.environment)
    return listed.stdout.strip() or None


def suspend(stack: LocalStackHandle, run_id: str) -> str:
    """An approval for alice at node Interrupt of the generic workflow; its execution's ARN."""
    approval = {
        "kind": "approval",
        "key": "ship",
        "data": {
            "artifactId": "a1",
            "artifactType": "doc",
            "title": "Ship it?",
            "actions": ["accept", "reject"],
            "approversList": ["alice"],
        },
    }
    arn: str = stack.sfn.start_execution(
        stateMachineArn=stack.state_machines["interrupt"],
        name=run_id,
        input=json.dumps({"interrupt": approval}),
    )["executionArn"]
    return arn


def state_line(stack: LocalStackHandle) -> str:
    (line,) = [line for line in stack.output if line.startswith("waitgate dev: state kept in ")]
    return line


def ended(stack: LocalStackHandle, execution_arn: str) -> dict[str, Any]:
    def finished() -> dict[str, Any] | None:
        execution: dict[str, Any] = stack.sfn.describe_execution(executionArn=execution_arn)
        return None if execution["status"] == "RUNNING" else execution

    execution: dict[str, Any] = wait_for(finished)
    return execution


@dataclass
class Restarted:
    """One stack stopped with SIGINT and started again on the same state directory and ports, with
    what was set up before the restart: the runs of the tests below share that one restart."""

    first: LocalStackHandle
    second: LocalStackHandle
    run_id: str  # a run of the generic workflow waiting for alice
    execution_arn: str
    link: str  # the link she was sent
    durable: DurableRun  # a durable run waiting for alice
    durable_link: str


@pytest.fixture(scope="session")  # once per worker, whatever order its tests come in
def restarted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Restarted]:
    state_dir = tmp_path_factory.mktemp("restarted")
    run_id = f"kept-{uuid.uuid4().hex[:8]}"
    with running_stack(state_dir) as first:
        execution_arn = suspend(first, run_id)
        link = wait_for(lambda: link_of(first, run_id))
        run_local(["directory", "add-member", "--group", "release", "--principal", "bob"], first.environment)
        durable = DurableRun(first)
        durable_link = durable.link("alice")
    with running_stack(state_dir, first.environment) as second:
        yield Restarted(first, second, run_id, execution_arn, link, durable, durable_link)


def test_a_run_suspended_before_a_restart_resolves_through_its_old_link(restarted: Restarted) -> None:
    # Given a stack with a run waiting for alice, the link she was sent, and a directory member
    first, second, run_id, link = restarted.first, restarted.second, restarted.run_id, restarted.link
    # When the stack was stopped with SIGINT (it exits 0) and starts again on the same ports
    assert first.process is not None and first.process.returncode == 0, "".join(first.output)
    # Then it says what it restored, in one line, before it is ready
    assert "1 waiting execution (started again)" in state_line(second)
    assert "not kept across restarts: finished executions" in state_line(second)
    # And alice's old link resolves the run, and the execution (same ARN) goes on once
    answer = second.http.post(link.removeprefix(second.api_url), {"resumeValue": DECISION})
    assert (answer.status, answer.json()["status"]) == (200, "resolved"), answer.body
    execution = ended(second, restarted.execution_arn)
    assert (execution["status"], json.loads(execution["output"])["action"]) == ("SUCCEEDED", "accept")
    # And the run was asked once, the inbox and the directory are as they were
    reader = second.jwt("reader", "runs:read")
    events = second.http.get(f"/runs/{run_id}/events?mode=debug", token=reader).json()["events"]
    types = [event["type"] for event in events]
    assert types.count("interrupt.requested") == 1 and "interrupt.delivery_failed" not in types
    assert link_of(second, run_id) == link
    members = run_local(["directory", "list", "--group", "release"], second.environment).stdout
    assert members.split() == ["bob"]


def test_fresh_starts_empty(tmp_path: Path) -> None:
    # Given a stack that was stopped with a run, a notice and a directory member kept
    run_id = f"forgotten-{uuid.uuid4().hex[:8]}"
    with running_stack(tmp_path) as first:
        suspend(first, run_id)
        wait_for(lambda: link_of(first, run_id))
        run_local(["directory", "add-member", "--group", "release", "--principal", "bob"], first.environment)
    # When it starts again with --fresh
    with running_stack(tmp_path, first.environment, ("--fresh",)) as fresh:
        # Then it says so, and nothing of before is there: no run, no execution, no notice, no member
        assert "starting empty (--fresh)" in state_line(fresh)
        reader = fresh.jwt("reader", "runs:read")
        assert fresh.http.get(f"/runs/{run_id}", token=reader).status == 404
        executions = fresh.sfn.list_executions(stateMachineArn=fresh.state_machines["interrupt"])
        assert executions["executions"] == []
        listed = run_local(["dev-inbox"], fresh.environment)
        assert (listed.returncode, listed.stdout.strip()) == (0, "(no notifications yet)")
        members = run_local(["directory", "list", "--group", "release"], fresh.environment).stdout
        assert members.strip() == ""


def test_a_durable_run_the_runner_forgot_across_a_restart_is_ended_as_failed(restarted: Restarted) -> None:
    # Given a durable run waiting for alice, and the link she was sent
    second, run, link = restarted.second, restarted.durable, restarted.durable_link
    # When the stack starts again: the testing SDK's runner kept no execution
    # Then the run is ended as failed, and the log says why: its FAILED status change is sent at the
    # start, and the run lifecycle takes it asynchronously (as from EventBridge on AWS), so it is
    # waited for
    reader = second.jwt("reader", "runs:read")

    def snapshot() -> dict[str, Any]:
        found: dict[str, Any] = second.http.get(f"/runs/{run.run_id}", token=reader).json()
        return found

    wait_for(lambda: snapshot()["status"] == "failed", what=lambda: f"the run to fail: {snapshot()}")
    assert any("was not kept across the restart" in line for line in second.output)
    # And alice's old link never says the run goes on: the request is over
    path = link.removeprefix(second.api_url)
    page = second.http.get(path, headers={"Accept": BROWSER_ACCEPT})
    assert page.status == 409 and "goes on" not in page.body.decode()
    answer = second.http.post(path, {"resumeValue": DECISION})
    assert (answer.status, answer.json()["code"]) == (409, "interrupt_already_resolved")
    events = second.http.get(f"/runs/{run.run_id}/events?mode=updates", token=reader).json()["events"]
    types = [event["type"] for event in events]
    assert "run.status_changed" in types and "interrupt.resolved" not in types
