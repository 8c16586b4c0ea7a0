"""Delivering a committed ending to the workflow (the outbox): inline right after the commit, or later
by the stream consumer for whatever was committed but not delivered (docs/durability.md).

A resolved interrupt is answered with SendTaskSuccess(resumeValue), an expired one with
SendTaskFailure(InterruptTimedOut) (for a durable function's callback: the same through
SendDurableExecutionCallbackSuccess/Failure; the Workflow port picks the engine by the handle). A
resume value the engine cannot take fails the run with InterruptResultTooLarge instead, recorded as
`deliveryOutcome: result-too-large` (an `interrupt.delivery_failed` debug event), never retried.
Once sent (or once Step Functions says the task is gone) the node
item gets `deliveredAt` + `deliveryOutcome`: after a resolver's own send, with one conditional update;
otherwise (the outbox, the expiry, a task gone) with an `interrupt.delivered` or
`interrupt.delivery_failed` debug event, in one conditional transaction. A throttled or failed send leaves
the item undelivered: DeliveryFailedError reaches the caller, and the outbox tries again.

The outbox may run while the resolver's own send is in flight (stream latency is not a bound): then
Step Functions says the task is gone because the resolver just answered it. So before the outbox calls
a task gone it gives the resolver a moment (RESOLVER_GRACE_PAUSES) to mark its delivery, and a
resolve that worked is never recorded, nor logged, as a delivery to a task that was gone.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, field, replace
from typing import Literal

from waitgate.errors import AnswerRefusedError, ConcurrentUpdateError, DeliveryFailedError, TaskGoneError
from waitgate.ports import Clock, InterruptStore, Telemetry, Workflow
from waitgate.run import event_log
from waitgate.run.clock import rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import ENDED_STATUSES, InterruptRecord, JSONObject, RunChange, RunRef, RunView
from waitgate.run.telemetry import Correlation, Delivered, NoTelemetry
from waitgate.run.workflow_errors import RESULT_TOO_LARGE, TIMED_OUT
from waitgate.service._resume_delivery import send_resume_value

DELIVERED = "delivered"
TASK_GONE = "task-gone"
TOO_LARGE = "result-too-large"
REFUSED = "refused"  # the engine will never take it (InvalidOutput): parked, as a task gone is
Via = Literal["inline", "outbox", "expiry", "reconciler", "redrive", "replay"]
DeliveryResult = Literal[
    "delivered",
    "task-gone",
    "refused",
    "too-large",
    "already-delivered",
    "not-ended",
    "superseded",
    "not-parked",
]
PARKED = frozenset({TASK_GONE, REFUSED})
RESOLVER_GRACE_PAUSES = (0.05, 0.1, 0.2, 0.4, 0.8, 1.0)  # seconds; ~2.5 s in all, only on a task gone


@dataclass(frozen=True)
class DeliveryDependencies:
    store: InterruptStore
    workflow: Workflow
    clock: Clock
    telemetry: Telemetry = field(default_factory=NoTelemetry)


def deliver(
    record: InterruptRecord, deps: DeliveryDependencies, via: Via, committed: RunChange | None = None
) -> DeliveryResult:
    """Send the committed ending and record the outcome; DeliveryFailedError propagates (retry later).
    `committed`: the change that just ended the interrupt, so the mark needs no read first."""
    tenant = record.run.tenant_id
    try:
        taken = send_ending(record, deps.workflow)
    except TaskGoneError as gone:
        if via in ("outbox", "reconciler") and (meanwhile := _handled_meanwhile(record, deps)) is not None:
            return meanwhile
        reason = str(gone.extensions.get("aws_code", ""))
        record_delivery(record, deps, TASK_GONE, via, reason, committed)
        deps.telemetry.record(Delivered("gone", tenant))
        return "task-gone"
    except AnswerRefusedError as refused:  # parked: `waitgate deliveries list|redrive`
        reason = str(refused.extensions.get("aws_code", ""))
        record_delivery(record, deps, REFUSED, via, reason or "Refused", committed)
        deps.telemetry.record(Delivered("refused", tenant))
        return "refused"
    except DeliveryFailedError:
        deps.telemetry.record(Delivered("failed", tenant))  # left to the outbox
        raise
    deps.telemetry.record(Delivered("inline" if via in ("inline", "expiry") else "outbox", tenant))
    if not taken:  # the run was failed with InterruptResultTooLarge: recorded, never sent again
        record_delivery(record, deps, TOO_LARGE, via, RESULT_TOO_LARGE, committed)
        return "too-large"
    if via == "inline":
        # The common case stays cheap: one conditional update, no event (docs/durability.md).
        deps.store.mark_delivered(record, rfc3339(deps.clock.now()))
    else:
        record_delivery(record, deps, DELIVERED, via, committed=committed)
    return "delivered"


def deliver_undelivered(
    run: RunRef, node_id: str, interrupt_id: str, deps: DeliveryDependencies, via: Via = "outbox"
) -> DeliveryResult:
    """The outbox (and the reconciler): re-read the item (consistently) and deliver it unless that
    was done already."""
    deps.telemetry.correlate(Correlation.at(run, node_id, interrupt_id))
    record = deps.store.load(run, node_id).interrupt
    if record is None or record.interrupt_id != interrupt_id:
        return "superseded"
    if record.status not in ENDED_STATUSES:
        return "not-ended"
    if record.delivered_at is not None:
        return "already-delivered"
    return deliver(record, deps, via)


def redrive(run: RunRef, node_id: str, interrupt_id: str, deps: DeliveryDependencies) -> DeliveryResult:
    """An operator's second try of a parked delivery (`waitgate deliveries redrive`): sent again; a
    success replaces the parked mark, another refusal leaves it parked."""
    deps.telemetry.correlate(Correlation.at(run, node_id, interrupt_id))
    record = deps.store.load(run, node_id).interrupt
    if record is None or record.interrupt_id != interrupt_id:
        return "superseded"
    if record.status not in ENDED_STATUSES or record.delivery_outcome not in PARKED:
        return "not-parked"
    return deliver(record, deps, "redrive")


def _handled_meanwhile(record: InterruptRecord, deps: DeliveryDependencies) -> DeliveryResult | None:
    """What became of the item within the grace (re-read after each pause); None: nothing, the task
    really is gone."""
    for pause in RESOLVER_GRACE_PAUSES:
        deps.clock.sleep(pause)
        current = deps.store.load(record.run, record.node_id).interrupt
        if current is None or current.interrupt_id != record.interrupt_id:
            return "superseded"
        if current.delivered_at is not None:
            return "already-delivered"
    return None


def send_ending(record: InterruptRecord, workflow: Workflow) -> bool:
    """False: the resume value was too large for the engine and the run was failed instead."""
    if record.status == "expired":
        cause = f"The interrupt's deadline ({record.deadline}) passed before it was resolved."
        workflow.send_failure(record.task_token, TIMED_OUT, cause)
        return True
    return send_resume_value(workflow, record.task_token, record.resume_value)


def record_delivery(
    record: InterruptRecord,
    deps: DeliveryDependencies,
    outcome: str,
    via: Via,
    reason: str = "",
    committed: RunChange | None = None,
) -> None:
    """Mark the node item once; a success may overwrite an earlier `task-gone` or `refused` (someone
    else's send raced ours and lost, or a redrive succeeded), never the other way round."""
    first_view = _view_after(committed)

    def attempt() -> None:
        nonlocal first_view
        view, first_view = first_view or deps.store.load(record.run, record.node_id), None
        current = view.interrupt
        if view.snapshot is None or current is None or current.interrupt_id != record.interrupt_id:
            return
        if current.delivered_at is not None and not (
            outcome == DELIVERED and current.delivery_outcome in PARKED
        ):
            return
        now = rfc3339(deps.clock.now())
        marked = replace(current, delivered_at=now, delivery_outcome=outcome, version=current.version + 1)
        snapshot, events = event_log.append(view.snapshot, now, [_event(current, outcome, via, reason)])
        change = RunChange(
            snapshot=snapshot, interrupt=marked, expected_interrupt_version=current.version, events=events
        )
        deps.store.commit(change)

    with suppress(ConcurrentUpdateError):  # bookkeeping only: the workflow has its answer either way
        retry_on_conflict(attempt, "interrupt")


def _view_after(committed: RunChange | None) -> RunView | None:
    """What the store holds right after `committed` (if nothing moved since: the commit checks)."""
    if committed is None or committed.interrupt is None:
        return None
    snapshot = replace(committed.snapshot, version_seen=committed.snapshot.next_seq)
    return RunView(snapshot=snapshot, interrupt=committed.interrupt)


def _event(record: InterruptRecord, outcome: str, via: Via, reason: str) -> EventEntry:
    payload: JSONObject = {"nodeId": record.node_id, "interruptId": record.interrupt_id, "via": via}
    if outcome == DELIVERED:
        payload["outcome"] = "failure" if record.status == "expired" else "success"
        return EventEntry("interrupt.delivered", payload, record.node_id, "debug")
    payload["reason"] = reason or "TaskGone"
    return EventEntry("interrupt.delivery_failed", payload, record.node_id, "debug")
