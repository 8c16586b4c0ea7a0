"""Inbox on DynamoDB: one Query per page, whatever the table's history (docs/inbox.md).

Pending interrupts are read from the sparse index `InboxByDeadline` (its key attributes exist on a
node item only while it is pending, so resolved, expired and cancelled interrupts are not in it at
all), each as the bounded summary the index holds of it (`dynamodb_inbox_entries`); a page's items
whose summary the inbox cannot use (written before it existed, or an approval whose terms did not
fit) are read whole, in one BatchGetItem for the page. A principal's decisions come from their
receipts' partition. A filter (`kind`, `runId`) is applied to the items the Query examined: a page
may then hold fewer than `limit`, and `next` still says honestly whether the index has more. The
position (`next`, `cursor`) is the last examined key, without its tenant (the caller's JWT gives
that), as base64url JSON; the use case seals it with the host's keyring before any caller sees it
(`tokens.cursors`), and opens it before it comes here.
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
from waitgate.adapters.dynamodb_inbox_entries import entry_from_index, entry_from_node, whole_read
from waitgate.errors import TemporarilyUnavailableError, ValidationFailedError
from waitgate.run.inbox_records import InboxFilter, PendingEntry, PendingPage, ReceiptPage

Client = Any  # a boto3 DynamoDB client
_RUN_ID = re.compile(r"[A-Za-z0-9_-]{1,80}")
MAX_CURSOR = 2048


class DynamoDbInbox:
    def __init__(self, client: Client, table_name: str, index: str = dynamodb_keys.PENDING_INDEX) -> None:
        self._client = client
        self._table = table_name
        self._index = index  # the former PendingByDeadline during the deploy that upgrades from it

    def pending(self, page: InboxFilter) -> PendingPage:
        query: dict[str, Any] = {
            "TableName": self._table,
            "IndexName": self._index,
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
        entries = self._entries(answer.get("Items", []))
        last = answer.get("LastEvaluatedKey")
        following = None
        if last:
            run_id = last["pk"]["S"].removeprefix(f"RUN#{page.tenant_id}#")
            node_id = last["sk"]["S"].removeprefix("NODE#")
            following = _encoded([last[dynamodb_keys.PENDING_SK]["S"], run_id, node_id])
        return PendingPage(entries, following)

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

    def _entries(self, found: list[dynamodb_keys.Item]) -> tuple[PendingEntry, ...]:
        """The index items as entries, in the index's order; those it holds no usable summary of are
        read whole (one BatchGetItem for the page), and one gone meanwhile is left out."""
        entries = [entry_from_index(item) for item in found]
        unread = [_node_key(item) for item, entry in zip(found, entries, strict=True) if entry is None]
        nodes = self._read_whole(unread) if unread else {}
        listed = []
        for item, entry in zip(found, entries, strict=True):
            if entry is None:
                node = nodes.get((item["pk"]["S"], item["sk"]["S"]))
                entry = None if node is None else entry_from_node(node)
            if entry is not None:
                listed.append(entry)
        return tuple(listed)

    def _read_whole(self, keys: list[dynamodb_keys.Item]) -> dict[tuple[str, str], dynamodb_keys.Item]:
        found: dict[tuple[str, str], dynamodb_keys.Item] = {}
        request: dict[str, Any] = {self._table: whole_read(keys)}  # a page is at most 100 = the limit
        while request:
            answer = self._call(self._client.batch_get_item, RequestItems=request)
            for item in answer.get("Responses", {}).get(self._table, []):
                found[(item["pk"]["S"], item["sk"]["S"])] = item
            request = answer.get("UnprocessedKeys") or {}
        return found

    def _query(self, query: dict[str, Any]) -> dict[str, Any]:
        try:
            answer: dict[str, Any] = self._client.query(**query)
        except AWS_CALL_ERRORS as error:
            if error_code(error) == "ValidationException" and "ExclusiveStartKey" in query:
                raise _bad_cursor() from error
            _raise_unavailable(error)
            raise
        return answer

    def _call(self, operation: Any, **arguments: Any) -> dict[str, Any]:
        try:
            answer: dict[str, Any] = operation(**arguments)
        except AWS_CALL_ERRORS as error:
            _raise_unavailable(error)
            raise
        return answer


def _raise_unavailable(error: Exception) -> None:
    """Busy, or the index still being built (a deploy adds it, and DynamoDB backfills it after the
    stack update completes): 503, nothing changed. Anything else is the caller's to raise."""
    if is_transient(error):
        raise TemporarilyUnavailableError("The store is busy; retry the request.") from error
    if error_code(error) == "ValidationException" and "backfilling" in str(error):
        raise TemporarilyUnavailableError("The inbox's index is still being built; retry later.") from error


def _node_key(item: dynamodb_keys.Item) -> dynamodb_keys.Item:
    return dynamodb_keys.key_of(item["pk"]["S"], item["sk"]["S"])


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
