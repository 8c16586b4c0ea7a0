"""In-memory ports for unit tests. The store keeps DynamoDB's conditions (proved by the contract
suite in tests/integration/test_store_contract.py, which runs on this fake and on moto alike)."""

from __future__ import annotations

import copy
import threading
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from waitgate.errors import ConcurrentUpdateError, TaskGoneError
from waitgate.records import InterruptRecord, RunChange, RunEvent, RunRef, RunSnapshot, RunView


class MemoryStore:
    def __init__(self) -> None:
        self.snapshots: dict[RunRef, RunSnapshot] = {}
        self.interrupts: dict[tuple[RunRef, str], InterruptRecord] = {}
        self.events: dict[RunRef, list[RunEvent]] = {}
        self.commits = 0
        self._lock = threading.Lock()

    def load(self, run: RunRef, node_id: str) -> RunView:
        with self._lock:
            snapshot = self.snapshots.get(run)
            if snapshot is not None:
                snapshot = replace(snapshot, version_seen=snapshot.next_seq)
            return RunView(snapshot=snapshot, interrupt=self.interrupts.get((run, node_id)))

    def commit(self, change: RunChange) -> None:
        run = change.snapshot.run
        with self._lock:
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
