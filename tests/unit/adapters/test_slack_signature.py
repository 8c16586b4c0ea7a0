"""Slack's v0 signature, checked with the standard library (the acknowledgement's cold start cannot
afford the SDK's import): the same answers as the official SDK's SignatureVerifier, for what Slack
signs and for what it does not."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st
from slack_sdk.signature import Clock, SignatureVerifier

from tests.fakes.memory import FixedClock
from waitgate.adapters.slack_signature import SlackSignatureCheck

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
NOW = 1_764_496_920


class _SdkClock(Clock):
    def now(self) -> float:
        return float(NOW)


def _check() -> SlackSignatureCheck:
    clock = FixedClock()
    clock.moment = datetime.fromtimestamp(NOW, UTC)
    return SlackSignatureCheck(clock)


SDK = SignatureVerifier(SECRET, clock=_SdkClock())


texts = st.text(st.characters(exclude_categories=["Cs"]), max_size=300)  # what UTF-8 can carry


@given(body=texts, age=st.integers(min_value=-400, max_value=400))
def test_a_body_signed_with_the_secret_holds_as_the_sdk_says(body: str, age: int) -> None:
    stamp = str(NOW - age)
    signature = SDK.generate_signature(timestamp=stamp, body=body)
    ours = _check().is_valid(SECRET, body.encode(), stamp, signature)
    assert ours == SDK.is_valid(body, stamp, signature) == (abs(age) <= 300)


@given(
    body=texts,
    signature=st.text(st.characters(max_codepoint=127), max_size=80),
    stamp=st.sampled_from([str(NOW), str(NOW - 1), "1", "0"]),
)
def test_anything_else_is_refused_as_the_sdk_refuses_it(body: str, signature: str, stamp: str) -> None:
    ours = _check().is_valid(SECRET, body.encode(), stamp, signature)
    assert ours == SDK.is_valid(body, stamp, signature) is False


def test_another_secret_an_empty_secret_and_missing_headers_are_refused() -> None:
    body, stamp = "payload=%7B%7D", str(NOW)
    signature = SDK.generate_signature(timestamp=stamp, body=body)
    check = _check()
    assert check.is_valid(SECRET, body.encode(), stamp, signature)
    assert not check.is_valid("another-secret", body.encode(), stamp, signature)
    assert not check.is_valid(" ", body.encode(), stamp, signature)
    assert not check.is_valid(SECRET, body.encode(), None, signature)
    assert not check.is_valid(SECRET, body.encode(), stamp, None)
    assert not check.is_valid(SECRET, body.encode(), "١٧٦٤", signature)  # digits, but not ASCII ones
    assert not check.is_valid(SECRET, body.encode(), stamp, "v0=é")  # the SDK would raise on it
    assert not check.is_valid(SECRET, b"\xff" + body.encode(), stamp, signature)  # not UTF-8
