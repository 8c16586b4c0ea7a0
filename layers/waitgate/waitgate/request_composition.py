"""Builds request_interrupt's dependencies: the one use case that touches every part (the store and
engines, deadlines, notices, early webhook events)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from waitgate.channel_composition import notification_dependencies
from waitgate.clock import SystemClock
from waitgate.composition import aws_client, deadline_scheduler, store, telemetry, workflow
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
        escalation_defaults=escalation_defaults(),
        telemetry=telemetry(),
        early_events=match_dependencies(),
    )


@lru_cache(maxsize=1)
def escalation_defaults() -> dict[str, dict[str, Any]]:
    """The host's escalation defaults per tenant, read from their SSM parameter on the first request of
    this instance and kept (docs/escalation.md). A default that is not a valid policy fails that
    request loudly (ValueError naming the tenant and the member), every time, until it is mended."""
    name = settings().escalation_defaults_parameter
    if not name:
        return {}
    from waitgate.adapters.ssm_parameters import parameter_value
    from waitgate.escalation import check_host_defaults

    return check_host_defaults(json.loads(parameter_value(aws_client("ssm"), name) or "{}"))
