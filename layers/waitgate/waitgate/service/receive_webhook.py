"""A webhook delivery (`POST /webhooks/{source}`): verified, kept, matched (docs/webhooks.md).

Order: the source (unknown → 401) → its signature with any of its secrets (forged, stale, wrong
secret → the same 401; nothing is stored before this) → the event read where the source says (400,
413) → kept, unless a delivery with the same id was kept before (a provider's retry: answered 200,
nothing changes) → the waits it matches resolved through the one resolve path (`match_event`).
What matches nothing stays kept for the source's TTL, for a wait that comes later.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from waitgate.errors import UnauthorizedError
from waitgate.run.clock import rfc3339
from waitgate.run.records import ExternalEventRef
from waitgate.run.webhook_records import KeptEvent
from waitgate.service.match_event import MatchDependencies, resolve_waiting
from waitgate.webhooks.events import read_event
from waitgate.webhooks.matching import event_id
from waitgate.webhooks.ports import WebhookSources
from waitgate.webhooks.signatures import is_signed
from waitgate.webhooks.sources import ConfiguredSource

REFUSED = "The webhook is not signed by a source this host knows."


@dataclass(frozen=True)
class WebhookDelivery:
    source: str
    body: bytes  # as signed
    headers: Mapping[str, str]

    @property
    def lower_headers(self) -> dict[str, str]:
        return {str(name).lower(): str(value) for name, value in self.headers.items()}


@dataclass(frozen=True)
class WebhookDependencies:
    sources: WebhookSources
    matching: MatchDependencies


@dataclass(frozen=True)
class WebhookReceipt:
    status: Literal["matched", "kept", "duplicate"]
    event_id: str
    resolved: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"status": self.status, "eventId": self.event_id, "resolved": self.resolved}


def receive_webhook(delivery: WebhookDelivery, deps: WebhookDependencies) -> WebhookReceipt:
    headers = delivery.lower_headers
    configured = _verified(delivery, headers, deps)
    source = configured.source
    received = read_event(source, delivery.body, headers)
    now = deps.matching.clock.now()
    event = KeptEvent(
        ref=ExternalEventRef(source.name, event_id(source.name, received.delivery_id)),
        tenant_id=source.tenant_id,
        event_type=received.event_type,
        delivery_id=received.delivery_id,
        received_at=rfc3339(now),
        expires_at_epoch=int(now.timestamp()) + source.ttl_seconds,
        data=received.data,
        resume_value=received.resume_value,
        match_many=source.match_many,
    )
    earlier = deps.matching.events.keep(event)
    if earlier is not None and earlier.status != "unmatched":
        return WebhookReceipt("duplicate", earlier.ref.event_id)
    # a retry of an event still unmatched looks again: a first delivery cut short between keeping and
    # matching is finished by its retry (the conditional writes make a second look change nothing else)
    resolved = resolve_waiting(earlier or event, deps.matching)
    if resolved:
        return WebhookReceipt("matched", event.ref.event_id, len(resolved))
    return WebhookReceipt("duplicate" if earlier is not None else "kept", event.ref.event_id)


def _verified(
    delivery: WebhookDelivery, headers: dict[str, str], deps: WebhookDependencies
) -> ConfiguredSource:
    configured = deps.sources.source(delivery.source)
    now = deps.matching.clock.now().timestamp()
    if configured is None or not is_signed(
        configured.source, configured.secrets, delivery.body, headers, now
    ):
        raise UnauthorizedError(REFUSED)
    return configured
