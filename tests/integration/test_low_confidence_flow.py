"""low-confidence on moto: record_decision logs agent.decided; below the run's threshold it logs
node.suspended and hands back the interrupt the workflow suspends on; at or above it, nothing waits."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from tests.integration.kind_steps import KindSteps, types_of
from tests.integration.workflow_harness import WorkflowHarness
from tests.support.event_schema import problems_of, stored_events
from tests.support.handlers import sample_event


@pytest.fixture
def steps(environment: None, dynamodb: Any, table_name: str) -> Iterator[KindSteps]:
    yield KindSteps(WorkflowHarness())
    assert problems_of(stored_events(dynamodb, table_name)) == []


def decision_event(run_id: str, confidence: float, threshold: float | None = None) -> dict[str, Any]:
    event = sample_event("record_decision")
    event["runId"] = run_id
    event["decision"]["confidence"] = confidence
    if threshold is None:
        del event["configurable"]
    else:
        event["configurable"] = {"run": {"escalationThreshold": threshold}}
    return event


def test_below_the_runs_threshold_the_run_escalates_and_waits(steps: KindSteps) -> None:
    # Given the sample decision: confidence 0.42 in a run whose threshold is 0.8
    event = sample_event("record_decision")
    run_id = f"run-{uuid.uuid4().hex[:12]}"
    event["runId"] = run_id
    # When the decision step records it
    answer = steps.handler("record_decision")(event)
    # Then it asks the workflow to escalate with a low-confidence interrupt {agentId, threshold, observed}
    assert answer["escalate"] is True
    interrupt = answer["interrupt"]
    assert interrupt["kind"] == "low-confidence"
    assert interrupt["key"] == "low-confidence-review"
    assert {k: interrupt["data"][k] for k in ("agentId", "threshold", "observed")} == {
        "agentId": "triage-agent",
        "threshold": 0.8,
        "observed": 0.42,
    }
    # When the workflow's Interrupt state suspends on it
    run, outcome = steps.suspend(interrupt, run_id=run_id)
    assert outcome["status"] == "requested"
    # Then the run waits for approval, and the log tells the whole story in order
    assert steps.snapshot(run_id)[1]["status"] == "waiting-approval"
    updates = steps.events(run_id, "updates")
    assert types_of(updates) == ["agent.decided", "node.suspended", "interrupt.requested"]
    assert updates[0]["payload"]["agentId"] == "triage-agent"
    assert updates[0]["payload"]["confidence"] == 0.42
    assert updates[1]["payload"] == {"reason": "low-confidence", "threshold": 0.8, "observed": 0.42}
    # When a reviewer answers, Then the execution goes on with the answer
    review = {"label": "refund", "reviewedBy": "alice"}
    assert steps.resolve(run_id, "Interrupt", review)[0] == 200
    assert steps.output_of(run) == review
    assert types_of(steps.events(run_id, "debug"))[-1] == "interrupt.resolved"


def test_at_the_threshold_the_run_goes_on(steps: KindSteps) -> None:
    # Given the host default threshold (0.7) and a decision exactly at it
    run_id = f"run-{uuid.uuid4().hex[:12]}"
    answer = steps.handler("record_decision")(decision_event(run_id, 0.7))
    # Then nothing escalates: agent.decided only, and the run is running
    assert answer == {"escalate": False}
    assert types_of(steps.events(run_id, "updates")) == ["agent.decided"]
    assert steps.snapshot(run_id)[1] == {"runId": run_id, "tenantId": "default", "status": "running"}


def test_just_below_the_host_default_escalates(steps: KindSteps) -> None:
    run_id = f"run-{uuid.uuid4().hex[:12]}"
    answer = steps.handler("record_decision")(decision_event(run_id, 0.69))
    assert answer["escalate"] is True
    assert answer["interrupt"]["data"]["threshold"] == 0.7
    assert answer["interrupt"]["key"] == "low-confidence-review"


def test_the_host_default_comes_from_the_environment(
    steps: KindSteps, monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest
) -> None:
    # Given a host whose EscalationThreshold is 0.5
    monkeypatch.setenv("ESCALATION_THRESHOLD", "0.5")
    from waitgate.wiring import settings

    settings.settings.cache_clear()
    request.addfinalizer(settings.settings.cache_clear)  # no stale settings for later tests
    # When a decision at 0.6 is recorded without a per-run threshold, Then the run goes on
    assert steps.handler("record_decision")(decision_event(f"run-{uuid.uuid4().hex[:8]}", 0.6)) == {
        "escalate": False
    }


def test_a_malformed_threshold_fails_the_step(steps: KindSteps) -> None:
    from waitgate.errors import ValidationFailedError

    with pytest.raises(ValidationFailedError, match="escalationThreshold"):
        steps.handler("record_decision")(decision_event("run-bad", 0.5, threshold=1.5))
