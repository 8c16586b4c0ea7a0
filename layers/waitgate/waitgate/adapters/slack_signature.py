"""Slack's request signature (v0), checked with the official SDK's `SignatureVerifier`: `v0=` + hex
HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{raw body}` with the app's signing secret, compared in
constant time, and refused when the timestamp is more than 5 minutes from now (our Clock's)."""

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

    def is_valid(self, signing_secret: str, body: str, timestamp: str | None, signature: str | None) -> bool:
        if not signing_secret or not timestamp or not signature or not timestamp.isdigit():
            return False
        return SignatureVerifier(signing_secret, clock=self._clock).is_valid(body, timestamp, signature)
