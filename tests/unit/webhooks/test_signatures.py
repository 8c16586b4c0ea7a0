"""Each scheme's signature check: what the providers' own libraries accept is accepted, and a forged,
stale or wrong-secret signature never is; any of a rotation's secrets signs."""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from datetime import UTC, datetime

import pytest
import stripe
from hypothesis import given
from hypothesis import strategies as st
from standardwebhooks.webhooks import Webhook, WebhookVerificationError

from waitgate.webhooks.signatures import base64_secret, is_signed, standard_webhooks_signature
from waitgate.webhooks.sources import parse_source

STANDARD = parse_source({"name": "standard", "scheme": "standard-webhooks"})
STRIPE = parse_source({"name": "stripe", "scheme": "stripe"})
GITHUB = parse_source({"name": "github", "scheme": "github"})
HMAC = parse_source({"name": "hmac", "scheme": "hmac-sha256", "signatureHeader": "X-Acme-Signature"})
STANDARD_SECRET = base64_secret(b"0123456789abcdef0123456789abcdef")
BODY = json.dumps({"type": "payment.settled", "data": {"orderId": "o-1"}}).encode()


def standard_headers(secret: str, body: bytes, stamp: int, message_id: str = "msg_1") -> dict[str, str]:
    signature = standard_webhooks_signature(secret, message_id, stamp, body)
    return {"webhook-id": message_id, "webhook-timestamp": str(stamp), "webhook-signature": signature}


def test_standard_webhooks_agrees_with_the_reference_library() -> None:
    # Given a delivery signed now / Then the library verifies it and so does the check
    now = int(time.time())
    headers = standard_headers(STANDARD_SECRET, BODY, now)
    Webhook(STANDARD_SECRET).verify(BODY, headers)
    assert is_signed(STANDARD, [STANDARD_SECRET], BODY, headers, now)
    # And what the library refuses (another body, another secret, ten minutes old), the check refuses
    other = base64_secret(b"another secret of thirty-two b..")
    for body, secret, stamp in (
        (BODY + b" ", STANDARD_SECRET, now),
        (BODY, other, now),
        (BODY, STANDARD_SECRET, now - 600),
    ):
        forged = standard_headers(secret, body, stamp)
        with pytest.raises(WebhookVerificationError):
            Webhook(STANDARD_SECRET).verify(BODY, forged)
        assert not is_signed(STANDARD, [STANDARD_SECRET], BODY, forged, now)


def test_standard_webhooks_takes_any_of_several_signatures_and_secrets() -> None:
    now = int(time.time())
    old, new = STANDARD_SECRET, base64_secret(b"the new secret of the rotation!!")
    headers = standard_headers(old, BODY, now)
    headers["webhook-signature"] = "v1,bm90IGl0 " + headers["webhook-signature"]
    assert is_signed(STANDARD, [new, old], BODY, headers, now)
    assert not is_signed(STANDARD, [new], BODY, headers, now)


def test_stripe_agrees_with_the_stripe_library_and_keeps_its_tolerance() -> None:
    secret, now = "whsec_test_secret", int(time.time())
    header = stripe.WebhookSignature.generate_signature_header(BODY.decode(), secret, now)
    assert stripe.WebhookSignature.verify_header(BODY, header, secret, tolerance=300)
    assert is_signed(STRIPE, [secret], BODY, {"stripe-signature": header}, now)
    # Stale: past the 300 s tolerance, refused by both
    stale = stripe.WebhookSignature.generate_signature_header(BODY.decode(), secret, now - 301)
    with pytest.raises(stripe.SignatureVerificationError):
        stripe.WebhookSignature.verify_header(BODY, stale, secret, tolerance=300)
    assert not is_signed(STRIPE, [secret], BODY, {"stripe-signature": stale}, now)
    # Wrong secret, and a header of two v1 signatures where one holds (Stripe's own rotation)
    assert not is_signed(STRIPE, ["whsec_other"], BODY, {"stripe-signature": header}, now)
    both = header + ",v1=" + "0" * 64
    assert is_signed(STRIPE, [secret], BODY, {"stripe-signature": both}, now)


def test_github_and_plain_hmac_sign_the_body() -> None:
    secret = "it's a secret to everybody"
    mac = hmac.new(secret.encode(), BODY, hashlib.sha256).hexdigest()
    assert is_signed(GITHUB, [secret], BODY, {"x-hub-signature-256": f"sha256={mac}"}, 0)
    assert not is_signed(
        GITHUB, [secret], BODY, {"x-hub-signature-256": mac}, 0
    )  # GitHub's prefix is required
    assert not is_signed(GITHUB, [secret], BODY + b"\n", {"x-hub-signature-256": f"sha256={mac}"}, 0)
    assert is_signed(HMAC, ["x", secret], BODY, {"x-acme-signature": mac}, 0)
    assert is_signed(HMAC, [secret], BODY, {"x-acme-signature": f"sha256={mac}"}, 0)
    assert not is_signed(HMAC, [secret], BODY, {"x-signature": mac}, 0)  # not the source's header


def test_no_secret_signs_nothing() -> None:
    now = int(time.time())
    headers = standard_headers(STANDARD_SECRET, BODY, now)
    assert not is_signed(STANDARD, [], BODY, headers, now)
    assert not is_signed(STANDARD, [""], BODY, headers, now)


HEADER_NAMES = st.sampled_from(
    [
        "webhook-id",
        "webhook-timestamp",
        "webhook-signature",
        "stripe-signature",
        "x-hub-signature-256",
        "x-acme-signature",
    ]
)


@given(
    body=st.binary(max_size=200),
    headers=st.dictionaries(HEADER_NAMES, st.text(max_size=120), max_size=6),
    secret=st.text(max_size=40),
)
def test_whatever_arrives_is_refused_without_raising(
    body: bytes, headers: dict[str, str], secret: str
) -> None:
    # Given anything at all in the headers and the body, and any secret / Then no check raises, none holds
    now = datetime(2026, 11, 30, tzinfo=UTC).timestamp()
    for source in (STANDARD, STRIPE, GITHUB, HMAC):
        assert is_signed(source, [secret, STANDARD_SECRET], body, headers, now) is False
