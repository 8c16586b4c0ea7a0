"""The local stack's webhook sources (docs/webhooks.md, "Locally"): one demo source per scheme, each
with its secret, and the sources added with `waitgate webhooks add-source`, all kept in
`webhook-sources.json` in the state directory (mode 600) and configured again at every start.

local.json's `webhooks` lists each one — `{url, scheme, secret, typePath, dataPath, ...}` — so a
program that reads only that file can sign and send events.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

from local.state.state_dir import StateDir
from local.template.resources import StackContext
from waitgate.adapters.webhook_sources import WebhookSourceStore
from waitgate.webhooks.signatures import base64_secret
from waitgate.webhooks.sources import WebhookSource, parse_source

FILE_NAME = "webhook-sources.json"
DIRECTORY_LOGICAL_ID = "DirectoryTable"
DEMO_SOURCES: dict[str, dict[str, Any]] = {
    "demo-standard": {"scheme": "standard-webhooks", "typePath": "type", "dataPath": "data"},
    "demo-stripe": {
        "scheme": "stripe",
        "typePath": "type",
        "dataPath": "data.object.metadata",
        "resumePath": "data.object",
    },
    "demo-github": {"scheme": "github", "typePath": "header:X-GitHub-Event", "dataPath": ""},
    "demo-hmac": {
        "scheme": "hmac-sha256",
        "typePath": "type",
        "dataPath": "data",
        "signatureHeader": "X-Signature",
    },
}


def demo_secret(scheme: str) -> str:
    if scheme == "standard-webhooks":
        return base64_secret(secrets.token_bytes(24))
    if scheme == "stripe":
        return "whsec_" + secrets.token_hex(16)
    return secrets.token_hex(20)


def secret_prefix(stack_name: str) -> str:
    """The template's WEBHOOK_SECRET_PREFIX, for a stack of this name."""
    return f"{stack_name}/webhooks/"


class LocalWebhookSources:
    """The file of the local sources: {name: {"source": <WebhookSource JSON>, "secrets": [...]}}."""

    def __init__(self, state_dir: StateDir) -> None:
        self.path = state_dir.root / FILE_NAME

    def load(self) -> dict[str, dict[str, Any]]:
        try:
            document = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            document = {}
        return document if isinstance(document, dict) else {}

    def load_or_create(self) -> dict[str, dict[str, Any]]:
        """The kept sources, with every demo source there (made once, with a fresh secret)."""
        document = self.load()
        for name, settings in DEMO_SOURCES.items():
            if name not in document:
                source = parse_source({"name": name, **settings})
                document[name] = {"source": source.to_json(), "secrets": [demo_secret(source.scheme)]}
        self.write(document)
        return document

    def remember(self, source: WebhookSource, kept_secrets: tuple[str, ...]) -> None:
        document = self.load()
        document[source.name] = {"source": source.to_json(), "secrets": list(kept_secrets)}
        self.write(document)

    def write(self, document: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.path.with_suffix(".json.tmp")
        partial.write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
        partial.chmod(0o600)
        partial.replace(self.path)


def configure_sources(context: StackContext, state_dir: StateDir) -> dict[str, dict[str, Any]]:
    """Every local source put in the stack (directory table, Secrets Manager); local.json's `webhooks`."""
    store = WebhookSourceStore(
        lambda: context.clients("dynamodb"),
        lambda: context.clients("secretsmanager"),
        str(context.physical_ids[DIRECTORY_LOGICAL_ID].ref),
        secret_prefix(context.stack_name),
    )
    kept = LocalWebhookSources(state_dir).load_or_create()
    for entry in kept.values():
        store.put(parse_source(entry["source"]), tuple(entry["secrets"]))
    return kept


def described(kept: dict[str, dict[str, Any]], api_url: str) -> dict[str, dict[str, Any]]:
    """local.json's `webhooks`: what a sender needs, per source."""
    found: dict[str, dict[str, Any]] = {}
    for name, entry in sorted(kept.items()):
        source = parse_source(entry["source"])
        found[name] = {
            "url": f"{api_url.rstrip('/')}/webhooks/{name}",
            "scheme": source.scheme,
            "secret": entry["secrets"][0],
            "typePath": source.type_path,
            "dataPath": source.data_path,
            "resumePath": source.resume_path,
            "tenantId": source.tenant_id,
        }
        if source.scheme == "hmac-sha256":
            found[name]["signatureHeader"] = source.signature_header
    return found
