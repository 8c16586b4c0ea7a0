"""Outstanding on DynamoDB: the reconciler's sparse index `OutstandingByDue` (docs/durability.md).

Its key attributes are on a node item only while something is owed on it (dynamodb_keys,
`outstanding_keys`), so a Query per shard with `outstandingDue <= <due>#~` finds exactly what is due,
and its cost follows what is outstanding, never the table's history. Parked deliveries are the one
partition `PARKED`. The index projects the keys and ids only: the reconciler reads each item again,
consistently, before it acts.
"""

from __future__ import annotations

from typing import Any

from waitgate.adapters import dynamodb_keys
from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, is_transient
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.reconciliation import OutstandingRef
from waitgate.run.records import RunRef

Client = Any  # a boto3 DynamoDB client
AFTER_EVERY_ID = "#~"  # `<due>#~` sorts after `<due>#<any interrupt id>`


class DynamoDbOutstanding:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def due(self, shard: int, before: str, limit: int) -> tuple[OutstandingRef, ...]:
        return self._query(dynamodb_keys.outstanding_shard(shard), before + AFTER_EVERY_ID, limit)

    def parked(self, limit: int) -> tuple[OutstandingRef, ...]:
        return self._query(dynamodb_keys.PARKED_SHARD, "~", limit)

    def _query(self, shard: str, until: str, limit: int) -> tuple[OutstandingRef, ...]:
        query: dict[str, Any] = {
            "TableName": self._table,
            "IndexName": dynamodb_keys.OUTSTANDING_INDEX,
            "KeyConditionExpression": "#shard = :shard AND #due <= :until",
            "ExpressionAttributeNames": {
                "#shard": dynamodb_keys.OUTSTANDING_PK,
                "#due": dynamodb_keys.OUTSTANDING_SK,
            },
            "ExpressionAttributeValues": {":shard": {"S": shard}, ":until": {"S": until}},
            "Limit": limit,
        }
        try:
            answer = self._client.query(**query)
        except AWS_CALL_ERRORS as error:
            if is_transient(error):
                raise TemporarilyUnavailableError("The store is busy; retry the pass.") from error
            raise
        return tuple(_ref(item) for item in answer.get("Items", []))


def _ref(item: dict[str, Any]) -> OutstandingRef:
    return OutstandingRef(
        run=RunRef(item["tenantId"]["S"], item["runId"]["S"]),
        node_id=item["nodeId"]["S"],
        interrupt_id=item["interruptId"]["S"],
        due=item[dynamodb_keys.OUTSTANDING_SK]["S"].rsplit("#", 1)[0],
    )
