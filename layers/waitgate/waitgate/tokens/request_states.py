"""An MCP `requestState` this host gave and no one else can make (docs/mcp.md, waiting the MCP way).

The MCP SDK's boundary (mcp.server.request_state) wraps what a tool hands back in its envelope (the
principal, the method, the tool, a digest of the arguments, its own expiry) and asks a codec to seal
it; this is the codec's half that is waitgate's: the envelope, with an expiry of its own, MACed with
the host's token keyring, under a domain of its own (`waitgate mcp request state v1`), so no link
token or cursor MAC is ever a state MAC and a rotated keyring still opens the states of its older
keys.

`w1.<base64url of ["<kid>", <expires, epoch seconds>]>.<base64url of the payload>.<43 characters:
base64url HMAC-SHA256>`. Signed, not encrypted: the client can read the envelope (a salted digest of
the principal, the tool, a digest of its arguments, the ask's run id and a one-time id), never
change it. Anything altered, forged, expired or of a key the keyring no longer holds is
`RequestStateRefused`; that a state is used once is the caller's to enforce (a conditional put).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
from typing import Final

from waitgate.tokens.keyring import KeySource, is_valid_kid

DOMAIN: Final = "waitgate mcp request state v1"
PREFIX: Final = "w1."
MAX_STATE: Final = 8192
_MAC_CHARS: Final = 43  # base64url of 32 bytes, unpadded


class RequestStateRefused(ValueError):
    """Not a state of this host, or past its expiry. The message is a reason for the log only."""


def seal_request_state(payload: bytes, expires_at: int, keyring: KeySource) -> str:
    """The state carrying `payload` until `expires_at` (epoch seconds), signed with the signing kid."""
    kid, mac_key = keyring.signing()
    header = _b64encode(json.dumps([kid, expires_at], separators=(",", ":")).encode("ascii"))
    body = f"{PREFIX}{header}.{_b64encode(payload)}"
    return f"{body}.{_b64encode(mac_key.digest(_signed(body)))}"


def open_request_state(state: str, now: int, keyring: KeySource) -> bytes:
    """The payload of a state this host sealed and that has not expired; RequestStateRefused else."""
    if not state.startswith(PREFIX) or len(state) > MAX_STATE:
        raise RequestStateRefused("malformed")
    body, _, mac = state.rpartition(".")
    parts = body.removeprefix(PREFIX).split(".")
    if len(parts) != 2 or len(mac) != _MAC_CHARS:
        raise RequestStateRefused("malformed")
    try:
        kid, expires_at = json.loads(_b64decode(parts[0]).decode("ascii"))
        payload = _b64decode(parts[1])
    except (ValueError, TypeError, RecursionError, binascii.Error):  # bad base64, ASCII, JSON, not two
        raise RequestStateRefused("malformed") from None
    if not isinstance(kid, str) or not is_valid_kid(kid) or type(expires_at) is not int:
        raise RequestStateRefused("malformed")
    mac_key = keyring.mac_key_for(kid)
    if mac_key is None or not hmac.compare_digest(_b64encode(mac_key.digest(_signed(body))), mac):
        raise RequestStateRefused("seal")
    if not now < expires_at:
        raise RequestStateRefused("expired")
    return payload


def _signed(body: str) -> bytes:
    return json.dumps([DOMAIN, body], separators=(",", ":")).encode("ascii")


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64decode(text: str) -> bytes:
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if _b64encode(raw) != text:
        raise ValueError("non-canonical base64url")
    return raw
