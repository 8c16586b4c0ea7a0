"""ExternalEvents on DynamoDB (the interrupts table; key layout in `dynamodb_items`): kept events,
their member index, the shapes in use and the correlation index the store keeps with each node item.
Every lookup is a Query on one partition key or a GetItem; nothing here scans."""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters import dynamodb_keys
from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.adapters.dynamodb_transactions import transact_once, watch_attempts
from waitgate.errors import StoreRefusedError, TemporarilyUnavailableError
from waitgate.run.records import ExternalEventRef, JSONObject, RunRef
from waitgate.run.webhook_records import KeptEvent, WaitingInterrupt
from waitgate.webhooks.matching import indexed_members, member_key, shape_key

Client = Any  # a boto3 DynamoDB client
EVENT_SK_PREFIX = "HOOKEVT#"


class DynamoDbExternalEvents:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name
        watch_attempts(client)

    def register_shape(self, tenant_id: str, event_type: str, names: tuple[str, ...]) -> None:
        item = dynamodb_keys.key_of(
            dynamodb_keys.shape_pk(shape_key(tenant_id, event_type)), json.dumps(list(names))
        )
        item["names"] = {"S": json.dumps(list(names))}
        self._call("put_item", TableName=self._table, Item=item)

    def shapes(self, tenant_id: str, event_type: str) -> tuple[tuple[str, ...], ...]:
        found = self._query(dynamodb_keys.shape_pk(shape_key(tenant_id, event_type)))
        return tuple(tuple(json.loads(item["names"]["S"])) for item in found)

    def waiting(self, correlation_key: str) -> tuple[WaitingInterrupt, ...]:
        found = self._query(dynamodb_keys.waiting_pk(correlation_key))
        return tuple(
            WaitingInterrupt(
                run=RunRef(item["tenantId"]["S"], item["runId"]["S"]),
                node_id=item["nodeId"]["S"],
                interrupt_id=item["interruptId"]["S"],
                requested_at=item["requestedAt"]["S"],
            )
            for item in found
        )

    def keep(self, event: KeptEvent) -> KeptEvent | None:
        record: dict[str, Any] = {
            "Put": {
                "TableName": self._table,
                "Item": event_item(event),
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
        index = [{"Put": {"TableName": self._table, "Item": item}} for item in member_items(event)]
        try:
            transact_once(self._client, [record, *index])
        except AWS_CALL_ERRORS as error:
            if not _record_existed(error):
                raise _translate(error) from error
            return self._event(event.ref)
        return None

    def kept_with(self, member_key: str) -> tuple[KeptEvent, ...]:
        refs = [
            ExternalEventRef(item["source"]["S"], item["eventId"]["S"])
            for item in self._query(dynamodb_keys.kept_pk(member_key))
        ]
        events = (self._event(ref) for ref in refs)
        return tuple(event for event in events if event is not None)

    def record_refusal(self, ref: ExternalEventRef, refusal: JSONObject) -> None:
        self._call(
            "update_item",
            TableName=self._table,
            Key=dynamodb_keys.guard_key(ref),
            UpdateExpression="SET refusal = :refusal",
            ConditionExpression="attribute_exists(pk)",
            ExpressionAttributeValues={":refusal": {"S": json.dumps(refusal, separators=(",", ":"))}},
            conditional_ok=True,
        )

    def listed(self, source: str, limit: int) -> tuple[KeptEvent, ...]:
        found = self._query(dynamodb_keys.hook_pk(source), EVENT_SK_PREFIX, consistent=False)
        events = sorted((event_from_item(item) for item in found), key=lambda e: e.received_at, reverse=True)
        return tuple(events[:limit])

    def _event(self, ref: ExternalEventRef) -> KeptEvent | None:
        answer = self._call(
            "get_item", TableName=self._table, Key=dynamodb_keys.guard_key(ref), ConsistentRead=True
        )
        item = answer.get("Item") if answer else None
        return event_from_item(item) if item else None

    def _query(self, pk: str, sk_prefix: str = "", consistent: bool = True) -> list[dict[str, Any]]:
        arguments: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": {"S": pk}},
            "ConsistentRead": consistent,
        }
        if sk_prefix:
            arguments["KeyConditionExpression"] += " AND begins_with(sk, :prefix)"
            arguments["ExpressionAttributeValues"][":prefix"] = {"S": sk_prefix}
        found: list[dict[str, Any]] = []
        while True:
            answer = self._call("query", **arguments)
            found += answer.get("Items", [])
            if "LastEvaluatedKey" not in answer:
                return found
            arguments["ExclusiveStartKey"] = answer["LastEvaluatedKey"]

    def _call(self, operation: str, conditional_ok: bool = False, **arguments: Any) -> Any:
        try:
            return getattr(self._client, operation)(**arguments)
        except AWS_CALL_ERRORS as error:
            if conditional_ok and error_code(error) == "ConditionalCheckFailedException":
                return None
            raise _translate(error) from error


def event_item(event: KeptEvent) -> dynamodb_keys.Item:
    item = dynamodb_keys.key_of(
        dynamodb_keys.hook_pk(event.ref.source), dynamodb_keys.hook_event_sk(event.ref.event_id)
    )
    item.update(
        source={"S": event.ref.source},
        eventId={"S": event.ref.event_id},
        tenantId={"S": event.tenant_id},
        eventType={"S": event.event_type},
        deliveryId={"S": event.delivery_id},
        receivedAt={"S": event.received_at},
        status={"S": event.status},
        matchMany={"S": "true" if event.match_many else "false"},
        data={"S": _json(event.data)},
        resumeValue={"S": _json(event.resume_value)},
        ttl={"N": str(event.expires_at_epoch)},
    )
    return item


def member_items(event: KeptEvent) -> list[dynamodb_keys.Item]:
    """One index item per member a later wait may look the event up by, gone with the event (TTL)."""
    found = []
    for name, value in indexed_members(event.data):
        key = member_key(event.tenant_id, event.event_type, name, value)
        item = dynamodb_keys.key_of(
            dynamodb_keys.kept_pk(key), f"{event.received_at}#{event.ref.source}#{event.ref.event_id}"
        )
        item.update(
            source={"S": event.ref.source},
            eventId={"S": event.ref.event_id},
            ttl={"N": str(event.expires_at_epoch)},
        )
        found.append(item)
    return found


def event_from_item(item: dynamodb_keys.Item) -> KeptEvent:
    matched = {
        name: item[attribute]["S"]
        for name, attribute in (
            ("runId", "matchedRunId"),
            ("nodeId", "matchedNodeId"),
            ("interruptId", "matchedInterruptId"),
            ("at", "matchedAt"),
        )
        if attribute in item
    }
    return KeptEvent(
        ref=ExternalEventRef(item["source"]["S"], item["eventId"]["S"]),
        tenant_id=item["tenantId"]["S"],
        event_type=item["eventType"]["S"],
        delivery_id=item["deliveryId"]["S"],
        received_at=item["receivedAt"]["S"],
        expires_at_epoch=int(item["ttl"]["N"]),
        data=json.loads(item["data"]["S"]),
        resume_value=json.loads(item["resumeValue"]["S"]),
        status=item["status"]["S"],
        match_many=item.get("matchMany", {}).get("S") == "true",
        matched=matched or None,
        refusal=json.loads(item["refusal"]["S"]) if "refusal" in item else None,
    )


def _json(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _record_existed(error: Exception) -> bool:
    """The keep transaction was cancelled by its first item's condition: the event was kept before."""
    response = getattr(error, "response", None) or {}
    reasons = response.get("CancellationReasons") or []
    return bool(reasons) and reasons[0].get("Code") == "ConditionalCheckFailed"


def _translate(error: Exception) -> Exception:
    if error_code(error) in {"TransactionCanceledException", "TransactionConflictException"} or is_transient(
        error
    ):
        return TemporarilyUnavailableError("The store is busy; retry the request.")
    if error_code(error) == "ValidationException":
        return StoreRefusedError("The store refused the write (ValidationException).")
    return error
