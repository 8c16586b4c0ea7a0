"""The ports the use cases need. Adapters implement them for AWS; tests implement them in memory."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Protocol

from waitgate.records import RunChange, RunRef, RunView


class Clock(Protocol):
    def now(self) -> datetime:
        """The current time, timezone-aware UTC."""
        ...


class IdGenerator(Protocol):
    def new_interrupt_id(self) -> str: ...


class InterruptStore(Protocol):
    def load(self, run: RunRef, node_id: str) -> RunView:
        """The run's snapshot and the node's current interrupt, in one consistent read."""
        ...

    def commit(self, change: RunChange) -> None:
        """Write the change atomically; raise ConcurrentUpdateError if what was read has moved."""
        ...


class Workflow(Protocol):
    def send_success(self, task_token: str, output: Any) -> None:
        """Answer a waiting task; TaskGoneError if it no longer waits, DeliveryFailedError to retry."""
        ...

    def send_failure(self, task_token: str, error: str, cause: str) -> None: ...
