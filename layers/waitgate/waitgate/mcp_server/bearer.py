"""The bearer JWTs of `POST /mcp`, checked here as API Gateway's JWT authorizer checks them elsewhere.

The route has no authorizer of the gateway's: API Gateway's own 401 carries no `WWW-Authenticate`,
and MCP's authorization asks for one that points at the resource metadata, so the SDK's bearer
middleware answers it, with this verifier: signature by a key of the issuer's JWKS (found through its
`/.well-known/openid-configuration`), `iss`, `exp`/`nbf`, and `aud` (or, as Cognito's access tokens
carry it, `client_id`) among the accepted audiences. Tokens are never logged.
"""

from __future__ import annotations

import json
import logging
import urllib.request
from collections.abc import Mapping
from typing import Any, Final

import jwt
from mcp.server.auth.provider import AccessToken

from waitgate.http.auth import scopes_of

logger = logging.getLogger(__name__)
ALGORITHMS: Final = ["RS256", "RS384", "RS512"]
DISCOVERY_TIMEOUT_SECONDS: Final = 5


class JwtVerifier:
    def __init__(self, issuer: str, audiences: tuple[str, ...]) -> None:
        self._issuer = issuer.rstrip("/")
        self._audiences = frozenset(audiences)
        self._keys: jwt.PyJWKClient | None = None

    async def verify_token(self, token: str) -> AccessToken | None:
        try:
            claims = self._claims(token)
        except (jwt.PyJWTError, OSError, ValueError, KeyError) as error:
            logger.info("bearer token refused: %s", type(error).__name__)
            return None
        return AccessToken(
            token=token,
            client_id=str(claims.get("client_id") or claims.get("azp") or claims["sub"]),
            scopes=sorted(scopes_of(claims)),
            expires_at=int(claims["exp"]),
            subject=str(claims["sub"]),
            claims=claims,
        )

    def _claims(self, token: str) -> dict[str, Any]:
        key = self._key_source().get_signing_key_from_jwt(token)
        claims: dict[str, Any] = jwt.decode(
            token,
            key.key,
            algorithms=ALGORITHMS,
            issuer=self._issuer,
            options={"verify_aud": False, "require": ["exp", "sub", "iss"]},
        )
        if not self._for_us(claims):
            raise jwt.InvalidAudienceError("no accepted audience")
        return claims

    def _for_us(self, claims: Mapping[str, Any]) -> bool:
        audience = claims.get("aud")
        audiences = {audience} if isinstance(audience, str) else set(audience or ())
        return bool(audiences & self._audiences) or claims.get("client_id") in self._audiences

    def _key_source(self) -> jwt.PyJWKClient:
        if self._keys is None:
            self._keys = jwt.PyJWKClient(self._jwks_uri(), cache_keys=True, lifespan=300)
        return self._keys

    def _jwks_uri(self) -> str:
        url = self._issuer + "/.well-known/openid-configuration"
        if not url.startswith(("https://", "http://")):
            raise ValueError("the issuer is not an http(s) URL")
        with urllib.request.urlopen(url, timeout=DISCOVERY_TIMEOUT_SECONDS) as answer:  # noqa: S310 (checked above)
            return str(json.loads(answer.read())["jwks_uri"])
