"""expireInterrupt: at an interrupt's deadline (a one-time schedule fires), apply its `onDeadline`.

`"fail"` (the default): commits `status: expired` (conditioned on the version read, so a resolution
that won first stays won) with an `interrupt.expired` event, then answers the task with SendTaskFailure
`InterruptTimedOut`. `{resolveWith}` (docs/escalation.md): commits an ordinary resolution, with
`interrupt.resolved`, and answers SendTaskSuccess — a person racing it either won first (this finds the
interrupt resolved) or is refused (past the deadline no resolve wins). Either ending is delivered
through the outbox if the inline send fails. A schedule that fires for an interrupt already resolved,
cancelled or never committed changes nothing.
"""

from __future__ import annotations

from contextlib import suppress
from dataclasses import dataclass, replace
from typing import Literal

from waitgate.errors import DeliveryFailedError, WaitgateError
from waitgate.escalation.deadline_decision import deadline_resume_value
from waitgate.escalation.escalation_steps import policy_of
from waitgate.run import event_log, reentry
from waitgate.run.ask_run_end import run_after_end
from waitgate.run.clock import parse_rfc3339, rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import InterruptRecord, RunChange, RunRef, RunView
from waitgate.run.telemetry import Correlation, Decided, Expired, milliseconds_between
from waitgate.service.deliver_resolution import DeliveryDependencies, deliver
from waitgate.service.resolve_interrupt import resolution_change

ExpiryResult = Literal["expired", "resolved", "not-pending", "unknown"]


class NotDueError(WaitgateError):
    """The schedule fired before its time: the invocation fails and the scheduler retries."""

    code = "not_due"
    status = 503


@dataclass(frozen=True)
class ExpiryRequest:
    run: RunRef
    node_id: str
    interrupt_id: str


def expire_interrupt(request: ExpiryRequest, deps: DeliveryDependencies) -> ExpiryResult:
    run = request.run
    deps.telemetry.correlate(Correlation.at(run, request.node_id, request.interrupt_id))

    def attempt() -> tuple[ExpiryResult, RunChange | None]:
        view = deps.store.load(request.run, request.node_id)
        record = view.interrupt
        if view.snapshot is None or record is None or record.interrupt_id != request.interrupt_id:
            return "unknown", None
        if record.status != "pending":
            return "not-pending", None
        now = deps.clock.now()
        if record.deadline is None or now < parse_rfc3339(record.deadline):
            raise NotDueError("The interrupt's deadline has not passed yet.")
        result, change = _at_deadline(view, record, rfc3339(now))
        deps.store.commit(change)
        return result, change

    result, change = retry_on_conflict(attempt, "interrupt")
    if change is not None and change.interrupt is not None:
        _count(result, change.interrupt, deps)
        with suppress(DeliveryFailedError):  # committed: else the outbox (stream consumer) delivers it
            deliver(change.interrupt, deps, "expiry", change)
    return result


def _count(result: ExpiryResult, ended: InterruptRecord, deps: DeliveryDependencies) -> None:
    tenant = ended.run.tenant_id
    if result == "expired":
        deps.telemetry.record(Expired(ended.kind, tenant))
        return
    waited = milliseconds_between(parse_rfc3339(ended.requested_at), deps.clock.now())
    deps.telemetry.record(Decided(ended.kind, "deadline", waited, tenant))


def _at_deadline(view: RunView, record: InterruptRecord, now: str) -> tuple[ExpiryResult, RunChange]:
    policy = policy_of(record)
    if policy.resolves_at_deadline:
        return "resolved", resolution_change(view, record, deadline_resume_value(record, policy, now), now)
    expired = replace(record, status="expired", version=record.version + 1)
    return "expired", _expiry(view, record, expired, now)


def _expiry(view: RunView, record: InterruptRecord, expired: InterruptRecord, now: str) -> RunChange:
    assert view.snapshot is not None
    payload = {"nodeId": record.node_id, "interruptId": record.interrupt_id, "deadline": record.deadline}
    run_status, run_ended = run_after_end(view.snapshot, record, "expired")
    snapshot, events = event_log.append(
        view.snapshot, now, [EventEntry("interrupt.expired", payload, record.node_id, "updates"), *run_ended]
    )
    if snapshot.current_node_id == record.node_id and not snapshot.is_terminal:
        snapshot = replace(snapshot, status=run_status, current_node_id=None, pending_interrupt_id=None)
    return RunChange(
        snapshot=snapshot,
        interrupt=expired,
        expected_interrupt_version=record.version,
        events=events,
        reentry=reentry.ended_key(expired),
    )
