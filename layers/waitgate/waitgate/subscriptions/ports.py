"""The ports of the webhooks out (docs/webhooks-out.md): the tenants' subscriptions, each one's
delivery log, the delivery queue, the run's events as the log keeps them, and the signed POST."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol

from waitgate.run.records import RunEvent, RunRef
from waitgate.subscriptions.records import DeliveryEntry, DeliveryStatus, QueuedDelivery, Subscription


class Subscriptions(Protocol):
    def add(self, subscription: Subscription) -> None: ...

    def listed(self, tenant_id: str) -> tuple[Subscription, ...]:
        """The tenant's subscriptions, oldest first."""
        ...

    def get(self, tenant_id: str, subscription_id: str) -> Subscription | None: ...

    def remove(self, tenant_id: str, subscription_id: str) -> bool:
        """False when there was none."""
        ...


class DeliveryLog(Protocol):
    def entry(self, delivery: QueuedDelivery) -> DeliveryEntry | None: ...

    def record(self, entry: DeliveryEntry) -> None:
        """Kept (30 days) under the subscription, the entry of its webhook-id replaced."""
        ...

    def entries(
        self, tenant_id: str, subscription_id: str, status: DeliveryStatus | None, limit: int
    ) -> tuple[DeliveryEntry, ...]:
        """The subscription's entries, newest event first (of one status, if given)."""
        ...

    def requeued(self, entry: DeliveryEntry, updated_at: str) -> None:
        """A parked entry made pending with no attempts, only if it is still parked (the deliverer
        may have delivered it since its redrive queued it)."""
        ...


class DeliveryQueue(Protocol):
    def enqueue(self, deliveries: Sequence[QueuedDelivery]) -> None:
        """Every one sent, or an error (a retry sends them again: the webhook-id stays the same)."""
        ...


class RunEvents(Protocol):
    def event(self, run: RunRef, seq: int) -> RunEvent | None: ...


class WebhookPoster(Protocol):
    def post(self, url: str, secret: str, webhook_id: str, body: dict[str, Any], sent_at: datetime) -> int:
        """The receiver's HTTP status; DeliveryFailedError when no answer came (refused, timed out)."""
        ...
