"""`waitgate inbox-backfill` on DynamoDB: give the pending node items an older version wrote what the
inbox's index needs (docs/inbox.md, "A table with pending interrupts from an older version").

An item written before the index existed has none of its attributes; one written before the summary
(`inboxSummary`, `waitgate.run.inbox_summary`) has the keys but not the summary. Both are listed all the
same (the inbox reads a node item it holds no summary of), at the cost of one more read per page.
"""

from __future__ import annotations

from typing import Any

from waitgate.adapters import dynamodb_items as items
from waitgate.adapters import dynamodb_keys
from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code

Client = Any  # a boto3 DynamoDB client


def backfill_pending_index(client: Client, table: str, *, dry_run: bool = False) -> int:
    """Set the index's keys and the summary on every pending node item that lacks either: one Scan of
    the table (once, after the deploy) and one conditional UpdateItem per such item, which leaves it
    alone if it changed meanwhile (its version moved, or it ended: then the write that changed it set
    the attributes right). The version is not moved: the attributes only say what the item already
    holds. How many were (or would be) set."""
    scan: dict[str, Any] = {
        "TableName": table,
        "FilterExpression": "begins_with(sk, :node) AND #status = :pending"
        " AND (attribute_not_exists(#pk) OR attribute_not_exists(#summary))",
        "ExpressionAttributeNames": {
            "#status": "status",
            "#pk": dynamodb_keys.PENDING_PK,
            "#summary": dynamodb_keys.INBOX_SUMMARY,
        },
        "ExpressionAttributeValues": {":node": {"S": "NODE#"}, ":pending": {"S": "pending"}},
    }
    count = 0
    while True:
        answer = client.scan(**scan)
        for item in answer.get("Items", []):
            attributes = items.pending_index_keys(item)
            if attributes:
                count += 1 if dry_run or _set_attributes(client, table, item, attributes) else 0
        if "LastEvaluatedKey" not in answer:
            return count
        scan["ExclusiveStartKey"] = answer["LastEvaluatedKey"]


def _set_attributes(client: Client, table: str, item: dynamodb_keys.Item, attributes: dict[str, Any]) -> bool:
    """Whether the item got them: not if it changed meanwhile (its own write set them right)."""
    try:
        client.update_item(
            TableName=table,
            Key=dynamodb_keys.key_of(item["pk"]["S"], item["sk"]["S"]),
            UpdateExpression="SET #pk = :pk, #order = :order, #summary = :summary",
            ConditionExpression="version = :version AND #status = :pending",
            ExpressionAttributeNames={
                "#pk": dynamodb_keys.PENDING_PK,
                "#order": dynamodb_keys.PENDING_SK,
                "#summary": dynamodb_keys.INBOX_SUMMARY,
                "#status": "status",
            },
            ExpressionAttributeValues={
                ":pk": attributes[dynamodb_keys.PENDING_PK],
                ":order": attributes[dynamodb_keys.PENDING_SK],
                ":summary": attributes[dynamodb_keys.INBOX_SUMMARY],
                ":version": item["version"],
                ":pending": {"S": "pending"},
            },
        )
    except AWS_CALL_ERRORS as error:
        if error_code(error) != "ConditionalCheckFailedException":
            raise
        return False
    return True
