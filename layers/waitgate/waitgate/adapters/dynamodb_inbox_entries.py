"""The pending index's items as the inbox's entries (docs/inbox.md, "What the index holds").

The index InboxByDeadline projects a node item's keys, the few attributes a listing shows and its
summary (`inboxSummary`, `waitgate.run.inbox_summary`), never its payload. An index item whose summary the
inbox can trust becomes an entry by itself; the former index PendingByDeadline copied whole items (but
the task token), which become entries as whole items do. Any other item (written before the summary
existed, or an approval whose terms did not fit its summary) gives no entry here: the inbox reads
that node item (`WHOLE`) and lists it by its own fields.
"""

from __future__ import annotations

from typing import Any

from waitgate.adapters.dynamodb_items import interrupt_from_item
from waitgate.adapters.dynamodb_keys import INBOX_SUMMARY, Item
from waitgate.run.inbox_records import PendingEntry
from waitgate.run.inbox_summary import decode, entry_of
from waitgate.run.records import RunRef

# What a fallback read takes of a node item: what `interrupt_from_item` needs, never the task token.
WHOLE = (
    "pk", "sk", "tenantId", "runId", "nodeId", "interruptId", "kind", "key", "payload", "requestedAt",
    "status", "version", "deadline", "votes", "asks", "escalation", "escalated",
)  # fmt: skip


def entry_from_index(item: Item) -> PendingEntry | None:
    """The index item's entry, or None: read the node item for it."""
    if INBOX_SUMMARY in item:
        summary = decode(item[INBOX_SUMMARY].get("S"), item["kind"]["S"])
        if summary is not None:
            return PendingEntry(
                run=RunRef(item["tenantId"]["S"], item["runId"]["S"]),
                node_id=item["nodeId"]["S"],
                interrupt_id=item["interruptId"]["S"],
                kind=item["kind"]["S"],
                requested_at=item["requestedAt"]["S"],
                status=item["status"]["S"],
                deadline=item.get("deadline", {}).get("S"),
                summary=summary,
            )
    if "payload" in item:  # the former index's whole copy
        return entry_from_node(item)
    return None


def entry_from_node(item: Item) -> PendingEntry:
    """A node item (as `WHOLE` reads it) as the inbox lists it."""
    return entry_of(interrupt_from_item(item))


def whole_read(keys: list[Item]) -> dict[str, Any]:
    """The BatchGetItem request's table part that reads `WHOLE` of these node items, consistently."""
    names = {f"#w{index}": name for index, name in enumerate(WHOLE)}
    return {
        "Keys": keys,
        "ConsistentRead": True,
        "ProjectionExpression": ", ".join(names),
        "ExpressionAttributeNames": names,
    }
