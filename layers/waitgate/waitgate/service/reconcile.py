"""reconcileInterrupts: the scheduled pass that heals what a lost hop left behind (docs/durability.md).

One Query per shard of the sparse index `Outstanding` finds what is due (its cost follows what is
outstanding, never the table's history); each interrupt is read again, consistently, and
`waitgate.run.reconciliation.plan` says the one heal it needs:
- resolved or expired, not delivered → delivered again on the outbox's path (`deliver_undelivered`);
- past its deadline and still pending → expired, as the deadline's schedule would have;
- pending while its run ended (the snapshot says so, or the engine says its execution ended or is
  gone) → the run ended as the run lifecycle ends it, its pending interrupts cancelled;
- pending, naming people, and nobody told → announced (and marked), as the request would have.
Otherwise the next look is set further off. Each heal is an `interrupt.reconciled` debug event in the
run's log and a `Reconciled` metric. The index lags the table, so an interrupt already healed by its
own hop is found in order and left alone. A heal that fails (a throttled engine) is counted and tried
on the next pass: the item stays due.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta

from waitgate.errors import WaitgateError
from waitgate.ports import Outstanding
from waitgate.run import event_log
from waitgate.run.clock import rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.reconciliation import (
    SHARDS,
    Cancel,
    Defer,
    Expire,
    Heal,
    Notify,
    OutstandingRef,
    Redeliver,
    needs_engine,
    plan,
)
from waitgate.run.records import InterruptRecord, RunChange
from waitgate.run.telemetry import Correlation, Reconciled
from waitgate.service.deliver_resolution import DeliveryDependencies, deliver_undelivered
from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt
from waitgate.service.notify import NotificationDependencies, announce, workflow_of
from waitgate.service.run_lifecycle import LifecycleDependencies, end_run

logger = logging.getLogger(__name__)
DEFAULT_PERIOD = timedelta(minutes=5)
DEFAULT_GRACE = timedelta(seconds=60)
PER_SHARD = 100  # interrupts looked at per shard and pass; more wait for the next pass


@dataclass(frozen=True)
class ReconcileSettings:
    period: timedelta = DEFAULT_PERIOD  # how often the pass runs (ReconcilePeriodMinutes)
    grace: timedelta = DEFAULT_GRACE  # how long each hop has to do its own work before a heal
    per_shard: int = PER_SHARD


@dataclass(frozen=True)
class ReconcileDependencies:
    outstanding: Outstanding
    delivery: DeliveryDependencies  # the store, the engines, the clock, telemetry
    lifecycle: LifecycleDependencies
    notifications: NotificationDependencies | None
    settings: ReconcileSettings = field(default_factory=ReconcileSettings)


@dataclass
class PassReport:
    examined: int = 0
    healed: Counter[str] = field(default_factory=Counter)
    failed: int = 0
    broken: list[str] = field(default_factory=list)  # the error types of failures that are bugs

    def to_json(self) -> dict[str, object]:
        return {"examined": self.examined, "healed": dict(self.healed), "failed": self.failed}


def reconcile(deps: ReconcileDependencies) -> PassReport:
    """One pass over every shard: what was due `grace` ago or earlier, soonest first."""
    report = PassReport()
    due_before = rfc3339(deps.delivery.clock.now() - deps.settings.grace)
    for shard in range(SHARDS):
        for ref in deps.outstanding.due(shard, due_before, deps.settings.per_shard):
            report.examined += 1
            try:
                heal = reconcile_one(ref, deps)
            except WaitgateError as error:  # tried again on the next pass: the item is still due
                logger.warning("reconcile failed", extra={"runId": ref.run.run_id, "code": error.code})
                report.failed += 1
                continue
            except Exception as error:  # a bug: one interrupt never keeps the pass from the others
                logger.exception("reconcile failed", extra={"runId": ref.run.run_id})
                report.failed += 1
                report.broken.append(type(error).__name__)
                continue
            if heal is not None:
                report.healed[heal] += 1
    if report.broken:  # the invocation fails, so ReconcilerErrorsAlarm says so
        raise PassIncompleteError(report)
    return report


class PassIncompleteError(Exception):
    """Some interrupts could not be looked at for a reason that is a bug (not a busy engine or store)."""

    def __init__(self, report: PassReport) -> None:
        super().__init__(f"{len(report.broken)} of {report.examined} interrupts failed: {report.to_json()}")
        self.report = report


def reconcile_one(ref: OutstandingRef, deps: ReconcileDependencies) -> Heal | None:
    """Read the interrupt again and apply the heal it needs now; the heal applied, if any."""
    delivery = deps.delivery
    delivery.telemetry.correlate(Correlation.at(ref.run, ref.node_id, ref.interrupt_id))
    view = delivery.store.load(ref.run, ref.node_id)
    record = view.interrupt if view.interrupt and view.interrupt.interrupt_id == ref.interrupt_id else None
    engine = None
    if needs_engine(record, view.snapshot):
        assert record is not None and record.execution_arn is not None
        engine = delivery.workflow.execution_state(record.execution_arn)
    settings = deps.settings
    now = delivery.clock.now()
    action = plan(record, view.snapshot, now, engine, settings.grace, settings.period)
    if record is None:
        return None
    heal = _apply(action, ref, record, deps)
    if heal is not None:
        _record_heal(record, heal, action, deps)
    return heal


def _apply(
    action: object, ref: OutstandingRef, record: InterruptRecord, deps: ReconcileDependencies
) -> Heal | None:
    delivery = deps.delivery
    if isinstance(action, Redeliver):
        result = deliver_undelivered(ref.run, ref.node_id, ref.interrupt_id, delivery, "reconciler")
        return "redelivered" if result in ("delivered", "task-gone", "refused") else None
    if isinstance(action, Expire):
        expiry = expire_interrupt(ExpiryRequest(ref.run, ref.node_id, ref.interrupt_id), delivery)
        return "expired" if expiry in ("expired", "resolved") else None
    if isinstance(action, Cancel):
        end_run(ref.run, action.status, action.execution_status, deps.lifecycle)
        return "cancelled"
    if isinstance(action, Notify):
        sent = announce(record, deps.notifications, delivery.clock, workflow_of(record.execution_arn))
        delivery.store.defer_check(record, action.check_at)
        return "notified" if sent else None
    if isinstance(action, Defer):
        delivery.store.defer_check(record, action.check_at)
    return None


def _record_heal(record: InterruptRecord, heal: Heal, action: object, deps: ReconcileDependencies) -> None:
    """The heal in the run's log (debug) and as a metric; bookkeeping never undoes the heal."""
    delivery = deps.delivery
    delivery.telemetry.record(Reconciled(heal, record.run.tenant_id))
    logger.info("reconciled", extra={"heal": heal, "interruptId": record.interrupt_id})
    payload: dict[str, object] = {"nodeId": record.node_id, "interruptId": record.interrupt_id, "heal": heal}
    if isinstance(action, Cancel):
        payload["executionStatus"] = action.execution_status
    entry = EventEntry("interrupt.reconciled", payload, record.node_id, "debug")

    def attempt() -> None:
        snapshot = delivery.store.snapshot(record.run)
        if snapshot is None:
            return
        appended, events = event_log.append(snapshot, rfc3339(delivery.clock.now()), [entry])
        delivery.store.commit(RunChange(snapshot=appended, events=events))

    try:
        retry_on_conflict(attempt, "run")
    except WaitgateError as error:
        logger.warning("heal event not recorded", extra={"error_type": type(error).__name__})
