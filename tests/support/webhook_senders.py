"""Signing a webhook delivery as each provider does, from a source's entry of local.json's `webhooks`
(`{url, scheme, secret, typePath, dataPath, ...}`): the headers and the body a provider would send."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
import uuid
from typing import Any

from waitgate.webhooks.signatures import standard_webhooks_signature


def signed_delivery(
    source: dict[str, Any],
    body: dict[str, Any] | bytes,
    *,
    delivery_id: str | None = None,
    timestamp: int | None = None,
    secret: str | None = None,
    event_type: str | None = None,
) -> tuple[bytes, dict[str, str]]:
    """The body as bytes and the headers that sign it with the source's secret (or `secret`)."""
    raw = body if isinstance(body, bytes) else json.dumps(body).encode("utf-8")
    key = secret if secret is not None else str(source["secret"])
    stamp = int(time.time()) if timestamp is None else timestamp
    identifier = delivery_id or f"msg_{uuid.uuid4().hex}"
    headers = {"Content-Type": "application/json"}
    scheme = source["scheme"]
    if scheme == "standard-webhooks":
        headers.update(
            {
                "webhook-id": identifier,
                "webhook-timestamp": str(stamp),
                "webhook-signature": _standard_signature(key, identifier, stamp, raw),
            }
        )
    elif scheme == "stripe":
        mac = hmac.new(key.encode(), f"{stamp}.".encode() + raw, hashlib.sha256).hexdigest()
        headers["Stripe-Signature"] = f"t={stamp},v1={mac}"
    elif scheme == "github":
        mac = hmac.new(key.encode(), raw, hashlib.sha256).hexdigest()
        headers.update({"X-Hub-Signature-256": f"sha256={mac}", "X-GitHub-Delivery": identifier})
        if str(source.get("typePath", "")).startswith("header:") and event_type is not None:
            headers[str(source["typePath"]).removeprefix("header:")] = event_type
    else:
        mac = hmac.new(key.encode(), raw, hashlib.sha256).hexdigest()
        headers[str(source.get("signatureHeader") or "X-Signature")] = mac
    return raw, headers


def _standard_signature(secret: str, identifier: str, stamp: int, raw: bytes) -> str:
    """The library's signature; over the raw bytes for a body that is not text (which it cannot sign)."""
    try:
        return standard_webhooks_signature(secret, identifier, stamp, raw)
    except UnicodeDecodeError:
        import base64

        key = base64.b64decode(secret.removeprefix("whsec_"))
        mac = hmac.new(key, f"{identifier}.{stamp}.".encode() + raw, hashlib.sha256).digest()
        return "v1," + base64.b64encode(mac).decode()


def stripe_event(event_type: str, metadata: dict[str, str], event_id: str | None = None) -> dict[str, Any]:
    """A Stripe-style event: `data.object` the payment, its `metadata` the shop's own ids."""
    return {
        "id": event_id or f"evt_{uuid.uuid4().hex[:24]}",
        "object": "event",
        "type": event_type,
        "data": {
            "object": {
                "id": f"pi_{uuid.uuid4().hex[:24]}",
                "object": "payment_intent",
                "amount": 1999,
                "currency": "eur",
                "metadata": metadata,
            }
        },
    }


def webhook_event(source_name: str, raw: bytes, headers: dict[str, str]) -> dict[str, Any]:
    """The API Gateway (payload v2) event of `POST /webhooks/{source}`, as the HttpApi hands it over."""
    import base64

    return {
        "version": "2.0",
        "routeKey": "POST /webhooks/{source}",
        "rawPath": f"/webhooks/{source_name}",
        "rawQueryString": "",
        "headers": {name.lower(): value for name, value in headers.items()},
        "requestContext": {
            "accountId": "123456789012",
            "apiId": "abcdef1234",
            "domainName": "api.example.com",
            "http": {
                "method": "POST",
                "path": f"/webhooks/{source_name}",
                "protocol": "HTTP/1.1",
                "sourceIp": "192.0.2.10",
                "userAgent": "provider/1.0",
            },
            "requestId": "req-1",
            "routeKey": "POST /webhooks/{source}",
            "stage": "$default",
            "time": "30/Nov/2026:10:00:00 +0000",
            "timeEpoch": 1764496800000,
        },
        "pathParameters": {"source": source_name},
        "body": base64.b64encode(raw).decode("ascii"),
        "isBase64Encoded": True,
    }
