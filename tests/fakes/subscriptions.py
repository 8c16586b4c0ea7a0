"""The webhooks-out ports in memory: subscriptions, the delivery log, the queue, the run's events, and
a poster that answers what the test scripts (a status, or no answer at all)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from waitgate.errors import DeliveryFailedError
from waitgate.run.records import RunEvent, RunRef
from waitgate.subscriptions.records import DeliveryEntry, DeliveryStatus, QueuedDelivery, Subscription


@dataclass
class MemorySubscriptions:
    kept: dict[tuple[str, str], Subscription] = field(default_factory=dict)

    def add(self, subscription: Subscription) -> None:
        self.kept[(subscription.tenant_id, subscription.subscription_id)] = subscription

    def listed(self, tenant_id: str) -> tuple[Subscription, ...]:
        return tuple(s for (tenant, _), s in sorted(self.kept.items()) if tenant == tenant_id)

    def get(self, tenant_id: str, subscription_id: str) -> Subscription | None:
        return self.kept.get((tenant_id, subscription_id))

    def remove(self, tenant_id: str, subscription_id: str) -> bool:
        return self.kept.pop((tenant_id, subscription_id), None) is not None


@dataclass
class MemoryDeliveryLog:
    kept: dict[str, DeliveryEntry] = field(default_factory=dict)

    def entry(self, delivery: QueuedDelivery) -> DeliveryEntry | None:
        return self.kept.get(delivery.webhook_id)

    def record(self, entry: DeliveryEntry) -> None:
        self.kept[entry.delivery.webhook_id] = entry

    def entries(
        self, tenant_id: str, subscription_id: str, status: DeliveryStatus | None, limit: int
    ) -> tuple[DeliveryEntry, ...]:
        found = [
            e
            for e in self.kept.values()
            if (e.delivery.tenant_id, e.delivery.subscription_id) == (tenant_id, subscription_id)
            and (status is None or e.status == status)
        ]
        return tuple(sorted(found, key=lambda e: e.delivery.event_time, reverse=True)[:limit])

    def requeued(self, entry: DeliveryEntry, updated_at: str) -> None:
        kept = self.kept.get(entry.delivery.webhook_id)
        if kept is not None and kept.status == "parked":
            self.kept[entry.delivery.webhook_id] = replace(
                kept, status="pending", attempts=0, updated_at=updated_at, next_attempt_at=None
            )


@dataclass
class MemoryQueue:
    sent: list[QueuedDelivery] = field(default_factory=list)

    def enqueue(self, deliveries: Sequence[QueuedDelivery]) -> None:
        self.sent.extend(deliveries)


@dataclass
class MemoryRunEvents:
    kept: dict[tuple[str, str, int], RunEvent] = field(default_factory=dict)

    def add(self, run: RunRef, event: RunEvent) -> None:
        self.kept[(run.tenant_id, run.run_id, event.seq)] = event

    def event(self, run: RunRef, seq: int) -> RunEvent | None:
        return self.kept.get((run.tenant_id, run.run_id, seq))


@dataclass
class ScriptedPoster:
    """Answers each POST with the next of `answers` (an int status, or None: no answer), then 204."""

    answers: list[int | None] = field(default_factory=list)
    posts: list[dict[str, Any]] = field(default_factory=list)

    def post(self, url: str, secret: str, webhook_id: str, body: dict[str, Any], sent_at: datetime) -> int:
        self.posts.append(
            {"url": url, "secret": secret, "webhookId": webhook_id, "body": body, "at": sent_at}
        )
        answer = self.answers.pop(0) if self.answers else 204
        if answer is None:
            raise DeliveryFailedError("no answer: ConnectionRefusedError")
        return answer
