"""What a subscription may name: an https URL (on the local stack also `http://127.0.0.1`), the event
types of the event log an interrupt's lifecycle has, and a Standard Webhooks secret (`whsec_` +
base64 of 24 to 64 bytes).

A URL is refused (`400 subscription_url_refused`) when it is not absolute https, carries a user or
password, a fragment, or names a host an outbound call must never reach: `localhost`, an IP literal
that is loopback, private, link-local (the metadata addresses), multicast, reserved or unspecified.
Only `SUBSCRIPTION_LOOPBACK_HTTP=on` (the local stack's setting) lets `http://127.0.0.1:<port>` through.
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
from collections.abc import Sequence
from typing import Any, Final
from urllib.parse import urlsplit

from waitgate.errors import SubscriptionUrlRefusedError, UnknownEventTypeError, ValidationFailedError

EVENT_TYPES: Final = ("interrupt.requested", "interrupt.resolved", "interrupt.expired", "interrupt.cancelled")
MAX_URL_LENGTH: Final = 2048
MAX_EVENT_TYPES: Final = len(EVENT_TYPES)
SECRET_PREFIX: Final = "whsec_"  # noqa: S105 (the format's prefix, not a secret)
SECRET_BYTES: Final = (24, 64)  # Standard Webhooks: 24 to 64 bytes of key
LOOPBACK_HOST: Final = "127.0.0.1"


def parse_url(raw: Any, *, loopback_http: bool) -> str:
    """The URL as given, once it is one a delivery may go to; SubscriptionUrlRefusedError else."""
    if not isinstance(raw, str) or not raw:
        raise ValidationFailedError("url must be a non-empty string.", path="url")
    if len(raw) > MAX_URL_LENGTH or not raw.isascii() or not raw.isprintable() or " " in raw:
        raise SubscriptionUrlRefusedError(
            f"url must be printable ASCII of at most {MAX_URL_LENGTH} characters."
        )
    try:
        parts = urlsplit(raw)
        host, port = parts.hostname, parts.port
    except ValueError as error:
        raise SubscriptionUrlRefusedError("url is not a URL.") from error
    if parts.username is not None or parts.password is not None or parts.fragment or "#" in raw:
        raise SubscriptionUrlRefusedError("url must carry no user, password or fragment.")
    if not host:
        raise SubscriptionUrlRefusedError("url must name a host.")
    if parts.scheme == "http" and loopback_http and host == LOOPBACK_HOST and port is not None:
        return raw
    if parts.scheme != "https":
        hint = " (or http://127.0.0.1:<port> on the local stack)" if loopback_http else ""
        raise SubscriptionUrlRefusedError(f"url must be https{hint}.")
    _refuse_internal_host(host)
    return raw


def _refuse_internal_host(host: str) -> None:
    name = host.rstrip(".").lower()
    if name == "localhost" or name.endswith(".localhost"):
        raise SubscriptionUrlRefusedError("url must not name this machine.")
    if is_internal_address(name):
        raise SubscriptionUrlRefusedError("url must not name a loopback, private or reserved address.")


def is_internal_address(text: str) -> bool:
    """True for an IP address an outbound call must not reach (loopback, private, link-local,
    multicast, reserved, unspecified, or an IPv4-mapped one of those); False for a public one or for
    what is no IP address at all (a DNS name)."""
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return False
    mapped = getattr(address, "ipv4_mapped", None) or address
    return not mapped.is_global or mapped.is_multicast


def parse_events(raw: Any) -> tuple[str, ...]:
    """The event types, each once, in the order EVENT_TYPES has them."""
    if not isinstance(raw, list) or not raw:
        raise ValidationFailedError("events must be a non-empty array of event types.", path="events")
    if len(raw) > MAX_EVENT_TYPES * 2:
        raise ValidationFailedError("events names too many event types.", path="events")
    for index, value in enumerate(raw):
        if not isinstance(value, str):
            raise ValidationFailedError("Each event type must be a string.", path=f"events[{index}]")
        if value not in EVENT_TYPES:
            shown = (
                value
                if len(value) <= 64 and value.isprintable()
                else value[:64].encode("unicode_escape").decode()
            )
            raise UnknownEventTypeError(
                f"{shown!r} is not an event type a subscription can name: {', '.join(EVENT_TYPES)}.",
                path=f"events[{index}]",
            )
    return tuple(kind for kind in EVENT_TYPES if kind in raw)


def parse_secret(raw: Any) -> str | None:
    """A given secret (whsec_ + base64 of 24..64 bytes), or None when none is given (one is made)."""
    if raw is None:
        return None
    if not isinstance(raw, str) or not raw.startswith(SECRET_PREFIX):
        raise ValidationFailedError(f"secret must be a string starting with {SECRET_PREFIX}.", path="secret")
    try:
        key = base64.b64decode(raw.removeprefix(SECRET_PREFIX), validate=True)
    except (binascii.Error, ValueError) as error:
        raise ValidationFailedError("secret must be whsec_ followed by base64.", path="secret") from error
    if not SECRET_BYTES[0] <= len(key) <= SECRET_BYTES[1]:
        raise ValidationFailedError(
            f"secret must hold {SECRET_BYTES[0]} to {SECRET_BYTES[1]} bytes of key.", path="secret"
        )
    return raw


def new_secret(key: bytes) -> str:
    """A secret from 32 random bytes the caller drew (`secrets.token_bytes`)."""
    return SECRET_PREFIX + base64.b64encode(key).decode("ascii")


def closed_members(body: Any, allowed: Sequence[str]) -> dict[str, Any]:
    """The body as an object with no member outside `allowed`."""
    if not isinstance(body, dict):
        raise ValidationFailedError("The body must be a JSON object.", path="$")
    for name in body:
        if name not in allowed:
            raise ValidationFailedError(f"The body has a member {str(name)[:64]!r} it cannot have.", path="$")
    return body
