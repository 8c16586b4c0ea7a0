"""How run records are laid out as DynamoDB items: each record's attributes, both ways (its key is
`dynamodb_keys`'; see docs/architecture.md, "The table")."""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.dynamodb_keys import (
    INBOX_SUMMARY,
    OUTSTANDING_PK,
    OUTSTANDING_SK,
    PENDING_PK,
    PENDING_SK,
    SNAPSHOT_SK,
    Item,
    decided_pk,
    event_sk,
    key_of,
    node_sk,
    outstanding_keys,
    pending_order,
    pending_pk,
    receipt_sk,
    reentry_sk,
    run_pk,
)
from waitgate.run.clock import parse_rfc3339
from waitgate.run.inbox_summary import encode, summary_of
from waitgate.run.records import (
    DECIDED_RETENTION_DAYS,
    DecisionReceipt,
    InterruptRecord,
    ReentryKey,
    RunEvent,
    RunRef,
    RunSnapshot,
)


def string_value(value: str) -> dict[str, str]:
    return {"S": value}


def number_value(value: int) -> dict[str, str]:
    return {"N": str(value)}


def json_value(value: Any) -> dict[str, str]:
    return {"S": json.dumps(value, separators=(",", ":"), ensure_ascii=False)}


def optional_string(item: Item, name: str, value: str | None) -> None:
    if value is not None:
        item[name] = string_value(value)


def snapshot_item(snapshot: RunSnapshot) -> Item:
    item = key_of(run_pk(snapshot.run), SNAPSHOT_SK)
    item.update(
        runId=string_value(snapshot.run.run_id),
        tenantId=string_value(snapshot.run.tenant_id),
        status=string_value(snapshot.status),
        nextSeq=number_value(snapshot.next_seq),
    )
    optional_string(item, "currentNodeId", snapshot.current_node_id)
    optional_string(item, "pendingInterruptId", snapshot.pending_interrupt_id)
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


def interrupt_item(record: InterruptRecord) -> Item:
    item = key_of(run_pk(record.run), node_sk(record.node_id))
    item.update(
        runId=string_value(record.run.run_id),
        tenantId=string_value(record.run.tenant_id),
        nodeId=string_value(record.node_id),
        interruptId=string_value(record.interrupt_id),
        kind=string_value(record.kind),
        key=string_value(record.key),
        payload=json_value(record.payload),
        taskToken=string_value(record.task_token),
        requestedAt=string_value(record.requested_at),
        status=string_value(record.status),
        version=number_value(record.version),
        votes=json_value(list(record.votes)),
        asks=json_value(list(record.asks)),
    )
    optional_string(item, "deadline", record.deadline)
    optional_string(item, "resolvedAt", record.resolved_at)
    optional_string(item, "deliveredAt", record.delivered_at)
    optional_string(item, "deliveryOutcome", record.delivery_outcome)
    if record.resume_value is not None or record.status == "resolved":
        item["resumeValue"] = json_value(record.resume_value)
    if record.escalation is not None:
        item["escalation"] = json_value(record.escalation)
        item["escalated"] = json_value(list(record.escalated))
    if record.notify is not None:
        item["notify"] = json_value(record.notify)
    optional_string(item, "noticedAt", record.noticed_at)
    optional_string(item, "checkAt", record.check_at)
    optional_string(item, "executionArn", record.execution_arn)
    if record.status == "pending":
        item.update(pending_attributes(record))
    if (outstanding := outstanding_keys(record)) is not None:
        item[OUTSTANDING_PK], item[OUTSTANDING_SK] = map(string_value, outstanding)
    return item


def pending_attributes(record: InterruptRecord) -> dict[str, dict[str, str]]:
    """What a pending node item carries for the inbox's index: its keys and its bounded summary."""
    return {
        PENDING_PK: string_value(pending_pk(record.run.tenant_id)),
        PENDING_SK: string_value(pending_order(record)),
        INBOX_SUMMARY: string_value(encode(summary_of(record))),
    }


def pending_index_keys(item: Item) -> dict[str, dict[str, str]]:
    """The index's attributes a node item should carry (none unless pending): for an item written
    before the index existed, which has none, or before the summary, which lacks it (docs/inbox.md,
    "A table with pending interrupts")."""
    if (
        not item.get("sk", {}).get("S", "").startswith("NODE#")
        or item.get("status", {}).get("S") != "pending"
    ):
        return {}
    return pending_attributes(interrupt_from_item(item))


def outstanding_index_keys(item: Item) -> dict[str, dict[str, str]]:
    """The reconciler's index keys a node item should carry (none if nothing is owed on it): for an
    item written before that index existed (docs/durability.md, "The reconciler")."""
    if not item.get("sk", {}).get("S", "").startswith("NODE#") or OUTSTANDING_PK in item:
        return {}
    keys = outstanding_keys(interrupt_from_item(item))
    return (
        {} if keys is None else {OUTSTANDING_PK: string_value(keys[0]), OUTSTANDING_SK: string_value(keys[1])}
    )


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
        notify=json.loads(item["notify"]["S"]) if "notify" in item else None,
        noticed_at=item.get("noticedAt", {}).get("S"),
        check_at=item.get("checkAt", {}).get("S"),
        execution_arn=item.get("executionArn", {}).get("S"),
    )


def reentry_item(entry: ReentryKey) -> Item:
    item = key_of(run_pk(entry.run), reentry_sk(entry.key))
    item.update(
        interruptId=string_value(entry.interrupt_id),
        nodeId=string_value(entry.node_id),
        status=string_value(entry.status),
    )
    if entry.status == "resolved":
        item["resumeValue"] = json_value(entry.resume_value)
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
        seq=number_value(event.seq),
        type=string_value(event.type),
        time=string_value(event.time),
        payload=json_value(event.payload),
        mode=string_value(event.mode),
    )
    optional_string(item, "nodeId", event.node_id)
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


def receipt_item(receipt: DecisionReceipt) -> Item:
    item = key_of(decided_pk(receipt.run.tenant_id, receipt.principal), receipt_sk(receipt))
    item.update(
        principal=string_value(receipt.principal),
        runId=string_value(receipt.run.run_id),
        tenantId=string_value(receipt.run.tenant_id),
        nodeId=string_value(receipt.node_id),
        interruptId=string_value(receipt.interrupt_id),
        kind=string_value(receipt.kind),
        title=string_value(receipt.title),
        requestedAt=string_value(receipt.requested_at),
        resolvedAt=string_value(receipt.resolved_at),
    )
    optional_string(item, "action", receipt.action)
    if receipt.vote is not None:
        item["vote"] = json_value(receipt.vote)
    try:
        resolved = int(parse_rfc3339(receipt.resolved_at).timestamp())
    except ValueError:
        resolved = 0
    if resolved:
        item["ttl"] = number_value(resolved + DECIDED_RETENTION_DAYS * 24 * 3600)
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
