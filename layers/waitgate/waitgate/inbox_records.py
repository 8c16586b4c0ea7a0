"""What the inbox reads of the store (docs/inbox.md): which interrupts a page asks for, and the pages
of pending interrupts and of decision receipts it gets back."""

from __future__ import annotations

from dataclasses import dataclass

from waitgate.records import DecisionReceipt, InterruptRecord


@dataclass(frozen=True)
class InboxFilter:
    """Which interrupts of a tenant a page of the inbox reads: at most `limit` examined after `cursor`
    (the previous page's `next`, opaque), only those of `kind` and of `run_id` when given."""

    tenant_id: str
    limit: int
    cursor: str | None = None
    kind: str | None = None
    run_id: str | None = None


@dataclass(frozen=True)
class PendingPage:
    """Pending interrupts of a tenant, by deadline then age (none last); `next` when there may be more.
    The records are as the pending index holds them: everything but the task token (empty here)."""

    records: tuple[InterruptRecord, ...]
    next: str | None = None


@dataclass(frozen=True)
class ReceiptPage:
    """A principal's decision receipts, newest first; `next` when there may be more."""

    receipts: tuple[DecisionReceipt, ...]
    next: str | None = None
