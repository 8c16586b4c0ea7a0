"""Builds request_interrupt's dependencies: the one use case that touches every part (the store and
engines, deadlines, notices, early webhook events)."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from waitgate.run.clock import SystemClock
from waitgate.wiring.channel_composition import notification_dependencies
from waitgate.wiring.composition import aws_client, deadline_scheduler, store, telemetry, workflow
from waitgate.wiring.settings import settings
from waitgate.wiring.webhook_composition import match_dependencies

if TYPE_CHECKING:
    from waitgate.service.agent_interrupts import AgentDependencies
    from waitgate.service.request_interrupt import RequestDependencies


def request_dependencies(escalation_defaults_parameter: str | None = None) -> RequestDependencies:
    """`escalation_defaults_parameter`: where the host's escalation defaults are, when not in this
    function's environment (serve_mcp's are in its settings parameter)."""
    from waitgate.run.ids import UlidGenerator
    from waitgate.service.request_interrupt import RequestDependencies

    return RequestDependencies(
        store=store(),
        workflow=workflow(),
        clock=SystemClock(),
        ids=UlidGenerator(),
        conversation_capability=settings().conversation_capability,
        notifications=notification_dependencies(),
        deadlines=deadline_scheduler(),
        escalation_defaults=escalation_defaults(escalation_defaults_parameter),
        telemetry=telemetry(),
        early_events=match_dependencies(),
    )


@lru_cache(maxsize=2)
def escalation_defaults(parameter: str | None = None) -> dict[str, dict[str, Any]]:
    """The host's escalation defaults per tenant, read from their SSM parameter (`parameter`, else the
    environment's) on the first request of this instance and kept (docs/escalation.md). A default that
    is not a valid policy fails that request loudly (ValueError naming the tenant and the member),
    every time, until it is mended."""
    name = parameter or settings().escalation_defaults_parameter
    if not name:
        return {}
    from waitgate.adapters.ssm_parameters import parameter_value
    from waitgate.escalation import check_host_defaults

    return check_host_defaults(json.loads(parameter_value(aws_client("ssm"), name) or "{}"))


def agent_dependencies() -> AgentDependencies:
    """An agent's asks over MCP (docs/mcp.md): request_interrupt's parts, and the inbox's address."""
    from waitgate.adapters.dynamodb_sent_messages import DynamoDbReplayGuard
    from waitgate.service.agent_interrupts import AgentDependencies, OwnLinks
    from waitgate.wiring.composition import (
        approval_config,
        directory,
        keyring,
        notice_link_settings,
        public_base_url,
    )

    defaults = str(mcp_settings().get("escalationDefaultsParameter") or "")
    rounds = DynamoDbReplayGuard(aws_client("dynamodb"), settings().table_name, prefix="MCPROUND#")
    own_links = None
    if settings().token_secret_arn:  # no keyring: no link to offer, the pending interrupt instead
        own_links = OwnLinks(keyring(), directory(), notice_link_settings(), approval_config())
    return AgentDependencies(request_dependencies(defaults), public_base_url() + "/inbox", own_links, rounds)


@lru_cache(maxsize=1)
def mcp_settings() -> dict[str, Any]:
    """serve_mcp's settings (template.yaml's McpSettingsParameter: jwtAudiences,
    escalationDefaultsParameter), read once per instance; none configured: {}."""
    name = settings().mcp_settings_parameter
    if not name:
        return {}
    from waitgate.adapters.ssm_parameters import parameter_value

    document = json.loads(parameter_value(aws_client("ssm"), name) or "{}")
    if not isinstance(document, dict):
        raise ValueError(f"{name} must hold a JSON object")
    return document
