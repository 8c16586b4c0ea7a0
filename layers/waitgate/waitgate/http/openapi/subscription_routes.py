"""The webhooks-out routes in the document (docs/webhooks-out.md): `/subscriptions` and a
subscription's deliveries and redrive, scope subscriptions:manage; their bodies and parameters."""

from __future__ import annotations

from typing import Any, Final, Literal

from pydantic import BaseModel, Field

from waitgate import errors as e
from waitgate.http.openapi.body_config import CLOSED
from waitgate.http.openapi.operations import Operation, Reply, refusals
from waitgate.service.manage_subscriptions import MAX_LISTED
from waitgate.subscriptions.records import DELIVERY_STATUSES
from waitgate.subscriptions.targets import EVENT_TYPES, MAX_URL_LENGTH

SCOPE: Final = "subscriptions:manage"
EventType = Literal["interrupt.requested", "interrupt.resolved", "interrupt.expired", "interrupt.cancelled"]
DeliveryStatus = Literal["pending", "retrying", "delivered", "parked"]
assert set(EventType.__args__) == set(EVENT_TYPES)  # type: ignore[attr-defined]
assert set(DeliveryStatus.__args__) == set(DELIVERY_STATUSES)  # type: ignore[attr-defined]


class SubscriptionRequest(BaseModel):
    model_config = CLOSED

    url: str = Field(
        max_length=MAX_URL_LENGTH, description="https (on the local stack also http://127.0.0.1:<port>)."
    )
    events: list[EventType] = Field(min_length=1, max_length=8)
    secret: str | None = Field(default=None, description="whsec_ + base64 of 24..64 bytes; made if absent.")


class Subscription(BaseModel):
    model_config = CLOSED

    id: str
    url: str
    events: list[EventType]
    created_at: str
    secret: str | None = Field(default=None, description="Only in the answer of the POST that made it.")


class SubscriptionList(BaseModel):
    model_config = CLOSED

    subscriptions: list[Subscription]


class WebhookDelivery(BaseModel):
    model_config = CLOSED

    webhook_id: str = Field(description="The `webhook-id` header: the same on every attempt and redrive.")
    type: EventType
    run_id: str
    seq: int
    event_time: str
    status: DeliveryStatus
    attempts: int
    updated_at: str
    last_status_code: int | None = None
    last_error: str | None = None
    delivered_at: str | None = None
    next_attempt_at: str | None = None


class WebhookDeliveryLog(BaseModel):
    model_config = CLOSED

    subscription_id: str
    deliveries: list[WebhookDelivery]


class Redriven(BaseModel):
    model_config = CLOSED

    subscription_id: str
    redriven: int = Field(description="How many parked deliveries were queued again.")


SUBSCRIPTION_MODELS: Final = (
    SubscriptionRequest,
    SubscriptionList,
    Subscription,
    WebhookDeliveryLog,
    Redriven,
)
SUBSCRIPTION_PARAMETERS: Final[dict[str, dict[str, Any]]] = {
    "subscriptionId": {
        "in": "path",
        "schema": {"type": "string", "pattern": "^sub_[A-Za-z0-9]{1,60}$"},
        "description": "The subscription (`id` of its POST's answer).",
    },
    "deliveryStatus": {
        "name": "status",
        "in": "query",
        "schema": {"type": "string", "enum": list(DELIVERY_STATUSES)},
        "description": "Only deliveries of this status.",
    },
    "deliveriesLimit": {
        "name": "limit",
        "in": "query",
        "schema": {"type": "integer", "minimum": 1, "maximum": MAX_LISTED, "default": MAX_LISTED},
        "description": "At most this many deliveries.",
    },
}
GATEWAY = (e.UnauthorizedError,)
AWS = (e.TemporarilyUnavailableError,)
NO_STORE = ("Cache-Control",)
TAGS = ("webhooks-out",)
SUBSCRIPTION_OPERATIONS: Final[tuple[Operation, ...]] = (
    Operation(
        "addSubscription",
        "post",
        "/subscriptions",
        "Subscribe a URL to an interrupt's lifecycle events, delivered as signed Standard Webhooks",
        (
            Reply(
                201, "The subscription, with its secret (shown this once).", "Subscription", headers=NO_STORE
            ),
            *refusals(
                e.ValidationFailedError,
                e.SubscriptionUrlRefusedError,
                e.UnknownEventTypeError,
                *GATEWAY,
                e.ForbiddenError,
                e.TooManySubscriptionsError,
                e.PayloadTooLargeError,
                e.UnsupportedMediaTypeError,
                *AWS,
            ),
        ),
        scope=SCOPE,
        body="SubscriptionRequest",
        tags=TAGS,
    ),
    Operation(
        "listSubscriptions",
        "get",
        "/subscriptions",
        "The tenant's subscriptions (never their secrets)",
        (
            Reply(200, "The subscriptions, oldest first.", "SubscriptionList", headers=NO_STORE),
            *refusals(*GATEWAY, e.ForbiddenError, *AWS),
        ),
        scope=SCOPE,
        tags=TAGS,
    ),
    Operation(
        "removeSubscription",
        "delete",
        "/subscriptions/{subscriptionId}",
        "Remove a subscription (its queued deliveries are dropped)",
        (
            Reply(204, "Removed.", media=(), headers=NO_STORE),
            *refusals(*GATEWAY, e.ForbiddenError, e.NotFoundError, *AWS),
        ),
        scope=SCOPE,
        tags=TAGS,
    ),
    Operation(
        "listSubscriptionDeliveries",
        "get",
        "/subscriptions/{subscriptionId}/deliveries",
        "A subscription's delivery log, newest event first (kept 30 days)",
        (
            Reply(200, "The deliveries.", "WebhookDeliveryLog", headers=NO_STORE),
            *refusals(e.ValidationFailedError, *GATEWAY, e.ForbiddenError, e.NotFoundError, *AWS),
        ),
        scope=SCOPE,
        query=("deliveryStatus", "deliveriesLimit"),
        tags=TAGS,
    ),
    Operation(
        "redriveSubscription",
        "post",
        "/subscriptions/{subscriptionId}/redrive",
        "Queue a subscription's parked deliveries again (each keeps its webhook-id)",
        (
            Reply(200, "How many were queued again.", "Redriven", headers=NO_STORE),
            *refusals(*GATEWAY, e.ForbiddenError, e.NotFoundError, *AWS),
        ),
        scope=SCOPE,
        tags=TAGS,
    ),
)
