"""Known-answer vectors: vectors.json, docs/token-vectors.md and the code must all agree."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from waitgate.errors import WaitgateError
from waitgate.tokens import Keyring, TokenClaims, mint, verify

HERE = Path(__file__).parent
VECTORS_PATH = HERE / "vectors.json"
DOC_PATH = HERE.parents[2] / "docs" / "token-vectors.md"
VECTORS: dict[str, Any] = json.loads(VECTORS_PATH.read_text(encoding="utf-8"))
KEYS = {kid: bytes.fromhex(key["hex"]) for kid, key in VECTORS["keys"].items()}
VERIFY_AT = datetime.fromisoformat("2030-01-01T00:00:00Z")


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _keyring() -> Keyring:
    return Keyring.from_secret_json(VECTORS["secretJson"])


def test_the_doc_quotes_vectors_json_exactly() -> None:
    # Given the markdown page and the JSON file
    doc = DOC_PATH.read_text(encoding="utf-8")
    # When the fenced JSON between the markers is extracted
    match = re.search(r"<!-- vectors.json: begin -->\n```json\n(.*?)```\n", doc, re.S)
    assert match is not None
    # Then it is the same data as the file
    assert json.loads(match.group(1)) == VECTORS


def test_every_vector_value_appears_in_the_readable_part_of_the_doc() -> None:
    # Given the doc without its JSON appendix
    doc = DOC_PATH.read_text(encoding="utf-8").split("<!-- vectors.json: begin -->")[0]
    # Then every key, signing input, MAC and token is written out for humans
    for key in VECTORS["keys"].values():
        assert key["hex"] in doc and key["base64url"] in doc
    for vector in VECTORS["valid"]:
        for field in ("claimsJson", "payload", "signingInput", "mac", "token"):
            assert vector[field] in doc, (vector["name"], field)
    assert VECTORS["secretJson"] in doc


def test_keys_hex_and_base64url_agree() -> None:
    for kid, key in VECTORS["keys"].items():
        assert _b64(bytes.fromhex(key["hex"])) == key["base64url"], kid


@pytest.mark.parametrize("vector", VECTORS["valid"], ids=lambda v: v["name"])
def test_valid_vector_is_reproduced_byte_for_byte(vector: dict[str, Any]) -> None:
    # Given the vector's claims and key
    claims = TokenClaims.from_dict(vector["claims"])
    key = KEYS[vector["kid"]]
    # When each step is recomputed independently with the stdlib
    payload = _b64(claims.to_json().encode("utf-8"))
    mac = _b64(hmac.digest(key, vector["signingInput"].encode("ascii"), hashlib.sha256))
    # Then every intermediate value matches the vector
    assert claims.to_json() == vector["claimsJson"]
    assert payload == vector["payload"]
    prefix = f"ow2.hs256.{vector['kid']}." if vector["version"] == 2 else ""
    assert vector["signingInput"] == prefix + payload
    assert mac == vector["mac"]
    assert vector["token"] == f"{vector['signingInput']}.{mac}"


@pytest.mark.parametrize(
    "vector", [v for v in VECTORS["valid"] if v["version"] == 2], ids=lambda v: v["name"]
)
def test_mint_produces_the_v2_vector(vector: dict[str, Any]) -> None:
    # Given a keyring whose signing kid is the vector's kid
    keyring = Keyring(vector["kid"], KEYS)
    # When the vector's claims are minted
    token = mint(TokenClaims.from_dict(vector["claims"]), keyring)
    # Then the token is exactly the vector's
    assert token == vector["token"]


@pytest.mark.parametrize("vector", VECTORS["valid"], ids=lambda v: v["name"])
def test_verify_accepts_the_vector(vector: dict[str, Any]) -> None:
    # Given the vectors' secret When the token is verified before its expiry
    claims = verify(vector["token"], _keyring(), VERIFY_AT)
    # Then the claims are the vector's
    assert claims.to_dict() == vector["claims"]


@pytest.mark.parametrize("case", VECTORS["cases"], ids=lambda c: c["name"])
def test_case_outcome(case: dict[str, Any]) -> None:
    # Given the vectors' secret and the case's clock
    now = datetime.fromisoformat(case["now"])
    # When the case's token is verified
    if case["expect"] == "ok":
        verify(case["token"], _keyring(), now)
        return
    with pytest.raises(WaitgateError) as caught:
        verify(case["token"], _keyring(), now)
    # Then the problem code is the expected one
    assert caught.value.code == case["expect"]
