"""What the outbox consumer reads in a DynamoDB stream record's NewImage (deserialized values).

Only a node item whose interrupt ended (resolved or expired) and was not marked delivered is work;
the template's FilterCriteria says the same, so on AWS the consumer never sees the rest (the local
stack does not filter, and a filter is no reason to trust a record: the consumer re-reads the item).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from waitgate.adapters.dynamodb_items import node_sk
from waitgate.records import ENDED_STATUSES, RunRef


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
