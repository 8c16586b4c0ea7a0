"""Re-entry keys, the effectful half (the plan is waitgate.run.reentry): a second ask of an ended key
gets that key's ending again, sent to the asking task, and the interrupt's delivery marked."""

from __future__ import annotations

import logging
from contextlib import suppress

from waitgate.errors import OutcomeUnknownError, TaskGoneError, TemporarilyUnavailableError
from waitgate.ports import Workflow
from waitgate.run.records import ENDED_STATUSES, ReentryKey, RunRef
from waitgate.run.workflow_errors import CANCELLED, TIMED_OUT
from waitgate.service._resume_delivery import send_resume_value
from waitgate.service.deliver_resolution import DELIVERED, PARKED, DeliveryDependencies, record_delivery

logger = logging.getLogger(__name__)


def answer_replay(entry: ReentryKey, task_token: str, workflow: Workflow) -> None:
    """The ended key's answer, again: its resumeValue, or the failure it ended with."""
    if entry.status == "resolved":
        send_resume_value(workflow, task_token, entry.resume_value)
    elif entry.status == "expired":
        workflow.send_failure(task_token, TIMED_OUT, f"The interrupt with key {entry.key!r} expired.")
    else:
        workflow.send_failure(task_token, CANCELLED, f"The interrupt with key {entry.key!r} was cancelled.")


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
