"""An external-event interrupt's correlation: what identifies the event it waits for.

The normative schema says `correlation` is an object of strings (`{"orderId": "o-1"}`). Other hosts
send a plain string; waitgate takes it as `{"id": "<value>"}` (docs/protocol-profile.md), rewritten
before the payload is validated, so the payload recorded (and carried by `interrupt.requested`) is
always the object form.
"""

from __future__ import annotations

from typing import Any

STRING_CORRELATION_MEMBER = "id"


def with_object_correlation(payload: Any) -> Any:
    """The payload with a plain-string correlation of an external-event written as `{"id": value}`;
    anything else unchanged (the payload rules judge it)."""
    if not isinstance(payload, dict) or payload.get("kind") != "external-event":
        return payload
    data = payload.get("data")
    if not isinstance(data, dict) or not isinstance(data.get("correlation"), str):
        return payload
    if not data["correlation"]:
        return payload  # an empty string names nothing: refused like an empty object
    return {**payload, "data": {**data, "correlation": {STRING_CORRELATION_MEMBER: data["correlation"]}}}


def awaited_event(payload: Any) -> tuple[str, dict[str, str]] | None:
    """(eventType, correlation) of a recorded external-event payload; None for any other."""
    if not isinstance(payload, dict) or payload.get("kind") != "external-event":
        return None
    data = payload.get("data")
    if not isinstance(data, dict):
        return None
    event_type, correlation = data.get("eventType"), data.get("correlation")
    if not isinstance(event_type, str) or not isinstance(correlation, dict) or not correlation:
        return None
    return event_type, {str(name): str(value) for name, value in correlation.items()}
