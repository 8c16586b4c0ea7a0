"""What the inbox reads of the store (docs/inbox.md): which interrupts a page asks for, and the pages
of pending interrupts and of decision receipts it gets back.

A pending interrupt reaches the inbox as a `PendingEntry`: what a listing shows of it and what its
eligibility check needs, never its payload or task token. The pending index holds it as a bounded
summary (`waitgate.run.inbox_summary`); an entry from a whole node item says the same."""

from __future__ import annotations

from dataclasses import dataclass, field

from waitgate.approval import AddedApprovers, ApproverFields, QuorumPolicy
from waitgate.run.records import DecisionReceipt, RunRef


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
class ListedVote:
    """A vote as the inbox shows it: who, the action, when, and the comment (cut to its first bytes)."""

    principal: str
    action: str | None
    decided_at: str | None
    feedback: str | None = None


@dataclass(frozen=True)
class ApprovalTerms:
    """What an approval's eligibility and progress need: its approver fields, the approvers its fired
    escalation steps added, its quorum (without the host's override principals) and its votes. Never
    cut: a summary that cannot hold them whole holds none (`waitgate.run.inbox_summary`)."""

    fields: ApproverFields
    added: tuple[AddedApprovers, ...] = ()
    quorum: QuorumPolicy = field(default_factory=QuorumPolicy)
    votes: tuple[ListedVote, ...] = ()


@dataclass(frozen=True)
class InboxSummary:
    """What a listing needs of a pending interrupt beyond its keys: the title (display text, cut to
    its first bytes) and, for an approval, its terms (None for the other kinds, which have none); for
    another kind whose Task named who is asked (`notify`), those people as `asked` (its fields always
    binding, the approvers fired escalation steps added, no quorum or votes: waitgate.run.asked).
    `action`: an action-bound approval's action in one line (display text, cut like the title)."""

    title: str
    approval: ApprovalTerms | None = None
    asked: ApprovalTerms | None = None
    action: str | None = None


@dataclass(frozen=True)
class PendingEntry:
    """One pending interrupt as the inbox lists it. An approval's entry always has its terms."""

    run: RunRef
    node_id: str
    interrupt_id: str
    kind: str
    requested_at: str
    status: str
    deadline: str | None
    summary: InboxSummary

    def __post_init__(self) -> None:
        if (self.kind == "approval") != (self.summary.approval is not None):
            raise ValueError("an approval's entry carries its terms, and only an approval's does")
        if self.summary.approval is not None and self.summary.asked is not None:
            raise ValueError("an approval's entry is asked by its own terms")


@dataclass(frozen=True)
class PendingPage:
    """Pending interrupts of a tenant, by deadline then age (none last); `next` when there may be more."""

    entries: tuple[PendingEntry, ...]
    next: str | None = None


@dataclass(frozen=True)
class ReceiptPage:
    """A principal's decision receipts, newest first; `next` when there may be more."""

    receipts: tuple[DecisionReceipt, ...]
    next: str | None = None
