"""One HTTP exchange with retries that are safe: stdlib urllib, JSON in and out.

A request is retried (same method, body and headers, so the same Idempotency-Key) when it got no
answer (connection refused/reset, timeout), a 5xx, a 429 (after its Retry-After), or a 409
`idempotency_key_in_flight`. Waits grow exponentially with full jitter, bounded by `max_backoff`.
GETs are safe by nature; every POST the client sends carries an Idempotency-Key, so a retried
resolve whose first attempt did commit is answered with the first answer (`Idempotent-Replayed`).
Tokens, JWTs and URLs holding tokens are never put in an error message.
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any

from waitgate.sdk.api_errors import WaitgateApiError, WaitgateUnreachable, api_error

RETRYABLE_IN_FLIGHT = "idempotency_key_in_flight"


@dataclass(frozen=True)
class Answer:
    status: int
    headers: Mapping[str, str]  # lower-case names
    body: Any  # decoded JSON, or None for an empty body


@dataclass(frozen=True)
class RetryPolicy:
    """`retries` extra attempts after the first; waits of base·2^attempt (full jitter), each at
    most `max_backoff` seconds, and a server's Retry-After honoured up to `max_retry_after`."""

    retries: int = 3
    base_backoff: float = 0.2
    max_backoff: float = 5.0
    max_retry_after: float = 30.0
    jitter: Callable[[], float] = field(default=random.random)  # a fraction in [0, 1)

    def backoff(self, attempt: int, retry_after: float | None) -> float:
        if retry_after is not None:
            return min(retry_after, self.max_retry_after)
        return min(self.max_backoff, self.base_backoff * 2.0**attempt) * self.jitter()


@dataclass(frozen=True)
class Transport:
    timeout: float
    policy: RetryPolicy
    sleep: Callable[[float], None] = time.sleep

    def exchange(self, method: str, url: str, headers: Mapping[str, str], body: Any = None) -> Answer:
        """The answer to a request (status < 400), or raise the typed error of the last answer."""
        data = None if body is None else json.dumps(body, separators=(",", ":")).encode("utf-8")
        attempt = 0
        while True:
            try:
                answer = self._once(method, url, headers, data)
            except WaitgateUnreachable:
                if attempt >= self.policy.retries:
                    raise
                self.sleep(self.policy.backoff(attempt, None))
                attempt += 1
                continue
            if answer.status < 400:
                return answer
            error = api_error(answer.status, answer.body if isinstance(answer.body, dict) else {})
            if attempt >= self.policy.retries or not retryable(error):
                raise error
            self.sleep(self.policy.backoff(attempt, retry_after_seconds(answer.headers)))
            attempt += 1

    def _once(self, method: str, url: str, headers: Mapping[str, str], data: bytes | None) -> Answer:
        _check_scheme(url)
        request = urllib.request.Request(url, data=data, headers=dict(headers), method=method)  # noqa: S310
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 (http(s) only: see _check_scheme)
                return _answer(response.status, response.headers.items(), response.read())
        except urllib.error.HTTPError as error:
            with error:
                return _answer(error.code, error.headers.items(), error.read())
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            raise WaitgateUnreachable(f"{method} failed without an answer: {type(reason).__name__}") from None


def _check_scheme(url: str) -> None:
    if not url.startswith(("http://", "https://")):
        raise ValueError("waitgate URLs are http:// or https://")


def retryable(error: WaitgateApiError) -> bool:
    """5xx, 429, and 409 idempotency_key_in_flight: safe to send again with the same key."""
    return error.status >= 500 or error.status == 429 or error.code == RETRYABLE_IN_FLIGHT


def retry_after_seconds(headers: Mapping[str, str]) -> float | None:
    """Retry-After as seconds (delta-seconds or an HTTP date), None when absent or unreadable."""
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        return max(0.0, parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError):
        return None


def _answer(status: int, header_items: Any, raw: bytes) -> Answer:
    headers = {name.lower(): value for name, value in header_items}
    try:
        body = json.loads(raw) if raw else None
    except ValueError:
        body = None
    return Answer(status, headers, body)
