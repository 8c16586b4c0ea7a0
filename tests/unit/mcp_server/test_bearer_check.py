"""`POST /mcp`'s bearer check (waitgate.mcp_server.bearer) against a real issuer on this machine: an
HTTP server with its discovery document and JWKS, RS256 tokens signed with its key. A token passes as
API Gateway's JWT authorizer would pass it, and nothing else does."""

from __future__ import annotations

import asyncio
import base64
import json
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from waitgate.mcp_server.bearer import JwtVerifier

KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)
OTHER_KEY = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _b64(number: int) -> str:
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@pytest.fixture(scope="module")
def issuer() -> Iterator[str]:
    numbers = KEY.public_key().public_numbers()
    jwks = {
        "keys": [
            {
                "kty": "RSA",
                "kid": "k1",
                "alg": "RS256",
                "use": "sig",
                "n": _b64(numbers.n),
                "e": _b64(numbers.e),
            }
        ]
    }
    documents: dict[str, Any] = {"/.well-known/jwks.json": jwks}

    class Issuer(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps(documents.get(self.path, {})).encode()
            self.send_response(200 if self.path in documents else 404)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *_: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Issuer)
    url = f"http://127.0.0.1:{server.server_port}"
    documents["/.well-known/openid-configuration"] = {
        "issuer": url,
        "jwks_uri": url + "/.well-known/jwks.json",
    }
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield url
    server.shutdown()
    thread.join(timeout=5)


def token(issuer: str, key: Any = KEY, **claims: Any) -> str:
    now = int(time.time())
    payload = {"iss": issuer, "sub": "agent-7", "aud": "waitgate", "iat": now, "exp": now + 300}
    payload.update(claims)
    payload = {name: value for name, value in payload.items() if value is not None}
    return jwt.encode(payload, key, algorithm="RS256", headers={"kid": "k1"})


def verified(issuer: str, bearer: str) -> Any:
    return asyncio.run(JwtVerifier(issuer, ("waitgate", "app-client")).verify_token(bearer))


def test_a_token_of_the_issuer_for_an_accepted_audience_passes_with_its_claims_and_scopes(
    issuer: str,
) -> None:
    access = verified(issuer, token(issuer, scope="interrupts:request runs:read", tenant="acme"))
    assert access is not None
    assert (access.subject, access.scopes, access.claims["tenant"]) == (
        "agent-7",
        ["interrupts:request", "runs:read"],
        "acme",
    )


def test_a_cognito_access_token_passes_by_its_client_id(issuer: str) -> None:
    assert verified(issuer, token(issuer, aud=None, client_id="app-client")) is not None


@pytest.mark.parametrize(
    "claims",
    [
        {"aud": "someone-else"},
        {"aud": None},
        {"iss": "https://issuer.example.com"},
        {"exp": int(time.time()) - 60},
        {"nbf": int(time.time()) + 600},
        {"sub": None},
        {"exp": None},
    ],
    ids=["other audience", "no audience", "other issuer", "expired", "not yet", "no sub", "no exp"],
)
def test_anything_else_is_refused(issuer: str, claims: dict[str, Any]) -> None:
    assert verified(issuer, token(issuer, **claims)) is None


def test_a_token_signed_by_another_key_or_not_a_token_is_refused(issuer: str) -> None:
    assert verified(issuer, token(issuer, key=OTHER_KEY)) is None
    assert verified(issuer, "not.a.jwt") is None
    unsigned = jwt.encode(
        {"iss": issuer, "sub": "x", "aud": "waitgate", "exp": int(time.time()) + 60}, "", algorithm="none"
    )
    assert verified(issuer, unsigned) is None
