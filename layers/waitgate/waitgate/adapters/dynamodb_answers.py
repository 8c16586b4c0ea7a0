"""How idempotency records are laid out: one item per (operation, caller, key), in its own partition.

A key's scope is not the run: the same caller reusing a key on another run must find the first use
(422). The item is still read in the request's one BatchGetItem beside the run's items, and written in
the resolution's own transaction."""

from __future__ import annotations

from typing import Any

from waitgate.adapters.dynamodb_keys import Item, key_of
from waitgate.run.records import IdempotencyRef, StoredAnswer

ANSWER_SK = "IDEM"


def answer_key(ref: IdempotencyRef) -> Item:
    return key_of(f"IDEM#{ref.record_id}", ANSWER_SK)


def answer_item(ref: IdempotencyRef, answer: StoredAnswer) -> Item:
    item = answer_key(ref)
    item.update(
        operation={"S": ref.operation},
        fingerprint={"S": answer.fingerprint},
        status={"N": str(answer.status)},
        body={"S": answer.body},
        contentType={"S": answer.content_type},
        ttl={"N": str(answer.expires_at_epoch)},
    )
    return item


def answer_from_item(item: Item) -> StoredAnswer:
    return StoredAnswer(
        fingerprint=item["fingerprint"]["S"],
        status=int(item["status"]["N"]),
        body=item["body"]["S"],
        content_type=item["contentType"]["S"],
        expires_at_epoch=int(item["ttl"]["N"]),
    )


RETENTION_SECONDS = 24 * 3600


def answer_put(table: str, ref: IdempotencyRef, answer: StoredAnswer) -> dict[str, Any]:
    """A put that only the first answer for the key wins — or one whose 24 h are over (TTL deletes
    expired items within days, not at the second, so an expired record may still be there)."""
    answered_at = answer.expires_at_epoch - RETENTION_SECONDS
    return {
        "TableName": table,
        "Item": answer_item(ref, answer),
        "ConditionExpression": "attribute_not_exists(pk) OR #ttl <= :answered_at",
        "ExpressionAttributeNames": {"#ttl": "ttl"},
        "ExpressionAttributeValues": {":answered_at": {"N": str(answered_at)}},
    }
