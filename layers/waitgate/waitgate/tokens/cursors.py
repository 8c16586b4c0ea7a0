"""Page cursors this host gave and no one else can make: the store's position, MACed with the host's
token keyring together with whose page it is (tenant, principal) and what it lists (the filter).

`<base64url of ["<kid>", "<position>"]><43 characters: base64url HMAC-SHA256>`, all of it
`[A-Za-z0-9_-]`. The MAC covers a domain of its own (`waitgate inbox cursor v1`), so no token MAC is
ever a cursor MAC; the kid lets a rotated keyring still open the cursors of its older keys. A cursor
altered, forged, of another principal, tenant or filter, or of a key the keyring no longer holds is
`ValidationFailedError(path="cursor")`, as docs/inbox.md promises (`400 validation_error`).
"""

from __future__ import annotations

import base64
import binascii
import hmac
import json
from collections.abc import Sequence
from typing import Final

from waitgate.errors import ValidationFailedError
from waitgate.tokens.keyring import KID_CHARS, KeySource, is_valid_kid

DOMAIN: Final = "waitgate inbox cursor v1"
MAX_CURSOR: Final = 2048
_MAC_CHARS: Final = 43  # base64url of 32 bytes, unpadded


def seal_cursor(position: str, context: Sequence[str], keyring: KeySource) -> str:
    """The cursor of `position` (the store's opaque next-page key) for this `context` only."""
    kid, mac_key = keyring.signing()
    body = _b64encode(json.dumps([kid, position], separators=(",", ":")).encode("ascii"))
    return body + _b64encode(mac_key.digest(_signed(body, context)))


def open_cursor(cursor: str, context: Sequence[str], keyring: KeySource) -> str:
    """The position a cursor of this host, for this `context`, holds; ValidationFailedError otherwise."""
    if not _MAC_CHARS < len(cursor) <= MAX_CURSOR or cursor.strip(KID_CHARS):
        raise _refused()
    body, mac = cursor[:-_MAC_CHARS], cursor[-_MAC_CHARS:]
    try:
        kid, position = json.loads(_b64decode(body).decode("utf-8"))
    except (ValueError, TypeError, RecursionError, binascii.Error):  # bad base64, UTF-8, JSON, not two
        raise _refused() from None
    if not isinstance(kid, str) or not isinstance(position, str) or not is_valid_kid(kid):
        raise _refused()
    mac_key = keyring.mac_key_for(kid)
    if mac_key is None or not hmac.compare_digest(_b64encode(mac_key.digest(_signed(body, context))), mac):
        raise _refused()
    return position


def _signed(body: str, context: Sequence[str]) -> bytes:
    return json.dumps([DOMAIN, *context, body], separators=(",", ":")).encode("ascii")  # any text, escaped


def _b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _b64decode(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _refused() -> ValidationFailedError:
    return ValidationFailedError("cursor must be the `next` of an earlier page.", path="cursor")
