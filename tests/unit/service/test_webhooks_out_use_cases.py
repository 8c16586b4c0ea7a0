"""The webhooks-out use cases on in-memory ports: managing a tenant's subscriptions, the stream's
fan-out, and one delivery attempt (delivered once, retried with backoff, parked, redriven)."""

from __future__ import annotations

from dataclasses import replace
from itertools import count

import pytest

from tests.fakes.memory import FixedClock
from tests.fakes.subscriptions import (
    MemoryDeliveryLog,
    MemoryQueue,
    MemoryRunEvents,
    MemorySubscriptions,
    ScriptedPoster,
)
from tests.fakes.telemetry import RecordingTelemetry
from waitgate.errors import NotFoundError, TooManySubscriptionsError, ValidationFailedError
from waitgate.run.identity import Caller
from waitgate.run.records import RunEvent, RunRef
from waitgate.run.telemetry import WebhookAttempted
from waitgate.service.deliver_webhook import WebhookDeliveryDependencies, deliver_webhook
from waitgate.service.fan_out_webhooks import fan_out
from waitgate.service.manage_subscriptions import (
    MAX_SUBSCRIPTIONS,
    SubscriptionDependencies,
    add_subscription,
    list_deliveries,
    list_subscriptions,
    redrive,
    remove_subscription,
)
from waitgate.subscriptions.records import LifecycleEvent, QueuedDelivery

OPS = Caller(principal="ops", tenant_id="default", via="jwt", scopes=frozenset({"subscriptions:manage"}))
OTHER = replace(OPS, tenant_id="acme")
URL = "https://agents.example.com/hooks"
RUN = RunRef("default", "run-1")
RESOLVED = RunEvent(
    2, "interrupt.resolved", "2026-12-03T08:00:01.000Z", {"resumeValue": {"ok": True}}, "Approve"
)


@pytest.fixture
def manage() -> SubscriptionDependencies:
    ids = count(1)
    return SubscriptionDependencies(
        subscriptions=MemorySubscriptions(),
        log=MemoryDeliveryLog(),
        queue=MemoryQueue(),
        clock=FixedClock(),
        new_id=lambda: f"01SUB{next(ids):021d}",
        new_key=lambda: bytes(32),
        loopback_http=False,
    )


def deliverer(manage: SubscriptionDependencies, poster: ScriptedPoster) -> WebhookDeliveryDependencies:
    events = MemoryRunEvents()
    events.add(RUN, RESOLVED)
    return WebhookDeliveryDependencies(
        subscriptions=manage.subscriptions,
        log=manage.log,
        events=events,
        poster=poster,
        clock=manage.clock,
        telemetry=RecordingTelemetry(),
        max_attempts=3,
        retry_base_seconds=30,
    )


def delivery_of(subscription_id: str) -> QueuedDelivery:
    return QueuedDelivery("default", subscription_id, "run-1", 2, "interrupt.resolved", RESOLVED.time)


def test_a_subscription_answers_its_secret_once_and_lists_without_it(
    manage: SubscriptionDependencies,
) -> None:
    made = add_subscription(OPS, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    assert made["secret"].startswith("whsec_") and made["id"].startswith("sub_")
    assert list_subscriptions(OPS, manage) == {
        "subscriptions": [{k: v for k, v in made.items() if k != "secret"}]
    }
    assert list_subscriptions(OTHER, manage) == {"subscriptions": []}
    with pytest.raises(NotFoundError):
        remove_subscription(OTHER, made["id"], manage)
    remove_subscription(OPS, made["id"], manage)
    assert list_subscriptions(OPS, manage) == {"subscriptions": []}


def test_a_tenant_has_at_most_its_share_of_subscriptions(manage: SubscriptionDependencies) -> None:
    for _ in range(MAX_SUBSCRIPTIONS):
        add_subscription(OPS, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    with pytest.raises(TooManySubscriptionsError):
        add_subscription(OPS, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    assert add_subscription(OTHER, {"url": URL, "events": ["interrupt.resolved"]}, manage)


@pytest.mark.parametrize("subscription_id", ["", "sub_", "sub_../x", "nope", "sub_" + "a" * 80, "sub_é"])
def test_an_id_that_names_no_subscription_is_not_found(
    manage: SubscriptionDependencies, subscription_id: str
) -> None:
    for act in (
        lambda: remove_subscription(OPS, subscription_id, manage),
        lambda: list_deliveries(OPS, subscription_id, None, None, manage),
        lambda: redrive(OPS, subscription_id, manage),
    ):
        with pytest.raises(NotFoundError):
            act()


def test_the_fan_out_queues_one_delivery_per_subscription_that_names_the_type(
    manage: SubscriptionDependencies,
) -> None:
    resolved = add_subscription(OPS, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    add_subscription(OPS, {"url": URL, "events": ["interrupt.requested"]}, manage)
    add_subscription(OTHER, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    event = LifecycleEvent("default", "run-1", 2, "interrupt.resolved", RESOLVED.time)
    assert fan_out(event, manage.subscriptions, manage.queue) == 1
    assert fan_out(replace(event, event_type="approval.resolved"), manage.subscriptions, manage.queue) == 0
    assert manage.queue.sent == [delivery_of(resolved["id"])]  # type: ignore[attr-defined]


def test_a_delivery_is_sent_signed_once_and_a_duplicate_is_not_sent_again(
    manage: SubscriptionDependencies,
) -> None:
    made = add_subscription(OPS, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    poster = ScriptedPoster([204])
    deps = deliverer(manage, poster)
    delivery = delivery_of(made["id"])
    assert deliver_webhook(delivery, deps).outcome == "delivered"
    assert deliver_webhook(delivery, deps).outcome == "already-delivered"
    (post,) = poster.posts
    assert (post["url"], post["secret"], post["webhookId"]) == (URL, made["secret"], delivery.webhook_id)
    assert post["body"]["data"]["payload"] == {"resumeValue": {"ok": True}}
    assert deps.telemetry.of(WebhookAttempted) == [WebhookAttempted("delivered", "default")]  # type: ignore[attr-defined]


def test_failed_attempts_back_off_then_park_then_a_redrive_queues_it_with_its_webhook_id(
    manage: SubscriptionDependencies,
) -> None:
    made = add_subscription(OPS, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    deps = deliverer(manage, ScriptedPoster([503, None, 500, 200]))
    delivery = delivery_of(made["id"])
    outcomes = [deliver_webhook(delivery, deps) for _ in range(3)]
    assert [(o.outcome, o.retry_in_seconds) for o in outcomes] == [
        ("retrying", 30),
        ("retrying", 60),
        ("parked", None),
    ]
    (entry,) = list_deliveries(OPS, made["id"], "parked", None, manage)["deliveries"]
    assert (entry["attempts"], entry["lastStatusCode"], entry["lastError"]) == (3, 500, "HTTP 500")
    assert redrive(OPS, made["id"], manage) == {"subscriptionId": made["id"], "redriven": 1}
    assert manage.queue.sent == [delivery]  # type: ignore[attr-defined]
    assert deliver_webhook(delivery, deps).outcome == "delivered"
    (entry,) = list_deliveries(OPS, made["id"], None, "10", manage)["deliveries"]
    assert (entry["status"], entry["attempts"], entry["webhookId"]) == ("delivered", 1, delivery.webhook_id)
    assert redrive(OPS, made["id"], manage)["redriven"] == 0


def test_a_removed_subscription_or_a_lost_event_is_dropped_unsent(manage: SubscriptionDependencies) -> None:
    made = add_subscription(OPS, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    poster = ScriptedPoster()
    deps = deliverer(manage, poster)
    assert deliver_webhook(replace(delivery_of(made["id"]), seq=9), deps).outcome == "dropped"
    remove_subscription(OPS, made["id"], manage)
    assert deliver_webhook(delivery_of(made["id"]), deps).outcome == "dropped"
    assert poster.posts == []


@pytest.mark.parametrize(
    ("status", "limit"), [("done", None), (None, "0"), (None, "101"), (None, "1e3"), (None, "-1")]
)
def test_a_bad_listing_query_is_a_validation_error(
    manage: SubscriptionDependencies, status: str | None, limit: str | None
) -> None:
    made = add_subscription(OPS, {"url": URL, "events": ["interrupt.resolved"]}, manage)
    with pytest.raises(ValidationFailedError):
        list_deliveries(OPS, made["id"], status, limit, manage)
