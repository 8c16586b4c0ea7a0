"""Make moto's DynamoDB as atomic as DynamoDB under real concurrency.

moto applies a transaction item by item and, when a condition fails, restores a copy of the whole
table taken before it started. Two threads at once can therefore both "win", or lose each other's
writes, where DynamoDB would serialize them. One re-entrant lock around every item operation gives
the isolation real DynamoDB has, so race tests test our code and not moto's.

Stream-triggered Lambda handlers must not run inside the lock on another thread (they would wait on
it): the local stack hands stream records to a worker instead of running them inline.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from moto.dynamodb.models import DynamoDBBackend

_LOCK = threading.RLock()
_OPERATIONS = (
    "put_item",
    "get_item",
    "query",
    "scan",
    "update_item",
    "delete_item",
    "transact_write_items",
)


def _serialized(method: Any) -> Any:
    @functools.wraps(method)
    def locked(*args: Any, **kwargs: Any) -> Any:
        with _LOCK:
            return method(*args, **kwargs)

    locked.__waitgate_serialized__ = True  # type: ignore[attr-defined]
    return locked


def serialize_dynamodb_operations() -> None:
    """Idempotent: patch moto's DynamoDB backend so item operations never interleave."""
    for name in _OPERATIONS:
        method = getattr(DynamoDBBackend, name)
        if not getattr(method, "__waitgate_serialized__", False):
            setattr(DynamoDBBackend, name, _serialized(method))
