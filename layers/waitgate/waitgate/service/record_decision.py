"""recordDecision: an agent's decision is logged; below the run's threshold the run escalates.

The workflow's decision step (a plain `lambda:invoke` Task) hands {runId, nodeId, tenantId?, decision:
{agentId, confidence, ...}, key?, configurable?}. `agent.decided` is recorded; with a confidence below
`configurable.run.escalationThreshold` (else the host default) `node.suspended {reason: "low-confidence"}`
follows, and the answer carries the low-confidence interrupt for the workflow's next Interrupt state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from waitgate.errors import PayloadTooLargeError, ValidationFailedError
from waitgate.payloads import json_rules
from waitgate.ports import Clock, InterruptStore
from waitgate.run import event_log
from waitgate.run.clock import rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.execution_links import execution_link_guard
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import DEFAULT_TENANT, JSONObject, RunChange, RunRef, RunSnapshot, check_node_id
from waitgate.run.size_limits import MAX_INTERRUPT_BYTES

if TYPE_CHECKING:
    from waitgate.service.decision_event import DecisionTaskEvent


@dataclass(frozen=True)
class DecisionDependencies:
    store: InterruptStore
    clock: Clock
    default_threshold: float


def record_decision(event: Any, deps: DecisionDependencies) -> JSONObject:
    """{escalate: false}, or {escalate: true, interrupt: <a low-confidence InterruptPayload>}."""
    task = _parse(event)
    run = RunRef.parse(task.tenant_id or DEFAULT_TENANT, task.run_id)
    node_id = check_node_id(task.node_id)
    threshold = escalation_threshold(task.configurable, deps.default_threshold)
    decided = task.decision.model_dump(mode="json", by_alias=True)
    observed = task.decision.confidence
    entries: list[EventEntry] = [EventEntry("agent.decided", decided, node_id, "updates")]
    escalate = observed < threshold
    if escalate:
        suspended = {"reason": "low-confidence", "threshold": threshold, "observed": observed}
        entries.append(EventEntry("node.suspended", suspended, node_id, "updates"))
    _append(run, node_id, entries, task.execution_arn, deps)
    if not escalate:
        return {"escalate": False}
    data = {
        "agentId": task.decision.agent_id,
        "threshold": threshold,
        "observed": observed,
        "decision": decided,
    }
    key = task.key or f"low-confidence-{node_id}"
    return {"escalate": True, "interrupt": {"kind": "low-confidence", "key": key, "data": data}}


def escalation_threshold(configurable: JSONObject | None, default: float) -> float:
    """`configurable.run.escalationThreshold` when the run sets one (0..1), else the host default."""
    run_settings = (configurable or {}).get("run")
    value = run_settings.get("escalationThreshold") if isinstance(run_settings, dict) else None
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValidationFailedError(
            "configurable.run.escalationThreshold must be a number from 0 to 1.",
            path="configurable.run.escalationThreshold",
        )
    return float(value)


def _parse(event: Any) -> DecisionTaskEvent:
    """The JSON rules first (depth, finite numbers, Unicode strings); the decision, which the low-confidence
    interrupt carries on, within an interrupt payload's size."""
    if isinstance(event, dict):
        for member in ("decision", "configurable"):
            json_rules.check_value(event.get(member), f"$.{member}")
        size = json_rules.encoded_size(event.get("decision"))
        if size > MAX_INTERRUPT_BYTES // 2:
            raise PayloadTooLargeError(
                f"The decision is {size:,} bytes; at most {MAX_INTERRUPT_BYTES // 2:,}."
            )
    from pydantic import ValidationError  # with the models, at the first decision, not at import

    from waitgate.payloads.error_detail import describe
    from waitgate.service.decision_event import DecisionTaskEvent

    try:
        return DecisionTaskEvent.model_validate(event)
    except ValidationError as error:
        raise ValidationFailedError(f"The decision event is malformed: {describe(error)}") from error


def _append(
    run: RunRef,
    node_id: str,
    entries: list[EventEntry],
    execution_arn: str | None,
    deps: DecisionDependencies,
) -> None:
    """The decision's events; a run that starts here is linked to its execution here too, so its end
    (an Execution Status Change event) finds it, as for a run that starts with an interrupt."""

    def attempt() -> None:
        stored = deps.store.load(run, node_id).snapshot
        now = rfc3339(deps.clock.now())
        snapshot, events = event_log.append(stored or RunSnapshot.new(run), now, entries)
        guards = () if stored else (execution_link_guard(run, execution_arn, now),)
        deps.store.commit(RunChange(snapshot=snapshot, events=events, guarded=guards))

    retry_on_conflict(attempt, "run")
