"""What the stream consumers read in a DynamoDB stream record: the outbox, an undelivered ending in the
NewImage (deserialized values); delete_schedules, an interrupt that ended with schedules (typed images);
the ledger and the webhooks out, the one run event an INSERT committed (typed images).

Only a node item whose interrupt ended (resolved or expired) and was not marked delivered is work for
the outbox; the template's FilterCriteria says the same, so on AWS the consumer never sees the rest (the
local stack does not filter, and a filter is no reason to trust a record: the consumer re-reads the item).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from waitgate.adapters.dynamodb_items import event_from_item, interrupt_from_item
from waitgate.adapters.dynamodb_keys import is_event_sk, node_sk
from waitgate.run.records import ENDED_STATUSES, InterruptRecord, RunEvent, RunRef
from waitgate.subscriptions.records import LifecycleEvent
from waitgate.subscriptions.targets import EVENT_TYPES


@dataclass(frozen=True)
class DeliveryTarget:
    run: RunRef
    node_id: str
    interrupt_id: str


def undelivered_ending(image: Mapping[str, Any]) -> DeliveryTarget | None:
    """The interrupt a NewImage asks the outbox to deliver, or None when it asks nothing."""
    sk = image.get("sk")
    if not isinstance(sk, str) or not sk.startswith(node_sk("")):
        return None
    if image.get("status") not in ENDED_STATUSES or "deliveredAt" in image:
        return None
    return DeliveryTarget(
        RunRef(str(image["tenantId"]), str(image["runId"])), str(image["nodeId"]), str(image["interruptId"])
    )


SCHEDULED_ENDINGS = frozenset({"resolved", "expired", "cancelled"})


def ended_interrupt(change: Mapping[str, Any]) -> InterruptRecord | None:
    """The interrupt a stream record (its `dynamodb` member, typed images) shows ending — pending in the
    OldImage, resolved, expired or cancelled in the NewImage — when it was given schedules; else None."""
    keys, old, new = change.get("Keys", {}), change.get("OldImage") or {}, change.get("NewImage") or {}
    if not str(keys.get("sk", {}).get("S", "")).startswith(node_sk("")):
        return None
    if old.get("status", {}).get("S") != "pending" or new.get("status", {}).get("S") not in SCHEDULED_ENDINGS:
        return None
    if old.get("interruptId") != new.get("interruptId"):
        return None
    if "deadline" not in new and "escalation" not in new:
        return None
    return interrupt_from_item(new)


DECIDED_STATUSES = frozenset({"resolved", "expired", "cancelled"})


def decided_interrupt(new_image: Mapping[str, Any], old_image: Mapping[str, Any]) -> DeliveryTarget | None:
    """The interrupt this change decided (its node item went from pending to resolved, expired or
    cancelled), or None: the template's FilterCriteria for the Slack refresh says the same."""
    sk = new_image.get("sk")
    if not isinstance(sk, str) or not sk.startswith(node_sk("")):
        return None
    if new_image.get("status") not in DECIDED_STATUSES or old_image.get("status") != "pending":
        return None
    if new_image.get("interruptId") != old_image.get("interruptId"):
        return None
    return DeliveryTarget(
        RunRef(str(new_image["tenantId"]), str(new_image["runId"])),
        str(new_image["nodeId"]),
        str(new_image["interruptId"]),
    )


@dataclass(frozen=True)
class LedgerSource:
    run: RunRef
    event: RunEvent


def inserted_event(raw: Mapping[str, Any]) -> LedgerSource | None:
    """The run event a stream record inserted (an EVT# item, typed NewImage) with its run, or None.
    Only an INSERT: an event item is written once (conditioned on not existing) and never changed."""
    change = raw.get("dynamodb", {})
    if raw.get("eventName") != "INSERT":
        return None
    keys, new = change.get("Keys", {}), change.get("NewImage") or {}
    if not is_event_sk(str(keys.get("sk", {}).get("S", ""))):
        return None
    prefix, _, rest = str(keys.get("pk", {}).get("S", "")).partition("#")
    tenant_id, _, run_id = rest.partition("#")
    if prefix != "RUN" or not tenant_id or not run_id:
        return None
    return LedgerSource(RunRef(tenant_id, run_id), event_from_item(new))


def lifecycle_event(source: LedgerSource) -> LifecycleEvent | None:
    """The lifecycle event an inserted run event is for the webhooks out (interrupt.requested,
    .resolved, .expired, .cancelled), or None for any other type. The template's one FilterCriteria
    for inserted events lets these through with the ledger's."""
    event = source.event
    if event.type not in EVENT_TYPES:
        return None
    return LifecycleEvent(source.run.tenant_id, source.run.run_id, event.seq, event.type, event.time)
