"""How run records are laid out as DynamoDB items (see docs/architecture.md, "The table")."""

from __future__ import annotations

import json
from typing import Any

from waitgate.clock import parse_rfc3339, rfc3339
from waitgate.payloads.correlation import awaited_event
from waitgate.records import (
    DECIDED_RETENTION_DAYS,
    ConversationRef,
    DecisionReceipt,
    ExecutionLinkRef,
    ExternalEventRef,
    GuardedItem,
    GuardSubject,
    InterruptRecord,
    ReentryKey,
    RunEvent,
    RunRef,
    RunSnapshot,
)
from waitgate.webhooks.matching import correlation_key

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


def _s(value: str) -> dict[str, str]:
    return {"S": value}


def _n(value: int) -> dict[str, str]:
    return {"N": str(value)}


def _json(value: Any) -> dict[str, str]:
    return {"S": json.dumps(value, separators=(",", ":"), ensure_ascii=False)}


def _optional(item: Item, name: str, value: str | None) -> None:
    if value is not None:
        item[name] = _s(value)


def snapshot_item(snapshot: RunSnapshot) -> Item:
    item = key_of(run_pk(snapshot.run), SNAPSHOT_SK)
    item.update(
        runId=_s(snapshot.run.run_id),
        tenantId=_s(snapshot.run.tenant_id),
        status=_s(snapshot.status),
        nextSeq=_n(snapshot.next_seq),
    )
    _optional(item, "currentNodeId", snapshot.current_node_id)
    _optional(item, "pendingInterruptId", snapshot.pending_interrupt_id)
    return item


def snapshot_from_item(item: Item) -> RunSnapshot:
    next_seq = int(item["nextSeq"]["N"])
    return RunSnapshot(
        run=RunRef(item["tenantId"]["S"], item["runId"]["S"]),
        status=item["status"]["S"],
        next_seq=next_seq,
        current_node_id=item.get("currentNodeId", {}).get("S"),
        pending_interrupt_id=item.get("pendingInterruptId", {}).get("S"),
        version_seen=next_seq,
    )


# The sparse index of pending interrupts (template.yaml, InterruptsTable's PendingByDeadline): its key
# attributes are on a node item only while its interrupt is pending. Every write of a node item is a
# whole Put of `interrupt_item`, so the write that ends an interrupt (resolution, expiry, cancellation)
# is the one that takes it out of the index, in its own transaction.
PENDING_INDEX = "PendingByDeadline"
PENDING_PK = "pendingTenant"
PENDING_SK = "pendingOrder"
NO_DEADLINE = "~"  # sorts after every RFC 3339 time: an interrupt without a deadline comes last


def pending_pk(tenant_id: str) -> str:
    return f"TENANT#{tenant_id}"


def _sortable(moment: str) -> str:
    """An RFC 3339 time as the 24 characters that sort as time does (UTC, milliseconds, Z)."""
    try:
        return rfc3339(parse_rfc3339(moment))
    except ValueError:
        return moment


def pending_order(record: InterruptRecord) -> str:
    """Deadline first (none last), then age (oldest first), then the ULID (unique)."""
    deadline = _sortable(record.deadline) if record.deadline else NO_DEADLINE
    return f"{deadline}#{_sortable(record.requested_at)}#{record.interrupt_id}"


def interrupt_item(record: InterruptRecord) -> Item:
    item = key_of(run_pk(record.run), node_sk(record.node_id))
    item.update(
        runId=_s(record.run.run_id),
        tenantId=_s(record.run.tenant_id),
        nodeId=_s(record.node_id),
        interruptId=_s(record.interrupt_id),
        kind=_s(record.kind),
        key=_s(record.key),
        payload=_json(record.payload),
        taskToken=_s(record.task_token),
        requestedAt=_s(record.requested_at),
        status=_s(record.status),
        version=_n(record.version),
        votes=_json(list(record.votes)),
        asks=_json(list(record.asks)),
    )
    _optional(item, "deadline", record.deadline)
    _optional(item, "resolvedAt", record.resolved_at)
    _optional(item, "deliveredAt", record.delivered_at)
    _optional(item, "deliveryOutcome", record.delivery_outcome)
    if record.resume_value is not None or record.status == "resolved":
        item["resumeValue"] = _json(record.resume_value)
    if record.escalation is not None:
        item["escalation"] = _json(record.escalation)
        item["escalated"] = _json(list(record.escalated))
    if record.status == "pending":
        item[PENDING_PK] = _s(pending_pk(record.run.tenant_id))
        item[PENDING_SK] = _s(pending_order(record))
    return item


def pending_index_keys(item: Item) -> dict[str, dict[str, str]]:
    """The index's key attributes a node item should carry (none unless pending): for an item written
    before the index existed, which has none (docs/inbox.md, "A table with pending interrupts")."""
    if (
        not item.get("sk", {}).get("S", "").startswith("NODE#")
        or item.get("status", {}).get("S") != "pending"
    ):
        return {}
    record = interrupt_from_item(item)
    return {PENDING_PK: _s(pending_pk(record.run.tenant_id)), PENDING_SK: _s(pending_order(record))}


def interrupt_from_item(item: Item) -> InterruptRecord:
    """A node item, or its copy in the pending index (which holds no task token: it reads as "")."""
    return InterruptRecord(
        run=RunRef(item["tenantId"]["S"], item["runId"]["S"]),
        node_id=item["nodeId"]["S"],
        interrupt_id=item["interruptId"]["S"],
        kind=item["kind"]["S"],
        key=item["key"]["S"],
        payload=json.loads(item["payload"]["S"]),
        task_token=item.get("taskToken", {}).get("S", ""),
        requested_at=item["requestedAt"]["S"],
        status=item["status"]["S"],
        version=int(item["version"]["N"]),
        deadline=item.get("deadline", {}).get("S"),
        resume_value=json.loads(item["resumeValue"]["S"]) if "resumeValue" in item else None,
        resolved_at=item.get("resolvedAt", {}).get("S"),
        votes=tuple(json.loads(item["votes"]["S"])),
        asks=tuple(json.loads(item["asks"]["S"])),
        delivered_at=item.get("deliveredAt", {}).get("S"),
        delivery_outcome=item.get("deliveryOutcome", {}).get("S"),
        escalation=json.loads(item["escalation"]["S"]) if "escalation" in item else None,
        escalated=tuple(json.loads(item["escalated"]["S"])) if "escalated" in item else (),
    )


def delivered_update(table: str, record: InterruptRecord, delivered_at: str) -> dict[str, Any]:
    """UpdateItem: deliveredAt on the node item, if it still holds this interrupt, ended and not yet
    marked delivered (a `task-gone` mark yields to a real delivery); the version moves on."""
    return {
        "TableName": table,
        "Key": key_of(run_pk(record.run), node_sk(record.node_id)),
        "UpdateExpression": "SET deliveredAt = :at, deliveryOutcome = :delivered, version = version + :one",
        "ConditionExpression": "interruptId = :id AND #status IN (:resolved, :expired)"
        " AND (attribute_not_exists(deliveredAt) OR deliveryOutcome = :gone)",
        "ExpressionAttributeNames": {"#status": "status"},
        "ExpressionAttributeValues": {
            ":at": _s(delivered_at),
            ":delivered": _s("delivered"),
            ":one": _n(1),
            ":id": _s(record.interrupt_id),
            ":resolved": _s("resolved"),
            ":expired": _s("expired"),
            ":gone": _s("task-gone"),
        },
    }


def reentry_item(entry: ReentryKey) -> Item:
    item = key_of(run_pk(entry.run), reentry_sk(entry.key))
    item.update(
        interruptId=_s(entry.interrupt_id),
        nodeId=_s(entry.node_id),
        status=_s(entry.status),
    )
    if entry.status == "resolved":
        item["resumeValue"] = _json(entry.resume_value)
    return item


def reentry_from_item(run: RunRef, key: str, item: Item) -> ReentryKey:
    return ReentryKey(
        run=run,
        key=key,
        interrupt_id=item["interruptId"]["S"],
        node_id=item["nodeId"]["S"],
        status=item["status"]["S"],
        resume_value=json.loads(item["resumeValue"]["S"]) if "resumeValue" in item else None,
    )


def event_item(run: RunRef, event: RunEvent) -> Item:
    item = key_of(run_pk(run), event_sk(event.seq))
    item.update(
        seq=_n(event.seq),
        type=_s(event.type),
        time=_s(event.time),
        payload=_json(event.payload),
        mode=_s(event.mode),
    )
    _optional(item, "nodeId", event.node_id)
    return item


def event_from_item(item: Item) -> RunEvent:
    return RunEvent(
        seq=int(item["seq"]["N"]),
        type=item["type"]["S"],
        time=item["time"]["S"],
        payload=json.loads(item["payload"]["S"]),
        node_id=item.get("nodeId", {}).get("S"),
        mode=item["mode"]["S"],
    )


def guarded_write(table: str, guard: GuardedItem) -> dict[str, Any]:
    """A Put (an Update with `update`; without either, a ConditionCheck) whose condition is the
    guard's expectation."""
    operation: dict[str, Any] = {"TableName": table, **_guard_condition(guard)}
    if guard.update is not None:
        operation["Key"] = guard_key(guard.subject)
        names = operation.setdefault("ExpressionAttributeNames", {})
        values = operation.setdefault("ExpressionAttributeValues", {})
        sets = []
        for index, (name, value) in enumerate(sorted(guard.update.items())):
            names[f"#u{index}"] = name
            values[f":u{index}"] = _s(value)
            sets.append(f"#u{index} = :u{index}")
        operation["UpdateExpression"] = "SET " + ", ".join(sets)
        return {"Update": operation}
    if guard.put is None:
        operation["Key"] = guard_key(guard.subject)
        return {"ConditionCheck": operation}
    item = guard_key(guard.subject)
    item.update({name: _s(value) for name, value in guard.put.items()})
    operation["Item"] = item
    return {"Put": operation}


def _guard_condition(guard: GuardedItem) -> dict[str, Any]:
    if guard.expect is None:
        return {"ConditionExpression": "attribute_not_exists(pk)"}
    terms = ["attribute_exists(pk)"]
    names: dict[str, str] = {}
    values: dict[str, Any] = {}
    for index, (name, value) in enumerate(sorted(guard.expect.items())):
        terms.append(f"#g{index} = :g{index}")
        names[f"#g{index}"] = name
        values[f":g{index}"] = _s(value)
    condition: dict[str, Any] = {"ConditionExpression": " AND ".join(terms)}
    if names:
        condition.update(ExpressionAttributeNames=names, ExpressionAttributeValues=values)
    return condition


# What a principal decided (docs/inbox.md): one item per principal and resolution, outside the runs'
# partitions, written in the resolution's own transaction and deleted by TTL after the retention.
def decided_pk(tenant_id: str, principal: str) -> str:
    return f"DECIDED#{tenant_id}#{principal}"


def receipt_sk(receipt: DecisionReceipt) -> str:
    run = receipt.run
    return f"{_sortable(receipt.resolved_at)}#{run.run_id}#{receipt.interrupt_id}#{receipt.node_id}"


def receipt_item(receipt: DecisionReceipt) -> Item:
    item = key_of(decided_pk(receipt.run.tenant_id, receipt.principal), receipt_sk(receipt))
    item.update(
        principal=_s(receipt.principal),
        runId=_s(receipt.run.run_id),
        tenantId=_s(receipt.run.tenant_id),
        nodeId=_s(receipt.node_id),
        interruptId=_s(receipt.interrupt_id),
        kind=_s(receipt.kind),
        title=_s(receipt.title),
        requestedAt=_s(receipt.requested_at),
        resolvedAt=_s(receipt.resolved_at),
    )
    _optional(item, "action", receipt.action)
    if receipt.vote is not None:
        item["vote"] = _json(receipt.vote)
    try:
        resolved = int(parse_rfc3339(receipt.resolved_at).timestamp())
    except ValueError:
        resolved = 0
    if resolved:
        item["ttl"] = _n(resolved + DECIDED_RETENTION_DAYS * 24 * 3600)
    return item


def receipt_from_item(item: Item) -> DecisionReceipt:
    return DecisionReceipt(
        principal=item["principal"]["S"],
        run=RunRef(item["tenantId"]["S"], item["runId"]["S"]),
        node_id=item["nodeId"]["S"],
        interrupt_id=item["interruptId"]["S"],
        kind=item["kind"]["S"],
        title=item["title"]["S"],
        requested_at=item["requestedAt"]["S"],
        resolved_at=item["resolvedAt"]["S"],
        action=item.get("action", {}).get("S"),
        vote=json.loads(item["vote"]["S"]) if "vote" in item else None,
    )


# The webhook events (docs/webhooks.md), outside the runs' partitions: each kept event under its source,
# the pending waits under their correlation key, the shapes in use, and each kept event's member index.
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


def correlation_write(table: str, record: InterruptRecord) -> dict[str, Any] | None:
    """The correlation index follows the node item in the same transaction: a pending external-event
    interrupt is put under its correlation key, an ended one deleted from it."""
    awaited = awaited_event(record.payload) if record.kind == "external-event" else None
    if awaited is None:
        return None
    event_type, correlation = awaited
    key = key_of(
        waiting_pk(correlation_key(record.run.tenant_id, event_type, correlation)),
        waiting_sk(record.run, record.node_id),
    )
    if record.status != "pending":
        return {"Delete": {"TableName": table, "Key": key}}
    key.update(
        tenantId=_s(record.run.tenant_id),
        runId=_s(record.run.run_id),
        nodeId=_s(record.node_id),
        interruptId=_s(record.interrupt_id),
        requestedAt=_s(record.requested_at),
    )
    return {"Put": {"TableName": table, "Item": key}}
