"""Request bodies: JSON only, at most 256 KB, decoded once under the JSON rules (`payloads.json_rules`)."""

from __future__ import annotations

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from waitgate.errors import PayloadTooLargeError, UnsupportedMediaTypeError, ValidationFailedError
from waitgate.payloads import json_rules
from waitgate.run.size_limits import MAX_BODY_BYTES


def json_body(event: Mapping[str, Any]) -> Any:
    raw = raw_body(event)
    if len(raw) > MAX_BODY_BYTES:
        raise PayloadTooLargeError(f"The body is larger than {MAX_BODY_BYTES // 1024} KB.")
    headers = {str(k).lower(): str(v) for k, v in (event.get("headers") or {}).items()}
    media_type = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != "application/json" and not media_type.endswith("+json"):
        raise UnsupportedMediaTypeError("Send the body as application/json.")
    return json_rules.loads(raw)


def raw_body(event: Mapping[str, Any]) -> bytes:
    body = event.get("body") or ""
    if event.get("isBase64Encoded"):
        try:
            return base64.b64decode(body, validate=True)
        except (binascii.Error, ValueError) as error:
            raise ValidationFailedError("The body is not valid base64.", path="$") from error
    # a lone surrogate (the event's JSON may hold "\ud800") stays what it was: bytes no signature covers
    return body.encode("utf-8", "surrogatepass") if isinstance(body, str) else bytes(body)


def require_object_body(body: Any) -> Any:
    """A resolve body is exactly {resumeValue}: closed, resumeValue required."""
    if not isinstance(body, dict) or set(body) != {"resumeValue"}:
        raise ValidationFailedError(
            "The body must be a JSON object with exactly one member, resumeValue.",
            path="$",
        )
    return body["resumeValue"]
