"""Each subscription's delivery log (docs/webhooks-out.md), in the interrupts table:
`pk = SUBLOG#<tenant>#<subscription id>`, `sk = <event time>#<webhook-id>` (newest event last, so a
Query backwards lists newest first), one item per webhook-id, replaced at each attempt, `ttl` 30 days
after its last change. The run's events are read here too: `pk = RUN#…`, `sk = EVT#<seq>`."""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code
from waitgate.adapters.dynamodb_items import event_from_item
from waitgate.adapters.dynamodb_keys import event_sk, key_of, run_pk
from waitgate.adapters.dynamodb_subscriptions import aws_call
from waitgate.run.clock import parse_rfc3339
from waitgate.run.records import RunEvent, RunRef
from waitgate.subscriptions.records import DeliveryEntry, DeliveryStatus, QueuedDelivery

Client = Any  # a boto3 DynamoDB client
KEPT_SECONDS = 30 * 24 * 3600
OPTIONAL_STRINGS = (
    ("lastError", "last_error"),
    ("deliveredAt", "delivered_at"),
    ("nextAttemptAt", "next_attempt_at"),
)


def log_pk(tenant_id: str, subscription_id: str) -> str:
    return f"SUBLOG#{tenant_id}#{subscription_id}"


def log_sk(delivery: QueuedDelivery) -> str:
    return f"{delivery.event_time}#{delivery.webhook_id}"


class DynamoDbDeliveryLog:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def entry(self, delivery: QueuedDelivery) -> DeliveryEntry | None:
        key = key_of(log_pk(delivery.tenant_id, delivery.subscription_id), log_sk(delivery))
        answer = aws_call(lambda: self._client.get_item(TableName=self._table, Key=key, ConsistentRead=True))
        item = answer.get("Item")
        return _entry(delivery.tenant_id, item) if item else None

    def record(self, entry: DeliveryEntry) -> None:
        delivery = entry.delivery
        item: dict[str, Any] = {
            **key_of(log_pk(delivery.tenant_id, delivery.subscription_id), log_sk(delivery)),
            "delivery": {"S": _document(delivery)},
            "status": {"S": entry.status},
            "attempts": {"N": str(entry.attempts)},
            "updatedAt": {"S": entry.updated_at},
            "ttl": {"N": str(int(parse_rfc3339(entry.updated_at).timestamp()) + KEPT_SECONDS)},
        }
        if entry.last_status_code is not None:
            item["lastStatusCode"] = {"N": str(entry.last_status_code)}
        for attribute, field_name in OPTIONAL_STRINGS:
            if (value := getattr(entry, field_name)) is not None:
                item[attribute] = {"S": value}
        aws_call(lambda: self._client.put_item(TableName=self._table, Item=item))

    def entries(
        self, tenant_id: str, subscription_id: str, status: DeliveryStatus | None, limit: int
    ) -> tuple[DeliveryEntry, ...]:
        found: list[DeliveryEntry] = []
        request: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": {"S": log_pk(tenant_id, subscription_id)}},
            "ScanIndexForward": False,
        }
        if status is not None:
            request["FilterExpression"] = "#status = :status"
            request["ExpressionAttributeNames"] = {"#status": "status"}
            request["ExpressionAttributeValues"][":status"] = {"S": status}
        while len(found) < limit:
            answer = aws_call(lambda: self._client.query(**request))
            found.extend(_entry(tenant_id, item) for item in answer.get("Items", []))
            if "LastEvaluatedKey" not in answer:
                break
            request["ExclusiveStartKey"] = answer["LastEvaluatedKey"]
        return tuple(found[:limit])

    def requeued(self, entry: DeliveryEntry, updated_at: str) -> None:
        delivery = entry.delivery
        key = key_of(log_pk(delivery.tenant_id, delivery.subscription_id), log_sk(delivery))
        try:
            aws_call(
                lambda: self._client.update_item(
                    TableName=self._table,
                    Key=key,
                    UpdateExpression=(
                        "SET #status = :pending, attempts = :zero, updatedAt = :now REMOVE nextAttemptAt"
                    ),
                    ConditionExpression="#status = :parked",
                    ExpressionAttributeNames={"#status": "status"},
                    ExpressionAttributeValues={
                        ":pending": {"S": "pending"},
                        ":parked": {"S": "parked"},
                        ":zero": {"N": "0"},
                        ":now": {"S": updated_at},
                    },
                )
            )
        except AWS_CALL_ERRORS as error:
            if error_code(error) != "ConditionalCheckFailedException":
                raise


class DynamoDbRunEvents:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def event(self, run: RunRef, seq: int) -> RunEvent | None:
        key = key_of(run_pk(run), event_sk(seq))
        answer = aws_call(lambda: self._client.get_item(TableName=self._table, Key=key))
        item = answer.get("Item")
        return event_from_item(item) if item else None


def _document(delivery: QueuedDelivery) -> str:
    return json.dumps(delivery.to_document(), separators=(",", ":"))


def _entry(tenant_id: str, item: dict[str, Any]) -> DeliveryEntry:
    delivery = QueuedDelivery.from_document(json.loads(item["delivery"]["S"]))
    return DeliveryEntry(
        delivery=delivery,
        status=item["status"]["S"],
        attempts=int(item["attempts"]["N"]),
        updated_at=item["updatedAt"]["S"],
        last_status_code=int(item["lastStatusCode"]["N"]) if "lastStatusCode" in item else None,
        last_error=item.get("lastError", {}).get("S"),
        delivered_at=item.get("deliveredAt", {}).get("S"),
        next_attempt_at=item.get("nextAttemptAt", {}).get("S"),
    )
