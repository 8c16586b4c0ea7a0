"""moto's TransactWriteItems, rolled back by the items it touches instead of by a copy of each table.

moto 5.2.5 deep-copies a whole table before a transaction, once for each of the transaction's items
that names it, so that a cancelled transaction can put the copies back. The cost grows with the
table, not with the transaction: on a table of 10,000 items one five-item transaction took ~7 s of
copying (the test of a resolve in a run of 10,000 events spent 143 of its 255 s there), and a local
stack's transactions slow down as its table fills. DynamoDB's own cost does not depend on the table.

This is moto's method step for step (cut into its steps), but for what it keeps before it starts: a
copy of each item the transaction names (or that it was absent) and of each table's pending stream
records. A cancelled transaction puts exactly those back, which leaves every table as moto's whole
copy would (no other item can change: the request holds moto_atomicity's lock). A transaction whose
items cannot be keyed (a table that does not exist, a key attribute missing: moto refuses those
anyway) keeps moto's copy of
the whole table, so what moto answers is unchanged.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from moto.dynamodb.comparisons import get_filter_expression
from moto.dynamodb.exceptions import (
    ConditionalCheckFailed,
    MockValidationException,
    MultipleTransactionsException,
    TooManyTransactionsException,
    TransactionCanceledException,
    TransactWriteSingleOpException,
)
from moto.dynamodb.models.dynamo_type import DynamoType


@dataclass
class _Before:
    """What a transaction's tables held before it began, as much as it can change."""

    items: dict[tuple[str, Any, Any], Any] = field(default_factory=dict)  # (table, hash, range) -> copy
    streams: dict[str, list[Any]] = field(default_factory=dict)  # table -> its pending stream records
    tables: dict[str, Any] = field(default_factory=dict)  # whole copies, where items could not be keyed

    def restore(self, backend: Any) -> None:
        for (table_name, hash_value, range_value), item in self.items.items():
            table = backend.tables[table_name]
            if range_value is not None:
                stored = table.items[hash_value]
                if item is None:
                    stored.pop(range_value, None)
                    if not stored:
                        del table.items[hash_value]
                else:
                    stored[range_value] = item
            elif item is None:
                table.items.pop(hash_value, None)
            else:
                table.items[hash_value] = item
        for table_name, records in self.streams.items():
            backend.tables[table_name].stream_shard.items = records
        for table_name, whole in self.tables.items():
            backend.tables[table_name] = whole


def _key_of(table: Any, op_type: str, op: dict[str, Any]) -> tuple[Any, Any]:
    attributes = op["Item"] if op_type == "Put" else op["Key"]
    hash_value = DynamoType(attributes[table.hash_key_attr])
    range_value = DynamoType(attributes[table.range_key_attr]) if table.range_key_attr else None
    return hash_value, range_value


def _before(backend: Any, transact_items: list[dict[str, Any]]) -> _Before:
    before = _Before()
    for item in transact_items:
        op_type, op = next(iter(item.items()))
        table_name = op.get("TableName") if isinstance(op, dict) else None
        if not table_name or table_name not in backend.tables or table_name in before.tables:
            continue
        table = backend.tables[table_name]
        try:
            hash_value, range_value = _key_of(table, op_type, op)
        except (KeyError, TypeError, AttributeError):
            before.tables[table_name] = copy.deepcopy(table)  # as moto does: it will refuse this one
            continue
        key = (table_name, hash_value, range_value)
        if key not in before.items:
            before.items[key] = copy.deepcopy(table.get_item(hash_value, range_value))
        if table.stream_shard is not None and table_name not in before.streams:
            before.streams[table_name] = list(table.stream_shard.items)
    for table_name in before.tables:  # a whole copy restores its table alone
        before.items = {key: item for key, item in before.items.items() if key[0] != table_name}
        before.streams.pop(table_name, None)
    return before


WRITE_OPERATIONS = frozenset({"ConditionCheck", "Put", "Delete", "Update"})


class _ConditionFailed(ConditionalCheckFailed):
    """moto's ConditionalCheckFailed, with the item it names in the cancellation reason (ALL_OLD)."""

    def __init__(self, original_item: dict[str, Any] | None) -> None:
        super().__init__(item=original_item)
        self.original_item = original_item


def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
    """moto 5.2.5's `DynamoDBBackend.transact_write_items`, with `_Before` for its table copies (its
    steps, line for line, in `_write_one`)."""
    if len(transact_items) > 100:
        raise TooManyTransactionsException()
    before = _before(self, transact_items)
    target_items: set[tuple[str, str]] = set()
    errors: list[tuple[str, str, dict[str, Any]] | tuple[None, None, None]] = []
    for item in transact_items:
        if len(list(item.keys())) > 1:
            raise TransactWriteSingleOpException
        try:
            _write_one(self, item, target_items)
            errors.append((None, None, None))
        except (MultipleTransactionsException, MockValidationException):
            before.restore(self)
            raise
        except ConditionalCheckFailed as e:
            original_item = e.original_item if isinstance(e, _ConditionFailed) else None
            errors.append(("ConditionalCheckFailed", str(e.message), original_item))  # type: ignore[arg-type]
        except Exception as e:  # noqa: BLE001  moto's own: any other failure cancels with its name
            errors.append((type(e).__name__, str(e), None))  # type: ignore[arg-type]

    if any(code is not None for code, _, _ in errors):
        before.restore(self)
        raise TransactionCanceledException(errors)


def _write_one(self: Any, item: dict[str, Any], target_items: set[tuple[str, str]]) -> None:
    """One item of the transaction: its key once in the transaction, its condition, its write."""
    op_type, op = next(iter(item.items()))
    if op_type not in WRITE_OPERATIONS:
        raise ValueError("Unsupported transaction operation")
    table_name = op["TableName"]
    if op_type == "Put":
        attrs = op["Item"]
        table = self.get_table(table_name)
        key = {table.hash_key_attr: attrs[table.hash_key_attr]}
        if table.range_key_attr is not None:
            key[table.range_key_attr] = attrs[table.range_key_attr]
    else:
        key = op["Key"]
    unique = (str(table_name), str(dict(sorted(key.items()))))
    if unique in target_items:
        raise MultipleTransactionsException()
    target_items.add(unique)
    _check_condition(op, self.get_item(table_name, key))
    _apply(self, op_type, op, key)


def _check_condition(op: dict[str, Any], current: Any) -> None:
    condition_expression = op.get("ConditionExpression")
    if condition_expression is None:
        return
    condition_op = get_filter_expression(
        condition_expression, op.get("ExpressionAttributeNames"), op.get("ExpressionAttributeValues")
    )
    if not condition_op.expr(current):
        wants_old = op.get("ReturnValuesOnConditionCheckFailure") == "ALL_OLD"
        raise _ConditionFailed(current.to_json()["Attributes"] if wants_old and current else None)


def _apply(self: Any, op_type: str, op: dict[str, Any], key: dict[str, Any]) -> None:
    """The write itself (a ConditionCheck writes nothing), under the same condition."""
    conditions = {
        "condition_expression": op.get("ConditionExpression"),
        "expression_attribute_names": op.get("ExpressionAttributeNames"),
        "expression_attribute_values": op.get("ExpressionAttributeValues"),
    }
    if op_type == "Put":
        self.put_item(op["TableName"], op["Item"], **conditions)
    elif op_type == "Delete":
        self.delete_item(op["TableName"], key, **conditions)
    elif op_type == "Update":
        self.update_item(op["TableName"], key, update_expression=op["UpdateExpression"], **conditions)


def rolled_back_by_items(_original: Any) -> Any:
    """`replace_attribute`'s form: moto's method (unused: replaced whole, see the module's doc)."""
    return transact_write_items
