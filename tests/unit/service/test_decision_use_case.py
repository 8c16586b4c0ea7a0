"""recordDecision on in-memory ports: an agent's decision is logged; below the run's threshold (else the
host's) the run escalates with a low-confidence interrupt the workflow can ask for next."""

from __future__ import annotations

from typing import Any

import pytest

from tests.unit.service.world import RUN, World
from waitgate.errors import NotFoundError, PayloadTooLargeError, ValidationFailedError
from waitgate.run.records import RunRef
from waitgate.service.record_decision import DecisionDependencies, record_decision
from waitgate.service.run_lifecycle import ExecutionEnded, LifecycleDependencies, end_runs

HOST_DEFAULT = 0.7


@pytest.fixture
def world() -> World:
    return World()


def decide(world: World, confidence: float, default: float = HOST_DEFAULT, **event: Any) -> dict[str, Any]:
    task = {"runId": "run-1", "nodeId": "Decide", "decision": {"agentId": "triage", "confidence": confidence}}
    return record_decision({**task, **event}, DecisionDependencies(world.store, world.clock, default))


def threshold(value: Any) -> dict[str, Any]:
    return {"configurable": {"run": {"escalationThreshold": value}}}


def test_a_confident_decision_is_logged_and_the_run_goes_on(world: World) -> None:
    # When the agent decides with a confidence above the host default
    answer = decide(world, 0.9, decision={"agentId": "triage", "confidence": 0.9, "route": "billing"})
    # Then no escalation, and the decision (with its extra members) is logged for the node
    assert answer == {"escalate": False}
    [event] = world.log()
    assert (event.type, event.node_id, event.mode, event.payload) == (
        "agent.decided",
        "Decide",
        "updates",
        {"agentId": "triage", "confidence": 0.9, "route": "billing"},
    )
    assert world.store.snapshots[RUN].status == "running"


def test_below_the_host_default_the_run_escalates(world: World) -> None:
    answer = decide(world, 0.69)
    decision = {"agentId": "triage", "confidence": 0.69}
    assert answer == {
        "escalate": True,
        "interrupt": {
            "kind": "low-confidence",
            "key": "low-confidence-Decide",
            "data": {"agentId": "triage", "threshold": 0.7, "observed": 0.69, "decision": decision},
        },
    }
    assert world.types() == ["agent.decided", "node.suspended"]
    assert world.log()[1].payload == {"reason": "low-confidence", "threshold": 0.7, "observed": 0.69}


def test_at_the_threshold_the_run_goes_on(world: World) -> None:
    assert decide(world, 0.7) == {"escalate": False}
    assert decide(world, 0.5, **threshold(0.5)) == {"escalate": False}
    assert world.types() == ["agent.decided", "agent.decided"]


@pytest.mark.parametrize(("run_threshold", "escalates"), [(0.95, True), (0.2, False), (0, False), (1, True)])
def test_the_runs_threshold_replaces_the_hosts(world: World, run_threshold: float, escalates: bool) -> None:
    answer = decide(world, 0.9, **threshold(run_threshold))
    assert answer["escalate"] is escalates
    if escalates:
        assert answer["interrupt"]["data"]["threshold"] == float(run_threshold)


@pytest.mark.parametrize(
    "configurable",
    [{}, {"run": {}}, {"run": {"escalationThreshold": None}}, {"run": "fast"}, {"other": {"x": 1}}],
)
def test_without_a_runs_threshold_the_host_default_holds(world: World, configurable: dict[str, Any]) -> None:
    assert decide(world, 0.5, default=0.6, configurable=configurable)["escalate"] is True
    assert decide(world, 0.6, default=0.6, configurable=configurable)["escalate"] is False


@pytest.mark.parametrize("value", [1.01, -0.1, True, "0.5", [0.5]])
def test_an_invalid_threshold_is_400_and_logs_nothing(world: World, value: Any) -> None:
    with pytest.raises(ValidationFailedError) as refused:
        decide(world, 0.5, **threshold(value))
    assert refused.value.extensions["path"] == "configurable.run.escalationThreshold"
    assert world.store.commits == 0


def test_the_escalation_interrupt_is_one_the_workflow_can_ask_for(world: World) -> None:
    # Given an escalation with the workflow's own key
    answer = decide(world, 0.1, key="review-triage")
    # When the workflow's next state requests it, Then the run waits for a person to review it
    outcome = world.request(answer["interrupt"], node="Review")
    assert outcome.status == "requested"
    assert (world.interrupt("Review").kind, world.interrupt("Review").key) == (
        "low-confidence",
        "review-triage",
    )
    assert world.store.snapshots[RUN].status == "waiting-approval"


def test_a_run_that_starts_with_a_decision_is_linked_to_its_execution(world: World) -> None:
    # Given a run whose first step is a decision, from a named execution
    arn = "arn:aws:states:us-east-1:123456789012:execution:Flow:exec-7"
    decide(world, 0.9, executionArn=arn)
    decide(world, 0.9, executionArn=arn)
    # Then it is linked once, and the execution's end finds and ends it
    assert [link.run for link in world.index.runs_of_execution("exec-7")] == [RUN]
    ended = end_runs(
        ExecutionEnded("exec-7", arn, "SUCCEEDED"),
        LifecycleDependencies(world.store, world.index, world.clock),
    )
    assert ended == (RUN,) and world.store.snapshots[RUN].status == "completed"


def test_a_decision_goes_to_the_named_tenants_run(world: World) -> None:
    decide(world, 0.9, tenantId="acme")
    assert RunRef("acme", "run-1") in world.store.snapshots and RUN not in world.store.snapshots


def test_decisions_append_to_a_run_in_order(world: World) -> None:
    world.request()
    decide(world, 0.9)
    decide(world, 0.1)
    seqs = [event.seq for event in world.log()]
    assert seqs == list(range(1, len(seqs) + 1))
    assert world.store.snapshots[RUN].status == "waiting-input"  # a decision does not move the run


@pytest.mark.parametrize(
    "change",
    [
        {"decision": {"confidence": 0.5}},
        {"decision": {"agentId": "", "confidence": 0.5}},
        {"decision": {"agentId": "triage", "confidence": 1.5}},
        {"decision": {"agentId": "triage", "confidence": "high"}},
        {"decision": {"agentId": "triage", "confidence": float("nan")}},
        {"nodeId": ""},
        {"key": ""},
        {"unexpected": 1},
    ],
)
def test_a_malformed_decision_is_400_and_logs_nothing(world: World, change: dict[str, Any]) -> None:
    with pytest.raises(ValidationFailedError):
        decide(world, 0.5, **change)
    assert world.store.commits == 0


def test_a_run_id_that_cannot_name_a_run_is_not_found(world: World) -> None:
    with pytest.raises(NotFoundError):
        decide(world, 0.5, runId="bad id!")


def test_a_decision_too_large_for_its_interrupt_is_413(world: World) -> None:
    with pytest.raises(PayloadTooLargeError):
        decide(world, 0.5, decision={"agentId": "triage", "confidence": 0.5, "notes": "x" * 40_000})
    assert world.store.commits == 0
