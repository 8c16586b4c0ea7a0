"""Whether a webhook delivery was signed by its source, per scheme (docs/webhooks.md).

- standard-webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` (one or
  more, space-separated); the signature and the `whsec_` secret format are the `standardwebhooks`
  library's own (`Webhook.sign`).
- stripe: `Stripe-Signature: t=<unix>,v1=<hex>[,v1=...]`, hex HMAC-SHA256 of `"{t}.{body}"` with the
  endpoint secret (Stripe's documented scheme, the one `stripe.WebhookSignature` checks).
- github: `X-Hub-Signature-256: sha256=<hex>`, HMAC-SHA256 of the body.
- hmac-sha256: a named header holding the hex HMAC-SHA256 of the body (`sha256=` prefix allowed).

The timestamped schemes refuse a timestamp further than the source's tolerance from `now`, either
way. Every comparison is constant-time (`hmac.compare_digest`); any of the source's secrets may have
signed (a rotation keeps the old and the new side by side). Malformed input is simply not signed:
nothing here raises on what a caller sends.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime

from standardwebhooks.webhooks import EmptyWebhookSecretError, Webhook

from waitgate.webhooks.sources import WebhookSource

Headers = Mapping[str, str]  # lower-cased names
MAX_SIGNATURES = 8  # signatures examined in one header (a rotation sends two)


def is_signed(
    source: WebhookSource, secrets: Sequence[str], body: bytes, headers: Headers, now: float
) -> bool:
    """True when one of `secrets` signed `body` (and its headers) under the source's scheme."""
    check = _CHECKS[source.scheme]
    return any(check(source, secret, body, headers, now) for secret in secrets if secret)


def _standard_webhooks(source: WebhookSource, secret: str, body: bytes, headers: Headers, now: float) -> bool:
    message_id = headers.get("webhook-id", "")
    timestamp = _timestamp(headers.get("webhook-timestamp", ""), now, source.tolerance_seconds)
    if not message_id or timestamp is None:
        return False
    try:
        text = body.decode("utf-8")
        signer = Webhook(secret)
        expected = signer.sign(message_id, datetime.fromtimestamp(timestamp, UTC), text).split(",", 1)[1]
    except (ValueError, RuntimeError, EmptyWebhookSecretError):  # a bad secret or a body not UTF-8
        return False
    offered = headers.get("webhook-signature", "").split(" ")[:MAX_SIGNATURES]
    return any(
        _same(signature.removeprefix("v1,"), expected) for signature in offered if signature.startswith("v1,")
    )


def _stripe(source: WebhookSource, secret: str, body: bytes, headers: Headers, now: float) -> bool:
    parts = [part.split("=", 1) for part in headers.get("stripe-signature", "").split(",")]
    pairs = [(pair[0].strip(), pair[1].strip()) for pair in parts if len(pair) == 2]
    stamps = [value for name, value in pairs if name == "t"]
    if len(stamps) != 1 or _timestamp(stamps[0], now, source.tolerance_seconds) is None:
        return False
    expected = _hex_hmac(secret, stamps[0].encode("ascii") + b"." + body)
    offered = [value for name, value in pairs if name == "v1"][:MAX_SIGNATURES]
    return any(_same(signature, expected) for signature in offered)


def _github(source: WebhookSource, secret: str, body: bytes, headers: Headers, now: float) -> bool:
    offered = headers.get("x-hub-signature-256", "")
    return offered.startswith("sha256=") and _same(offered.removeprefix("sha256="), _hex_hmac(secret, body))


def _hmac_sha256(source: WebhookSource, secret: str, body: bytes, headers: Headers, now: float) -> bool:
    offered = headers.get(source.signature_header.lower(), "").strip()
    return bool(offered) and _same(offered.removeprefix("sha256="), _hex_hmac(secret, body))


def _timestamp(text: str, now: float, tolerance: int) -> int | None:
    """Unix seconds, within `tolerance` of `now`; None otherwise (missing, malformed, stale, early)."""
    if not text.isascii() or not text.isdigit() or len(text) > 12:
        return None
    stamp = int(text)
    return stamp if abs(now - stamp) <= tolerance else None


def _hex_hmac(secret: str, message: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def _same(offered: str, expected: str) -> bool:
    return hmac.compare_digest(offered.encode("utf-8", "replace"), expected.encode("ascii"))


def standard_webhooks_signature(secret: str, message_id: str, timestamp: int, body: bytes) -> str:
    """`v1,<base64>`, as a Standard Webhooks sender signs (the local demo and the tests sign with it)."""
    return Webhook(secret).sign(message_id, datetime.fromtimestamp(timestamp, UTC), body.decode("utf-8"))


def is_standard_webhooks_secret(secret: str) -> bool:
    try:
        Webhook(secret)
    except (ValueError, RuntimeError, EmptyWebhookSecretError):  # a bad secret or a body not UTF-8
        return False
    return True


def base64_secret(raw: bytes) -> str:
    """A `whsec_` secret from raw bytes (Standard Webhooks' format)."""
    return "whsec_" + base64.b64encode(raw).decode("ascii")


_CHECKS: dict[str, Callable[[WebhookSource, str, bytes, Headers, float], bool]] = {
    "standard-webhooks": _standard_webhooks,
    "stripe": _stripe,
    "github": _github,
    "hmac-sha256": _hmac_sha256,
}
