"""RunIndex on DynamoDB: the execution → run lookup items and a run's node items, one Query each."""

from __future__ import annotations

from typing import Any

from waitgate.adapters import dynamodb_items as items
from waitgate.adapters import dynamodb_keys
from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, is_transient
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.records import ExecutionLink, InterruptRecord, RunRef

Client = Any  # a boto3 DynamoDB client


class DynamoDbRunIndex:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def runs_of_execution(self, execution_name: str) -> tuple[ExecutionLink, ...]:
        found = self._query(
            dynamodb_keys.execution_pk(execution_name), dynamodb_keys.EXECUTION_LINK_SK_PREFIX
        )
        return tuple(
            ExecutionLink(
                execution_name=execution_name,
                run=RunRef(item["tenantId"]["S"], item["runId"]["S"]),
                execution_arn=item.get("executionArn", {}).get("S"),
            )
            for item in found
        )

    def interrupts_of_run(self, run: RunRef) -> tuple[InterruptRecord, ...]:
        found = self._query(dynamodb_keys.run_pk(run), dynamodb_keys.node_sk(""))
        return tuple(items.interrupt_from_item(item) for item in found)

    def _query(self, pk: str, sk_prefix: str) -> list[dynamodb_keys.Item]:
        query: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :prefix)",
            "ExpressionAttributeValues": {":pk": {"S": pk}, ":prefix": {"S": sk_prefix}},
            "ConsistentRead": True,
        }
        found: list[dynamodb_keys.Item] = []
        while True:
            try:
                answer = self._client.query(**query)
            except AWS_CALL_ERRORS as error:
                raise _translate(error) from error
            found.extend(answer.get("Items", []))
            if "LastEvaluatedKey" not in answer:
                return found
            query["ExclusiveStartKey"] = answer["LastEvaluatedKey"]


def _translate(error: Exception) -> Exception:
    if is_transient(error):
        return TemporarilyUnavailableError("The store is busy; retry.")
    return error
