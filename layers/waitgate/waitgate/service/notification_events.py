"""The debug events of notifications (`GET /runs/{runId}/events?mode=debug`): one per attempt.

notification.sent / notification.failed (channel, recipient, attempt; a failure's reason, and
`parked` on the last attempt) and notification.skipped (a recipient nobody can reach, with the
reason). Bookkeeping: appended in the run's own conditional write, and never a reason for the
notice or the suspension to fail (a write that does not happen is logged and let go).
"""

from __future__ import annotations

import logging

from waitgate.errors import WaitgateError
from waitgate.ports import Clock, InterruptStore
from waitgate.run import event_log
from waitgate.run.clock import rfc3339
from waitgate.run.event_log import EventEntry
from waitgate.run.notices import InterruptNotice
from waitgate.run.optimistic import retry_on_conflict
from waitgate.run.records import JSONObject, RunChange, RunRef

logger = logging.getLogger(__name__)


def sent(notice: InterruptNotice, channel: str, attempt: int) -> EventEntry:
    return _entry("notification.sent", notice, channel, {"attempt": attempt})


def failed(
    notice: InterruptNotice, channel: str, attempt: int, reason: str, parked: bool, permanent: bool = False
) -> EventEntry:
    more: JSONObject = {"attempt": attempt, "reason": reason, "parked": parked}
    if permanent:
        more["permanent"] = True  # the channel refused it for good: not tried again
    return _entry("notification.failed", notice, channel, more)


def skipped(notice: InterruptNotice, channel: str | None, reason: str) -> EventEntry:
    return _entry("notification.skipped", notice, channel, {"reason": reason})


def _entry(kind: str, notice: InterruptNotice, channel: str | None, more: JSONObject) -> EventEntry:
    payload: JSONObject = {"nodeId": notice.node_id, "interruptId": notice.interrupt_id}
    if channel is not None:
        payload["channel"] = channel
    payload.update(recipient=notice.recipient, **more)
    return EventEntry(kind, payload, notice.node_id, "debug")


def record(store: InterruptStore, clock: Clock, run: RunRef, entries: list[EventEntry]) -> None:
    """Append the events to the run's log (after whatever else moved it meanwhile)."""
    if not entries:
        return

    def attempt() -> None:
        snapshot = store.snapshot(run)
        if snapshot is None:
            return
        appended, events = event_log.append(snapshot, rfc3339(clock.now()), entries)
        store.commit(RunChange(snapshot=appended, events=events))

    try:
        retry_on_conflict(attempt, "run")
    except WaitgateError as error:
        logger.warning("notification events not recorded", extra={"error_type": type(error).__name__})
