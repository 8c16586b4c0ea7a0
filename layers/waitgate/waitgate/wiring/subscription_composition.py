"""Wires the webhooks out (docs/webhooks-out.md): the subscriptions (directory table), the delivery
log and the run's events (interrupts table), the delivery queue (Settings.webhook_queue), the signed POST."""

from __future__ import annotations

import secrets
from functools import lru_cache
from typing import TYPE_CHECKING

from waitgate.run.clock import SystemClock
from waitgate.wiring.composition import aws_client, telemetry
from waitgate.wiring.settings import settings

if TYPE_CHECKING:
    from waitgate.service.deliver_webhook import WebhookDeliveryDependencies
    from waitgate.service.manage_subscriptions import SubscriptionDependencies
    from waitgate.subscriptions.ports import DeliveryLog, DeliveryQueue, Subscriptions


@lru_cache(maxsize=1)
def subscriptions() -> Subscriptions:
    from waitgate.adapters.dynamodb_subscriptions import DynamoDbSubscriptions

    return DynamoDbSubscriptions(aws_client("dynamodb"), settings().directory_table_name)


@lru_cache(maxsize=1)
def delivery_log() -> DeliveryLog:
    from waitgate.adapters.dynamodb_delivery_log import DynamoDbDeliveryLog

    return DynamoDbDeliveryLog(aws_client("dynamodb"), settings().table_name)


@lru_cache(maxsize=1)
def delivery_queue() -> DeliveryQueue:
    from waitgate.adapters.sqs_webhook_queue import SqsWebhookQueue

    return SqsWebhookQueue(aws_client("sqs"), settings().webhook_queue)


def subscription_dependencies() -> SubscriptionDependencies:
    from waitgate.run.ids import UlidGenerator
    from waitgate.service.manage_subscriptions import SubscriptionDependencies

    return SubscriptionDependencies(
        subscriptions=subscriptions(),
        log=delivery_log(),
        queue=delivery_queue(),
        clock=SystemClock(),
        new_id=UlidGenerator().new_interrupt_id,
        new_key=lambda: secrets.token_bytes(32),
        loopback_http=settings().subscription_loopback_http,
    )


@lru_cache(maxsize=1)
def webhook_delivery_dependencies() -> WebhookDeliveryDependencies:
    from waitgate.adapters.dynamodb_delivery_log import DynamoDbRunEvents
    from waitgate.adapters.http_webhook_poster import HttpWebhookPoster
    from waitgate.service.deliver_webhook import WebhookDeliveryDependencies

    return WebhookDeliveryDependencies(
        subscriptions=subscriptions(),
        log=delivery_log(),
        events=DynamoDbRunEvents(aws_client("dynamodb"), settings().table_name),
        poster=HttpWebhookPoster(loopback_allowed=settings().subscription_loopback_http),
        clock=SystemClock(),
        telemetry=telemetry(),
        max_attempts=settings().webhook_attempts,
        retry_base_seconds=settings().webhook_retry_base_seconds,
    )
