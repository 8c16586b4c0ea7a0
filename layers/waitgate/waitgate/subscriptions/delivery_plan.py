"""How one delivery goes: the Standard Webhooks body it sends, what an attempt's answer means, and
after a failed attempt either a retry after a backoff (base, 2×, 4×, … capped at SQS's 12-hour
visibility limit) or, after the last attempt, parking (docs/webhooks-out.md)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from waitgate.run.records import RunEvent
from waitgate.subscriptions.records import QueuedDelivery

MAX_DELAY_SECONDS: Final = 43_200  # SQS ChangeMessageVisibility's limit
MAX_ERROR_LENGTH: Final = 200


@dataclass(frozen=True)
class Retry:
    delay_seconds: int


@dataclass(frozen=True)
class Park:
    pass


def retry_delay(attempt: int, base_seconds: float) -> int:
    """base × 2^(attempt−1) whole seconds, at least 1, at most 12 hours."""
    exponent = min(max(0, attempt - 1), 32)
    return int(min(MAX_DELAY_SECONDS, max(1.0, base_seconds * 2**exponent)))


def after_failure(attempt: int, max_attempts: int, base_seconds: float) -> Retry | Park:
    """What follows failed attempt number `attempt` (1-based) of at most `max_attempts`."""
    if attempt >= max_attempts:
        return Park()
    return Retry(retry_delay(attempt, base_seconds))


def accepted(status_code: int) -> bool:
    """Standard Webhooks: any 2xx is the receiver's receipt; anything else is retried."""
    return 200 <= status_code < 300


def webhook_body(delivery: QueuedDelivery, event: RunEvent) -> dict[str, Any]:
    """`{type, timestamp, data}` (Standard Webhooks' payload): data is the event as the run's event log
    lists it (GET /runs/{runId}/events), with its run."""
    return {
        "type": event.type,
        "timestamp": event.time,
        "data": {"runId": delivery.run_id, **event.to_json()},
    }


def short_error(text: str) -> str:
    """An error's text for the log, bounded (never a body of the receiver's: only what we name)."""
    return text if len(text) <= MAX_ERROR_LENGTH else text[: MAX_ERROR_LENGTH - 1] + "…"
