"""Whether a node's interrupt may still be answered now — the question resolve, inspect and mint ask."""

from __future__ import annotations

from typing import Literal

from waitgate.errors import InterruptAlreadyResolvedError, InterruptExpiredError, NotFoundError
from waitgate.ports import Clock
from waitgate.run.clock import parse_rfc3339
from waitgate.run.records import InterruptRecord, RunView


def pending_record(
    view: RunView,
    clock: Clock,
    *,
    interrupt_id: str | None = None,
    surface: Literal["run", "token"] = "run",
) -> InterruptRecord:
    """The node's interrupt while it may still be answered (inspect and mint ask the same question).

    The refusal says what is most telling first: this interrupt's deadline passed, it was resolved,
    its run ended (which cancels what still waits), or it was cancelled otherwise."""
    record = view.interrupt
    if view.snapshot is None or record is None:
        raise NotFoundError("No such run or node.")
    if interrupt_id is not None and record.interrupt_id != interrupt_id:
        raise InterruptAlreadyResolvedError("This interrupt was already resolved.")
    if record.status == "expired" or (record.deadline and clock.now() >= parse_rfc3339(record.deadline)):
        passed = f"This interrupt expired: its deadline ({record.deadline}) passed before it was resolved."
        if surface == "token":
            raise InterruptExpiredError(passed)
        raise InterruptAlreadyResolvedError(f"expired. {passed}")
    if record.status == "resolved":
        raise InterruptAlreadyResolvedError("This interrupt was already resolved.")
    if view.snapshot.is_terminal:
        raise InterruptAlreadyResolvedError(
            f"The run has ended ({view.snapshot.status}): it waits for nothing."
        )
    if record.status != "pending":
        raise InterruptAlreadyResolvedError(f"This interrupt was already {record.status}.")
    return record
