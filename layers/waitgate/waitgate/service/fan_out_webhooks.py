"""The stream's webhooks-out consumer (docs/webhooks-out.md): a lifecycle event the log committed
(`interrupt.requested`, `.resolved`, `.expired`, `.cancelled`) becomes one queued delivery per
subscription of its tenant that names its type. The queue carries names only; the deliverer reads
the event and the secret itself.

Run by dispatch_stream, whose progress keeps a succeeded fan-out from running again; should a retry
queue one twice, both carry the same webhook-id and the delivery log delivers it once.
"""

from __future__ import annotations

from waitgate.subscriptions.ports import DeliveryQueue, Subscriptions
from waitgate.subscriptions.records import LifecycleEvent, QueuedDelivery
from waitgate.subscriptions.targets import EVENT_TYPES


def fan_out(event: LifecycleEvent, subscriptions: Subscriptions, queue: DeliveryQueue) -> int:
    """How many deliveries were queued."""
    if event.event_type not in EVENT_TYPES:
        return 0
    deliveries = [
        QueuedDelivery(
            event.tenant_id,
            subscription.subscription_id,
            event.run_id,
            event.seq,
            event.event_type,
            event.time,
        )
        for subscription in subscriptions.listed(event.tenant_id)
        if event.event_type in subscription.events
    ]
    if deliveries:
        queue.enqueue(deliveries)
    return len(deliveries)
