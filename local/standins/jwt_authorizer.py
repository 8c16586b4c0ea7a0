"""API Gateway's JWT authorizer, for the local stack: same checks, same shape of claims."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import jwt

from local.standins.jwt_issuer import LocalIssuer

LEEWAY_SECONDS = 5


class Unauthorized(Exception):
    """Why a request has no valid bearer token (kept out of the answer: it says only 401)."""


@dataclass(frozen=True)
class JwtAuthorizer:
    """Accepts RS256 tokens of one issuer for any of the configured audiences."""

    issuer: LocalIssuer
    audiences: tuple[str, ...]

    def claims_of(self, authorization: str | None) -> dict[str, Any]:
        """The verified claims of `Authorization: Bearer <jwt>`; Unauthorized otherwise."""
        scheme, _, token = (authorization or "").strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("no bearer token")
        try:
            claims: dict[str, Any] = jwt.decode(
                token.strip(),
                self.issuer.private_key.public_key(),
                algorithms=["RS256"],
                audience=list(self.audiences),
                issuer=self.issuer.issuer,
                leeway=LEEWAY_SECONDS,
                options={"require": ["exp", "iss"]},
            )
        except jwt.PyJWTError as error:
            raise Unauthorized(type(error).__name__) from error
        return claims


def gateway_claims(claims: dict[str, Any]) -> dict[str, str]:
    """Claims as API Gateway hands them to a handler: every value a string, lists as "[a b]"."""
    return {name: _gateway_value(value) for name, value in claims.items()}


def _gateway_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        return "[" + " ".join(_gateway_value(item) for item in value) + "]"
    if isinstance(value, dict):
        return json.dumps(value, separators=(",", ":"))
    return str(value)
