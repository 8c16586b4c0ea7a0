"""One TransactWriteItems whose outcome is always known, or said to be unknown — never guessed.

A commit that times out may have landed: DynamoDB may have applied it and the answer been lost on the
way back. Sent again as a new request, its conditions would fail on its own write (a conflict, re-read
as "already resolved"), or the caller would be told 503, "nothing changed", while it had changed.

So every transaction carries one `ClientRequestToken`, made here, and is sent again under the same token
while its outcome is in doubt. DynamoDB answers a repeat of a token it committed (within 10 minutes)
with success and changes nothing, and runs a repeat of one it did not commit: the answer to the repeat
is the outcome of the first. botocore's own retries resend the same request, token included. Only when
every repeat went unanswered too does the commit end in `OutcomeUnknownError` — never in a 503, which
promises that nothing changed.
"""

from __future__ import annotations

import contextvars
import time
import uuid
from collections.abc import Callable
from typing import Any

from botocore.exceptions import ConnectTimeoutError, EndpointConnectionError, HTTPClientError

from waitgate.adapters.aws_errors import AWS_CALL_ERRORS, error_code, is_server_error, is_transient
from waitgate.errors import OutcomeUnknownError

Client = Any  # a boto3 DynamoDB client

REPEATS = 2  # sends under the same token after the first, while the outcome is in doubt
REPEAT_BACKOFF_SECONDS = (0.2, 0.5)
_RETRY_EVENT = "needs-retry.dynamodb.TransactWriteItems"
IN_PROGRESS = "TransactionInProgressException"  # a repeat that met its first attempt still running
_doubts: contextvars.ContextVar[list[bool] | None] = contextvars.ContextVar("commit_doubts", default=None)


def may_have_landed(error: BaseException | None, status: int = 0) -> bool:
    """Whether an attempt that ended so may have been applied: sent, and no answer came back (a read
    timeout, a dropped connection) or a 5xx. A connection never made, or any 4xx, applied nothing."""
    if isinstance(error, ConnectTimeoutError | EndpointConnectionError):
        return False
    return isinstance(error, HTTPClientError) or status >= 500 or is_server_error(error)


def _note_attempt(response: Any = None, caught_exception: Any = None, **_: Any) -> None:
    """botocore asks after every attempt whether to retry: note whether that attempt may have landed
    (botocore's own retries resend the same token, so an earlier attempt's doubt is the call's)."""
    doubts = _doubts.get()
    if doubts is None:
        return
    status = 0
    if response is not None:
        status = int(getattr(response[0], "status_code", 0) or 0)
    doubts.append(may_have_landed(caught_exception, status))


def watch_attempts(client: Client) -> None:
    """Idempotent: `client`'s TransactWriteItems attempts are noted for `transact_once`."""
    events = getattr(getattr(client, "meta", None), "events", None)
    if events is not None:
        events.register(_RETRY_EVENT, _note_attempt, unique_id="waitgate-transaction-doubts")


def transact_once(
    client: Client,
    transact_items: list[dict[str, Any]],
    *,
    sleep: Callable[[float], None] = time.sleep,
    token: str | None = None,
) -> None:
    """Apply `transact_items` as one transaction, once. Raises what DynamoDB answered when the outcome
    is known (the caller translates it), and `OutcomeUnknownError` when it is not. The client must have
    been given to `watch_attempts`."""
    request = {"TransactItems": transact_items, "ClientRequestToken": token or str(uuid.uuid4())}
    in_doubt = False
    for repeat in range(REPEATS + 1):
        doubts: list[bool] = []
        reset = _doubts.set(doubts)
        try:
            client.transact_write_items(**request)
            return
        except AWS_CALL_ERRORS as error:
            in_doubt = in_doubt or any(doubts) or may_have_landed(error)
            if not in_doubt or not _worth_repeating(error):
                raise  # known: not applied (a refusal, a conflict, or throttled with nothing in doubt)
            if repeat == REPEATS:
                raise OutcomeUnknownError(
                    "The change was sent but no answer came back, even to its retries: it may or may not "
                    "have been recorded. Retry with the same Idempotency-Key, or read the interrupt."
                ) from error
        finally:
            _doubts.reset(reset)
        sleep(REPEAT_BACKOFF_SECONDS[min(repeat, len(REPEAT_BACKOFF_SECONDS) - 1)])


def _worth_repeating(error: Exception) -> bool:
    return is_transient(error) or is_server_error(error) or error_code(error) == IN_PROGRESS
