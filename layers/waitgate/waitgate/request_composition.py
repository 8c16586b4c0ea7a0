"""Builds request_interrupt's dependencies: the one use case that touches every part (the store and
engines, deadlines, notices, early webhook events)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from waitgate.channel_composition import notification_dependencies
from waitgate.clock import SystemClock
from waitgate.composition import deadline_scheduler, store, telemetry, workflow
from waitgate.settings import settings
from waitgate.webhook_composition import match_dependencies

if TYPE_CHECKING:
    from waitgate.service.request_interrupt import RequestDependencies


def request_dependencies() -> RequestDependencies:
    from waitgate.ids import UlidGenerator
    from waitgate.service.request_interrupt import RequestDependencies

    return RequestDependencies(
        store=store(),
        workflow=workflow(),
        clock=SystemClock(),
        ids=UlidGenerator(),
        conversation_capability=settings().conversation_capability,
        notifications=notification_dependencies(),
        deadlines=deadline_scheduler(),
        escalation_defaults=settings().escalation_defaults,
        telemetry=telemetry(),
        early_events=match_dependencies(),
    )
