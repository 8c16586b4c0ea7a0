"""The stream dispatcher's progress on a record it reported failed: one item beside the runs,
`pk = STREAM#<record id>`, `sk = PROGRESS`, with the consumers done (`done`, a string set), each
consumer's failed attempts (`attempts`, a map) and a `ttl` a day and an hour on (a stream keeps a
record 24 hours). Written only when a record fails, read once per batch (its first record)."""

from __future__ import annotations

import time
from typing import Any

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, described, is_transient
from waitgate.adapters.dynamodb_keys import stream_progress_key
from waitgate.errors import TemporarilyUnavailableError
from waitgate.run.records import RecordProgress

KEPT_SECONDS = 25 * 60 * 60


class DynamoDbStreamProgress:
    def __init__(self, client: Any, table_name: str) -> None:
        self._client = client
        self._table = table_name

    def load(self, record_id: str) -> RecordProgress:
        try:
            answer = self._client.get_item(
                TableName=self._table, Key=stream_progress_key(record_id), ConsistentRead=True
            )
        except AWS_CALL_ERRORS as error:
            raise _translated(error) from error
        item = answer.get("Item")
        if item is None:
            return RecordProgress()
        attempts = {name: int(value["N"]) for name, value in item.get("attempts", {}).get("M", {}).items()}
        return RecordProgress(frozenset(item.get("done", {}).get("SS", [])), attempts)

    def save(self, record_id: str, progress: RecordProgress) -> None:
        item: dict[str, Any] = {
            **stream_progress_key(record_id),
            "attempts": {"M": {name: {"N": str(n)} for name, n in progress.attempts.items()}},
            "ttl": {"N": str(int(time.time()) + KEPT_SECONDS)},
        }
        if progress.done:
            item["done"] = {"SS": sorted(progress.done)}
        try:
            self._client.put_item(TableName=self._table, Item=item)
        except AWS_CALL_ERRORS as error:
            raise _translated(error) from error


def _translated(error: Exception) -> Exception:
    if is_transient(error):
        return TemporarilyUnavailableError(f"DynamoDB did not answer ({described(error)}).")
    return error
