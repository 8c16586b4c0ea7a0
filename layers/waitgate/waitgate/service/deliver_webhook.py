"""One attempt of one webhook out (docs/webhooks-out.md): the deliverer's SQS message names a
subscription and an event; this reads both, signs the event as Standard Webhooks (its webhook-id the
same on every attempt) and POSTs it, then writes the subscription's delivery log.

- A 2xx: delivered, logged, never sent again (a duplicate message of the same webhook-id finds the
  log's `delivered` and stops there).
- Anything else (another status, no answer): `retrying` with the backoff the plan gives, or after the
  last attempt `parked` (the WebhookDeliveries metric, outcome parked, alarms), until a redrive.
- A subscription removed, or an event no longer kept: dropped (retrying cannot help).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import timedelta
from typing import Literal

from waitgate.errors import DeliveryFailedError
from waitgate.ports import Clock, Telemetry
from waitgate.run.clock import parse_rfc3339, rfc3339
from waitgate.run.records import RunEvent, RunRef
from waitgate.run.telemetry import WebhookAttempted
from waitgate.subscriptions.delivery_plan import Park, accepted, after_failure, short_error, webhook_body
from waitgate.subscriptions.ports import DeliveryLog, RunEvents, Subscriptions, WebhookPoster
from waitgate.subscriptions.records import DeliveryEntry, QueuedDelivery, Subscription


@dataclass(frozen=True)
class WebhookDeliveryDependencies:
    subscriptions: Subscriptions
    log: DeliveryLog
    events: RunEvents
    poster: WebhookPoster
    clock: Clock
    telemetry: Telemetry
    max_attempts: int
    retry_base_seconds: float


@dataclass(frozen=True)
class AttemptOutcome:
    outcome: Literal["delivered", "already-delivered", "dropped", "retrying", "parked"]
    retry_in_seconds: int | None = None


def deliver_webhook(delivery: QueuedDelivery, deps: WebhookDeliveryDependencies) -> AttemptOutcome:
    """One attempt. Attempts are counted in the log, not by SQS's ApproximateReceiveCount: a receive
    that never reached us (Lambda throttled, the batch returned) is no attempt, and a redrive starts
    the count again."""
    subscription = deps.subscriptions.get(delivery.tenant_id, delivery.subscription_id)
    if subscription is None:
        return AttemptOutcome("dropped")
    known = deps.log.entry(delivery)
    if known is not None and known.status == "delivered":
        return AttemptOutcome("already-delivered")
    event = deps.events.event(RunRef(delivery.tenant_id, delivery.run_id), delivery.seq)
    if event is None or event.type != delivery.event_type:
        return AttemptOutcome("dropped")
    attempts = (known.attempts if known is not None else 0) + 1
    return _settled(_posted(subscription, delivery, event, attempts, deps), deps)


def _posted(
    subscription: Subscription,
    delivery: QueuedDelivery,
    event: RunEvent,
    attempts: int,
    deps: WebhookDeliveryDependencies,
) -> DeliveryEntry:
    """The attempt made: `delivered` on a 2xx, else `pending` with what the receiver answered."""
    moment = deps.clock.now()
    now = rfc3339(moment)
    try:
        status_code = deps.poster.post(
            subscription.url,
            subscription.secret,
            delivery.webhook_id,
            webhook_body(delivery, event),
            moment,
        )
    except DeliveryFailedError as failure:
        return DeliveryEntry(delivery, "pending", attempts, now, last_error=short_error(failure.detail))
    if accepted(status_code):
        return DeliveryEntry(delivery, "delivered", attempts, now, status_code, delivered_at=now)
    return DeliveryEntry(delivery, "pending", attempts, now, status_code, f"HTTP {status_code}")


def _settled(entry: DeliveryEntry, deps: WebhookDeliveryDependencies) -> AttemptOutcome:
    """The attempt logged as delivered, retrying (with its backoff) or parked after the last one."""
    tenant_id = entry.delivery.tenant_id
    if entry.status == "delivered":
        deps.log.record(entry)
        deps.telemetry.record(WebhookAttempted("delivered", tenant_id))
        return AttemptOutcome("delivered")
    step = after_failure(entry.attempts, deps.max_attempts, deps.retry_base_seconds)
    if isinstance(step, Park):
        deps.log.record(replace(entry, status="parked"))
        deps.telemetry.record(WebhookAttempted("parked", tenant_id))
        return AttemptOutcome("parked")
    due = rfc3339(parse_rfc3339(entry.updated_at) + timedelta(seconds=step.delay_seconds))
    deps.log.record(replace(entry, status="retrying", next_attempt_at=due))
    deps.telemetry.record(WebhookAttempted("retrying", tenant_id))
    return AttemptOutcome("retrying", step.delay_seconds)
