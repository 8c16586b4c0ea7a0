"""What a bench counts of DynamoDB: the operations a client sent and the items their answers held."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Counted:
    """The DynamoDB operations sent while `counting()`: `items`, the items their answers held;
    `scanned`, the items DynamoDB read for them (a Query's ScannedCount, which a filter may exceed)."""

    calls: list[str] = field(default_factory=list)
    items: int = 0
    scanned: int = 0

    def before(self, model: Any = None, **_: Any) -> None:
        self.calls.append(model.name)

    def after(self, parsed: Any = None, **_: Any) -> None:
        parsed = parsed or {}
        held = int("Item" in parsed) + len(parsed.get("Items", []))
        held += sum(len(found) for found in parsed.get("Responses", {}).values())
        self.items += held
        self.scanned += int(parsed["ScannedCount"]) if "ScannedCount" in parsed else held

    @contextmanager
    def counting(self) -> Iterator[Counted]:
        self.calls, self.items, self.scanned = [], 0, 0
        yield self


def counted(client: Any) -> Counted:
    """A counter of every call `client` makes from now on."""
    counter = Counted()
    client.meta.events.register("before-call.dynamodb", counter.before)
    client.meta.events.register("after-call.dynamodb", counter.after)
    return counter
