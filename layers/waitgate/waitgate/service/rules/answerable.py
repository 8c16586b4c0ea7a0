"""Whether a node's interrupt may still be answered now — the question resolve, inspect and mint ask."""

from __future__ import annotations

from typing import Literal

from waitgate.clock import parse_rfc3339
from waitgate.errors import InterruptAlreadyResolvedError, InterruptExpiredError, NotFoundError
from waitgate.ports import Clock
from waitgate.records import InterruptRecord, RunView


def pending_record(
    view: RunView,
    clock: Clock,
    *,
    interrupt_id: str | None = None,
    surface: Literal["run", "token"] = "run",
) -> InterruptRecord:
    """The node's interrupt while it may still be answered (inspect and mint ask the same question)."""
    record = view.interrupt
    if view.snapshot is None or record is None:
        raise NotFoundError("No such run or node.")
    if interrupt_id is not None and record.interrupt_id != interrupt_id:
        raise InterruptAlreadyResolvedError("This interrupt was already resolved.")
    if view.snapshot.is_terminal:
        raise InterruptAlreadyResolvedError(f"The run is {view.snapshot.status}.")
    if record.status != "pending":
        raise InterruptAlreadyResolvedError(f"This interrupt was already {record.status}.")
    if record.deadline and clock.now() >= parse_rfc3339(record.deadline):
        if surface == "token":
            raise InterruptExpiredError("This interrupt's deadline has passed.")
        raise InterruptAlreadyResolvedError("expired")
    return record
