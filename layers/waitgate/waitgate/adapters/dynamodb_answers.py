"""How idempotency records are laid out: one item per (operation, caller, key) in the run's partition."""

from __future__ import annotations

from typing import Any

from waitgate.adapters.dynamodb_items import Item, key_of, run_pk
from waitgate.records import IdempotencyRef, RunRef, StoredAnswer


def answer_sk(ref: IdempotencyRef) -> str:
    return f"IDEM#{ref.record_id}"


def answer_key(run: RunRef, ref: IdempotencyRef) -> Item:
    return key_of(run_pk(run), answer_sk(ref))


def answer_item(run: RunRef, ref: IdempotencyRef, answer: StoredAnswer) -> Item:
    item = answer_key(run, ref)
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


def answer_put(table: str, run: RunRef, ref: IdempotencyRef, answer: StoredAnswer) -> dict[str, Any]:
    """A put that only the first answer for the key wins — or one whose 24 h are over (TTL deletes
    expired items within days, not at the second, so an expired record may still be there)."""
    answered_at = answer.expires_at_epoch - RETENTION_SECONDS
    return {
        "TableName": table,
        "Item": answer_item(run, ref, answer),
        "ConditionExpression": "attribute_not_exists(pk) OR #ttl <= :answered_at",
        "ExpressionAttributeNames": {"#ttl": "ttl"},
        "ExpressionAttributeValues": {":answered_at": {"N": str(answered_at)}},
    }
