"""Inbox on DynamoDB: one Query per page, whatever the table's history (docs/inbox.md).

Pending interrupts are read from the sparse index `PendingByDeadline` (its key attributes exist on a
node item only while it is pending, so resolved, expired and cancelled interrupts are not in it at
all); a principal's decisions from their receipts' partition. A filter (`kind`, `runId`) is applied
to the items the Query examined: a page may then hold fewer than `limit`, and `next` still says
honestly whether the index has more. The position (`next`, `cursor`) is the last examined key,
without its tenant (the caller's JWT gives that), as base64url JSON; the use case seals it with the
host's keyring before any caller sees it (`tokens.cursors`), and opens it before it comes here.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from waitgate.adapters import dynamodb_items as items
from waitgate.adapters import dynamodb_keys
from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_transient
from waitgate.errors import TemporarilyUnavailableError, ValidationFailedError
from waitgate.inbox_records import InboxFilter, PendingPage, ReceiptPage

Client = Any  # a boto3 DynamoDB client
_RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")
MAX_CURSOR = 2048


class DynamoDbInbox:
    def __init__(self, client: Client, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def pending(self, page: InboxFilter) -> PendingPage:
        query: dict[str, Any] = {
            "TableName": self._table,
            "IndexName": dynamodb_keys.PENDING_INDEX,
            "KeyConditionExpression": "#pk = :tenant",
            "ExpressionAttributeNames": {"#pk": dynamodb_keys.PENDING_PK},
            "ExpressionAttributeValues": {":tenant": {"S": dynamodb_keys.pending_pk(page.tenant_id)}},
            "Limit": page.limit,
        }
        _filters(query, page)
        if page.cursor is not None:
            order, run_id, node_id = _decoded(page.cursor, 3)
            if not _RUN_ID.fullmatch(run_id) or not 1 <= len(node_id) <= 80:
                raise _bad_cursor()
            query["ExclusiveStartKey"] = {
                dynamodb_keys.PENDING_PK: {"S": dynamodb_keys.pending_pk(page.tenant_id)},
                dynamodb_keys.PENDING_SK: {"S": order},
                "pk": {"S": f"RUN#{page.tenant_id}#{run_id}"},
                "sk": {"S": dynamodb_keys.node_sk(node_id)},
            }
        answer = self._query(query)
        records = tuple(items.interrupt_from_item(item) for item in answer.get("Items", []))
        last = answer.get("LastEvaluatedKey")
        following = None
        if last:
            run_id = last["pk"]["S"].removeprefix(f"RUN#{page.tenant_id}#")
            node_id = last["sk"]["S"].removeprefix("NODE#")
            following = _encoded([last[dynamodb_keys.PENDING_SK]["S"], run_id, node_id])
        return PendingPage(records, following)

    def decided(self, principal: str, page: InboxFilter) -> ReceiptPage:
        pk = dynamodb_keys.decided_pk(page.tenant_id, principal)
        query: dict[str, Any] = {
            "TableName": self._table,
            "KeyConditionExpression": "pk = :pk",
            "ExpressionAttributeValues": {":pk": {"S": pk}},
            "ScanIndexForward": False,  # newest first
            "Limit": page.limit,
        }
        _filters(query, page)
        if page.cursor is not None:
            (sk,) = _decoded(page.cursor, 1)
            query["ExclusiveStartKey"] = {"pk": {"S": pk}, "sk": {"S": sk}}
        answer = self._query(query)
        receipts = tuple(items.receipt_from_item(item) for item in answer.get("Items", []))
        last = answer.get("LastEvaluatedKey")
        return ReceiptPage(receipts, _encoded([last["sk"]["S"]]) if last else None)

    def _query(self, query: dict[str, Any]) -> dict[str, Any]:
        try:
            answer: dict[str, Any] = self._client.query(**query)
        except AWS_CALL_ERRORS as error:
            if is_transient(error):
                raise TemporarilyUnavailableError("The store is busy; retry the request.") from error
            if error_code(error) == "ValidationException" and "ExclusiveStartKey" in query:
                raise _bad_cursor() from error
            raise
        return answer


def _filters(query: dict[str, Any], page: InboxFilter) -> None:
    terms = []
    if page.kind is not None:
        terms.append("#kind = :kind")
        query.setdefault("ExpressionAttributeNames", {})["#kind"] = "kind"
        query["ExpressionAttributeValues"][":kind"] = {"S": page.kind}
    if page.run_id is not None:
        terms.append("runId = :runId")
        query["ExpressionAttributeValues"][":runId"] = {"S": page.run_id}
    if terms:
        query["FilterExpression"] = " AND ".join(terms)


def _encoded(parts: list[str]) -> str:
    text = json.dumps(parts, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return base64.urlsafe_b64encode(text).rstrip(b"=").decode("ascii")


def _decoded(cursor: str, count: int) -> list[str]:
    if len(cursor) > MAX_CURSOR or not re.fullmatch(r"[A-Za-z0-9_-]+", cursor):
        raise _bad_cursor()
    try:
        parts = json.loads(base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)))
    except (binascii.Error, ValueError, UnicodeDecodeError) as error:
        raise _bad_cursor() from error
    if not isinstance(parts, list) or len(parts) != count or not all(isinstance(p, str) and p for p in parts):
        raise _bad_cursor()
    return parts


def _bad_cursor() -> ValidationFailedError:
    return ValidationFailedError("cursor must be the `next` of an earlier page.", path="cursor")


def backfill_pending_index(client: Client, table: str, *, dry_run: bool = False) -> int:
    """Give every pending node item written before the index existed its key attributes, so the
    inbox lists it (docs/inbox.md): one Scan of the table (once, after the deploy that adds the index)
    and one conditional UpdateItem per such item, which leaves it alone if it changed meanwhile (its
    version moved, or it ended: then the write that changed it set the attributes right). The version
    is not moved: the attributes only say what the item already holds. How many were (or would be) set."""
    scan: dict[str, Any] = {
        "TableName": table,
        "FilterExpression": "begins_with(sk, :node) AND #status = :pending AND attribute_not_exists(#pk)",
        "ExpressionAttributeNames": {"#status": "status", "#pk": dynamodb_keys.PENDING_PK},
        "ExpressionAttributeValues": {":node": {"S": "NODE#"}, ":pending": {"S": "pending"}},
    }
    count = 0
    while True:
        answer = client.scan(**scan)
        for item in answer.get("Items", []):
            keys = items.pending_index_keys(item)
            if keys:
                count += 1 if dry_run or _set_index_keys(client, table, item, keys) else 0
        if "LastEvaluatedKey" not in answer:
            return count
        scan["ExclusiveStartKey"] = answer["LastEvaluatedKey"]


def _set_index_keys(client: Client, table: str, item: dynamodb_keys.Item, keys: dict[str, Any]) -> bool:
    """Whether the item got its index keys: not if it changed meanwhile (its own write set them right)."""
    try:
        client.update_item(
            TableName=table,
            Key=dynamodb_keys.key_of(item["pk"]["S"], item["sk"]["S"]),
            UpdateExpression="SET #pk = :pk, #order = :order",
            ConditionExpression="version = :version AND #status = :pending",
            ExpressionAttributeNames={
                "#pk": dynamodb_keys.PENDING_PK,
                "#order": dynamodb_keys.PENDING_SK,
                "#status": "status",
            },
            ExpressionAttributeValues={
                ":pk": keys[dynamodb_keys.PENDING_PK],
                ":order": keys[dynamodb_keys.PENDING_SK],
                ":version": item["version"],
                ":pending": {"S": "pending"},
            },
        )
    except AWS_CALL_ERRORS as error:
        if error_code(error) != "ConditionalCheckFailedException":
            raise
        return False
    return True
