"""mint/verify behaviour: expiry boundary, lifetime cap, intent, claims strictness, MAC core."""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone

import pytest

from waitgate.errors import ForbiddenError, InterruptExpiredError, InterruptTokenInvalidError
from waitgate.tokens import (
    Keyring,
    MacKey,
    TokenClaims,
    expires_at_for,
    mint,
    require_intent,
    verify,
)

KEYRING = Keyring("k1", {"k1": b"\x01" * 32})
NOW = datetime(2030, 1, 1, 12, 0, 0, tzinfo=UTC)
EXPIRES = NOW + timedelta(minutes=30)


def _claims(**changes: object) -> TokenClaims:
    claims = TokenClaims("int_1", "run_1", "node-a", "tenant-a", "resolve", EXPIRES, jti="j1")
    return replace(claims, **changes)  # type: ignore[arg-type]


def _signed_payload(payload: bytes) -> str:
    """A v2 token with a correct MAC over an arbitrary payload."""
    text = base64.urlsafe_b64encode(payload).rstrip(b"=").decode()
    signing_input = f"ow2.hs256.k1.{text}"
    mac = hmac.digest(b"\x01" * 32, signing_input.encode(), hashlib.sha256)
    return f"{signing_input}.{base64.urlsafe_b64encode(mac).rstrip(b'=').decode()}"


def test_round_trip() -> None:
    # Given claims with a sub When minted and verified Then the same claims come back
    claims = _claims(sub="user:alice")
    assert verify(mint(claims, KEYRING), KEYRING, NOW) == claims


def test_one_second_before_expiry_is_accepted() -> None:
    token = mint(_claims(), KEYRING)
    # When verified 1 s before expiresAt Then it is accepted
    assert verify(token, KEYRING, EXPIRES - timedelta(seconds=1)).expires_at == EXPIRES


@pytest.mark.parametrize("late", [timedelta(0), timedelta(microseconds=1), timedelta(days=1)])
def test_at_or_after_expiry_is_expired(late: timedelta) -> None:
    token = mint(_claims(), KEYRING)
    # When verified at expiresAt or later Then 410
    with pytest.raises(InterruptExpiredError) as caught:
        verify(token, KEYRING, EXPIRES + late)
    assert caught.value.status == 410


def test_expired_and_invalid_checks_mac_first() -> None:
    # Given an expired token with a broken MAC Then it is 401, not 410 (MAC before expiry)
    token = mint(_claims(), KEYRING)[:-2] + "AA"
    with pytest.raises(InterruptTokenInvalidError):
        verify(token, KEYRING, EXPIRES + timedelta(days=1))


def test_default_lifetime_is_thirty_minutes() -> None:
    assert expires_at_for(NOW) == NOW + timedelta(minutes=30)


def test_expires_at_is_capped_at_the_deadline() -> None:
    # Given a deadline 10 minutes away When the expiry is computed Then the deadline wins
    deadline = NOW + timedelta(minutes=10)
    assert expires_at_for(NOW, timedelta(minutes=30), deadline) == deadline
    # And a far deadline leaves the default lifetime
    far = NOW + timedelta(hours=5)
    assert expires_at_for(NOW, timedelta(minutes=30), far) == NOW + timedelta(minutes=30)


def test_expires_at_rounds_down_to_the_second_and_is_utc() -> None:
    # Given a sub-second now in another zone and a sub-second deadline
    now = datetime(2030, 1, 1, 13, 0, 0, 900_000, tzinfo=timezone(timedelta(hours=1)))
    deadline = NOW + timedelta(minutes=5, microseconds=999_999)
    # Then the expiry never outlives the deadline and is second-precision UTC
    expires = expires_at_for(now, timedelta(minutes=30), deadline)
    assert expires == NOW + timedelta(minutes=5)
    assert expires.tzinfo is UTC and expires.microsecond == 0


def test_expires_at_for_refuses_naive_datetimes() -> None:
    with pytest.raises(ValueError):
        expires_at_for(NOW.replace(tzinfo=None))


def test_inspect_token_is_refused_for_resolve() -> None:
    # Given an inspect token When a resolve is asked Then 403 with the spec'd detail
    claims = verify(mint(_claims(intent="inspect"), KEYRING), KEYRING, NOW)
    with pytest.raises(ForbiddenError) as caught:
        require_intent(claims, "resolve")
    assert caught.value.detail == "This link only allows viewing the interrupt, not resolving it."
    # But inspecting with it is fine
    require_intent(claims, "inspect")


def test_resolve_token_allows_both_operations() -> None:
    claims = verify(mint(_claims(), KEYRING), KEYRING, NOW)
    require_intent(claims, "resolve")
    require_intent(claims, "inspect")


def test_jti_is_fresh_and_random() -> None:
    first = TokenClaims("i", "r", "n", "t", "resolve", EXPIRES)
    second = TokenClaims("i", "r", "n", "t", "resolve", EXPIRES)
    assert first.jti != second.jti and len(first.jti) == 22


@pytest.mark.parametrize(
    "changes",
    [
        {"interrupt_id": ""},
        {"intent": "admin"},
        {"sub": ""},
        {"expires_at": EXPIRES.replace(tzinfo=None)},
        {"expires_at": EXPIRES.replace(microsecond=5)},
        {"expires_at": EXPIRES.astimezone(timezone(timedelta(hours=2)))},
    ],
)
def test_claims_refuse_bad_values(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        _claims(**changes)


@pytest.mark.parametrize(
    "payload",
    [
        b'{"interruptId":"i","runId":"r","nodeId":"n","tenantId":"t","intent":"resolve",'
        b'"expiresAt":"2030-01-01T12:30:00Z"}',  # no jti
        b'{"interruptId":"i","runId":"r","nodeId":"n","tenantId":"t","intent":"resolve",'
        b'"expiresAt":"2030-01-01T12:30:00Z","jti":"j","extra":"x"}',
        b'{"interruptId":"i","runId":"r","nodeId":"n","tenantId":"t","intent":"resolve",'
        b'"expiresAt":"2030-01-01T12:30:00+00:00","jti":"j"}',
        b'{"interruptId":"i","runId":"r","nodeId":"n","tenantId":"t","intent":"resolve",'
        b'"expiresAt":"2030-01-01T12:30:00.5Z","jti":"j"}',
        b'{"interruptId":1,"runId":"r","nodeId":"n","tenantId":"t","intent":"resolve",'
        b'"expiresAt":"2030-01-01T12:30:00Z","jti":"j"}',
        b'{"interruptId":"i","runId":"r","nodeId":"n","tenantId":"t","intent":["resolve"],'
        b'"expiresAt":"2030-01-01T12:30:00Z","jti":"j"}',
        b'{"interruptId":"i","runId":"r","nodeId":"n","tenantId":"t","intent":"resolve",'
        b'"expiresAt":"2030-01-01T12:30:00Z","jti":"j","sub":null}',
        b'{"interruptId":"i","runId":"r","nodeId":"n","tenantId":"t","intent":"resolve",'
        b'"expiresAt":"2030-13-01T12:30:00Z","jti":"j"}',
        b'["not", "an", "object"]',
        b"\xff\xfe not utf-8",
        b"[" * 3000,
        b"",
    ],
)
def test_bad_claims_under_a_good_mac_are_invalid(payload: bytes) -> None:
    # Given a correctly signed token whose payload is not strict claims Then 401
    with pytest.raises(InterruptTokenInvalidError):
        verify(_signed_payload(payload), KEYRING, NOW)


def test_a_correctly_signed_strict_payload_is_accepted() -> None:
    payload = (
        b'{"interruptId":"i","runId":"r","nodeId":"n","tenantId":"t","intent":"resolve",'
        b'"expiresAt":"2030-01-01T12:30:00Z","jti":"j"}'
    )
    assert verify(_signed_payload(payload), KEYRING, NOW).sub is None


def test_token_over_4096_chars_is_invalid() -> None:
    token = mint(_claims(interrupt_id="i" * 4000), KEYRING)
    assert len(token) > 4096
    with pytest.raises(InterruptTokenInvalidError):
        verify(token, KEYRING, NOW)


def test_every_invalid_token_gets_the_same_detail() -> None:
    details = set()
    for token in ("", "a.b", "ow2.none.k1.x.y", mint(_claims(), KEYRING) + "x", "é"):
        with pytest.raises(InterruptTokenInvalidError) as caught:
            verify(token, KEYRING, NOW)
        details.add((caught.value.detail, caught.value.status))
    assert details == {("The interrupt token is not valid.", 401)}


@pytest.mark.parametrize("size", [0, 1, 31, 32, 63, 64, 65, 128, 1000])
def test_mac_key_is_hmac_sha256(size: int) -> None:
    # Given keys of many sizes (around the 64-byte block) Then MacKey equals the stdlib HMAC
    key = bytes(range(256))[:size] * (1 + size // 256)
    key = key[:size]
    for message in (b"", b"ow2.hs256.k1.payload", b"x" * 5000):
        assert MacKey(key).digest(message) == hmac.digest(key, message, hashlib.sha256)
    assert "hidden" in repr(MacKey(key))
