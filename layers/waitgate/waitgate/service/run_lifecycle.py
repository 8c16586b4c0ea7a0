"""A run's end: when its execution ends, the snapshot says so and nothing waits any more.

The execution is a Step Functions one or a Lambda durable one; both engines tell it with an
EventBridge status change. SUCCEEDED → completed, FAILED and TIMED_OUT → failed, ABORTED (Step
Functions) and STOPPED (durable) → cancelled. A `run.status_changed`
event is logged; every interrupt still pending becomes `cancelled` (with `interrupt.cancelled`), so
every link answers 409 and run-scoped resolves answer 409 (a terminal snapshot refuses them first).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Final

from waitgate.ports import Clock, InterruptStore, RunIndex, Telemetry
from waitgate.run import event_log, reentry
from waitgate.run.clock import rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import InterruptRecord, RunChange, RunRef, RunStatus, RunView
from waitgate.run.telemetry import Cancelled, NoTelemetry

RUN_STATUS_OF_EXECUTION: Final[dict[str, RunStatus]] = {
    "SUCCEEDED": "completed",
    "FAILED": "failed",
    "TIMED_OUT": "failed",
    "ABORTED": "cancelled",
    "STOPPED": "cancelled",
}


@dataclass(frozen=True)
class ExecutionEnded:
    execution_name: str
    execution_arn: str
    status: str  # the execution's: SUCCEEDED, FAILED, TIMED_OUT, ABORTED or STOPPED


@dataclass(frozen=True)
class LifecycleDependencies:
    store: InterruptStore
    index: RunIndex
    clock: Clock
    telemetry: Telemetry = field(default_factory=NoTelemetry)


def end_runs(ended: ExecutionEnded, deps: LifecycleDependencies) -> tuple[RunRef, ...]:
    """The runs the execution carried, each now terminal (a run ended before is left as it is)."""
    status = RUN_STATUS_OF_EXECUTION.get(ended.status)
    if status is None:
        return ()
    runs = tuple(
        link.run
        for link in deps.index.runs_of_execution(ended.execution_name)
        if link.execution_arn in (None, ended.execution_arn)
    )
    for run in runs:
        end_run(run, status, ended.status, deps)
    return runs


def end_run(run: RunRef, status: RunStatus, execution_status: str, deps: LifecycleDependencies) -> None:
    """The snapshot first (so resolves are refused at once), then each pending interrupt."""
    pending = [record for record in deps.index.interrupts_of_run(run) if record.status == "pending"]
    node_ids: list[str | None] = [record.node_id for record in pending] or [None]
    for node_id in node_ids:
        _commit_end(run, node_id, status, execution_status, deps)


def _commit_end(
    run: RunRef, node_id: str | None, status: RunStatus, execution_status: str, deps: LifecycleDependencies
) -> None:

    def attempt() -> RunChange | None:
        view = deps.store.load(run, node_id) if node_id else RunView(deps.store.snapshot(run), None)
        if view.snapshot is None:
            return None
        change = _end_change(view, node_id, status, execution_status, rfc3339(deps.clock.now()))
        if change is not None:
            deps.store.commit(change)
        return change

    committed = retry_on_conflict(attempt, "run")
    if committed is not None and committed.interrupt is not None:
        deps.telemetry.record(Cancelled(committed.interrupt.kind, run.tenant_id))


def _end_change(
    view: RunView, node_id: str | None, status: RunStatus, execution_status: str, now: str
) -> RunChange | None:
    assert view.snapshot is not None
    entries: list[EventEntry] = []
    snapshot = view.snapshot
    if not snapshot.is_terminal:
        payload = {"status": status, "executionStatus": execution_status}
        entries.append(EventEntry("run.status_changed", payload, None, "updates"))
        snapshot = replace(snapshot, status=status, current_node_id=None, pending_interrupt_id=None)
    record = view.interrupt if node_id is not None else None
    cancelled: InterruptRecord | None = None
    if record is not None and record.status == "pending":
        cancelled = replace(record, status="cancelled", version=record.version + 1)
        cancel = {"nodeId": record.node_id, "interruptId": record.interrupt_id}
        entries.append(EventEntry("interrupt.cancelled", cancel, record.node_id, "updates"))
    if not entries:
        return None
    snapshot, events = event_log.append(snapshot, now, entries)
    return RunChange(
        snapshot=snapshot,
        interrupt=cancelled,
        expected_interrupt_version=record.version if cancelled and record else None,
        events=events,
        reentry=reentry.ended_key(cancelled) if cancelled else None,
    )
