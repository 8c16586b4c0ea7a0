"""DynamoDB's request units as it bills them: item sizes as DynamoDB sizes them, and a Capacity
that counts the units of every call a client makes (reads: 4 KB units, strongly consistent whole;
writes: 1 KB units; transactions twice; each secondary index a table writes to)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any


def attribute_size(value: dict[str, Any]) -> int:
    """An attribute value's size as DynamoDB counts it (docs: 'Item sizes and formats')."""
    ((kind, inner),) = value.items()
    if kind == "S":
        return len(inner.encode())
    if kind == "N":
        digits = inner.lstrip("-").replace(".", "").strip("0") or "0"
        return (len(digits) + 1) // 2 + 1
    if kind == "B":
        return len(inner)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind in ("SS", "NS", "BS"):
        return sum(attribute_size({kind[0]: item}) for item in inner)
    if kind == "M":
        return 3 + sum(len(name.encode()) + attribute_size(item) + 1 for name, item in inner.items())
    if kind == "L":
        return 3 + sum(attribute_size(item) + 1 for item in inner)
    raise ValueError(kind)


def item_size(item: dict[str, Any]) -> int:
    return sum(len(name.encode()) + attribute_size(value) for name, value in item.items())


def read_units(size: int, consistent: bool, transactional: bool = False) -> float:
    units = math.ceil(max(size, 1) / 4096) * (1.0 if consistent else 0.5)
    return units * (2 if transactional else 1)


def write_units(size: int, transactional: bool = False) -> float:
    return math.ceil(max(size, 1) / 1024) * (2.0 if transactional else 1.0)


def secondary_indexes() -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """The interrupts table's GSIs in template.yaml, as a new stack has them (the parameters'
    defaults): (key attributes, projected attributes)."""
    from local.template.sam_template import table_properties

    table = table_properties("InterruptsTable")
    found = []
    for index in table.get("GlobalSecondaryIndexes", []):
        keys = tuple(k["AttributeName"] for k in index["KeySchema"])
        projection = index["Projection"]
        included = (
            tuple(projection.get("NonKeyAttributes", ())) if projection["ProjectionType"] == "INCLUDE" else ()
        )
        found.append((keys, ("pk", "sk", *keys, *included)))
    return found


def index_write_units(old: dict[str, Any] | None, new: dict[str, Any] | None) -> float:
    """What a base-table write costs its GSIs, as DynamoDB bills them (developer guide, "Provisioned
    throughput considerations for Global Secondary Indexes"): per index, an item that enters or leaves
    it is one write; one whose key attributes change, two (the old out, the new in); one whose projected
    attributes change, one; one that stays as the index projects it, none (1 KB units, never doubled)."""
    units = 0.0
    for keys, projected in INDEXES:
        before, after = (_projected(item, keys, projected) for item in (old, new))
        if before is None or after is None:
            changed = [view for view in (before, after) if view is not None]
        elif any(before.get(k) != after.get(k) for k in keys):
            changed = [before, after]
        else:
            changed = [after] if after != before else []
        units += sum(write_units(item_size(view)) for view in changed)
    return units


def _projected(
    item: dict[str, Any] | None, keys: tuple[str, ...], projected: tuple[str, ...]
) -> dict[str, Any] | None:
    """The item as the index holds it, or None when it is not in the index."""
    if not item or not all(k in item for k in keys):
        return None
    return item if projected == ("*",) else {k: v for k, v in item.items() if k in projected}


INDEXES = secondary_indexes()


@dataclass
class Capacity:
    """The request units of the DynamoDB calls a client made (botocore events, moto in-process),
    with what the writes cost the table's secondary indexes."""

    reader: Any  # another client of the same moto: sizes items after a write, uncounted
    read: float = 0.0
    write: float = 0.0
    calls: list[str] = field(default_factory=list)
    _pending: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    _before_items: list[list[tuple[str, dict[str, Any], dict[str, Any] | None]]] = field(default_factory=list)

    def attach(self, client: Any) -> None:
        client.meta.events.register("before-call.dynamodb", self._before)
        client.meta.events.register("after-call.dynamodb", self._after)

    def _before(self, model: Any, params: dict[str, Any], **_: Any) -> None:
        body = params.get("body") or b"{}"
        request = json.loads(body)
        self._pending.append((model.name, request))
        self._before_items.append([(t, k, self._item(t, k)) for t, k in _written_keys(model.name, request)])

    def _after(self, model: Any, parsed: dict[str, Any], **_: Any) -> None:
        name, request = self._pending.pop(0)
        written = self._before_items.pop(0)
        self.calls.append(name)
        if "Error" in parsed:
            return
        sized = getattr(self, f"_{name}", None)
        if sized is not None:
            sized(request, parsed)
        for table, key, old in written:
            self.write += index_write_units(old, self._item(table, key))

    def _item(self, table: str, key: dict[str, Any]) -> dict[str, Any] | None:
        found: dict[str, Any] | None = self.reader.get_item(
            TableName=table, Key=key, ConsistentRead=True
        ).get("Item")
        return found

    def _current(self, table: str, key: dict[str, Any]) -> int:
        found = self.reader.get_item(TableName=table, Key=key, ConsistentRead=True).get("Item")
        return item_size(found) if found else 1

    def _GetItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        self.read += read_units(item_size(parsed.get("Item") or {}), bool(request.get("ConsistentRead")))

    def _BatchGetItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        for table, items in parsed.get("Responses", {}).items():
            consistent = bool(request["RequestItems"][table].get("ConsistentRead"))
            self.read += sum(read_units(item_size(item), consistent) for item in items)

    def _Query(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        total = sum(item_size(item) for item in parsed.get("Items", []))
        self.read += read_units(total, bool(request.get("ConsistentRead")))

    def _PutItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        self.write += write_units(item_size(request["Item"]))

    def _UpdateItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        self.write += write_units(self._current(request["TableName"], request["Key"]))

    def _DeleteItem(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        self.write += write_units(1)

    def _TransactWriteItems(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        for entry in request["TransactItems"]:
            ((kind, operation),) = entry.items()
            if kind == "Put":
                size = item_size(operation["Item"])
            else:  # Update, ConditionCheck, Delete: the item as it is
                size = self._current(operation["TableName"], operation["Key"])
            self.write += write_units(size, transactional=True)

    def _TransactGetItems(self, request: dict[str, Any], parsed: dict[str, Any]) -> None:
        for answer in parsed.get("Responses", []):
            self.read += read_units(item_size(answer.get("Item") or {}), True, transactional=True)


def _written_keys(operation: str, request: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """(table, key) of every item a write request changes."""

    def key_of(item: dict[str, Any]) -> dict[str, Any]:
        return {name: item[name] for name in ("pk", "sk") if name in item}

    if operation == "PutItem":
        return [(request["TableName"], key_of(request["Item"]))]
    if operation in ("UpdateItem", "DeleteItem"):
        return [(request["TableName"], request["Key"])]
    if operation == "TransactWriteItems":
        found = []
        for entry in request["TransactItems"]:
            ((kind, change),) = entry.items()
            if kind != "ConditionCheck":
                found.append((change["TableName"], change.get("Key") or key_of(change["Item"])))
        return found
    return []
