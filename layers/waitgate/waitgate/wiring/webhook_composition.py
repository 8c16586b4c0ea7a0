"""Builds webhooks in (docs/webhooks.md): the sources and their secrets, the kept events, and matching
an event to the waits it resolves; lazily, once per Lambda instance."""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

from waitgate.wiring.composition import aws_client, resolve_dependencies
from waitgate.wiring.settings import settings

if TYPE_CHECKING:
    from waitgate.adapters.webhook_sources import WebhookSourceStore
    from waitgate.service.match_event import MatchDependencies
    from waitgate.service.receive_webhook import WebhookDependencies
    from waitgate.webhooks.ports import ExternalEvents


@lru_cache(maxsize=1)
def external_events() -> ExternalEvents:
    from waitgate.adapters.dynamodb_external_events import DynamoDbExternalEvents

    return DynamoDbExternalEvents(aws_client("dynamodb"), settings().table_name)


def match_dependencies() -> MatchDependencies:
    from waitgate.service.match_event import MatchDependencies

    return MatchDependencies(events=external_events(), resolve=resolve_dependencies())


@lru_cache(maxsize=1)
def webhook_sources() -> WebhookSourceStore:
    """The sources in the directory table, their secrets under WEBHOOK_SECRET_PREFIX."""
    from waitgate.adapters.webhook_sources import WebhookSourceStore

    configured = settings()
    return WebhookSourceStore(
        lambda: aws_client("dynamodb"),
        lambda: aws_client("secretsmanager"),
        configured.directory_table_name,
        configured.webhook_secret_prefix,
    )


def webhook_dependencies() -> WebhookDependencies:
    from waitgate.service.receive_webhook import WebhookDependencies

    return WebhookDependencies(sources=webhook_sources(), matching=match_dependencies())
