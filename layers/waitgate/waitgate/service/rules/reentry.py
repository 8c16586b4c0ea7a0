"""Re-entry keys: an interrupt's `key` is asked at most once in a run's lifetime (docs/durability.md).

The `KEY#<key>` record is written in the same transaction as the `interrupt.requested` event that
introduces the key and updated in the transactions that resolve, expire or cancel it: a projection of
the event log that cannot disagree with it. A second ask of a resolved key gets the persisted
resumeValue at once; of a pending key, it takes over the waiting interrupt with the new task token.
"""

from __future__ import annotations

import logging
from contextlib import suppress
from dataclasses import replace

from waitgate.errors import OutcomeUnknownError, TaskGoneError, TemporarilyUnavailableError, WaitgateError
from waitgate.ports import Clock, Workflow
from waitgate.run.clock import rfc3339
from waitgate.run.records import ENDED_STATUSES, InterruptRecord, ReentryKey, RunChange, RunRef, RunSnapshot
from waitgate.service.deliver_resolution import (
    DELIVERED,
    PARKED,
    TIMED_OUT,
    DeliveryDependencies,
    record_delivery,
)
from waitgate.service.rules import event_log
from waitgate.service.rules.event_log import EventEntry
from waitgate.service.rules.resume_delivery import send_resume_value

logger = logging.getLogger(__name__)
CANCELLED = "InterruptCancelled"
SUPERSEDED = "InterruptSuperseded"


class KeySupersededError(WaitgateError):
    """The key's interrupt was replaced at its node by another key's: it can no longer be taken over."""

    code = SUPERSEDED


def pending_key(record: InterruptRecord) -> ReentryKey:
    return ReentryKey(record.run, record.key, record.interrupt_id, record.node_id)


def ended_key(record: InterruptRecord) -> ReentryKey:
    """The key's record after its interrupt ended (resolved, expired or cancelled)."""
    return ReentryKey(
        record.run, record.key, record.interrupt_id, record.node_id, record.status, record.resume_value
    )


def replay_change(snapshot: RunSnapshot, entry: ReentryKey, node_id: str, clock: Clock) -> RunChange:
    """A debug `interrupt.replayed` event: the log shows the second ask, and nobody is asked again."""
    payload = {"nodeId": node_id, "interruptId": entry.interrupt_id, "key": entry.key, "status": entry.status}
    snapshot, events = event_log.append(
        snapshot, rfc3339(clock.now()), [EventEntry("interrupt.replayed", payload, node_id, "debug")]
    )
    return RunChange(snapshot=snapshot, events=events)


def answer_replay(entry: ReentryKey, task_token: str, workflow: Workflow) -> None:
    """The ended key's answer, again: its resumeValue, or the failure it ended with."""
    if entry.status == "resolved":
        send_resume_value(workflow, task_token, entry.resume_value)
    elif entry.status == "expired":
        workflow.send_failure(task_token, TIMED_OUT, f"The interrupt with key {entry.key!r} expired.")
    else:
        workflow.send_failure(task_token, CANCELLED, f"The interrupt with key {entry.key!r} was cancelled.")


def take_over(snapshot: RunSnapshot, current: InterruptRecord, task_token: str) -> RunChange:
    """The same key is still pending (a retried state, a Lambda retry): adopt the new task token."""
    adopted = replace(current, task_token=task_token, version=current.version + 1)
    return RunChange(snapshot=snapshot, interrupt=adopted, expected_interrupt_version=current.version)


def replay_ending(run: RunRef, entry: ReentryKey, task_token: str, deps: DeliveryDependencies) -> None:
    """A new ask of an ended key gets its ending again (`answer_replay`); that is the
    interrupt's delivery. One its own task never got (that task is gone: a local restart started the
    execution again, a Task retried) is marked delivered (`via: replay`), so nobody sends it to the
    gone task later and parks it as lost, and a parked one is marked delivered too. A mark the store
    does not take changes nothing for the run: it has its answer."""
    with suppress(TaskGoneError):  # the asking task is gone already: nobody waits for the answer
        answer_replay(entry, task_token, deps.workflow)
        try:
            record = deps.store.load(run, entry.node_id).interrupt
            if record is None or record.interrupt_id != entry.interrupt_id:
                return
            if record.status in ENDED_STATUSES and (
                record.delivered_at is None or record.delivery_outcome in PARKED
            ):
                record_delivery(record, deps, DELIVERED, "replay")
        except (TemporarilyUnavailableError, OutcomeUnknownError) as error:
            logger.warning("replay's delivery mark not recorded", extra={"code": error.code})
