"""Directory on DynamoDB: group members and role holders, per tenant (see docs/approvals.md).

Items: `pk = TENANT#<tenant>#GROUP#<ref>` (or `#ROLE#<ref>`), `sk = MEMBER#<principal>`. Reading a
principal's memberships is one BatchGetItem of exactly the keys that would exist if it were a member.
Delegations: `pk = TENANT#<tenant>#DELEGATE#<delegate>`, `sk = FROM#<delegator>`, with `until` (RFC
3339, absent: until ended) and `kinds`; reading who a voter decides for is one Query of their pk.
With `events_table` (the interrupts table), granting or ending one is also an event of the tenant's
directory log (`pk = RUN#<tenant>#directory`, `delegation.granted` / `delegation.ended`), written in
the same transaction, where the table stream's ledger reader sees it (docs/ledger.md).
Tenant settings: `pk = TENANT#<tenant>#SETTINGS`, `sk = SETTING#<name>`, with `value`; changing one
is also an event of the directory log (`setting.changed`), the same way.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, Literal

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, is_transient
from waitgate.approval import Memberships
from waitgate.approval.delegation import Delegation
from waitgate.approval.eligibility import rfc3339
from waitgate.approval.separation_of_duties import ALLOW_SELF_APPROVAL, TenantSettings
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.records import DIRECTORY_LOG  # the run id of a tenant's directory log (reserved)

Client = Any  # a boto3 DynamoDB client
RefKind = Literal["group", "role"]
BATCH_LIMIT = 100  # BatchGetItem's own limit of keys per call
MEMBER_PREFIX = "MEMBER#"
FROM_PREFIX = "FROM#"
SETTING_PREFIX = "SETTING#"
SETTING_NAMES = (ALLOW_SELF_APPROVAL,)  # the settings a tenant has (TenantSettings), by their names


def ref_pk(tenant_id: str, kind: RefKind, ref: str) -> str:
    return f"TENANT#{tenant_id}#{kind.upper()}#{ref}"


def member_sk(principal: str) -> str:
    return f"{MEMBER_PREFIX}{principal}"


def delegate_pk(tenant_id: str, delegate: str) -> str:
    return f"TENANT#{tenant_id}#DELEGATE#{delegate}"


def settings_pk(tenant_id: str) -> str:
    return f"TENANT#{tenant_id}#SETTINGS"


class DynamoDbDirectory:
    def __init__(self, client: Client, table_name: str, events_table: str | None = None) -> None:
        self._client = client
        self._table = table_name
        self._events_table = events_table

    def memberships(
        self, tenant_id: str, principal: str, groups: Sequence[str], roles: Sequence[str]
    ) -> Memberships:
        pks = {ref_pk(tenant_id, "group", ref) for ref in groups} | {
            ref_pk(tenant_id, "role", ref) for ref in roles
        }
        if not pks:
            return Memberships()
        keys = [_key(pk, member_sk(principal)) for pk in sorted(pks)]
        found = {item["pk"]["S"] for item in self._batch_get(keys)}
        return Memberships(
            groups=frozenset(ref for ref in groups if ref_pk(tenant_id, "group", ref) in found),
            roles=frozenset(ref for ref in roles if ref_pk(tenant_id, "role", ref) in found),
        )

    def members(self, tenant_id: str, kind: RefKind, ref: str) -> tuple[str, ...]:
        arguments: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :member)",
            "ExpressionAttributeValues": {
                ":pk": {"S": ref_pk(tenant_id, kind, ref)},
                ":member": {"S": MEMBER_PREFIX},
            },
        }
        principals: list[str] = []
        while True:
            page = self._call(self._client.query, **arguments)
            principals.extend(item["sk"]["S"].removeprefix(MEMBER_PREFIX) for item in page["Items"])
            if "LastEvaluatedKey" not in page:
                return tuple(principals)
            arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def add_member(self, tenant_id: str, kind: RefKind, ref: str, principal: str) -> None:
        """Grant a membership (idempotent): counts for every vote from now on."""
        item = _key(ref_pk(tenant_id, kind, ref), member_sk(principal))
        item.update(
            tenantId={"S": tenant_id},
            refKind={"S": kind},
            ref={"S": ref},
            principal={"S": principal},
            addedAt={"S": _now()},
        )
        self._call(self._client.put_item, TableName=self._table, Item=item)

    def remove_member(self, tenant_id: str, kind: RefKind, ref: str, principal: str) -> None:
        """Revoke a membership (idempotent); votes already recorded keep their eligibility record."""
        key = _key(ref_pk(tenant_id, kind, ref), member_sk(principal))
        self._call(self._client.delete_item, TableName=self._table, Key=key)

    def delegate(self, tenant_id: str, delegation: Delegation) -> None:
        """Record (or replace) who decides for whom, until when, for which kinds."""
        item = _key(delegate_pk(tenant_id, delegation.delegate), FROM_PREFIX + delegation.delegator)
        item.update(
            tenantId={"S": tenant_id},
            delegator={"S": delegation.delegator},
            delegate={"S": delegation.delegate},
            kinds={"SS": sorted(delegation.kinds)},
            addedAt={"S": _now()},
        )
        if delegation.until is not None:
            item["until"] = {"S": rfc3339(delegation.until)}
        if self._events_table is None:
            self._call(self._client.put_item, TableName=self._table, Item=item)
            return
        put = {"Put": {"TableName": self._table, "Item": item}}
        self._transact(put, tenant_id, "delegation.granted", _facts(delegation))

    def undelegate(self, tenant_id: str, delegator: str, delegate: str) -> bool:
        """End a delegation; False when there was none."""
        key = _key(delegate_pk(tenant_id, delegate), FROM_PREFIX + delegator)
        if self._events_table is None:
            answer = self._call(
                self._client.delete_item, TableName=self._table, Key=key, ReturnValues="ALL_OLD"
            )
            return "Attributes" in answer
        delete = {
            "Delete": {"TableName": self._table, "Key": key, "ConditionExpression": "attribute_exists(pk)"}
        }
        try:
            self._transact(
                delete, tenant_id, "delegation.ended", {"delegator": delegator, "delegate": delegate}
            )
        except self._client.exceptions.TransactionCanceledException as error:
            reasons = error.response.get("CancellationReasons", [])
            if reasons and reasons[0].get("Code") == "ConditionalCheckFailed":
                return False
            raise
        return True

    def _transact(
        self, change: dict[str, Any], tenant_id: str, event_type: str, facts: dict[str, Any]
    ) -> None:
        """The directory's change and its event, in one transaction (the event's seq: its microsecond)."""
        moment = datetime.now(UTC)
        seq = int(moment.timestamp() * 1_000_000)
        event = {
            "pk": {"S": f"RUN#{tenant_id}#{DIRECTORY_LOG}"},
            "sk": {"S": f"EVT#{seq:012d}"},
            "seq": {"N": str(seq)},
            "type": {"S": event_type},
            "time": {"S": rfc3339(moment)},
            "payload": {"S": json.dumps({**facts, "via": "directory"}, sort_keys=True)},
            "mode": {"S": "updates"},
        }
        put_event = {
            "Put": {
                "TableName": self._events_table,
                "Item": event,
                "ConditionExpression": "attribute_not_exists(pk)",
            }
        }
        self._call(self._client.transact_write_items, TransactItems=[change, put_event])

    def tenant_settings(self, tenant_id: str) -> TenantSettings:
        """The tenant's settings, one strongly consistent Query (an absent one: its default)."""
        page = self._call(
            self._client.query,
            TableName=self._table,
            KeyConditionExpression="pk = :pk AND begins_with(sk, :setting)",
            ExpressionAttributeValues={
                ":pk": {"S": settings_pk(tenant_id)},
                ":setting": {"S": SETTING_PREFIX},
            },
            ConsistentRead=True,
        )
        values = {item["sk"]["S"].removeprefix(SETTING_PREFIX): item["value"] for item in page["Items"]}
        return TenantSettings(allow_self_approval=values.get(ALLOW_SELF_APPROVAL, {}).get("BOOL") is True)

    def set_tenant_setting(self, tenant_id: str, name: str, value: bool) -> None:
        """Set one of the tenant's settings (SETTING_NAMES), for every vote from now on."""
        if name not in SETTING_NAMES:
            raise ValueError(f"no tenant setting is named {name!r}")
        item = _key(settings_pk(tenant_id), SETTING_PREFIX + name)
        item.update(tenantId={"S": tenant_id}, value={"BOOL": value}, setAt={"S": _now()})
        if self._events_table is None:
            self._call(self._client.put_item, TableName=self._table, Item=item)
            return
        put = {"Put": {"TableName": self._table, "Item": item}}
        self._transact(put, tenant_id, "setting.changed", {"name": name, "value": value})

    def delegations_to(self, tenant_id: str, delegate: str) -> tuple[Delegation, ...]:
        arguments: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk AND begins_with(sk, :from)",
            "ExpressionAttributeValues": {
                ":pk": {"S": delegate_pk(tenant_id, delegate)},
                ":from": {"S": FROM_PREFIX},
            },
            "ConsistentRead": True,
        }
        found: list[Delegation] = []
        while True:
            page = self._call(self._client.query, **arguments)
            found.extend(_delegation(item) for item in page["Items"])
            if "LastEvaluatedKey" not in page:
                return tuple(found)
            arguments["ExclusiveStartKey"] = page["LastEvaluatedKey"]

    def _batch_get(self, keys: list[dict[str, Any]]) -> list[dict[str, Any]]:
        found: list[dict[str, Any]] = []
        for start in range(0, len(keys), BATCH_LIMIT):
            request: dict[str, Any] = {
                self._table: {"Keys": keys[start : start + BATCH_LIMIT], "ConsistentRead": True}
            }
            while request:
                answer = self._call(self._client.batch_get_item, RequestItems=request)
                found.extend(answer.get("Responses", {}).get(self._table, []))
                request = answer.get("UnprocessedKeys") or {}
        return found

    @staticmethod
    def _call(operation: Any, **arguments: Any) -> Any:
        try:
            return operation(**arguments)
        except AWS_CALL_ERRORS as error:
            raise _translate(error) from error


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _facts(delegation: Delegation) -> dict[str, Any]:
    until = rfc3339(delegation.until) if delegation.until is not None else None
    return {
        "delegator": delegation.delegator,
        "delegate": delegation.delegate,
        "until": until,
        "kinds": sorted(delegation.kinds),
    }


def _delegation(item: dict[str, Any]) -> Delegation:
    until = item.get("until", {}).get("S")
    return Delegation(
        delegator=item["delegator"]["S"],
        delegate=item["delegate"]["S"],
        until=datetime.fromisoformat(until) if until else None,
        kinds=frozenset(item["kinds"]["SS"]),
    )


def _key(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


def _translate(error: Exception) -> Exception:
    """One place where the directory's DynamoDB error codes become domain errors."""
    if is_transient(error):
        return TemporarilyUnavailableError("The directory is busy; retry the request.")
    return error
