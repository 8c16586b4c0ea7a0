"""An interrupt's deadline and escalation steps as one-time schedules, and the deadline that is due
before a schedule could fire for it (docs/durability.md, "Deadlines").

EventBridge Scheduler fires a one-time `at()` schedule within about a minute of its time (precision:
whole seconds in the expression, ~60 s in delivery) and refuses one whose time has passed. So a
deadline that has passed by the time the request is recorded (a `timeoutMs` of a few milliseconds, a
slow request, a Task retried) gets no schedule: the request expires the interrupt itself, right after
its commit, through the same use case a schedule would invoke (`interrupt.expired`, SendTaskFailure
InterruptTimedOut). A schedule refused as past is the same case. An escalation step refused as past
is due now: it is scheduled again two seconds ahead, so it still fires.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from waitgate.errors import ScheduleInPastError
from waitgate.escalation import EscalationPolicy
from waitgate.ports import Clock, DeadlineScheduler
from waitgate.run.clock import parse_rfc3339, rfc3339
from waitgate.run.records import InterruptRecord
from waitgate.service.deliver_resolution import DeliveryDependencies
from waitgate.service.expire_interrupt import ExpiryRequest, expire_interrupt

logger = logging.getLogger(__name__)
SCHEDULER_PRECISION_SECONDS = 60  # Scheduler delivers a one-time schedule within about a minute
STEP_DUE_NOW = timedelta(seconds=2)  # a step refused as past is scheduled again this far ahead


def deadline_of(now: datetime, timeout_ms: Any) -> str | None:
    if not isinstance(timeout_ms, int):
        return None
    return rfc3339(now + timedelta(milliseconds=timeout_ms))


def is_due(record: InterruptRecord, now: datetime) -> bool:
    return record.deadline is not None and parse_rfc3339(record.deadline) <= now


def schedule_all(
    record: InterruptRecord, policy: EscalationPolicy | None, deadlines: DeadlineScheduler, clock: Clock
) -> bool:
    """The deadline's schedule unless it is due already, and each step's unless refused as past; True
    when the deadline is due with no schedule for it (the request expires it: `expire_now`)."""
    unscheduled = record.deadline is not None and is_due(record, clock.now())
    if record.deadline is not None and not unscheduled:
        try:
            deadlines.schedule_expiry(record)
        except ScheduleInPastError:
            unscheduled = True  # due by the time Scheduler saw it
    requested_at = parse_rfc3339(record.requested_at)
    for step in policy.steps if policy is not None else ():
        _schedule_step(record, step.index, step.due(requested_at), deadlines, clock)
    return unscheduled


def _schedule_step(
    record: InterruptRecord, index: int, due: datetime, deadlines: DeadlineScheduler, clock: Clock
) -> None:
    """A step refused as past is due now: scheduled again a moment from now, so it still fires."""
    try:
        deadlines.schedule_step(record, index, due)
    except ScheduleInPastError:
        try:
            deadlines.schedule_step(record, index, clock.now() + STEP_DUE_NOW)
        except ScheduleInPastError:
            logger.warning(
                "escalation step %d could not be scheduled: skipped",
                index,
                extra={"interruptId": record.interrupt_id},
            )


def expire_now(record: InterruptRecord, deps: DeliveryDependencies) -> None:
    """Right after the commit, for a deadline due with no schedule: what its schedule would have done."""
    expire_interrupt(ExpiryRequest(record.run, record.node_id, record.interrupt_id), deps)
