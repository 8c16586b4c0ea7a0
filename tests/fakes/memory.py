"""In-memory ports for unit tests. The store keeps DynamoDB's conditions (proved by the contract
suite in tests/integration/test_store_contract.py, which runs on this fake and on moto alike)."""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from waitgate.errors import ConcurrentUpdateError, GuardFailedError, TaskGoneError
from waitgate.records import (
    GuardSubject,
    IdempotencyRef,
    InterruptRecord,
    ReentryKey,
    RunChange,
    RunEvent,
    RunRef,
    RunSnapshot,
    RunView,
    StoredAnswer,
)


class MemoryStore:
    def __init__(self) -> None:
        self.snapshots: dict[RunRef, RunSnapshot] = {}
        self.interrupts: dict[tuple[RunRef, str], InterruptRecord] = {}
        self.events: dict[RunRef, list[RunEvent]] = {}
        self.answers: dict[str, StoredAnswer] = {}  # by record id: a key's scope is not the run
        self.guarded: dict[GuardSubject, dict[str, str]] = {}
        self.reentry: dict[tuple[RunRef, str], ReentryKey] = {}
        self.commits = 0
        self.reads = 0
        self._lock = threading.Lock()

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

    def save_answer(self, ref: IdempotencyRef, answer: StoredAnswer) -> bool:
        with self._lock:
            if ref.record_id in self.answers:
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
            self.interrupts[(record.run, record.node_id)] = replace(
                current, delivered_at=delivered_at, delivery_outcome="delivered", version=current.version + 1
            )
            return True

    def commit(self, change: RunChange) -> None:
        run = change.snapshot.run
        with self._lock:
            self._check_guards(change)
            owner = self.reentry.get((run, change.reentry.key)) if change.reentry else None
            if change.reentry and owner and owner.interrupt_id != change.reentry.interrupt_id:
                raise ConcurrentUpdateError("the key belongs to another interrupt")
            if change.answer is not None and change.answer[0].record_id in self.answers:
                raise ConcurrentUpdateError("key answered")
            stored = self.snapshots.get(run)
            seen = change.snapshot.version_seen
            if (stored is None) != (seen is None) or (stored and stored.next_seq != seen):
                raise ConcurrentUpdateError("snapshot moved")
            if change.interrupt is not None:
                current = self.interrupts.get((run, change.interrupt.node_id))
                expected = change.expected_interrupt_version
                if (current is None) != (expected is None) or (current and current.version != expected):
                    raise ConcurrentUpdateError("interrupt moved")
                self.interrupts[(run, change.interrupt.node_id)] = copy.deepcopy(change.interrupt)
            self.snapshots[run] = change.snapshot
            self.events.setdefault(run, []).extend(change.events)
            for guard in change.guarded:
                if guard.put is not None:
                    self.guarded[guard.subject] = dict(guard.put)
            if change.answer is not None:
                self.answers[change.answer[0].record_id] = change.answer[1]
            if change.reentry is not None:
                self.reentry[(run, change.reentry.key)] = change.reentry
            self.commits += 1


@dataclass
class RecordingWorkflow:
    successes: list[tuple[str, Any]] = field(default_factory=list)
    failures: list[tuple[str, str, str]] = field(default_factory=list)
    gone: set[str] = field(default_factory=set)

    def send_success(self, task_token: str, output: Any) -> None:
        if task_token in self.gone:
            raise TaskGoneError("gone")
        self.successes.append((task_token, output))

    def send_failure(self, task_token: str, error: str, cause: str) -> None:
        self.failures.append((task_token, error, cause))


@dataclass
class FixedClock:
    moment: datetime = field(default_factory=lambda: datetime(2026, 11, 30, 10, 0, tzinfo=UTC))

    def now(self) -> datetime:
        return self.moment

    def advance(self, **delta: float) -> None:
        self.moment += timedelta(**delta)


class CountingIds:
    def __init__(self) -> None:
        self.count = 0

    def new_interrupt_id(self) -> str:
        self.count += 1
        return f"01INTERRUPT{self.count:015d}"
