"""A webhook source: named configuration of where events come from and how to read them
(docs/webhooks.md). Its secrets live apart (Secrets Manager) and are never part of this record."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Literal, get_args

from waitgate.errors import ValidationFailedError

Scheme = Literal["standard-webhooks", "stripe", "github", "hmac-sha256"]
SCHEMES: tuple[str, ...] = get_args(Scheme)
_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
_TENANT = re.compile(r"[A-Za-z0-9_.-]{1,64}")
_HEADER = re.compile(r"[A-Za-z0-9-]{1,64}")
RESERVED_NAMES = frozenset({"events"})  # GET /webhooks/events is the operators' listing
DEFAULT_TTL_SECONDS = 24 * 3600
DEFAULT_TOLERANCE_SECONDS = 300  # Standard Webhooks' and Stripe's own default
DEFAULT_SIGNATURE_HEADER = "X-Signature"
HEADER_PREFIX = "header:"
MAX_PATH = 200


@dataclass(frozen=True)
class WebhookSource:
    name: str
    tenant_id: str
    scheme: Scheme
    type_path: str  # a dotted path in the body ("type"), or "header:<name>"
    data_path: str = ""  # a dotted path to the object holding the correlation data; "": the body
    resume_path: str = ""  # what the wait resumes with: a dotted path; "": the whole body
    id_path: str = ""  # the delivery id; "": the scheme's own (docs/webhooks.md)
    signature_header: str = DEFAULT_SIGNATURE_HEADER  # hmac-sha256 only
    tolerance_seconds: int = DEFAULT_TOLERANCE_SECONDS  # standard-webhooks and stripe: timestamp's age
    ttl_seconds: int = DEFAULT_TTL_SECONDS  # how long an event is kept for a wait that comes later
    match_many: bool = False  # one event may resolve every matching wait, not only the first

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "tenantId": self.tenant_id,
            "scheme": self.scheme,
            "typePath": self.type_path,
            "dataPath": self.data_path,
            "resumePath": self.resume_path,
            "idPath": self.id_path,
            "signatureHeader": self.signature_header,
            "toleranceSeconds": self.tolerance_seconds,
            "ttlSeconds": self.ttl_seconds,
            "matchMany": self.match_many,
        }


@dataclass(frozen=True)
class ConfiguredSource:
    """A source with its secrets (several during a rotation); the secrets never show in a repr."""

    source: WebhookSource
    secrets: tuple[str, ...] = field(repr=False)


def is_source_name(name: str) -> bool:
    return bool(_NAME.fullmatch(name)) and name not in RESERVED_NAMES


def parse_source(document: Any) -> WebhookSource:
    """A source from its JSON form (the CLI's, the table's); ValidationFailedError names what is wrong."""
    if not isinstance(document, dict):
        raise ValidationFailedError("A webhook source is a JSON object.", path="$")
    name = _text(document, "name")
    if not is_source_name(name):
        raise ValidationFailedError(
            "name must match [a-z0-9][a-z0-9_-]{0,62} (and not be 'events').", path="name"
        )
    tenant = _text(document, "tenantId", "default")
    if not _TENANT.fullmatch(tenant):
        raise ValidationFailedError("tenantId must match [A-Za-z0-9_.-]{1,64}.", path="tenantId")
    scheme = _text(document, "scheme")
    if scheme not in SCHEMES:
        raise ValidationFailedError(f"scheme must be one of {', '.join(SCHEMES)}.", path="scheme")
    source = WebhookSource(
        name=name,
        tenant_id=tenant,
        scheme=scheme,  # type: ignore[arg-type]  # checked against SCHEMES just above
        type_path=_path(document, "typePath", "type", headers=True),
        data_path=_path(document, "dataPath", ""),
        resume_path=_path(document, "resumePath", ""),
        id_path=_path(document, "idPath", "", headers=True),
        signature_header=_text(document, "signatureHeader", DEFAULT_SIGNATURE_HEADER),
        tolerance_seconds=_seconds(document, "toleranceSeconds", DEFAULT_TOLERANCE_SECONDS, 1, 3600),
        ttl_seconds=_seconds(document, "ttlSeconds", DEFAULT_TTL_SECONDS, 60, 30 * 24 * 3600),
        match_many=_flag(document, "matchMany"),
    )
    if not _HEADER.fullmatch(source.signature_header):
        raise ValidationFailedError("signatureHeader must be a header name.", path="signatureHeader")
    return source


def _text(document: dict[str, Any], member: str, default: str | None = None) -> str:
    value = document.get(member, default)
    if not isinstance(value, str) or (default is None and not value):
        raise ValidationFailedError(f"{member} must be a string.", path=member)
    return value


def _path(document: dict[str, Any], member: str, default: str, headers: bool = False) -> str:
    value = _text(document, member, default)
    if len(value) > MAX_PATH:
        raise ValidationFailedError(f"{member} is too long.", path=member)
    if value.startswith(HEADER_PREFIX):
        if not headers or not _HEADER.fullmatch(value.removeprefix(HEADER_PREFIX)):
            raise ValidationFailedError(f"{member} cannot name that header.", path=member)
    elif value and any(not part for part in value.split(".")):
        raise ValidationFailedError(f"{member} must be a dotted path like data.object.", path=member)
    return value


def _seconds(document: dict[str, Any], member: str, default: int, low: int, high: int) -> int:
    value = document.get(member, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValidationFailedError(f"{member} must be an integer from {low} to {high}.", path=member)
    return value


def _flag(document: dict[str, Any], member: str) -> bool:
    value = document.get(member, False)
    if not isinstance(value, bool):
        raise ValidationFailedError(f"{member} must be true or false.", path=member)
    return value
