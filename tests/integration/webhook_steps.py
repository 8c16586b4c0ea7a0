"""Webhook sources on moto (the directory table from template.yaml, secrets in Secrets Manager) and the
steps the webhook flows share: deliver an event to receive_webhook, list a source's events."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import boto3

from tests.integration.conftest import REGION, create_table_from_template
from tests.integration.kind_steps import KindSteps
from tests.support.handlers import Handler, sample_event
from tests.support.webhook_senders import signed_delivery, webhook_event
from waitgate.adapters.webhook_sources import WebhookSourceStore
from waitgate.webhooks.signatures import base64_secret
from waitgate.webhooks.sources import parse_source

SECRET_PREFIX = "waitgate-test/webhooks/"
SOURCES: dict[str, dict[str, Any]] = {
    "standard": {"scheme": "standard-webhooks", "typePath": "type", "dataPath": "data"},
    "stripe": {
        "scheme": "stripe",
        "typePath": "type",
        "dataPath": "data.object.metadata",
        "resumePath": "data.object",
    },
    "github": {"scheme": "github", "typePath": "header:X-GitHub-Event", "dataPath": ""},
    "hmac": {
        "scheme": "hmac-sha256",
        "typePath": "type",
        "dataPath": "data",
        "signatureHeader": "X-Signature",
    },
    "many": {"scheme": "standard-webhooks", "typePath": "type", "dataPath": "data", "matchMany": True},
    "other-tenant": {
        "scheme": "standard-webhooks",
        "typePath": "type",
        "dataPath": "data",
        "tenantId": "acme",
    },
}
SECRETS = {
    "standard-webhooks": base64_secret(b"standard-webhooks-test-secret!!!"),
    "stripe": "whsec_stripe_test_secret",
    "github": "github-test-secret",
    "hmac-sha256": "hmac-test-secret",
}


def configure_sources(monkeypatch: Any) -> dict[str, dict[str, Any]]:
    """The directory table and every test source; the settings and the wiring read again."""
    dynamodb = boto3.client("dynamodb", region_name=REGION)
    secrets = boto3.client("secretsmanager", region_name=REGION)
    table = create_table_from_template(dynamodb, "DirectoryTable", "waitgate-directory-test")
    monkeypatch.setenv("DIRECTORY_TABLE_NAME", table)
    monkeypatch.setenv("WEBHOOK_SECRET_PREFIX", SECRET_PREFIX)
    store = WebhookSourceStore(lambda: dynamodb, lambda: secrets, table, SECRET_PREFIX)
    described: dict[str, dict[str, Any]] = {}
    for name, settings in SOURCES.items():
        source = parse_source({"name": name, **settings})
        store.put(source, (SECRETS[source.scheme],))
        described[name] = {**settings, "secret": SECRETS[source.scheme]}
    from waitgate.wiring import composition
    from waitgate.wiring import settings as configured

    configured.settings.cache_clear()
    for value in vars(composition).values():
        if callable(getattr(value, "cache_clear", None)):
            value.cache_clear()
    return described


@dataclass
class WebhookSteps:
    kinds: KindSteps
    sources: dict[str, dict[str, Any]]
    handlers: dict[str, Handler] = field(default_factory=dict)

    def deliver(self, source: str, body: Any, **options: Any) -> tuple[int, Any]:
        raw, headers = signed_delivery(self.sources[source], body, **options)
        return self.post(source, raw, headers)

    def post(self, source: str, raw: bytes, headers: dict[str, str]) -> tuple[int, Any]:
        answer = self.kinds.handler("receive_webhook")(webhook_event(source, raw, headers))
        return answer["statusCode"], json.loads(answer["body"])

    def listed(self, source: str, tenant: str | None = None, **query: str) -> tuple[int, Any]:
        answer = self.kinds.handler("list_webhook_events")(list_webhook_events_event(source, tenant, **query))
        return answer["statusCode"], json.loads(answer["body"])


def list_webhook_events_event(source: str, tenant: str | None = None, **query: str) -> dict[str, Any]:
    event = sample_event("list_webhook_events")
    parameters = {"source": source, **query}
    event["rawQueryString"] = urlencode(parameters)
    event["queryStringParameters"] = parameters
    claims = event["requestContext"]["authorizer"]["jwt"]["claims"]
    if tenant is None:
        claims.pop("tenant", None)
    else:
        claims["tenant"] = tenant
    return event


def waiting_for(event_type: str, correlation: Any, key: str = "payment", **more: Any) -> dict[str, Any]:
    return {
        "kind": "external-event",
        "key": key,
        "data": {"eventType": event_type, "correlation": correlation},
        **more,
    }
