"""The SDK against the local stack over real HTTP: a workflow built with the Task state helper and a
builder, resolved with WaitgateClient (by run, and by a minted token), read back typed; the run and
its paginated events; typed errors for 400, 404 and 409."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.e2e.conftest import LocalStackHandle
from tests.e2e.waiting import wait_for as eventually
from waitgate.sdk import (
    Approval,
    ApprovalDecision,
    Custom,
    InterruptAlreadyResolved,
    InterruptBuilder,
    NotFound,
    ValidationError,
    WaitgateClient,
    interrupt_task_state,
)

pytestmark = pytest.mark.e2e

SCOPES = "approvals:respond runs:read interrupts:mint"


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


@pytest.fixture(scope="module")
def client(local_stack: LocalStackHandle) -> WaitgateClient:
    jwt = local_stack.jwt("alice", SCOPES)
    return WaitgateClient(local_stack.api_url, token_provider=lambda: jwt)


@pytest.fixture(scope="module")
def sdk_machine(local_stack: LocalStackHandle) -> str:
    """A state machine of our own, its one state built by interrupt_task_state from the input."""
    generic = local_stack.sfn.describe_state_machine(stateMachineArn=local_stack.state_machines["interrupt"])
    function_arn = json.loads(generic["definition"])["States"]["Interrupt"]["Parameters"]["FunctionName"]
    state = interrupt_task_state(
        None, function_arn=function_arn, payload_path="$.interrupt", result_path="$.answer"
    )
    definition = {"StartAt": "Approve", "States": {"Approve": state}}
    created = local_stack.sfn.create_state_machine(
        name=f"sdk-{uuid.uuid4().hex[:8]}",
        definition=json.dumps(definition),
        roleArn="arn:aws:iam::123456789012:role/sdk-test",
    )
    return str(created["stateMachineArn"])


class Run:
    def __init__(self, stack: LocalStackHandle, machine: str, builder: InterruptBuilder) -> None:
        self.stack = stack
        self.run_id = f"sdk-{uuid.uuid4().hex[:12]}"
        self.arn = stack.sfn.start_execution(
            stateMachineArn=machine, name=self.run_id, input=json.dumps({"interrupt": builder.to_payload()})
        )["executionArn"]

    def suspended(self, client: WaitgateClient) -> dict[str, Any]:
        def waiting() -> dict[str, Any] | None:
            try:
                run = client.get_run(self.run_id)
            except NotFound:
                return None
            return run if "pendingInterrupt" in run else None

        snapshot: dict[str, Any] = eventually(waiting)
        return snapshot

    def output(self) -> Any:
        def finished() -> dict[str, Any] | None:
            execution: dict[str, Any] = self.stack.sfn.describe_execution(executionArn=self.arn)
            return None if execution["status"] == "RUNNING" else execution

        execution = eventually(finished)
        assert execution["status"] == "SUCCEEDED", execution
        return json.loads(execution["output"])


def test_resolve_by_run_with_the_task_state_helper(
    local_stack: LocalStackHandle, client: WaitgateClient, sdk_machine: str
) -> None:
    # Given a workflow made with interrupt_task_state, suspended on an approval built with the SDK
    release = Approval("release", artifact_id="r42", artifact_type="release", title="Ship 42?")
    run = Run(local_stack, sdk_machine, release)
    snapshot = run.suspended(client)
    assert (snapshot["status"], snapshot["currentNodeId"]) == ("waiting-approval", "Approve")
    # When an action outside `actions` is sent, Then a typed 400 names the member
    with pytest.raises(ValidationError) as refused:
        client.resolve_by_run(
            run.run_id, "Approve", {"action": "ask", "feedback": "Why?", "decidedAt": now()}
        )
    assert (refused.value.status, refused.value.path) == (400, "resumeValue.action")
    # When alice accepts
    resolution = client.resolve_by_run(run.run_id, "Approve", {"action": "accept", "decidedAt": now()})
    # Then it is resolved, and the workflow's output reads back as an accepted decision with alice's vote
    assert resolution.status == "resolved"
    decision = ApprovalDecision.from_resume(run.output()["answer"])
    assert decision.accepted
    assert [(vote.principal, vote.matched_by) for vote in decision.votes] == [("alice", "open")]
    # And a second resolve is a typed 409
    with pytest.raises(InterruptAlreadyResolved) as again:
        client.resolve_by_run(run.run_id, "Approve", {"action": "reject", "decidedAt": now()})
    assert (again.value.status, again.value.code) == (409, "interrupt_already_resolved")


def test_mint_inspect_and_resolve_by_token(
    local_stack: LocalStackHandle, client: WaitgateClient, sdk_machine: str
) -> None:
    # Given a run suspended on a custom interrupt
    run = Run(local_stack, sdk_machine, Custom("label", custom_kind="acme.label", payload={"parcels": 2}))
    run.suspended(client)
    # When a link is minted, inspected and resolved through the SDK
    link = client.mint_token(run.run_id, "Approve", sub="warehouse", ttl_seconds=600)
    inspection = client.inspect_by_token(link.token)
    resolution = client.resolve_by_token(link.url, {"printed": True})
    # Then the inspection shows the payload as sent and where it waits, and the run goes on
    assert inspection.payload["data"] == {"customKind": "acme.label", "payload": {"parcels": 2}}
    assert (inspection.run_id, inspection.node_id, inspection.status) == (run.run_id, "Approve", "pending")
    assert inspection.link_expires_at is not None and inspection.link_expires_at <= link.expires_at
    assert resolution.status == "resolved"
    assert run.output()["answer"] == {"printed": True}
    # And the spent token is a typed 409
    with pytest.raises(InterruptAlreadyResolved):
        client.resolve_by_token(link.token, {"printed": False})


def test_events_paginate_and_unknown_runs_are_not_found(
    local_stack: LocalStackHandle, client: WaitgateClient, sdk_machine: str
) -> None:
    # Given a resolved run
    run = Run(local_stack, sdk_machine, Custom("ping", custom_kind="acme.ping"))
    run.suspended(client)
    client.resolve_by_run(run.run_id, "Approve", {"pong": 1})
    run.output()
    # When its events are read one per page
    events = list(client.list_run_events(run.run_id, mode="debug", page_size=1))
    # Then every event comes once, in seq order, across pages
    seqs = [event["seq"] for event in events]
    assert seqs == sorted(set(seqs)) and len(seqs) >= 2
    assert [event["type"] for event in events][:1] == ["interrupt.requested"]
    assert "interrupt.resolved" in [event["type"] for event in events]
    # (read again, the log may have grown meanwhile — the run's end and the outbox's records are
    # appended when they happen — but what was read before is its beginning, unchanged)
    again = [event["seq"] for event in client.list_run_events(run.run_id, mode="debug")]
    assert again[: len(seqs)] == seqs
    # And an unknown run is a typed 404 on both reads
    with pytest.raises(NotFound):
        client.get_run("no-such-run")
    with pytest.raises(NotFound):
        list(client.list_run_events("no-such-run"))


def test_capabilities_are_public(local_stack: LocalStackHandle) -> None:
    capabilities = WaitgateClient(local_stack.api_url).capabilities()
    assert "hs256" in json.dumps(capabilities)
