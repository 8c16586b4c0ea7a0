"""The decision ledger in the interrupts table, one partition per tenant (docs/ledger.md):

| pk | sk | item |
|---|---|---|
| `LEDGER#<tenantId>` | `HEAD` | `seq`, `hash`, `head` (the signed head, JSON text) |
| `LEDGER#<tenantId>` | `ENTRY#<seq, 12 digits>` | `entry` (its RFC 8785 JSON text), `seq`, `recordedAt` |
| `LEDGER#<tenantId>` | `SOURCE#<runId>#<event seq>` | `seq`: the source event was appended (`ttl` 2 days) |

One append is one TransactWriteItems of the three: the head conditioned on the `seq` that was read
(serial per tenant: of two appenders one wins, the other re-reads), the entry and the source marker
on not existing. A redelivered stream record finds its source marker: the append is cancelled and
reported as already made (False), and nothing is written. A stream keeps a record 24 hours, so the
marker outlives every redelivery.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.adapters.dynamodb_keys import (
    LEDGER_ENTRY_PREFIX,
    LEDGER_HEAD_SK,
    ledger_entry_sk,
    ledger_pk,
    ledger_source_sk,
)
from waitgate.adapters.dynamodb_transactions import transact_once, watch_attempts
from waitgate.errors import ConcurrentUpdateError, StoreRefusedError, TemporarilyUnavailableError
from waitgate.ledger.chain import Head, canonical
from waitgate.run.records import JSONObject

SOURCE_KEPT_SECONDS = 2 * 24 * 60 * 60


class DynamoDbLedger:
    def __init__(self, client: Any, table_name: str) -> None:
        watch_attempts(client)
        self._client, self._table = client, table_name

    def head(self, tenant_id: str) -> tuple[Head, JSONObject | None]:
        """The tenant's head (seq 0 before the first entry) and its signed form."""
        key = {"pk": {"S": ledger_pk(tenant_id)}, "sk": {"S": LEDGER_HEAD_SK}}
        try:
            item = self._client.get_item(TableName=self._table, Key=key, ConsistentRead=True).get("Item")
        except AWS_CALL_ERRORS as error:
            raise _translated(error) from error
        if item is None:
            return Head(tenant_id), None
        return Head(tenant_id, int(item["seq"]["N"]), item["hash"]["S"]), json.loads(item["head"]["S"])

    def append(self, entry: JSONObject, signed_head: JSONObject, expected_seq: int) -> bool:
        """True: appended; False: its source was appended already. ConcurrentUpdateError: the head moved."""
        tenant, seq = str(entry["tenantId"]), int(entry["seq"])
        pk = {"S": ledger_pk(tenant)}
        items = [
            _put(self._table, _head_item(pk, signed_head), *_head_condition(expected_seq)),
            _put(self._table, _entry_item(pk, entry), "attribute_not_exists(pk)"),
            _put(self._table, _source_item(pk, str(entry["source"]), seq), "attribute_not_exists(pk)"),
        ]
        try:
            transact_once(self._client, items)
        except AWS_CALL_ERRORS as error:
            reasons = _reasons(error)
            if len(reasons) == 3 and reasons[2] == "ConditionalCheckFailed":
                return False
            if error_code(error) == "TransactionCanceledException" and set(reasons) & _CONFLICTS:
                raise ConcurrentUpdateError("The ledger's head moved since it was read.") from error
            raise _translated(error) from error
        return True

    def entries(self, tenant_id: str, after_seq: int = 0, up_to: int | None = None) -> Iterator[JSONObject]:
        """The tenant's entries in chain order, from after `after_seq` up to `up_to` (all when None)."""
        low = ledger_entry_sk(after_seq + 1)
        high = ledger_entry_sk(up_to) if up_to is not None else f"{LEDGER_ENTRY_PREFIX}~"
        arguments: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :low AND :high",
            "ExpressionAttributeValues": {
                ":pk": {"S": ledger_pk(tenant_id)},
                ":low": {"S": low},
                ":high": {"S": high},
            },
            "ConsistentRead": True,
        }
        while True:
            try:
                page = self._client.query(**arguments)
            except AWS_CALL_ERRORS as error:
                raise _translated(error) from error
            for item in page.get("Items", []):
                yield json.loads(item["entry"]["S"])
            if "LastEvaluatedKey" not in page:
                return
            arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]


_CONFLICTS = frozenset({"ConditionalCheckFailed", "TransactionConflict"})


def _head_condition(expected_seq: int) -> tuple[str, dict[str, Any] | None]:
    if expected_seq == 0:
        return "attribute_not_exists(pk)", None
    return "seq = :seq", {":seq": {"N": str(expected_seq)}}


def _put(
    table: str, item: dict[str, Any], condition: str, values: dict[str, Any] | None = None
) -> dict[str, Any]:
    put: dict[str, Any] = {"TableName": table, "Item": item, "ConditionExpression": condition}
    if values:
        put["ExpressionAttributeValues"] = values
    return {"Put": put}


def _head_item(pk: dict[str, str], head: JSONObject) -> dict[str, Any]:
    return {
        "pk": pk,
        "sk": {"S": LEDGER_HEAD_SK},
        "seq": {"N": str(head["seq"])},
        "hash": {"S": str(head["hash"])},
        "head": {"S": canonical(head).decode("utf-8")},
    }


def _entry_item(pk: dict[str, str], entry: JSONObject) -> dict[str, Any]:
    return {
        "pk": pk,
        "sk": {"S": ledger_entry_sk(int(entry["seq"]))},
        "seq": {"N": str(entry["seq"])},
        "recordedAt": {"S": str(entry.get("recordedAt") or "")},
        "entry": {"S": canonical(entry).decode("utf-8")},
    }


def _source_item(pk: dict[str, str], source: str, seq: int) -> dict[str, Any]:
    return {
        "pk": pk,
        "sk": {"S": ledger_source_sk(source)},
        "seq": {"N": str(seq)},
        "ttl": {"N": str(int(time.time()) + SOURCE_KEPT_SECONDS)},
    }


def _reasons(error: Exception) -> list[str]:
    response = getattr(error, "response", None) or {}
    return [str(reason.get("Code") or "None") for reason in response.get("CancellationReasons") or []]


def _translated(error: Exception) -> Exception:
    if is_transient(error) or error_code(error) == "TransactionConflictException":
        return TemporarilyUnavailableError("The ledger's table is busy.")
    if error_code(error) == "ValidationException":
        return StoreRefusedError(f"The ledger's table refused the write ({error_code(error)}).")
    return error
