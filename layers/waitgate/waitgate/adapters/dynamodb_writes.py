"""The writes of a transaction that are not a whole item: the delivery mark, guarded records, and the
correlation index that follows an external-event wait (item layouts in `dynamodb_items`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from waitgate.adapters.dynamodb_items import number_value, string_value
from waitgate.adapters.dynamodb_keys import (
    OUTSTANDING_PK,
    OUTSTANDING_SK,
    guard_key,
    key_of,
    node_sk,
    outstanding_keys,
    run_pk,
    waiting_pk,
    waiting_sk,
)
from waitgate.payloads.correlation import awaited_event
from waitgate.run.records import GuardedItem, InterruptRecord
from waitgate.webhooks.matching import correlation_key


def delivered_update(table: str, record: InterruptRecord, delivered_at: str) -> dict[str, Any]:
    """UpdateItem: deliveredAt on the node item, if it still holds this interrupt, ended and not yet
    marked delivered (a `task-gone` mark yields to a real delivery); the version moves on."""
    return {
        "TableName": table,
        "Key": key_of(run_pk(record.run), node_sk(record.node_id)),
        # delivered: nothing is owed on it any more, so it leaves the reconciler's index (dynamodb_keys)
        "UpdateExpression": "SET deliveredAt = :at, deliveryOutcome = :delivered, version = version + :one"
        f" REMOVE {OUTSTANDING_PK}, {OUTSTANDING_SK}",
        "ConditionExpression": "interruptId = :id AND #status IN (:resolved, :expired)"
        " AND (attribute_not_exists(deliveredAt) OR deliveryOutcome = :gone)",
        "ExpressionAttributeNames": {"#status": "status"},
        "ExpressionAttributeValues": {
            ":at": string_value(delivered_at),
            ":delivered": string_value("delivered"),
            ":one": number_value(1),
            ":id": string_value(record.interrupt_id),
            ":resolved": string_value("resolved"),
            ":expired": string_value("expired"),
            ":gone": string_value("task-gone"),
        },
    }


def noticed_update(table: str, record: InterruptRecord, noticed_at: str) -> dict[str, Any]:
    """UpdateItem: noticedAt on the node item, if it still holds this interrupt, pending and not yet
    noticed; the version moves on, so a write that read before it re-reads (and keeps the mark)."""
    return {
        "TableName": table,
        "Key": key_of(run_pk(record.run), node_sk(record.node_id)),
        "UpdateExpression": "SET noticedAt = :at, version = version + :one",
        "ConditionExpression": "interruptId = :id AND #status = :pending AND attribute_not_exists(noticedAt)",
        "ExpressionAttributeNames": {"#status": "status"},
        "ExpressionAttributeValues": {
            ":at": string_value(noticed_at),
            ":one": number_value(1),
            ":id": string_value(record.interrupt_id),
            ":pending": string_value("pending"),
        },
    }


def check_update(table: str, record: InterruptRecord, check_at: str) -> dict[str, Any]:
    """UpdateItem: the reconciler's next look at a pending interrupt (checkAt and the index's sort
    key), if the node still holds it pending. The version stays: a whole Put that read before keeps
    the older checkAt, which only brings the next look forward."""
    pending = replace(record, status="pending", check_at=check_at)
    keys = outstanding_keys(pending)
    assert keys is not None
    return {
        "TableName": table,
        "Key": key_of(run_pk(record.run), node_sk(record.node_id)),
        "UpdateExpression": f"SET checkAt = :at, {OUTSTANDING_PK} = :shard, {OUTSTANDING_SK} = :due",
        "ConditionExpression": "interruptId = :id AND #status = :pending",
        "ExpressionAttributeNames": {"#status": "status"},
        "ExpressionAttributeValues": {
            ":at": string_value(check_at),
            ":shard": string_value(keys[0]),
            ":due": string_value(keys[1]),
            ":id": string_value(record.interrupt_id),
            ":pending": string_value("pending"),
        },
    }


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
            values[f":u{index}"] = string_value(value)
            sets.append(f"#u{index} = :u{index}")
        operation["UpdateExpression"] = "SET " + ", ".join(sets)
        return {"Update": operation}
    if guard.put is None:
        operation["Key"] = guard_key(guard.subject)
        return {"ConditionCheck": operation}
    item = guard_key(guard.subject)
    item.update({name: string_value(value) for name, value in guard.put.items()})
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
        values[f":g{index}"] = string_value(value)
    condition: dict[str, Any] = {"ConditionExpression": " AND ".join(terms)}
    if names:
        condition.update(ExpressionAttributeNames=names, ExpressionAttributeValues=values)
    return condition


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
        tenantId=string_value(record.run.tenant_id),
        runId=string_value(record.run.run_id),
        nodeId=string_value(record.node_id),
        interruptId=string_value(record.interrupt_id),
        requestedAt=string_value(record.requested_at),
    )
    return {"Put": {"TableName": table, "Item": key}}
