"""Slack's request signature (v0): `v0=` + hex HMAC-SHA256 of `v0:{X-Slack-Request-Timestamp}:{raw
body}` with the app's signing secret, compared in constant time, and refused when the timestamp is
more than 5 minutes from now (our Clock's). Whatever the headers and the body hold, the answer is True
or False: a timestamp that is not ASCII digits, a signature that is not ASCII, a body that is not
UTF-8 (Slack's never is) are False, never an error.

The standard library's hmac, as the official SDK's `SignatureVerifier` computes it (a test holds the
two to the same answers): importing `slack_sdk.signature` loads the SDK's whole Web API client, which
the Slack acknowledgement, whose cold start Slack's 3 seconds measure, has no use for.
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from waitgate.ports import Clock

MAX_SKEW_SECONDS = 5 * 60  # Slack's own: a request signed longer ago (or ahead) is refused
_MAX_SIGNATURE = 128  # `v0=` and 64 hex digits


class SlackSignatureCheck:
    def __init__(self, clock: Clock) -> None:
        self._clock = clock

    def is_valid(
        self, signing_secret: str, body: bytes, timestamp: str | None, signature: str | None
    ) -> bool:
        if not signing_secret.strip() or not timestamp or not signature:
            return False
        if not _is_digits(timestamp, 12) or not signature.isascii() or len(signature) > _MAX_SIGNATURE:
            return False
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return False
        if abs(self._clock.now().timestamp() - int(timestamp)) > MAX_SKEW_SECONDS:
            return False
        base = b"v0:" + timestamp.encode("ascii") + b":" + body
        expected = "v0=" + hmac.new(signing_secret.encode("utf-8"), base, hashlib.sha256).hexdigest()
        return hmac.compare_digest(expected, signature)


def _is_digits(text: str, at_most: int) -> bool:
    return 0 < len(text) <= at_most and text.isascii() and text.isdigit()
