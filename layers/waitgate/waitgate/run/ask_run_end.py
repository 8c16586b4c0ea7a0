"""An agent's ask ends its run with its interrupt (docs/mcp.md): nothing hangs.

A workflow's run is resumed when its interrupt ends (`running`) and ended by its execution's end
(service.run_lifecycle). An ask's run has no execution, so the transaction that ends its interrupt
ends the run too: resolved, `completed`; expired, `failed` (waitgate.run.agent_asks.run_status_after),
with the `run.status_changed` event a workflow's run end logs. A run that ended before (cancelled)
is left as it is.
"""

from __future__ import annotations

from waitgate.run.agent_asks import run_status_after
from waitgate.run.event_log import EventEntry
from waitgate.run.records import InterruptRecord, RunSnapshot, RunStatus


def run_after_end(
    snapshot: RunSnapshot, record: InterruptRecord, ending: str
) -> tuple[RunStatus, list[EventEntry]]:
    """The status the run takes once `record` ends as `ending`, and the events that say it ended (none
    for a workflow's run, which is only resumed, or a run not waiting on `record`)."""
    status = run_status_after(record, ending)
    if status == "running" or snapshot.is_terminal or snapshot.current_node_id != record.node_id:
        return "running", []
    payload = {"status": status, "interruptStatus": ending}
    return status, [EventEntry("run.status_changed", payload, None, "updates")]
