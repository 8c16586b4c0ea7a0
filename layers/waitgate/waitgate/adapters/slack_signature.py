"""Slack's request signature (v0), checked with the official SDK's `SignatureVerifier`: `v0=` + hex
HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{raw body}` with the app's signing secret, compared in
constant time, and refused when the timestamp is more than 5 minutes from now (our Clock's). Whatever
the headers and the body hold, the answer is True or False: a timestamp that is not ASCII digits, a
signature that is not ASCII, a body that is not UTF-8 (Slack's never is) are False, never an error."""

from __future__ import annotations

from slack_sdk.signature import Clock as SlackClock
from slack_sdk.signature import SignatureVerifier

from waitgate.ports import Clock


class _PortClock(SlackClock):
    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    def now(self) -> float:
        return self._clock.now().timestamp()


class SlackSignatureCheck:
    def __init__(self, clock: Clock) -> None:
        self._clock = _PortClock(clock)

    def is_valid(
        self, signing_secret: str, body: bytes, timestamp: str | None, signature: str | None
    ) -> bool:
        if not signing_secret.strip() or not timestamp or not signature:
            return False
        if not _is_digits(timestamp, 12) or not signature.isascii() or len(signature) > _MAX_SIGNATURE:
            return False
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            return False
        return SignatureVerifier(signing_secret, clock=self._clock).is_valid(text, timestamp, signature)


_MAX_SIGNATURE = 128  # `v0=` and 64 hex digits


def _is_digits(text: str, at_most: int) -> bool:
    return 0 < len(text) <= at_most and text.isascii() and text.isdigit()
