"""Make moto's TransactWriteItems honour `ClientRequestToken`, as DynamoDB does.

botocore gives every TransactWriteItems call a `ClientRequestToken` (the member is an idempotency
token in the service model) and resends the same request, token included, when an attempt times out.
DynamoDB answers a repeat of a token it committed within 10 minutes with success and changes nothing,
and a repeat with other parameters with `IdempotentParameterMismatchException`. moto ignores the
token: a retried commit whose first attempt landed is applied again, so its conditions fail and a
transaction that did commit reads as a conflict — or, after a timeout, as nothing known. The local
stack and the integration suites would then test an outcome that AWS never gives.

Only committed transactions are remembered, as DynamoDB does: a cancelled one may be sent again with
the same token and is run again. The requests are serialized by `moto_atomicity`'s lock (a request
whole), so a repeat never meets its first attempt still in progress.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
import time
from collections import OrderedDict
from typing import Any

from moto.core.responses import ActionResult
from moto.dynamodb.exceptions import DynamodbException, MockValidationException

from local.patches import replace_attribute

WINDOW_SECONDS = 600.0  # DynamoDB: "valid for 10 minutes after the first request that uses it is completed"
_KEPT = 10_000  # tokens remembered at most (the oldest go first): a long local run stays flat


class IdempotentParameterMismatchException(DynamodbException):
    error_type = "com.amazonaws.dynamodb.v20120810#IdempotentParameterMismatchException"

    def __init__(self) -> None:
        super().__init__(
            self.error_type,
            message="Request parameters do not match the parameters of the original request with this token",
        )


class CommittedTokens:
    """The tokens of committed transactions in their window: token → (digest of the request, when)."""

    def __init__(self, clock: Any = time.monotonic) -> None:
        self._clock = clock
        self._committed: OrderedDict[str, tuple[str, float]] = OrderedDict()
        self._lock = threading.Lock()

    def seen(self, token: str, digest: str) -> bool:
        """True when `token` committed this very request in its window; a mismatch raises."""
        with self._lock:
            self._forget_expired()
            kept = self._committed.get(token)
        if kept is None:
            return False
        if kept[0] != digest:
            raise IdempotentParameterMismatchException()
        return True

    def remember(self, token: str, digest: str) -> None:
        with self._lock:
            self._committed[token] = (digest, self._clock())
            self._committed.move_to_end(token)
            while len(self._committed) > _KEPT:
                self._committed.popitem(last=False)

    def _forget_expired(self) -> None:
        now = self._clock()
        while self._committed:
            token, (_, committed_at) = next(iter(self._committed.items()))
            if now - committed_at < WINDOW_SECONDS:
                return
            del self._committed[token]


COMMITTED = CommittedTokens()


def request_digest(body: dict[str, Any]) -> str:
    """What "the same request" is: every parameter but the token, as canonical JSON."""
    parameters = {name: value for name, value in body.items() if name != "ClientRequestToken"}
    canonical = json.dumps(parameters, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _honouring_tokens(method: Any) -> Any:
    @functools.wraps(method)
    def transact_write_items(handler: Any, *args: Any, **kwargs: Any) -> Any:
        token = handler.body.get("ClientRequestToken")
        if token is None:
            return method(handler, *args, **kwargs)
        if not isinstance(token, str) or not 1 <= len(token) <= 36:
            raise MockValidationException("ClientRequestToken must be 1 to 36 characters")
        digest = request_digest(handler.body)
        if COMMITTED.seen(token, digest):
            return ActionResult({"ConsumedCapacity": [], "ItemCollectionMetrics": {}})
        answer = method(handler, *args, **kwargs)
        COMMITTED.remember(token, digest)
        return answer

    return transact_write_items


def honour_client_request_tokens() -> None:
    """Idempotent: moto's TransactWriteItems answers a committed token's repeat as DynamoDB does."""
    from moto.dynamodb.responses import DynamoHandler

    replace_attribute(DynamoHandler, "transact_write_items", _honouring_tokens)
