"""Time as the service sees it: UTC, RFC 3339 text with a Z."""

from __future__ import annotations

import time
from datetime import UTC, datetime


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC)

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


def rfc3339(moment: datetime) -> str:
    """2026-11-30T08:05:17.123Z: UTC, millisecond precision, sortable as text."""
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def parse_rfc3339(text: str) -> datetime:
    parsed = datetime.fromisoformat(text)
    if parsed.tzinfo is None:
        raise ValueError("RFC 3339 times need an offset")
    return parsed.astimezone(UTC)
