"""How idempotency records are laid out: one item per (operation, caller, key), in its own partition.

A key's scope is not the run: the same caller reusing a key on another run must find the first use
(422). The item is still read in the request's one BatchGetItem beside the run's items, and written in
the resolution's own transaction.

An answer's meaning is kept beside its bytes, so a replay means what the first answer meant without
parsing it back: a refusal's `code`, `detail` and `path`, a success's `value` (its JSON, as the body
renders it: at most twice a resume value's 144 KB in the item). An item written before the meaning
was kept (neither `code` nor `value`) is read from its body; such items are gone 24 h after the
deploy (their TTL), and that branch can go with them."""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.dynamodb_keys import Item, key_of
from waitgate.run.problem_details import PROBLEM_CONTENT_TYPE, Problem
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
    item.update(meaning_attributes(answer))
    return item


def meaning_attributes(answer: StoredAnswer) -> Item:
    problem = answer.problem
    if problem is None:
        return {"value": {"S": json.dumps(answer.value, separators=(",", ":"), ensure_ascii=False)}}
    texts = (("detail", problem.detail), ("path", problem.path))
    return {"code": {"S": problem.code}} | {name: {"S": text} for name, text in texts if text}


def answer_from_item(item: Item) -> StoredAnswer:
    problem, value = meaning_from_item(item)
    return StoredAnswer(
        fingerprint=item["fingerprint"]["S"],
        status=int(item["status"]["N"]),
        body=item["body"]["S"],
        content_type=item["contentType"]["S"],
        expires_at_epoch=int(item["ttl"]["N"]),
        problem=problem,
        value=value,
    )


def meaning_from_item(item: Item) -> tuple[Problem | None, Any]:
    if "code" in item:
        texts = {name: item[name]["S"] for name in ("detail", "path") if name in item}
        return Problem(item["code"]["S"], texts.get("detail", ""), texts.get("path", "")), None
    if "value" in item:
        return None, json.loads(item["value"]["S"])
    return legacy_meaning(item["body"]["S"], item["contentType"]["S"])


def legacy_meaning(body: str, content_type: str) -> tuple[Problem | None, Any]:
    """The meaning of an answer kept before it was kept beside the bytes: what its body says."""
    document = json.loads(body)
    if content_type != PROBLEM_CONTENT_TYPE:
        return None, document
    path = document.get("path")
    detail = str(document.get("detail", ""))
    return Problem(str(document.get("code", "")), detail, path if isinstance(path, str) else ""), None


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
