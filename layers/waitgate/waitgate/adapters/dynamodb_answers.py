"""How idempotency records are laid out: one item per (operation, caller, key), in its own partition.

A key's scope is not the run: the same caller reusing a key on another run must find the first use
(422). The item is still read in the request's one BatchGetItem beside the run's items, and written in
the resolution's own transaction.

An answer's meaning is kept beside its bytes: a refusal's code, detail and path as attributes of their
own; a success's value is its body (JSON, kept once). An item written before the meaning was kept
(no `code`) is read from its problem+json body, so a replay across the deploy still means what it
said: such items are gone 24 h after it (their TTL) and that branch with them."""

from __future__ import annotations

import json
from typing import Any

from waitgate.adapters.dynamodb_keys import Item, key_of
from waitgate.problem_details import PROBLEM_CONTENT_TYPE, Problem
from waitgate.records import IdempotencyRef, StoredAnswer

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
    if answer.problem is not None:
        item.update(problem_attributes(answer.problem))
    return item


def problem_attributes(problem: Problem) -> Item:
    attributes = {"code": {"S": problem.code}}
    attributes.update(
        {name: {"S": text} for name, text in (("detail", problem.detail), ("path", problem.path)) if text}
    )
    return attributes


def answer_from_item(item: Item) -> StoredAnswer:
    body, content_type = item["body"]["S"], item["contentType"]["S"]
    refused = content_type == PROBLEM_CONTENT_TYPE
    return StoredAnswer(
        fingerprint=item["fingerprint"]["S"],
        status=int(item["status"]["N"]),
        body=body,
        content_type=content_type,
        expires_at_epoch=int(item["ttl"]["N"]),
        problem=problem_from_item(item) if refused else None,
        value=None if refused else json.loads(body),
    )


def problem_from_item(item: Item) -> Problem:
    if "code" not in item:  # kept before the meaning was: its problem+json says it
        return legacy_problem(item["body"]["S"])
    text = {name: item[name]["S"] for name in ("detail", "path") if name in item}
    return Problem(item["code"]["S"], text.get("detail", ""), text.get("path", ""))


def legacy_problem(body: str) -> Problem:
    document = json.loads(body)
    path = document.get("path")
    return Problem(
        str(document.get("code", "")), str(document.get("detail", "")), path if isinstance(path, str) else ""
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
