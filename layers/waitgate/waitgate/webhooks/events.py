"""Reading a verified delivery as an event: its delivery id, its type, its correlation data and the
value a wait resumes with, each found where the source says (docs/webhooks.md)."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from waitgate.errors import PayloadTooLargeError, ValidationFailedError
from waitgate.payloads import json_rules
from waitgate.run.size_limits import MAX_RESUME_VALUE_BYTES
from waitgate.webhooks.sources import HEADER_PREFIX, WebhookSource

MAX_DELIVERY_ID = 255
MAX_EVENT_TYPE = 255
SCHEME_DELIVERY_IDS = {
    "standard-webhooks": "header:webhook-id",
    "stripe": "id",
    "github": "header:X-GitHub-Delivery",
    "hmac-sha256": "",  # the body's SHA-256: the same body is the same event
}


@dataclass(frozen=True)
class ReceivedEvent:
    delivery_id: str
    event_type: str
    data: dict[str, Any]
    resume_value: Any


def read_event(source: WebhookSource, body: bytes, headers: Mapping[str, str]) -> ReceivedEvent:
    """The event in a delivery the source signed; ValidationFailedError (400) when the body is not
    one the source describes, PayloadTooLargeError (413) when what a wait would keep is too large."""
    document = json_rules.loads(body)
    if not isinstance(document, dict):
        raise ValidationFailedError("The body must be a JSON object.", path="$")
    event_type = _scalar(_found(source.type_path, document, headers), "the event type", MAX_EVENT_TYPE)
    id_path = source.id_path or SCHEME_DELIVERY_IDS[source.scheme]
    if id_path:
        delivery_id = _scalar(_found(id_path, document, headers), "the delivery id", MAX_DELIVERY_ID)
    else:
        delivery_id = "sha256:" + hashlib.sha256(body).hexdigest()
    data = _found(source.data_path, document, headers) if source.data_path else document
    resume_value = _found(source.resume_path, document, headers) if source.resume_path else document
    if not isinstance(data, dict):
        data = {}  # nothing to correlate on: kept, listed, matching no wait
    for value, what in ((resume_value, "The resume value"), (data, "The correlation data")):
        if json_rules.encoded_size(value) > MAX_RESUME_VALUE_BYTES:
            raise PayloadTooLargeError(f"{what} of this event is larger than {MAX_RESUME_VALUE_BYTES} bytes.")
    return ReceivedEvent(delivery_id, event_type, data, resume_value)


def _found(path: str, document: dict[str, Any], headers: Mapping[str, str]) -> Any:
    """The value at a dotted path of the body, or a header's (`header:<name>`); None when absent."""
    if path.startswith(HEADER_PREFIX):
        return headers.get(path.removeprefix(HEADER_PREFIX).lower())
    value: Any = document
    for part in path.split("."):
        if not isinstance(value, dict):
            return None
        value = value.get(part)
    return value


def _scalar(value: Any, what: str, longest: int) -> str:
    text = str(value) if isinstance(value, int) and not isinstance(value, bool) else value
    if not isinstance(text, str) or not 1 <= len(text) <= longest:
        raise ValidationFailedError(f"The body holds no {what} where the source says it is.", path="$")
    return text
