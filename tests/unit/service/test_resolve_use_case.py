"""The request and resolve use cases on in-memory ports: every rule of the run surface."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tests.fakes.memory import CountingIds, FixedClock, MemoryStore, RecordingWorkflow
from waitgate.errors import (
    InterruptAlreadyResolvedError,
    InterruptExpiredError,
    NotFoundError,
    ValidationFailedError,
)
from waitgate.run.identity import Caller
from waitgate.run.records import RunRef
from waitgate.run.wait_limits import MAX_TIMEOUT_MS
from waitgate.service.deliver_resolution import DeliveryDependencies
from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt
from waitgate.service.request_interrupt import (
    InterruptRequest,
    RequestDependencies,
    request_from_task_event,
    request_interrupt,
)
from waitgate.service.resolve_interrupt import ResolveCommand, ResolveDependencies, resolve_interrupt

RUN = RunRef("default", "run-1")
APPROVAL: dict[str, Any] = {
    "kind": "approval",
    "key": "ship",
    "data": {
        "artifactId": "a1",
        "artifactType": "doc",
        "title": "Ship?",
        "actions": ["accept", "reject", "refine", "edit-accept", "ask"],
    },
}
ALICE = Caller(principal="alice", tenant_id="default", via="jwt")
ACCEPT = {"action": "accept", "decidedAt": "2026-11-30T10:00:00Z"}


class World:
    def __init__(self) -> None:
        self.store = MemoryStore()
        self.workflow = RecordingWorkflow()
        self.clock = FixedClock()
        self.ids = CountingIds()

    def request(self, payload: dict[str, Any] = APPROVAL, token: str = "task-1", node: str = "Gate") -> Any:
        deps = RequestDependencies(self.store, self.workflow, self.clock, self.ids)
        return request_interrupt(InterruptRequest(token, RUN, node, payload), deps)

    def resolve(
        self,
        value: Any,
        *,
        node: str = "Gate",
        run: RunRef = RUN,
        caller: Caller = ALICE,
        interrupt_id: str | None = None,
        surface: str = "run",
    ) -> Any:
        command = ResolveCommand(
            run=run,
            node_id=node,
            resume_value=value,
            caller=caller,
            interrupt_id=interrupt_id,
            surface=surface,
        )  # type: ignore[arg-type]
        return resolve_interrupt(command, ResolveDependencies(self.store, self.workflow, self.clock))


@pytest.fixture
def world() -> World:
    return World()


def test_resolve_delivers_the_decision_once(world: World) -> None:
    # Given a pending approval
    world.request()
    # When alice accepts
    outcome = world.resolve(ACCEPT)
    # Then the workflow gets the value, with decidedBy filled from the authenticated principal,
    # and every vote with its eligibility record (one shape for 1-of-1 and M-of-N, docs/approvals.md)
    assert outcome.status == "resolved"
    vote = {
        **ACCEPT,
        "principal": "alice",
        "decidedBy": "alice",
        "eligibility": {"principal": "alice", "matchedBy": "open", "resolvedAt": "2026-11-30T10:00:00.000Z"},
    }
    assert world.workflow.successes == [("task-1", {**ACCEPT, "decidedBy": "alice", "votes": [vote]})]
    assert [e.type for e in world.store.event_log[RUN]] == [
        "interrupt.requested",
        "approval.requested",
        "interrupt.resolved",
        "approval.resolved",
    ]
    assert [e.seq for e in world.store.event_log[RUN]] == [1, 2, 3, 4]


def test_a_second_resolve_is_refused(world: World) -> None:
    world.request()
    world.resolve(ACCEPT)
    with pytest.raises(InterruptAlreadyResolvedError):
        world.resolve({**ACCEPT, "action": "reject"})
    assert len(world.workflow.successes) == 1


@pytest.mark.parametrize(
    ("value", "why"),
    [
        ({"action": "publish", "decidedAt": "2026-11-30T10:00:00Z"}, "action outside actions"),
        ({"action": "accept"}, "decidedAt missing"),
        ({"action": "refine", "decidedAt": "2026-11-30T10:00:00Z"}, "refine without refineFeedback"),
        ({"action": "edit-accept", "decidedAt": "2026-11-30T10:00:00Z"}, "edit-accept without data"),
        ({"action": "accept", "decidedAt": "2026-11-30T10:00:00Z", "extra": 1}, "closed value"),
        ("accept", "not an object"),
    ],
)
def test_invalid_resume_values_are_400_and_change_nothing(world: World, value: Any, why: str) -> None:
    world.request()
    with pytest.raises(ValidationFailedError):
        world.resolve(value)
    assert world.store.interrupts[(RUN, "Gate")].status == "pending", why
    assert world.workflow.successes == []


def test_unknown_run_node_and_other_tenant_are_not_found(world: World) -> None:
    world.request()
    with pytest.raises(NotFoundError):
        world.resolve(ACCEPT, node="Elsewhere")
    with pytest.raises(NotFoundError):
        world.resolve(ACCEPT, run=RunRef("default", "run-2"))
    with pytest.raises(NotFoundError):
        world.resolve(
            ACCEPT,
            run=RunRef("acme", "run-1"),
            caller=Caller(principal="mallory", tenant_id="acme", via="jwt"),
        )


def test_ask_keeps_the_suspend(world: World) -> None:
    # Given a pending approval / When alice asks a question
    world.request()
    outcome = world.resolve(
        {"action": "ask", "feedback": "Which region?", "decidedAt": "2026-11-30T10:00:00Z"}
    )
    # Then it is recorded, nothing is delivered, and a later accept still resolves
    assert outcome.status == "pending"
    assert world.store.interrupts[(RUN, "Gate")].asks[0]["principal"] == "alice"
    assert world.workflow.successes == []
    assert world.resolve(ACCEPT).status == "resolved"


def test_after_the_deadline_no_resolve_wins(world: World) -> None:
    # Given an approval with a 2-second deadline, and the clock past it
    world.request({**APPROVAL, "timeoutMs": 2000})
    world.clock.advance(seconds=2)
    # Then the run surface answers 409 "expired" and the token surface 410
    with pytest.raises(InterruptAlreadyResolvedError, match="expired"):
        world.resolve(ACCEPT)
    interrupt_id = world.store.interrupts[(RUN, "Gate")].interrupt_id
    with pytest.raises(InterruptExpiredError):
        world.resolve(ACCEPT, interrupt_id=interrupt_id, surface="token")


def test_after_the_expiry_and_the_runs_failure_a_resolve_says_it_expired(world: World) -> None:
    # Given an approval whose deadline passed, expired by its schedule, whose run then failed
    world.request({**APPROVAL, "timeoutMs": 2000})
    world.clock.advance(seconds=3)
    interrupt_id = world.store.interrupts[(RUN, "Gate")].interrupt_id
    deps = DeliveryDependencies(world.store, world.workflow, world.clock)
    assert expire_interrupt(ExpiryRequest(RUN, "Gate", interrupt_id), deps) == "expired"
    world.store.snapshots[RUN] = replace(world.store.snapshots[RUN], status="failed")
    # When someone resolves it, on either surface
    with pytest.raises(InterruptAlreadyResolvedError) as on_run:
        world.resolve(ACCEPT)
    with pytest.raises(InterruptExpiredError) as on_token:
        world.resolve(ACCEPT, interrupt_id=interrupt_id, surface="token")
    # Then both say this interrupt expired, and when (not that the run failed)
    deadline = world.store.interrupts[(RUN, "Gate")].deadline
    assert on_run.value.detail.startswith("expired. This interrupt expired")
    assert f"deadline ({deadline}) passed" in on_run.value.detail
    assert (
        on_token.value.detail
        == f"This interrupt expired: its deadline ({deadline}) passed before it was resolved."
    )


def test_a_token_for_an_earlier_interrupt_at_the_node_is_already_resolved(world: World) -> None:
    world.request()
    first = world.store.interrupts[(RUN, "Gate")].interrupt_id
    world.resolve(ACCEPT)
    world.request({**APPROVAL, "key": "ship-again"}, token="task-2")
    with pytest.raises(InterruptAlreadyResolvedError):
        world.resolve(ACCEPT, interrupt_id=first, surface="token")
    assert world.resolve(ACCEPT).status == "resolved"


def test_a_retried_request_with_the_same_key_takes_over_the_new_task_token(world: World) -> None:
    # Given a pending interrupt / When the state is retried with a new task token
    world.request(token="task-1")
    outcome = world.request(token="task-2")
    # Then no second interrupt.requested, and the answer goes to the new token
    assert outcome.status == "taken-over"
    assert [e.type for e in world.store.event_log[RUN]].count("interrupt.requested") == 1
    world.resolve(ACCEPT)
    assert [token for token, _ in world.workflow.successes] == ["task-2"]


def test_an_invalid_payload_fails_the_task_by_name(world: World) -> None:
    deps = RequestDependencies(world.store, world.workflow, world.clock, world.ids)
    event = {"taskToken": "task-9", "runId": "run-9", "nodeId": "Gate", "interrupt": {"kind": "approval"}}
    assert request_from_task_event(event, deps).status == "rejected"
    assert world.workflow.failures[0][:2] == ("task-9", "InterruptPayloadInvalid")
    assert world.store.commits == 0


def test_a_deadline_past_the_longest_a_workflow_can_wait_fails_the_task_by_name(world: World) -> None:
    # Given a deadline one millisecond past 363 days (a run lasts at most a year; the Task's backstop
    # comes a day after the longest deadline)
    deps = RequestDependencies(world.store, world.workflow, world.clock, world.ids)
    event = {"taskToken": "task-9", "runId": "run-9", "nodeId": "Gate"}
    too_long = {**APPROVAL, "timeoutMs": MAX_TIMEOUT_MS + 1}
    # Then the task fails with InterruptPayloadInvalid, naming the member, and nothing is written
    assert request_from_task_event({**event, "interrupt": too_long}, deps).status == "rejected"
    (failure,) = world.workflow.failures
    assert failure[:2] == ("task-9", "InterruptPayloadInvalid") and "interrupt.timeoutMs" in failure[2]
    assert world.store.commits == 0
    # And the longest deadline itself is accepted
    longest = {**APPROVAL, "timeoutMs": MAX_TIMEOUT_MS}
    assert (
        request_from_task_event({**event, "taskToken": "task-8", "interrupt": longest}, deps).status
        != "rejected"
    )


def test_a_malformed_task_event_with_a_token_fails_the_task(world: World) -> None:
    deps = RequestDependencies(world.store, world.workflow, world.clock, world.ids)
    event = {"taskToken": "task-9", "runId": "bad id!", "nodeId": "Gate", "interrupt": APPROVAL}
    assert request_from_task_event(event, deps).status == "rejected"
    assert world.workflow.failures[0][1] == "InterruptPayloadInvalid"


def test_a_task_that_is_gone_does_not_undo_the_decision(world: World) -> None:
    world.request()
    world.workflow.gone.add("task-1")
    outcome = world.resolve(ACCEPT)
    assert outcome.status == "resolved" and not outcome.delivered
    assert world.store.interrupts[(RUN, "Gate")].status == "resolved"
