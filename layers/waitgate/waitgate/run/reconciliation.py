"""What the reconciler looks at and what it does (docs/durability.md, "The reconciler"): pure rules.

An interrupt is *outstanding* while something is still owed on it: pending (its run waits), or ended
(resolved, expired) and not yet delivered to its workflow. Each outstanding interrupt has a moment
from which the reconciler looks at it (`due_of`): the resolution (or the deadline) of an ended one;
the next check of a pending one (first its request, then `check_at`), or its deadline if sooner. A
delivery the engine refused or found gone is *parked*: kept apart for an operator (`waitgate
deliveries list|redrive`), never retried on its own.

`plan` decides, from one consistent read of the interrupt and its run (and, for a pending one, what
its engine says of its execution), which heal applies — at most one per look.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Final, Literal

from waitgate.run.clock import parse_rfc3339, rfc3339
from waitgate.run.records import InterruptRecord, RunRef, RunSnapshot, RunStatus

SHARDS: Final = 8  # the index's fixed number of partitions: one Query each per pass
PARKED_OUTCOMES: Final = frozenset({"task-gone", "refused"})
RECHECK_LONGEST: Final = timedelta(hours=6)
EngineState = Literal["running", "SUCCEEDED", "FAILED", "TIMED_OUT", "ABORTED", "STOPPED", "GONE"]
RUN_STATUS_OF_ENGINE: Final[dict[str, RunStatus]] = {
    "SUCCEEDED": "completed",
    "FAILED": "failed",
    "TIMED_OUT": "failed",
    "GONE": "failed",  # the engine no longer knows the execution: nothing will ever answer it
    "ABORTED": "cancelled",
    "STOPPED": "cancelled",
}
Heal = Literal["redelivered", "expired", "cancelled", "notified"]


def shard_of(interrupt_id: str) -> int:
    """A stable shard per interrupt, spread evenly (the index's writes never heat one partition)."""
    return int.from_bytes(hashlib.sha256(interrupt_id.encode("utf-8")).digest()[:4], "big") % SHARDS


def is_parked(record: InterruptRecord) -> bool:
    return record.status in ("resolved", "expired") and record.delivery_outcome in PARKED_OUTCOMES


def due_of(record: InterruptRecord) -> str | None:
    """From when the reconciler looks at the interrupt (RFC 3339), or None: nothing is owed on it."""
    if record.status == "pending":
        check = _sortable(record.check_at or record.requested_at)
        deadline = _sortable(record.deadline) if record.deadline else check
        return min(check, deadline)
    if record.status in ("resolved", "expired") and record.delivered_at is None:
        return _sortable(record.resolved_at or record.deadline or record.requested_at)
    return None


def names_anyone(record: InterruptRecord) -> bool:
    """Whether the interrupt names people to tell (notify.recipients_of resolves who they are)."""
    data = record.data
    if record.kind == "conversation.start":
        return bool(data.get("participants"))
    if record.kind == "approval":
        named = ("audience", "approversList", "approverGroupRefs", "approverRoleRefs")
        return any(data.get(member) for member in named)
    return False


@dataclass(frozen=True)
class Redeliver:
    """Resolved or expired, not delivered: deliver it again on the outbox's path."""


@dataclass(frozen=True)
class Expire:
    """Past its deadline and still pending: the expiry use case, as the deadline's schedule would."""


@dataclass(frozen=True)
class Cancel:
    """Pending while its run ended: end the run as the run lifecycle does, cancelling what waits."""

    status: RunStatus
    execution_status: str


@dataclass(frozen=True)
class Notify:
    """Pending, naming people, and nobody was told: announce it, then look again at `check_at`."""

    check_at: str


@dataclass(frozen=True)
class Defer:
    """Nothing is wrong yet: look again at `check_at`."""

    check_at: str


@dataclass(frozen=True)
class Leave:
    """Nothing is owed any more (the index lags the table), or it is parked."""


Plan = Redeliver | Expire | Cancel | Notify | Defer | Leave


def needs_engine(record: InterruptRecord | None, snapshot: RunSnapshot | None) -> bool:
    """Whether `plan` needs the engine's word: a pending interrupt of a run not known to have ended."""
    return (
        record is not None
        and record.status == "pending"
        and snapshot is not None
        and not snapshot.is_terminal
        and bool(record.execution_arn)
    )


def plan(
    record: InterruptRecord | None,
    snapshot: RunSnapshot | None,
    now: datetime,
    engine: EngineState | None,
    notice_grace: timedelta,
    period: timedelta,
) -> Plan:
    """The one heal the interrupt needs now (engine: its execution's state, None when not asked)."""
    if record is None or snapshot is None:
        return Leave()
    if record.status in ("resolved", "expired"):
        return Redeliver() if record.delivered_at is None else Leave()
    if record.status != "pending":
        return Leave()
    if snapshot.is_terminal:
        return Cancel(snapshot.status, "RUN_ENDED")
    if engine is not None and engine != "running":
        return Cancel(RUN_STATUS_OF_ENGINE[engine], engine)
    if record.deadline is not None and parse_rfc3339(record.deadline) <= now:
        return Expire()
    check_at = rfc3339(now + recheck_after(record, now, period))
    waited = now - parse_rfc3339(record.requested_at)
    if record.noticed_at is None and names_anyone(record) and waited >= notice_grace:
        return Notify(check_at)
    return Defer(check_at)


def recheck_after(record: InterruptRecord, now: datetime, period: timedelta) -> timedelta:
    """The next look at a pending interrupt: as long as it has waited, at least one period, at most
    RECHECK_LONGEST (and never past its deadline: `due_of` takes the sooner)."""
    waited = now - parse_rfc3339(record.requested_at)
    return min(max(waited, period), RECHECK_LONGEST)


def _sortable(moment: str) -> str:
    try:
        return rfc3339(parse_rfc3339(moment))
    except ValueError:
        return moment


@dataclass(frozen=True)
class OutstandingRef:
    """An entry of the reconciler's index: where the interrupt is, and from when it is due."""

    run: RunRef
    node_id: str
    interrupt_id: str
    due: str
