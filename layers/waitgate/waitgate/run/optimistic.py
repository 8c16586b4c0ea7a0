"""Optimistic concurrency: the one loop every use case that changes a run goes through.

Why exactly one resolve wins: a use case reads what it needs (one consistent BatchGetItem), plans the
change from what it read, and commits it as one DynamoDB transaction whose every write is conditioned
on what was read — the interrupt's `version`, the snapshot's event counter `nextSeq`, new items on not
existing yet. Two resolvers that read the same version both plan; the first transaction commits and
moves the version; the second is cancelled by DynamoDB (`ConditionalCheckFailed`), which the store
reports as `ConcurrentUpdateError`. Only then does this loop run the attempt again: the loser reads
again, now sees the interrupt resolved, and answers `409 interrupt_already_resolved` from its plan
instead of writing. No lock is held, nothing waits on a timer, and no other failure is ever retried
here (throttling is `TemporarilyUnavailableError`, a refused write `StoreRefusedError`; both leave).

When the store's refusal carries what it found (`ConcurrentUpdateError.current`: DynamoDB returns the
items whose condition failed), `retry_from_current` hands that to the next attempt instead of a re-read:
the loser of a race plans its 409 from the winner's items, at no extra call.

`MAX_ATTEMPTS` bounds a pathological storm of writers; past it the request fails loudly.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import TypeVar

from waitgate.errors import ConcurrentUpdateError, GuardFailedError
from waitgate.run.records import RunView

MAX_ATTEMPTS = 16
T = TypeVar("T")


def retry_on_conflict(attempt: Callable[[], T], what: str, *, retried_guards: Collection[str] = ()) -> T:
    """`attempt()` reads, plans and makes its conditional write; it is run again only when that write
    lost to another writer (or a guard named in `retried_guards` — one a re-read can satisfy — failed).
    Work that must happen once, after the commit (delivery, notices), follows the returned plan."""
    for _ in range(MAX_ATTEMPTS):
        try:
            return attempt()
        except ConcurrentUpdateError:
            continue
        except GuardFailedError as failed:
            if failed.label not in retried_guards:
                raise
    raise ConcurrentUpdateError(f"The {what} kept changing; gave up after {MAX_ATTEMPTS} attempts.")


def retry_from_current(attempt: Callable[[RunView | None], T], what: str) -> T:
    """`retry_on_conflict` for an attempt that reads the run and node alone: its first call gets None
    (read), each retry what the lost write found (`ConcurrentUpdateError.current`), or None to read."""
    current: RunView | None = None
    for _ in range(MAX_ATTEMPTS):
        try:
            return attempt(current)
        except ConcurrentUpdateError as lost:
            current = lost.current if isinstance(lost.current, RunView) else None
    raise ConcurrentUpdateError(f"The {what} kept changing; gave up after {MAX_ATTEMPTS} attempts.")
