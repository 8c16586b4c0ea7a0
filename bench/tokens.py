"""Tokens: mint and verify per second, ours against PyJWT HS256 and a bare `hmac` + `json.loads`,
all measured in this one run on the same claims (the issue's target: verify <= 2x the bare cost)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
from datetime import UTC, datetime, timedelta

import jwt

from bench.report import Row, median_seconds
from waitgate.tokens import Keyring, TokenClaims, mint, verify

GROUP = "tokens"
NUMBER = 5000


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _setup() -> tuple[Keyring, bytes, TokenClaims]:
    key = secrets.token_bytes(48)
    keyring = Keyring("k1", {"k1": key})
    claims = TokenClaims(
        interrupt_id="01JD0000000000000000000000",
        run_id="release-2026-11-30",
        node_id="Interrupt",
        tenant_id="default",
        intent="resolve",
        expires_at=(datetime.now(UTC) + timedelta(minutes=30)).replace(microsecond=0),
        sub="alice@example.com",
    )
    return keyring, key, claims


def measure() -> dict[str, float]:
    """Operations per second of each contender (higher is better)."""
    keyring, key, claims = _setup()
    now = datetime.now(UTC)
    document = claims.to_dict()
    ours = mint(claims, keyring)
    pyjwt_token = jwt.encode(document, key, algorithm="HS256")
    signing_input, _, mac = ours.rpartition(".")
    payload = signing_input.rsplit(".", 1)[1]

    def bare_verify() -> object:
        given = _b64(hmac.digest(key, signing_input.encode(), hashlib.sha256))
        if not hmac.compare_digest(given, mac):
            raise ValueError("mac")
        return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))

    def bare_mint() -> str:
        body = _b64(json.dumps(document, separators=(",", ":")).encode())
        text = f"ow2.hs256.k1.{body}"
        return f"{text}.{_b64(hmac.digest(key, text.encode(), hashlib.sha256))}"

    timings = {
        "waitgate mint": median_seconds(lambda: mint(claims, keyring), number=NUMBER),
        "waitgate verify": median_seconds(lambda: verify(ours, keyring, now), number=NUMBER),
        "pyjwt HS256 encode": median_seconds(
            lambda: jwt.encode(document, key, algorithm="HS256"), number=NUMBER
        ),
        "pyjwt HS256 decode": median_seconds(
            lambda: jwt.decode(pyjwt_token, key, algorithms=["HS256"], options={"verify_exp": False}),
            number=NUMBER,
        ),
        "bare hmac+json mint": median_seconds(bare_mint, number=NUMBER),
        "bare hmac+json verify": median_seconds(bare_verify, number=NUMBER),
    }
    return {name: 1 / seconds for name, seconds in timings.items()}


def run() -> list[Row]:
    """Rows for `python -m bench` (its runner collects Row lists); `measure()` gives the raw dict."""
    rates = measure()
    rows = [Row(GROUP, f"{name} per second", rate, "ops/s") for name, rate in rates.items()]
    ratio = rates["bare hmac+json verify"] / rates["waitgate verify"]
    rows.append(Row(GROUP, "verify cost vs bare hmac+json", ratio, "x", "≤ 2x", ratio <= 2))
    faster = rates["waitgate verify"] / rates["pyjwt HS256 decode"]
    rows.append(Row(GROUP, "verify speed vs PyJWT HS256 decode", faster, "x", "> 1x", faster > 1))
    return rows


if __name__ == "__main__":
    from bench.report import print_table

    print_table(run())
