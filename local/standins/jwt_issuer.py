"""The local token issuer: an RSA key kept in the state directory, its JWKS, and minted JWTs."""

from __future__ import annotations

import base64
import hashlib
import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from local.state.state_dir import StateDir

LOCAL_AUDIENCE = "waitgate-local"
ISSUER_PATH = "/.local-issuer"


class NoIssuerKeyError(Exception):
    """The state directory has no key yet: `waitgate dev` makes one on its first start."""


def issuer_url(api_url: str) -> str:
    return api_url.rstrip("/") + ISSUER_PATH


@dataclass(frozen=True)
class LocalIssuer:
    """Signs RS256 JWTs as `issuer` for `audience`; the gateway checks them with the same key."""

    private_key: rsa.RSAPrivateKey
    issuer: str
    audience: str = LOCAL_AUDIENCE

    @classmethod
    def load_or_create(cls, state_dir: StateDir, issuer: str) -> LocalIssuer:
        if not state_dir.issuer_key.exists():
            state_dir.ensure()
            key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            pem = key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
            state_dir.issuer_key.write_bytes(pem)
            state_dir.issuer_key.chmod(0o600)
        return cls(_read_key(state_dir.issuer_key), issuer)

    @classmethod
    def of_running_stack(cls, state_dir: StateDir) -> LocalIssuer:
        """The issuer of the stack that owns `state_dir` (its key, its issuer URL)."""
        description = state_dir.read_local_json() or {}
        if not state_dir.issuer_key.exists() or "jwt" not in description:
            raise NoIssuerKeyError(f"no local issuer in {state_dir.root}: run `waitgate dev` first")
        settings = description["jwt"]
        return cls(_read_key(state_dir.issuer_key), settings["issuer"], settings["audience"])

    @property
    def key_id(self) -> str:
        numbers = self.private_key.public_key().public_numbers()
        document = json.dumps({"e": _b64(numbers.e), "kty": "RSA", "n": _b64(numbers.n)})
        return _b64_bytes(hashlib.sha256(document.replace(" ", "").encode()).digest())

    def jwks(self) -> dict[str, Any]:
        numbers = self.private_key.public_key().public_numbers()
        key = {"kty": "RSA", "use": "sig", "alg": "RS256", "kid": self.key_id}
        return {"keys": [{**key, "n": _b64(numbers.n), "e": _b64(numbers.e)}]}

    def openid_configuration(self) -> dict[str, Any]:
        """What a browser's sign-in needs (local/standins/oidc_flow.py): authorization code + PKCE."""
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "jwks_uri": f"{self.issuer}/.well-known/jwks.json",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "subject_types_supported": ["public"],
            "scopes_supported": [
                "openid",
                "approvals:respond",
                "runs:read",
                "interrupts:mint",
                "interrupts:request",
                "subscriptions:manage",
            ],
            "id_token_signing_alg_values_supported": ["RS256"],
        }

    def mint(self, claims: dict[str, Any], ttl_seconds: int = 3600) -> str:
        """A signed JWT with `claims` plus iss, aud, iat, nbf, exp and jti."""
        now = int(time.time())
        registered = {"iss": self.issuer, "aud": self.audience, "iat": now, "nbf": now}
        payload = {**registered, "exp": now + ttl_seconds, "jti": str(uuid.uuid4()), **claims}
        return jwt.encode(payload, self.private_key, algorithm="RS256", headers={"kid": self.key_id})


def caller_claims(
    sub: str,
    scope: str,
    tenant: str | None = None,
    tenant_claim: str = "tenant",
    groups: list[str] | None = None,
    roles: list[str] | None = None,
) -> dict[str, Any]:
    """The claims of a caller as `waitgate dev-jwt` describes one."""
    claims: dict[str, Any] = {"sub": sub, "scope": scope}
    if tenant is not None:
        claims[tenant_claim] = tenant
    if groups:
        claims["groups"] = groups
    if roles:
        claims["roles"] = roles
    return claims


def _read_key(path: Path) -> rsa.RSAPrivateKey:
    key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    if not isinstance(key, rsa.RSAPrivateKey):
        raise NoIssuerKeyError(f"{path} does not hold an RSA private key")
    return key


def _b64(number: int) -> str:
    return _b64_bytes(number.to_bytes((number.bit_length() + 7) // 8, "big"))


def _b64_bytes(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()
