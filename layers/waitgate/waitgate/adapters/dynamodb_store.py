"""InterruptStore on DynamoDB: one BatchGetItem to read, one TransactWriteItems to commit."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from waitgate.adapters import dynamodb_items as items
from waitgate.adapters.aws_errors import THROTTLING_CODES, error_code
from waitgate.errors import ConcurrentUpdateError, TemporarilyUnavailableError
from waitgate.records import RunChange, RunRef, RunView

Client = Any  # a boto3 DynamoDB client


class DynamoDbStore:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def load(self, run: RunRef, node_id: str) -> RunView:
        pk = items.run_pk(run)
        wanted = [items.key_of(pk, items.SNAPSHOT_SK), items.key_of(pk, items.node_sk(node_id))]
        found = self._batch_get(wanted)
        snapshot = found.get(items.SNAPSHOT_SK)
        interrupt = found.get(items.node_sk(node_id))
        return RunView(
            snapshot=items.snapshot_from_item(snapshot) if snapshot else None,
            interrupt=items.interrupt_from_item(interrupt) if interrupt else None,
        )

    def commit(self, change: RunChange) -> None:
        try:
            self._client.transact_write_items(TransactItems=_transaction(self._table, change))
        except ClientError as error:
            raise _translate(error) from error

    def _batch_get(self, keys: list[items.Item]) -> dict[str, items.Item]:
        found: dict[str, items.Item] = {}
        request: dict[str, Any] = {self._table: {"Keys": keys, "ConsistentRead": True}}
        while request:
            try:
                answer = self._client.batch_get_item(RequestItems=request)
            except ClientError as error:
                raise _translate(error) from error
            for item in answer.get("Responses", {}).get(self._table, []):
                found[item["sk"]["S"]] = item
            request = answer.get("UnprocessedKeys") or {}
        return found


def _transaction(table: str, change: RunChange) -> list[dict[str, Any]]:
    writes: list[dict[str, Any]] = [_snapshot_put(table, change)]
    if change.interrupt is not None:
        writes.append(_interrupt_put(table, change))
    for event in change.events:
        writes.append(
            {
                "Put": {
                    "TableName": table,
                    "Item": items.event_item(change.snapshot.run, event),
                    "ConditionExpression": "attribute_not_exists(pk)",
                }
            }
        )
    return writes


def _snapshot_put(table: str, change: RunChange) -> dict[str, Any]:
    put: dict[str, Any] = {"TableName": table, "Item": items.snapshot_item(change.snapshot)}
    seen = change.snapshot.version_seen
    if seen is None:
        put["ConditionExpression"] = "attribute_not_exists(pk)"
    else:
        put["ConditionExpression"] = "nextSeq = :seen"
        put["ExpressionAttributeValues"] = {":seen": {"N": str(seen)}}
    return {"Put": put}


def _interrupt_put(table: str, change: RunChange) -> dict[str, Any]:
    assert change.interrupt is not None
    put: dict[str, Any] = {"TableName": table, "Item": items.interrupt_item(change.interrupt)}
    if change.expected_interrupt_version is None:
        put["ConditionExpression"] = "attribute_not_exists(pk)"
    else:
        put["ConditionExpression"] = "version = :version"
        put["ExpressionAttributeValues"] = {":version": {"N": str(change.expected_interrupt_version)}}
    return {"Put": put}


def _translate(error: ClientError) -> BaseException:
    """One place where DynamoDB's error codes become domain errors."""
    code = error_code(error)
    if code in {"TransactionCanceledException", "ConditionalCheckFailedException"}:
        return ConcurrentUpdateError("The run changed since it was read.")
    if code == "TransactionConflictException" or code in THROTTLING_CODES:
        return TemporarilyUnavailableError("The store is busy; retry the request.")
    translated: BaseException = error
    return translated
