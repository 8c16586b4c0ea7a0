"""Where run records live in the interrupts table: every partition and sort key format, and the
sparse pending index's keys (see docs/architecture.md, "The table"). Items' attributes are laid out in
`dynamodb_items`; the transactions' writes in `dynamodb_writes`."""

from __future__ import annotations

import hashlib
from typing import Any

from waitgate.run.clock import parse_rfc3339, rfc3339
from waitgate.run.reconciliation import due_of, is_parked, shard_of
from waitgate.run.records import (
    ConversationRef,
    DecisionReceipt,
    ExecutionLinkRef,
    ExternalEventRef,
    GuardSubject,
    InterruptRecord,
    RunRef,
)

Item = dict[str, dict[str, Any]]
SNAPSHOT_SK = "RUN"


def run_pk(run: RunRef) -> str:
    return f"RUN#{run.tenant_id}#{run.run_id}"


def node_sk(node_id: str) -> str:
    return f"NODE#{node_id}"


def reentry_sk(key: str) -> str:
    return f"KEY#{key}"


def event_sk(seq: int) -> str:
    return f"EVT#{seq:012d}"


EVENTS_END = "EVT#~"  # sorts after every EVT#<digits>


def is_event_sk(sk: str) -> bool:
    return sk.startswith("EVT#")


def seq_of_event_sk(sk: str) -> int:
    return int(sk.removeprefix("EVT#"))


def key_of(pk: str, sk: str) -> Item:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


# Outside the runs' partitions: the execution → run lookup, and one item per conversation of a tenant.
def execution_pk(execution_name: str) -> str:
    return f"EXEC#{execution_name}"


EXECUTION_LINK_SK_PREFIX = "TENANT#"
CONVERSATION_SK = "CONV"


def guard_key(subject: GuardSubject) -> Item:
    """Where a guarded record lives."""
    if isinstance(subject, ExecutionLinkRef):
        run = subject.run
        return key_of(
            execution_pk(subject.execution_name),
            f"{EXECUTION_LINK_SK_PREFIX}{run.tenant_id}#RUN#{run.run_id}",
        )
    if isinstance(subject, ConversationRef):
        return key_of(f"TENANT#{subject.tenant_id}#CONV#{subject.conversation_id}", CONVERSATION_SK)
    if isinstance(subject, ExternalEventRef):
        return key_of(hook_pk(subject.source), hook_event_sk(subject.event_id))
    raise TypeError(f"no key layout for {type(subject).__name__}")


# The sparse index of pending interrupts (template.yaml, InterruptsTable's InboxByDeadline): its key
# attributes and the inbox's summary (`waitgate.run.inbox_summary`) are on a node item only while its
# interrupt is pending. Every write of a node item is a whole Put of `interrupt_item`, so the write that
# ends an interrupt (resolution, expiry, cancellation) is the one that takes it out of the index, in its
# own transaction. The index projects the summary, never the payload (docs/inbox.md). The former index
# PendingByDeadline had the same keys and projected whole items but the task token; a stack upgrading
# from it keeps it for one deploy (template parameter FormerPendingIndex), and the inbox reads it then.
PENDING_INDEX = "InboxByDeadline"
FORMER_PENDING_INDEX = "PendingByDeadline"
PENDING_PK = "pendingTenant"
PENDING_SK = "pendingOrder"
INBOX_SUMMARY = "inboxSummary"
NO_DEADLINE = "~"  # sorts after every RFC 3339 time: an interrupt without a deadline comes last


def pending_pk(tenant_id: str) -> str:
    return f"TENANT#{tenant_id}"


def sortable(moment: str) -> str:
    """An RFC 3339 time as the 24 characters that sort as time does (UTC, milliseconds, Z)."""
    try:
        return rfc3339(parse_rfc3339(moment))
    except ValueError:
        return moment


def pending_order(record: InterruptRecord) -> str:
    """Deadline first (none last), then age (oldest first), then the ULID (unique)."""
    deadline = sortable(record.deadline) if record.deadline else NO_DEADLINE
    return f"{deadline}#{sortable(record.requested_at)}#{record.interrupt_id}"


# What a principal decided (docs/inbox.md): one item per principal and resolution, outside the runs'
# partitions, written in the resolution's own transaction and deleted by TTL after the retention.
def decided_pk(tenant_id: str, principal: str) -> str:
    return f"DECIDED#{tenant_id}#{principal}"


def receipt_sk(receipt: DecisionReceipt) -> str:
    run = receipt.run
    return f"{sortable(receipt.resolved_at)}#{run.run_id}#{receipt.interrupt_id}#{receipt.node_id}"


# The webhook events (docs/webhooks.md), outside the runs' partitions: each kept event under its source,
# the pending waits under their correlation key, the shapes in use, and each kept event's member index.
def fresh_link_pk(run: RunRef, interrupt_id: str, principal: str) -> str:
    """When a fresh link of one interrupt last went to one principal (the principal as a digest: a
    key is no place for an address-like name)."""
    digest = hashlib.sha256(
        "\x1f".join((run.tenant_id, run.run_id, interrupt_id, principal)).encode()
    ).hexdigest()
    return f"FRESHLINK#{digest}"


def hook_pk(source: str) -> str:
    return f"HOOK#{source}"


def hook_event_sk(event_id: str) -> str:
    return f"HOOKEVT#{event_id}"


def waiting_pk(correlation_key: str) -> str:
    return f"WAIT#{correlation_key}"


def waiting_sk(run: RunRef, node_id: str) -> str:
    return f"{run.tenant_id}#{run.run_id}#{node_id}"


def shape_pk(shape_key: str) -> str:
    return f"SHAPES#{shape_key}"


def kept_pk(member_key: str) -> str:
    return f"KEPT#{member_key}"


def stream_progress_key(record_id: str) -> Item:
    """The stream dispatcher's progress on one stream record (adapters/dynamodb_stream_progress)."""
    return key_of(f"STREAM#{record_id}", "PROGRESS")


# The reconciler's sparse index (template.yaml, InterruptsTable's OutstandingByDue; docs/durability.md):
# its key attributes are on a node item only while something is owed on its interrupt (pending, or
# ended and not delivered: `waitgate.run.reconciliation.due_of`), or while its delivery is parked. The
# shards are a fixed few, so a pass is one Query per shard whatever the table's history; the write
# that delivers an interrupt (the delivery mark, or a whole Put of the delivered record) takes it out.
OUTSTANDING_INDEX = "OutstandingByDue"
OUTSTANDING_PK = "outstandingShard"
OUTSTANDING_SK = "outstandingDue"
PARKED_SHARD = "PARKED"


def outstanding_shard(shard: int) -> str:
    return f"DUE#{shard}"


def outstanding_keys(record: InterruptRecord) -> tuple[str, str] | None:
    """The index's (partition, sort) key of the node item, or None: not in the index."""
    if is_parked(record):
        return PARKED_SHARD, f"{sortable(record.delivered_at or record.requested_at)}#{record.interrupt_id}"
    due = due_of(record)
    if due is None:
        return None
    return outstanding_shard(shard_of(record.interrupt_id)), f"{due}#{record.interrupt_id}"


LEDGER_HEAD_SK, LEDGER_ENTRY_PREFIX, LEDGER_SOURCE_PREFIX = "HEAD", "ENTRY#", "SOURCE#"


def ledger_pk(tenant_id: str) -> str:
    """A tenant's decision ledger (adapters/dynamodb_ledger, docs/ledger.md)."""
    return f"LEDGER#{tenant_id}"


def ledger_entry_sk(seq: int) -> str:
    return f"{LEDGER_ENTRY_PREFIX}{seq:012d}"


def ledger_source_sk(source: str) -> str:
    return f"{LEDGER_SOURCE_PREFIX}{source}"
