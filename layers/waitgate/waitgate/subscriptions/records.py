"""What the webhooks out keep: a tenant's subscription, one queued delivery (what the queue carries:
names only, never the event's payload or the secret), and its entry in the subscription's delivery
log."""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from typing import Any, Literal

DeliveryStatus = Literal["pending", "retrying", "delivered", "parked"]
DELIVERY_STATUSES: tuple[DeliveryStatus, ...] = ("pending", "retrying", "delivered", "parked")


@dataclass(frozen=True)
class LifecycleEvent:
    """An event of the run's log that the webhooks out carry (what the stream saw committed)."""

    tenant_id: str
    run_id: str
    seq: int
    event_type: str
    time: str


@dataclass(frozen=True)
class Subscription:
    tenant_id: str
    subscription_id: str
    url: str
    events: tuple[str, ...]
    secret: str
    created_at: str

    def public(self, *, with_secret: bool) -> dict[str, Any]:
        """As the API answers it: the secret only when it was just made (POST), never in a list."""
        shown: dict[str, Any] = {
            "id": self.subscription_id,
            "url": self.url,
            "events": list(self.events),
            "createdAt": self.created_at,
        }
        if with_secret:
            shown["secret"] = self.secret
        return shown


@dataclass(frozen=True)
class QueuedDelivery:
    """One event for one subscription. Everything that names it is here, so its webhook-id is the same
    on every attempt, every redrive and every duplicate the stream may bring."""

    tenant_id: str
    subscription_id: str
    run_id: str
    seq: int
    event_type: str
    event_time: str

    @property
    def webhook_id(self) -> str:
        named = "\x00".join((self.tenant_id, self.subscription_id, self.run_id, str(self.seq)))
        digest = hashlib.sha256(named.encode("utf-8")).digest()[:20]
        return "msg_" + base64.b32encode(digest).decode("ascii").lower()

    def to_document(self) -> dict[str, Any]:
        return {
            "tenantId": self.tenant_id,
            "subscriptionId": self.subscription_id,
            "runId": self.run_id,
            "seq": self.seq,
            "type": self.event_type,
            "time": self.event_time,
        }

    @classmethod
    def from_document(cls, document: Any) -> QueuedDelivery:
        """ValueError when it is not one (a message nobody of ours sent)."""
        if not isinstance(document, dict):
            raise ValueError("not an object")
        names = ("tenantId", "subscriptionId", "runId", "type", "time")
        if not all(isinstance(document.get(name), str) for name in names):
            raise ValueError("a member is missing")
        seq = document.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
            raise ValueError("seq is not a sequence number")
        return cls(
            document["tenantId"],
            document["subscriptionId"],
            document["runId"],
            seq,
            document["type"],
            document["time"],
        )


@dataclass(frozen=True)
class DeliveryEntry:
    """The log's line for one webhook-id: where it stands and what its last attempt met."""

    delivery: QueuedDelivery
    status: DeliveryStatus
    attempts: int = 0
    updated_at: str = ""
    last_status_code: int | None = None
    last_error: str | None = None
    delivered_at: str | None = None
    next_attempt_at: str | None = None

    def public(self) -> dict[str, Any]:
        shown: dict[str, Any] = {
            "webhookId": self.delivery.webhook_id,
            "type": self.delivery.event_type,
            "runId": self.delivery.run_id,
            "seq": self.delivery.seq,
            "eventTime": self.delivery.event_time,
            "status": self.status,
            "attempts": self.attempts,
            "updatedAt": self.updated_at,
        }
        optional = {
            "lastStatusCode": self.last_status_code,
            "lastError": self.last_error,
            "deliveredAt": self.delivered_at,
            "nextAttemptAt": self.next_attempt_at,
        }
        shown.update({name: value for name, value in optional.items() if value is not None})
        return shown
