"""In-memory ports for unit tests. The store, the run index and the directory keep DynamoDB's
semantics (proved by the contract suite in tests/integration/test_store_contract.py, which runs on
these fakes and on the moto adapters alike); the workflow and the notifier record what they were sent."""

from __future__ import annotations

import copy
import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from waitgate.approval import Memberships
from waitgate.approval.delegation import Delegation
from waitgate.approval.separation_of_duties import TenantSettings
from waitgate.errors import (
    AnswerRefusedError,
    ConcurrentUpdateError,
    DeliveryFailedError,
    GuardFailedError,
    ResultTooLargeError,
    TaskGoneError,
)
from waitgate.run.inbox_records import InboxFilter, PendingPage, ReceiptPage
from waitgate.run.notices import InterruptNotice
from waitgate.run.reconciliation import EngineState, OutstandingRef, due_of, is_parked, shard_of
from waitgate.run.records import (
    DecisionReceipt,
    EventMode,
    EventPage,
    ExecutionLink,
    ExecutionLinkRef,
    GuardSubject,
    IdempotencyRef,
    InterruptRecord,
    JSONObject,
    ReentryKey,
    RunChange,
    RunEvent,
    RunRef,
    RunSnapshot,
    RunView,
    StoredAnswer,
)

ANSWER_RETENTION_SECONDS = 24 * 3600  # a kept answer's life (the adapter's TTL condition)


class MemoryStore:
    def __init__(self) -> None:
        self.snapshots: dict[RunRef, RunSnapshot] = {}
        self.interrupts: dict[tuple[RunRef, str], InterruptRecord] = {}
        self.event_log: dict[RunRef, list[RunEvent]] = {}
        self.answers: dict[str, StoredAnswer] = {}  # by record id: a key's scope is not the run
        self.guarded: dict[GuardSubject, dict[str, str]] = {}
        self.reentry: dict[tuple[RunRef, str], ReentryKey] = {}
        self.receipts: list[DecisionReceipt] = []
        self.commits = 0
        self.reads = 0
        self._lock = threading.Lock()
        self._competitors: list[Callable[[], object]] = []
        self._competing = False

    def race_next_write(self, competitor: Callable[[], object]) -> None:
        """Run `competitor` (another writer, committing through this store) just before the next
        commit or kept answer is written: the writer read before the competitor wrote, and loses.
        Queued competitors race one write each, in order; a competitor's own writes are not raced."""
        self._competitors.append(competitor)

    def _let_competitor_write(self) -> None:
        if not self._competitors or self._competing:
            return
        competitor = self._competitors.pop(0)
        self._competing = True
        try:
            competitor()
        finally:
            self._competing = False

    def load(
        self,
        run: RunRef,
        node_id: str,
        idempotency: IdempotencyRef | None = None,
        reentry_key: str | None = None,
    ) -> RunView:
        with self._lock:
            self.reads += 1
            snapshot = self.snapshots.get(run)
            if snapshot is not None:
                snapshot = replace(snapshot, version_seen=snapshot.next_seq)
            answer = self.answers.get(idempotency.record_id) if idempotency else None
            entry = self.reentry.get((run, reentry_key)) if reentry_key is not None else None
            return RunView(
                snapshot=snapshot, interrupt=self.interrupts.get((run, node_id)), answer=answer, reentry=entry
            )

    def snapshot(self, run: RunRef) -> RunSnapshot | None:
        with self._lock:
            self.reads += 1
            snapshot = self.snapshots.get(run)
            return replace(snapshot, version_seen=snapshot.next_seq) if snapshot is not None else None

    def events(self, run: RunRef, after: int, limit: int, modes: frozenset[EventMode]) -> EventPage:
        """As DynamoDB's Query with Limit and a FilterExpression: `limit` events are examined, those of
        `modes` returned, and a full examined page has a `next` (even when nothing follows it)."""
        with self._lock:
            self.reads += 1
            examined = [event for event in self.events_of(run) if event.seq > after][:limit]
        events = tuple(event for event in examined if event.mode in modes)
        return EventPage(events, examined[-1].seq if len(examined) == limit else None)

    def events_of(self, run: RunRef) -> list[RunEvent]:
        return sorted(self.event_log.get(run, []), key=lambda event: event.seq)

    def _key_taken(self, ref: IdempotencyRef, answer: StoredAnswer) -> bool:
        """As the adapter's condition: the key holds an answer whose 24 hours are not over when this
        one is given (an expired record TTL has not deleted yet may be overwritten)."""
        earlier = self.answers.get(ref.record_id)
        answered_at = answer.expires_at_epoch - ANSWER_RETENTION_SECONDS
        return earlier is not None and earlier.expires_at_epoch > answered_at

    def save_answer(self, ref: IdempotencyRef, answer: StoredAnswer) -> bool:
        self._let_competitor_write()
        with self._lock:
            if self._key_taken(ref, answer):
                return False
            self.answers[ref.record_id] = answer
            self.commits += 1
            return True

    def _check_guards(self, change: RunChange) -> None:
        for guard in change.guarded:
            current = self.guarded.get(guard.subject)
            holds = (
                current is None
                if guard.expect is None
                else (current is not None and all(current.get(k) == v for k, v in guard.expect.items()))
            )
            if not holds:
                raise GuardFailedError(guard.label)

    def mark_delivered(self, record: InterruptRecord, delivered_at: str) -> bool:
        with self._lock:
            current = self.interrupts.get((record.run, record.node_id))
            if current is None or current.interrupt_id != record.interrupt_id:
                return False
            if current.status not in ("resolved", "expired") or current.delivery_outcome == "delivered":
                return False
            if current.delivery_outcome == "refused":  # as the adapter's condition: only task-gone yields
                return False
            self.interrupts[(record.run, record.node_id)] = replace(
                current, delivered_at=delivered_at, delivery_outcome="delivered", version=current.version + 1
            )
            return True

    def mark_noticed(self, record: InterruptRecord, noticed_at: str) -> bool:
        with self._lock:
            current = self.interrupts.get((record.run, record.node_id))
            if current is None or current.interrupt_id != record.interrupt_id:
                return False
            if current.status != "pending" or current.noticed_at is not None:
                return False
            self.interrupts[(record.run, record.node_id)] = replace(
                current, noticed_at=noticed_at, version=current.version + 1
            )
            return True

    def defer_check(self, record: InterruptRecord, check_at: str) -> bool:
        with self._lock:
            current = self.interrupts.get((record.run, record.node_id))
            if current is None or current.interrupt_id != record.interrupt_id or current.status != "pending":
                return False
            self.interrupts[(record.run, record.node_id)] = replace(current, check_at=check_at)
            return True

    def _check_run_items(self, change: RunChange) -> None:
        """The run's own items as read (snapshot, node, key): any that moved is a conflict."""
        run = change.snapshot.run
        stored = self.snapshots.get(run)
        seen = change.snapshot.version_seen
        snapshot_moved = (stored is None) != (seen is None) or bool(stored and stored.next_seq != seen)
        current, expected, interrupt_moved = None, None, False
        if change.interrupt is not None:
            current = self.interrupts.get((run, change.interrupt.node_id))
            expected = change.expected_interrupt_version
            interrupt_moved = (current is None) != (expected is None) or bool(
                current and current.version != expected
            )
        if snapshot_moved or interrupt_moved:
            # as DynamoDB returns the items whose condition failed: both, when both moved
            both = snapshot_moved and interrupt_moved and seen is not None and expected is not None
            found = None
            if both and stored and current:
                found = RunView(replace(stored, version_seen=stored.next_seq), copy.deepcopy(current))
            raise ConcurrentUpdateError("snapshot moved" if snapshot_moved else "interrupt moved", found)
        owner = self.reentry.get((run, change.reentry.key)) if change.reentry else None
        if change.reentry and owner and owner.interrupt_id != change.reentry.interrupt_id:
            raise ConcurrentUpdateError("the key belongs to another interrupt")

    def commit(self, change: RunChange) -> None:
        """All or nothing, refused as the adapter's transaction is: a moved run item first (a
        conflict), then a guard (by its label), then a key answered meanwhile (a conflict)."""
        run = change.snapshot.run
        self._let_competitor_write()
        with self._lock:
            self._check_run_items(change)
            self._check_guards(change)
            if change.answer is not None and self._key_taken(*change.answer):
                raise ConcurrentUpdateError("key answered")
            if change.interrupt is not None:
                self.interrupts[(run, change.interrupt.node_id)] = copy.deepcopy(change.interrupt)
            self.snapshots[run] = change.snapshot
            self.event_log.setdefault(run, []).extend(change.events)
            for guard in change.guarded:
                if guard.put is not None:
                    self.guarded[guard.subject] = dict(guard.put)
            if change.answer is not None:
                self.answers[change.answer[0].record_id] = change.answer[1]
            if change.reentry is not None:
                self.reentry[(run, change.reentry.key)] = change.reentry
            self.receipts.extend(change.receipts)
            self.commits += 1


@dataclass
class RecordingWorkflow:
    """Step Functions as the adapter reports it: a token in `gone` no longer waits (TaskGoneError, as
    for TaskTimedOut), one in `unavailable` is throttled (DeliveryFailedError, nothing sent)."""

    successes: list[tuple[str, Any]] = field(default_factory=list)
    failures: list[tuple[str, str, str]] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)
    unavailable: set[str] = field(default_factory=set)
    output_limit: int | None = None  # characters of JSON the engine takes (ResultTooLargeError beyond)
    refusing: set[str] = field(default_factory=set)
    executions: dict[str, EngineState] = field(default_factory=dict)  # ARN → state; unknown: running
    asked: list[str] = field(default_factory=list)

    def execution_state(self, execution_arn: str) -> EngineState | None:
        self.asked.append(execution_arn)
        return self.executions.get(execution_arn, "running")

    def send_success(self, task_token: str, output: Any) -> None:
        # As the adapters do: the size is checked before anything is sent
        size = len(json.dumps(output, ensure_ascii=False, separators=(",", ":")))
        if self.output_limit is not None and size > self.output_limit:
            raise ResultTooLargeError(f"The resume value is {size:,} characters of JSON.")
        self._reachable(task_token)
        self.successes.append((task_token, output))

    def send_failure(self, task_token: str, error: str, cause: str) -> None:
        self._reachable(task_token)
        self.failures.append((task_token, error, cause))

    def _reachable(self, task_token: str) -> None:
        if task_token in self.gone:
            raise TaskGoneError("Step Functions answered TaskTimedOut.", aws_code="TaskTimedOut")
        if task_token in self.unavailable:
            raise DeliveryFailedError("Step Functions answered ThrottlingException.", aws_code="Throttling")
        if task_token in self.refusing:
            raise AnswerRefusedError("Step Functions answered InvalidOutput.", aws_code="InvalidOutput")


class MemoryRunIndex:
    """The run index over a MemoryStore: the execution links its commits wrote, a run's node items."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store

    def runs_of_execution(self, execution_name: str) -> tuple[ExecutionLink, ...]:
        links = [
            ExecutionLink(execution_name, subject.run, item.get("executionArn"))
            for subject, item in self._store.guarded.items()
            if isinstance(subject, ExecutionLinkRef) and subject.execution_name == execution_name
        ]
        return tuple(sorted(links, key=lambda link: (link.run.tenant_id, link.run.run_id)))

    def interrupts_of_run(self, run: RunRef) -> tuple[InterruptRecord, ...]:
        found = [record for (owner, _), record in self._store.interrupts.items() if owner == run]
        return tuple(sorted(found, key=lambda record: record.node_id))


class MemoryOutstanding:
    """The reconciler's index over a MemoryStore, as the DynamoDB adapter reads it: each shard's
    outstanding interrupts due at or before `before`, soonest first; the parked ones apart."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self.queries = 0

    def due(self, shard: int, before: str, limit: int) -> tuple[OutstandingRef, ...]:
        self.queries += 1
        found = []
        for record in list(self._store.interrupts.values()):
            due = due_of(record)
            in_shard = not is_parked(record) and shard_of(record.interrupt_id) == shard
            if due is not None and in_shard and due <= before:
                found.append(OutstandingRef(record.run, record.node_id, record.interrupt_id, due))
        return tuple(sorted(found, key=lambda ref: (ref.due, ref.interrupt_id))[:limit])

    def parked(self, limit: int) -> tuple[OutstandingRef, ...]:
        self.queries += 1
        found = [
            OutstandingRef(r.run, r.node_id, r.interrupt_id, r.delivered_at or r.requested_at)
            for r in list(self._store.interrupts.values())
            if is_parked(r)
        ]
        return tuple(sorted(found, key=lambda ref: (ref.due, ref.interrupt_id))[:limit])


class MemoryInbox:
    """The inbox over a MemoryStore, as the DynamoDB adapter reads it: the pending interrupts in the
    index's order (deadline, none last, then age), `limit` examined after the cursor, the filters
    applied to those; a full examined page has a `next`. Cursors are the examined position."""

    def __init__(self, store: MemoryStore) -> None:
        self._store = store
        self.queries = 0

    def pending(self, page: InboxFilter) -> PendingPage:
        from waitgate.adapters.dynamodb_keys import pending_order
        from waitgate.run.inbox_summary import entry_of

        self.queries += 1
        ordered = sorted(
            (
                (pending_order(record), record)
                for (run, _), record in self._store.interrupts.items()
                if run.tenant_id == page.tenant_id and record.status == "pending"
            ),
            key=lambda pair: (pair[0], pair[1].run.run_id, pair[1].node_id),
        )
        start = _position(page.cursor)
        examined = [pair for pair in ordered if _key(pair) > start][: page.limit]
        entries = tuple(
            entry_of(record)  # what the index's summary of it says, or its node item read whole
            for _, record in examined
            if (page.kind is None or record.kind == page.kind)
            and (page.run_id is None or record.run.run_id == page.run_id)
        )
        following = "|".join(_key(examined[-1])) if len(examined) == page.limit else None
        return PendingPage(entries, following)

    def decided(self, principal: str, page: InboxFilter) -> ReceiptPage:
        self.queries += 1
        mine = sorted(
            (
                r
                for r in self._store.receipts
                if r.principal == principal and r.run.tenant_id == page.tenant_id
            ),
            key=lambda r: (r.resolved_at, r.interrupt_id),
            reverse=True,
        )
        start = int(page.cursor) if page.cursor else 0
        examined = mine[start : start + page.limit]
        receipts = tuple(
            r
            for r in examined
            if (page.kind is None or r.kind == page.kind)
            and (page.run_id is None or r.run.run_id == page.run_id)
        )
        following = str(start + page.limit) if len(examined) == page.limit else None
        return ReceiptPage(receipts, following)


def _key(pair: tuple[str, InterruptRecord]) -> tuple[str, str, str]:
    return (pair[0], pair[1].run.run_id, pair[1].node_id)


def _position(cursor: str | None) -> tuple[str, str, str]:
    if cursor is None:
        return ("", "", "")
    parts = cursor.split("|")
    if len(parts) != 3:
        from waitgate.errors import ValidationFailedError

        raise ValidationFailedError("cursor must be the `next` of an earlier page.", path="cursor")
    return (parts[0], parts[1], parts[2])


RefKind = Literal["group", "role"]


class MemoryDirectory:
    """Group members and role holders per tenant, managed like the DynamoDB directory's."""

    def __init__(self) -> None:
        self._members: dict[tuple[str, RefKind, str], set[str]] = {}
        self._delegations: dict[tuple[str, str, str], Delegation] = {}
        self._settings: dict[str, TenantSettings] = {}
        self.reads = 0

    def add_member(self, tenant_id: str, kind: RefKind, ref: str, principal: str) -> None:
        self._members.setdefault((tenant_id, kind, ref), set()).add(principal)

    def remove_member(self, tenant_id: str, kind: RefKind, ref: str, principal: str) -> None:
        self._members.get((tenant_id, kind, ref), set()).discard(principal)

    def memberships(
        self, tenant_id: str, principal: str, groups: Sequence[str], roles: Sequence[str]
    ) -> Memberships:
        self.reads += 1
        return Memberships(
            groups=frozenset(ref for ref in groups if principal in self._of(tenant_id, "group", ref)),
            roles=frozenset(ref for ref in roles if principal in self._of(tenant_id, "role", ref)),
        )

    def members(self, tenant_id: str, kind: RefKind, ref: str) -> tuple[str, ...]:
        self.reads += 1
        return tuple(sorted(self._of(tenant_id, kind, ref)))

    def delegate(self, tenant_id: str, delegation: Delegation) -> None:
        self._delegations[(tenant_id, delegation.delegate, delegation.delegator)] = delegation

    def undelegate(self, tenant_id: str, delegator: str, delegate: str) -> bool:
        return self._delegations.pop((tenant_id, delegate, delegator), None) is not None

    def delegations_to(self, tenant_id: str, delegate: str) -> tuple[Delegation, ...]:
        self.reads += 1
        found = [d for (t, to, _), d in self._delegations.items() if (t, to) == (tenant_id, delegate)]
        return tuple(sorted(found, key=lambda d: d.delegator))

    def set_tenant_settings(self, tenant_id: str, settings: TenantSettings) -> None:
        self._settings[tenant_id] = settings

    def tenant_settings(self, tenant_id: str) -> TenantSettings:
        self.reads += 1
        return self._settings.get(tenant_id, TenantSettings())

    def _of(self, tenant_id: str, kind: RefKind, ref: str) -> set[str]:
        return self._members.get((tenant_id, kind, ref), set())


@dataclass
class RecordingNotifier:
    """The notices and asks sent; a recipient in `unreachable` is refused (DeliveryFailedError)."""

    notices: list[InterruptNotice] = field(default_factory=list)
    asks: list[tuple[RunRef, str, str, JSONObject]] = field(default_factory=list)
    unreachable: set[str] = field(default_factory=set)
    asks_fail: bool = False

    def notify_ask(self, run: RunRef, node_id: str, interrupt_id: str, ask: JSONObject) -> None:
        if self.asks_fail:
            raise DeliveryFailedError("SNS answered Throttling.", aws_code="Throttling")
        self.asks.append((run, node_id, interrupt_id, ask))

    def notify_interrupt(self, notice: InterruptNotice) -> None:
        if notice.recipient in self.unreachable:
            raise DeliveryFailedError("SNS answered InvalidParameter.", aws_code="InvalidParameter")
        self.notices.append(notice)


@dataclass
class FixedClock:
    moment: datetime = field(default_factory=lambda: datetime(2026, 11, 30, 10, 0, tzinfo=UTC))

    def now(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> None:
        self.moment += timedelta(**delta)

    def sleep(self, seconds: float) -> None:
        self.advance(seconds=seconds)


class CountingIds:
    def __init__(self) -> None:
        self.count = 0

    def new_interrupt_id(self) -> str:
        self.count += 1
        return f"01INTERRUPT{self.count:015d}"
