"""A Query reads what DynamoDB would read: its partition (or the index's items), not the whole table
sorted.

moto 5.2.5's `Table.query` starts from `Table.all_items()`, which lists every item of the table and
sorts them all by their keys (each comparison casting both DynamoType values again), for a Query of
one partition as much as for a GSI's: every Query cost O(n log n) in the table's size, under the lock
that serializes DynamoDB here (`moto_atomicity`), so every other read and write waited for it. With a
few thousand items a reconciler pass (8 Queries of the sparse index, then a Query per interrupt)
took 10-20 s on a loaded stack, though on DynamoDB its cost follows what is outstanding
(docs/durability.md); profiled: 5.4 s of a pass with 6,000 items were that sort.

Here the same `query` runs on a view of the table whose `all_items()` is, for a table Query by its
partition key, that partition's items, and for an index Query the table's items unsorted (the query
sorts what it found by the index's keys and the table's, a total order, so the answer is the same).
Anything else (Scan, a Query without a partition key) reads the table as moto does.
"""

from __future__ import annotations

from typing import Any

from local.patches import replace_attribute

INDEX_NAME_AT = 6  # range_comparison, range_objs, limit, exclusive_start_key, scan_index_forward, projection


class _QueryView:
    """The table, but for the items a Query may find (all other attributes are the table's)."""

    def __init__(self, table: Any, items: list[Any]) -> None:
        self._table, self._items = table, items

    def all_items(self) -> list[Any]:
        return self._items

    def __getattr__(self, name: str) -> Any:
        return getattr(self._table, name)


def candidates(table: Any, hash_key: Any, index_name: str | None) -> list[Any] | None:
    """The items the Query may find, unsorted; None: read the table as moto does."""
    if index_name:
        found: list[Any] = []
        for partition in table.items.values():
            found.extend(partition.values() if table.range_key_attr else [partition])
        return found
    if hash_key is None:
        return None
    partition = table.items.get(hash_key)
    if partition is None:
        return []
    return list(partition.values()) if table.range_key_attr else [partition]


def install() -> None:
    """Patch moto's (private) dynamodb Table.query; idempotent. Pin moto."""
    from moto.dynamodb.models.table import Table

    def by_partition(original: Any) -> Any:
        def query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
            # (moto's backend passes index_name as the 8th positional argument, after hash_key's six)
            index_name = args[INDEX_NAME_AT] if len(args) > INDEX_NAME_AT else kwargs.get("index_name")
            items = candidates(self, hash_key, index_name)
            target = self if items is None else _QueryView(self, items)
            return original(target, hash_key, *args, **kwargs)

        return query

    replace_attribute(Table, "query", by_partition)
