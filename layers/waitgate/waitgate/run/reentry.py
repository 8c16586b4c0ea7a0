"""Re-entry keys: an interrupt's `key` is asked at most once in a run's lifetime (docs/durability.md).

The `KEY#<key>` record is written in the same transaction as the `interrupt.requested` event that
introduces the key and updated in the transactions that resolve, expire or cancel it: a projection of
the event log that cannot disagree with it. A second ask of a resolved key gets the persisted
resumeValue at once; of a pending key, it takes over the waiting interrupt with the new task token.
"""

from __future__ import annotations

from dataclasses import replace

from waitgate.errors import WaitgateError
from waitgate.ports import Clock
from waitgate.run import event_log
from waitgate.run.clock import rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.records import InterruptRecord, ReentryKey, RunChange, RunSnapshot
from waitgate.run.workflow_errors import SUPERSEDED


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


def take_over(snapshot: RunSnapshot, current: InterruptRecord, task_token: str) -> RunChange:
    """The same key is still pending (a retried state, a Lambda retry): adopt the new task token."""
    adopted = replace(current, task_token=task_token, version=current.version + 1)
    return RunChange(snapshot=snapshot, interrupt=adopted, expected_interrupt_version=current.version)
