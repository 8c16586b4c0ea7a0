"""Mint and verify interrupt tokens: `ow2.hs256.<kid>.<payload>.<mac>`, legacy v1 `<payload>.<mac>`.

Check order (host profile): shape/alg/kid/MAC -> claims shape (all 401, one detail) -> expiry
(410); intent (403) is `require_intent`, called by the use case that knows the operation.
"""

from __future__ import annotations

import binascii
import hmac
import json
import secrets
from datetime import datetime
from typing import Final

from waitgate.errors import ForbiddenError, InterruptExpiredError, InterruptTokenInvalidError
from waitgate.tokens.claims import Intent, TokenClaims
from waitgate.tokens.keyring import LEGACY_KID, KeySource, MacKey, is_valid_kid

TOKEN_ALGS: Final = ("hs256",)
"""What the host advertises in interrupt.tokenAlgs[]."""
MAX_TOKEN_LENGTH: Final = 4096
"""Longer input is refused before any decoding."""
TOKEN_PREFIX: Final = "ow2"  # noqa: S105 (a format marker, not a secret)
INSPECT_ONLY_DETAIL: Final = "This link only allows viewing the interrupt, not resolving it."
EXPIRED_DETAIL: Final = "The interrupt token has expired."

_TO_URLSAFE: Final = bytes.maketrans(b"+/", b"-_")
# Keyed with random bytes nobody holds: a token whose alg, kid or shape is refused still costs
# one MAC and one constant-time comparison, so the failing part cannot be timed apart.
_DUMMY_KEY: Final = MacKey(secrets.token_bytes(32))


def mint(claims: TokenClaims, keyring: KeySource) -> str:
    """A v2 token for `claims`, signed with the keyring's signing kid."""
    kid, mac_key = keyring.signing()
    payload = _b64encode(claims.to_json().encode("utf-8"))
    signing_input = f"{TOKEN_PREFIX}.{TOKEN_ALGS[0]}.{kid}.{payload}"
    return f"{signing_input}.{_b64encode(mac_key.digest(signing_input.encode('ascii')))}"


def verify(token: str, keyring: KeySource, now: datetime) -> TokenClaims:
    """The token's claims, or InterruptTokenInvalidError (401) / InterruptExpiredError (410).

    `now` must be timezone-aware. Intent is not checked here (see `require_intent`).
    """
    claims = authentic_claims(token, keyring)
    if now >= claims.expires_at:
        raise InterruptExpiredError(EXPIRED_DETAIL)
    return claims


def authentic_claims(token: str, keyring: KeySource) -> TokenClaims:
    """The claims of a token this host signed, expired or not, else InterruptTokenInvalidError (401).

    Only for what an expired link may still do: say what it was for and what came of it, and ask
    for a fresh link (docs/signed-links.md). Everything that acts goes through `verify`."""
    payload = _authenticate(token, keyring)
    try:
        data = json.loads(_b64decode(payload).decode("utf-8"))
        if type(data) is not dict:
            raise InterruptTokenInvalidError()
        return TokenClaims.from_dict(data)
    except (ValueError, TypeError, RecursionError):  # bad base64, UTF-8, JSON or claims
        raise InterruptTokenInvalidError() from None


def require_intent(claims: TokenClaims, intent: Intent) -> None:
    """A resolve token allows both operations; an inspect token only inspect (else 403)."""
    if intent != "inspect" and claims.intent != "resolve":
        raise ForbiddenError(INSPECT_ONLY_DETAIL)


def _authenticate(token: str, keyring: KeySource) -> str:
    """The payload segment of an authentic token, else InterruptTokenInvalidError.

    Every input of acceptable length costs exactly one HMAC and one compare_digest.
    The kid `legacy` is reserved for v1 tokens: a v2 token naming it is refused.
    """
    if type(token) is not str or len(token) > MAX_TOKEN_LENGTH or not token.isascii():
        raise InterruptTokenInvalidError()
    parts = token.split(".")
    if len(parts) == 5:
        prefix, alg, kid, payload, given = parts
        acceptable = prefix == TOKEN_PREFIX and alg in TOKEN_ALGS and kid != LEGACY_KID and is_valid_kid(kid)
        signed = token[: len(token) - len(given) - 1]
    elif len(parts) == 2:
        payload, given = parts
        kid, acceptable, signed = LEGACY_KID, True, payload
    else:
        kid, payload, given, acceptable, signed = "", "", "", False, token
    mac_key = keyring.mac_key_for(kid) if acceptable else None
    if mac_key is None:
        mac_key, acceptable = _DUMMY_KEY, False
    matches = hmac.compare_digest(_b64encode(mac_key.digest(signed.encode("ascii"))), given)
    if not (matches and acceptable):
        raise InterruptTokenInvalidError()
    return payload


def _b64encode(raw: bytes) -> str:
    """base64url without padding (binascii directly: the `base64` wrappers cost 2x)."""
    return binascii.b2a_base64(raw, newline=False).rstrip(b"=").translate(_TO_URLSAFE).decode()


def _b64decode(text: str) -> bytes:
    """Lenient on purpose: only called on a payload whose MAC already matched."""
    return binascii.a2b_base64((text + "=" * (-len(text) % 4)).replace("-", "+").replace("_", "/"))
