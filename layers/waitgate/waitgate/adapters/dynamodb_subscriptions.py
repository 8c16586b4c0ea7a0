"""The tenants' webhooks-out subscriptions, in the directory table beside the webhook sources:
`pk = TENANT#<tenant>#SUBSCRIPTIONS`, `sk = SUB#<id>` (`url`, `events` (a string set kept as a list),
`secret`, `createdAt`). One Query lists a tenant's (at most 20); the deliverer reads one item."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, is_transient
from waitgate.adapters.dynamodb_keys import key_of
from waitgate.errors import TemporarilyUnavailableError
from waitgate.subscriptions.records import Subscription

Client = Any  # a boto3 DynamoDB client
T = TypeVar("T")


def subscriptions_pk(tenant_id: str) -> str:
    return f"TENANT#{tenant_id}#SUBSCRIPTIONS"


def subscription_sk(subscription_id: str) -> str:
    return f"SUB#{subscription_id}"


def aws_call(call: Callable[[], T]) -> T:
    """The call's answer; a throttle or no answer is TemporarilyUnavailableError (nothing changed)."""
    try:
        return call()
    except AWS_CALL_ERRORS as error:
        if is_transient(error):
            raise TemporarilyUnavailableError("The store is busy; retry the request.") from error
        raise


class DynamoDbSubscriptions:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def add(self, subscription: Subscription) -> None:
        item = {
            **key_of(subscriptions_pk(subscription.tenant_id), subscription_sk(subscription.subscription_id)),
            "url": {"S": subscription.url},
            "events": {"L": [{"S": kind} for kind in subscription.events]},
            "secret": {"S": subscription.secret},
            "createdAt": {"S": subscription.created_at},
        }
        aws_call(lambda: self._client.put_item(TableName=self._table, Item=item))

    def listed(self, tenant_id: str) -> tuple[Subscription, ...]:
        answer = aws_call(
            lambda: self._client.query(
                TableName=self._table,
                KeyConditionExpression="pk = :pk AND begins_with(sk, :sub)",
                ExpressionAttributeValues={":pk": {"S": subscriptions_pk(tenant_id)}, ":sub": {"S": "SUB#"}},
                ConsistentRead=True,
            )
        )
        found = [_subscription(tenant_id, item) for item in answer.get("Items", [])]
        return tuple(sorted(found, key=lambda s: (s.created_at, s.subscription_id)))

    def get(self, tenant_id: str, subscription_id: str) -> Subscription | None:
        answer = aws_call(
            lambda: self._client.get_item(
                TableName=self._table,
                Key=key_of(subscriptions_pk(tenant_id), subscription_sk(subscription_id)),
                ConsistentRead=True,
            )
        )
        item = answer.get("Item")
        return _subscription(tenant_id, item) if item else None

    def remove(self, tenant_id: str, subscription_id: str) -> bool:
        answer = aws_call(
            lambda: self._client.delete_item(
                TableName=self._table,
                Key=key_of(subscriptions_pk(tenant_id), subscription_sk(subscription_id)),
                ReturnValues="ALL_OLD",
            )
        )
        return bool(answer.get("Attributes"))


def _subscription(tenant_id: str, item: dict[str, Any]) -> Subscription:
    return Subscription(
        tenant_id=tenant_id,
        subscription_id=item["sk"]["S"].removeprefix("SUB#"),
        url=item["url"]["S"],
        events=tuple(value["S"] for value in item["events"]["L"]),
        secret=item["secret"]["S"],
        created_at=item["createdAt"]["S"],
    )
