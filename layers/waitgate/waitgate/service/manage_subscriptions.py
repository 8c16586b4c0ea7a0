"""The webhooks-out subscriptions of a tenant (docs/webhooks-out.md): `POST|GET /subscriptions`,
`DELETE /subscriptions/{id}`, `GET /subscriptions/{id}/deliveries`, `POST /subscriptions/{id}/redrive`.

The caller's tenant is the only one it sees: another tenant's subscription is `404 not_found`, as a
run is. The secret is answered once, by the POST that made (or took) it; a list never shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from waitgate.errors import NotFoundError, TooManySubscriptionsError, ValidationFailedError
from waitgate.ports import Clock
from waitgate.run.clock import rfc3339
from waitgate.run.identity import Caller
from waitgate.subscriptions.ports import DeliveryLog, DeliveryQueue, Subscriptions
from waitgate.subscriptions.records import DELIVERY_STATUSES, DeliveryStatus, Subscription
from waitgate.subscriptions.targets import closed_members, new_secret, parse_events, parse_secret, parse_url

MAX_SUBSCRIPTIONS: Final = 20  # per tenant: every lifecycle event fans out to each
MAX_LISTED: Final = 100
MAX_REDRIVE: Final = 100  # parked entries one redrive sends again (call it again for more)
MAX_ID_LENGTH: Final = 64


@dataclass(frozen=True)
class SubscriptionDependencies:
    subscriptions: Subscriptions
    log: DeliveryLog
    queue: DeliveryQueue
    clock: Clock
    new_id: Callable[[], str]
    new_key: Callable[[], bytes]
    loopback_http: bool


def add_subscription(caller: Caller, body: Any, deps: SubscriptionDependencies) -> dict[str, Any]:
    members = closed_members(body, ("url", "events", "secret"))
    if "url" not in members or "events" not in members:
        raise ValidationFailedError("The body needs url and events.", path="$")
    url = parse_url(members["url"], loopback_http=deps.loopback_http)
    events = parse_events(members["events"])
    secret = parse_secret(members.get("secret")) or new_secret(deps.new_key())
    if len(deps.subscriptions.listed(caller.tenant_id)) >= MAX_SUBSCRIPTIONS:
        raise TooManySubscriptionsError(f"A tenant has at most {MAX_SUBSCRIPTIONS} subscriptions.")
    subscription = Subscription(
        caller.tenant_id, "sub_" + deps.new_id(), url, events, secret, rfc3339(deps.clock.now())
    )
    deps.subscriptions.add(subscription)
    return subscription.public(with_secret=True)


def list_subscriptions(caller: Caller, deps: SubscriptionDependencies) -> dict[str, Any]:
    listed = deps.subscriptions.listed(caller.tenant_id)
    return {"subscriptions": [subscription.public(with_secret=False) for subscription in listed]}


def remove_subscription(caller: Caller, subscription_id: str, deps: SubscriptionDependencies) -> None:
    """Its queued deliveries are dropped when they come (the deliverer finds no subscription)."""
    if not deps.subscriptions.remove(caller.tenant_id, _checked_id(subscription_id)):
        raise NotFoundError("No such subscription.")


def list_deliveries(
    caller: Caller,
    subscription_id: str,
    status: str | None,
    limit: str | None,
    deps: SubscriptionDependencies,
) -> dict[str, Any]:
    wanted, most = _status(status), _limit(limit)  # a malformed query is a 400 before anything is read
    subscription = _owned(caller, subscription_id, deps)
    entries = deps.log.entries(caller.tenant_id, subscription.subscription_id, wanted, most)
    return {"subscriptionId": subscription.subscription_id, "deliveries": [e.public() for e in entries]}


def redrive(caller: Caller, subscription_id: str, deps: SubscriptionDependencies) -> dict[str, Any]:
    """The parked deliveries queued again, each with its webhook-id, as pending with a fresh count of
    attempts; those that park again can be redriven again."""
    subscription = _owned(caller, subscription_id, deps)
    parked = deps.log.entries(caller.tenant_id, subscription.subscription_id, "parked", MAX_REDRIVE)
    now = rfc3339(deps.clock.now())
    deps.queue.enqueue([entry.delivery for entry in parked])  # first: a failed send leaves them parked
    for entry in parked:
        deps.log.requeued(entry, now)
    return {"subscriptionId": subscription.subscription_id, "redriven": len(parked)}


def _owned(caller: Caller, subscription_id: str, deps: SubscriptionDependencies) -> Subscription:
    subscription = deps.subscriptions.get(caller.tenant_id, _checked_id(subscription_id))
    if subscription is None:
        raise NotFoundError("No such subscription.")
    return subscription


def _checked_id(subscription_id: str) -> str:
    if not subscription_id.startswith("sub_") or len(subscription_id) > MAX_ID_LENGTH:
        raise NotFoundError("No such subscription.")
    if not subscription_id[4:].isalnum() or not subscription_id.isascii():
        raise NotFoundError("No such subscription.")
    return subscription_id


def _status(raw: str | None) -> DeliveryStatus | None:
    if raw is None:
        return None
    for status in DELIVERY_STATUSES:
        if raw == status:
            return status
    raise ValidationFailedError(f"status must be one of {', '.join(DELIVERY_STATUSES)}.", path="status")


def _limit(raw: str | None) -> int:
    if raw is None:
        return MAX_LISTED
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw[:4]) <= MAX_LISTED or len(raw) > 3:
        raise ValidationFailedError(f"limit must be an integer from 1 to {MAX_LISTED}.", path="limit")
    return int(raw)
