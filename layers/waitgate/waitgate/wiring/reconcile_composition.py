"""Builds the reconciler's dependencies (docs/durability.md): the sparse index, the outbox's delivery,
the run lifecycle and the notices; lazily, once per Lambda instance, as `composition` does."""

from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING, Any

from waitgate.wiring.channel_composition import notification_dependencies
from waitgate.wiring.composition import aws_client, delivery_dependencies, lifecycle_dependencies
from waitgate.wiring.settings import settings

if TYPE_CHECKING:
    from waitgate.service.deliver_resolution import DeliveryDependencies
    from waitgate.service.reconcile import ReconcileDependencies


def reconcile_dependencies(event: dict[str, Any]) -> ReconcileDependencies:
    """The schedule's input says the pass's period and grace (`periodMinutes` or `periodSeconds`,
    `graceSeconds`: the template's ReconcilePeriodMinutes; the local stack's short period)."""
    from waitgate.adapters.dynamodb_outstanding import DynamoDbOutstanding
    from waitgate.service.reconcile import ReconcileDependencies, ReconcileSettings

    defaults = ReconcileSettings()
    minutes = event.get("periodMinutes")
    in_seconds = minutes * 60 if isinstance(minutes, int | float) else event.get("periodSeconds")
    period = _seconds(in_seconds, defaults.period)
    grace = _seconds(event.get("graceSeconds"), defaults.grace)
    return ReconcileDependencies(
        outstanding=DynamoDbOutstanding(aws_client("dynamodb"), settings().table_name),
        delivery=delivery_dependencies(),
        lifecycle=lifecycle_dependencies(),
        notifications=notification_dependencies(),
        settings=ReconcileSettings(period=period, grace=grace),
    )


def redrive_dependencies() -> DeliveryDependencies:
    return delivery_dependencies()


def _seconds(value: Any, default: timedelta) -> timedelta:
    return timedelta(seconds=float(value)) if isinstance(value, int | float) and value >= 0 else default
