"""Contacts on DynamoDB, in the directory table: each principal's e-mail and Slack id, per tenant.

Items: `pk = TENANT#<tenant>#CONTACTS`, `sk = PRINCIPAL#<principal>` (one Query lists a tenant's
contacts), and for each Slack id `pk = TENANT#<tenant>#SLACKUSER#<member id>`, `sk = PRINCIPAL`, which
maps a click back to its principal. Both are written in one transaction, and a Slack id belongs to one
principal of a tenant at a time.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.adapters.dynamodb_transactions import transact_once, watch_attempts
from waitgate.channels.contacts import ContactPoints
from waitgate.errors import TemporarilyUnavailableError, ValidationFailedError

Client = Any  # a boto3 DynamoDB client
PRINCIPAL_PREFIX = "PRINCIPAL#"
SLACK_USER_SK = "PRINCIPAL"


def contacts_pk(tenant_id: str) -> str:
    return f"TENANT#{tenant_id}#CONTACTS"


def slack_user_pk(tenant_id: str, slack_user: str) -> str:
    return f"TENANT#{tenant_id}#SLACKUSER#{slack_user}"


class DynamoDbContacts:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name
        watch_attempts(client)

    def contact_points(self, tenant_id: str, principal: str) -> ContactPoints:
        key = _key(contacts_pk(tenant_id), PRINCIPAL_PREFIX + principal)
        item = self._call(self._client.get_item, TableName=self._table, Key=key, ConsistentRead=True)
        return _points(item.get("Item") or {})

    def principal_of_slack_user(self, tenant_id: str, slack_user: str) -> str | None:
        key = _key(slack_user_pk(tenant_id, slack_user), SLACK_USER_SK)
        item = self._call(self._client.get_item, TableName=self._table, Key=key, ConsistentRead=True)
        found = (item.get("Item") or {}).get("principal", {}).get("S")
        return str(found) if found else None

    def contacts(self, tenant_id: str) -> list[tuple[str, ContactPoints]]:
        """Every principal of the tenant with a contact point, in principal order."""
        arguments: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :principal)",
            "ExpressionAttributeValues": {
                ":pk": {"S": contacts_pk(tenant_id)},
                ":principal": {"S": PRINCIPAL_PREFIX},
            },
        }
        found: list[tuple[str, ContactPoints]] = []
        while True:
            page = self._call(self._client.query, **arguments)
            found.extend((item["principal"]["S"], _points(item)) for item in page["Items"])
            if "LastEvaluatedKey" not in page:
                return found
            arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def set_contact(self, tenant_id: str, principal: str, points: ContactPoints) -> None:
        """Replace the principal's contact points (None clears one); 400 if the Slack id is another
        principal's in this tenant."""
        earlier = self.contact_points(tenant_id, principal)
        writes = [self._contact_write(tenant_id, principal, points)]
        if earlier.slack_user and earlier.slack_user != points.slack_user:
            key = _key(slack_user_pk(tenant_id, earlier.slack_user), SLACK_USER_SK)
            writes.append({"Delete": {"TableName": self._table, "Key": key}})
        if points.slack_user:
            writes.append(self._slack_user_put(tenant_id, principal, points.slack_user))
        try:
            transact_once(self._client, writes)
        except AWS_CALL_ERRORS as error:
            if _condition_failed(error) and points.slack_user:
                raise ValidationFailedError(
                    f"The Slack id {points.slack_user} is another principal's contact in tenant {tenant_id}.",
                    path="slackUser",
                ) from error
            raise _translate(error) from error

    def _contact_write(self, tenant_id: str, principal: str, points: ContactPoints) -> dict[str, Any]:
        key = _key(contacts_pk(tenant_id), PRINCIPAL_PREFIX + principal)
        if not points.channels:
            return {"Delete": {"TableName": self._table, "Key": key}}
        item = {**key, "tenantId": {"S": tenant_id}, "principal": {"S": principal}, "updatedAt": _now()}
        if points.email:
            item["email"] = {"S": points.email}
        if points.slack_user:
            item["slackUser"] = {"S": points.slack_user}
        return {"Put": {"TableName": self._table, "Item": item}}

    def _slack_user_put(self, tenant_id: str, principal: str, slack_user: str) -> dict[str, Any]:
        item = {
            **_key(slack_user_pk(tenant_id, slack_user), SLACK_USER_SK),
            "tenantId": {"S": tenant_id},
            "principal": {"S": principal},
            "slackUser": {"S": slack_user},
        }
        return {
            "Put": {
                "TableName": self._table,
                "Item": item,
                "ConditionExpression": "attribute_not_exists(pk) OR principal = :principal",
                "ExpressionAttributeValues": {":principal": {"S": principal}},
            }
        }

    @staticmethod
    def _call(operation: Any, **arguments: Any) -> Any:
        try:
            return operation(**arguments)
        except AWS_CALL_ERRORS as error:
            raise _translate(error) from error


def _condition_failed(error: Exception) -> bool:
    """The transaction was cancelled because the Slack id's mapping names another principal."""
    if error_code(error) != "TransactionCanceledException":
        return False
    reasons = (getattr(error, "response", None) or {}).get("CancellationReasons") or []
    return any(reason.get("Code") == "ConditionalCheckFailed" for reason in reasons)


def _points(item: dict[str, Any]) -> ContactPoints:
    return ContactPoints(
        email=item.get("email", {}).get("S") or None, slack_user=item.get("slackUser", {}).get("S") or None
    )


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _now() -> dict[str, str]:
    return {"S": datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")}


def _translate(error: Exception) -> Exception:
    if is_transient(error):
        return TemporarilyUnavailableError("The directory is busy; retry the request.")
    return error
