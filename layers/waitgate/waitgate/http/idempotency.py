"""The Idempotency-Key header: checked, scoped to (operation, caller, key), and tied to the request."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from waitgate.errors import ValidationFailedError
from waitgate.run.identity import Caller
from waitgate.run.records import IdempotencyRef

HEADER = "idempotency-key"
REPLAYED_HEADER = "Idempotent-Replayed"


def idempotency_key(event: Mapping[str, Any]) -> str | None:
    """The header's value: 1..255 printable ASCII characters, or 400 validation_error."""
    headers = {str(name).lower(): value for name, value in (event.get("headers") or {}).items()}
    key = headers.get(HEADER)
    if key is None:
        return None
    if not isinstance(key, str) or not 1 <= len(key) <= 255 or not all(" " <= c <= "~" for c in key):
        raise ValidationFailedError(
            "Idempotency-Key must be 1 to 255 printable ASCII characters.", path="header:Idempotency-Key"
        )
    return key


def idempotency_ref(
    event: Mapping[str, Any], operation: str, caller: Caller, request: Mapping[str, Any]
) -> IdempotencyRef | None:
    """The key's scope, and a fingerprint of what was asked (path parameters and body, canonical JSON:
    the same request with other whitespace or member order is the same request)."""
    key = idempotency_key(event)
    if key is None:
        return None
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    fingerprint = hashlib.sha256(canonical.encode("utf-8")).hexdigest()
    return IdempotencyRef(operation, caller.idempotency_identity, key, fingerprint)
