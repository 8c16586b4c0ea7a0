"""Property: a mutated or arbitrary token is only ever InterruptTokenInvalidError."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.hypothesis_profiles import examples
from waitgate.errors import InterruptTokenInvalidError
from waitgate.tokens import Keyring, TokenClaims, mint, verify

KEYS = {"k1": b"\x01" * 32, "k2": b"\x02" * 32, "legacy": b"\x03" * 32}
KEYRING = Keyring("k1", KEYS)
NOW = datetime(2030, 1, 1, tzinfo=UTC)
CLAIMS = TokenClaims("int_1", "run_1", "node", "tenant", "resolve", NOW + timedelta(minutes=30), sub="u")
TOKEN = mint(CLAIMS, KEYRING)
_, ALG, KID, PAYLOAD, MAC = TOKEN.split(".")
B64_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
FAST = settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _assert_invalid(token: object) -> None:
    with pytest.raises(InterruptTokenInvalidError) as caught:
        verify(token, KEYRING, NOW)  # type: ignore[arg-type]
    assert (caught.value.status, caught.value.detail) == (401, "The interrupt token is not valid.")


def test_the_unmutated_token_is_valid() -> None:
    assert verify(TOKEN, KEYRING, NOW) == CLAIMS


@FAST
@given(st.text(min_size=1, max_size=20).filter(lambda alg: alg != "hs256"))
def test_changed_alg(alg: str) -> None:
    _assert_invalid(f"ow2.{alg}.{KID}.{PAYLOAD}.{MAC}")


kids = st.one_of(
    st.sampled_from(["../k1", "k1/../k1", '"k1"', "k1'", "k1\x00", "kï", "K1", "", "k" * 65]),
    st.text(max_size=70),
).filter(lambda kid: kid != KID)


@FAST
@given(kids)
def test_changed_kid(kid: str) -> None:
    _assert_invalid(f"ow2.{ALG}.{kid}.{PAYLOAD}.{MAC}")


@FAST
@given(kids)
def test_changed_kid_with_a_mac_recomputed_under_k1(kid: str) -> None:
    # Even a correct MAC for the altered signing input fails: the kid selects the key
    signing_input = f"ow2.{ALG}.{kid}.{PAYLOAD}"
    mac = _b64(hmac.digest(KEYS["k1"], signing_input.encode("utf-8"), hashlib.sha256))
    _assert_invalid(f"{signing_input}.{mac}")


def test_v2_token_with_kid_legacy_and_a_correct_legacy_mac() -> None:
    signing_input = f"ow2.hs256.legacy.{PAYLOAD}"
    mac = _b64(hmac.digest(KEYS["legacy"], signing_input.encode(), hashlib.sha256))
    _assert_invalid(f"{signing_input}.{mac}")


@FAST
@given(
    st.one_of(
        st.integers(0, len(MAC) - 1).map(lambda n: MAC[:n]),
        st.text(B64_ALPHABET + "=", min_size=1, max_size=8).map(lambda tail: MAC + tail),
        st.sampled_from([MAC + "=", MAC + "==", MAC.upper(), MAC.lower(), MAC[::-1]]),
        st.text(B64_ALPHABET, min_size=43, max_size=43),
    ).filter(lambda mac: mac != MAC)
)
def test_changed_mac(mac: str) -> None:
    _assert_invalid(f"ow2.{ALG}.{KID}.{PAYLOAD}.{mac}")


@FAST
@given(st.data())
def test_altered_payload_character(data: st.DataObject) -> None:
    index = data.draw(st.integers(0, len(PAYLOAD) - 1))
    char = data.draw(st.sampled_from(B64_ALPHABET).filter(lambda c: c != PAYLOAD[index]))
    payload = PAYLOAD[:index] + char + PAYLOAD[index + 1 :]
    _assert_invalid(f"ow2.{ALG}.{KID}.{payload}.{MAC}")


@FAST
@given(st.lists(st.text(max_size=10), min_size=1, max_size=4), st.booleans())
def test_extra_or_missing_segments(extra: list[str], prepend: bool) -> None:
    parts = [*extra, TOKEN] if prepend else [TOKEN, *extra]
    _assert_invalid(".".join(parts))
    _assert_invalid(".".join(TOKEN.split(".")[: len(extra)]))


@settings(max_examples=examples(20), deadline=None)
@given(st.integers(4097, 1_000_000), st.sampled_from(["A", ".", "é", "\x00"]))
def test_huge_inputs(size: int, char: str) -> None:
    _assert_invalid(TOKEN + char * (size - len(TOKEN)))
    _assert_invalid(char * size)


@FAST
@given(st.binary(max_size=600))
def test_random_bytes(raw: bytes) -> None:
    _assert_invalid(raw.decode("latin-1"))
    _assert_invalid(raw)  # not even a str


@FAST
@given(st.text(max_size=600))
def test_random_text(text: str) -> None:
    _assert_invalid(text)


@FAST
@given(st.text(max_size=600))
def test_random_text_as_a_v2_or_v1_payload(text: str) -> None:
    # Random payload text with a forged (unkeyed) MAC in both shapes
    _assert_invalid(f"ow2.hs256.k1.{text}.{MAC}")
    _assert_invalid(f"{text}.{MAC}")


@FAST
@given(st.binary(max_size=800))
def test_arbitrary_bytes_under_a_correct_mac(raw: bytes) -> None:
    # Authentic but garbage claims still only ever give the 401
    signing_input = f"ow2.hs256.k1.{_b64(raw)}"
    mac = _b64(hmac.digest(KEYS["k1"], signing_input.encode(), hashlib.sha256))
    _assert_invalid(f"{signing_input}.{mac}")


def test_empty() -> None:
    _assert_invalid("")
    _assert_invalid(".")
    _assert_invalid("....")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner),
    max_leaves=5,
)


@FAST
@given(st.sampled_from(sorted(CLAIMS.to_dict())), json_values, st.booleans())
def test_mutated_claims_under_a_correct_mac(key: str, value: object, drop: bool) -> None:
    # Given valid claims with one field dropped or replaced by a wrong-typed/odd JSON value
    claims: dict[str, object] = dict(CLAIMS.to_dict())
    if drop:
        del claims[key]
    else:
        claims[key] = value
    signing_input = f"ow2.hs256.k1.{_b64(json.dumps(claims).encode())}"
    mac = _b64(hmac.digest(KEYS["k1"], signing_input.encode(), hashlib.sha256))
    token = f"{signing_input}.{mac}"
    # Then the only outcomes are the 401 or (for a still-valid mutation) the claims
    string_keys = {"sub", "interruptId", "runId", "nodeId", "tenantId", "jti"}
    if drop:
        still_valid = key == "sub"
    elif key in string_keys:
        still_valid = isinstance(value, str) and value != ""
    elif key == "intent":
        still_valid = value in ("resolve", "inspect")
    else:
        still_valid = value == CLAIMS.to_dict()["expiresAt"]
    if still_valid:
        verify(token, KEYRING, NOW)
    else:
        _assert_invalid(token)


class _CountingKey:
    def __init__(self) -> None:
        self.calls = 0

    def digest(self, message: bytes) -> bytes:
        self.calls += 1
        return b"\x00" * 32


@pytest.mark.parametrize(
    "token",
    [
        "x",
        "a.b.c",
        f"ow2.none.{KID}.{PAYLOAD}.{MAC}",
        f"ow2.hs256.k9.{PAYLOAD}.{MAC}",
        f"ow2.hs256.legacy.{PAYLOAD}.{MAC}",
        f"ow2.hs256.../x.{PAYLOAD}.{MAC}",
    ],
)
def test_every_refused_shape_alg_or_kid_still_costs_one_mac(
    token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Given the dummy key replaced by a counter
    counting = _CountingKey()
    monkeypatch.setattr("waitgate.tokens.codec._DUMMY_KEY", counting)
    # When a token refused before the MAC is verified Then one MAC was still computed
    _assert_invalid(token)
    assert counting.calls == 1
