"""Keyring parsing, rotation and the cache's refresh rules (loader and clock injected)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from datetime import UTC, datetime, timedelta

import pytest

from waitgate.errors import InterruptTokenInvalidError
from waitgate.tokens import CachedKeyring, Keyring, KeyringError, TokenClaims, mint, verify

K1, K2, LEGACY = b"\x01" * 32, b"\x02" * 32, b"\x03" * 32
NOW = datetime(2030, 1, 1, tzinfo=UTC)
CLAIMS = TokenClaims("int_1", "run_1", "node", "tenant", "resolve", NOW + timedelta(minutes=30))


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _secret(signing: str, **keys: bytes) -> str:
    return json.dumps({"signingKid": signing, "keys": {k: _b64(v) for k, v in keys.items()}})


class FakeSecretStore:
    """The adapter's stand-in: a secret text that counts how often it was fetched."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.loads = 0

    def __call__(self) -> str:
        self.loads += 1
        return self.text


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_from_secret_json_parses_keys_with_or_without_padding() -> None:
    text = json.dumps({"signingKid": "k2", "keys": {"k1": _b64(K1) + "=", "k2": _b64(K2)}})
    keyring = Keyring.from_secret_json(text)
    assert keyring.signing_kid == "k2"
    assert keyring.key_for("k1") == K1 and keyring.key_for("nope") is None
    assert dict(keyring.keys) == {"k1": K1, "k2": K2}
    assert "\\x01" not in repr(keyring) and "k1" in repr(keyring)


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        "[]",
        json.dumps({"signingKid": "k9", "keys": {"k1": _b64(K1)}}),  # signing kid without key
        json.dumps({"signingKid": "k1", "keys": {"k1": _b64(b"short")}}),
        json.dumps({"signingKid": "k1", "keys": {"k1": "not/base64+"}}),
        json.dumps({"signingKid": "k1", "keys": {"k1": 42}}),
        json.dumps({"signingKid": "k1", "keys": {"k/1": _b64(K1), "k1": _b64(K1)}}),
        json.dumps({"signingKid": "k1", "keys": {}}),
        json.dumps({"signingKid": "k1", "keys": {"k1": _b64(K1)}, "extra": 1}),
        json.dumps({"signingKid": "legacy", "keys": {"legacy": _b64(K1)}}),
        json.dumps({"signingKid": 1, "keys": {"k1": _b64(K1)}}),
    ],
)
def test_from_secret_json_refuses_bad_secrets(text: str) -> None:
    with pytest.raises(KeyringError) as caught:
        Keyring.from_secret_json(text)
    assert _b64(K1) not in str(caught.value)


def test_rotation_keeps_old_tokens_and_signs_with_the_new_kid() -> None:
    # Given a token minted under k1
    store, clock = FakeSecretStore(_secret("k1", k1=K1)), FakeClock()
    cache = CachedKeyring(store, clock)
    old_token = mint(CLAIMS, cache)
    assert old_token.startswith("ow2.hs256.k1.")
    # When k2 is added and made the signing kid, and the cache TTL passes
    store.text = _secret("k2", k1=K1, k2=K2)
    clock.now += 300
    # Then new tokens use k2 and the k1 token still verifies
    assert mint(CLAIMS, cache).startswith("ow2.hs256.k2.")
    assert verify(old_token, cache, NOW) == CLAIMS
    # When k1 is removed, the k1 token fails closed after the next refresh
    store.text = _secret("k2", k2=K2)
    clock.now += 300
    with pytest.raises(InterruptTokenInvalidError):
        verify(old_token, cache, NOW)


def test_a_freshly_rotated_in_kid_works_at_once() -> None:
    # Given a cache loaded with k1 only, well within its TTL
    store, clock = FakeSecretStore(_secret("k1", k1=K1)), FakeClock()
    cache = CachedKeyring(store, clock)
    cache.current()
    clock.now += 60
    # When another container already mints with a newly added k2
    store.text = _secret("k2", k1=K1, k2=K2)
    token = mint(CLAIMS, Keyring("k2", {"k2": K2}))
    # Then this cache reloads once and accepts it
    assert verify(token, cache, NOW) == CLAIMS
    assert store.loads == 2


def test_unknown_kid_flood_reloads_at_most_once_per_30_seconds() -> None:
    # Given a loaded cache and tokens naming kids nobody holds
    store, clock = FakeSecretStore(_secret("k1", k1=K1)), FakeClock()
    cache = CachedKeyring(store, clock)
    cache.current()
    forged = mint(CLAIMS, Keyring("forged", {"forged": K2}))
    clock.now += 31
    # When 1000 are verified within 30 s
    for _ in range(1000):
        with pytest.raises(InterruptTokenInvalidError):
            verify(forged, cache, NOW)
        clock.now += 0.02
    # Then the secret was fetched once for the flood (plus the initial load)
    assert store.loads == 2
    # And after 30 s one more reload is allowed
    clock.now += 30
    with pytest.raises(InterruptTokenInvalidError):
        verify(forged, cache, NOW)
    assert store.loads == 3


def test_the_cache_serves_within_the_ttl_without_reloading() -> None:
    store, clock = FakeSecretStore(_secret("k1", k1=K1)), FakeClock()
    cache = CachedKeyring(store, clock, ttl=300)
    token = mint(CLAIMS, cache)
    for _ in range(100):
        verify(token, cache, NOW)
        clock.now += 2.9
    assert store.loads == 1
    clock.now += 10
    verify(token, cache, NOW)
    assert store.loads == 2


def test_a_loader_failure_propagates_and_no_stale_keyring_is_served() -> None:
    # Given a cache whose TTL has passed and a secret store that fails
    store, clock = FakeSecretStore(_secret("k1", k1=K1)), FakeClock()
    cache = CachedKeyring(store, clock)
    cache.current()
    clock.now += 301
    store.text = "{broken"
    # Then the error surfaces (the adapter maps it), on every call until a load succeeds
    for _ in range(2):
        with pytest.raises(KeyringError):
            cache.current()
    store.text = _secret("k1", k1=K1)
    assert cache.signing_kid == "k1"


def test_legacy_v1_token_verifies_only_with_a_legacy_key() -> None:
    # Given a v1 token (payload.mac) signed with the legacy secret
    v2 = mint(CLAIMS, Keyring("legacy2", {"legacy2": LEGACY}))
    payload = v2.split(".")[3]
    mac = _b64(hmac.digest(LEGACY, payload.encode(), hashlib.sha256))
    v1 = f"{payload}.{mac}"
    # Then it verifies while the legacy kid is held, and fails closed once it is removed
    with_legacy = Keyring("k1", {"k1": K1, "legacy": LEGACY})
    assert verify(v1, with_legacy, NOW) == CLAIMS
    with pytest.raises(InterruptTokenInvalidError):
        verify(v1, Keyring("k1", {"k1": K1}), NOW)
