"""The ports the use cases need. Adapters implement them for AWS; tests implement them in memory."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Literal, Protocol

from waitgate.approval import Memberships
from waitgate.approval.delegation import Delegation
from waitgate.approval.separation_of_duties import TenantSettings
from waitgate.run.inbox_records import InboxFilter, PendingPage, ReceiptPage
from waitgate.run.notices import InterruptNotice
from waitgate.run.reconciliation import EngineState, OutstandingRef
from waitgate.run.records import (
    EventMode,
    EventPage,
    ExecutionLink,
    IdempotencyRef,
    InterruptRecord,
    JSONObject,
    RecordProgress,
    RunChange,
    RunRef,
    RunSnapshot,
    RunView,
    StoredAnswer,
)
from waitgate.run.telemetry import Correlation, Fact


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...

    def sleep(self, seconds: float) -> None:
        """Let `seconds` pass (a use case that must give another writer a moment)."""
        ...


class IdGenerator(Protocol):
    def new_interrupt_id(self) -> str: ...


class InterruptStore(Protocol):
    def load(
        self,
        run: RunRef,
        node_id: str,
        idempotency: IdempotencyRef | None = None,
        reentry_key: str | None = None,
    ) -> RunView:
        """The run's snapshot and the node's current interrupt (and the keyed request's earlier
        answer, when `idempotency` is given; the re-entry key's record, when `reentry_key` is),
        in one consistent read."""
        ...

    def save_answer(self, ref: IdempotencyRef, answer: StoredAnswer) -> bool:
        """Keep an answer that changed nothing (a 409, a 410, a minted link); False if the key already
        holds one (another request with the same key answered first)."""
        ...

    def commit(self, change: RunChange) -> None:
        """Write the change atomically; raise ConcurrentUpdateError if what was read has moved,
        GuardFailedError(label) if one of its guarded items did not hold."""
        ...

    def mark_delivered(self, record: InterruptRecord, delivered_at: str) -> bool:
        """Mark the ended interrupt delivered (moving its version on) unless it was marked delivered
        already or the node holds another interrupt now; False when nothing was marked."""
        ...

    def mark_noticed(self, record: InterruptRecord, noticed_at: str) -> bool:
        """Mark the pending interrupt's recipients told (moving its version on) unless it was marked
        already, ended, or the node holds another interrupt now; False when nothing was marked."""
        ...

    def defer_check(self, record: InterruptRecord, check_at: str) -> bool:
        """Set when the reconciler looks at the pending interrupt next (its version stays); False when
        the node no longer holds it pending."""
        ...

    def snapshot(self, run: RunRef) -> RunSnapshot | None:
        """The run's snapshot alone (one read), or None for a run the store has not seen."""
        ...

    def events(self, run: RunRef, after: int, limit: int, modes: frozenset[EventMode]) -> EventPage:
        """At most `limit` events examined after seq `after`, those of `modes` returned, in seq order."""
        ...


class Inbox(Protocol):
    """What waits for people, read with one query per page whatever the table's history
    (docs/inbox.md): the sparse index of pending interrupts, and each principal's decision receipts."""

    def pending(self, page: InboxFilter) -> PendingPage:
        """One read of the tenant's pending interrupts, by deadline then age (no deadline last):
        `page.limit` examined after `page.cursor`, those matching `kind` / `run_id` returned, each as
        what the inbox lists of it (never its payload or task token; an approval's terms whole).
        ValidationFailedError(path="cursor") for a cursor this store did not give."""
        ...

    def decided(self, principal: str, page: InboxFilter) -> ReceiptPage:
        """One read of what `principal` decided in the tenant, newest first (receipts are kept
        DECIDED_RETENTION_DAYS days)."""
        ...


class Workflow(Protocol):
    def send_success(self, task_token: str, output: Any) -> None:
        """Answer a waiting task; TaskGoneError if it no longer waits, DeliveryFailedError to retry."""
        ...

    def send_failure(self, task_token: str, error: str, cause: str) -> None: ...

    def execution_state(self, execution_arn: str) -> EngineState | None:
        """What the engine says of the execution (a Step Functions or a durable one, by its ARN):
        `running`, its terminal status, or `GONE` when it no longer knows it; None when it cannot
        tell (not ours to ask, not permitted). DeliveryFailedError to ask again later."""
        ...


class Outstanding(Protocol):
    """The reconciler's sparse index (docs/durability.md): what is owed, by when; what is parked."""

    def due(self, shard: int, before: str, limit: int) -> tuple[OutstandingRef, ...]:
        """At most `limit` interrupts of the shard due at or before `before` (RFC 3339), soonest first:
        one Query, whatever the table's history (the index may lag the table: read each again)."""
        ...

    def parked(self, limit: int) -> tuple[OutstandingRef, ...]:
        """The interrupts whose delivery is parked (the engine refused it or found it gone), oldest first."""
        ...


class Directory(Protocol):
    """The host's identity model: who is in a group, who holds a role, per tenant."""

    def memberships(
        self, tenant_id: str, principal: str, groups: Sequence[str], roles: Sequence[str]
    ) -> Memberships:
        """Which of `groups` and `roles` the principal belongs to, read in one round trip."""
        ...

    def members(self, tenant_id: str, kind: Literal["group", "role"], ref: str) -> tuple[str, ...]:
        """Every principal in the group (or holding the role), for notification recipients."""
        ...

    def delegations_to(self, tenant_id: str, delegate: str) -> tuple[Delegation, ...]:
        """The delegations naming `delegate` (held or not: the rules say which hold now)."""
        ...

    def tenant_settings(self, tenant_id: str) -> TenantSettings:
        """The tenant's own rules (absent: the defaults); read only when a rule needs them."""
        ...


class Notifier(Protocol):
    def notify_ask(self, run: RunRef, node_id: str, interrupt_id: str, ask: JSONObject) -> None:
        """Tell the agent side a question was asked; DeliveryFailedError when it could not."""
        ...

    def notify_interrupt(self, notice: InterruptNotice) -> None:
        """Tell one recipient an interrupt waits for them (their own link); DeliveryFailedError when not."""
        ...


class RunIndex(Protocol):
    """Reads a run's end needs: which runs an execution carries, and a run's interrupts."""

    def runs_of_execution(self, execution_name: str) -> tuple[ExecutionLink, ...]:
        """The runs whose first request came from an execution of that name (every tenant)."""
        ...

    def interrupts_of_run(self, run: RunRef) -> tuple[InterruptRecord, ...]:
        """Every node's current interrupt of the run."""
        ...


class DeadlineScheduler(Protocol):
    def schedule_expiry(self, record: InterruptRecord) -> None:
        """Arrange for the interrupt to be expired at its deadline (a one-time schedule).
        DeliveryFailedError when it could not be arranged."""
        ...

    def schedule_step(self, record: InterruptRecord, step: int, due: datetime) -> None:
        """Arrange for escalation step `step` of the interrupt to fire at `due` (a one-time schedule).
        DeliveryFailedError when it could not be arranged."""
        ...

    def delete_schedules(self, record: InterruptRecord) -> int:
        """Delete the ended interrupt's schedules that have not run (its deadline's and its steps');
        how many were deleted. DeliveryFailedError when the scheduler should be asked again."""
        ...


class ReplayGuard(Protocol):
    def first_use(self, key: str, expires_at_epoch: int) -> bool:
        """True the first time `key` is presented (kept until `expires_at_epoch`), False after."""
        ...


class ConsumedDecisions(Protocol):
    """The consume-once receipts of action-bound decisions (docs/approvals.md, "Consume once")."""

    def consume_once(
        self, run: RunRef, interrupt_id: str, receipt: JSONObject, request_key: str | None
    ) -> JSONObject | None:
        """The receipt to answer: `receipt`, kept, the first time the decision is consumed (one
        conditional write: of two concurrent consumes exactly one is the first); the kept one when
        the same request (its Idempotency-Key) is sent again; None when another consumed it."""
        ...


class FreshLinks(Protocol):
    """How often a fresh link was sent (docs/signed-links.md, "An expired link")."""

    def first_in_window(self, run: RunRef, interrupt_id: str, principal: str, now: int, window: int) -> bool:
        """True, and recorded, when no fresh link of this interrupt went to this principal in the last
        `window` seconds before `now` (epoch seconds); False otherwise. One conditional write."""
        ...


class Telemetry(Protocol):
    """What operators see of the use cases: metrics (facts) and the ids that join logs and traces."""

    def record(self, fact: Fact) -> None:
        """Count the fact (an EMF line); never fails the use case."""
        ...

    def correlate(self, correlation: Correlation) -> None:
        """Every later log line of this request, and its trace, carries these ids."""
        ...


class StreamProgress(Protocol):
    """What the stream's consumers did with a record across the mapping's retries (dispatch_stream)."""

    def load(self, record_id: str) -> RecordProgress:
        """The progress saved for the record; an empty one when none was (the usual case)."""
        ...

    def save(self, record_id: str, progress: RecordProgress) -> None:
        """Kept at least as long as the stream keeps the record (24 hours)."""
        ...
