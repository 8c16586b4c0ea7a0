"""The interrupt token codec (ow2 v2 and legacy v1) and its keyring. Pure: stdlib only."""

from waitgate.tokens.claims import (
    DEFAULT_LIFETIME,
    INTENTS,
    Intent,
    TokenClaims,
    expires_at_for,
    new_jti,
)
from waitgate.tokens.codec import (
    MAX_TOKEN_LENGTH,
    TOKEN_ALGS,
    authentic_claims,
    mint,
    require_intent,
    verify,
)
from waitgate.tokens.keyring import (
    LEGACY_KID,
    CachedKeyring,
    Keyring,
    KeyringError,
    KeySource,
    MacKey,
    is_valid_kid,
)

__all__ = [
    "DEFAULT_LIFETIME",
    "INTENTS",
    "LEGACY_KID",
    "MAX_TOKEN_LENGTH",
    "TOKEN_ALGS",
    "CachedKeyring",
    "Intent",
    "KeySource",
    "Keyring",
    "KeyringError",
    "MacKey",
    "TokenClaims",
    "authentic_claims",
    "expires_at_for",
    "is_valid_kid",
    "mint",
    "new_jti",
    "require_intent",
    "verify",
]
